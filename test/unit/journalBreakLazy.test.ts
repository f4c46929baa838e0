/**
 * Trying to break issue 46 item 6 (commit b672b2c) with the claims simulation (test/sim/claims.ts):
 * the real Journal over the model of n8n's store, simulated time, store calls of 100–900 ms so that
 * the journal's lazy path (LAZY_FROM_MS) is taken.
 */
import { doneOf } from '../../nodes/Recruiting/memory/marks';
import { Store } from '../sim/claims';
import { entries, Process, slow, World } from '../sim/journalBreak';

const rows = (count: number, tag = 'r') => Array.from({ length: count }, (_, index) => `${tag}${index}`);

describe('journal break: the lazy path (calls of LAZY_FROM_MS, 300 ms, and more)', () => {
	it('Forget Each Input Row over rows prepared ahead, in a process whose first call makes it lazy: every forget ends (simulated time)', async () => {
		const world = new World(1);
		const store = new Store(world);
		world.store = store;
		const process = new Process('p0', world, store, slow(world, 350, 600));
		const journal = process.shared.journal;
		const visit = journal.begin();
		const keys = rows(6);
		const forgotten: string[] = [];
		const run = (async () => {
			// As Forget's prepare does (rows.ts keyOf): every row asked ahead; then each forgotten in turn.
			for (const key of keys) journal.standing(key, visit, true).catch(() => undefined);
			for (const key of keys) {
				await journal.forget(key);
				forgotten.push(key);
			}
			await journal.end(visit);
		})();
		let error: unknown;
		try {
			await world.run(run);
		} catch (thrown) {
			error = thrown;
		}
		// On b672b2c: "nothing left to happen, but the run did not end" after r0: r1–r5 wait in the queue for half of `ahead`.
		expect({
			forgotten,
			error: error instanceof Error ? error.message : error,
		}).toEqual({ forgotten: keys, error: undefined });
	});

	it('a row updated twice in a row in a lazy process: the content mark of the first content does not outlive its removal (a process without the slug would say `same` for content the service no longer holds)', async () => {
		const world = new World(2);
		const store = new Store(world);
		world.store = store;
		const p = new Process('p0', world, store, slow(world, 350, 600));
		const q = new Process('q0', world, store, slow(world, 5, 20));
		const journal = p.shared.journal;
		const answers: Record<string, string> = {};
		await world.run(
			(async () => {
				const visit = journal.begin();
				expect(await journal.claim('r', visit)).toBe(true);
				journal.keep('r', visit);
				// Created with content p1 (its mark goes lazily), then updated to p2 (the mark of p1 taken off, p2's goes lazily).
				journal.done('r', 'p1', undefined, visit);
				journal.done('r', 'p2', 'p1', visit);
				await journal.end(visit);
				// Another process, without the slug, asks what was last sent in full.
				const other = q.shared.journal;
				const visit2 = other.begin();
				await other.standing('r', visit2);
				answers.p1 = await other.explain('r', 'p1');
				answers.p2 = await other.explain('r', 'p2');
				await other.end(visit2);
			})(),
		);
		// On b672b2c: p1's pair is written (lazily, at the end's kick) after its removal went out: both pairs stay, and p1 reads `same`.
		expect({
			p1Marks: entries(store, 'done').filter((value) => (doneOf('r', 'p1') as readonly string[]).includes(value)),
			answers,
		}).toEqual({ p1Marks: [], answers: { p1: 'known', p2: 'same' } });
	});

	it("a row known when asked, then released by its holder (explain says gone): the asking call's token leaves the list at the end", async () => {
		const world = new World(3);
		const store = new Store(world);
		world.store = store;
		const q = new Process('q0', world, store, slow(world, 5, 20));
		const p = new Process('p0', world, store, slow(world, 5, 20));
		const outcome: string[] = [];
		await world.run(
			(async () => {
				// q holds r (won, its creation under way).
				const qv = q.shared.journal.begin();
				expect(await q.shared.journal.claim('r', qv)).toBe(true);
				// p asks r: its claim is there (known); p's call wrote a token for its batch.
				const pv = p.shared.journal.begin();
				outcome.push(await p.shared.journal.standing('r', pv));
				// The service refused q's creation: q releases r; q's execution ends.
				await q.shared.journal.release(['r']);
				await q.shared.journal.end(qv);
				// p sends r (rows.ts admit): not its claim; the journal says gone; asked afresh, won, created.
				outcome.push(String(await p.shared.journal.claim('r', pv)));
				outcome.push(await p.shared.journal.explain('r', 'c'));
				outcome.push(String(await p.shared.journal.claim('r', pv)));
				p.shared.journal.keep('r', pv);
				await p.shared.journal.end(pv);
			})(),
		);
		expect(outcome).toEqual(['known', 'false', 'gone', 'true']);
		// Every execution ended, none was killed: no token of a contest is left.
		expect(entries(store, 'own:')).toEqual([]);
	});
});
