/**
 * Trying to break ee3d702: `Contest.takeOff` (contest.ts), `standing` waiting for a removal of the row's claim by this
 * process before it asks the row (journal.ts), `end` and `release` taking claims off through `takeOff`.
 *
 * The claims simulation (test/sim/claims.ts: the real Journal over n8n's store as a model that loses updates, simulated
 * time, a seeded scheduler). Compared with the code before (ee3d702^) by running this file in a copy of that tree.
 *
 * What this review found (on ee3d702; fixed in the commit after it, and these tests now guard the fix):
 * - DEFECT (a regression of ee3d702): `standing` counted the visit as the row's user only after `await released(key)`.
 *   A visit that asks rows (prepared ahead, not awaited: the router's lookahead, Forget's keyOf) while this process takes
 *   their claims off, and ends before that removal lands (Stop, Stop again; a halted run), was not among the rows' users
 *   at its end. Once the removal landed the rows were asked with no visit using them: won, their claims written, and taken
 *   off by nobody. Another worker, or this process after a restart, refused them "may already exist"; nobody sent them.
 *   By hand: "a re-run stopped before it took a row" (40 of 40 rows). Many seeds: plan F (Stop, re-run at once, Stop
 *   again): 3,739 rows in 98 of 1,000 seeds; plan A: 95 rows in 7 of 1,000 seeds (ee3d702^: 0 and 0; it refused rows in
 *   the run instead, 399 and 76, and left no claim). The same root: a row asked one microtask before another visit's end
 *   decides was taken off under it and then found 'known' (ee3d702^: a row asked one to three microtasks after).
 *   Fixed: such a row is in `rows` at once (its visits are its users, an end sees them) and enters the line once its
 *   removal has landed (contest.ts `ask`, storeCalls.ts `removal`).
 * - COST: a row waited for the whole `takeOff` (every removal call of the end), not for the call that takes its own claim
 *   off: "200 rows taken off" (r0 answered 15.6 s after its own call landed); at size a re-run's first creation came
 *   36–42 s after it started (ee3d702^: 10–12 s, with 255–453 rows refused). Fixed: each row waits for its own removal
 *   call (storeCalls.ts `removeKeys`).
 * - Held: no hang, nothing left in `releasing`, no row created twice, with removals failing, releases twice at once, Forget
 *   and Forget All during a removal, 200 asks of one row, one and two processes.
 *
 *   TAKEOFF_SEEDS=<n> (default 100 per plan), TAKEOFF_SEED=<s>, TAKEOFF_PLAN=<letter>, TAKEOFF_TRACE=r30 (store calls with r30)
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { claimOf, raceOf } from '../../nodes/Recruiting/memory/marks';
import type { Journal, Standing } from '../../nodes/Recruiting/memory/journal';
import type { Profile } from '../sim/claims';
import { profile, Process, Store, World } from '../sim/claims';
import { print, setting as hostSetting } from '../sim/host';
import { between, largeList as bigListSpeed, rows as keysOf, shuffled as shuffle } from '../sim/scenarioRunner';

const setting = hostSetting as (name: string) => string | undefined;

interface Insides {
	rows: Map<string, { users: Set<number>; settled?: Standing; sent: boolean; kept: boolean }>;
	waiting: unknown[];
}
const insides = (journal: Journal) => journal as unknown as Insides;

/** Removals under way (storeCalls.ts `releasing`). */
const releasingOf = (journal: Journal): number => (journal as unknown as { store: { releasing: Map<string, unknown> } }).store.releasing.size;

/** A store whose list holds 1,000 other rows, and whose calls take 0.5–0.7 s (`bigListSpeed`). */
const largeList = (world: World) => {
	const store = new Store(world);
	world.store = store;
	store.list = keysOf(1_000, 'x');
	return store;
};

/** One process over that store, its calls already slow (lazy: rows asked in batches). */
function slowProcess(seed: number) {
	const world = new World(seed);
	const store = largeList(world);
	const proc = new Process('p0', world, store, bigListSpeed(world));
	proc.shared.recentCallsMs.push(600);
	return { world, store, proc, journal: proc.shared.journal };
}

const sleep = (world: World, ms: number) => new Promise<void>((resolve) => world.at(ms, resolve));

/** What a fresh process (another worker, or this one after a restart) says of `keys`: the rows it would refuse. */
async function laterRefuses(world: World, store: Store, keys: string[]): Promise<string[]> {
	const later = new Process('later', world, store, profile(world, 1));
	const journal = later.shared.journal;
	const visit = journal.begin();
	const standings = await world.run(Promise.all(keys.map(async (key) => await journal.standing(key, visit))), 2_000_000);
	await world.run(journal.end(visit), 2_000_000);
	return keys.filter((_, index) => standings[index] !== 'mine');
}

/** A stopped run V1 that won `count` rows ahead and sent none: its end takes their claims off (50 values a call). */
async function stoppedRun(world: World, journal: Journal, keys: string[]) {
	const v1 = journal.begin();
	const ahead = keys.map(async (key) => await journal.standing(key, v1, true));
	await journal.standing(keys[0], v1);
	const won = await Promise.all(ahead);
	return { v1, won };
}

describe('takeOff: a visit that ends while its rows wait for a removal (by hand)', () => {
	/**
	 * V1 prepared r0–r39 ahead, won them, sent none (Stop); its end takes 80 values off (two calls).
	 * 1 ms into that end, V2 (the re-run) prepares the same rows ahead: each `standing` waits in
	 * `released`, before the row is looked at or the visit counted as its user. V2 is stopped at once
	 * (it takes no row) and ends: its end sees none of these rows. Once the removal lands they are
	 * asked with no visit using them: won, claimed, and never taken off by anyone.
	 */
	async function stopRerunStop(seed: number, v2EndsAfter: number) {
		const { world, store, journal } = slowProcess(seed);
		const keys = keysOf(40);
		const trace = setting('TAKEOFF_TRACE');
		if (trace) store.follow = trace.split(',');
		const result = await world.run(
			(async () => {
				const { v1, won } = await stoppedRun(world, journal, keys);
				const ending = journal.end(v1);
				await sleep(world, 1);
				const v2 = journal.begin();
				const asked = keys.map((key) => journal.standing(key, v2, true).catch(() => 'failed' as const));
				await sleep(world, v2EndsAfter);
				await journal.end(v2);
				await ending;
				await Promise.all(asked);
				// Everything quiet: a minute more.
				await sleep(world, 60_000);
				return { won: won.filter((s) => s === 'mine').length };
			})(),
			2_000_000,
		);
		if (trace) print(world.trace.join('\n'));
		const rows = insides(journal).rows;
		const orphaned = keys.filter((key) => rows.get(key)?.settled === 'mine' && rows.get(key)!.users.size === 0 && !rows.get(key)!.sent);
		const left = keys.filter((key) => (store.list ?? []).includes(claimOf(key)));
		const refused = await laterRefuses(world, store, keys);
		return { won: result.won, orphaned, left, refused, releasing: releasingOf(journal) };
	}

	// FAILS on ee3d702 (a regression: before it, `standing` counted V2 as the row's user synchronously, V2's end waited
	// for the answers and took the won claims off again). Nobody sent r0–r39; a later run in another process refuses them all.
	it('a re-run stopped before it took a row: no claim of a row nobody sent is left', async () => {
		const outcome = await stopRerunStop(1, 10);
		print(
			`stop, re-run stopped at 10 ms: orphaned rows ${outcome.orphaned.length}, claims left ${outcome.left.length}, refused later ${outcome.refused.length}`,
		);
		expect(outcome).toEqual({ won: 40, orphaned: [], left: [], refused: [], releasing: 0 });
	});

	/**
	 * Forget Each Input Row (Forget Now) of r35 while V1's end takes r0–r39 off: the forget's execution asks the row
	 * (keyOf: `standing(key, visit, true)`, waiting in `released`), forgets it (its claim's removal: another `takeOff`), ends
	 * (its end does not see r35). Then the waiting `standing` asks r35: won, claimed again, never taken off.
	 */
	async function forgetDuringEnd(seed: number) {
		const { world, store, journal } = slowProcess(seed);
		const keys = keysOf(40);
		const known = await world.run(
			(async () => {
				const { v1 } = await stoppedRun(world, journal, keys);
				const ending = journal.end(v1);
				await sleep(world, 1);
				const own = journal.begin();
				const asked = journal.standing('r35', own, true).catch(() => 'failed' as const);
				const forgot = await journal.forget('r35');
				await journal.end(own);
				await ending;
				await asked;
				await sleep(world, 60_000);
				return forgot;
			})(),
			2_000_000,
		);
		const left = (store.list ?? []).includes(claimOf('r35'));
		const refused = await laterRefuses(world, store, ['r35']);
		return { known, left, refused, releasing: releasingOf(journal) };
	}

	// A guard (passes): the waiting `standing` resumes in the same turn as the forget's own removal lands, before the
	// forget's execution ends, so that end counts it and takes the claim off again.
	// (Forget leaves the row's claim behind; another worker (or this one after a
	// restart) refuses the row "may already exist" right after the user forgot it.)
	it('Forget Each Input Row of a row the end of a stopped run is taking off: its claim is gone afterwards', async () => {
		const outcome = await forgetDuringEnd(1);
		print(`forget r35 during the end: ${JSON.stringify(outcome)}`);
		expect({ left: outcome.left, refused: outcome.refused, releasing: outcome.releasing }).toEqual({ left: false, refused: [], releasing: 0 });
	});

	/**
	 * V2 asks r35 (shared with V1, which won it ahead and never sent it) one microtask after V1's end was called with
	 * every answer in. `standing` awaits `released` (no removal yet: one microtask) before it counts V2 as the row's user;
	 * V1's end decides meanwhile (its `allSettled` resolves first) that no visit uses r35 and takes it off (the second of two
	 * removal calls). V2 then asks r35 anew, its claim call runs between the two removal calls: 'known', a row nobody sent.
	 * Before ee3d702 V2 was the row's user synchronously: V1's end left r35 alone, V2 had it 'mine'.
	 */
	async function askedAsTheEndDecides(ticks: number) {
		const { world, journal } = slowProcess(1);
		const keys = keysOf(40);
		return await world.run(
			(async () => {
				const { v1 } = await stoppedRun(world, journal, keys);
				const v2 = journal.begin();
				const ending = journal.end(v1);
				let tick = Promise.resolve();
				for (let index = 0; index < ticks; index++) tick = tick.then(() => undefined);
				const standing = tick.then(async () => await journal.standing('r35', v2));
				const answer = await standing;
				await ending;
				await journal.end(v2);
				return answer;
			})(),
			2_000_000,
		);
	}

	it.each([0, 1, 2, 3])("a row asked %i microtask(s) after an end of a visit sharing it: 'mine'", async (ticks) => {
		expect(await askedAsTheEndDecides(ticks)).toBe('mine');
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// Many seeds: one or two processes, overlapping and back-to-back executions over shared rows, Stop with rows prepared
// ahead, service refusals (released, sometimes twice at once), Forget Each Input Row (in an execution of its own),
// Forget All Rows, removals and records that fail, the same rows asked many times while removals are in flight.

interface Plan {
	name: string;
	procs: number;
	speed: (world: World, index: number) => Profile;
	recent?: number[];
	visits: number;
	overlap: number;
	rows: number;
	stop: number;
	/** A stopped execution ends this soon after it starts (a Stop right after a re-run began). */
	stopSoon?: number;
	/** Every execution stopped, the first within 2–8 s, the next ones within `stopSoon` (Stop, re-run, Stop again). */
	stopAgain?: boolean;
	/** `own:` tokens a seed may leave (failing removals leave some). */
	tokens?: number;
	refuse: number;
	releaseTwice: number;
	forget: number;
	clear: number;
	/** Extra `standing` calls per prepared row (the same key re-asked while removals are in flight). */
	reask: number;
	removeFail: number;
	recordFail: number;
	/** One process, no fault, no forget or clear: no claim of a row nobody created may be left, none refused. */
	exact: boolean;
}

interface Run {
	created: Map<string, string[]>;
	forgotten: Set<string>;
	cleared: boolean;
	pending: Map<number, string>;
	refusedInRun: Set<string>;
}

let ids = 0;
function tracked<T>(run: Run, promise: Promise<T>, what: string): Promise<T> {
	const id = ++ids;
	run.pending.set(id, what);
	const done = () => run.pending.delete(id);
	promise.then(done, done);
	return promise;
}


function wire(world: World, proc: Process, store: Store, speed: Profile, plan: Plan): void {
	proc.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			if (world.random() < plan.recordFail) {
				await sleep(world, speed.toRead());
				throw new Error('connection refused');
			}
			return await store.checkProcessedAndRecord(speed, proc.name, values);
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => {
			const roll = world.random();
			if (roll < plan.removeFail / 2) {
				await sleep(world, speed.toRead());
				throw new Error('connection refused');
			}
			await store.removeProcessed(speed, proc.name, values);
			if (roll < plan.removeFail) throw new Error('connection lost after the write');
		},
		clearAllProcessedItems: async () => await store.clearAllProcessedItems(speed, proc.name),
	});
}

/** One execution: rows prepared `window` ahead (each asked in the background, `reask` times more), `inFlight` taken at a time, Stop. */
async function visitOf(
	world: World,
	proc: Process,
	keys: string[],
	plan: Plan,
	run: Run,
	stopAfter: number | undefined,
	taken: () => void = () => undefined,
): Promise<void> {
	const journal = proc.shared.journal;
	const visit = journal.begin();
	const window = world.random() < 0.4 ? 2 + Math.floor(world.random() * 12) : undefined;
	const inFlight = 1 + Math.floor(world.random() * 4);
	let [next, prepared, stopped] = [0, 0, false];
	if (stopAfter !== undefined) world.at(stopAfter, () => (stopped = true));
	const prepare = (upTo: number) => {
		for (; prepared <= Math.min(upTo, keys.length - 1); prepared++)
			for (let again = 0; again <= plan.reask; again++)
				tracked(run, journal.standing(keys[prepared], visit, true), `${proc.name} standing ${keys[prepared]} (ahead)`).catch(() => undefined);
	};
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (!stopped && next < keys.length) {
				const index = next++;
				prepare(index + (window ?? journal.ahead));
				const key = keys[index];
				let mine: boolean;
				try {
					mine = await tracked(run, journal.claim(key, visit), `${proc.name} claim ${key}`);
				} catch {
					continue;
				}
				if (!mine) {
					// Refused 'known', 'taken' or 'unsure' (not a row another execution of this process has: that is no refusal).
					const standing = journal.answered(key);
					if (standing !== undefined && standing !== 'mine') run.refusedInRun.add(key);
					continue;
				}
				await sleep(world, between(world, 20, 200));
				if (world.random() < plan.refuse) {
					const releases = world.random() < plan.releaseTwice ? [journal.release([key]), journal.release([key])] : [journal.release([key])];
					await tracked(run, Promise.allSettled(releases), `${proc.name} release ${key}`);
					continue;
				}
				run.created.set(key, [...(run.created.get(key) ?? []), proc.name]);
				journal.keep(key, visit);
			}
		}),
	);
	taken();
	await tracked(run, journal.end(visit), `${proc.name} end ${visit}`).catch(() => undefined);
}

async function forgetting(world: World, proc: Process, key: string, run: Run): Promise<void> {
	const journal = proc.shared.journal;
	run.forgotten.add(key);
	const own = journal.begin();
	tracked(run, journal.standing(key, own, true), `${proc.name} standing ${key} (forget's)`).catch(() => undefined);
	await tracked(run, journal.forget(key), `${proc.name} forget ${key}`).catch(() => undefined);
	await tracked(run, journal.end(own), `${proc.name} end of the forget of ${key}`).catch(() => undefined);
}

async function clearing(proc: Process, run: Run): Promise<void> {
	const journal = proc.shared.journal;
	run.cleared = true;
	const own = journal.begin();
	await tracked(run, journal.clear(), `${proc.name} clear`).catch(() => undefined);
	await tracked(run, journal.end(own), `${proc.name} end of the clear`).catch(() => undefined);
}

interface Outcome {
	hang?: string;
	pending: string[];
	twice: string[];
	releasing: number;
	waiting: number;
	orphaned: string[];
	leftClaims: string[];
	refusedLater: string[];
	refusedInRun: string[];
	tokens: number;
}

async function simulate(seed: number, plan: Plan): Promise<Outcome> {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	if (world.random() < 0.5) store.list = keysOf(200, 'x');
	const run: Run = { created: new Map(), forgotten: new Set(), cleared: false, pending: new Map(), refusedInRun: new Set() };
	const keys = keysOf(plan.rows);
	const procs = Array.from({ length: plan.procs }, (_, index) => {
		const speed = plan.speed(world, index);
		const proc = new Process(`p${index}`, world, store, speed);
		if (plan.recent) proc.shared.recentCallsMs.push(...plan.recent);
		wire(world, proc, store, speed, plan);
		return proc;
	});
	const jobs = procs.flatMap((proc, index) => {
		const overlap = !plan.stopAgain && world.random() < plan.overlap;
		const executions = Array.from({ length: plan.visits }, (_, at) => {
			const stopped = world.random() < plan.stop;
			if (plan.stopAgain)
				return {
					keys: at === 0 || world.random() < 0.5 ? keys : shuffle(world, keys),
					startAfter: 0,
					stopAfter: at === 0 ? between(world, 2_000, 8_000) : between(world, 100, plan.stopSoon ?? 3_000),
				};
			return {
				keys: world.random() < 0.5 ? keys : shuffle(world, keys),
				startAfter: between(world, 0, 2_000),
				stopAfter: stopped ? (plan.stopSoon !== undefined && world.random() < 0.5 ? between(world, 1, plan.stopSoon) : between(world, 200, 6_000)) : undefined,
			};
		});
		const sequence = async () => {
			if (overlap)
				await Promise.all(
					executions.map(async (exec) => {
						await sleep(world, exec.startAfter);
						await visitOf(world, proc, exec.keys, plan, run, exec.stopAfter);
					}),
				);
			else {
				// Back to back: each starts 1–500 ms after the one before took its last row (its end still runs: a re-run at once).
				const all: Array<Promise<void>> = [];
				for (const exec of executions) {
					let taken!: () => void;
					const done = new Promise<void>((resolve) => (taken = resolve));
					all.push(visitOf(world, proc, exec.keys, plan, run, exec.stopAfter, taken));
					await done;
					await sleep(world, between(world, 1, 500));
				}
				await Promise.all(all);
			}
		};
		const extras: Array<Promise<void>> = [];
		if (world.random() < plan.forget)
			for (let count = 1 + Math.floor(world.random() * 3); count > 0; count--) {
				const at = between(world, 0, 10_000);
				const key = keys[Math.floor(world.random() * keys.length)];
				extras.push(sleep(world, at).then(async () => await forgetting(world, proc, key, run)));
			}
		if (index === 0 && world.random() < plan.clear) {
			const at = between(world, 0, 10_000);
			extras.push(sleep(world, at).then(async () => await clearing(proc, run)));
		}
		return [sequence(), ...extras];
	});
	let hang: string | undefined;
	try {
		await world.run(Promise.all(jobs), 2_000_000);
		await world.run(sleep(world, 120_000), 2_000_000);
	} catch (error) {
		hang = error instanceof Error ? error.message : String(error);
	}
	const damaged = (key: string) => store.droppedBySlow.has(claimOf(key)) || store.droppedBySlow.has(raceOf(key));
	const excluded = (key: string) => run.cleared || run.forgotten.has(key) || damaged(key);
	created += run.created.size;
	const twice = [...run.created].filter(([key, who]) => who.length > 1 && !excluded(key)).map(([key]) => key);
	const never = keys.filter((key) => !run.created.has(key) && !excluded(key));
	const listed = new Set(store.list ?? []);
	const leftClaims = hang ? [] : never.filter((key) => listed.has(claimOf(key)));
	const orphaned = procs.flatMap((proc) =>
		[...insides(proc.shared.journal).rows]
			.filter(([, row]) => row.users.size === 0 && row.settled === 'mine' && !row.sent && !row.kept)
			.map(([key]) => `${proc.name}:${key}`),
	);
	const refusedLater = hang || !plan.exact ? [] : await laterRefuses(world, store, never);
	return {
		hang,
		pending: hang ? [] : [...run.pending.values()],
		twice,
		releasing: procs.reduce((sum, proc) => sum + releasingOf(proc.shared.journal), 0),
		waiting: procs.reduce((sum, proc) => sum + insides(proc.shared.journal).waiting.length, 0),
		orphaned,
		leftClaims,
		refusedLater,
		refusedInRun: never.filter((key) => run.refusedInRun.has(key)),
		tokens: hang ? 0 : (store.list ?? []).filter((value) => value.startsWith('own:')).length,
	};
}

let created = 0;
const bigList = (world: World) => bigListSpeed(world);
const quickish = (world: World) => profile(world, 1 + 4 * world.random());
const mixed = (world: World, index: number) => (index === 0 ? bigListSpeed(world) : profile(world, 2));

/** What a plan does unless it says otherwise: one slow process, three executions over 30 shared rows, Stop, refusals. */
const DEFAULTS: Omit<Plan, 'name'> = { procs: 1, speed: bigList, visits: 3, overlap: 0.5, rows: 30, stop: 0.5, refuse: 0.15, releaseTwice: 0.5, forget: 0, clear: 0, reask: 0, removeFail: 0, recordFail: 0, exact: true };
const plan = (spec: Partial<Plan> & { name: string }): Plan => ({ ...DEFAULTS, ...spec });

const plans: Plan[] = [
	plan({
		name: 'F. Stop, re-run at once, Stop again: one slow process (calls 0.5–0.7 s), 60 rows, the re-run stopped within 0.1–3 s',
		recent: [600],
		visits: 2,
		overlap: 0,
		rows: 60,
		stop: 1,
		stopSoon: 3_000,
		stopAgain: true,
		refuse: 0,
		releaseTwice: 0,
	}),
	plan({
		name: 'A. one slow process, 2–3 executions (overlapping or back to back) over 30 shared rows, Stop (half of them within 0.1–1.5 s), refusals released once or twice',
		recent: [600],
		stopSoon: 1_500,
	}),
	plan({
		name: 'B. one fast process, 3 executions over 30 shared rows, Stop, refusals, each row asked 4 times more while prepared',
		speed: quickish,
		stopSoon: 300,
		reask: 4,
	}),
	plan({
		name: 'C. one slow process, removals and records failing (before and after their write), Stop, refusals, Forget, re-asks',
		recent: [600],
		stopSoon: 1_500,
		forget: 0.7,
		reask: 2,
		removeFail: 0.2,
		recordFail: 0.05,
		exact: false,
		tokens: 40,
	}),
	plan({
		name: 'D. Forget All Rows at a random moment, one slow process, Stop, refusals, Forget',
		recent: [600],
		stopSoon: 1_500,
		forget: 0.5,
		clear: 1,
		reask: 1,
		removeFail: 0.05,
		exact: false,
		tokens: 40,
	}),
	plan({
		name: 'E. two processes (one slow, one fast), overlapping executions, Stop, refusals released twice, Forget',
		procs: 2,
		speed: mixed,
		recent: [600],
		visits: 2,
		overlap: 0.7,
		stop: 0.4,
		stopSoon: 1_500,
		forget: 0.3,
		reask: 1,
		exact: false,
	}),
];

const SEEDS = Number(setting('TAKEOFF_SEEDS') ?? 100);
const ONE_SEED = setting('TAKEOFF_SEED') === undefined ? undefined : Number(setting('TAKEOFF_SEED'));
const ONE_PLAN = setting('TAKEOFF_PLAN');

describe('takeOff: many seeds', () => {
	for (const [index, plan] of plans.entries()) {
		if (ONE_PLAN !== undefined && !plan.name.startsWith(ONE_PLAN)) continue;
		it(`${plan.name}: no hang, nothing left in releasing, no row created twice${plan.exact ? ', no claim of a row nobody created left or refused' : ''}`, async () => {
			const failures: string[] = [];
			const sum = { twice: 0, orphaned: 0, left: 0, refusedLater: 0, refusedInRun: 0, seeds: 0, orphanSeeds: 0 };
			const seeds = ONE_SEED !== undefined ? [ONE_SEED] : Array.from({ length: SEEDS }, (_, at) => 700_000 + 1_000 * index + at);
			for (const seed of seeds) {
				const outcome = await simulate(seed, plan);
				sum.seeds += 1;
				sum.twice += outcome.twice.length;
				sum.orphaned += outcome.orphaned.length;
				if (outcome.orphaned.length) sum.orphanSeeds += 1;
				sum.left += outcome.leftClaims.length;
				sum.refusedLater += outcome.refusedLater.length;
				sum.refusedInRun += outcome.refusedInRun.length;
				const bad = [
					outcome.hang ? `hang: ${outcome.hang}` : '',
					outcome.pending.length ? `never settled: ${outcome.pending.slice(0, 4).join('; ')} (${outcome.pending.length})` : '',
					outcome.releasing ? `releasing entries left ${outcome.releasing}` : '',
					outcome.waiting ? `rows left waiting ${outcome.waiting}` : '',
					outcome.twice.length ? `created twice ${outcome.twice.join(',')}` : '',
					plan.exact && outcome.orphaned.length ? `rows won and used by no visit ${outcome.orphaned.join(',')}` : '',
					plan.exact && outcome.leftClaims.length ? `claims of rows nobody created left ${outcome.leftClaims.join(',')}` : '',
					plan.exact && outcome.refusedLater.length ? `refused by a later process ${outcome.refusedLater.join(',')}` : '',
					plan.exact && outcome.refusedInRun.length ? `refused in the run, created by nobody ${outcome.refusedInRun.join(',')}` : '',
					outcome.tokens > (plan.tokens ?? 3 * plan.procs + 6) ? `tokens left ${outcome.tokens}` : '',
				].filter(Boolean);
				if (bad.length)
					failures.push(
						`seed ${seed}: ${bad.join('; ')} — replay: TAKEOFF_SEED=${seed} TAKEOFF_PLAN=${plan.name[0]} npx jest test/unit/takeOffBreak.test.ts -t 'many seeds'`,
					);
			}
			print(
				`${plan.name}: ${sum.seeds} seeds, created twice ${sum.twice}, rows won and used by no visit ${sum.orphaned} (in ${sum.orphanSeeds} seeds), claims of rows nobody created left ${sum.left}, refused later ${sum.refusedLater}, refused in the run and created by nobody ${sum.refusedInRun}; failing seeds ${failures.length} (rows created in all ${created})`,
			);
			created = 0;
			if (failures.length) throw new Error(`${failures.length} failing seeds:\n${failures.slice(0, 6).join('\n')}`);
		}, 600_000);
	}
});

// ---------------------------------------------------------------------------------------------------------------------
// What the guard costs: Stop at size (bench:journal --stop, in the simulation), the re-run at once. A row whose own
// removal call landed long ago still waits for the last call of the whole removal.

/** One execution as the router runs it: rows prepared 10 ms apart up to the journal's `ahead` past the rows taken, four in flight, 80 ms a creation. */
async function routerRun(world: World, proc: Process, keys: string[], stopAfter?: number) {
	const journal = proc.shared.journal;
	const start = world.now;
	const visit = journal.begin();
	let [next, prepared, stopped, firstCreation, refused, created] = [0, 0, false, -1, 0, 0];
	if (stopAfter !== undefined) world.at(stopAfter, () => (stopped = true));
	const preparer = (async () => {
		while (!stopped && prepared < keys.length) {
			if (prepared < next + journal.ahead) journal.standing(keys[prepared++], visit, true).catch(() => undefined);
			await sleep(world, 10);
		}
	})();
	await Promise.all(
		Array.from({ length: 4 }, async () => {
			while (!stopped && next < keys.length) {
				const key = keys[next++];
				if (next > prepared) prepared = next;
				if (!(await journal.claim(key, visit))) {
					refused += 1;
					continue;
				}
				if (firstCreation < 0) firstCreation = world.now - start;
				await sleep(world, 80);
				created += 1;
				journal.keep(key, visit);
			}
		}),
	);
	stopped = true;
	await preparer;
	const taking = world.now;
	await journal.end(visit);
	return { firstCreation, refused, created, took: world.now - start, ending: world.now - taking, prepared };
}

describe('takeOff: what the guard costs a re-run right after Stop at size', () => {
	async function stopAtSize(seed: number, after: number) {
		const { world, proc } = slowProcess(seed);
		const keys = keysOf(1_000);
		return await world.run(
			(async () => {
				let stoppedAt!: () => void;
				const taken = new Promise<void>((resolve) => (stoppedAt = resolve));
				const stopAfter = 5_000;
				world.at(stopAfter, () => stoppedAt());
				const first = routerRun(world, proc, keys, stopAfter);
				await taken;
				await sleep(world, after);
				const rerun = await routerRun(world, proc, keys);
				const stopped = await first;
				return { stopped, rerun };
			})(),
			5_000_000,
		);
	}

	// A guard (passes on ee3d702, fails on ee3d702^: 255–453 rows refused by the re-run). The times printed are the cost.
	it('1,000 rows, stopped at 5 s, the same rows again 0.1–9 s later: every row the stopped run did not create is created', async () => {
		const results: Array<{ seed: number; after: number; created: number; late: boolean }> = [];
		for (const [seed, after] of [
			[1, 100],
			[1, 3_000],
			[1, 5_000],
			[1, 7_000],
			[1, 9_000],
			[2, 5_000],
			[2, 8_000],
		]) {
			const { stopped, rerun } = await stopAtSize(seed, after);
			print(
				`seed ${seed}, re-run ${after} ms after the stop: stopped run created ${stopped.created}, prepared ${stopped.prepared}, its end took ${(stopped.ending / 1000).toFixed(1)} s; ` +
					`re-run: first creation after ${(rerun.firstCreation / 1000).toFixed(1)} s, created ${rerun.created}, refused ${rerun.refused}, took ${(rerun.took / 1000).toFixed(1)} s`,
			);
			results.push({ seed, after, created: stopped.created + rerun.created, late: rerun.firstCreation > 6_000 });
		}
		// Every row created; the re-run's first creation within 6 s (0.0–4.8 s since the end takes the last rows off first and
		// a re-run takes back the rows whose removal call has not started; 10.1–11.2 s before, 36–42 s on ee3d702).
		expect(results.filter((result) => result.created !== 1_000 || result.late)).toEqual([]);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------------
// By hand: what settles, and when, around one removal (guards: they pass on ee3d702).

describe('takeOff: around one removal, by hand', () => {
	/** V1 won r0–r39 ahead and never sent them; its end takes them off (two calls); `during` runs 1 ms into that end. */
	async function aroundRemoval<T>(
		during: (journal: Journal, world: World, proc: Process) => Promise<T>,
		options: { failRemoval?: number; rows?: number } = {},
	) {
		const world = new World(1);
		const store = largeList(world);
		const speed = bigListSpeed(world);
		const proc = new Process('p0', world, store, speed);
		proc.shared.recentCallsMs.push(600);
		let removals = 0;
		proc.shared.journal.use({
			checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => await store.checkProcessedAndRecord(speed, 'p0', values),
			removeProcessed: async (values: DeduplicationItemTypes[]) => {
				removals += 1;
				if (removals === options.failRemoval) {
					await sleep(world, 20);
					throw new Error('connection refused');
				}
				await store.removeProcessed(speed, 'p0', values);
			},
			clearAllProcessedItems: async () => await store.clearAllProcessedItems(speed, 'p0'),
		});
		const journal = proc.shared.journal;
		const keys = keysOf(options.rows ?? 40);
		const outcome = await world.run(
			(async () => {
				const { v1 } = await stoppedRun(world, journal, keys);
				const endStart = world.now;
				let endDone = -1;
				const ending = journal.end(v1).then(
					() => (endDone = world.now),
					() => (endDone = world.now),
				);
				await sleep(world, 1);
				const result = await during(journal, world, proc);
				await ending;
				await sleep(world, 60_000);
				return { result, endStart, endDone };
			})(),
			2_000_000,
		);
		const removes = world.trace.filter((line) => line.includes(' write p0 remove')).map((line) => Number(line.split(' ')[0]));
		return { ...outcome, removes, store, world, releasing: releasingOf(journal), waiting: insides(journal).waiting.length };
	}

	it('the removal fails (its first call): every waiting standing settles, nothing is left in releasing', async () => {
		const outcome = await aroundRemoval(
			async (journal) => {
				const v2 = journal.begin();
				const standings = await Promise.all(keysOf(40).map(async (key) => await journal.standing(key, v2)));
				await journal.end(v2);
				return standings;
			},
			{ failRemoval: 1 },
		);
		// The claims stayed (the removal failed): the rows are 'known' (refused "may already exist": documented).
		print(`removal failed: ${outcome.result.filter((s) => s === 'known').length} of 40 known`);
		expect({ settled: outcome.result.length, releasing: outcome.releasing, waiting: outcome.waiting }).toEqual({ settled: 40, releasing: 0, waiting: 0 });
	});

	it('a row released twice at once, and by a forget, while the end takes it off: all settle, the row is won once the last removal landed', async () => {
		const outcome = await aroundRemoval(async (journal, world) => {
			const v2 = journal.begin();
			const asked = journal.standing('r35', v2);
			await Promise.all([journal.release(['r35']), journal.release(['r35']), journal.forget('r35')]);
			const released = world.now;
			const standing = await asked;
			const at = world.now;
			await journal.end(v2);
			return { standing, released, at };
		});
		// 'known' when the standing's claim call lands between the forget's own ask (which writes the claim) and its removal:
		// a Forget of a row while a sync of it runs is the documented limit (docs/sync-memory.md, "Forget during a claim").
		// Since the end takes the last rows off first (journal.ts), r35 is in its first removal call, and this order occurs.
		expect({
			standing: ['mine', 'known'].includes(outcome.result.standing),
			after: outcome.result.at >= outcome.result.released,
			releasing: outcome.releasing,
		}).toEqual({
			standing: true,
			after: true,
			releasing: 0,
		});
	});

	it('Forget All Rows while the end takes rows off: the waiting rows are won, nothing hangs', async () => {
		const outcome = await aroundRemoval(async (journal) => {
			const v2 = journal.begin();
			const asked = Promise.all(keysOf(40).map(async (key) => await journal.standing(key, v2)));
			const own = journal.begin();
			await journal.clear();
			await journal.end(own);
			const standings = await asked;
			await journal.end(v2);
			return standings;
		});
		expect({ mine: outcome.result.filter((s) => s === 'mine').length, releasing: outcome.releasing, waiting: outcome.waiting }).toEqual({
			mine: 40,
			releasing: 0,
			waiting: 0,
		});
	});

	it("the same row asked 200 times by 20 executions while the end takes it off: one ask (or none: taken back before its removal call), every answer 'mine'", async () => {
		let calls = 0;
		const outcome = await aroundRemoval(async (journal, world) => {
			const helpers = insides(journal) as unknown as {
				store: { helpers: { checkProcessedAndRecord: (values: DeduplicationItemTypes[]) => Promise<unknown> } };
			};
			const record = helpers.store.helpers.checkProcessedAndRecord;
			helpers.store.helpers.checkProcessedAndRecord = async (values) => {
				if (values.map(String).includes(claimOf('r35'))) calls += 1;
				return await record(values);
			};
			const visits = Array.from({ length: 20 }, () => journal.begin());
			const answers = await Promise.all(
				Array.from({ length: 200 }, async (_, index) => {
					await sleep(world, 50 * (index % 40));
					return await journal.standing('r35', visits[index % 20], index % 3 === 0);
				}),
			);
			for (const visit of visits) await journal.end(visit);
			return answers;
		});
		expect({ answers: new Set(outcome.result), atMostOneAsk: calls <= 2, releasing: outcome.releasing }).toEqual({
			answers: new Set(['mine']),
			atMostOneAsk: true,
			releasing: 0,
		});
	});

	// (The standing may slip in between two forgets and win the row, whose claim the next forget then takes off: the
	// documented "Forget during a claim". What is asserted: it settles, no later than shortly after the last forget.)
	it('Forget of the row five times in a row while a standing waits: it settles, at the latest shortly after the last forget', async () => {
		const outcome = await aroundRemoval(async (journal, world) => {
			const v2 = journal.begin();
			const asked = journal.standing('r35', v2).then((standing) => ({ standing, at: world.now }));
			for (let index = 0; index < 5; index++) await journal.forget('r35');
			const forgotten = world.now;
			const { standing, at } = await asked;
			await journal.end(v2);
			return { standing, waited: at - forgotten };
		});
		print(`five forgets: the standing came ${Math.round(outcome.result.waited)} ms after the last forget (negative: before it)`);
		expect(outcome.result.standing).toBe('mine');
		expect(outcome.result.waited).toBeLessThan(5_000);
	});

	/**
	 * V1 won r0–r199 ahead and sent none; its end takes 400 values (and a token) off, 50 a call: 9 calls of ~1.2 s each
	 * (0.5–0.7 s, spaced by the longest). The re-run asks r0 1 ms into that end. r0's claim and race go with the first
	 * call; on ee3d702 r0 is asked again only after the ninth (`released` waits for the whole `takeOff`).
	 */
	// FAILS on ee3d702 (the cost of the guard, not a wrong answer): r0 answered ~15.6 s after its own removal call landed
	// (21.9 s against 6.3 s); at size (the describe above) a re-run's first creation comes 36–42 s after it starts instead
	// of 10–12 s on ee3d702^.
	it("200 rows taken off: a re-run's first row is answered within one decision of its own removal call, not after all nine", async () => {
		const outcome = await aroundRemoval(
			async (journal, world) => {
				world.store!.follow = ['r0'];
				const v2 = journal.begin();
				const standing = await journal.standing('r0', v2);
				const at = world.now;
				await journal.end(v2);
				return { standing, at };
			},
			{ rows: 200 },
		);
		const own = outcome.world.trace.find((line) => line.includes(' write p0 remove') && line.includes('claim:r0'));
		const ownAt = own === undefined ? NaN : Number(own.split(' ')[0]);
		const takeOffCalls = outcome.removes.filter((at) => at <= outcome.endDone);
		print(
			`200 rows: r0's removal call landed at ${(ownAt / 1000).toFixed(1)} s, the end's removal calls (${takeOffCalls.length}) until ${(takeOffCalls[takeOffCalls.length - 1] / 1000).toFixed(1)} s; r0 answered 'mine' at ${(outcome.result.at / 1000).toFixed(1)} s`,
		);
		expect(outcome.result.standing).toBe('mine');
		// One decision: a claim call, a race call, the wait (2 s), a check call, each ~1.3 s with its spacing, and at most one
		// removal call of the end between two of them (each removal call takes its turn when the one before landed): ~9.6 s.
		expect(outcome.result.at - ownAt).toBeLessThan(11_000);
	});
});
