/**
 * The creation journal's claims (nodes/Recruiting/memory/journal.ts) over a store that loses
 * updates as n8n's does (n8n/dist/deduplication/deduplication-helper.js: each call reads the
 * scope's whole list, then rewrites it, with no lock between). Two `Shared` objects are two n8n
 * processes (queue workers), each with its own journal, over one list.
 *
 * The queue scenario `sync-state` (8 executions at once, each over its own new rows) once refused
 * 25 of 2,000 rows: writes for other rows had dropped a row's token in every round of its check.
 */
import type { DeduplicationItemTypes, IDeduplicationOutput } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Standing } from '../../nodes/Recruiting/memory/journal';
import { Shared } from '../../nodes/Recruiting/memory/registry';

/** One scope's list, read and rewritten per call with a gap between (n8n's lost update). */
class LostUpdateList {
	list: string[] = [];

	constructor(private readonly gapMs: () => number) {}

	async checkProcessedAndRecord(values: DeduplicationItemTypes[]): Promise<IDeduplicationOutput> {
		const before = [...this.list];
		await sleep(this.gapMs());
		const seen = new Set(before);
		const answer: IDeduplicationOutput = { new: [], processed: [] };
		for (const value of values) {
			if (seen.has(String(value))) answer.processed.push(value);
			else {
				answer.new.push(value);
				before.push(String(value));
				seen.add(String(value));
			}
		}
		this.list = before;
		return answer;
	}

	async removeProcessed(values: DeduplicationItemTypes[]): Promise<void> {
		const before = [...this.list];
		await sleep(this.gapMs());
		const leaving = new Set(values.map(String));
		this.list = before.filter((value) => !leaving.has(value));
	}

	async clearAllProcessedItems(): Promise<void> {
		this.list = [];
	}
}

/** A process of n8n: its own journal over the shared list. */
function processOver(list: LostUpdateList): Shared {
	const shared = new Shared();
	shared.journal.use({
		checkProcessedAndRecord: async (values) => await list.checkProcessedAndRecord(values),
		removeProcessed: async (values) => await list.removeProcessed(values),
		clearAllProcessedItems: async () => await list.clearAllProcessedItems(),
	});
	return shared;
}

/** Asks for `keys` as an execution does: a few rows at a time (the router's concurrency), one after another. */
async function ask(shared: Shared, keys: string[], inFlight = 4): Promise<Map<string, Standing>> {
	const answers = new Map<string, Standing>();
	let next = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < keys.length) {
				const key = keys[next++];
				await shared.journal.claim(key);
				answers.set(key, shared.journal.answered(key)!);
			}
		}),
	);
	return answers;
}

const keys = (tag: string, count: number) => Array.from({ length: count }, (_, index) => `${tag}${index}`);
const count = (answers: Map<string, Standing>, standing: Standing) => [...answers.values()].filter((value) => value === standing).length;

describe('claims over a store that loses updates (two processes)', () => {
	it('each process over its own new rows: every row is its own, none refused (writes for other rows drop tokens)', async () => {
		const list = new LostUpdateList(() => 2 + Math.random() * 10);
		const [first, second] = [processOver(list), processOver(list)];
		const [mineFirst, mineSecond] = await Promise.all([ask(first, keys('a', 120)), ask(second, keys('b', 120))]);
		expect(count(mineFirst, 'mine')).toBe(120);
		expect(count(mineSecond, 'mine')).toBe(120);
		// Every claim survived the other process's writes: a third process knows all 240 rows.
		await Promise.all([first.journal.settle(), second.journal.settle()]);
		const third = await ask(processOver(list), [...keys('a', 120), ...keys('b', 120)]);
		expect(count(third, 'known')).toBe(240);
	}, 120_000);

	it('both processes over the same new rows: each row is one process\'s, never both', async () => {
		const list = new LostUpdateList(() => 2 + Math.random() * 10);
		const [first, second] = [processOver(list), processOver(list)];
		const shared = keys('c', 80);
		const [one, two] = await Promise.all([ask(first, shared), ask(second, [...shared].reverse())]);
		const both = shared.filter((key) => one.get(key) === 'mine' && two.get(key) === 'mine');
		expect(both).toEqual([]);
		// A row neither process won is refused by both (never created twice); it stays rare.
		const neither = shared.filter((key) => one.get(key) !== 'mine' && two.get(key) !== 'mine');
		expect(neither.length).toBeLessThanOrEqual(2);
	}, 120_000);

	it('rows already claimed are known to the other process', async () => {
		const list = new LostUpdateList(() => 2 + Math.random() * 5);
		const [first, second] = [processOver(list), processOver(list)];
		const mine = await ask(first, keys('d', 30));
		expect(count(mine, 'mine')).toBe(30);
		await first.journal.settle();
		const other = await ask(second, keys('d', 30));
		expect(count(other, 'known')).toBe(30);
	}, 120_000);
});
