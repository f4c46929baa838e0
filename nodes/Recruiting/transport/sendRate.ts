/**
 * Concurrency Mode Auto, the send rate learned from 429s: what the AWS SDK's adaptive retry mode
 * does. Until the first 429 there is none. A 429 sets it to β = 0.7 times the rate the service
 * accepted in the last second (the answers that were not 429; in a run younger than a second,
 * those it got, as a second's: a window spent at once tells its quota, not the pace it was spent
 * at) and it grows back along CUBIC's curve, C·(t − K)³ + a margin (0.95) under the rate at the
 * throttle, flat near it (it probes above it rarely) and never above twice the accepted rate.
 * Requests then start at least 1/rate apart. Max Requests per Second, when set, caps it.
 *
 * How real services count (issue 40) shaped three rules, each checked in
 * `test/unit/sendRateLaw.test.ts` against a token bucket, a fixed window and a sliding window:
 * - One drop per throttle: the 429s of requests sent before the last drop tell of the old rate;
 *   within a second of the drop, a 429 drops the rate again only while the service accepts less
 *   than it (a fixed window answers 429 to every request until its end, however slowly sent:
 *   each of those used to drop the rate again, to a quarter of the limit).
 * - The margin: a fixed window counted per calendar second refuses the 41st request of a second,
 *   so a curve flat at the rate of the throttle probes into 429s every few seconds.
 * - A steady limit: throttled again within 10 % of the last throttle's rate, the curve grows
 *   four times slower (C / 4), so it probes above a limit it has found twice less often.
 */

export interface LearnedRate {
	perSecond: number;
	maxRate: number;
	k: number;
	sinceMs: number;
	/** CUBIC's C of the curve (slower once the service throttled twice at about the same rate). */
	c?: number;
}

const BETA = 0.7;
const CUBIC_C = 0.4;
const MIN_RATE = 0.5;
const EPISODE_MS = 1000;
const MARGIN = 0.95;
const STEADY_SHARE = 0.1;
const STEADY_SLOWER = 4;

export class SendRate {
	/** The learned rate per second (undefined until the first 429). */
	rate?: number;

	private cubic = { maxRate: 0, k: 0, at: 0, c: CUBIC_C };

	/** Times of the answers not throttled: those from `from` on are of the last second (older ones dropped in batches). */
	private accepted: number[] = [];

	private from = 0;

	constructor(private readonly cap: number) {}

	/** An answer that was not a 429. */
	accept(now: number): void {
		this.accepted.push(now);
		this.forget(now);
		if (this.rate !== undefined) this.grow(now);
	}

	/** A 429 of a request sent at `startedAt`. */
	throttled(startedAt: number, now: number): void {
		// One drop per throttle: the 429s of requests sent before the last drop tell of the old rate.
		if (this.rate !== undefined && startedAt < this.cubic.at) return;
		const measured = Math.max(MIN_RATE, this.acceptedRate(now));
		// Within a second of the last drop, only while the service accepts less than the rate: a
		// fixed window spent until its end answers 429 to every request until then, however slowly sent.
		if (this.rate !== undefined && startedAt < this.cubic.at + EPISODE_MS && measured >= this.rate) return;
		const throttledAt = this.rate === undefined ? measured : Math.min(measured, this.rate);
		const maxRate = throttledAt * MARGIN;
		// Throttled again at about the same rate: a steady limit, probed above less often.
		const steady = this.rate !== undefined && Math.abs(maxRate - this.cubic.maxRate) <= STEADY_SHARE * this.cubic.maxRate;
		const c = steady ? CUBIC_C / STEADY_SLOWER : CUBIC_C;
		this.cubic = { maxRate, k: Math.cbrt((maxRate * (1 - BETA)) / c), at: now, c };
		this.rate = this.capped(Math.max(MIN_RATE, throttledAt * BETA));
	}

	kept(now: number): { accepted: number[]; rate?: LearnedRate } {
		const { rate, cubic } = this;
		const accepted = this.accepted.slice(this.from);
		return rate === undefined ? { accepted } : { accepted, rate: { perSecond: rate, maxRate: cubic.maxRate, k: cubic.k, sinceMs: now - cubic.at, c: cubic.c } };
	}

	resume(accepted: number[], learned: LearnedRate | undefined, now: number): void {
		this.accepted = [...accepted];
		this.from = 0;
		if (!learned) return;
		// Probing above the rate of the last throttle when it ended: this run starts at that rate, on the flat of the curve.
		const { perSecond, maxRate, k, sinceMs, c = CUBIC_C } = learned;
		const probing = perSecond > maxRate;
		this.cubic = { maxRate, k, at: now - (probing ? k * 1000 : sinceMs), c };
		this.rate = this.capped(probing ? maxRate : perSecond);
	}

	private forget(now: number): void {
		while (this.from < this.accepted.length && this.accepted[this.from] <= now - 1000) this.from += 1;
		if (this.from > 1024 && this.from * 2 > this.accepted.length) {
			this.accepted = this.accepted.slice(this.from);
			this.from = 0;
		}
	}

	/** Answers accepted in the last second: a rate per second (in a run younger than a second, its answers as the second's). */
	private acceptedRate(now: number): number {
		this.forget(now);
		return this.accepted.length - this.from;
	}

	/** Along CUBIC's curve back to (and slowly beyond) the rate of the last throttle. */
	private grow(now: number): void {
		const t = (now - this.cubic.at) / 1000 - this.cubic.k;
		const cubic = this.cubic.c * t * t * t + this.cubic.maxRate;
		this.rate = this.capped(Math.max(MIN_RATE, Math.min(cubic, 2 * Math.max(this.acceptedRate(now), this.cubic.maxRate))));
	}

	private capped(rate: number): number {
		return this.cap > 0 ? Math.min(this.cap, rate) : rate;
	}
}
