/**
 * How many items of a node run are in flight, and (once the service has throttled) how fast
 * requests start: one controller per node run, owned by the run context. The router asks it for
 * a slot before it starts an item (`slot`), the transport asks it for a turn before each request
 * (`turn`) and tells it how each answer went (`record`). Nothing else learns how it decides.
 *
 * `fixed`: the limit is the user's Concurrent Requests, always; nothing is learned.
 *
 * `auto`, the limit: TCP Reno's control law (slow start, then AIMD) on losses, with TCP Vegas's
 * additive step on latency, decided once per round, a round being as many answers as the limit.
 * Chosen over a gradient limit because its only inputs are counts and one latency comparison per
 * round, so a test can drive it answer by answer and know the limit after each round; because
 * multiplicative decrease is the proven safe answer to overload (it converges to a fair share of
 * a service that other clients use too); and because Vegas's latency test warns of a queue
 * forming at the service before anything fails, while its additive step keeps the limit near
 * the point where the queue starts instead of halving it (latency also rises when the n8n
 * process itself is short of CPU, where halving would only lose throughput).
 * - slow start: the limit doubles each round up to 20, then grows by a tenth per round (RFC
 *   3742's limited slow start, in proportion), until the first sign of congestion: a fast service
 *   is used fully within about 21 round trips (5, 10, 20, 22, 24, … 111, 122, then the cap of 128).
 *   The gentler part is for rate limits: a service's token bucket lets a burst through and then
 *   answers 429 to every request sent in the round trip before the first 429 is back, as many as
 *   are in flight; growing by a tenth, a run reaches the end of a bucket of 100 with about 30 in
 *   flight instead of 64 (profile rate-limited, 50 ms: 25 to 31 such 429s instead of 47 to 62);
 * - then it grows by one each round while answers stay fast and successful;
 * - it halves when more than a tenth of a round's answers are 503/502/504, timeouts or dropped
 *   connections, the share taken of at least 20 answers (so at least 3 losses: in the rounds of 5
 *   and 10 at the start, two random losses are not a tenth of anything; a round that all fails
 *   still halves at once, however small). A single 503 with Retry-After in a round is the service's word about
 *   that one request (it waits as told) and is not counted; two or more are. So a service failing
 *   2 % of requests at random does not drive it down;
 * - it shrinks by one when the round's median latency exceeds twice the lowest round median seen
 *   (plus 20 ms, timer noise): requests are queueing. In slow start one such round only holds
 *   the limit, and two in a row end slow start (as HyStart++, RFC 9406, does not leave slow start
 *   on one round's delay): a single pause of n8n's own, a garbage collection, delays every answer
 *   of a round and would otherwise leave the rest of the ramp to one more per round (measured in
 *   a real n8n, 1,000 rows: the first execution after a warm-up ran 14,201 rows per minute, the
 *   next two 17,878 and 18,785; with this rule the first ran 17,873). Latency alone never takes it below 5
 *   (version 1's fixed default): a service slow for other reasons is not hammered less than
 *   before, only a failing one is;
 * - answers to requests started before the last change are not counted: they tell of the old limit;
 * - never above Max Concurrency, never below 1.
 *
 * `auto`, the send rate: what the AWS SDK's adaptive retry mode does. Until the first 429 there
 * is none. A 429 sets it to β = 0.7 times the rate the service accepted in the last second (the
 * answers that were not 429) and it grows back along CUBIC's curve, C·(t − K)³ + the rate at
 * the throttle, flat near that rate (so it probes above it rarely) and never above twice the
 * accepted rate. Requests then start at least 1/rate apart (a token bucket of one token: no
 * bursts). A 429 does not shrink the limit (the service limits a rate, not requests in flight:
 * at 20 ms latency 40 per second is less than one request in flight), it ends slow start.
 * Max Requests per Second, when set, caps the learned rate too (the transport's own pacer
 * enforces it in either mode).
 *
 * Retry-After: each request answered with one waits it out before it is sent again, as before.
 * When a round halves the limit on losses and its 503s said Retry-After, every new request of
 * the run waits until then too (the service as a whole is overloaded and said when to come
 * back); an occasional 503 of a flaky service holds only its own request.
 *
 * A run starts from the pace the last run against the same service left in this process
 * (`pace.ts`: the limit, whether slow start was on, the idle latency, the learned rate and the
 * answers of the last second), so only the first run of a process pays for slow start and for the
 * first burst into a rate limit. In queue mode every execution has its own controller and each
 * worker its own paces: each adapts alone, from what its process learned.
 */
import type { Waiter } from './pacer';
import { Pacer } from './pacer';

export type ConcurrencyMode = 'auto' | 'fixed';

/** How an answer went: a success (or an answer that is not about load), a 429, an overload, or a loss. */
export type Signal = 'ok' | 'throttled' | 'overloaded' | 'dropped';

/** What a node run learned of the service's pace, for the next run against it to start from (`pace.ts`). */
export interface Pace {
	limit: number;
	slowStart: boolean;
	/** The lowest round median latency seen (ms). */
	baseLatency: number;
	/** The learned send rate, and how far along its CUBIC curve it was. */
	rate?: { perSecond: number; maxRate: number; k: number; sinceMs: number };
	/** When the answers of the last second that were not throttled came (ms since 1970). */
	accepted: number[];
}

export interface ControllerSettings {
	mode: ConcurrencyMode;
	/** `fixed`: the number of items in flight; `auto`: where the limit starts. */
	concurrency: number;
	/** `auto`: the highest limit. */
	maxConcurrency: number;
	/** Max Requests per Second (0: none): the learned rate never exceeds it. */
	requestsPerSecond?: number;
}

/** Where `auto` starts: version 1's fixed default. */
export const AUTO_START = 5;

/** Slow start doubles the limit each round up to here, then grows it by a tenth per round. */
const SLOW_START_DOUBLING = 20;
const SLOW_START_GENTLE = 1.1;

const LOSS_SHARE = 0.1;
/** The fewest answers the loss share is taken of: a small round's one or two losses are not "a tenth". */
const MIN_JUDGED = 20;
const LATENCY_FACTOR = 2;
const LATENCY_NOISE_MS = 20;
const BETA = 0.7;
const CUBIC_C = 0.4;
const MIN_RATE = 0.5;

export class Controller {
	/** Items in flight now may not exceed it. */
	private current: number;

	private slowStart: boolean;

	private inFlight = 0;

	/** The router's waits for a slot. */
	private waiting: Array<() => void> = [];

	private closed = false;

	/** When the limit last shrank: answers to requests started before it are not counted. */
	private changedAt = Number.NEGATIVE_INFINITY;

	private round = { answers: 0, losses: 0, told: 0, latencies: [] as number[], retryAfterMs: 0 };

	private baseLatency = Number.POSITIVE_INFINITY;

	/** Whether the last round was slow (a queue at the service, or n8n short of CPU). */
	private queuedLastRound = false;

	/**
	 * Times of the answers not throttled (the accepted rate): those from `acceptedFrom` on are of
	 * the last second; the older ones are dropped in batches (no shift per answer).
	 */
	private accepted: number[] = [];

	private acceptedFrom = 0;

	/** When the answers counted in the accepted rate began (the first answer; a resumed run: the run before's). */
	private countingSince?: number;

	/** The learned send rate per second (undefined until the first 429), and the CUBIC state. */
	private rate?: number;

	private cubic = { maxRate: 0, k: 0, at: 0 };

	private holdUntil = 0;

	private readonly pacer = new Pacer(() => (this.rate ? 1000 / this.rate : 0));

	constructor(
		readonly settings: ControllerSettings,
		private readonly now: () => number = Date.now,
	) {
		const auto = settings.mode === 'auto';
		this.current = auto ? Math.min(settings.maxConcurrency, AUTO_START) : settings.concurrency;
		this.slowStart = auto;
	}

	get limit(): number {
		return this.current;
	}

	/** The learned send rate per second, or undefined (none learned). */
	get sendRate(): number | undefined {
		return this.rate;
	}

	/** What this run has learned, to start the next run against the same service from (`fixed`: nothing). */
	pace(): Pace | undefined {
		if (this.settings.mode !== 'auto') return undefined;
		const { rate, cubic } = this;
		return {
			limit: this.current,
			slowStart: this.slowStart,
			baseLatency: this.baseLatency,
			accepted: this.accepted.slice(this.acceptedFrom),
			...(rate === undefined ? {} : { rate: { perSecond: rate, maxRate: cubic.maxRate, k: cubic.k, sinceMs: this.now() - cubic.at } }),
		};
	}

	/** Starts from what an earlier run against the same service learned (before the first slot); `fixed` ignores it. */
	resume(pace: Pace): void {
		if (this.settings.mode !== 'auto') return;
		this.current = Math.max(1, Math.min(this.settings.maxConcurrency, Math.floor(pace.limit)));
		this.slowStart = pace.slowStart;
		this.baseLatency = pace.baseLatency;
		this.accepted = [...pace.accepted];
		this.acceptedFrom = 0;
		this.countingSince = Number.NEGATIVE_INFINITY;
		if (pace.rate) {
			// Probing above the rate of the last throttle when it ended: this run starts at that rate, on the flat of the curve.
			const { perSecond, maxRate, k, sinceMs } = pace.rate;
			const probing = perSecond > maxRate;
			this.cubic = { maxRate, k, at: this.now() - (probing ? k * 1000 : sinceMs) };
			this.rate = this.capped(probing ? maxRate : perSecond);
		}
		this.notify();
	}

	/**
	 * Waits until an item may start (fewer in flight than the limit) and takes the slot; answers
	 * `false` without a slot once the controller is closed. Give the slot back with `release`.
	 */
	async slot(): Promise<boolean> {
		while (!this.closed && this.inFlight >= this.current) await new Promise<void>((resolve) => this.waiting.push(resolve));
		if (this.closed) return false;
		this.inFlight += 1;
		return true;
	}

	release(): void {
		this.inFlight -= 1;
		this.notify();
	}

	/** Ends every wait for a slot (the run stops, or is cancelled). */
	close(): void {
		this.closed = true;
		this.notify();
	}

	private notify(): void {
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	/** Waits for a request's turn under the learned rate and any Retry-After hold. */
	async turn(wait: Waiter): Promise<void> {
		const held = this.holdUntil - this.now();
		if (held > 0) await wait(held);
		await this.pacer.turn(wait);
	}

	/**
	 * How one answer went. `startedAt`: when its request was sent; `latencyMs`: how long the answer
	 * took; `retryAfterMs`: the Retry-After of a 503.
	 */
	record(signal: Signal, startedAt: number, latencyMs: number, retryAfterMs?: number): void {
		if (this.settings.mode !== 'auto') return;
		const now = this.now();
		if (signal !== 'throttled') this.countAccepted(now);
		if (signal === 'throttled') this.throttled(startedAt, now);
		else if (this.rate !== undefined) this.growRate(now);
		if (startedAt < this.changedAt) return;
		this.round.answers += 1;
		if (signal === 'overloaded' || signal === 'dropped') this.round.losses += 1;
		if (retryAfterMs !== undefined) {
			this.round.told += 1;
			this.round.retryAfterMs = Math.max(this.round.retryAfterMs, retryAfterMs);
		}
		else if (signal === 'ok') this.round.latencies.push(latencyMs);
		if (this.round.answers >= this.current) this.decide(now);
	}

	/** The end of a round: halve on losses or a queue at the service, else grow. */
	private decide(now: number): void {
		const { answers, told, latencies, retryAfterMs } = this.round;
		// A lone 503 with Retry-After is about its own request, not the service's load.
		const losses = this.round.losses - (told === 1 ? 1 : 0);
		this.round = { answers: 0, losses: 0, told: 0, latencies: [], retryAfterMs: 0 };
		const median = latencies.length > 0 ? [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)] : undefined;
		const queueing = median !== undefined && median > LATENCY_FACTOR * this.baseLatency + LATENCY_NOISE_MS;
		if (median !== undefined) this.baseLatency = Math.min(this.baseLatency, median);
		if (losses > LOSS_SHARE * Math.max(MIN_JUDGED, answers) || (answers > 1 && losses === answers)) {
			this.shrink(1, now);
			this.holdUntil = Math.max(this.holdUntil, now + retryAfterMs);
		} else if (queueing && this.slowStart && !this.queuedLastRound) {
			// One slow round in slow start (a pause of n8n's own, a garbage collection) holds the limit; two in a row end slow start.
			this.queuedLastRound = true;
		} else if (queueing) {
			this.slowStart = false;
			if (this.current > AUTO_START) this.current -= 1;
		} else {
			this.queuedLastRound = false;
			this.current = Math.min(this.settings.maxConcurrency, this.grown());
			this.notify();
		}
	}

	/** The limit after a good round: doubled up to `SLOW_START_DOUBLING`, then 10 % more (slow start), or one more. */
	private grown(): number {
		if (!this.slowStart) return this.current + 1;
		if (this.current < SLOW_START_DOUBLING) return Math.min(SLOW_START_DOUBLING, this.current * 2);
		return Math.max(this.current + 1, Math.round(this.current * SLOW_START_GENTLE));
	}

	private shrink(floor: number, now: number): void {
		this.slowStart = false;
		this.current = Math.max(floor, Math.floor(this.current / 2));
		this.changedAt = now;
	}

	private countAccepted(now: number): void {
		this.countingSince ??= now;
		this.accepted.push(now);
		this.forgetAccepted(now);
	}

	private forgetAccepted(now: number): void {
		while (this.acceptedFrom < this.accepted.length && this.accepted[this.acceptedFrom] <= now - 1000) this.acceptedFrom += 1;
		if (this.acceptedFrom > 1024 && this.acceptedFrom * 2 > this.accepted.length) {
			this.accepted = this.accepted.slice(this.acceptedFrom);
			this.acceptedFrom = 0;
		}
	}

	/**
	 * Answers accepted in the last second, per second: over the time since the first answer in a
	 * run younger than that (at least 100 ms); a resumed run counts the answers of the run before
	 * it against the same service (`resume`) and so a whole second.
	 */
	private acceptedRate(now: number): number {
		this.forgetAccepted(now);
		this.countingSince ??= now;
		return ((this.accepted.length - this.acceptedFrom) * 1000) / Math.min(1000, Math.max(100, now - this.countingSince));
	}

	/** A 429: the send rate drops to β times what the service accepted, and slow start ends. */
	private throttled(startedAt: number, now: number): void {
		this.slowStart = false;
		// One drop per throttle: the 429s of requests sent before the last drop tell of the old rate.
		if (this.rate !== undefined && startedAt < this.cubic.at) return;
		const measured = Math.max(MIN_RATE, this.acceptedRate(now));
		const maxRate = this.rate === undefined ? measured : Math.min(measured, this.rate);
		this.cubic = { maxRate, k: Math.cbrt((maxRate * (1 - BETA)) / CUBIC_C), at: now };
		this.rate = this.capped(Math.max(MIN_RATE, maxRate * BETA));
	}

	/** Along CUBIC's curve back to (and slowly beyond) the rate of the last throttle. */
	private growRate(now: number): void {
		const t = (now - this.cubic.at) / 1000 - this.cubic.k;
		const cubic = CUBIC_C * t * t * t + this.cubic.maxRate;
		this.rate = this.capped(Math.max(MIN_RATE, Math.min(cubic, 2 * Math.max(this.acceptedRate(now), this.cubic.maxRate))));
	}

	private capped(rate: number): number {
		const cap = this.settings.requestsPerSecond ?? 0;
		return cap > 0 ? Math.min(cap, rate) : rate;
	}
}
