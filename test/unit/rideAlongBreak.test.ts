/**
 * Trying to break eb4cfa0: `StoreCalls.beforeCall` (storeCalls.ts `drain`) set by contest.ts to
 * `hurry()`, so that rows prepared ahead that wait in `waiting` for their batch (the lazy path,
 * calls of 300 ms and more) ride with any call that goes anyway.
 *
 * The claims simulation (test/sim/claims.ts: the real Journal over a model of n8n's store that loses
 * updates, simulated time, a seeded scheduler), with an execution driver of its own that prepares
 * rows the way the router's Lookahead does (one at a time, `prepareMs` apart, up to a window past
 * the rows taken; a row taken before it was prepared is prepared then), at speeds that change per
 * execution (1 ms to 1.5 s a row, bursts and pauses), several slow processes, overlapping
 * executions of one process, processes that switch between slow and fast mid-run, store calls that
 * fail before or after their write, Stop, Forget of rows while they wait (in executions of their
 * own), `end` while rows wait. `RIDE_HOOK=off` runs everything with `beforeCall` unset: the code
 * before eb4cfa0, for comparison (the hook is the change's only product-code difference).
 *
 * Properties per seed: no row created by two executions (outside a Forget of that row and a write
 * slower than every wait); no hang (the world runs out of events, every `standing`, `forget` and
 * `end` settles); in one process without faults, no row never created is refused (in the run, or
 * by a later run) and no claim of such a row is left; `own:` tokens left bounded; calls bounded.
 * Counted beside it: how often `beforeCall` found rows waiting (and while `flush` ran).
 *
 * What this review found:
 * - eb4cfa0: a re-run (or any execution of the process) that asks rows a stopped execution's end is
 *   still taking off (50 values a call) sent their claims with its next call, between two removal
 *   chunks: rows nobody sent were refused "may already exist" ("Stop at size", "by hand"). The same
 *   hole was there before through `hurry(key)` (60 and 200 rows). Fixed: a row is asked again only
 *   once the removal of its claim has landed (contest.ts `takeOff`); these tests guard it.
 * - A known hole, there before eb4cfa0 too: rows created twice with four processes whose calls all
 *   write within 1 s (scenario 8, counted, not failed per seed; docs/sync-memory.md).
 *
 *   RIDE_SEEDS=<n> (default per scenario: 300; the review ran 2,000), RIDE_SEED=<s>, RIDE_SCENARIO=<i>, RIDE_HOOK=off,
 *   RIDE_TRACE=r5,c3 (store calls with those values; RIDE_TRACE_ALL=1: every call), RIDE_DEBUG=1,
 *   RIDE_EXPLORE=slow,slow,slow,slow (scenario 9: one process of each kind given)
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { claimOf, raceOf } from '../../nodes/Recruiting/memory/marks';
import type { Journal } from '../../nodes/Recruiting/memory/journal';
import type { Decision, Profile } from '../sim/claims';
import { profile, Store } from '../sim/claims';
import { print, setting as hostSetting } from '../sim/host';
import { entries, lookaheadExecution, Process, slow, World } from '../sim/journalBreak';
import { between, largeList, recordFaulty, rows as keysOf, shuffled } from '../sim/scenarioRunner';

const setting = hostSetting as (name: string) => string | undefined;

const HOOK = setting('RIDE_HOOK') !== 'off';
const DEBUG = setting('RIDE_DEBUG') !== undefined;

/** What the test reads of the journal's insides (contest.ts, storeCalls.ts: private). */
interface Insides {
	store: { beforeCall?: () => void };
	waiting: unknown[];
	flushing: boolean;
}
const insides = (journal: Journal) => journal as unknown as Insides;

/** Slow until a random moment, fast for a while, slow again, …: `recentCallsMs`, `lazy`, `batch` and `ahead` change mid-run. */
const switching = (world: World, low = 300, high = 900): Profile => {
	const slowOne = slow(world, low, high);
	const fastOne = profile(world, 1);
	const windows: Array<[number, number]> = [];
	for (let at = between(world, 0, 3_000); at < 120_000; ) {
		const to = at + between(world, 500, 5_000);
		windows.push([at, to]);
		at = to + between(world, 1_000, 6_000);
	}
	const pick = () => (windows.some(([from, to]) => world.now >= from && world.now < to) ? fastOne : slowOne);
	return {
		toRead: () => pick().toRead(),
		gap: () => pick().gap(),
		back: () => pick().back(),
	};
};

/** How far apart rows are prepared: one speed per execution, or a mix with pauses. */
type Pace = 'burst' | 'n8n' | 'slow' | 'trickle' | 'mixed';
const paces: Pace[] = ['burst', 'n8n', 'slow', 'trickle', 'mixed'];
const paceOf = (world: World, pace: Pace): (() => number) => {
	switch (pace) {
		case 'burst':
			return () => 1;
		case 'n8n':
			return () => 8 + 4 * world.random();
		case 'slow':
			return () => between(world, 50, 250);
		case 'trickle':
			return () => between(world, 300, 1_500);
		case 'mixed':
			return () => (world.random() < 0.1 ? between(world, 1_000, 5_000) : world.random() < 0.5 ? 1 : between(world, 5, 400));
	}
};

interface ExecPlan {
	keys: string[];
	inFlight: number;
	pace: Pace;
	prepareMs: () => number;
	/** Rows prepared past the rows taken (default: the journal's `ahead`, as the router). */
	window?: number;
	/** Takes no more rows after this many ms (Stop): its end runs with rows prepared and not taken. */
	stopAfter?: number;
	sendMs: () => number;
	/** Chance the service refuses a creation (the row is released). */
	refuse: number;
	/** Forget Each Input Row of these keys at these moments (from the execution's start). */
	forgets: Array<{ at: number; key: string }>;
	/** The execution starts this many ms after the one before it (or after the process's start). */
	startAfter: number;
}

interface ProcPlan {
	speed: Profile;
	faults?: { before?: number; after?: number; remove?: number };
	execs: ExecPlan[];
	overlap: boolean;
	/** Calls this process made before the run were this long (a process that knows its list is large). */
	recent?: number[];
}

interface Scenario {
	name: string;
	seeds: number;
	procs: Array<(world: World) => ProcPlan>;
	/** Assert that no row never created is refused later, and no claim of it left (one process, no faults: nothing can bring a claim back). */
	exact: boolean;
	/** Largest number of `own:` tokens left per seed. */
	tokens: number;
	/** Largest number of calls (record + remove) per process per seed, given its rows. */
	calls?: (rows: number, ms: number) => number;
	/**
	 * A known hole (docs/sync-memory.md, "Four processes or more"): rows created twice are counted, not failed per seed;
	 * with the default seeds the count may not exceed this (a regression fails).
	 */
	knownTwice?: number;
}

interface Cover {
	fired: number;
	rides: number;
	rode: number;
	whileFlushing: number;
}

interface Log {
	decisions: Decision[];
	created: Map<string, string[]>;
	forgotten: Set<string>;
	pending: Map<number, string>;
	failedRows: number;
	failedEnds: number;
	ends: number;
	endsDone: number;
	calls: Map<
		string,
		{
			record: number;
			remove: number;
			rows: Set<string>;
			from: number;
			to: number;
		}
	>;
	cover: Cover;
}

const newLog = (): Log => ({
	decisions: [],
	created: new Map(),
	forgotten: new Set(),
	pending: new Map(),
	failedRows: 0,
	failedEnds: 0,
	ends: 0,
	endsDone: 0,
	calls: new Map(),
	cover: { fired: 0, rides: 0, rode: 0, whileFlushing: 0 },
});

let tracked = 0;
/** A promise that must settle (a row's standing, a forget, an end): pending until it does. */
function track<T>(log: Log, promise: Promise<T>, what: string): Promise<T> {
	const id = ++tracked;
	log.pending.set(id, what);
	promise.then(
		() => log.pending.delete(id),
		() => log.pending.delete(id),
	);
	return promise;
}

/** The process's store calls, counted, failing now and then before or after their write. */
function instrument(world: World, proc: Process, store: Store, speed: Profile, plan: ProcPlan, log: Log, hookOn: boolean): void {
	const count = {
		record: 0,
		remove: 0,
		rows: new Set<string>(),
		from: Infinity,
		to: 0,
	};
	log.calls.set(proc.name, count);
	const faults = plan.faults ?? {};
	proc.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			count.record += 1;
			return await recordFaulty(world, store, speed, proc.name, faults, values);
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => {
			count.remove += 1;
			if (world.random() < (faults.remove ?? 0)) {
				await new Promise<void>((resolve) => world.at(speed.toRead(), resolve));
				throw new Error('connection refused');
			}
			await store.removeProcessed(speed, proc.name, values);
		},
	});
	const inside = insides(proc.shared.journal);
	const hook = inside.store.beforeCall;
	inside.store.beforeCall = hookOn
		? () => {
				log.cover.fired += 1;
				if (inside.waiting.length > 0) {
					log.cover.rides += 1;
					log.cover.rode += inside.waiting.length;
					if (inside.flushing) log.cover.whileFlushing += 1;
				}
				hook?.();
			}
		: undefined;
}

/**
 * One execution as the router runs Create or Update: rows prepared one at a time `prepareMs` apart
 * up to the window past the rows taken (each asked in the background: `standing(key, visit, true)`),
 * `inFlight` rows taken in order (a row not prepared yet is prepared when taken), each `claim`ed,
 * sent (refused by the service now and then: released), kept; Stop; Forget; the visit's end.
 */
async function execution(proc: Process, plan: ExecPlan, log: Log): Promise<void> {
	const world = proc.world;
	const journal = proc.shared.journal;
	const sleep = async (ms: number) => await new Promise<void>((resolve) => world.at(ms, resolve));
	const visit = journal.begin();
	const note = (what: string) => DEBUG && print(`${world.now.toFixed(1)} ${proc.name} visit ${visit}: ${what}`);
	note(
		`begins, ${plan.keys.length} rows, pace ${plan.pace}, ${plan.inFlight} in flight, window ${plan.window ?? 'ahead'}${plan.stopAfter !== undefined ? `, stop at ${Math.round(plan.stopAfter)}` : ''}`,
	);
	const keys = plan.keys;
	let [cursor, taken, next, stopped, ended] = [0, 0, 0, false, false];
	let wake: (() => void) | undefined;
	const resume = () => {
		const waker = wake;
		wake = undefined;
		waker?.();
	};
	if (plan.stopAfter !== undefined)
		world.at(plan.stopAfter, () => {
			stopped = true;
			resume();
		});
	const window = () => plan.window ?? journal.ahead;
	const ask = (index: number) => {
		track(log, journal.standing(keys[index], visit, true), `${proc.name} standing ${keys[index]} (ahead)`).catch(() => undefined);
	};
	// Forget Each Input Row (Forget Now) runs in an execution of its own: its visit asks the row (keyOf), forgets it, ends.
	const forgets = plan.forgets.map(async ({ at, key }) => {
		await sleep(at);
		if (ended) return;
		log.forgotten.add(key);
		const own = journal.begin();
		track(log, journal.standing(key, own, true), `${proc.name} standing ${key} (forget's)`).catch(() => undefined);
		await track(log, journal.forget(key), `${proc.name} forget ${key}`).catch(() => undefined);
		await track(log, journal.end(own), `${proc.name} end of forget ${key}`).catch(() => undefined);
	});
	const preparer = (async () => {
		while (!stopped && cursor < keys.length) {
			if (cursor - taken >= window()) {
				await new Promise<void>((resolve) => (wake = resolve));
				continue;
			}
			await sleep(plan.prepareMs());
			if (stopped || cursor >= keys.length || cursor - taken >= window()) continue;
			ask(cursor++);
		}
	})();
	await Promise.all(
		Array.from({ length: plan.inFlight }, async () => {
			while (!stopped && next < keys.length) {
				const index = next++;
				taken = Math.max(taken, index + 1);
				resume();
				if (index >= cursor) {
					cursor = index + 1;
					await sleep(plan.prepareMs());
					ask(index);
				}
				const key = keys[index];
				let mine: boolean;
				try {
					mine = await track(log, journal.claim(key, visit), `${proc.name} claim ${key}`);
				} catch {
					log.failedRows += 1;
					continue;
				}
				log.decisions.push({
					process: proc.name,
					key,
					standing: journal.answered(key) ?? (mine ? 'mine' : 'taken'),
					at: world.now,
				});
				if (!mine) continue;
				await sleep(plan.sendMs());
				if (world.random() < plan.refuse) {
					await journal.release([key]).catch(() => undefined);
					continue;
				}
				log.created.set(key, [...(log.created.get(key) ?? []), proc.name]);
				journal.keep(key, visit);
			}
		}),
	);
	note(`takes no more rows (${next} taken, ${cursor} prepared)`);
	stopped = true;
	resume();
	await preparer;
	note('ends');
	log.ends += 1;
	try {
		await track(log, journal.end(visit), `${proc.name} end ${visit}`);
		log.endsDone += 1;
		note('ended');
	} catch {
		log.failedEnds += 1;
		log.endsDone += 1;
	}
	ended = true;
	await Promise.all(forgets);
}

interface Outcome {
	twice: string[];
	hang?: string;
	pending: string[];
	tokens: number;
	leftClaims: string[];
	refusedWrongly: string[];
	/** Rows refused by an execution of the run itself ('known' or 'taken') that no execution ever created. */
	refusedInRun: string[];
	rows: number;
	calls: Array<{ name: string; calls: number; rows: number; ms: number }>;
	cover: Cover;
	failedRows: number;
	failedEnds: number;
	ms: number;
}

async function simulate(seed: number, scenario: Scenario, hookOn = HOOK): Promise<Outcome> {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	const trace = setting('RIDE_TRACE');
	if (trace) store.follow = trace.split(',');
	const log = newLog();
	const all = new Set<string>();
	const jobs = scenario.procs.map(async (make, index) => {
		const plan = make(world);
		const proc = new Process(`p${index}`, world, store, plan.speed);
		if (plan.recent) proc.shared.recentCallsMs.push(...plan.recent);
		instrument(world, proc, store, plan.speed, plan, log, hookOn);
		const count = log.calls.get(proc.name)!;
		for (const exec of plan.execs)
			for (const key of exec.keys) {
				all.add(key);
				count.rows.add(key);
			}
		const one = async (exec: ExecPlan) => {
			await new Promise<void>((resolve) => world.at(exec.startAfter, resolve));
			count.from = Math.min(count.from, world.now);
			await execution(proc, exec, log);
			count.to = Math.max(count.to, world.now);
		};
		if (plan.overlap) await Promise.all(plan.execs.map(one));
		else for (const exec of plan.execs) await one(exec);
	});
	let hang: string | undefined;
	try {
		await world.run(Promise.all(jobs), 2_000_000);
		// Timers (a batch's time up) and background writes: a minute more of simulated time.
		await world.run(new Promise<void>((resolve) => world.at(60_000, resolve)), 2_000_000);
	} catch (error) {
		hang = error instanceof Error ? error.message : String(error);
	}
	const ms = world.now;
	if (trace) print(world.trace.filter((line) => setting('RIDE_TRACE_ALL') !== undefined || line.includes('[')).join('\n'));
	const damaged = (key: string) => store.droppedBySlow.has(claimOf(key)) || store.droppedBySlow.has(raceOf(key));
	const excluded = (key: string) => log.forgotten.has(key) || damaged(key);
	const tokens = hang ? 0 : entries(store, 'own:').length;
	const never = [...all].filter((key) => !log.created.has(key) && !excluded(key));
	const listed = new Set(store.list ?? []);
	const leftClaims = hang ? [] : never.filter((key) => listed.has(claimOf(key)));
	// The next run: a fresh, fast process asks every row once everything ended.
	const laterDecisions: Decision[] = [];
	if (!hang) {
		const later = new Process('later', world, store, profile(world, 1));
		await world.run(
			lookaheadExecution(later, [...all], laterDecisions, {
				inFlight: 4,
				ahead: 10,
				send: async () => false,
				failed: () => undefined,
			}),
			2_000_000,
		);
	}
	const neverSet = new Set(never);
	const refusedWrongly = laterDecisions.filter((decision) => decision.standing !== 'mine' && neverSet.has(decision.key)).map((decision) => decision.key);
	const refusedInRun = [
		...new Set(
			log.decisions
				.filter((decision) => decision.standing !== 'mine' && neverSet.has(decision.key))
				.map((decision) => `${decision.process}:${decision.key}:${decision.standing}@${Math.round(decision.at)}`),
		),
	];
	const twice = [...log.created].filter(([key, who]) => who.length > 1 && !excluded(key)).map(([key]) => key);
	if (DEBUG) {
		print(
			`seed ${seed}: created ${log.created.size}/${all.size}, forgotten ${[...log.forgotten].join(',')}, left claims ${leftClaims.join(',')}, refused wrongly ${refusedWrongly.join(',')}, tokens ${tokens}, failed rows ${log.failedRows}, ends ${log.endsDone}/${log.ends}`,
		);
		for (const key of twice)
			print(
				`  twice ${key}: ${log.decisions
					.filter((d) => d.key === key)
					.map((d) => `${d.process}:${d.standing}@${Math.round(d.at)}`)
					.join(' ')}`,
			);
		for (const key of refusedWrongly)
			print(
				`  ${key}: ${log.decisions
					.filter((d) => d.key === key)
					.map((d) => `${d.process}:${d.standing}@${Math.round(d.at)}`)
					.join(' ')}`,
			);
	}
	return {
		twice,
		hang,
		pending: hang ? [] : [...log.pending.values()],
		tokens,
		leftClaims,
		refusedWrongly,
		refusedInRun,
		rows: all.size,
		calls: [...log.calls].map(([name, count]) => ({
			name,
			calls: count.record + count.remove,
			rows: count.rows.size,
			ms: count.to - count.from,
		})),
		cover: log.cover,
		failedRows: log.failedRows,
		failedEnds: log.failedEnds,
		ms,
	};
}

/** An execution's plan, drawn from the world. */
function execPlan(world: World, keys: string[], options: Partial<ExecPlan> & { stop?: number; forget?: number } = {}): ExecPlan {
	const pace = options.pace ?? paces[Math.floor(world.random() * paces.length)];
	const stopAfter = options.stopAfter ?? (options.stop !== undefined && world.random() < options.stop ? between(world, 300, 6_000) : undefined);
	const forgets: ExecPlan['forgets'] = [];
	if (options.forget !== undefined && world.random() < options.forget) {
		const count = 1 + Math.floor(world.random() * 3);
		for (let index = 0; index < count; index++)
			forgets.push({
				at: between(world, 0, 8_000),
				key: keys[Math.floor(world.random() * keys.length)],
			});
	}
	return {
		keys,
		inFlight: options.inFlight ?? 1 + Math.floor(world.random() * 4),
		pace,
		prepareMs: options.prepareMs ?? paceOf(world, pace),
		window: options.window ?? (world.random() < 0.3 ? 2 + Math.floor(world.random() * 12) : undefined),
		stopAfter,
		sendMs: options.sendMs ?? (() => between(world, 20, 220)),
		refuse: options.refuse ?? 0,
		forgets: options.forgets ?? forgets,
		startAfter: options.startAfter ?? between(world, 0, 1_500),
	};
}

const lazyProfile = (world: World, low = 300, high = 900) => slow(world, low, high);

const scenarios: Scenario[] = [
	{
		name: '0. one slow process, 2–3 overlapping executions over the same rows shuffled, rows prepared at different speeds, Stop, service refusals',
		seeds: 300,
		exact: true,
		tokens: 3,
		procs: [
			(world) => {
				const keys = keysOf(30);
				const execs = Array.from({ length: 2 + Math.floor(world.random() * 2) }, () => execPlan(world, shuffled(world, keys), { stop: 0.3, refuse: 0.1 }));
				return { speed: lazyProfile(world), execs, overlap: true };
			},
		],
	},
	{
		name: '1. one process switching between slow and fast mid-run, overlapping and back-to-back executions, Stop',
		seeds: 300,
		exact: true,
		tokens: 3,
		procs: [
			(world) => {
				const keys = keysOf(30);
				const execs = Array.from({ length: 3 }, () => execPlan(world, shuffled(world, keys), { stop: 0.3, refuse: 0.05 }));
				return {
					speed: switching(world),
					execs,
					overlap: world.random() < 0.5,
					recent: world.random() < 0.5 ? [600] : [],
				};
			},
		],
	},
	{
		name: '2. one slow process, Stop while rows wait for their batch (rows prepared 50 ms–1.5 s apart, stopped within 0.3–3 s), an execution over the same rows just after',
		seeds: 300,
		exact: true,
		tokens: 3,
		procs: [
			(world) => {
				const keys = keysOf(30);
				const first = execPlan(world, keys, {
					stopAfter: between(world, 300, 3_000),
					pace: world.random() < 0.5 ? 'slow' : 'trickle',
					startAfter: 0,
				});
				const second = execPlan(world, shuffled(world, keys), {
					startAfter: between(world, 0, 4_000),
				});
				return {
					speed: lazyProfile(world),
					execs: [first, second],
					overlap: true,
					recent: [600],
				};
			},
		],
	},
	{
		name: '3. three slow processes (one switching), two of them with overlapping executions, the same rows, rows prepared at different speeds, Stop, refusals',
		seeds: 300,
		exact: false,
		tokens: 30,
		procs: [
			(world) => ({
				speed: lazyProfile(world),
				execs: [execPlan(world, shuffled(world, keysOf(30)), { stop: 0.2 }), execPlan(world, shuffled(world, keysOf(30)), { stop: 0.2 })],
				overlap: true,
			}),
			(world) => ({
				speed: lazyProfile(world, 300, 600),
				execs: [execPlan(world, shuffled(world, keysOf(30)), { refuse: 0.1 }), execPlan(world, shuffled(world, keysOf(30)))],
				overlap: true,
			}),
			(world) => ({
				speed: switching(world),
				execs: [execPlan(world, shuffled(world, keysOf(30)), { stop: 0.2 })],
				overlap: false,
			}),
		],
	},
	{
		name: '4. two slow processes, store calls failing before and after their write (removals too), overlapping executions, the same rows',
		seeds: 300,
		exact: false,
		tokens: 30,
		procs: [
			(world) => ({
				speed: lazyProfile(world),
				faults: { before: 0.05, after: 0.08, remove: 0.03 },
				execs: [execPlan(world, shuffled(world, keysOf(30))), execPlan(world, shuffled(world, keysOf(30)), { stop: 0.3 })],
				overlap: true,
			}),
			(world) => ({
				speed: switching(world),
				faults: { before: 0.05, after: 0.05 },
				execs: [execPlan(world, shuffled(world, keysOf(30)))],
				overlap: false,
			}),
		],
	},
	{
		name: '5. Forget Each Input Row of rows while they wait for their batch: two slow processes, overlapping executions, Stop',
		seeds: 300,
		exact: false,
		tokens: 30,
		procs: [
			(world) => ({
				speed: lazyProfile(world),
				execs: [
					execPlan(world, shuffled(world, keysOf(30)), {
						forget: 0.8,
						stop: 0.2,
					}),
					execPlan(world, shuffled(world, keysOf(30)), { forget: 0.5 }),
				],
				overlap: true,
				recent: [600],
			}),
			(world) => ({
				speed: lazyProfile(world, 300, 600),
				execs: [execPlan(world, shuffled(world, keysOf(30)), { forget: 0.5 })],
				overlap: false,
			}),
		],
	},
	{
		name: '6. one slow process, Forget of rows while they wait, overlapping executions, Stop (no other process: nothing else can bring a claim back)',
		seeds: 300,
		exact: true,
		tokens: 3,
		procs: [
			(world) => {
				const keys = keysOf(30);
				return {
					speed: lazyProfile(world),
					execs: [execPlan(world, shuffled(world, keys), { forget: 1, stop: 0.3 }), execPlan(world, shuffled(world, keys), { forget: 0.5 })],
					overlap: true,
					recent: [600],
				};
			},
		],
	},
	{
		name: '7. everything at once, three processes (slow, slower, switching), 60 rows, overlapping executions, rows prepared at every speed, Stop, Forget, refusals, calls failing before and after their write',
		seeds: 300,
		exact: false,
		tokens: 40,
		procs: [
			(world) => ({
				speed: lazyProfile(world),
				faults: { before: 0.03, after: 0.03 },
				execs: [
					execPlan(world, shuffled(world, keysOf(60)), {
						stop: 0.3,
						forget: 0.3,
						refuse: 0.05,
					}),
					execPlan(world, shuffled(world, keysOf(60)), { stop: 0.3 }),
				],
				overlap: true,
				recent: [600],
			}),
			(world) => ({
				speed: lazyProfile(world, 500, 950),
				execs: [execPlan(world, shuffled(world, keysOf(60)), { forget: 0.3 }), execPlan(world, shuffled(world, keysOf(60)), { stop: 0.3 })],
				overlap: world.random() < 0.5,
			}),
			(world) => ({
				speed: switching(world),
				faults: { after: 0.05 },
				execs: [
					execPlan(world, shuffled(world, keysOf(60)), {
						stop: 0.2,
						refuse: 0.05,
					}),
				],
				overlap: false,
			}),
		],
	},
	{
		// A known hole, not of eb4cfa0 (the same with RIDE_HOOK=off, the code before it): four processes whose calls each
		// write well within 1 s of their read create rows twice (Fischer's check fooled by lost updates relayed through the
		// other processes' calls; `RIDE_DEBUG=1`). docs/sync-memory.md gives the counts at 2,000 seeds. 9 in these 300 seeds since
		// batches follow the pace (8 before); over 1,500 seeds (`RIDE_SCENARIO=8 RIDE_SEEDS=1500`) 80 against 77 before, 2026-12-02.
		name: '8. KNOWN HOLE: four processes (slow, slower, switching, fast), 60 rows each in its own order, one execution each, nothing else: no Stop, Forget, refusal or failing call',
		seeds: 300,
		knownTwice: 9,
		exact: false,
		tokens: 60,
		procs: [
			(world) => ({
				speed: lazyProfile(world),
				execs: [execPlan(world, shuffled(world, keysOf(60)))],
				overlap: false,
				recent: [600],
			}),
			(world) => ({
				speed: lazyProfile(world, 500, 950),
				execs: [execPlan(world, shuffled(world, keysOf(60)))],
				overlap: false,
			}),
			(world) => ({
				speed: switching(world),
				execs: [execPlan(world, shuffled(world, keysOf(60)))],
				overlap: false,
			}),
			(world) => ({
				speed: profile(world, 1),
				execs: [
					execPlan(world, shuffled(world, keysOf(60)), {
						startAfter: between(world, 0, 10_000),
					}),
				],
				overlap: false,
			}),
		],
	},
	{
		// Only with RIDE_EXPLORE=<kinds> (slow, slower, switching, mid, fast; one process each), e.g. slow,slow,slow,slow.
		name: '9. explore',
		seeds: 2000,
		exact: false,
		tokens: 400,
		procs: (setting('RIDE_EXPLORE') ?? 'slow,slower,switching,fast').split(',').map(
			(kind) =>
				(world: World): ProcPlan => ({
					speed:
						kind === 'slow'
							? lazyProfile(world)
							: kind === 'slower'
								? lazyProfile(world, 500, 950)
								: kind === 'switching'
									? switching(world)
									: kind === 'mid'
										? lazyProfile(world, 100, 250)
										: profile(world, 1),
					execs: [
						execPlan(world, shuffled(world, keysOf(60)), {
							startAfter: between(world, 0, kind === 'fast' ? 10_000 : 1_500),
						}),
					],
					overlap: false,
				}),
		),
	},
];

const ONE = setting('RIDE_SEED') === undefined ? undefined : Number(setting('RIDE_SEED'));
const ONLY = setting('RIDE_SCENARIO') === undefined ? undefined : Number(setting('RIDE_SCENARIO'));
const seedsFor = (scenario: Scenario, base: number) =>
	ONE !== undefined ? [ONE] : Array.from({ length: Number(setting('RIDE_SEEDS') ?? scenario.seeds) }, (_, index) => base + index);
const replay = (seed: number, index: number) => `RIDE_SEED=${seed} RIDE_SCENARIO=${index} npx jest test/unit/rideAlongBreak.test.ts -t 'many seeds'`;

describe('rows waiting for their batch ride with any call (eb4cfa0): many seeds', () => {
	for (const [index, scenario] of scenarios.entries()) {
		if (ONLY !== undefined && ONLY !== index) continue;
		if (scenario.name.startsWith('9.') && setting('RIDE_EXPLORE') === undefined) continue;
		it(`${scenario.name}: no row created twice, no hang, ${scenario.exact ? 'no row refused wrongly, no claim left, ' : ''}tokens bounded`, async () => {
			const failures: string[] = [];
			const sum = {
				twice: 0,
				twiceSeeds: 0,
				maxTokens: 0,
				rows: 0,
				inRun: 0,
				refused: 0,
				left: 0,
				tokens: 0,
				failedRows: 0,
				failedEnds: 0,
				calls: 0,
				procRows: 0,
				fired: 0,
				rides: 0,
				rode: 0,
				whileFlushing: 0,
				seeds: 0,
			};
			for (const seed of seedsFor(scenario, 200_000 + 10_000 * index)) {
				const outcome = await simulate(seed, scenario);
				sum.seeds += 1;
				sum.rows += outcome.rows;
				sum.twice += outcome.twice.length;
				sum.twiceSeeds += outcome.twice.length > 0 ? 1 : 0;
				sum.refused += outcome.refusedWrongly.length;
				sum.inRun += outcome.refusedInRun.length;
				sum.left += outcome.leftClaims.length;
				sum.tokens += outcome.tokens;
				sum.maxTokens = Math.max(sum.maxTokens, outcome.tokens);
				sum.failedRows += outcome.failedRows;
				sum.failedEnds += outcome.failedEnds;
				for (const call of outcome.calls) [sum.calls, sum.procRows] = [sum.calls + call.calls, sum.procRows + call.rows];
				for (const key of ['fired', 'rides', 'rode', 'whileFlushing'] as const) sum[key] += outcome.cover[key];
				const bad = [
					outcome.twice.length && scenario.knownTwice === undefined ? `created twice ${outcome.twice.join(',')}` : '',
					outcome.hang ? `hang: ${outcome.hang}` : '',
					outcome.pending.length
						? `never settled: ${outcome.pending.slice(0, 5).join('; ')}${outcome.pending.length > 5 ? ` (${outcome.pending.length} in all)` : ''}`
						: '',
					scenario.exact && outcome.refusedWrongly.length ? `refused wrongly by a later run ${outcome.refusedWrongly.join(',')}` : '',
					scenario.exact && outcome.refusedInRun.length ? `refused in the run, never created by anyone ${outcome.refusedInRun.join(',')}` : '',
					scenario.exact && outcome.leftClaims.length ? `claims of rows never created left ${outcome.leftClaims.join(',')}` : '',
					outcome.tokens > scenario.tokens ? `tokens left ${outcome.tokens}` : '',
				].filter(Boolean);
				if (bad.length) failures.push(`seed ${seed}: ${bad.join('; ')} — replay: ${replay(seed, index)}`);
			}
			print(
				`${scenario.name} [hook ${HOOK ? 'on' : 'off'}]: ${sum.seeds} seeds, ${sum.rows} rows, created twice ${sum.twice} (in ${sum.twiceSeeds} seeds), refused in the run and never created ${sum.inRun}, refused wrongly by a later run ${sum.refused}, claims left ${sum.left}, tokens left ${sum.tokens} (at most ${sum.maxTokens} in a seed), rows failed ${sum.failedRows}, ends failed ${sum.failedEnds}, calls ${sum.calls} (${(sum.calls / Math.max(1, sum.procRows)).toFixed(2)} per row asked), beforeCall ${sum.fired} (rows waiting ${sum.rides}×, ${sum.rode} rows; while flush ran ${sum.whileFlushing}×); failing seeds ${failures.length}`,
			);
			if (failures.length) throw new Error(`${failures.length} failing seeds:\n${failures.slice(0, 8).join('\n')}`);
			if (scenario.knownTwice !== undefined && ONE === undefined && setting('RIDE_SEEDS') === undefined)
				expect(sum.twice).toBeLessThanOrEqual(scenario.knownTwice);
		}, 600_000);
	}
});

/** A rate-limited service: one row sent at a time, `perRowMs` each; the router's window (the journal's `ahead`); rows prepared 10 ms apart. */
const rateLimited = (rows: number, perRowMs: number): Scenario => ({
	name: `rate-limited, ${rows} rows, ${perRowMs} ms a row`,
	seeds: 1,
	exact: true,
	tokens: 3,
	procs: [
		(world) => ({
			speed: largeList(world),
			execs: [
				execPlan(world, keysOf(rows), {
					inFlight: 1,
					pace: 'n8n',
					window: undefined,
					sendMs: () => perRowMs * (0.9 + 0.2 * world.random()),
					startAfter: 0,
				}),
			],
			overlap: false,
			recent: [600],
		}),
	],
});

describe('rows waiting for their batch ride with any call (eb4cfa0): calls when rows come slowly', () => {
	it.each([
		[1_200, 200],
		[1_200, 1_000],
		[1_100, 1_500],
		[1_100, 2_500],
		[1_100, 4_000],
	])(
		'%i rows sent one at a time, %i ms a row, over calls of 0.5–0.7 s',
		async (rows, perRowMs) => {
			const scenario = rateLimited(rows, perRowMs);
			const result: Record<string, number> = {};
			for (const hook of [true, false]) {
				let calls = 0;
				let ms = 0;
				for (const seed of [1, 2, 3]) {
					const outcome = await simulate(seed, scenario, hook);
					expect({
						seed,
						hang: outcome.hang,
						refused: outcome.refusedWrongly.length,
					}).toEqual({ seed, hang: undefined, refused: 0 });
					calls += outcome.calls[0].calls;
					ms += outcome.calls[0].ms;
				}
				result[hook ? 'on' : 'off'] = calls / 3;
				print(
					`${scenario.name}, hook ${hook ? 'on' : 'off'}: ${(calls / 3).toFixed(0)} calls a run (${(calls / 3 / rows).toFixed(2)} per row), run ${(ms / 3 / 1000).toFixed(1)} s`,
				);
			}
			// A guard: more calls than before (1.1–1.8×: the riding claims need their own race and check calls, which carry
			// the next rows' claims, and so on, while rows trickle in), but no call per row.
			expect({
				perRow: result.on / rows < 0.5,
				againstBefore: result.on <= 2 * result.off,
			}).toEqual({ perRow: true, againstBefore: true });
		},
		600_000,
	);
});

describe('a stopped run that ends with many rows prepared ahead, and a re-run of the same rows while its end takes their claims off', () => {
	/**
	 * The stopped run prepared `count` rows ahead (as the router does: `standing(key, visit, true)`) and
	 * sent none; its end takes their claims and races off. The re-run starts `after` ms into that end
	 * and asks the same rows. A row nobody created must not be refused ("may already exist").
	 */
	async function stopThenRerun(seed: number, count: number, after: number, hookOn: boolean) {
		const world = new World(seed);
		const store = new Store(world);
		world.store = store;
		store.list = keysOf(1_000, 'x');
		const speed: Profile = largeList(world);
		const proc = new Process('p0', world, store, speed);
		proc.shared.recentCallsMs.push(600);
		if (!hookOn) insides(proc.shared.journal).store.beforeCall = undefined;
		const journal = proc.shared.journal;
		const keys = keysOf(count);
		if (setting('RIDE_TRACE')) store.follow = setting('RIDE_TRACE')!.split(',');
		const result = await world.run(
			(async () => {
				const stopped = journal.begin();
				// Rows prepared ahead; the first row's creation awaited (all are asked), then Stop: nothing sent.
				const ahead = keys.map((key) => journal.standing(key, stopped, true));
				await journal.standing(keys[0], stopped);
				await Promise.all(ahead);
				const ending = journal.end(stopped);
				await new Promise<void>((resolve) => world.at(after, resolve));
				const rerun = journal.begin();
				const again = await Promise.all(keys.map(async (key) => await journal.standing(key, rerun)));
				await ending;
				await journal.end(rerun);
				return keys.filter((_, index) => again[index] !== 'mine');
			})(),
			2_000_000,
		);
		if (setting('RIDE_TRACE')) print(world.trace.join('\n'));
		return result;
	}

	// Guards (the journalSchedule test's case, with more rows): the re-run's first claims call asks only rows of the first removal chunk.
	it.each([
		[2, 1],
		[20, 1],
		[40, 1],
		[40, 700],
	])('%i rows won ahead and never sent, the re-run %i ms into the end: no row refused', async (count, after) => {
		const refused: Record<string, string[]> = {};
		for (const hook of [true, false]) refused[hook ? 'on' : 'off'] = await stopThenRerun(1, count, after, hook);
		print(`stop then re-run, ${count} rows, ${after} ms: refused with the hook ${refused.on.length}, without ${refused.off.length}`);
		expect({ withHook: refused.on, withoutHook: refused.off }).toEqual({
			withHook: [],
			withoutHook: [],
		});
	});

	// FAILS, and not because of eb4cfa0 (the same without the hook): 200 rows are 400 values, taken off 50 per call, each
	// chunk's call taking its turn only when the one before ended (storeCalls.ts `remove`). The re-run's claims go between
	// two chunks (r0's claims call goes at once, the other 199 rows' after it): r50–r199, whose claims are still there, are
	// 'known'. eb4cfa0 widens this hole: see the two describes below.
	it('200 rows won ahead and never sent, the re-run 1 ms into the end: no row refused', async () => {
		const refused: Record<string, string[]> = {};
		for (const hook of [true, false]) refused[hook ? 'on' : 'off'] = await stopThenRerun(1, 200, 1, hook);
		print(
			`stop then re-run, 200 rows, 1 ms: refused with the hook ${refused.on.length} (${refused.on[0]}–${refused.on[refused.on.length - 1]}), without ${refused.off.length}`,
		);
		expect({
			withHook: refused.on.length,
			withoutHook: refused.off.length,
		}).toEqual({ withHook: 0, withoutHook: 0 });
	});
});

describe('Stop at size, then the same rows again at once (bench:journal --stop, in the simulation)', () => {
	/** One process over a list of 1,000 others (calls of 0.5–0.7 s); a run of `rows` rows prepared 8–12 ms apart is stopped, the re-run starts as it ends. */
	const stopRerun = (rows: number): Scenario => ({
		name: `stop, then the same ${rows} rows again`,
		seeds: 1,
		exact: true,
		tokens: 3,
		procs: [
			(world) => {
				const keys = keysOf(rows);
				const stopAfter = between(world, 2_000, 8_000);
				const first = execPlan(world, keys, {
					inFlight: 4,
					pace: 'n8n',
					window: undefined,
					stopAfter,
					startAfter: 0,
				});
				const second = execPlan(world, keys, {
					inFlight: 4,
					pace: 'n8n',
					window: undefined,
					startAfter: stopAfter + between(world, 1, 500),
				});
				return {
					speed: largeList(world),
					execs: [first, second],
					overlap: true,
					recent: [600],
				};
			},
		],
	});

	/** Rows the re-run refused ('known' or 'taken') that no execution ever created, over the seeds, with and without the hook. */
	async function sweep(rows: number, count: number) {
		const scenario = stopRerun(rows);
		const seeds = ONE !== undefined ? [ONE] : Array.from({ length: Number(setting('RIDE_SEEDS') ?? count) }, (_, index) => 1 + index);
		const refused = { withHook: 0, withoutHook: 0 };
		const failing: string[] = [];
		for (const hook of [true, false])
			for (const seed of seeds) {
				const outcome = await simulate(seed, scenario, hook);
				// Nothing hangs, and once both ended a later run refuses none of these rows (the claims did leave, only later).
				expect({
					seed,
					hang: outcome.hang,
					pending: outcome.pending,
					refusedLater: outcome.refusedWrongly,
					tokens: outcome.tokens,
				}).toEqual({
					seed,
					hang: undefined,
					pending: [],
					refusedLater: [],
					tokens: 0,
				});
				refused[hook ? 'withHook' : 'withoutHook'] += outcome.refusedInRun.length;
				if (hook && outcome.refusedInRun.length) failing.push(`seed ${seed}: ${outcome.refusedInRun.length} (${outcome.refusedInRun.slice(0, 3).join(', ')}…)`);
			}
		print(
			`${scenario.name}, ${seeds.length} seeds: rows the re-run refused that nobody created: with the hook ${refused.withHook} (seeds ${failing.length}), without ${refused.withoutHook}. ${failing.slice(0, 6).join('; ')}`,
		);
		return refused;
	}

	// FAILS on eb4cfa0, passes without the hook (the code before it): 100 seeds, 368 rows refused in 6 seeds against 0 (300
	// seeds: 2,424 against 0). The stopped run's end takes up to some 290 rows' claims off in chunks of 25 rows, over 10–15 s; the re-run prepares the rows it did not
	// share with the stopped run anew, and their claims now ride with the re-run's next call (its own races and checks),
	// which comes between two of those chunks: 'known'. Replay one seed: RIDE_SEED=41 RIDE_DEBUG=1 RIDE_TRACE=r257 npx jest
	// test/unit/rideAlongBreak.test.ts -t "300 rows".
	it('300 rows: the re-run refuses no row that nobody created', async () => {
		expect(await sweep(300, 100)).toEqual({ withHook: 0, withoutHook: 0 });
	});

	// FAILS, and not because of eb4cfa0 (about as many without the hook): with 60 rows the re-run's claims call comes between
	// two removal chunks when one of its creations awaits a row (`hurry(key)`), hook or not.
	it('60 rows: the re-run refuses no row that nobody created', async () => {
		expect(await sweep(60, 300)).toEqual({ withHook: 0, withoutHook: 0 });
	});
});

describe('the interleaving, by hand: rows prepared ahead by a running execution ride into a call between two removal chunks of a stopped one', () => {
	/**
	 * One process over a list of 1,000 others (calls of 0.5–0.7 s, lazy). Execution A prepared r0–r39
	 * ahead, won them all and sent none (Stop); its end releases them: 80 values and a token, taken off 50 per
	 * call (storeCalls.ts `remove`, REMOVE_CHUNK), each chunk's call taking its turn only when the one
	 * before ended. Execution B, running beside it, awaits its own row b0 (its claim, race and check
	 * are calls of the process) and prepares r30–r39 ahead just after A's end dropped them from
	 * `rows` (asked anew: `waiting`). With `beforeCall`, B's next call (b0's race) takes their claims
	 * along: it runs between A's first and second removal chunks (r0–r24, then r25–r39), and r30–r39's claims, not taken off
	 * yet, are there: 'known', refused "may already exist", though nobody ever sent them. The next
	 * chunks then take the claims off (a later run creates them). Without `beforeCall` they wait for
	 * their batch (or B's creation): asked after the removal, won.
	 */
	async function interleaving(hookOn: boolean) {
		const world = new World(1);
		const store = new Store(world);
		world.store = store;
		store.list = keysOf(1_000, 'x');
		const proc = new Process('p0', world, store, largeList(world));
		proc.shared.recentCallsMs.push(600);
		const journal = proc.shared.journal;
		if (!hookOn) insides(journal).store.beforeCall = undefined;
		const late = keysOf(40).slice(30);
		if (setting('RIDE_TRACE')) store.follow = setting('RIDE_TRACE')!.split(',');
		const run = (async () => {
			const a = journal.begin();
			const ahead = keysOf(40).map(async (key) => await journal.standing(key, a, true));
			await journal.standing('r0', a);
			const won = await Promise.all(ahead);
			const b = journal.begin();
			const b0 = journal.standing('b0', b);
			const ending = journal.end(a);
			await new Promise<void>((resolve) => world.at(1, resolve));
			for (const key of late) journal.standing(key, b, true).catch(() => undefined);
			await b0;
			await ending;
			const again = await Promise.all(late.map(async (key) => await journal.standing(key, b)));
			await journal.end(b);
			return {
				wonByA: won.filter((standing) => standing === 'mine').length,
				refusedByB: late.filter((_, index) => again[index] !== 'mine'),
			};
		})();
		const result = await world.run(run, 2_000_000);
		if (setting('RIDE_TRACE')) print(`hook ${hookOn ? 'on' : 'off'}:\n${world.trace.join('\n')}`);
		return result;
	}

	it('without beforeCall (the code before eb4cfa0): B wins r30–r39', async () => {
		expect(await interleaving(false)).toEqual({ wonByA: 40, refusedByB: [] });
	});

	// FAILS on eb4cfa0: refusedByB is r30–r39 (10 rows nobody ever sent, refused "may already exist" in B).
	it('with beforeCall (eb4cfa0): B wins r30–r39 too, rows nobody sent are not refused', async () => {
		expect(await interleaving(true)).toEqual({ wonByA: 40, refusedByB: [] });
	});
});
