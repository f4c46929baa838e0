/**
 * The memory of Candidate → Create or Update, behind one small interface: which candidate a row
 * became, and what was last sent for it. Kept per workflow node (by its id) and per service
 * account, in four places, each for what it survives (docs/sync-memory.md):
 *   - the process's registry (registry.ts): shared by overlapping executions of this process;
 *   - the workflow's static data (store.ts): saved by n8n at the end of executions that are not
 *     manual, written only when this execution loaded it;
 *   - the creation journal in n8n's deduplication store (journal.ts): claims of creations, saved
 *     at once, in every process;
 *   - the execution's notebook in the node's context: what this execution changed, which n8n
 *     keeps with the execution for a retry.
 * Keys and prints are hashes (keys.ts). Retry On Fail's memory of one node run lives here too
 * (retry.ts).
 *
 * One `CandidateMemory` per execution (built once through the run context, `open`).
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { Journal } from './journal';
import type { MatchBy } from './keys';
import { accountScope, legacyAccountScope, legacyRowKey, normaliseKey, rowKey, stateScope } from './keys';
import type { Shared } from './registry';
import { sharedMemory } from './registry';
import type { Remembered } from './store';
import { decodeRow, encodeRow, FIELD, LegacyStore, newGeneration, NodeStore, normalRow } from './store';

export type { MatchBy } from './keys';
export { MATCH_BY_LABEL, fingerprint, normaliseKey } from './keys';
export { MAX_ENTRIES, MAX_RECORDS } from './store';
export type { Remembered } from './store';
export { ADDED_BY_EARLIER_TRY, RETRY_MEMORY_KEY, RetryMemory, retryMemory } from './retry';
export type { CreatedBefore } from './retry';

/** The turn key of opening the memory (never a row key: those are base64url). */
const OPENING = ' open';

/** Where in the node's context the execution's notebook lives. */
const NOTEBOOK = 'recruitingMemoryNotebook';

/** The execution hint of an execution that did not load the saved memory. */
export const NOT_LOADED_NOTICE =
	"n8n gave this execution no saved memory of this node (a queue-mode worker of n8n 2.40 or later, or a retry with the original workflow), so nothing was written to the workflow's static data (writing would have replaced what every node of the workflow keeps there). Rows created here are remembered by this n8n process and claimed in n8n's deduplication store; a row that brings its Candidate Slug and Sync State is exact anywhere.";

export class CandidateMemory {
	/** Row key → the key the memory of 0.2.0 and earlier used for it (only when that memory is present). */
	private readonly legacyKeys = new Map<string, string>();

	private ended = false;

	private constructor(
		private readonly storedAtOpen: boolean,
		private readonly creator: boolean,
		private readonly shared: Shared,
		private readonly store: NodeStore,
		private readonly legacy: LegacyStore,
		private readonly journal: Journal,
		private readonly scope: string,
		private readonly legacyScope: string,
		private readonly rowStateScope: string,
		private readonly notebook: Record<string, Remembered>,
		private readonly manual: boolean,
	) {}

	/**
	 * The execution's memory. Reads the node's saved memory from the workflow's static data and
	 * decides whether this execution may write there: not when the static data holds nothing of
	 * this node nor anything else while n8n's deduplication store says an execution n8n saves
	 * created it (n8n then started this execution without the saved copy: writing would replace
	 * every node's static data with a partial copy).
	 *
	 * The notebook is kept in the node's context (`getContext('node')`), which n8n keeps in the
	 * execution's own data: n8n hands it to a try of "Retry On Fail" and to a retry of the failed
	 * execution (execution.service `retry`: `executionData: execution.data`), whose static data may
	 * be the one the execution started with: they find there what the failed run created.
	 */
	static async open(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory> {
		const node = context.getNode();
		const workflowId = String(context.getWorkflow().id ?? '');
		const manual = context.getMode() === 'manual';
		const global = context.getWorkflowStaticData('global');
		const nodeData = context.getWorkflowStaticData('node');
		const journal = new Journal(context.helpers);
		const legacyPresent = (nodeData[FIELD] as IDataObject | undefined)?.v === 1;

		const scope = accountScope(credentials, node.credentials?.recruitingApi?.id ?? undefined);
		const shared = sharedMemory(workflowId, node.id, scope);
		let writable = true;
		let creator = false;
		const loaded = new NodeStore(global, node.id, false).loaded || legacyPresent || Object.keys(global).length > 0;
		if (!loaded && !manual && journal.available) {
			// Nothing of this node in the static data: the first execution that saves it (or one that
			// overlaps the first in this process, from the same empty copy), or one n8n started without
			// it. Asked in turn with the other executions of this process that open now.
			await shared.inTurn(OPENING, async () => {
				let marked = true;
				try {
					marked = await journal.markSaved();
				} catch {
					// n8n's store did not answer: write nothing rather than risk the other nodes' static data.
				}
				writable = !marked || shared.creatorRunning;
				creator = !marked;
				if (creator) shared.startCreating();
			});
		}
		const store = new NodeStore(global, node.id, writable);
		if (!loaded && !manual && writable && journal.available) {
			store.create(shared.generation);
			shared.generation = store.generation;
		}
		if (store.loaded) {
			if (shared.generation === undefined) shared.generation = store.generation;
			else if (shared.generation !== store.generation && shared.running === 0) shared.reset(store.generation);
		}
		if (shared.running === 0) {
			// No execution of this process runs with an older copy: what the saved copy holds need not be carried further.
			for (const [key, learned] of shared.learned) if (store.raw(key) === learned.encoded) shared.learned.delete(key);
			for (const key of shared.forgotten) if (store.raw(key) === undefined) shared.forgotten.delete(key);
		}
		shared.running += 1;

		const nodeContext = context.getContext('node');
		nodeContext[NOTEBOOK] ??= {};
		const memory = new CandidateMemory(
			store.loaded,
			creator,
			shared,
			store,
			new LegacyStore(nodeData, writable),
			journal,
			scope,
			legacyAccountScope(credentials),
			stateScope(credentials),
			nodeContext[NOTEBOOK] as Record<string, Remembered>,
			manual,
		);
		if (!writable && typeof context.addExecutionHints === 'function') {
			context.addExecutionHints({ message: NOT_LOADED_NOTICE, location: 'outputPane' });
		}
		try {
			await journal.release(store.takePrune());
		} catch {
			// The claims stay in n8n's store (rows the saved copy holds are never created again anyway).
		}
		return memory;
	}

	/**
	 * Why this execution's memory is not saved in the workflow's static data (undefined: it is, or
	 * it is a manual execution, which n8n never saves). The execution hint's text.
	 */
	get notice(): string | undefined {
		return this.store.writable ? undefined : NOT_LOADED_NOTICE;
	}

	/** The memory key of a row (hashed with the account scope); '' when the row has no key value. */
	keyOf(matchBy: MatchBy, value: unknown): string {
		const normalised = normaliseKey(matchBy, value);
		if (normalised === '') return '';
		const key = rowKey(this.scope, matchBy, normalised);
		if (this.legacy.present && !this.legacyKeys.has(key)) this.legacyKeys.set(key, legacyRowKey(this.legacyScope, matchBy, normalised));
		return key;
	}

	/** Runs `work` for a row key after the work for that key already in line, in this execution or an overlapping one of this process. */
	async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
		return await this.shared.inTurn(key, work);
	}

	/** What the memory knows of a row: learned in this process, saved, noted by this execution, or kept by 0.2.0 and earlier. */
	recall(key: string): Remembered | undefined {
		const learned = this.shared.learned.get(key);
		if (learned) return decodeRow(learned.encoded);
		if (this.shared.forgotten.has(key)) return undefined;
		const stored = this.store.get(key);
		const noted = this.notebook[key];
		// The notebook (an earlier try of this execution, or the failed execution a retry continues) and the saved
		// copy may each hold what the other missed: for the same candidate, every record either knows was sent.
		if (stored && noted && stored.s === noted.s) return { s: noted.s, p: noted.p ?? stored.p, r: [...new Set([...(stored.r ?? []), ...(noted.r ?? [])])] };
		if (noted ?? stored) return noted ?? stored;
		const legacyKey = this.legacyKeys.get(key);
		const old = legacyKey === undefined ? undefined : this.legacy.get(legacyKey);
		return old ? normalRow(old) : undefined;
	}

	/** Before a creation: false when another execution claimed this row and its slug was never saved. */
	async claim(key: string): Promise<boolean> {
		return await this.journal.claim(key);
	}

	/** After a creation the service refused (nothing exists): the row may be created again. */
	async unclaim(key: string): Promise<void> {
		await this.journal.release([key]);
	}

	/** Remembers what reached the service for a row; writes nothing when the memory already holds it so. */
	remember(key: string, entry: Remembered): void {
		if (typeof entry.s !== 'string' || entry.s === '') return;
		const encoded = encodeRow(entry);
		const legacyKey = this.legacyKeys.get(key);
		const known = this.shared.learned.get(key)?.encoded ?? (this.shared.forgotten.has(key) ? undefined : this.store.raw(key));
		if (known === encoded && legacyKey === undefined) return;
		if (known !== encoded) {
			this.shared.learn(key, { encoded });
			// The notebook holds what this execution changed (not every unchanged row of a large sheet).
			this.notebook[key] = decodeRow(encoded)!;
		}
		this.store.set(key, encoded);
		if (legacyKey !== undefined) this.legacy.moved(legacyKey);
	}

	/** Forgets one row (its slug, prints and claim): the next run creates it again. */
	async forget(key: string): Promise<boolean> {
		const known = this.recall(key) !== undefined;
		delete this.notebook[key];
		this.shared.forget(key);
		this.store.forget(key);
		const legacyKey = this.legacyKeys.get(key);
		if (legacyKey !== undefined) this.legacy.moved(legacyKey);
		await this.journal.release([key]);
		return known;
	}

	/** Forgets every row of this node (all accounts); returns how many rows the saved memory held. */
	async clear(): Promise<number> {
		for (const key of Object.keys(this.notebook)) delete this.notebook[key];
		const generation = newGeneration();
		const count = Math.max(this.store.count, this.shared.learned.size);
		this.shared.reset(generation);
		this.store.clear(generation);
		this.legacy.clear();
		await this.journal.clear();
		// The journal's mark went with it: set it again when this execution's static data is saved with the memory in it.
		if (this.store.writable && this.store.loaded && !this.manual) await this.journal.markSaved();
		return count;
	}

	/**
	 * At the end of the run: every row this process learned (in any execution) goes into this
	 * execution's static data where it differs, so whichever execution n8n saves last holds them
	 * all; then the execution's claims are written again where an overlapping execution dropped them.
	 */
	async repair(): Promise<number> {
		if (!this.ended) {
			this.ended = true;
			try {
				if (this.store.writable) {
					for (const [key, learned] of this.shared.learned) if (this.store.raw(key) !== learned.encoded) this.store.set(key, learned.encoded);
					for (const key of this.shared.forgotten) this.store.forget(key);
					this.store.noteWrites();
					// The memory began in this execution's static data (beside other data, or over 0.2.0's): n8n saves it, so mark it.
					if (!this.storedAtOpen && this.store.loaded && !this.manual) await this.journal.markSaved();
				}
			} finally {
				this.shared.running = Math.max(0, this.shared.running - 1);
				if (this.creator) this.shared.creating = Math.max(0, this.shared.creating - 1);
			}
		}
		return await this.journal.repair();
	}

	/** The account scope (a hash) the memory is kept under: the n8n credential and its login. */
	get accountScope(): string {
		return this.scope;
	}

	/**
	 * The scope (a hash) of the rows' sync state: the service account (its address and login, or
	 * for a token or key its address and the mode), not the n8n credential, so that another
	 * credential of the same login, on this n8n instance or another, takes the state. The sync
	 * state carries a few characters of it.
	 */
	get stateScope(): string {
		return this.rowStateScope;
	}

	get journalAvailable(): boolean {
		return this.journal.available;
	}
}

/**
 * The prints of a profile update and of records, as the memory compares and keeps them: short
 * forms of `fingerprint` (6 and 4 bytes; among the few records of one row two prints meet with a
 * chance of about 1 in a billion). Compare what `recall` gives with these, not with `fingerprint`.
 */
export { profilePrint, recordPrint } from './syncState';
