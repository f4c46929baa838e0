/**
 * Rows claimed ahead follow the execution's pace (memory/pace.ts). Each new row Create or Update
 * prepares ahead is claimed in n8n's store at once; a worker killed in the middle of a run leaves
 * those claims, and `npm run queue` sync-kill counts their rows as never created. An execution
 * that takes rows slowly (one request at a time to a service answering in 100 ms) holds claims
 * for the rows it sends in about two decisions, not the 100 of a fast run.
 * Through n8n's engine against the sandbox, with the engine's store (test/helpers/deduplicator.ts).
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

describe('rows claimed ahead follow the execution pace', () => {
	it('one request at a time, 100 ms each: after its first seconds the run holds claims for at most 13 rows it has not created (100 all along before), and creates every row', async () => {
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		const claimed = new Set<string>();
		const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
		const spy = jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			for (const item of items) if (String(item).startsWith('claim:')) claimed.add(String(item));
			return await record(items, ...rest);
		});
		const created = () => sandbox().candidates(ALICE.companyId).filter((candidate) => String(candidate.email).startsWith('pace.')).length;
		const samples: Array<{ at: number; unsent: number }> = [];
		const started = Date.now();
		let running = true;
		const sampling = (async () => {
			for (; running; await sleep(50)) samples.push({ at: Date.now() - started, unsent: claimed.size - created() });
		})();
		try {
			const harness = new Harness(emailCredential(sandbox(), ALICE));
			const result = await harness.run({ parameters: upsertParameters({ options: { concurrency: 1 } }, { firstName: '={{ $json.first }}' }), items: rows(160, 'pace'), onError: 'continueRegularOutput' });
			expect(result.items.map((item) => item.json.action)).toEqual(Array(160).fill('created'));
		} finally {
			running = false;
			await sampling;
			spy.mockRestore();
		}
		const later = samples.filter(({ at }) => at > 5_000);
		expect(later.length).toBeGreaterThan(100);
		// At its start: the rows of its first decisions (before, the 100 rows of a store that answers at once, for the whole run).
		expect(Math.max(...samples.map(({ unsent }) => unsent))).toBeLessThanOrEqual(INITIAL_AHEAD + 3);
		// Then: 1.5 times the rows it sends in one decision (about 4.5 a second: a creation and a profile update of 100 ms each;
		// a decision about 1 s), at least MIN_AHEAD, besides the one in flight.
		expect(Math.max(...later.map(({ unsent }) => unsent))).toBeLessThanOrEqual(MIN_AHEAD + 3);
	}, 60_000);
});
