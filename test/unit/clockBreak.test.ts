/**
 * A review of abd40da (durations by `Clock.elapsed`, `performance.now()` in n8n): where the
 * monotonic clock and the wall clock part ways, and what the memory does then.
 *
 * `performance.now()` in Node is libuv's `uv_hrtime`: CLOCK_MONOTONIC on Linux, mach_absolute_time
 * on macOS. Neither counts the time a machine is suspended (Linux `clock_gettime(2)`: "does not
 * count time that the system is suspended"; CLOCK_BOOTTIME does), while the wall clock is set
 * forward to the true time on resume. A store call whose process sleeps between its read and its
 * write (a laptop closed, a VM suspended) writes long after it read; `Date.now()` saw that, the
 * monotonic clock does not. The first and third cases failed on abd40da; since, a call counts as too
 * slow to trust when either clock says so (storeCalls.ts `call`), and the simulation's judge reads
 * the true time (test/sim/memory.ts `now`, the processes' wall clock `wall`).
 */
import type { DeduplicationItemTypes, IDeduplicationOutput } from 'n8n-workflow';

import type { Clock } from '../../nodes/Recruiting/memory/clock';
import { MIN_WAIT_MS, StoreCalls } from '../../nodes/Recruiting/memory/storeCalls';
import { Shared } from '../../nodes/Recruiting/memory/registry';
import type { StoreHelpers } from '../../nodes/Recruiting/memory/storeCalls';
import { World } from '../sim/claims';
import { Simulation } from '../sim/memory';

const WALL0 = 1_800_000_000_000;

/**
 * One process's clocks over the world's time. `asleep`: intervals of world time in which the
 * machine is suspended (nothing of the process runs; its timers fire later). `elapsed` leaves them
 * out (CLOCK_MONOTONIC, `performance.now()`), unless `boottime` (a clock that counts them); the
 * wall clock is right again on resume.
 */
function machine(world: World, asleep: Array<[number, number]>, boottime = false) {
	const slept = () => asleep.reduce((sum, [from, to]) => sum + Math.max(0, Math.min(to, world.now) - from), 0);
	const awake = () => world.now - slept();
	const clock: Clock = {
		now: () => WALL0 + world.now,
		elapsed: () => (boottime ? world.now : awake()),
		// A timer runs on the monotonic clock: a sleep that spans a suspension ends that much later.
		sleep: async (ms) =>
			await new Promise<void>((resolve) => {
				const until = awake() + ms;
				const check = () => (awake() >= until - 1e-9 ? resolve() : world.at(until - awake(), check));
				world.at(ms, check);
			}),
		random: () => world.random(),
	};
	return clock;
}

/** n8n's store over one list that loses updates: each call reads, waits `gap()`, writes what it read with its change. */
class List {
	values: string[] = [];

	constructor(private readonly world: World) {}

	private async after(ms: number): Promise<void> {
		await new Promise<void>((resolve) => this.world.at(ms, resolve));
	}

	helpers(gap: () => number): StoreHelpers {
		return {
			checkProcessedAndRecord: async (values: DeduplicationItemTypes[]): Promise<IDeduplicationOutput> => {
				await this.after(1);
				const read = [...this.values];
				const processed = values.filter((value) => read.includes(String(value)));
				const written = [...new Set([...read, ...values.map(String)])];
				await this.after(gap());
				this.values = written;
				await this.after(1);
				return { new: values.filter((value) => !processed.includes(value)), processed };
			},
			removeProcessed: async (values: DeduplicationItemTypes[]) => {
				await this.after(1);
				const gone = new Set(values.map(String));
				const written = this.values.filter((value) => !gone.has(value));
				await this.after(gap());
				this.values = written;
				await this.after(1);
			},
		};
	}
}

/**
 * Two processes, one new row. B's first store call (the row's claim) reads the empty list at
 * t = 1 ms, then B's machine sleeps 5 s before the write. Meanwhile A claims, races, waits and wins
 * the row. B's write at 5 s brings back the list it read plus its claim (dropping A's race and
 * token); B's claim was "not there", so B contests: its race is not there either, and after the
 * wait its token and the claim are. Both would create the row, unless B sees its claim call as slow.
 */
async function suspendedClaim(boottime: boolean) {
	const world = new World(7);
	const list = new List(world);
	const processA = new Shared(machine(world, []));
	let first = true;
	const processB = new Shared(machine(world, [[2, 5_002]], boottime));
	processA.journal.use(list.helpers(() => 2));
	processB.journal.use(
		list.helpers(() => {
			if (!first) return 2;
			first = false;
			return 5_001;
		}),
	);
	const key = 'row-1';
	const [visitA, visitB] = [processA.journal.begin(), processB.journal.begin()];
	const claimB = processB.journal.claim(key, visitB);
	const claimA = (async () => {
		await new Promise<void>((resolve) => world.at(100, resolve));
		return await processA.journal.claim(key, visitA);
	})();
	const [a, b] = await world.run(Promise.all([claimA, claimB]));
	return { a, b, standingB: processB.journal.answered(key), slowestB: processB.journal.slowestMs };
}

describe('the timing assumption across a suspended machine (the monotonic clock does not count sleep)', () => {
	it('control: with a clock that counts the sleep (as Date.now() did), B sees its claim call take 5 s and refuses the row as unsure', async () => {
		const { a, b, standingB, slowestB } = await suspendedClaim(true);
		expect(a).toBe(true);
		expect(standingB).toBe('unsure');
		expect(b).toBe(false);
		expect(slowestB).toBeGreaterThanOrEqual(MIN_WAIT_MS);
	});

	it('a store call during which the machine slept 5 s (performance.now() +20 ms, the wall clock +5 s): the row is not won by both processes', async () => {
		const { a, b } = await suspendedClaim(false);
		expect(a).toBe(true);
		// On the code of abd40da, B wins too: the row is created twice.
		expect(b).toBe(false);
	});

	it('StoreCalls: a call of 20 ms by performance.now() while the wall clock moved 5 s forward (a resume) counts as slow', async () => {
		const state = { wall: WALL0, passed: 0 };
		const clock: Clock = { now: () => state.wall, elapsed: () => state.passed, sleep: async () => undefined, random: () => 0.5 };
		const store = new StoreCalls({ clock, inTurn: async (_key, work) => await work(), recentCallsMs: [] });
		store.helpers = {
			checkProcessedAndRecord: async () => {
				state.passed += 20;
				state.wall += 5_000;
				return { new: [], processed: [] };
			},
		};
		await store.recordTogether(['claim:a']);
		expect(store.slowCalls).toBe(1);
	});
});

describe('a process whose performance.now() starts near 0', () => {
	it('its first store calls are not held back by `lastEnd = 0`', async () => {
		const state = { passed: 0.5, slept: 0 };
		const clock: Clock = {
			now: () => WALL0 + state.passed,
			elapsed: () => state.passed,
			sleep: async (ms) => {
				state.slept += ms;
				state.passed += ms;
				await Promise.resolve();
			},
			random: () => 0.5,
		};
		const store = new StoreCalls({ clock, inTurn: async (_key, work) => await work(), recentCallsMs: [] });
		store.helpers = {
			checkProcessedAndRecord: async () => {
				state.passed += 3;
				return { new: [], processed: [] };
			},
		};
		await store.recordTogether(['claim:a']);
		expect(state.slept).toBe(0);
		await store.recordTogether(['claim:b']);
		// The second is spaced by the longest call (3 ms) after the first ended, no more.
		expect(state.slept).toBeLessThanOrEqual(3);
	});
});

/**
 * On abd40da the simulation's judge stamped every event (an execution's start and end, a send, a
 * forget) with `sim.now()`, the processes' jumped wall clock. After a backward jump of more than
 * a minute, the final run (3 minutes after everything ended) started less than 2 epochs after the
 * others by those stamps, so property 2 ("never sent, never refused") was not judged for any row
 * of that run: about 3 seeds in 10 of a scenario with jumps only (seeds 9, 11, 13, 16, 21 …), 5 of 400 of "everything at once". (The working tree now stamps by world time,
 * `sim.now()`, and gives the processes `sim.wall()`.)
 */
describe('the memory simulation judges by the time that passes, not by the jumped wall clock', () => {
	const EPOCH = 60_000;
	const BASE = { processes: [2, 4] as [number, number], worker: 0.4, executions: [1, 3] as [number, number], rows: 16, noAnswer: 0.03, refused: 0.03, changed: 0.3, manual: 0.1 };

	it('the final run (3 minutes after everything ended) is judged by property 2 for every row, after a backward jump too', async () => {
		const blind: string[] = [];
		for (let seed = 1; seed <= 60; seed++) {
			const sim = new Simulation(seed, { ...BASE, jump: 1 });
			await sim.check();
			const final = sim.execs[sim.execs.length - 1];
			const rows = sim.rows.filter((row) => {
				const ends = [...row.touches].filter((exec) => exec !== final).map((exec) => exec.end ?? exec.died ?? exec.proc.diedAt ?? Infinity);
				// test/sim/memory.ts `refused`: property 2 is judged only for an execution that starts 2 epochs after the last other one ended.
				return ends.length > 0 && final.start < Math.max(...ends) + 2 * EPOCH;
			});
			if (rows.length > 0) blind.push(`seed ${seed} (jump ${(sim.jumped / 1000).toFixed(0)} s): ${rows.length} rows not judged`);
		}
		expect(blind).toEqual([]);
	});
});
