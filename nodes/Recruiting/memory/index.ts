/**
 * The memory of Candidate → Create or Update, behind one small interface: which candidate a row
 * became, and what was last sent for it. Kept per workflow node and per service account, in n8n's
 * database: the slug map in the node's static data (slugs.ts), the creation journal in n8n's
 * deduplication store (journal.ts); keys and fingerprints are hashes (keys.ts).
 *
 * One `CandidateMemory` per execution (built once through the run context). Rows with the same
 * key in one execution take turns, so the second sees what the first remembered.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { Journal } from './journal';
import type { MatchBy } from './keys';
import { accountScope, fingerprint, normaliseKey, rowKey } from './keys';
import type { Remembered } from './slugs';
import { SlugMap } from './slugs';

export type { MatchBy } from './keys';
export { MATCH_BY_LABEL, fingerprint, normaliseKey } from './keys';
export { MAX_ENTRIES } from './slugs';
export type { Remembered } from './slugs';

export class CandidateMemory {
	private readonly turns = new Map<string, Promise<unknown>>();

	private constructor(
		private readonly slugs: SlugMap,
		private readonly journal: Journal,
		private readonly scope: string,
	) {}

	/** The execution's memory: the node's slug map, and the journal without the claims a saved map already holds. */
	static async open(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory> {
		const memory = new CandidateMemory(new SlugMap(context.getWorkflowStaticData('node')), new Journal(context.helpers), accountScope(credentials));
		await memory.journal.release(memory.slugs.takePrune());
		return memory;
	}

	/** The memory key of a row (hashed with the account scope); '' when the row has no key value. */
	keyOf(matchBy: MatchBy, value: unknown): string {
		const normalised = normaliseKey(matchBy, value);
		return normalised === '' ? '' : rowKey(this.scope, matchBy, normalised);
	}

	/** Runs `work` for a row key after the earlier rows with the same key in this execution. */
	async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
		const before = this.turns.get(key) ?? Promise.resolve();
		const mine = before.catch(() => undefined).then(work);
		this.turns.set(key, mine);
		try {
			return await mine;
		} finally {
			if (this.turns.get(key) === mine) this.turns.delete(key);
		}
	}

	recall(key: string): Remembered | undefined {
		return this.slugs.get(key);
	}

	/** Before a creation: false when another execution claimed this row and its slug was never saved. */
	async claim(key: string): Promise<boolean> {
		return await this.journal.claim(key);
	}

	/** After a creation the service refused (nothing exists): the row may be created again. */
	async unclaim(key: string): Promise<void> {
		await this.journal.release([key]);
	}

	remember(key: string, entry: Omit<Remembered, 't'>): void {
		this.slugs.set(key, entry);
	}

	/** Forgets one row (its slug, fingerprints and claim): the next run creates it again. */
	async forget(key: string): Promise<boolean> {
		const known = this.slugs.forget(key);
		await this.journal.release([key]);
		return known;
	}

	/** Forgets every row of this node (all accounts); returns how many rows the map held. */
	async clear(): Promise<number> {
		const count = this.slugs.clear();
		await this.journal.clear();
		return count;
	}

	get journalAvailable(): boolean {
		return this.journal.available;
	}
}

/** The fingerprints of a profile update and of records, as the memory compares them. */
export const profilePrint = (fields: IDataObject): string => fingerprint('profile', fields);
export const recordPrint = (type: string, body: IDataObject): string => fingerprint(type, body);
