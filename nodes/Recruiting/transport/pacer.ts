/**
 * The requests-per-second cap of one execution, and the one way the transport waits.
 *
 * Requests take turns; each starts at least one interval after the previous one actually
 * started, so a timer that fires late delays the following requests instead of letting them
 * start in a burst. A login is a request of its own here: under a cap the transport sends it
 * alone (see `sendLoggingIn`), so it takes one turn and the request that needed it the next.
 *
 * Both are durations, read from the time that passes (`performance.now()`), not the wall clock:
 * a wall clock set back by a minute (an NTP step) stretched a wait by a minute
 * (test/unit/pacerClock.test.ts).
 */
import { sleep } from 'n8n-workflow';

export type Waiter = (ms: number) => Promise<void>;

/** A wait that ends early when `cancelled()` turns true (checked every 100 ms). */
export function cancellableWait(cancelled: () => boolean): Waiter {
	return async (ms: number) => {
		const until = performance.now() + ms;
		while (!cancelled()) {
			const left = until - performance.now();
			if (left <= 0) return;
			await sleep(Math.min(100, left));
		}
	};
}

export class Pacer {
	private lastStart = Number.NEGATIVE_INFINITY;

	private queue: Promise<void> = Promise.resolve();

	/** `interval`: milliseconds between two starts, fixed (the user's cap) or asked at each turn (a learned rate); 0 = none. */
	constructor(private readonly interval: number | (() => number)) {}

	private get intervalMs(): number {
		return typeof this.interval === 'number' ? this.interval : this.interval();
	}

	/** Whether a cap is set. */
	get capped(): boolean {
		return this.intervalMs > 0;
	}

	/** Waits for this request's turn: one interval after the last start. */
	async turn(wait: Waiter): Promise<void> {
		if (this.intervalMs <= 0) return;
		const mine = this.queue.then(async () => {
			const due = this.lastStart + this.intervalMs - performance.now();
			if (due > 0) await wait(due);
			this.lastStart = performance.now();
		});
		this.queue = mine.catch(() => undefined);
		await mine;
	}
}
