/**
 * The service profiles (issue 26) over real HTTP on 127.0.0.1: capacity (at most K served at
 * once, latency grows with load), a rate limit per second (429 with Retry-After beyond), a share
 * of 503s, and the command-line flags that select them.
 */
import { call } from './client';
import { settingsFromFlags } from './cli-options';
import type { CliFlags } from './cli-options';
import { PROFILES } from './profiles';
import { startSandbox, TOKEN_LOCATIONS } from './server';
import type { Sandbox } from './server';
import type { FaultConfig } from './types';

const started: Sandbox[] = [];
afterAll(async () => {
	await Promise.all(started.splice(0).map(async (sandbox) => await sandbox.close()));
});

async function sandboxWith(faults: FaultConfig): Promise<Sandbox> {
	const sandbox = await startSandbox({ faults });
	started.push(sandbox);
	return sandbox;
}

/** A route that needs no login: the sandbox's reference lists. */
const PUBLIC = '/v1/general/business-areas';

describe('service profiles', () => {
	it('capacity: 8 requests at once with 2 served at a time take 4 × the latency', async () => {
		const sandbox = await sandboxWith({ latencyMs: 60, capacity: 2 });
		const began = Date.now();
		const replies = await Promise.all(Array.from({ length: 8 }, async () => await call(sandbox, 'GET', PUBLIC)));
		const took = Date.now() - began;
		expect(replies.map((reply) => reply.status)).toEqual(new Array(8).fill(200));
		expect(took).toBeGreaterThanOrEqual(4 * 60 - 5);
		expect(sandbox.counts.faults.capacityWait).toBe(6);
	});

	it('rate limit: beyond N requests in a second, 429 with Retry-After', async () => {
		const sandbox = await sandboxWith({ rateLimitPerSecond: 5 });
		const replies = [];
		for (let i = 0; i < 8; i++) replies.push(await call(sandbox, 'GET', PUBLIC));
		expect(replies.filter((reply) => reply.status === 200)).toHaveLength(5);
		const refused = replies.filter((reply) => reply.status === 429);
		expect(refused).toHaveLength(3);
		for (const reply of refused) expect(reply.headers.get('retry-after')).toBe('1');
		expect(sandbox.counts.faults.rateLimitPerSecond).toBe(3);
	});

	it('flaky: the share of 503s, with Retry-After when set', async () => {
		const sandbox = await sandboxWith({ unavailableRate: 1, retryAfterOn503: 1 });
		const reply = await call(sandbox, 'GET', PUBLIC);
		expect(reply.status).toBe(503);
		expect(reply.headers.get('retry-after')).toBe('1');
	});

	it('the command line: --profile NAME, and flags that change its values', () => {
		const faults = (flags: CliFlags) => settingsFromFlags(flags, TOKEN_LOCATIONS).options.faults;
		expect(faults({ profile: 'fast' })).toEqual({ latencyMs: 50 });
		expect(faults({ profile: 'capacity' })).toEqual(PROFILES.capacity);
		expect(faults({ profile: 'rate-limited', 'rate-limit': '40' })).toEqual({ latencyMs: 50, rateLimitPerSecond: 40 });
		expect(faults({ profile: 'flaky', latency: '10' })).toEqual({ ...PROFILES.flaky, latencyMs: 10 });
		expect(faults({ capacity: '3', 'unavailable-rate': '0.5', seed: '7' })).toEqual({ capacity: 3, unavailableRate: 0.5, seed: 7 });
		expect(() => faults({ profile: 'slow' })).toThrow(/--profile must be one of fast, capacity, rate-limited, flaky/);
		expect(() => faults({ 'unavailable-rate': '2' })).toThrow(/fraction/);
	});
});
