/**
 * Concurrency Mode Auto, the limit: how many requests may be in flight, decided once per round
 * (as many answers as the limit). TCP Reno's control law (slow start, then AIMD) on losses, with
 * TCP Vegas's additive step on latency. Chosen over a gradient limit because its only inputs are
 * counts and one latency comparison per round (a test drives it answer by answer and knows the
 * limit after each round); multiplicative decrease is the proven safe answer to overload; and
 * Vegas's test warns of a queue at the service before anything fails.
 * - slow start: from 10, doubles each round up to 20, then grows by 15 % (RFC 3742's limited slow
 *   start, in proportion): a bucket of 100 is met with about 30 in flight instead of 64. From 5 and
 *   by a tenth (until issue 40), a cold run of 200 rows took 9 rounds where Fixed 50 takes 4, and
 *   Auto made 0.86 to 0.94 × Fixed 50's rows per minute on a fast service; from 10 and by 15 % it
 *   takes 8 and makes about as many (the next runs start higher too). Its first burst of 429s
 *   against an unknown limit is about one request larger, within the bounds of
 *   `test/unit/sendRateLaw.test.ts` (docs/concurrency.md, "The fast profile in quick runs");
 * - then one more per round while answers stay fast and successful;
 * - it grows only when the round used it: at least half the limit was on the wire at once (RFC
 *   7661, Linux's tcp_is_cwnd_limited). A run whose requests a rate (Max Requests per Second, the
 *   service's announced quota, a learned rate) held back learns no limit the service never saw;
 * - it halves when more than a tenth of a round's answers are 502/503/504, timeouts or dropped
 *   connections, the share taken of at least 20 answers (a round that all fails halves at once).
 *   A single 503 with Retry-After in a round is about its own request and is not counted;
 * - it takes one off when more than half of a round's answers took over twice the idle latency of
 *   their kind of request (plus 20 ms of timer noise): requests are queueing. The idle latency is
 *   kept per method (a creation and an update are not equally slow: the update's time is never
 *   judged against the creation's). In slow start one slow round holds the limit, two in a row end
 *   it (HyStart++, RFC 9406: a pause of n8n's own delays a whole round). Latency alone never takes
 *   it below 5;
 * - answers to requests started before the last shrink are not counted: they tell of the old limit;
 * - when a round halves on 503s that said Retry-After, every new request waits until then
 *   (the service as a whole said when to come back), at most `MAX_HOLD_MS`.
 */

/** How an answer went: a success (or an answer that is not about load), a 429, an overload, or a loss. */
export type Signal = 'ok' | 'throttled' | 'overloaded' | 'dropped';

/** What a round decided. */
export type Decision = 'grow' | 'hold' | 'shrink' | 'halve' | 'idle';

export interface Answer {
	signal: Signal;
	/** When its request was sent, and how long the answer took (ms). */
	startedAt: number;
	latencyMs: number;
	/** The Retry-After of a 503 (ms). */
	retryAfterMs?: number;
	/** The request's method: the kind of request its latency is judged against. */
	method?: string;
}

/** Where `auto` starts: twice version 1's fixed default of 5 (issue 40: one round fewer to 20). */
export const AUTO_START = 10;

/** Latency alone never takes the limit below this: version 1's fixed default. */
const LATENCY_FLOOR = 5;

/** No run-wide hold is longer: the documented cap of every wait (a Retry-After of an hour is not waited out). */
export const MAX_HOLD_MS = 30_000;

const SLOW_START_DOUBLING = 20;
const SLOW_START_GENTLE = 1.15;
const LOSS_SHARE = 0.1;
const MIN_JUDGED = 20;
const LATENCY_FACTOR = 2;
const LATENCY_NOISE_MS = 20;
/** At most this many kinds of request keep an idle latency. */
const MAX_KINDS = 16;

export class Law {
	current: number;

	slowStart = true;

	/** The lowest round median latency seen per method (ms). */
	readonly idle = new Map<string, number>();

	holdUntil = 0;

	/** The longest hold (the retry policy's bound of one wait). */
	maxHoldMs = MAX_HOLD_MS;

	private changedAt = Number.NEGATIVE_INFINITY;

	private round = { answers: 0, losses: 0, told: 0, retryAfterMs: 0, latencies: [] as Array<[string, number]> };

	private queuedLastRound = false;

	/** Requests on the wire now, and the most of them at once in this round. */
	private onWire = 0;

	private peak = 0;

	constructor(readonly maxConcurrency: number) {
		this.current = Math.min(maxConcurrency, AUTO_START);
	}

	sent(): void {
		this.onWire += 1;
		this.peak = Math.max(this.peak, this.onWire);
	}

	/** A request left the wire (answered or not). */
	left(): void {
		this.onWire = Math.max(0, this.onWire - 1);
	}

	/** Requests on the wire now, besides the one being answered. */
	get others(): number {
		return Math.max(0, this.onWire - 1);
	}

	/** Counts one answer; at the end of a round answers what it decided (else undefined). */
	answer(answer: Answer, now: number): Decision | undefined {
		const { signal, startedAt, latencyMs, retryAfterMs } = answer;
		if (startedAt < this.changedAt) return undefined;
		const round = this.round;
		round.answers += 1;
		if (signal === 'overloaded' || signal === 'dropped') round.losses += 1;
		if (retryAfterMs !== undefined) {
			round.told += 1;
			round.retryAfterMs = Math.max(round.retryAfterMs, retryAfterMs);
		} else if (signal === 'ok') round.latencies.push([answer.method ?? '', latencyMs]);
		return round.answers >= this.current ? this.decide(now) : undefined;
	}

	private decide(now: number): Decision {
		const { answers, told, latencies, retryAfterMs } = this.round;
		// A lone 503 with Retry-After is about its own request, not the service's load.
		const losses = this.round.losses - (told === 1 ? 1 : 0);
		const used = this.peak * 2 >= this.current;
		this.round = { answers: 0, losses: 0, told: 0, retryAfterMs: 0, latencies: [] };
		this.peak = this.onWire;
		const queueing = this.queueing(latencies);
		if (losses > LOSS_SHARE * Math.max(MIN_JUDGED, answers) || (answers > 1 && losses === answers)) {
			this.slowStart = false;
			this.current = Math.max(1, Math.floor(this.current / 2));
			this.changedAt = now;
			this.holdUntil = Math.max(this.holdUntil, now + Math.min(this.maxHoldMs, retryAfterMs));
			return 'halve';
		}
		if (queueing && this.slowStart && !this.queuedLastRound) {
			this.queuedLastRound = true;
			return 'hold';
		}
		if (queueing) {
			this.slowStart = false;
			if (this.current <= LATENCY_FLOOR) return 'hold';
			this.current -= 1;
			return 'shrink';
		}
		this.queuedLastRound = false;
		if (!used) return 'idle';
		this.current = Math.min(this.maxConcurrency, this.grown());
		return 'grow';
	}

	/** Whether more than half the round's judged answers took over twice their kind's idle latency; then learns each kind's idle latency. */
	private queueing(latencies: Array<[string, number]>): boolean {
		let judged = 0;
		let slow = 0;
		const byKind = new Map<string, number[]>();
		for (const [kind, ms] of latencies) {
			const idle = this.idle.get(kind);
			if (idle !== undefined) {
				judged += 1;
				if (ms > LATENCY_FACTOR * idle + LATENCY_NOISE_MS) slow += 1;
			}
			const list = byKind.get(kind);
			if (list) list.push(ms);
			else byKind.set(kind, [ms]);
		}
		for (const [kind, list] of byKind) {
			const median = list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
			const idle = this.idle.get(kind);
			if (idle === undefined && this.idle.size >= MAX_KINDS) continue;
			this.idle.set(kind, Math.min(idle ?? Number.POSITIVE_INFINITY, median));
		}
		return judged > 0 && slow * 2 > judged;
	}

	/** The limit after a good round: doubled up to 20, then 15 % more (slow start), or one more. */
	private grown(): number {
		if (!this.slowStart) return this.current + 1;
		if (this.current < SLOW_START_DOUBLING) return Math.min(SLOW_START_DOUBLING, this.current * 2);
		return Math.max(this.current + 1, Math.round(this.current * SLOW_START_GENTLE));
	}
}
