/**
 * Concurrency Mode Auto, the quota the service announced (`rateHeaders.ts`), mirrored as a token
 * bucket: `limit` tokens, refilled at `limit` per window. Each answer that announces what remains
 * sets the tokens to it, less the requests still on the wire (they will spend theirs). Each
 * request takes a token before it is sent; without one it waits until the refill gives it one.
 * So a run sends freely while the quota lasts and then at the rate the quota refills, from the
 * first answers on. No wait for a token is longer than 30 s (`MAX_HOLD_MS`).
 *
 * The window: the policy's `w` when said; else (X-RateLimit, which sends none) the longest reset
 * seen in whole seconds (a reset as a Unix time may be up to a second late), at least a second: a
 * fixed window counts its reset down from the window's length, a token
 * bucket says when it is full again.
 */
import { MAX_HOLD_MS } from './law';
import type { Announced } from './rateHeaders';
import { HEADER_BOUNDS } from './rateHeaders';

export interface KeptQuota {
	limit: number;
	windowS: number;
	tokens: number;
	at: number;
}

export class Quota {
	private limit = 0;

	private windowS = 1;

	private tokens = 0;

	private at = 0;

	/** Requests that took a token on credit and wait for it: not on the wire yet, they will spend it. */
	private waiting = 0;

	/** The longest reset seen (X-RateLimit: the window's estimate). */
	private longestReset = 0;

	/** The quota's rate per second (0: none announced). */
	get perSecond(): number {
		return this.limit > 0 ? this.limit / this.windowS : 0;
	}

	/** An answer's announcement; `others`: the requests still on the wire besides the one answered. */
	heard(reading: Announced, others: number, now: number): void {
		if (reading.resetS !== undefined) this.longestReset = Math.max(this.longestReset, reading.resetS);
		const windowS = reading.windowS ?? Math.min(HEADER_BOUNDS.maxWindowS, Math.max(1, Math.floor(this.longestReset)));
		if (this.limit === 0) this.tokens = reading.limit;
		else this.refill(now);
		this.limit = reading.limit;
		this.windowS = windowS;
		this.at = now;
		if (reading.remaining !== undefined) this.tokens = reading.remaining - others - this.waiting;
		this.tokens = Math.min(this.limit, this.tokens);
	}

	/** Takes a token for a request about to be sent: how long it must wait for it (ms; 0 when there is one). */
	take(now: number): number {
		if (this.limit === 0) return 0;
		this.refill(now);
		this.tokens -= 1;
		if (this.tokens >= 0) return 0;
		this.waiting += 1;
		// Never a stall: at most the 30 s of any wait (a quota of 1 a day is not waited out here; the service's 429 says when).
		return Math.min(MAX_HOLD_MS, Math.ceil((-this.tokens * 1000) / this.perSecond));
	}

	/** A request that waited for its token (`take` answered more than 0) is sent now. */
	departed(): void {
		this.waiting = Math.max(0, this.waiting - 1);
	}

	kept(): KeptQuota | undefined {
		return this.limit > 0 ? { limit: this.limit, windowS: this.windowS, tokens: this.tokens, at: this.at } : undefined;
	}

	resume(kept: KeptQuota, now: number): void {
		this.limit = kept.limit;
		this.windowS = kept.windowS;
		this.tokens = kept.tokens;
		this.at = kept.at;
		this.refill(now);
	}

	private refill(now: number): void {
		if (now > this.at) this.tokens = Math.min(this.limit, this.tokens + ((now - this.at) / 1000) * this.perSecond);
		this.at = Math.max(this.at, now);
	}
}
