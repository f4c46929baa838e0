/**
 * Where the journal's time comes from: n8n's `sleep` and the system clock in n8n; a simulated
 * clock in the simulation of the claims (test/sim/claims.ts), which then decides the order of
 * every wait and every store call from a seed.
 */
import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	/** Uniform in [0, 1): the jitter of the check's later rounds. */
	random(): number;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms), random: () => Math.random() };
