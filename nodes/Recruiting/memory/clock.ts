/**
 * Where the journal's time comes from: n8n's `sleep`, the system's clocks in n8n; a simulated
 * clock in the simulations (test/sim/claims.ts, test/sim/memory.ts), which then decides the order
 * of every wait and every store call from a seed.
 */
import { sleep } from 'n8n-workflow';

export interface Clock {
	/** The wall clock (ms since 1970): only for what other processes read (the minute of an asking mark, marks.ts). */
	now(): number;
	/**
	 * The time that passes in this process (ms, monotonic): every duration and deadline of the
	 * memory (a store call's length, the spacing, the wait, how long an answer counts, the pace). A
	 * wall clock set forward or back (an NTP step) does not move it. It does not count a machine
	 * suspended either (Linux's CLOCK_MONOTONIC), so a call counts as too slow to trust when either
	 * clock says so (storeCalls.ts `call`): set back during a slow call, the wall clock alone hid it.
	 */
	elapsed(): number;
	sleep(ms: number): Promise<void>;
	/** Uniform in [0, 1): the jitter of the check's later rounds. */
	random(): number;
}

export const systemClock: Clock = {
	now: () => Date.now(),
	elapsed: () => performance.now(),
	sleep: async (ms) => await sleep(ms),
	random: () => Math.random(),
};
