/**
 * Issue 48, the pieces: the service's clock from its `Date` headers, the probe after a hold, a
 * stop that ends the hold's wait, and how often a login refused for rate limiting tries again.
 */
import { loginRetryWait } from '../../nodes/Recruiting/transport/auth';
import { Controller } from '../../nodes/Recruiting/transport/controller';
import { ServiceClock, serviceClock } from '../../nodes/Recruiting/transport/http';

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const dated = (serviceMs: number) => ({ date: new Date(serviceMs).toUTCString() });

describe('the service\'s clock', () => {
	it('one answer: the node\'s clock when it falls within the Date\'s second, else the nearest edge', () => {
		expect(serviceClock(dated(T0 + 400), T0 + 400)).toBe(T0 + 400);
		expect(serviceClock(dated(T0 + 2_400), T0 + 400)).toBe(T0 + 2_000);
		expect(serviceClock(dated(T0 - 3_000), T0)).toBe(T0 - 3_000 + 999);
		expect(serviceClock({}, T0)).toBe(T0);
		expect(serviceClock({ date: 'yesterday' }, T0)).toBe(T0);
	});

	it('many answers narrow the difference: a clock 2,000 ms ahead is read within 50 ms after answers spread over a second', () => {
		const clock = new ServiceClock();
		let read = 0;
		for (let i = 0; i < 20; i++) {
			const now = T0 + i * 1_050 + 7;
			read = clock.read(dated(now + 2_000), now) - now;
		}
		expect(Math.abs(read - 2_000)).toBeLessThanOrEqual(50);
	});

	it('no difference while one within the answers\' seconds is allowed; a clock that jumps starts again', () => {
		const clock = new ServiceClock();
		expect(clock.read(dated(T0 + 300), T0 + 300)).toBe(T0 + 300);
		const jumped = T0 + 10_000;
		expect(clock.read(dated(jumped + 60_000), jumped)).toBeGreaterThanOrEqual(jumped + 60_000);
	});
});

describe('the probe after a hold', () => {
	function setUp() {
		let now = T0;
		const controller = new Controller({ mode: 'auto', concurrency: 10, maxConcurrency: 128 }, () => now);
		const wait = async (ms: number) => {
			now += ms;
		};
		return { controller, wait, advance: (ms: number) => (now += ms), now: () => now };
	}

	it('a 429 while nothing was accepted holds the run until its Retry-After; then one request goes, and the others only after its answer', async () => {
		const { controller, wait, now } = setUp();
		const sent = controller.sent();
		controller.record('throttled', sent, 20, 60_000, { method: 'POST' });
		expect(controller.sendRate).toBeUndefined();
		await controller.turn(wait);
		// Held until the bound (30 s), not the 60 s asked.
		expect(now()).toBe(T0 + 30_000);
		const probe = controller.sent();
		let second = false;
		const other = controller.turn(wait).then(() => (second = true));
		await Promise.resolve();
		expect(second).toBe(false);
		// The probe is refused again: its 429 is the run's look (not a retry of its own), and the run is held again.
		expect(controller.record('throttled', probe, 20, 30_000, { method: 'POST' })).toBe(true);
		await other;
		expect(now()).toBeGreaterThanOrEqual(probe + 30_000);
	});

	it('Stop Workflow ends the wait: a wait that returns early ends the turn (the caller then sees the stop)', async () => {
		const { controller } = setUp();
		controller.record('throttled', controller.sent(), 20, 20_000, { method: 'POST' });
		let waits = 0;
		await controller.turn(async () => {
			waits += 1;
		});
		expect(waits).toBe(1);
	});
});

describe('a login refused for rate limiting', () => {
	const retry = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 30_000 };
	const limited = { kind: 'status' as const, status: 429, message: 'rate limited', retryAfterMs: 20_000 };

	it('a rate limit (429, or 503 with Retry-After) is tried again for as long as the run runs, each wait at most the bound', () => {
		expect(loginRetryWait(limited, 5, retry)).toBe(20_000);
		expect(loginRetryWait(limited, 500, retry)).toBe(20_000);
		expect(loginRetryWait({ ...limited, retryAfterMs: undefined }, 500, retry)).toBe(retry.maxDelayMs);
		expect(loginRetryWait({ kind: 'status', status: 503, message: 'later', retryAfterMs: 5_000 }, 50, retry)).toBe(5_000);
	});

	it('a 5xx only Max Retries times; Retry-After 0 takes the backoff; a wrong password never', () => {
		expect(loginRetryWait({ kind: 'status', status: 503, message: 'down' }, 3, retry)).toBeUndefined();
		expect(loginRetryWait({ ...limited, retryAfterMs: 0 }, 2, retry)).toBe(4_000);
		expect(loginRetryWait({ kind: 'status', status: 401, message: 'wrong' }, 0, retry)).toBeUndefined();
	});
});
