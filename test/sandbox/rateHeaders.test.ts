/**
 * The sandbox's rate-limit headers (issue 32) over real HTTP on 127.0.0.1: every answer under
 * `rateLimitPerSecond` announces the bucket in the style asked for, the node's reader
 * (transport/rateHeaders.ts) reads each style to the same quota, and the command line selects it.
 */
import { readRate } from '../../nodes/Recruiting/transport/rateHeaders';
import { call } from './client';
import { settingsFromFlags } from './cli-options';
import type { CliFlags } from './cli-options';
import { PROFILES } from './profiles';
import { startSandbox, TOKEN_LOCATIONS } from './server';
import type { Sandbox } from './server';
import type { RateLimitHeaderStyle } from './types';

const started: Sandbox[] = [];
afterAll(async () => {
	await Promise.all(started.splice(0).map(async (sandbox) => await sandbox.close()));
});

const PUBLIC = '/v1/general/business-areas';

/** Requests sent at once per style. */
const SENT = 15;

const STYLES: Array<[RateLimitHeaderStyle, string[]]> = [
	['x', ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']],
	['x-unix', ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']],
	['ietf', ['ratelimit-policy', 'ratelimit']],
	['ietf-draft', ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']],
];

describe('rate-limit headers', () => {
	it.each(STYLES)('%s: each answer, 429 or not, announces 5 per second and what remains (0 on a 429)', async (style, names) => {
		const sandbox = await startSandbox({ faults: { rateLimitPerSecond: 5, rateLimitHeaders: style } });
		started.push(sandbox);
		// At once, and 15 of them: the bucket (5, refilled at 5 per second) runs dry unless they spread over 2 s. Seven, on a busy
		// machine, spread enough that none was refused (npm test of b435040, 2026-12-01, the first style with a cold sandbox).
		const replies = await Promise.all(Array.from({ length: SENT }, async () => await call(sandbox, 'GET', PUBLIC)));
		for (const reply of replies) for (const name of names) expect(reply.headers.get(name)).not.toBeNull();
		const readings = replies.map((reply) => readRate(Object.fromEntries(reply.headers.entries()), Date.now()));
		expect(replies.filter((reply) => reply.status === 429).length).toBeGreaterThanOrEqual(1);
		expect(readings.map((reading) => reading?.limit)).toEqual(new Array(SENT).fill(5));
		replies.forEach((reply, index) => {
			const remaining = readings[index]?.remaining;
			expect(remaining).toBeGreaterThanOrEqual(0);
			expect(remaining).toBeLessThanOrEqual(4);
			if (reply.status === 429) expect(remaining).toBe(0);
		});
		expect(Math.min(...readings.map((reading) => reading?.remaining ?? 99))).toBe(0);
		for (const reading of readings) expect(reading?.resetS).toBeLessThanOrEqual(2);
	});

	it('no style: no headers', async () => {
		const sandbox = await startSandbox({ faults: { rateLimitPerSecond: 5 } });
		started.push(sandbox);
		const reply = await call(sandbox, 'GET', PUBLIC);
		expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
		expect(reply.headers.get('ratelimit-policy')).toBeNull();
	});

	it('the command line: --profile rate-limited-headers, --rate-limit-headers STYLE', () => {
		const faults = (flags: CliFlags) => settingsFromFlags(flags, TOKEN_LOCATIONS).options.faults;
		expect(faults({ profile: 'rate-limited-headers' })).toEqual(PROFILES['rate-limited-headers']);
		expect(faults({ profile: 'rate-limited-headers', 'rate-limit-headers': 'ietf' })).toEqual({ latencyMs: 50, rateLimitPerSecond: 100, rateLimitHeaders: 'ietf' });
		expect(faults({ 'rate-limit': '40', 'rate-limit-headers': 'x-unix' })).toEqual({ rateLimitPerSecond: 40, rateLimitHeaders: 'x-unix' });
		expect(() => faults({ 'rate-limit-headers': 'github' })).toThrow(/--rate-limit-headers must be one of x, x-unix, ietf, ietf-draft/);
	});
});
