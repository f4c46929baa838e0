/**
 * The announced quota mirrored as a token bucket (transport/quota.ts), and the controller pacing
 * to it from the first answers: a clock of the test's own, sequences of announcements and takes.
 */
import { Controller } from '../../nodes/Recruiting/transport/controller';
import { Quota } from '../../nodes/Recruiting/transport/quota';

describe('the announced quota', () => {
	it('free while the quota lasts, then when the oldest logged request leaves the window: 40 per second, 3 left, 2 sent after the answered one still on the wire', () => {
		const quota = new Quota();
		quota.heard([{ limit: 40, windowS: 1, remaining: 3 }], 2, 0, 0);
		expect(quota.perSecond).toBe(40);
		// One left (3 less the 2 on the wire): it goes at once. The 37 the service counted and the 2 on
		// the wire are logged as of now (no reset said when they leave): the next ones wait a window
		// (1 s) and 5 ms.
		expect([quota.take(0), quota.take(0), quota.take(0)]).toEqual([0, 1005, 1005]);
	});

	it('a quota too large to log (5,000 per 100 s): requests waiting for their turn count against what an answer says remains, and it refills at its rate', () => {
		const quota = new Quota();
		quota.heard([{ limit: 5000, windowS: 100, remaining: 0 }], 0, 0, 0);
		expect(quota.take(0)).toBe(20);
		expect(quota.take(0)).toBe(40);
		// An answer says 1 remains: the two waiting will spend it and one more.
		quota.heard([{ limit: 5000, windowS: 100, remaining: 1 }], 0, 0, 0);
		expect(quota.take(0)).toBe(40);
		quota.departed();
		quota.departed();
		quota.departed();
	});

	it('X-RateLimit without a window: the longest reset seen, in whole seconds, at least 1 s', () => {
		const quota = new Quota();
		quota.heard([{ limit: 5000, remaining: 4000, resetS: 3599.4 }], 0, 0, 0);
		expect(quota.perSecond).toBeCloseTo(5000 / 3599, 5);
		const bucket = new Quota();
		bucket.heard([{ limit: 40, remaining: 40, resetS: 0 }], 0, 0, 0);
		expect(bucket.perSecond).toBe(40);
		bucket.heard([{ limit: 40, remaining: 10, resetS: 1.9 }], 0, 10, 10);
		expect(bucket.perSecond).toBe(40);
	});

	it('a quota of 1 a day (within bounds) never makes a request wait more than 30 s: spent for longer, it takes no turn (the controller holds the run for the bound, then one request goes first)', () => {
		const quota = new Quota();
		quota.heard([{ limit: 1, windowS: 86_400, remaining: 0 }], 0, 0, 0);
		expect(quota.take(0)).toBeUndefined();
		expect(quota.take(0, 90_000_000)).toBe(86_400_000 + 5);
	});

	it('nothing announced: no wait', () => {
		expect(new Quota().take(0)).toBe(0);
	});
});

describe('Auto paces to an announced quota from the first answers', () => {
	const headers = (remaining: number) => ({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1' });

	it('once the quota is spent, the next turns wait until the requests the service counted leave its window; Max Requests per Second is the transport pacer\'s and still applies after', async () => {
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
		// X-RateLimit-Reset: 1, heard at 20 ms: the 40 counted leave the window at 1020 ms (+ 5 ms).
		expect(waits).toEqual([1005, 1005]);
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

describe('issue 40, review defect 1: every announced policy is honoured, the spent one first', () => {
	it('the draft\'s example with the burst policy spent (r=0, whole again in 10 s) beside a daily one with 900 left: the next request waits for the burst\'s reset', async () => {
		let t = 0;
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, () => t);
		const startedAt = controller.sent();
		t = 20;
		controller.record('ok', startedAt, 20, undefined, {
			method: 'POST',
			headers: { 'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400', ratelimit: '"burst";r=0;t=10, "daily";r=900;t=86000' },
		});
		const waits: number[] = [];
		await controller.turn(async (ms) => {
			waits.push(ms);
		});
		// Before: only the daily policy (the lowest quota per second) was read, and the request went at once.
		// Now the 100 the burst policy counted leave its window at its reset, 10 s (+ 5 ms).
		expect(waits).toEqual([10_005]);
	});

	it('the daily policy spent beside a burst policy with room: the daily one holds (no turn within the 30 s of any wait)', () => {
		const quota = new Quota();
		quota.heard(
			[
				{ policy: 'burst', limit: 100, windowS: 60, remaining: 80, resetS: 30 },
				{ policy: 'daily', limit: 1000, windowS: 86_400, remaining: 0, resetS: 7200 },
			],
			0,
			0,
			0,
		);
		expect(quota.take(0)).toBeUndefined();
		expect(quota.take(0, 30_000)).toBeUndefined();
	});

	it('what is in flight counts against what remains: 3 left, 2 sent after the answered one still on the wire → one more goes, then none until the window moves on', () => {
		const quota = new Quota();
		quota.heard([{ limit: 40, windowS: 1, remaining: 3, resetS: 1 }], 2, 0, 0);
		expect(quota.take(0)).toBe(0);
		expect(quota.take(0)).toBe(1005);
	});

	it('an answer to a request sent before one already read tells of the past: not read', () => {
		const quota = new Quota();
		quota.heard([{ limit: 5000, windowS: 100, remaining: 0, resetS: 10 }], 0, 10, 30);
		// Sent at 5 (before the one sent at 10), answered later, saying 4,999 remain: stale.
		quota.heard([{ limit: 5000, windowS: 100, remaining: 4999, resetS: 10 }], 0, 5, 31);
		expect(quota.take(31)).toBe(9999);
	});
});
