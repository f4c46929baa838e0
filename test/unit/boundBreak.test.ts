/**
 * Trying to break the bound that grows with the list (commit ac9c311, memory/bound.ts): processes over one simulated store
 * (test/sim/claims.ts `Store`, `World`, `Process`), each with `getProcessedDataCount` wired to the store's size, and call
 * profiles chosen per process. A row created twice: two processes both answered `mine` by `claim` for the same key.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { trustMs, waitFloorMs } from '../../nodes/Recruiting/memory/bound';
import type { Profile } from '../sim/claims';
import { Process, Store, World } from '../sim/claims';
import { quick } from '../sim/journalBreak';

/** A fixed profile: `gap` ms between read and write, 5 ms each way. */
const fixed = (gap: number): Profile => ({ toRead: () => 5, gap: () => gap, back: () => 5 });

interface Call {
	who: string;
	start: number;
	end: number;
	values: string[];
	counted?: number;
}

/** A world whose store holds a list of `entries` entries (`Store.padding`), and what its calls did. */
function room(seed: number, entries: number) {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	[store.padding, store.list] = [entries, [Store.PAD]];
	const calls: Call[] = [];
	const counts: Array<{ who: string; at: number; size: number | 'failed' }> = [];
	/** A process over the store; `countFails(n)`: its n-th count (from 1) fails. */
	const process = (name: string, speed: Profile, countFails: (count: number) => boolean = () => false) => {
		const made = new Process(name, world, store, speed);
		let counted = 0;
		made.shared.journal.use({
			checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
				const call: Call = { who: name, start: world.now, end: 0, values: values.map(String) };
				calls.push(call);
				const answer = await store.checkProcessedAndRecord(speed, name, values);
				call.end = world.now;
				return answer;
			},
			removeProcessed: async (values: DeduplicationItemTypes[]) => await store.removeProcessed(speed, name, values),
			clearAllProcessedItems: async () => await store.clearAllProcessedItems(speed, name),
			getProcessedDataCount: async () => {
				if (countFails(++counted)) {
					counts.push({ who: name, at: world.now, size: 'failed' });
					throw new Error('connection lost');
				}
				counts.push({ who: name, at: world.now, size: store.size() });
				return store.size();
			},
		});
		return made;
	};
	const sleep = async (ms: number) => await new Promise<void>((resolve) => world.at(ms, resolve));
	return { world, store, calls, counts, process, sleep };
}

/**
 * One execution of `proc` that claims `key` (then keeps it when won), and ends `endAfter` ms after its answer (it sends other
 * rows meanwhile, with no store call of their own): whether it won, and when it knew.
 */
async function execution(proc: Process, key: string, endAfter = 0): Promise<{ mine: boolean; at: number }> {
	const journal = proc.shared.journal;
	const visit = journal.begin();
	const mine = await journal.claim(key, visit);
	const at = proc.world.now;
	if (mine) journal.keep(key, visit);
	if (endAfter > 0) await new Promise<void>((resolve) => proc.world.at(endAfter, resolve));
	await journal.end(visit);
	return { mine, at };
}

describe('the bound by the size of the list, broken', () => {
	it('sanity of the figures used below', () => {
		expect([trustMs(400_000), waitFloorMs(400_000), waitFloorMs(3)]).toEqual([2_000, 6_000, 1_000]);
	});

	/*
	 * Promise checked: a row claimed entirely after a Forget All Rows is created once. The change argues (bound.ts, docs
	 * "A list that empties at once") that a call which read the list before the Forget and writes it back afterwards only
	 * concerns rows claimed before the Forget ("Forget during a claim"). Expected: pa or pb loses `k`.
	 * Setup: 400,000 entries (bound 2 s). pc's one call (claim of x) reads at 5 ms and writes at 1,895 ms (1.9 s: trusted,
	 * it counts the resurrected 400,000 entries after it). pu runs Forget All Rows at 100 ms. pa (fast) contests k from
	 * 200 ms on the new, small list: it counts 3 entries after its race, waits 1 s, checks at about 1.35 s: `mine`. pc's write
	 * at 1,895 ms brings the old list back without pa's claim, race and token. pb asks k at 1,950 ms: no claim, it wins too.
	 * If it fails (both `mine`): the clear case is not covered by "Forget during a claim": the write that brings the list back
	 * drops the marks of rows other processes claimed after the Forget, and those processes waited the bound of the small list
	 * while that write was trusted under the bound of the large one. A defect of the node (its argument), not of the harness:
	 * the sim's store is the one the change's own scenario uses, and the resurrection is the one bound.ts describes.
	 * FAILS, kept as the stated limit (docs/sync-memory.md, "The bound grows with the list"; reviewed 2026-12-02): a call that
	 * takes longer than another process's wait drops the claims that process wrote meanwhile, which the 1-s bound left open at
	 * every size (with `MS_PER_ENTRY` 0 this test and its control below both create k twice: pc's 1.9 s call outlasts pa's
	 * 1-s wait either way). The size bound closes it where every process counted the large list (the control passes), not
	 * for a process that counted the small list a Forget All Rows left: nothing pa can read shows pc's call under way.
	 */
	it.failing('a row claimed only after a Forget All Rows is not won twice because of a trusted slow write that read before the Forget', async () => {
		const { world, calls, counts, process, sleep } = room(11, 400_000);
		const [pc, pu, pa, pb] = [process('pc', fixed(1_890)), process('pu', quick), process('pa', quick), process('pb', quick)];
		const results: Record<string, { mine: boolean; at: number }> = {};
		await world.run(
			Promise.all([
				(async () => void (results.pc = await execution(pc, 'x')))(),
				(async () => {
					await sleep(100);
					await pu.shared.journal.clear();
				})(),
				(async () => {
					await sleep(200);
					results.pa = await execution(pa, 'k');
				})(),
				(async () => {
					await sleep(1_950);
					results.pb = await execution(pb, 'k');
				})(),
			]),
		);
		const trace = calls.filter((call) => call.values.some((value) => value.endsWith(':k') || value === 'claim:x')).map((call) => `${call.who} ${call.start}-${call.end} ${call.values.map((value) => value.replace(/^own:.*/, 'own')).join(',')}`);
		const firstCounts = counts.slice(0, 8).map((count) => `${count.who}@${count.at}=${count.size}`);
		// Both won k: created twice.
		const twice = results.pa.mine && results.pb.mine;
		expect(twice ? { twice, trace, firstCounts, pcSlow: pc.shared.journal.slowestMs } : { twice }).toEqual({ twice: false });
	});

	/*
	 * Control for the test above (the harness, not the node): the same processes and times without the Forget All Rows.
	 * Expected: k won once (pa counts 400,000 entries after its race and waits 6 s, so pc's 1.9-s write lands before pa's
	 * check; pb finds pa's claim or race).
	 */
	it('control: the same schedule without the Forget All Rows wins k once', async () => {
		const { world, process, sleep } = room(11, 400_000);
		const [pc, pa, pb] = [process('pc', fixed(1_890)), process('pa', quick), process('pb', quick)];
		const results: Record<string, { mine: boolean; at: number }> = {};
		await world.run(
			Promise.all([
				(async () => void (results.pc = await execution(pc, 'x')))(),
				(async () => {
					await sleep(200);
					results.pa = await execution(pa, 'k');
				})(),
				(async () => {
					await sleep(1_950);
					results.pb = await execution(pb, 'k');
				})(),
			]),
		);
		expect([results.pa.mine, results.pb.mine].filter(Boolean)).toHaveLength(1);
	});

	/*
	 * Promise checked: no slow call needs to have read the list before a Forget All Rows. pd's ordinary call (0.3 s, always
	 * trusted) reads the 400,000 entries just before pu's Forget and writes them back at 295 ms, after pa raced for k on the new
	 * list and counted it (3 entries: pa waits 1 s, then 1-2 s). pc's call of 1.98 s (trusted: it counts 400,000 after it)
	 * reads after the Forget and after pd's write, and spans pa's round-1 check: pa wins k, pc's write drops pa's marks, pb
	 * asks k at 3,000 ms and wins it too (pa's execution goes on sending other rows and ends 15 s later; ended at once, its
	 * token removal read before pc's write and happened to bring the claim back). Seed 11: pa's round-1 wait is 1.77 s.
	 * Expected: k won once.
	 * If it fails: as above, but here neither call's own rows were claimed before the Forget (pc's claim of z is after it):
	 * bound.ts's argument "that call's own rows were claimed before the Forget" does not cover the process that counted the
	 * small list in between. A defect of the node.
	 * FIXED 2026-12-02: a check counts the list again and wins a row only once its wait covered the calls trusted at that size
	 * (bound.ts `covers`): pa's check finds the 400,000 entries pd brought back and waits 6 s more, by when pc's write is seen.
	 */
	it('a fast write that read before a Forget All Rows makes a later trusted slow call break another process\'s contest', async () => {
		const { world, calls, counts, process, sleep } = room(11, 400_000);
		const [pd, pu, pa, pc, pb] = [process('pd', fixed(290)), process('pu', quick), process('pa', quick), process('pc', fixed(1_980)), process('pb', quick)];
		const results: Record<string, { mine: boolean; at: number }> = {};
		await world.run(
			Promise.all([
				(async () => void (results.pd = await execution(pd, 'y')))(),
				(async () => {
					await sleep(20);
					await pu.shared.journal.clear();
				})(),
				(async () => {
					await sleep(30);
					results.pa = await execution(pa, 'k', 15_000);
				})(),
				(async () => {
					await sleep(1_000);
					results.pc = await execution(pc, 'z');
				})(),
				(async () => {
					await sleep(3_000);
					results.pb = await execution(pb, 'k');
				})(),
			]),
		);
		const twice = results.pa.mine && results.pb.mine;
		const trace = calls.filter((call) => call.start < 9_000).map((call) => `${call.who} ${call.start}-${call.end} ${call.values.map((value) => value.replace(/^own:.*/, 'own')).join(',')}`);
		const firstCounts = counts.slice(0, 8).map((count) => `${count.who}@${count.at}=${count.size}`);
		expect(twice ? { twice, trace, firstCounts, pcSlow: pc.shared.journal.slowestMs } : { twice }).toEqual({ twice: false });
	});

	/*
	 * Promise checked: a process whose count fails still waits the bound every other process trusts. pa's counts fail (a
	 * transient database error on the count only; its record calls work), over 400,000 entries (bound 2 s, waits 6 s). The
	 * change keeps `entries` as it was (0: pa never counted) and pa waits 1 s; pc's call of 1.9 s is trusted by pc (it counts
	 * 400,000). pc's call reads before pa's race and writes after pa's check: pa wins k, pc's write drops pa's marks, pb wins k.
	 * Expected: k won once (a failed count should leave the contest waiting the longest floor, or `unsure`).
	 * If it fails: storeCalls.ts `countNow` fails open for the wait (a failed count keeps the old size, 0 before any), while
	 * the trust side fails closed. A defect of the node: nothing in the harness is outside n8n's behaviour but the failing count.
	 * FIXED 2026-12-02: a failed count counts as the largest list (storeCalls.ts `recount`): pa waits the longest floor, 8 s.
	 */
	it('a process whose count failed does not wait less than the others trust', async () => {
		const { world, calls, counts, process, sleep } = room(11, 400_000);
		const [pc, pa, pb] = [process('pc', fixed(1_890)), process('pa', quick, () => true), process('pb', quick)];
		const results: Record<string, { mine: boolean; at: number }> = {};
		await world.run(
			Promise.all([
				(async () => void (results.pc = await execution(pc, 'x')))(),
				(async () => {
					await sleep(200);
					results.pa = await execution(pa, 'k');
				})(),
				(async () => {
					await sleep(1_950);
					results.pb = await execution(pb, 'k');
				})(),
			]),
		);
		const twice = results.pa.mine && results.pb.mine;
		const trace = calls.filter((call) => call.start < 3_000).map((call) => `${call.who} ${call.start}-${call.end} ${call.values.map((value) => value.replace(/^own:.*/, 'own')).join(',')}`);
		const firstCounts = counts.slice(0, 4).map((count) => `${count.who}@${count.at}=${count.size}`);
		expect(twice ? { twice, trace, firstCounts } : { twice }).toEqual({ twice: false });
	});

	/*
	 * Promise checked: without a Forget and with the list as every process counts it, a slow process whose call takes just
	 * under its trust (trustMs of the size it counts after the call) cannot make a fast process win a row it does not hold,
	 * around the thresholds (133,333 entries, where the wait floor jumps from 1 s to 2 s, and 200,000, where the trust starts to
	 * grow). pa (fast, its own calls 30 ms: it waits only the floor) races for k while pc's call, read before pa's race, is under
	 * way; pb asks k right after pc's write. Expected: k won once, and pc's call trusted (not slow).
	 */
	it.each([100_000, 133_000, 133_400, 199_000, 200_000, 210_000, 300_000, 400_000, 600_000, 800_000])(
		'a trusted call just under its bound over %i entries does not let two fast processes both win a row',
		async (entries) => {
			const gap = trustMs(entries) - 20;
			const { world, process, sleep } = room(5, entries);
			const [pc, pa, pb] = [process('pc', fixed(gap)), process('pa', quick), process('pb', quick)];
			const results: Record<string, { mine: boolean; at: number }> = {};
			await world.run(
				Promise.all([
					(async () => void (results.pc = await execution(pc, 'x')))(),
					(async () => {
						await sleep(100);
						results.pa = await execution(pa, 'k', 20_000);
					})(),
					(async () => {
						await sleep(gap + 60);
						results.pb = await execution(pb, 'k');
					})(),
				]),
			);
			expect({ winners: [results.pa.mine, results.pb.mine].filter(Boolean).length, pcSlow: pc.shared.journal.slowestMs }).toEqual({ winners: 1, pcSlow: 0 });
		},
	);
});
