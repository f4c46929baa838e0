/**
 * Rows claimed ahead follow the node's pace (memory/pace.ts). Each new row Create or Update
 * prepares ahead is claimed in n8n's store at once; a worker killed in the middle of a run leaves
 * those claims, and `npm run queue` sync-kill counts their rows as never created. An execution
 * that sends slowly (one request at a time to a service answering in 100 ms) holds claims for the
 * rows it sends in about two decisions, not the 100 of a fast run; the next execution of the node
 * in the same process starts from that pace. Through n8n's engine against the sandbox, with the
 * engine's store (test/helpers/deduplicator.ts).
 */
import type { DeduplicationItemTypes, IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { INITIAL_AHEAD, MIN_AHEAD } from '../../nodes/Recruiting/memory/pace';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness, deduplicator } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const rows = (count: number, tag: string): IDataObject[] => Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}` }));

beforeEach(() => forgetProcessMemory());
afterEach(() => sandbox().setFaults({}));

/** One run of `count` new rows, sampling every 50 ms the rows claimed in the store and not created at the service. */
async function watchedRun(harness: Harness, count: number, tag: string): Promise<Array<{ at: number; unsent: number }>> {
	const claimed = new Set<string>();
	const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
	const spy = jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
		for (const item of items) if (String(item).startsWith('claim:')) claimed.add(String(item));
		return await record(items, ...rest);
	});
	const created = () => sandbox().candidates(ALICE.companyId).filter((candidate) => String(candidate.email).startsWith(`${tag}.`)).length;
	const samples: Array<{ at: number; unsent: number }> = [];
	const started = Date.now();
	let running = true;
	const sampling = (async () => {
		for (; running; await sleep(50)) samples.push({ at: Date.now() - started, unsent: claimed.size - created() });
	})();
	try {
		const result = await harness.run({ parameters: upsertParameters({ options: { concurrency: 1 } }, { firstName: '={{ $json.first }}' }), items: rows(count, tag), onError: 'continueRegularOutput' });
		expect(result.items.map((item) => item.json.action)).toEqual(Array(count).fill('created'));
	} finally {
		running = false;
		await sampling;
		spy.mockRestore();
	}
	return samples;
}

describe('rows claimed ahead follow the node pace', () => {
	it('one request at a time, 100 ms each: after its first seconds a run holds claims for at most 13 rows it has not created (100 all along before); the next run of the node in this process from its start; every row created', async () => {
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const first = await watchedRun(harness, 120, 'pace1');
		const later = first.filter(({ at }) => at > 5_000);
		expect(later.length).toBeGreaterThan(60);
		// At its start, before any row of the node was done here: the rows of its first decisions.
		expect(Math.max(...first.map(({ unsent }) => unsent))).toBeLessThanOrEqual(INITIAL_AHEAD + 3);
		// Then: 1.5 times the rows it sends in one decision (about 4.5 a second: a creation and a profile update of 100 ms each;
		// a decision about 1 s), at least MIN_AHEAD, besides the one in flight.
		expect(Math.max(...later.map(({ unsent }) => unsent))).toBeLessThanOrEqual(MIN_AHEAD + 3);
		// The next run of the node in this process: from its start.
		const second = await watchedRun(harness, 40, 'pace2');
		expect(Math.max(...second.map(({ unsent }) => unsent))).toBeLessThanOrEqual(MIN_AHEAD + 3);
	}, 90_000);
});
