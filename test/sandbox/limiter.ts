/**
 * How the sandbox counts a rate limit (issue 40), as real services do, and how it announces it:
 * - `bucket`: a token bucket of `limit` tokens refilled continuously at `limit` per window;
 * - `fixed`: a fixed window, aligned on the clock (a window of 1 s counts per calendar second),
 *   `limit` requests per window, the count starting again at the window's end;
 * - `sliding`: a sliding window, at most `limit` requests in any `windowS` seconds (the log of
 *   the requests accepted within the last window).
 * Several policies at once (a burst and a daily quota): a request is accepted when every policy
 * has room, and then counts in each. Only accepted requests count. The clock is given to every
 * call (tests drive it); the server gives `Date.now()`.
 *
 * What is announced per policy: the requests `remaining`, and `resetMs`: for `bucket` the time
 * until it is full again, for `fixed` the time until the window's end, for `sliding` the time
 * until the oldest counted request leaves the window (one more may be sent then).
 */
import type { RateLimitHeaderStyle } from './types';

export const LIMITER_KINDS = ['bucket', 'fixed', 'sliding'] as const;

export type LimiterKind = (typeof LIMITER_KINDS)[number];

export interface RatePolicy {
	name: string;
	limit: number;
	windowS: number;
}

interface Counter {
	/** Whether a request now would be accepted. */
	room(now: number): boolean;
	/** Counts an accepted request. */
	count(now: number): void;
	remaining(now: number): number;
	/** Milliseconds until `remaining` is announced whole (bucket, fixed) or one more (sliding). */
	resetMs(now: number): number;
	/** Milliseconds until a request would be accepted (0: now). */
	retryMs(now: number): number;
}

class Bucket implements Counter {
	private tokens: number;

	private at = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {
		this.tokens = limit;
	}

	private refill(now: number): void {
		if (now > this.at) this.tokens = Math.min(this.limit, this.tokens + ((now - this.at) * this.limit) / this.windowMs);
		this.at = Math.max(this.at, now);
	}

	room(now: number): boolean {
		this.refill(now);
		return this.tokens >= 1;
	}

	count(now: number): void {
		this.refill(now);
		this.tokens -= 1;
	}

	remaining(now: number): number {
		this.refill(now);
		return Math.max(0, Math.floor(this.tokens));
	}

	resetMs(now: number): number {
		this.refill(now);
		return ((this.limit - this.tokens) * this.windowMs) / this.limit;
	}

	retryMs(now: number): number {
		this.refill(now);
		return this.tokens >= 1 ? 0 : ((1 - this.tokens) * this.windowMs) / this.limit;
	}
}

class FixedWindow implements Counter {
	private start = Number.NEGATIVE_INFINITY;

	private used = 0;

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {}

	private roll(now: number): void {
		const start = Math.floor(now / this.windowMs) * this.windowMs;
		if (start !== this.start) {
			this.start = start;
			this.used = 0;
		}
	}

	room(now: number): boolean {
		this.roll(now);
		return this.used < this.limit;
	}

	count(now: number): void {
		this.roll(now);
		this.used += 1;
	}

	remaining(now: number): number {
		this.roll(now);
		return Math.max(0, this.limit - this.used);
	}

	resetMs(now: number): number {
		this.roll(now);
		return this.start + this.windowMs - now;
	}

	retryMs(now: number): number {
		return this.room(now) ? 0 : this.resetMs(now);
	}
}

class SlidingWindow implements Counter {
	/** The times of the accepted requests still in the window, oldest first (a ring of `limit`). */
	private readonly log: number[];

	private head = 0;

	private size = 0;

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {
		this.log = new Array<number>(limit);
	}

	private expire(now: number): void {
		while (this.size > 0 && this.log[this.head] <= now - this.windowMs) {
			this.head = (this.head + 1) % this.limit;
			this.size -= 1;
		}
	}

	room(now: number): boolean {
		this.expire(now);
		return this.size < this.limit;
	}

	count(now: number): void {
		this.expire(now);
		this.log[(this.head + this.size) % this.limit] = now;
		this.size += 1;
	}

	remaining(now: number): number {
		this.expire(now);
		return this.limit - this.size;
	}

	resetMs(now: number): number {
		this.expire(now);
		return this.size === 0 ? 0 : this.log[this.head] + this.windowMs - now;
	}

	retryMs(now: number): number {
		return this.room(now) ? 0 : this.resetMs(now);
	}
}

const COUNTERS: Record<LimiterKind, new (limit: number, windowMs: number) => Counter> = {
	bucket: Bucket,
	fixed: FixedWindow,
	sliding: SlidingWindow,
};

export class Limiter {
	private readonly counters: Array<{ policy: RatePolicy; counter: Counter }>;

	constructor(
		readonly kind: LimiterKind,
		readonly policies: RatePolicy[],
	) {
		this.counters = policies.map((policy) => ({ policy, counter: new COUNTERS[kind](policy.limit, policy.windowS * 1000) }));
	}

	/** Takes a place in every policy and answers undefined, or (one is spent) the Retry-After: whole seconds, at least 1. */
	take(now: number): string | undefined {
		const wait = Math.max(0, ...this.counters.map(({ counter }) => counter.retryMs(now)));
		if (wait === 0 && this.counters.every(({ counter }) => counter.room(now))) {
			for (const { counter } of this.counters) counter.count(now);
			return undefined;
		}
		return String(Math.max(1, Math.ceil(wait / 1000)));
	}

	/** Each policy's state now: remaining and the reset in whole seconds (rounded up). */
	state(now: number): Array<RatePolicy & { remaining: number; resetS: number }> {
		return this.counters.map(({ policy, counter }) => ({ ...policy, remaining: counter.remaining(now), resetS: Math.ceil(counter.resetMs(now) / 1000) }));
	}

	/** The headers announcing the policies in `style`: IETF lists them all; the others name the one with the fewest left. */
	headers(style: RateLimitHeaderStyle, now: number): Record<string, string> {
		const states = this.state(now);
		if (style === 'ietf') {
			return {
				'RateLimit-Policy': states.map((s) => `"${s.name}";q=${s.limit};w=${s.windowS}`).join(', '),
				RateLimit: states.map((s) => `"${s.name}";r=${s.remaining};t=${s.resetS}`).join(', '),
			};
		}
		const tightest = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetS > a.resetS) ? b : a));
		const { limit, remaining, resetS } = tightest;
		switch (style) {
			case 'x':
				return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(resetS) };
			case 'x-unix': {
				const counter = this.counters[states.indexOf(tightest)].counter;
				return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(Math.ceil((now + counter.resetMs(now)) / 1000)) };
			}
			case 'ietf-draft':
				return { 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': String(remaining), 'RateLimit-Reset': String(resetS) };
		}
	}
}

/** `name:limit/windowS` items separated by commas (the command line's `--rate-policies`). */
export function parsePolicies(text: string): RatePolicy[] {
	return text.split(',').map((part) => {
		const match = /^\s*([A-Za-z][\w-]*):(\d+)\/(\d+)\s*$/.exec(part);
		if (!match || Number(match[2]) < 1 || Number(match[3]) < 1) throw new Error(`--rate-policies: "${part}" is not name:limit/seconds (for example burst:100/60)`);
		return { name: match[1], limit: Number(match[2]), windowS: Number(match[3]) };
	});
}
