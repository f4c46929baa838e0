/**
 * Issue 40: the sandbox counts as real services do (limiter.ts): a token bucket, a fixed window
 * on the clock, a sliding window, several policies at once, each announced in every header style.
 * The limiters are driven by a clock of the test's own; the server and the command line over
 * real HTTP on 127.0.0.1.
 */
import { readRates } from '../../nodes/Recruiting/transport/rateHeaders';
import { call } from './client';
import { settingsFromFlags } from './cli-options';
import { LIMITER_KINDS, Limiter, parsePolicies } from './limiter';
import type { LimiterKind } from './limiter';
import { startSandbox, TOKEN_LOCATIONS } from './server';
import type { Sandbox } from './server';

const started: Sandbox[] = [];
afterAll(async () => {
	await Promise.all(started.splice(0).map(async (sandbox) => await sandbox.close()));
});

/** 2026-11-27 00:00:00 UTC: a whole second. */
const T0 = Date.UTC(2026, 10, 27);
const FIVE = [{ name: 'default', limit: 5, windowS: 1 }];

/** Takes at each time given; answers which were accepted (true) or refused (the Retry-After). */
const takes = (limiter: Limiter, times: number[]) => times.map((at) => limiter.take(T0 + at) ?? true);

describe('the limiters (a clock of the test\'s own)', () => {
	it('bucket: 5 at once, then one more each 200 ms as it refills; the reset is the time until it is full', () => {
		const limiter = new Limiter('bucket', FIVE);
		expect(takes(limiter, [0, 0, 0, 0, 0, 0, 100, 200, 400])).toEqual([true, true, true, true, true, '1', '1', true, true]);
		expect(limiter.state(T0 + 400)).toEqual([{ name: 'default', limit: 5, windowS: 1, remaining: 0, resetS: 1 }]);
	});

	it('fixed: 5 per calendar second, all again at the next second (a burst at the edge passes), the reset is the window\'s end', () => {
		const limiter = new Limiter('fixed', FIVE);
		expect(takes(limiter, [900, 900, 900, 900, 900, 950])).toEqual([true, true, true, true, true, '1']);
		expect(limiter.headers('x-unix', T0 + 950)['X-RateLimit-Reset']).toBe(String(T0 / 1000 + 1));
		expect(takes(limiter, [1000, 1000, 1000, 1000, 1000, 1001])).toEqual([true, true, true, true, true, '1']);
	});

	it('sliding: at most 5 in any second; one more when the oldest leaves, which the reset announces', () => {
		const limiter = new Limiter('sliding', FIVE);
		expect(takes(limiter, [0, 200, 400, 600, 800, 999])).toEqual([true, true, true, true, true, '1']);
		// The edge of a calendar second is no edge here: at 1000 only the request of 0 has left.
		expect(takes(limiter, [1000, 1001, 1200])).toEqual([true, '1', true]);
		expect(limiter.state(T0 + 1200)).toEqual([{ name: 'default', limit: 5, windowS: 1, remaining: 0, resetS: 1 }]);
	});

	it.each(LIMITER_KINDS)('%s: a burst and a daily policy at once; a request refused by one counts in neither', (kind: LimiterKind) => {
		const limiter = new Limiter(kind, parsePolicies('burst:3/60,daily:10/86400'));
		expect(takes(limiter, [0, 0, 0, 0])).toEqual([true, true, true, kind === 'bucket' ? '20' : '60']);
		const headers = limiter.headers('ietf', T0);
		expect(headers['RateLimit-Policy']).toBe('"burst";q=3;w=60, "daily";q=10;w=86400');
		const read = readRates(Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])), T0);
		expect(read.map(({ policy, remaining }) => [policy, remaining])).toEqual([
			['burst', 0],
			['daily', 7],
		]);
		// The X style names the policy with the fewest left.
		expect(limiter.headers('x', T0)['X-RateLimit-Limit']).toBe('3');
	});

	it('the command line: --rate-limiter KIND, --rate-policies LIST', () => {
		const faults = (flags: Record<string, string>) => settingsFromFlags(flags, TOKEN_LOCATIONS).options.faults;
		expect(faults({ 'rate-limit': '40', 'rate-limiter': 'sliding', 'rate-limit-headers': 'ietf' })).toEqual({ rateLimitPerSecond: 40, rateLimiter: 'sliding', rateLimitHeaders: 'ietf' });
		expect(faults({ 'rate-limiter': 'fixed', 'rate-policies': 'burst:100/60,daily:1000/86400' })).toEqual({
			rateLimiter: 'fixed',
			rateLimitPolicies: [
				{ name: 'burst', limit: 100, windowS: 60 },
				{ name: 'daily', limit: 1000, windowS: 86400 },
			],
		});
		expect(() => faults({ 'rate-limiter': 'leaky' })).toThrow(/--rate-limiter must be one of bucket, fixed, sliding/);
		expect(() => faults({ 'rate-policies': 'burst=100' })).toThrow(/not name:limit\/seconds/);
	});

	it('the command line: --rate-window S counts --rate-limit over a window of S seconds (issue 48: a per-minute quota)', () => {
		const faults = (flags: Record<string, string>) => settingsFromFlags(flags, TOKEN_LOCATIONS).options.faults;
		expect(faults({ 'rate-limit': '1200', 'rate-window': '60', 'rate-limiter': 'fixed' })).toEqual({ rateLimitPerSecond: 1200, rateLimitWindowS: 60, rateLimiter: 'fixed' });
		expect(() => faults({ 'rate-limit': '5', 'rate-window': '0' })).toThrow(/--rate-window must be a number of seconds from 1 to 86400/);
		expect(() => faults({ 'rate-limit': '5', 'rate-window': '86401' })).toThrow(/--rate-window/);
	});
});

describe('over HTTP', () => {
	it('--rate-window: 3 per minute in a fixed window: the fourth request is answered 429 with a Retry-After to the window\'s end, and a Date header', async () => {
		const sandbox = await startSandbox({ faults: { rateLimitPerSecond: 3, rateLimitWindowS: 60, rateLimiter: 'fixed' } });
		started.push(sandbox);
		const replies = [];
		for (let i = 0; i < 4; i++) replies.push(await call(sandbox, 'GET', '/v1/general/business-areas'));
		expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
		const retryAfter = Number(replies[3].headers.get('retry-after'));
		const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(Math.max(secondsLeft, 1) + 1);
		expect(Number.isNaN(Date.parse(replies[3].headers.get('date') ?? ''))).toBe(false);
	});

	it.each(LIMITER_KINDS)('%s: 7 requests at once under 5 an hour: 5 served, 2 answered 429 with Retry-After, every answer announcing both policies', async (kind) => {
		// An hour's window: the requests cannot straddle its edge on a busy machine.
		const sandbox = await startSandbox({ faults: { rateLimiter: kind, rateLimitPolicies: parsePolicies('hour:5/3600,day:50/86400'), rateLimitHeaders: 'ietf' } });
		started.push(sandbox);
		const replies = await Promise.all(Array.from({ length: 7 }, async () => await call(sandbox, 'GET', '/v1/general/business-areas')));
		expect(replies.filter((reply) => reply.status === 429)).toHaveLength(2);
		for (const reply of replies.filter((each) => each.status === 429)) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		const remaining = replies.map((reply) => readRates(Object.fromEntries(reply.headers.entries()), Date.now()).map((policy) => policy.remaining));
		expect(remaining.map(([hour]) => hour).sort()).toEqual([0, 0, 0, 1, 2, 3, 4]);
		expect(Math.min(...remaining.map(([, day]) => day ?? 0))).toBe(45);
		expect(sandbox.counts.faults.rateLimitPerSecond).toBe(2);
	});
});
