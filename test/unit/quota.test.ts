/**
 * The announced quota mirrored as a token bucket (transport/quota.ts), and the controller pacing
 * to it from the first answers: a clock of the test's own, sequences of announcements and takes.
 */
import { Controller } from '../../nodes/Recruiting/transport/controller';
import { Quota } from '../../nodes/Recruiting/transport/quota';

describe('the announced quota', () => {
	it('free while tokens last, then one per 1/rate: 40 per second, 3 left, 2 others on the wire', () => {
		const quota = new Quota();
		quota.heard({ limit: 40, windowS: 1, remaining: 3 }, 2, 0);
		expect(quota.perSecond).toBe(40);
		// One token left (3 less the 2 on the wire): the first goes at once, the next wait 25 ms each more.
		expect([quota.take(0), quota.take(0), quota.take(0)]).toEqual([0, 25, 50]);
		// 100 ms later four tokens came back, three of them owed.
		expect(quota.take(100)).toBe(0);
	});

	it('requests waiting for a token count against what an answer says remains', () => {
		const quota = new Quota();
		quota.heard({ limit: 10, windowS: 1, remaining: 0 }, 0, 0);
		expect(quota.take(0)).toBe(100);
		expect(quota.take(0)).toBe(200);
		// An answer says 1 remains: the two waiting will spend it and one more.
		quota.heard({ limit: 10, windowS: 1, remaining: 1 }, 0, 0);
		expect(quota.take(0)).toBe(200);
		quota.departed();
		quota.departed();
		quota.departed();
	});

	it('X-RateLimit without a window: the longest reset seen, in whole seconds, at least 1 s', () => {
		const quota = new Quota();
		quota.heard({ limit: 5000, remaining: 4000, resetS: 3599.4 }, 0, 0);
		expect(quota.perSecond).toBeCloseTo(5000 / 3599, 5);
		const bucket = new Quota();
		bucket.heard({ limit: 40, remaining: 40, resetS: 0 }, 0, 0);
		expect(bucket.perSecond).toBe(40);
		bucket.heard({ limit: 40, remaining: 10, resetS: 1.9 }, 0, 10);
		expect(bucket.perSecond).toBe(40);
	});

	it('a quota of 1 a day (within bounds) never makes a request wait more than 30 s', () => {
		const quota = new Quota();
		quota.heard({ limit: 1, windowS: 86_400, remaining: 0 }, 0, 0);
		expect(quota.take(0)).toBe(30_000);
		expect(quota.take(0)).toBe(30_000);
	});

	it('nothing announced: no wait', () => {
		expect(new Quota().take(0)).toBe(0);
	});
});

describe('Auto paces to an announced quota from the first answers', () => {
	const headers = (remaining: number) => ({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1' });

	it('once the quota is spent, each turn waits for its token; Max Requests per Second is the transport pacer\'s and still applies after', async () => {
		let t = 0;
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, () => t);
		const startedAt = controller.sent();
		t = 20;
		controller.record('ok', startedAt, 20, undefined, { method: 'POST', headers: headers(0) });
		expect(controller.announcedRate).toBe(40);
		const waits: number[] = [];
		const wait = async (ms: number) => {
			waits.push(ms);
		};
		await controller.turn(wait);
		await controller.turn(wait);
		expect(waits).toEqual([25, 50]);
	});

	it('is kept for the next run against the service (the tokens refilled meanwhile)', () => {
		let t = 0;
		const first = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, () => t);
		first.record('ok', first.sent(), 20, undefined, { headers: headers(0) });
		t = 10_000;
		const next = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, () => t);
		next.resume(first.pace()!);
		expect(next.announcedRate).toBe(40);
	});

	it('Fixed reads no headers', async () => {
		const controller = new Controller({ mode: 'fixed', concurrency: 5, maxConcurrency: 64 }, () => 0);
		controller.record('ok', controller.sent(), 20, undefined, { headers: headers(0) });
		expect(controller.announcedRate).toBe(0);
	});
});
