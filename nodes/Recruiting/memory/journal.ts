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

const OPTIONS: ICheckProcessedOptions = { mode: 'entries' };

type Helpers = Partial<Pick<DeduplicationHelperFunctions, 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems'>>;

interface Waiting {
	value: string;
	resolve: (taken: boolean) => void;
	reject: (error: unknown) => void;
}

const claimOf = (key: string) => `claim:${key}`;

export class Journal {
	private waiting: Waiting[] = [];

	private writing?: Promise<void>;

	constructor(private readonly helpers: Helpers) {}

	/** Whether this n8n has the deduplication store (n8n 1.64 and later; not in every context). */
	get available(): boolean {
		return typeof this.helpers.checkProcessedAndRecord === 'function';
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
					const { processed } = await this.record(batch.map((entry) => entry.value));
					const taken = new Set(processed.map(String));
					for (const entry of batch) entry.resolve(taken.has(entry.value));
				} catch (error) {
					for (const entry of batch) entry.reject(error);
				}
			}
		} finally {
			this.writing = undefined;
		}
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

	/** Removes claims: a creation the service refused, a forgotten row, or rows the saved map holds. */
	async release(keys: string[]): Promise<void> {
		if (keys.length === 0 || typeof this.helpers.removeProcessed !== 'function') return;
		await this.helpers.removeProcessed(keys.map(claimOf), 'node', OPTIONS);
	}

	async clear(): Promise<void> {
		if (typeof this.helpers.clearAllProcessedItems !== 'function') return;
		await this.helpers.clearAllProcessedItems('node', OPTIONS);
	}
}
