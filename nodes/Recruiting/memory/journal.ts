/**
 * The creation journal: n8n's deduplication store (`this.helpers.checkProcessedAndRecord`, scope
 * 'node', mode 'entries'), written to n8n's database at once, in manual executions too, and
 * shared by every queue-mode worker. It holds a hash of each row key whose candidate this node
 * is creating or created, claimed before the creation is sent. A key claimed there but missing
 * from the slug map was created by an execution whose map n8n did not save (a manual execution,
 * a worker that died, an overlapping execution that saved over it): it is never created again.
 *
 * n8n's store keeps only hashes (so no slug), reads and rewrites its whole list per call, without
 * a lock. So claims made while a call is under way wait and go together in the next call, and
 * claims whose slug a saved map holds are removed at the start of a later execution: the list
 * holds about one execution's creations, not the whole memory.
 */
import type { DeduplicationHelperFunctions, ICheckProcessedOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

const OPTIONS: ICheckProcessedOptions = { mode: 'entries' };

/** How often a write repeats every claim of the execution, and how far back it always repeats them (see `mine`). */
const REPEAT_MS = 10_000;
const RECENT_MS = 5_000;

type Helpers = Partial<Pick<DeduplicationHelperFunctions, 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems'>>;

interface Waiting {
	value: string;
	resolve: (taken: boolean) => void;
	reject: (error: unknown) => void;
}

const claimOf = (key: string) => `claim:${key}`;

/** The journal's mark that an execution that saves its static data created this node's memory there. */
const SAVED_MARK = 'memory:saved';

export class Journal {
	private waiting: Waiting[] = [];

	private writing?: Promise<void>;

	/**
	 * The claims this execution holds. n8n's store rewrites its whole list without a lock, so an
	 * overlapping execution's write can drop the claims written while its own call was under way
	 * (a lost update): the newest ones. So every write repeats the claims of the last
	 * `RECENT_MS`, and all of them once `REPEAT_MS` have passed since it last did; `repair` writes
	 * them all again at the end of the run until none is missing. (Repeating all of them in every
	 * write made a 10,000-row execution's calls pass 50 million values: its CPU grew with the
	 * square of its rows.)
	 */
	private readonly mine = new Set<string>();

	/** This execution's claims of the last `RECENT_MS`, oldest first, with when they were made (ms since 1970). */
	private recent: Array<{ value: string; at: number }> = [];

	/** When a write last repeated every claim of this execution (ms since 1970). */
	private repeatedAt = Date.now();

	constructor(private readonly helpers: Helpers) {}

	/** Whether this n8n has the deduplication store (n8n 1.64 and later; not in every context). */
	get available(): boolean {
		return typeof this.helpers.checkProcessedAndRecord === 'function';
	}

	/**
	 * Whether n8n's store holds the mark that this node's memory was created in the workflow's
	 * static data by an execution n8n saves; records the mark when it was missing.
	 */
	async markSaved(): Promise<boolean> {
		if (!this.available) return false;
		const { processed } = await this.record([SAVED_MARK]);
		return processed.length > 0;
	}

	/** Claims a row key before its creation: false when it was claimed already (by any execution). */
	async claim(key: string): Promise<boolean> {
		if (!this.available) return true;
		const claimed = new Promise<boolean>((resolve, reject) => this.waiting.push({ value: claimOf(key), resolve: (taken) => resolve(!taken), reject }));
		this.writing ??= this.flush();
		return await claimed;
	}

	/** Writes every waiting claim in one call, then those that came meanwhile, until none waits. */
	private async flush(): Promise<void> {
		try {
			while (this.waiting.length > 0) {
				const batch = this.waiting;
				this.waiting = [];
				try {
					const fresh = batch.map((entry) => entry.value).filter((value) => !this.mine.has(value));
					const values = [...this.repeated(), ...fresh];
					const { processed } = values.length > 0 ? await this.record(values) : { processed: [] };
					const taken = new Set(processed.map(String));
					for (const entry of batch) {
						const claimedElsewhere = !this.mine.has(entry.value) && taken.has(entry.value);
						if (!claimedElsewhere && !this.mine.has(entry.value)) {
							this.mine.add(entry.value);
							this.recent.push({ value: entry.value, at: Date.now() });
						}
						entry.resolve(claimedElsewhere);
					}
				} catch (error) {
					for (const entry of batch) entry.reject(error);
				}
			}
		} finally {
			this.writing = undefined;
		}
	}

	/** The claims a write repeats: all of them every `REPEAT_MS`, else those of the last `RECENT_MS`. */
	private repeated(): string[] {
		const now = Date.now();
		if (now - this.repeatedAt >= REPEAT_MS) {
			this.repeatedAt = now;
			return [...this.mine];
		}
		let old = 0;
		while (old < this.recent.length && now - this.recent[old].at > RECENT_MS) old++;
		if (old > 0) this.recent = this.recent.slice(old);
		return this.recent.map(({ value }) => value).filter((value) => this.mine.has(value));
	}

	/** One call to n8n's store; once more when two executions created its row at the same moment. */
	private async record(values: string[]) {
		const { helpers } = this;
		try {
			return await helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
		} catch {
			return await helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
		}
	}

	/**
	 * At the end of the run: writes this execution's claims again until n8n's store holds them all
	 * (an overlapping execution may have written over them). A few tries, a short random wait apart.
	 */
	async repair(): Promise<number> {
		if (!this.available || this.mine.size === 0) return 0;
		let restored = 0;
		for (let tries = 0; tries < 5; tries++) {
			await (this.writing ?? Promise.resolve());
			const lost = (await this.record([...this.mine])).new.length;
			restored += lost;
			if (lost === 0) break;
			await sleep(20 + Math.floor(Math.random() * 100));
		}
		return restored;
	}

	/** Removes claims: a creation the service refused, a forgotten row, or rows the saved map holds. */
	async release(keys: string[]): Promise<void> {
		for (const key of keys) this.mine.delete(claimOf(key));
		if (keys.length === 0 || typeof this.helpers.removeProcessed !== 'function') return;
		await this.helpers.removeProcessed(keys.map(claimOf), 'node', OPTIONS);
	}

	async clear(): Promise<void> {
		if (typeof this.helpers.clearAllProcessedItems !== 'function') return;
		await this.helpers.clearAllProcessedItems('node', OPTIONS);
	}
}
