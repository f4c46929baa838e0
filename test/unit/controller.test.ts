/**
 * The control law of Concurrency Mode Auto (transport/controller.ts), driven answer by answer on
 * a clock of the test's own: the limit after each round, the learned send rate after a 429, the
 * caps and the Retry-After hold.
 */
import { sleep } from 'n8n-workflow';

import { AUTO_START, Controller } from '../../nodes/Recruiting/transport/controller';

class Clock {
	t = 0;

	now = () => this.t;
}

/** Feeds one round (as many answers as the limit), each started now and taking `latency` ms. */
function round(controller: Controller, clock: Clock, latency: number, signal: 'ok' | 'overloaded' | 'dropped' | 'throttled' = 'ok', losses = 0) {
	const startedAt = clock.t;
	clock.t += latency;
	const n = controller.limit;
	for (let i = 0; i < n; i++) controller.sent();
	for (let i = 0; i < n; i++) controller.record(i < losses ? signal : 'ok', startedAt, latency);
}

describe('Concurrency Mode Auto: the limit', () => {
	it('starts at 10, doubles each fast round up to 20, then grows by 15 % per round (slow start) up to Max Concurrency', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		expect(controller.limit).toBe(AUTO_START);
		const seen: number[] = [];
		for (let i = 0; i < 11; i++) {
			round(controller, clock, 50);
			seen.push(controller.limit);
		}
		expect(seen).toEqual([20, 23, 26, 30, 35, 40, 46, 53, 61, 64, 64]);
	});

	it('halves when more than a tenth of a round is lost, then grows by one per round', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50); // 20
		round(controller, clock, 50, 'overloaded', 3); // 3 of 20 lost
		expect(controller.limit).toBe(10);
		round(controller, clock, 50);
		expect(controller.limit).toBe(11);
		round(controller, clock, 50, 'dropped', 3); // 3 of 11 dropped: more than a tenth of 20
		expect(controller.limit).toBe(5);
		// Losses go below 5: a failing service is hammered less.
		round(controller, clock, 50, 'dropped', 5);
		expect(controller.limit).toBe(2);
	});

	it('in the small rounds of the start the share is taken of 20 answers: one or two losses do not shrink it, three do', () => {
		const clock = new Clock();
		// The start's only small round is its first, of 10: each case begins a run of its own.
		const first = (losses: number) => {
			const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
			round(controller, clock, 50, 'overloaded', losses);
			return controller;
		};
		expect(first(1).limit).toBe(20); // 1 of 10
		const flaky = first(2); // 2 of 10: two random 503s of a flaky service
		expect(flaky.limit).toBe(20);
		expect(first(3).limit).toBe(5); // 3 of 10
		round(flaky, clock, 50, 'overloaded', 3); // 3 of 20
		expect(flaky.limit).toBe(10);
	});

	it('a round that all fails halves at once, however small', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50, 'dropped', 10); // 10 of 10
		expect(controller.limit).toBe(5);
		round(controller, clock, 50, 'dropped', 5); // 5 of 5
		expect(controller.limit).toBe(2);
		round(controller, clock, 50, 'overloaded', 2); // 2 of 2: not more than a tenth of 20, but all of the round
		expect(controller.limit).toBe(1);
	});

	it('a lone 503 with Retry-After in a round is about its own request and is not counted; two are', () => {
		const clock = new Clock();
		const grown = () => {
			const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
			round(controller, clock, 50); // 20
			return controller;
		};
		/** One round of 20: `dropped` broken connections, `told` 503s with Retry-After 1 s, the rest fine. */
		const mixed = (controller: Controller, dropped: number, told: number) => {
			const startedAt = clock.t;
			clock.t += 50;
			for (let i = 0; i < 20; i++) controller.sent();
			for (let i = 0; i < 20; i++) {
				if (i < dropped) controller.record('dropped', startedAt, 50);
				else if (i < dropped + told) controller.record('overloaded', startedAt, 50, 1000);
				else controller.record('ok', startedAt, 50);
			}
		};
		const lone = grown();
		mixed(lone, 2, 1); // 2 losses counted of 20: not more than a tenth
		expect(lone.limit).toBe(23);
		const two = grown();
		mixed(two, 1, 2); // 3 of 20
		expect(two.limit).toBe(10);
	});

	it('a tenth or less lost (a service failing 2 % at random) does not shrink it', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50); // 20
		round(controller, clock, 50, 'overloaded', 2); // 2 of 20
		expect(controller.limit).toBe(23);
	});

	it('shrinks by one per round while latency stays above twice the idle latency, not below 5 for latency alone; grows by one after', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50); // 20
		round(controller, clock, 60); // 23
		round(controller, clock, 100); // not over 2 × 50 + 20: grows, 26
		expect(controller.limit).toBe(26);
		// In slow start the first slow round holds the limit, the second in a row ends slow start and takes one off.
		round(controller, clock, 200);
		expect(controller.limit).toBe(26);
		round(controller, clock, 200);
		expect(controller.limit).toBe(25);
		round(controller, clock, 200);
		expect(controller.limit).toBe(24);
		// Slow start is over: growth is one per round now.
		round(controller, clock, 60);
		expect(controller.limit).toBe(25);
		for (let i = 0; i < 40; i++) round(controller, clock, 400);
		expect(controller.limit).toBe(5);
	});

	it('one slow round in slow start (n8n paused) holds the limit and slow start goes on; once past it, a slow round takes one off at once', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50); // 20
		round(controller, clock, 300); // a pause: held
		expect(controller.limit).toBe(20);
		round(controller, clock, 50);
		expect(controller.limit).toBe(23);
		round(controller, clock, 50);
		expect(controller.limit).toBe(26);
		round(controller, clock, 300);
		round(controller, clock, 300); // two in a row: slow start is over, one off
		expect(controller.limit).toBe(25);
		round(controller, clock, 300);
		expect(controller.limit).toBe(24);
		round(controller, clock, 50);
		expect(controller.limit).toBe(25);
	});

	it('answers to requests started before a shrink are not counted', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 50); // 20
		const before = clock.t;
		round(controller, clock, 50, 'overloaded', 20); // halves to 10
		expect(controller.limit).toBe(10);
		// Twenty more lost answers of requests sent before the shrink change nothing.
		for (let i = 0; i < 20; i++) controller.record('overloaded', before, 50);
		expect(controller.limit).toBe(10);
	});

	it('Fixed: the limit is Concurrent Requests, whatever the answers', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'fixed', concurrency: 7, maxConcurrency: 64 }, clock.now);
		for (let i = 0; i < 5; i++) round(controller, clock, 50, 'overloaded', 7);
		round(controller, clock, 50, 'throttled', 7);
		expect(controller.limit).toBe(7);
		expect(controller.sendRate).toBeUndefined();
	});

	it('a slot is given while fewer are in flight than the limit; close ends every wait', async () => {
		const controller = new Controller({ mode: 'fixed', concurrency: 2, maxConcurrency: 2 });
		expect(await controller.slot()).toBe(true);
		expect(await controller.slot()).toBe(true);
		let third: boolean | undefined;
		const waiting = controller.slot().then((given) => (third = given));
		await Promise.resolve();
		expect(third).toBeUndefined();
		controller.release();
		await waiting;
		expect(third).toBe(true);
		const fourth = controller.slot();
		controller.close();
		expect(await fourth).toBe(false);
	});
});

describe('Concurrency Mode Auto: the send rate learned on 429', () => {
	/** `n` accepted answers spread over the last second. */
	function accepted(controller: Controller, clock: Clock, n: number) {
		for (let i = 0; i < n; i++) {
			clock.t += 1000 / n;
			controller.record('ok', clock.t - 20, 20);
		}
	}

	it('none before a 429; after one, 0.7 times the accepted rate, growing back along CUBIC to it', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		accepted(controller, clock, 40);
		accepted(controller, clock, 40);
		expect(controller.sendRate).toBeUndefined();
		const limit = controller.limit;
		controller.record('throttled', clock.t - 20, 20);
		expect(controller.sendRate).toBeCloseTo(28, 5);
		// A 429 limits a rate: it does not shrink the number in flight.
		expect(controller.limit).toBeGreaterThanOrEqual(limit);
		// 429s of requests sent before the drop do not drop it again.
		controller.record('throttled', clock.t - 20, 20);
		expect(controller.sendRate).toBeCloseTo(28, 5);
		// Back along the curve to a margin under the rate of the throttle, 0.95 × 40 = 38: K = cbrt(38 × 0.3 / 0.4) ≈ 3.05 s, then flat around it (rare probes).
		const rates: number[] = [];
		for (let second = 0; second < 6; second++) {
			accepted(controller, clock, 30);
			rates.push(controller.sendRate!);
		}
		expect(rates[0]).toBeGreaterThan(28);
		expect(rates[0]).toBeLessThan(40);
		expect(rates[2]).toBeGreaterThan(37.5);
		expect(rates[3]).toBeLessThan(39);
		for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeGreaterThanOrEqual(rates[i - 1]);
	});

	it('a run younger than a second: its answers count as the second\'s (a window spent at once says its quota per second, not the pace it was spent at)', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		for (let i = 0; i < 50; i++) {
			clock.t += 4; // 250 per second, for 200 ms
			controller.record('ok', clock.t - 20, 20);
		}
		controller.record('throttled', clock.t - 20, 20);
		// 50 accepted, then a 429: 0.7 × 50 per second (before issue 40's fixed windows: 0.7 × 250, and 429s until the window's end).
		expect(controller.sendRate).toBeCloseTo(35, 5);
	});

	it('never above Max Requests per Second', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64, requestsPerSecond: 10 }, clock.now);
		accepted(controller, clock, 40);
		controller.record('throttled', clock.t - 20, 20);
		expect(controller.sendRate).toBe(10);
		for (let second = 0; second < 10; second++) accepted(controller, clock, 40);
		expect(controller.sendRate).toBe(10);
	});

	it('requests start at least 1/rate apart once a rate is learned', async () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		accepted(controller, clock, 100);
		accepted(controller, clock, 100);
		controller.record('throttled', clock.t - 20, 20); // 70 per second: one each 14.3 ms
		const waits: number[] = [];
		const wait = async (ms: number) => {
			waits.push(ms);
		};
		for (let i = 0; i < 3; i++) await controller.turn(wait);
		// Date.now() paces the real starts; the first goes at once, the next two wait about 14 ms each.
		expect(waits.length).toBeGreaterThanOrEqual(2);
		for (const ms of waits) expect(ms).toBeLessThanOrEqual(1000 / 70 + 1);
	});
});

describe('issue 40: a window closed until its end, and a fixed window read across its edge', () => {
	afterEach(() => jest.useRealTimers());

	/** On jest's clock: 40 answers a second, then a 429 with Retry-After: 1: the rate drops to 0.7 × 40. */
	const droppedAt28 = () => {
		jest.useFakeTimers({ now: 10_000 });
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 });
		for (let i = 0; i < 40; i++) {
			jest.setSystemTime(Date.now() + 25);
			controller.record('ok', Date.now() - 20, 20);
		}
		controller.record('throttled', Date.now() - 20, 20, 1000);
		return controller;
	};

	it('a request sent after the drop is refused too: its Retry-After holds every request, those already waiting their turn of the rate too', async () => {
		const controller = droppedAt28();
		const dropAt = Date.now();
		expect(controller.sendRate).toBeCloseTo(28, 5);
		const starts: number[] = [];
		const start = async () => {
			await controller.turn(async (ms) => await sleep(ms));
			starts.push(Date.now() - dropAt);
		};
		const first = start();
		const second = start();
		await jest.advanceTimersByTimeAsync(5);
		// The first went at once; the second waits 1/28 s for its turn of the rate.
		expect(starts).toEqual([0]);
		// A request sent after the drop is answered 429 with Retry-After: 1: the window is closed until then.
		controller.record('throttled', dropAt + 1, 4, 1000);
		await jest.advanceTimersByTimeAsync(2000);
		await Promise.all([first, second]);
		expect(starts[1]).toBeGreaterThanOrEqual(1005);
	});

	it('a closed window\'s Retry-After: 3600 holds new requests at most the documented 30 s', async () => {
		const controller = droppedAt28();
		controller.record('throttled', Date.now() + 1, 4, 3_600_000);
		const waits: number[] = [];
		await controller.turn(async (ms) => {
			waits.push(ms);
		});
		expect(waits[0]).toBeGreaterThan(29_000);
		expect(Math.max(...waits)).toBeLessThanOrEqual(30_000);
	});

	it('a token bucket accepts the next request after the drop: no hold', async () => {
		const controller = droppedAt28();
		jest.setSystemTime(Date.now() + 40);
		controller.record('ok', Date.now() - 20, 20);
		const waits: number[] = [];
		await controller.turn(async (ms) => {
			waits.push(ms);
		});
		expect(waits.every((ms) => ms < 100)).toBe(true);
	});

	it('a run older than two seconds reads the rate over two seconds: a window counted per calendar second, read across its edge, holds its quota and the next window\'s start', () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		// 40 per second for three seconds, then the next calendar second's 20 at once at its start.
		for (let i = 0; i < 120; i++) {
			clock.t += 25;
			controller.record('ok', clock.t - 20, 20);
		}
		for (let i = 0; i < 20; i++) {
			clock.t += 1;
			controller.record('ok', clock.t - 20, 20);
		}
		controller.record('throttled', clock.t - 20, 20);
		// Over the last second 60 were accepted (up to twice the limit: 40 and the next window's 20);
		// over two seconds 100, 50 a second: 0.7 × 50 (before: 0.7 × 60).
		expect(controller.sendRate).toBeCloseTo(35, 5);
	});
});

describe('Concurrency Mode Auto: Retry-After', () => {
	const waitsOf = async (controller: Controller) => {
		const waits: number[] = [];
		await controller.turn(async (ms) => {
			waits.push(ms);
		});
		return waits;
	};

	it('a round that halves on 503s with Retry-After holds every new request until then', async () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		for (let i = 0; i < 10; i++) controller.record('overloaded', clock.t, 30, 2000);
		expect(controller.limit).toBe(5);
		expect(await waitsOf(controller)).toEqual([2000]);
		clock.t += 2000;
		expect(await waitsOf(controller)).toEqual([]);
	});

	it('an occasional 503 with Retry-After (a flaky service) holds only its own request', async () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		round(controller, clock, 30);
		expect(controller.limit).toBe(20);
		for (let i = 0; i < 20; i++) controller.sent();
		controller.record('overloaded', clock.t, 30, 2000);
		for (let i = 0; i < 19; i++) controller.record('ok', clock.t, 30);
		expect(controller.limit).toBe(23);
		expect(await waitsOf(controller)).toEqual([]);
	});
});

describe('issue 32, defect 1: the run-wide hold', () => {
	it('a round of 503s with Retry-After: 3600 holds new requests at most the documented 30 s', async () => {
		const clock = new Clock();
		const controller = new Controller({ mode: 'auto', concurrency: 5, maxConcurrency: 64 }, clock.now);
		for (let i = 0; i < 10; i++) controller.record('overloaded', clock.t, 30, 3_600_000);
		const waits: number[] = [];
		await controller.turn(async (ms) => {
			waits.push(ms);
		});
		expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(30_000);
		expect(waits.length).toBeGreaterThan(0);
	});
});
