/**
 * A helper's review of d1ced43 (contest.ts `window`, `batch`; pace.ts `PaceSamples.ahead`): while n8n's store is slow (calls of
 * `LAZY_FROM_MS` and more), an execution prepares its pace's rows and a batch, not the most the store allows. In the claims
 * simulation (test/sim/claims.ts: the real Journal, n8n's store as a model, simulated time) one execution is modelled as the
 * node runs it: the router's lookahead prepares rows up to `MemoryRows.ahead` past the rows taken (here `windowOf`, as
 * rows.ts computes it), each row is measured by a real `Pace` (prepare, took, ready, waits, sent, done).
 * What is measured: when the run ends, the longest pause between two creations, the store's calls, and the rows claimed in the
 * store and not sent at any moment (what a killed worker would leave) against the window then.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import type { Journal } from '../../nodes/Recruiting/memory/journal';
import { Pace } from '../../nodes/Recruiting/memory/pace';
import type { Profile } from '../sim/claims';
import { Process, Store, World } from '../sim/claims';
import { print } from '../sim/host';
import { entries, slow } from '../sim/journalBreak';
import { largeList, rows, shuffled } from '../sim/scenarioRunner';

const REPORT = false; // true: each run's figures

/** Rows an execution prepares ahead, as `MemoryRows.ahead` computes them (rows.ts). */
function windowOf(journal: Journal, pace: Pace): number {
	return journal.window(pace.ahead(journal.ahead, journal.decisionMs), pace.heldAhead);
}

interface Options {
	inFlight: number;
	/** A creation's time at the service. */
	sendMs: (world: World) => number;
	/** Between two rows prepared (n8n's expression engine). */
	prepareMs?: number;
	/** The execution takes no more rows after this many ms (Stop), or the process is killed then (`kill`). */
	stopAfter?: number;
	kill?: boolean;
}

interface Outcome {
	end: number;
	firstCreation: number;
	longestPause: number;
	created: number;
	refused: number;
	/** The most rows claimed in the store (written by this process) and not sent, at a 50-ms sample. */
	maxUnsent: number;
	/** The most, over the samples, of unsent claims minus (the window then + the rows in flight). */
	overWindow: number;
	maxWindow: number;
	/** The rows' keys claimed in the store and never sent at the end. */
	leftClaimed: number;
	calls: number;
	/** Time the rows in flight waited for their claims' answers, over the rows in flight (a stalled run). */
	stall: number;
	/** The same, for the rows taken after the first creation. */
	stallAfterFirst: number;
	/** The rows this execution sent (created). */
	sentKeys: string[];
	/** The journal's `decisionMs` at the end, and the longest and median time from a row prepared to its answer. */
	decisionMs: number;
	answerMax: number;
	answerMedian: number;
}

/** A process whose calls are counted, and whose list is counted (n8n's `getProcessedDataCount`: the store's size). */
function processOver(world: World, store: Store, speed: Profile, name = 'p0'): { process: Process; calls: () => number } {
	const process = new Process(name, world, store, speed);
	let calls = 0;
	const gate = async <T>(work: () => Promise<T>): Promise<T> => {
		if (process.dead) return await new Promise<T>(() => undefined);
		return await work();
	};
	process.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			calls++;
			return await gate(async () => await store.checkProcessedAndRecord(speed, name, values));
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => await gate(async () => await store.removeProcessed(speed, name, values)),
		getProcessedDataCount: async () => await gate(async () => store.size()),
	} as never);
	return { process, calls: () => calls };
}

/** One execution of Create or Update over `keys` (all new rows), as the router and rows.ts run it. */
async function execution(world: World, store: Store, process: Process, keys: string[], options: Options): Promise<Outcome> {
	const journal = process.shared.journal;
	const pace = new Pace(process.shared.clock, process.shared.pace);
	const sleep = async (ms: number) => await new Promise<void>((resolve) => world.at(ms, resolve));
	const visit = journal.begin();
	const sent = new Set<string>();
	let [next, prepared, finished, stopped, inFlight] = [0, 0, false, false, 0];
	let [firstCreation, lastCreation, longestPause, created, refused] = [-1, -1, 0, 0, 0];
	let [maxUnsent, overWindow, maxWindow] = [0, Number.NEGATIVE_INFINITY, 0];
	let wake: (() => void) | undefined;
	const resume = () => {
		const awake = wake;
		wake = undefined;
		awake?.();
	};
	const answers: number[] = [];
	let [stall, stallAfterFirst] = [0, 0];
	const prepare = (index: number) => {
		pace.prepare(keys[index], false);
		const at = world.now;
		journal.standing(keys[index], visit, true).then(
			() => answers.push(world.now - at),
			() => undefined,
		);
	};
	if (options.stopAfter !== undefined)
		world.at(options.stopAfter, () => {
			stopped = true;
			if (options.kill) process.kill();
			resume();
		});
	const sample = () => {
		const claimed = new Set(store.list ?? []);
		let unsent = 0;
		for (let index = 0; index < prepared; index++) if (!sent.has(keys[index]) && claimed.has(`claim:${keys[index]}`)) unsent++;
		const window = windowOf(journal, pace);
		maxWindow = Math.max(maxWindow, window);
		maxUnsent = Math.max(maxUnsent, unsent);
		overWindow = Math.max(overWindow, unsent - (window + inFlight));
	};
	const sampler = (async () => {
		while (!finished) {
			sample();
			await sleep(50);
		}
	})();
	const preparer = (async () => {
		while (!stopped && prepared < keys.length) {
			if (prepared - next >= windowOf(journal, pace)) {
				await new Promise<void>((resolve) => (wake = resolve));
				continue;
			}
			if (prepared >= next) prepare(prepared);
			prepared++;
			await sleep(options.prepareMs ?? 1);
		}
	})();
	const worker = async () => {
		while (!stopped && next < keys.length) {
			const index = next++;
			const key = keys[index];
			if (index >= prepared) {
				prepare(index);
				prepared = index + 1;
			}
			resume();
			inFlight++;
			pace.took(key, true);
			pace.ready(key);
			try {
				const asked = world.now;
				const mine = await pace.waits(key, journal.claim(key, visit));
				stall += world.now - asked;
				if (firstCreation >= 0 && asked > firstCreation) stallAfterFirst += world.now - asked;
				if (process.dead) return;
				if (!mine) {
					refused++;
					continue;
				}
				pace.sent(key);
				sent.add(key);
				if (firstCreation < 0) firstCreation = world.now;
				else if (lastCreation > firstCreation) longestPause = Math.max(longestPause, world.now - lastCreation);
				lastCreation = world.now;
				await sleep(options.sendMs(world));
				created++;
				journal.keep(key, visit);
			} finally {
				inFlight--;
				pace.done(key);
			}
		}
	};
	const work = (async () => {
		await Promise.all(Array.from({ length: options.inFlight }, worker));
		stopped = true;
		resume();
		await preparer;
		if (!process.dead) await journal.end(visit);
	})();
	await Promise.race([work, process.killed]);
	finished = true;
	await sampler;
	const claimed = new Set(store.list ?? []);
	const leftClaimed = keys.filter((key) => !sent.has(key) && claimed.has(`claim:${key}`)).length;
	const sorted = [...answers].sort((a, b) => a - b);
	return {
		end: world.now,
		firstCreation,
		longestPause,
		created,
		refused,
		maxUnsent,
		overWindow,
		maxWindow,
		leftClaimed,
		calls: 0,
		stall: Math.round(stall / options.inFlight),
		stallAfterFirst: Math.round(stallAfterFirst / options.inFlight),
		sentKeys: [...sent],
		decisionMs: Math.round(journal.decisionMs),
		answerMax: Math.round(sorted[sorted.length - 1] ?? 0),
		answerMedian: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
	};
}

interface Setup {
	seed: number;
	speed: (world: World) => Profile;
	/** Entries the list stands for (a list of remembered rows): n8n counts them, calls over it take the profile's time. */
	padding?: number;
	/** The process's pace before this run: samples of (time, width) from an earlier execution. */
	before?: { times: number[]; widths: number[] };
	/** The store answered this fast in the execution before. */
	recentMs?: number[];
}

async function run(setup: Setup, keys: string[], options: Options): Promise<Outcome> {
	const world = new World(setup.seed);
	const store = new Store(world, (entries) => Math.max(1_000, entries * 0.005));
	world.store = store;
	store.list = setup.padding ? [Store.PAD, ...rows(500, 'x')] : rows(1_000, 'x');
	store.padding = setup.padding ?? 0;
	const { process, calls } = processOver(world, store, setup.speed(world));
	process.shared.recentCallsMs.push(...(setup.recentMs ?? [25]));
	for (const time of setup.before?.times ?? []) process.shared.pace.add(process.shared.pace.times, time);
	for (const width of setup.before?.widths ?? []) process.shared.pace.add(process.shared.pace.widths, width);
	const outcome = await world.run(execution(world, store, process, keys, options), 20_000_000);
	if (REPORT) print(JSON.stringify({ seed: setup.seed, ...outcome, sentKeys: outcome.sentKeys.length, calls: calls() }));
	return { ...outcome, calls: calls() };
}

/** Calls of `low`–`high` ms, nearly all between read and write (a large list, parsed and rewritten in the worker). */
const calls = (low: number, high: number) => (world: World): Profile => ({ toRead: () => 20, gap: () => low - 40 + (high - low) * world.random(), back: () => 20 });

const service = (ms: number) => () => ms;


/** A pace learned by an execution before this one: `times` ms a row once its turn came, `width` rows in flight. */
const learned = (time: number, width: number) => ({ times: Array<number>(32).fill(time), widths: Array<number>(32).fill(width) });

describe('d1ced43: rows prepared ahead while the store is slow (the node\'s window, in the claims simulation)', () => {
	it('1,000 new rows over calls of 0.5–0.7 s, 4 in flight at 80 ms, the first run of the process (no pace yet): every row created once, no claim left, the run about as long as before the change', async () => {
		// Measured (seeds 1–3): now 31.7 / 31.1 / 31.8 s, 21 calls; before d1ced43 (this file on 9622ee0) 31.45 / 31.2 / 31.75 s, 16–17 calls.
		for (const seed of [1, 2, 3]) {
			const outcome = await run({ seed, speed: largeList }, rows(1_000), { inFlight: 4, sendMs: service(80) });
			expect({ seed, created: outcome.created, refused: outcome.refused, leftClaimed: outcome.leftClaimed }).toEqual({ seed, created: 1_000, refused: 0, leftClaimed: 0 });
			expect(outcome.end).toBeLessThan(33_000);
		}
	}, 120_000);

	it('rows claimed in the store and not sent stay within the window then and the rows in flight (50-ms samples); a killed worker leaves at most that', async () => {
		const cases: Array<[Setup, Options]> = [
			[{ seed: 4, speed: largeList }, { inFlight: 4, sendMs: service(80) }],
			[{ seed: 5, speed: calls(1_000, 1_400), padding: 400_000 }, { inFlight: 4, sendMs: service(80) }],
			[{ seed: 6, speed: largeList }, { inFlight: 1, sendMs: service(400) }],
		];
		for (const [setup, options] of cases) {
			const outcome = await run(setup, rows(600), options);
			expect({ seed: setup.seed, created: outcome.created, withinWindow: outcome.overWindow <= 0 }).toEqual({ seed: setup.seed, created: 600, withinWindow: true });
		}
		// Killed at 12 s: 396 rows left claimed and never created now (window 472 then), 661 before d1ced43 (window 749).
		const killed = await run({ seed: 16, speed: largeList }, rows(1_000), { inFlight: 4, sendMs: service(80), stopAfter: 12_000, kill: true });
		expect(killed.leftClaimed).toBeLessThanOrEqual(killed.maxWindow + 4);
		expect(killed.leftClaimed).toBeLessThan(500);
	}, 120_000);

	it('a service that answers 3% of creations after 5 s (rate-limited): the rows claimed and not sent stay within the widest window and the rows in flight', async () => {
		// Measured (seed 15): at most 472 claimed and not sent, the widest window 475. Against the window of the moment they are
		// not bounded: 400 rows more than it and the rows in flight (a 5-s row in the pace's last 32 makes the window a third),
		// so the bound of the change is the widest window of the run, not the window at any moment. The run took 81.0 s, against
		// 73.3 s before d1ced43 (+10%, 32 calls against 19). With the pace of the last 8 rows (pace.ts `RECENT`): 57.35 s, 30 calls.
		const outcome = await run({ seed: 15, speed: largeList }, rows(1_000), { inFlight: 4, sendMs: (world) => (world.random() < 0.03 ? 5_000 : 80) });
		expect(outcome.created).toBe(1_000);
		expect(outcome.maxUnsent).toBeLessThanOrEqual(outcome.maxWindow + 4);
	}, 120_000);

	it('a list of 120,000 entries (calls 0.6–0.9 s, one check decides): 3,000 rows at a known pace take as long as before the change', async () => {
		// Measured (seed 19): 72.95 s now, 73.0 s before d1ced43; a row's answer came 7.4 s (median) after it was prepared, decisionMs 5.5 s.
		const outcome = await run({ seed: 19, speed: calls(600, 900), padding: 120_000, before: learned(80, 4) }, rows(3_000), { inFlight: 4, sendMs: service(80) });
		expect(outcome.created).toBe(3_000);
		expect(outcome.end).toBeLessThan(76_500);
	}, 120_000);

	// FOUND (fixed in the same change): `Contest.decisionMs` (the wait and four calls) left out the second check over lists past 133,333 entries
	// (bound.ts `confirms`: a row is won at the second check in a row, one to two waits later), so a decision there takes twice
	// `decisionMs`. Before d1ced43 a slow store's window was the most (`Contest.ahead`, 8 calls and the wait) and hid it; with
	// the window the pace over `decisionMs` and a batch, rows reached their turn undecided. Now `decisionMs` counts the second
	// check (two waits and a call): 81.75 s, answers 12.5 s (median) after preparation, decisionMs 11.5 s, window 1,154.
	it('a list of 150,000 entries (calls 0.6–0.9 s, a second check decides): 3,000 rows at a known pace take no longer than before the change', async () => {
		// Measured (seed 19): 93.15 s on d1ced43, 82.1 s before it (+13%); after the first creation the rows in flight waited 18.8 s
		// for their answers, against 7.7 s; a row's answer came 12.7 s (median) after it was prepared, decisionMs 5.9 s (window
		// 594 rows against 937). At 400,000 entries and calls of 1.0–1.4 s (seed 18): 116.1 s against 107.9 s, answers 22.9 s
		// after preparation against decisionMs 11.7 s.
		const outcome = await run({ seed: 19, speed: calls(600, 900), padding: 150_000, before: learned(80, 4) }, rows(3_000), { inFlight: 4, sendMs: service(80) });
		expect(outcome.created).toBe(3_000);
		expect(outcome.end).toBeLessThan(86_500);
		// `decisionMs` itself is older than the change (this assertion fails on 9622ee0 too: 11.8 s against 5.8 s).
		expect(outcome.answerMedian).toBeLessThan(1.5 * outcome.decisionMs);
	}, 120_000);

	// FOUND (of the trade the change makes; fixed): a pace learned while the service was slow (an execution before, 2 s a row,
	// one in flight) held until 32 new samples replaced it; a slow store's window no longer covers that (before d1ced43 it was
	// the most). Now the pace of the last 8 rows counts when it is faster (pace.ts `RECENT`): 33.7 s, 23 calls.
	it('a pace learned by an earlier, slow execution (2 s a row, 1 in flight), then 1,000 rows at 80 ms, 4 in flight, calls 0.5–0.7 s: no slower than before the change', async () => {
		// Measured (seed 12): 39.15 s on d1ced43, 31.55 s before it (+24%); 27 calls against 17; the rows in flight waited 11.5 s
		// for answers after the first creation, against 3.9 s.
		const outcome = await run({ seed: 12, speed: largeList, before: learned(2_000, 1) }, rows(1_000), { inFlight: 4, sendMs: service(80) });
		expect(outcome.created).toBe(1_000);
		expect(outcome.end).toBeLessThan(34_000);
	}, 120_000);
});

describe('d1ced43: several processes and executions over a slow store, with the node\'s window', () => {
	it('two processes, two overlapping executions each (sharing the process\'s pace), one stopped: no row created twice, none lost, fewer rows refused never created than before the change', async () => {
		let [tokens, wrongly] = [0, 0];
		for (let seed = 100; seed < 108; seed++) {
			const world = new World(seed);
			const store = new Store(world);
			world.store = store;
			store.list = rows(200, 'x');
			const all = rows(400);
			const processes = ['p0', 'p1'].map((name) => processOver(world, store, slow(world, 300, 900), name).process);
			for (const process of processes) process.shared.recentCallsMs.push(400);
			const outcomes: Outcome[] = [];
			const jobs = processes.flatMap((process, index) =>
				[0, 1].map(async (which) => {
					await new Promise<void>((resolve) => world.at(2_000 * world.random(), resolve));
					const keys = shuffled(world, all).slice(0, 300);
					const stopAfter = index === 0 && which === 1 ? 2_000 + 4_000 * world.random() : undefined;
					const inFlight = 1 + Math.floor(world.random() * 4);
					outcomes.push(await execution(world, store, process, keys, { inFlight, sendMs: (w) => 20 + 200 * w.random(), stopAfter }));
				}),
			);
			await world.run(Promise.all(jobs), 20_000_000);
			const sent = outcomes.flatMap((outcome) => outcome.sentKeys);
			const twice = sent.filter((key, index) => sent.indexOf(key) !== index);
			const later = new Process('later', world, store, { toRead: () => 5, gap: () => 20, back: () => 5 });
			const visit = later.shared.journal.begin();
			const answers = await world.run(Promise.all(all.map(async (key) => [key, await later.shared.journal.standing(key, visit)] as const)));
			const created = new Set(sent);
			const refusedWrongly = answers.filter(([key, standing]) => standing !== 'mine' && !created.has(key)).map(([key]) => key);
			const lost = answers.filter(([key, standing]) => standing === 'mine' && created.has(key)).map(([key]) => key);
			// A batch's token a slow store's end takes off once may come back with a write that read before (journal.ts `close`):
			// harmless, not asserted (17 over the seeds, 11 before d1ced43).
			tokens += entries(store, 'own:').length;
			// Rows refused never created: a released claim brought back by a write that read before its removal is the stated
			// limit (journal.ts `close`); counted, not asserted per seed.
			wrongly += refusedWrongly.length;
			expect({ seed, twice, lost }).toEqual({ seed, twice: [], lost: [] });
		}
		// Measured over seeds 100–107: 40 rows refused never created and 17 tokens left on d1ced43, 37 and 11 with its fixes;
		// 103 and 11 before d1ced43.
		if (REPORT) print(`refused wrongly ${wrongly}, tokens ${tokens}`);
		expect(wrongly).toBeLessThan(60);
	}, 120_000);
});
