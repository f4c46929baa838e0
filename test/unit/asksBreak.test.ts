/**
 * Trying to break asks.ts (commits e9d7f34, 344592b: what asks wrote only by asking, taken off again
 * by an end once the first removal is a wait old) with the claims simulation (test/sim/claims.ts:
 * the real Journal over the model of n8n's store, simulated time). Every store call here, the
 * stale writes too, writes less than 1 s after it read (the timing assumption holds). By a helper
 * that had not seen the change. On 024e91a three fail: the first (an ask that ends while an end waits
 * is taken off again 0.5 s after its first removal), the third and the fourth (the `mine` filter,
 * read once when an ask starts: both passed before the change); the second fails before it too.
 * A stale write is modelled by putting back the list a call read, with claim:x, under 1 s later.
 * All four pass since: `Asks.ready` waits out each value's own wait, a failed confirming call's half
 * is kept to take off, and an ask reads this process's own pair when it removes, not when it starts.
 */
import { MIN_WAIT_MS } from '../../nodes/Recruiting/memory/storeCalls';
import { doneOf } from '../../nodes/Recruiting/memory/marks';
import { entries, hooked, later, setup } from '../sim/journalBreak';

describe('asks break (asks.ts)', () => {
	it("an end takes an ask's writes off a second time only a wait after their first removal, also for an ask that ended while the end waited", async () => {
		const [DONE_S, DONE2_S] = doneOf('s', 'c');
		// r, z: known (claim); s: known, with a lone first half of content c (c never reached the service).
		const { world, store, sleep } = setup(11, ['claim:r', 'claim:s', 'claim:z', DONE_S]);
		const times: Record<string, number> = {};
		let stale: { list: string[]; at: number } | undefined;
		const p = hooked(world, store, {
			// A call of another process (any row) reads right after the ask of s wrote its false second half...
			recorded: (values) => {
				if (values.includes(DONE2_S) && stale === undefined) stale = { list: [...(store.list ?? [])], at: world.now };
			},
			removed: (values) => {
				if (!values.includes(DONE2_S)) return;
				if (times.first === undefined) times.first = world.now;
				else if (times.second === undefined) {
					times.second = world.now;
					// ...and writes (claim:x) now, if that is within 1 s of its read: it brings back what it read.
					if (stale && world.now - stale.at < MIN_WAIT_MS) store.list = [...new Set([...stale.list, 'claim:x'])];
				}
			},
		});
		const journal = p.shared.journal;
		const answers: string[] = [];
		await world.run(
			(async () => {
				// Execution V with a row sent in full (z): its end checks z's claim and content after its wait.
				const v = journal.begin();
				journal.done('z', 'p', undefined, v);
				const ending = journal.end(v);
				// Execution A asks r during V's end; execution B asks s while V's end waits for A's writes to be a wait old.
				await sleep(600);
				answers.push(await journal.explain('r', 'c'));
				await sleep(400);
				const b = journal.begin();
				answers.push(await journal.explain('s', 'c'));
				await ending;
				await journal.end(b);
				answers.push(await later(world, store, sleep, 's', 'c'));
			})(),
		);
		expect({ answers, secondAfterFirst: (times.second ?? Infinity) - (times.first ?? 0) >= MIN_WAIT_MS }).toEqual({
			answers: ['known', 'known', 'known'],
			secondAfterFirst: true,
		});
		expect(entries(store, 'done2')).not.toContain(DONE2_S);
	});

	it('a confirming call whose second attempt fails too (the first wrote): no false pair left for a later asker (no `same` for content never sent)', async () => {
		const [DONE] = doneOf('r', 'c');
		const { world, store, sleep } = setup(12, ['claim:r', DONE]);
		// Call 1: the ask's first call; 2: its confirming call, fails after its write; 3: that call again, refused.
		const p = hooked(world, store, { record: (_values, call) => (call === 2 ? 'after' : call === 3 ? 'before' : undefined) });
		const answers: string[] = [];
		await world.run(
			(async () => {
				const journal = p.shared.journal;
				const v = journal.begin();
				answers.push(await journal.explain('r', 'c').catch((error: Error) => `error: ${error.message}`));
				await journal.end(v).catch(() => undefined);
				answers.push(await later(world, store, sleep, 'r', 'c'));
			})(),
		);
		expect(answers).toEqual(['error: connection refused', 'known']);
	});

	it('a row sent in full while an ask of it runs in the same process still reads `same` after later ends of that process', async () => {
		const [DONE, DONE2] = doneOf('r', 'c');
		// A lone first half (an ask's, or a pair whose second half went).
		const { world, store, sleep } = setup(13, ['claim:r', DONE]);
		const p = hooked(world, store, {});
		const journal = p.shared.journal;
		const answers: string[] = [];
		const afterEnds: string[] = [];
		await world.run(
			(async () => {
				// Execution D, without r's slug, asks r; execution B, with it, sends r in full (content c) meanwhile.
				const d = journal.begin();
				const asking = journal.explain('r', 'c');
				// (its first call answered at 30 ms: B's pair goes in one call with the ask's confirming call)
				await sleep(40);
				const b = journal.begin();
				journal.done('r', 'c', undefined, b);
				answers.push(await asking);
				await journal.end(b);
				await journal.end(d);
				// Later executions of the same process (nothing of r).
				const e = journal.begin();
				await journal.end(e);
				afterEnds.push(...entries(store, 'done').sort());
				answers.push(await later(world, store, sleep, 'r', 'c'));
			})(),
		);
		expect({ afterEnds, last: answers[1] }).toEqual({ afterEnds: [DONE, DONE2].sort(), last: 'same' });
	});

	it("a row's content replaced while an ask of its old content runs in the same process: no half of the old content stays on the list", async () => {
		const [DONE_C, DONE2_C] = doneOf('r', 'c');
		const [DONE_D, DONE2_D] = doneOf('r', 'd');
		const { world, store, sleep } = setup(14, ['claim:r']);
		const p = hooked(world, store, {});
		const journal = p.shared.journal;
		const answers: string[] = [];
		await world.run(
			(async () => {
				// Execution B sends r with content c (its pair written), then an execution without the slug asks r with c.
				const b = journal.begin();
				journal.done('r', 'c', undefined, b);
				await sleep(100);
				const d = journal.begin();
				const asking = journal.explain('r', 'c');
				await sleep(10);
				// Meanwhile B sends r again with content d: c's pair is taken off.
				journal.done('r', 'd', 'c', d);
				answers.push(await asking);
				await journal.end(b);
				await journal.end(d);
				const e = journal.begin();
				await journal.end(e);
				await sleep(180_000);
			})(),
		);
		expect({ answers, done: entries(store, 'done').sort() }).toEqual({ answers: [expect.any(String)], done: [DONE_D, DONE2_D].sort() });
		expect(entries(store, 'done')).not.toEqual(expect.arrayContaining([DONE_C]));
		expect(entries(store, 'done2')).not.toEqual(expect.arrayContaining([DONE2_C]));
	});
});
