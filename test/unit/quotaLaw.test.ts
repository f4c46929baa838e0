/**
 * Issue 40: the law of the announced quotas (transport/quota.ts) against each way a service
 * counts (the sandbox's own limiters, test/sandbox/limiter.ts) and each header style, in a
 * deterministic simulation: an injected clock, no timer. A client of `concurrency` requests in
 * flight creates `items` records through the Quota exactly as the controller does (a turn before
 * each request, every answer's headers read with those sent after it still on the wire, a 429 sent again
 * after its Retry-After); the service counts each request 1 ms after it is sent and answers 20
 * ms later. Table: limiter × header style × start within the second × concurrency; the law:
 * ≤ 1 % answered 429 and ≤ 1.2× the ideal time (the creations ÷ the limit).
 */
import { Quota } from '../../nodes/Recruiting/transport/quota';
import { readRates } from '../../nodes/Recruiting/transport/rateHeaders';
import { LIMITER_KINDS, Limiter } from '../sandbox/limiter';
import type { LimiterKind, RatePolicy } from '../sandbox/limiter';
import type { RateLimitHeaderStyle } from '../sandbox/types';
import { RATE_LIMIT_HEADER_STYLES } from '../sandbox/types';

/** 2026-11-27 00:00:00 UTC: the clock starts here plus a phase. */
const EPOCH = Date.UTC(2026, 10, 27);

interface Run {
	sent: number;
	answered429: number;
	elapsedMs: number;
	/** The most requests the service counted within any second (sliding), for the edge. */
}

/** The events of the simulation, in time order (equal times: in the order scheduled). */
class Clock {
	now: number;

	private queue: Array<{ at: number; seq: number; run: () => void }> = [];

	private seq = 0;

	constructor(start: number) {
		this.now = start;
	}

	at(time: number, run: () => void): void {
		const event = { at: time, seq: this.seq++, run };
		let index = this.queue.length;
		while (index > 0 && (this.queue[index - 1].at > time || (this.queue[index - 1].at === time && this.queue[index - 1].seq > event.seq))) index -= 1;
		this.queue.splice(index, 0, event);
	}

	drain(): void {
		for (let event = this.queue.shift(); event; event = this.queue.shift()) {
			this.now = Math.max(this.now, event.at);
			event.run();
		}
	}
}

function simulate(kind: LimiterKind, style: RateLimitHeaderStyle | undefined, policies: RatePolicy[], options: { items: number; concurrency: number; phaseMs: number }): Run {
	const start = EPOCH + options.phaseMs;
	const clock = new Clock(start);
	const limiter = new Limiter(kind, policies);
	const quota = new Quota();
	let next = 0;
	let done = 0;
	/** When each request on the wire was sent, oldest first. */
	const wire: number[] = [];
	const run: Run = { sent: 0, answered429: 0, elapsedMs: 0 };
	const startItem = () => {
		// Windows of seconds here: never spent beyond the bound of one wait (that case holds the run: test/unit/windowLaw.test.ts).
		const wait = quota.take(clock.now) ?? 0;
		clock.at(clock.now + wait, () => {
			if (wait > 0) quota.departed();
			send();
		});
	};
	const send = () => {
		const sentAt = clock.now;
		quota.sent(sentAt);
		wire.push(sentAt);
		run.sent += 1;
		clock.at(sentAt + 1, () => {
			const retryAfter = limiter.take(clock.now);
			// As Node's HTTP client gives them: names in lower case.
			const headers = Object.fromEntries(Object.entries(style ? limiter.headers(style, clock.now) : {}).map(([name, value]) => [name.toLowerCase(), value]));
			clock.at(clock.now + 20, () => {
				wire.splice(wire.indexOf(sentAt), 1);
				quota.heard(readRates(headers, clock.now), wire.filter((at) => at >= sentAt).length, sentAt, clock.now);
				quota.answered(sentAt, clock.now);
				if (retryAfter !== undefined) {
					run.answered429 += 1;
					clock.at(clock.now + Number(retryAfter) * 1000, startItem);
					return;
				}
				done += 1;
				if (done === options.items) run.elapsedMs = clock.now - start;
				if (next < options.items) {
					next += 1;
					startItem();
				}
			});
		});
	};
	for (; next < Math.min(options.concurrency, options.items); next++) startItem();
	clock.drain();
	return run;
}

const STYLES = RATE_LIMIT_HEADER_STYLES;
const table: Array<[LimiterKind, RateLimitHeaderStyle, number, number]> = [];
for (const kind of LIMITER_KINDS) for (const style of STYLES) for (const phaseMs of [0, 337, 990]) for (const concurrency of [5, 20, 40]) table.push([kind, style, phaseMs, concurrency]);

describe('issue 40: Auto within the quota, each limiter and header style (simulated clock)', () => {
	const perSecond = 40;
	const items = 600;
	it.each(table)('%s, headers %s, starting %i ms into a second, %i in flight: ≤ 1 %% answered 429, ≤ 1.2× the ideal', (kind, style, phaseMs, concurrency) => {
		const run = simulate(kind, style, [{ name: 'default', limit: perSecond, windowS: 1 }], { items, concurrency, phaseMs });
		const ideal = (items / perSecond) * 1000;
		// 5 in flight at 21 ms a request cannot reach 40 per second's ideal: its own bound is 5 per 21 ms.
		const floor = Math.max(ideal, (items / concurrency) * 21);
		expect(run.answered429 / run.sent).toBeLessThanOrEqual(0.01);
		expect(run.elapsedMs / floor).toBeLessThanOrEqual(1.2);
	});

	it.each(LIMITER_KINDS)('%s: the draft\'s burst and daily policies at once, announced in IETF headers: no 429, the burst policy\'s pace', (kind) => {
		const policies = [
			{ name: 'burst', limit: 100, windowS: 10 },
			{ name: 'daily', limit: 1000, windowS: 86_400 },
		];
		const run = simulate(kind, 'ietf', policies, { items: 300, concurrency: 20, phaseMs: 337 });
		expect(run.answered429).toBe(0);
		// 300 at 100 per 10 s: the first 100 at once, then two windows more.
		expect(run.elapsedMs).toBeGreaterThanOrEqual(20_000);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * 30_000);
	});

	it('without headers the quota knows nothing and never holds a request (the 429s teach the send rate instead)', () => {
		const quota = new Quota();
		expect(quota.take(EPOCH)).toBe(0);
		quota.heard(readRates({}, EPOCH), 3, EPOCH, EPOCH);
		expect(quota.take(EPOCH)).toBe(0);
	});
});
