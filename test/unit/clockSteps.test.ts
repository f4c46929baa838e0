/**
 * The journal times its store calls by the time that passes in the process (clock.ts `elapsed`),
 * and a call counts as too slow to trust when either that or the wall clock says so: a wall
 * clock set back during a slow call (an NTP step) hid that call, so the process trusted contests
 * the timing assumption no longer covers; the time that passes does not count a machine suspended
 * during a call (test/unit/clockBreak.test.ts). The whole-memory simulation measures both (test/unit/memorySimulation.test.ts, the
 * scenario "a wall clock that jumps"; docs/sync-memory.md).
 */
import type { Clock } from '../../nodes/Recruiting/memory/clock';
import { systemClock } from '../../nodes/Recruiting/memory/clock';
import { MIN_WAIT_MS, StoreCalls } from '../../nodes/Recruiting/memory/storeCalls';

/** A process's clocks by hand: `wall` can be set anywhere, `passed` only grows. */
function clocks() {
	const state = { wall: 1_800_000_000_000, passed: 0 };
	const clock: Clock = {
		now: () => state.wall,
		elapsed: () => state.passed,
		sleep: async (ms) => {
			state.wall += ms;
			state.passed += ms;
			await Promise.resolve();
		},
		random: () => 0.5,
	};
	return { state, clock };
}

/** The process's store calls, each taking `takes` ms and moving the wall clock by `step` ms meanwhile. */
function calls(takes: number, step: number) {
	const { state, clock } = clocks();
	const recentCallsMs: number[] = [];
	const store = new StoreCalls({ clock, inTurn: async (_key, work) => await work(), recentCallsMs });
	store.helpers = {
		checkProcessedAndRecord: async () => {
			state.passed += takes;
			state.wall += takes + step;
			return { new: [], processed: [] };
		},
	};
	return { store, recentCallsMs };
}

describe('store calls are timed by the time that passes; too slow to trust by either clock', () => {
	it('a call of 1.5 s during which the wall clock is set back 5 s counts as slow (the contests open during it are not trusted)', async () => {
		const { store, recentCallsMs } = calls(1_500, -5_000);
		await store.recordTogether(['claim:a']);
		expect(recentCallsMs).toEqual([1_500]);
		expect(store.slowCalls).toBe(1);
		expect(store.slowestMs).toBe(1_500);
	});

	it('a call of 20 ms during which the wall clock moves 60 s forward: 20 ms for the spacing and the wait, but too slow to trust (a machine suspended during it looks the same)', async () => {
		const { store, recentCallsMs } = calls(20, 60_000);
		await store.recordTogether(['claim:a']);
		await store.recordTogether(['claim:b']);
		expect(recentCallsMs).toEqual([20, 20]);
		expect(store.longestMs).toBeLessThan(MIN_WAIT_MS);
		expect(store.slowCalls).toBe(2);
	});

	it('a call of 20 ms while the wall clock stays: quick', async () => {
		const { store } = calls(20, 0);
		await store.recordTogether(['claim:a']);
		expect(store.slowCalls).toBe(0);
	});

	it("n8n's clock: the time that passes never goes back", () => {
		const readings = Array.from({ length: 1_000 }, () => systemClock.elapsed());
		expect(readings.every((reading, index) => index === 0 || reading >= readings[index - 1])).toBe(true);
		expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1_000);
	});
});
