/**
 * The requests-per-second cap of one execution, and the one way the transport waits.
 *
 * Requests take turns; each starts at least one interval after the previous one actually
 * started, so a timer that fires late delays the following requests instead of letting them
 * start in a burst. A request that logs in first sends two requests back to back (the login,
 * then itself): it takes a double turn, so the cap holds in every window of one second.
 */
import { sleep } from 'n8n-workflow';

export type Waiter = (ms: number) => Promise<void>;

/** A wait that ends early when `cancelled()` turns true (checked every 100 ms). */
export function cancellableWait(cancelled: () => boolean): Waiter {
	return async (ms: number) => {
		const until = Date.now() + ms;
		while (!cancelled()) {
			const left = until - Date.now();
			if (left <= 0) return;
			await sleep(Math.min(100, left));
		}
	};
}

export class Pacer {
	private lastStart = Number.NEGATIVE_INFINITY;

	private queue: Promise<void> = Promise.resolve();

	constructor(private readonly intervalMs: number) {}

	/** Waits for this request's turn: one interval after the last start (two for a login and its request). */
	async turn(wait: Waiter, requests: 1 | 2 = 1): Promise<void> {
		if (this.intervalMs <= 0) return;
		const mine = this.queue.then(async () => {
			const due = this.lastStart + requests * this.intervalMs - Date.now();
			if (due > 0) await wait(due);
			// A login and its request: the request's slot is reserved one interval after the login's.
			this.lastStart = Date.now() + (requests - 1) * this.intervalMs;
		});
		this.queue = mine.catch(() => undefined);
		await mine;
	}

	/** Called when a login and its request have returned: the next turn counts from now. */
	settle(): void {
		if (this.intervalMs > 0) this.lastStart = Math.max(this.lastStart, Date.now());
	}
}
