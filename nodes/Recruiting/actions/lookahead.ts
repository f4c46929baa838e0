/**
 * Prepares items ahead of the ones being sent. Reading an item's parameters (n8n's expression
 * engine), validating it and resolving its names costs CPU; done by the worker that has just
 * received an answer, it would sit between that answer and the next request, one item after
 * another when a batch of answers arrives together. So the router asks the lookahead for each
 * item, and the lookahead prepares the items after the taken ones in the background, one at a
 * time, each after a turn of the event loop (answers that arrived meanwhile are handled first),
 * while requests are in flight.
 *
 * - Items are taken in input order; an item not prepared yet when it is taken is prepared then.
 * - At most `window` items are prepared and not taken (memory stays bounded at any row count); the
 *   window may follow the number of items in flight (Concurrency Mode Auto), asked each time.
 * - A failed preparation is kept as the item's outcome: it counts only when the item is taken,
 *   in its turn, as if it had been prepared then. An item that was only prepared is never sent.
 * - Once the run halts (Stop Workflow, cancellation) nothing more is prepared.
 */
import { sleep } from 'n8n-workflow';

export type Prepared<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(work: Promise<T>): Promise<Prepared<T>> {
	try {
		return { ok: true, value: await work };
	} catch (error) {
		return { ok: false, error };
	}
}

export class Lookahead<T> {
	/** Preparations made ahead and not taken yet, by item index. */
	private readonly ready = new Map<number, Promise<Prepared<T>>>();

	/** The next item to prepare. */
	private cursor = 0;

	/** How many items were taken (they are taken in order). */
	private taken = 0;

	private closed = false;

	private wake?: () => void;

	private readonly running: Promise<void>;

	constructor(
		private readonly count: number,
		private readonly window: number | (() => number),
		private readonly prepare: (index: number) => Promise<T>,
		private readonly halted: () => boolean,
	) {
		this.running = this.prepareAhead();
	}

	/** Item `index`'s preparation: the one made ahead, or one made now. */
	async take(index: number): Promise<Prepared<T>> {
		this.taken = Math.max(this.taken, index + 1);
		let prepared = this.ready.get(index);
		if (prepared) {
			this.ready.delete(index);
		} else {
			this.cursor = Math.max(this.cursor, index + 1);
			prepared = settle(this.prepare(index));
		}
		this.resume();
		return await prepared;
	}

	/** Stops preparing; resolves once no preparation is under way. What was prepared and not taken is dropped. */
	async close(): Promise<void> {
		this.closed = true;
		this.resume();
		await this.running;
		this.ready.clear();
	}

	private resume(): void {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	private get stopping(): boolean {
		return this.closed || this.halted() || this.cursor >= this.count;
	}

	private get size(): number {
		return typeof this.window === 'number' ? this.window : this.window();
	}

	private async prepareAhead(): Promise<void> {
		// A window of 0 (an operation with nothing to prepare): every item is prepared when taken.
		if (this.size <= 0) return;
		while (!this.stopping) {
			if (this.cursor - this.taken >= this.size) {
				// Full: wait until an item is taken (or the lookahead is closed).
				await new Promise<void>((resolve) => (this.wake = resolve));
				continue;
			}
			// A turn of the event loop first: answers (and the requests they free) go before preparation.
			await sleep(0);
			if (this.stopping || this.cursor - this.taken >= this.size) continue;
			const index = this.cursor++;
			const prepared = settle(this.prepare(index));
			this.ready.set(index, prepared);
			await prepared;
		}
	}
}
