/**
 * Issue 46, item 6: the journal at the size the README promises. n8n's deduplication store reads
 * and rewrites a node's whole list per call, and its `removeProcessed` scans the whole list for
 * each value taken off (n8n 2.41.1, `DeduplicationHelper`): 1,000 values over 400,000 entries kept
 * a call about 4 s between its read and its write, long enough to drop what other processes wrote
 * meanwhile. Through n8n's engine against the sandbox, with the engine's store (test/helpers/deduplicator.ts):
 *   - a created row leaves four entries (claim, race, content pair) and no token of its contest;
 *   - a contest writes one token per call, not one per row, so that its end takes off a few values;
 *   - values are taken off at most `REMOVE_CHUNK` per call (a stopped run's claims, a forget).
 * The figures in real n8n on PostgreSQL: `npm run bench:journal` (docs/sync-memory.md).
 */
import type { DeduplicationItemTypes, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { REMOVE_CHUNK } from '../../nodes/Recruiting/memory/storeCalls';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness, deduplicator } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });

const rows = (count: number, tag: string): IDataObject[] => Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3' }));

/** What the node asks of the store: values per call written, and values per call taken off. */
function watchStore(delayMs = 0) {
	const seen = { written: [] as number[], removed: [] as number[], tokens: new Set<string>() };
	const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
	const remove = deduplicator.removeProcessed.bind(deduplicator);
	const spies = [
		jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			seen.written.push(items.length);
			for (const item of items) if (String(item).startsWith('own:')) seen.tokens.add(String(item));
			if (delayMs > 0) await sleep(delayMs);
			return await record(items, ...rest);
		}),
		jest.spyOn(deduplicator, 'removeProcessed').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			seen.removed.push(items.length);
			return await remove(items, ...rest);
		}),
	];
	return { seen, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

async function entries(harness: Harness): Promise<number> {
	return await deduplicator.getProcessedDataCount('node', { workflow: { id: harness.workflowId } as never, node: { id: harness.nodeId } as never });
}

beforeEach(() => forgetProcessMemory());

describe('issue 46: the journal stays small per row', () => {
	it('300 new rows, the store taking 40 ms a call: four entries a row are left (claim, race, content pair), the contest wrote a token per call (rows asked meanwhile share it), and none is left', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const store = watchStore(40);
		try {
			const result = await harness.run({ parameters: upsert(), items: rows(300, 'size'), onError: 'continueRegularOutput' });
			expect(result.items.map((item) => item.json.action)).toEqual(Array(300).fill('created'));
			expect(await entries(harness)).toBe(4 * 300);
			// One token per asking call: the rows prepared while a call runs are asked together (one per row before).
			expect(store.seen.tokens.size).toBeGreaterThan(0);
			expect(store.seen.tokens.size).toBeLessThanOrEqual(30);
			expect(Math.max(0, ...store.seen.removed)).toBeLessThanOrEqual(REMOVE_CHUNK);
		} finally {
			store.restore();
		}
		// The same rows again: nothing written to the list, nothing sent.
		const again = await harness.run({ parameters: upsert(), items: rows(300, 'size'), onError: 'continueRegularOutput' });
		expect(again.items.map((item) => item.json.action)).toEqual(Array(300).fill('unchanged'));
		expect(await entries(harness)).toBe(4 * 300);
	}, 60_000);

	it('Forget Each Input Row over 120 rows takes their entries off at most REMOVE_CHUNK values a call, and the list is empty after', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await harness.run({ parameters: upsert(), items: rows(120, 'forget'), onError: 'continueRegularOutput' });
		const store = watchStore();
		try {
			const forgotten = await harness.run({ parameters: upsert({ memoryAction: 'forget', confirmForget: true }), items: rows(120, 'forget'), onError: 'continueRegularOutput' });
			expect(forgotten.items.map((item) => item.json.action)).toEqual(Array(120).fill('forgotten'));
			expect(store.seen.removed.length).toBeGreaterThan(0);
			expect(Math.max(...store.seen.removed)).toBeLessThanOrEqual(REMOVE_CHUNK);
		} finally {
			store.restore();
		}
		expect(await entries(harness)).toBe(0);
	}, 60_000);
});
