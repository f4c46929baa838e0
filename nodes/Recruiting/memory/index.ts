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

/** Where in the node's context the execution's notebook lives. */
const NOTEBOOK = 'recruitingMemoryNotebook';

export class CandidateMemory {
	private readonly turns = new Map<string, Promise<unknown>>();

	private constructor(
		private readonly slugs: SlugMap,
		private readonly journal: Journal,
		private readonly scope: string,
		private readonly notebook: Record<string, Remembered>,
	) {}

	/**
	 * The execution's memory: the node's slug map, the journal without the claims a saved map
	 * already holds, and the execution's notebook: what this execution remembered, also kept in the
	 * node's context (`getContext('node')`), which n8n keeps in the execution's own data. n8n hands
	 * that data to a try of "Retry On Fail" and to a retry of the failed execution from the
	 * executions list (execution.service `retry`: `executionData: execution.data`), whose static data
	 * may be the one the execution started with: they find there what the failed run created.
	 */
	static async open(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory> {
		const nodeContext = context.getContext('node');
		nodeContext[NOTEBOOK] ??= {};
		const memory = new CandidateMemory(
			new SlugMap(context.getWorkflowStaticData('node')),
			new Journal(context.helpers),
			accountScope(credentials),
			nodeContext[NOTEBOOK] as Record<string, Remembered>,
		);
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
		const saved = this.slugs.get(key);
		const noted = this.notebook[key];
		return noted && (!saved || noted.t >= saved.t) ? noted : saved;
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
		// The notebook holds what this execution changed (not every unchanged row of a large sheet).
		if (this.slugs.set(key, entry)) this.notebook[key] = this.slugs.get(key)!;
	}

	/** Forgets one row (its slug, fingerprints and claim): the next run creates it again. */
	async forget(key: string): Promise<boolean> {
		delete this.notebook[key];
		const known = this.slugs.forget(key);
		await this.journal.release([key]);
		return known;
	}

	/** Forgets every row of this node (all accounts); returns how many rows the map held. */
	async clear(): Promise<number> {
		for (const key of Object.keys(this.notebook)) delete this.notebook[key];
		const count = this.slugs.clear();
		await this.journal.clear();
		return count;
	}

	/** At the end of the run: the execution's claims written again where an overlapping execution dropped them. */
	async repair(): Promise<number> {
		return await this.journal.repair();
	}

	/** The account scope (a hash) the memory is kept under; the sync state carries a few characters of it. */
	get accountScope(): string {
		return this.scope;
	}

	get journalAvailable(): boolean {
		return this.journal.available;
	}
}

/** The fingerprints of a profile update and of records, as the memory compares them. */
export const profilePrint = (fields: IDataObject): string => fingerprint('profile', fields);
export const recordPrint = (type: string, body: IDataObject): string => fingerprint(type, body);
