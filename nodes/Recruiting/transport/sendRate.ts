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
 *   sixteen times slower (C / 16), so it probes above a limit it has found twice about once in a
 *   quarter of a minute instead of every few seconds.
 * - A closed window: a request sent after the drop is refused too (a fixed or sliding window spent
 *   until its end refuses everything until then, however slowly sent). Its Retry-After is then
 *   the service's word for the whole run (RFC 6585: how long to wait "before making a new
 *   request"): no request starts before it, at most `MAX_HOLD_MS`. A token bucket, refilled while
 *   the rate dropped, accepts the first request after the drop, so it is not held.
 * - The accepted rate is read over two seconds when the run is that old: read over one second
 *   across a calendar second's edge, a fixed window holds its quota and the next window's start
 *   (up to twice the limit).
 * Each was measured in the simulation with each leg of a request up to 30 ms slower, as on a
 * loaded machine: without them a first run against a fixed window had up to 6 % of its requests
 * answered 429 and the next one 1.15 %.
 */

import { MAX_HOLD_MS } from './law';

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
const STEADY_SLOWER = 16;
/** The accepted rate is read over this long once answers reach back that far (ms). */
const SPAN_MS = 2000;

export class SendRate {
	/** The learned rate per second (undefined until the first 429). */
	rate?: number;

	private cubic = { maxRate: 0, k: 0, at: 0, c: CUBIC_C };

	/** Times of the answers not throttled: those from `from` on are of the last two seconds (older ones dropped in batches). */
	private accepted: number[] = [];

	private from = 0;

	/** Since when this run has counted answers (a resumed run: since it resumed; the answers it was given may be older, and the time between the runs sent nothing). */
	private since = Number.POSITIVE_INFINITY;

	constructor(private readonly cap: number) {}

	/** An answer that was not a 429. */
	accept(now: number): void {
		this.shut = 0;
		this.since = Math.min(this.since, now);
		this.accepted.push(now);
		this.forget(now);
		if (this.rate !== undefined) this.grow(now);
	}

	/** No request starts before this (ms since 1970): the service refused one sent after the drop and said when to come back. */
	holdUntil = 0;

	/** The longest hold (the retry policy's bound of one wait). */
	maxHoldMs = MAX_HOLD_MS;

	/** A 429 of a request sent at `startedAt`; `retryAfterMs`: its Retry-After. */
	throttled(startedAt: number, now: number, retryAfterMs?: number): void {
		// One drop per throttle: the 429s of requests sent before the last drop tell of the old rate.
		if (this.rate !== undefined && startedAt < this.cubic.at) return;
		const accepted = this.acceptedRate(now);
		// Nothing accepted lately: the service is closed (a window spent until its end), not slower.
		// A rate learned now would be near 0 and outlive the window (issue 48: 0.5 per second after a
		// minute's window): none is learned, the run is held until the service said.
		if (accepted === 0) return this.closed(now, retryAfterMs);
		const measured = Math.max(MIN_RATE, accepted);
		// Within a second of the last drop, only while the service accepts less than the rate: a
		// fixed window spent until its end answers 429 to every request until then, however slowly
		// sent. The service refuses a request sent after the drop: it is closed, and its Retry-After
		// says until when (RFC 6585: before making a new request).
		if (this.rate !== undefined && startedAt < this.cubic.at + EPISODE_MS && measured >= this.rate) {
			if (retryAfterMs !== undefined) this.closed(now, retryAfterMs);
			return;
		}
		const throttledAt = this.rate === undefined ? measured : Math.min(measured, this.rate);
		const maxRate = throttledAt * MARGIN;
		// Throttled again at about the same rate: a steady limit, probed above less often.
		const steady = this.rate !== undefined && Math.abs(maxRate - this.cubic.maxRate) <= STEADY_SHARE * this.cubic.maxRate;
		const c = steady ? CUBIC_C / STEADY_SLOWER : CUBIC_C;
		this.cubic = { maxRate, k: Math.cbrt((maxRate * (1 - BETA)) / c), at: now, c };
		this.rate = this.capped(Math.max(MIN_RATE, throttledAt * BETA));
	}

	/** Refusals of a closed service in a row that said no wait (none, or `Retry-After: 0`). */
	private shut = 0;

	/**
	 * Holds every request until the service said (at most the bound). A refusal that says no wait
	 * (none, or 0, and the service still refuses) holds a second, then twice as long each time.
	 */
	private closed(now: number, retryAfterMs: number | undefined): void {
		const ms = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : EPISODE_MS * 2 ** Math.min(5, this.shut++);
		this.holdUntil = Math.max(this.holdUntil, now + Math.min(this.maxHoldMs, ms));
	}

	kept(now: number): { accepted: number[]; rate?: LearnedRate } {
		const { rate, cubic } = this;
		const accepted = this.accepted.slice(this.from);
		return rate === undefined ? { accepted } : { accepted, rate: { perSecond: rate, maxRate: cubic.maxRate, k: cubic.k, sinceMs: now - cubic.at, c: cubic.c } };
	}

	resume(accepted: number[], learned: LearnedRate | undefined, now: number): void {
		this.accepted = [...accepted];
		this.from = 0;
		this.since = now;
		if (!learned) return;
		// Probing above the rate of the last throttle when it ended: this run starts at that rate, on the flat of the curve.
		const { perSecond, maxRate, k, sinceMs, c = CUBIC_C } = learned;
		const probing = perSecond > maxRate;
		this.cubic = { maxRate, k, at: now - (probing ? k * 1000 : sinceMs), c };
		this.rate = this.capped(probing ? maxRate : perSecond);
	}

	private forget(now: number): void {
		while (this.from < this.accepted.length && this.accepted[this.from] <= now - SPAN_MS) this.from += 1;
		if (this.from > 1024 && this.from * 2 > this.accepted.length) {
			this.accepted = this.accepted.slice(this.from);
			this.from = 0;
		}
	}

	/**
	 * The rate the service accepted: the answers of the last second (in a run younger than a second,
	 * its answers as the second's), or half those of the last two seconds when fewer. A window
	 * counted per calendar second, read over one second across its edge, holds its whole quota and
	 * the next window's start; over two seconds it reads its quota. Not after a hold (the run sent
	 * nothing for part of those two seconds).
	 */
	private acceptedRate(now: number): number {
		this.forget(now);
		let lastSecond = 0;
		for (let i = this.accepted.length - 1; i >= this.from && this.accepted[i] > now - 1000; i--) lastSecond += 1;
		const twoSeconds = now - this.since >= SPAN_MS && this.holdUntil <= now - SPAN_MS;
		return twoSeconds ? Math.min(lastSecond, (this.accepted.length - this.from) / 2) : lastSecond;
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
