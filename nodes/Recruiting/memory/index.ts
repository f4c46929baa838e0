/**
 * The memory of Candidate → Create or Update, behind one small interface: which candidate a row
 * became, and what was last sent for it. Kept per workflow node (by its id) and per service
 * account, in four places, each for what it survives (docs/sync-memory.md):
 *   - the process's registry (registry.ts): shared by overlapping executions of this process;
 *   - the workflow's static data (store.ts): saved by n8n at the end of executions that are not
 *     manual, written only when this execution loaded it;
 *   - the journal in n8n's deduplication store (journal.ts): a claim per known row, saved at once,
 *     in every process: the one place that says which rows are known (a forget removes claims);
 *   - the execution's notebook in the node's context: what this execution changed, which n8n
 *     keeps with the execution for a retry.
 * Keys and prints are hashes (keys.ts). Retry On Fail's memory of one node run lives here too
 * (retry.ts).
 *
 * One `CandidateMemory` per execution (built once through the run context, `open`).
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Journal } from './journal';
import type { Explained } from './marks';
import type { MatchBy } from './keys';
import { accountScope, legacyAccountScope, legacyRowKey, normaliseKey, rowKey, stateScope } from './keys';
import type { Registry } from './registry';
import { peekSharedMemory, processRegistry, Shared } from './registry';
import type { StoreHelpers } from './storeCalls';
import type { Remembered } from './store';
import { decodeRow, encodeRow, FIELD, LegacyStore, NodeStore, normalRow } from './store';

export type { MatchBy } from './keys';
export { MATCH_BY_LABEL, fingerprint, normaliseKey } from './keys';
export { MIN_WAIT_MS } from './journal';
export { MAX_ENTRIES, MAX_RECORDS } from './store';
export type { Remembered } from './store';
export { ADDED_BY_EARLIER_TRY, RETRY_MEMORY_KEY, RetryMemory, readOnlyRetryMemory, retryMemory } from './retry';
export type { CreatedBefore } from './retry';

/** Where in the node's context the execution's notebook lives. */
const NOTEBOOK = 'recruitingMemoryNotebook';

/** The execution hint of an execution that did not load the saved memory. */
export const NOT_LOADED_NOTICE =
	"n8n gave this execution no saved memory of this node (a queue-mode worker of n8n 2.40 or later, a retry with the original workflow, or an execution of an inactive workflow that is not a sub-workflow), so nothing was written to the workflow's static data (writing would have replaced what every node of the workflow keeps there). Rows created here are remembered by this n8n process and claimed in n8n's deduplication store; a row that brings its Candidate Slug and Sync State is exact anywhere.";

/**
 * Whether n8n gave this execution the workflow's saved static data (and saves it after). A
 * regular instance builds a production execution's workflow from the workflow's row: active,
 * with its static data. A queue worker of n8n 2.40 and later (scaling/job-processor) and a retry
 * with the original workflow build it from the execution's snapshot, which keeps neither the
 * static data nor `active`/`activeVersionId` (execution-data/types `toWorkflowSnapshot`), so the
 * node sees `active: false`. A sub-workflow (mode `integrated`) loads its static data from the
 * workflow's row everywhere; a manual execution reads the saved copy and is never saved.
 */
const loadsSavedCopy = (context: IExecuteFunctions) => ['manual', 'integrated'].includes(context.getMode()) || context.getWorkflow().active === true;

/** What n8n gives an execution that the memory uses (`CandidateMemory.openIn`). */
export interface MemoryHost {
	workflowId: string;
	nodeId: string;
	/** The n8n credential's id (the memory is kept per credential and login). */
	credentialId: string | undefined;
	/** The workflow's global static data, and the node's (where 0.2.0 kept its memory). */
	staticData: IDataObject;
	nodeStaticData: IDataObject;
	/** The node's context in the execution's data (the notebook lives there). */
	nodeContext: IDataObject;
	/** n8n's deduplication helpers. */
	helpers: StoreHelpers;
	/** Whether n8n gave this execution the saved copy of the static data (and saves what changed). */
	writable: boolean;
	/** Adds an execution hint. */
	hint?: (message: string) => void;
}

/**
 * What a row without a known slug may do (`admit`): be created, be `unchanged` (sent before with
 * this content), or be refused for the reason given.
 */
export type Admission = 'create' | 'same' | 'unsure' | 'held' | 'busy' | 'sent' | 'old';

export class CandidateMemory {
	/** Row key → the key the memory of 0.2.0 and earlier used for it (only when that memory is present). */
	private readonly legacyKeys = new Map<string, string>();

	/** Rows this execution remembered (their entries count whatever the journal answered before). */
	private readonly own = new Set<string>();

	private ended = false;

	/** This execution's visit of the process's journal (journal.ts `begin`). */
	private readonly visit: number;

	private constructor(
		private readonly shared: Shared,
		private readonly store: NodeStore,
		private readonly legacy: LegacyStore,
		private readonly scope: string,
		private readonly legacyScope: string,
		private readonly rowStateScope: string,
		private readonly notebook: Record<string, Remembered>,
	) {
		this.visit = shared.journal.begin();
	}

	private get journal(): Journal {
		return this.shared.journal;
	}

	/**
	 * The execution's memory. Reads the node's saved memory from the workflow's static data, and
	 * writes there only when n8n gave this execution the saved copy (`loadsSavedCopy`): writing
	 * into a copy n8n did not load would replace every node's static data with a partial one.
	 *
	 * The notebook is kept in the node's context (`getContext('node')`), which n8n keeps in the
	 * execution's own data: n8n hands it to a try of "Retry On Fail" and to a retry of the failed
	 * execution (execution.service `retry`: `executionData: execution.data`), whose static data may
	 * be the one the execution started with: they find there what the failed run created.
	 */
	static async open(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory> {
		const node = context.getNode();
		const hint = typeof context.addExecutionHints === 'function' ? (message: string) => context.addExecutionHints({ message, location: 'outputPane' }) : undefined;
		return CandidateMemory.openIn(processRegistry(), credentials, {
			workflowId: String(context.getWorkflow().id ?? ''),
			nodeId: node.id,
			credentialId: node.credentials?.recruitingApi?.id ?? undefined,
			staticData: context.getWorkflowStaticData('global'),
			nodeStaticData: context.getWorkflowStaticData('node'),
			nodeContext: context.getContext('node'),
			helpers: context.helpers,
			writable: loadsSavedCopy(context),
			hint,
		});
	}

	/** The execution's memory from what n8n gives the execution (`open`; a simulation gives its own, and its own registry per process). */
	static openIn(registry: Registry, credentials: ICredentialDataDecryptedObject, host: MemoryHost): CandidateMemory {
		const scope = accountScope(credentials, host.credentialId);
		const shared = registry.open(host.workflowId, host.nodeId, scope);
		shared.journal.use(host.helpers);
		const store = new NodeStore(host.staticData, host.nodeId, host.writable);
		const legacy = new LegacyStore(host.nodeStaticData, host.writable);
		if (shared.running === 0) {
			// No execution of this process runs with an older copy: what the saved copy holds need not be carried further.
			for (const [key, learned] of shared.learned) if (store.raw(key) === learned.encoded) shared.learned.delete(key);
		}
		shared.running += 1;
		host.nodeContext[NOTEBOOK] ??= {};
		if (!host.writable) host.hint?.(NOT_LOADED_NOTICE);
		const notebook = host.nodeContext[NOTEBOOK] as Record<string, Remembered>;
		return new CandidateMemory(shared, store, legacy, scope, legacyAccountScope(credentials), stateScope(credentials), notebook);
	}

	/**
	 * The read-only door, for a dry run: what a real execution of the node would read (the saved
	 * copy, the rows this process learned, this execution's notebook), as copies. Nothing shared is
	 * handed anything: the process's registry is only looked at (not opened, not counted), its
	 * journal is not given this execution's helpers, and n8n's store is never called. What the plan
	 * remembers stays in these copies, so a row given twice is planned as a real run does it.
	 * Whether the journal holds a row's claim cannot be read without writing it (the plan says so).
	 */
	static readOnly(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject, nodeId = context.getNode().id): CandidateMemory {
		const node = context.getNode();
		const scope = accountScope(credentials, node.credentials?.recruitingApi?.id ?? undefined);
		const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;
		// A detached Shared: its journal has no helpers (no claim) and it is in no registry.
		const shared = new Shared();
		const peeked = peekSharedMemory(String(context.getWorkflow().id ?? ''), nodeId, scope);
		for (const [key, learned] of peeked?.learned ?? []) shared.learned.set(key, learned);
		for (const [key, saved] of peeked?.forgotten ?? []) shared.forgotten.set(key, saved);
		const store = new NodeStore(copy(context.getWorkflowStaticData('global')), nodeId, false);
		const legacy = new LegacyStore(copy(nodeId === node.id ? context.getWorkflowStaticData('node') : {}), false);
		const notebook = nodeId === node.id ? copy((context.getContext('node')[NOTEBOOK] ?? {}) as Record<string, Remembered>) : {};
		return new CandidateMemory(shared, store, legacy, scope, legacyAccountScope(credentials), stateScope(credentials), notebook);
	}

	/** The ids of the other nodes of the workflow whose memory n8n saved (for a dry run's note on a row another node knows). */
	static otherNodes(context: IExecuteFunctions): string[] {
		const saved = context.getWorkflowStaticData('global')[FIELD] as Record<string, unknown> | undefined;
		return Object.keys(saved ?? {}).filter((id) => id !== context.getNode().id);
	}

	/**
	 * Why this execution's memory is not saved in the workflow's static data (undefined: it is, or
	 * it is a manual execution, which n8n never saves). The execution hint's text.
	 */
	get notice(): string | undefined {
		return this.store.writable ? undefined : NOT_LOADED_NOTICE;
	}

	/**
	 * The memory key of a row (hashed with the account scope); '' when the row has no key value.
	 * Asks the journal about the row at once, in the background (the operation prepares rows ahead
	 * of the ones it sends), so that its answer, and a new row's claim, are ready when it is sent.
	 */
	keyOf(matchBy: MatchBy, value: unknown): string {
		const normalised = normaliseKey(matchBy, value);
		if (normalised === '') return '';
		const key = rowKey(this.scope, matchBy, normalised);
		if (this.legacy.present && !this.legacyKeys.has(key)) this.legacyKeys.set(key, legacyRowKey(this.legacyScope, matchBy, normalised));
		this.journal.standing(key, this.visit).catch(() => undefined);
		return key;
	}

	/**
	 * Runs `work` for a row key after the work for that key already in line in this process; for a
	 * row the memory holds, once the journal answered (a row it does not hold waits at `claim`).
	 */
	async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
		return await this.shared.inTurn(key, async () => {
			const held = this.shared.learned.has(key) || this.store.raw(key) !== undefined || this.notebook[key] !== undefined || this.legacyKeys.has(key);
			if (held) await this.journal.standing(key, this.visit);
			return await work();
		});
	}

	/** Whether an entry kept before the journal held every row counts without its claim. */
	private trusted(key: string): boolean {
		return (this.store.trusted && this.store.raw(key) !== undefined) || this.legacyKeys.has(key);
	}

	/**
	 * What the memory knows of a row: learned in this process, saved, noted by this execution, or
	 * kept by 0.2.0 and earlier; nothing when the journal no longer held the row's claim (it was
	 * forgotten: this process has claimed it again to create it).
	 */
	recall(key: string): Remembered | undefined {
		const learned = this.shared.learned.get(key);
		if (learned) return decodeRow(learned.encoded);
		if (this.journal.answered(key) === 'mine' && !this.own.has(key) && !this.trusted(key)) return undefined;
		const forgotten = this.shared.forgotten.has(key) && this.shared.forgotten.get(key) === this.store.raw(key);
		const stored = forgotten ? undefined : this.store.get(key);
		const noted = this.notebook[key];
		// The notebook (an earlier try of this execution, or the failed execution a retry continues) and the saved
		// copy may each hold what the other missed: for the same candidate, every record either knows was sent.
		if (stored && noted && stored.s === noted.s) return { s: noted.s, p: noted.p ?? stored.p, r: [...new Set([...(stored.r ?? []), ...(noted.r ?? [])])], d: noted.d ?? stored.d };
		if (noted ?? stored) return noted ?? stored;
		const legacyKey = this.legacyKeys.get(key);
		const old = legacyKey === undefined ? undefined : this.legacy.get(legacyKey);
		return old ? normalRow(old) : undefined;
	}

	/**
	 * Before a creation: false when the row's claim is another's (another execution creates or
	 * created it, or it is known without a slug here), or when an execution of this process sent
	 * its creation without learning the outcome (`held`).
	 */
	async claim(key: string): Promise<boolean> {
		return await this.journal.claim(key, this.visit);
	}

	/**
	 * A row whose slug is not known here, before it is sent: `create` when this execution holds its
	 * claim (a new row, or a stranded claim taken over), `same` when it was sent before with this
	 * content, else why not (docs/sync-memory.md, "A row's life").
	 */
	async admit(key: string, content: string): Promise<Admission> {
		if (this.held(key)) return 'held';
		if (await this.claim(key)) return 'create';
		const why = await this.whyNot(key, content);
		if (why !== 'stranded') return why;
		return (await this.claim(key)) ? 'create' : 'busy';
	}

	/**
	 * Why a row this node does not know the slug of was not claimed (`claim` false), and what it
	 * may do: `unsure` (this process's store calls were too slow), `held` (a creation of it from this
	 * process got no answer), or what the journal tells of it (marks.ts `Explained`). A stranded row
	 * (claimed by a run that ended or died before it sent it) is taken over: `stranded` means this
	 * execution now holds it and may create it.
	 */
	async whyNot(key: string, content: string): Promise<'unsure' | 'held' | Explained> {
		if (this.journal.held(key)) return 'held';
		const standing = this.journal.answered(key);
		if (standing === 'unsure') return 'unsure';
		if (standing === 'taken') return 'busy';
		return await this.journal.explain(key, this.visit, content);
	}

	/**
	 * After a row's run: its content print is kept and written to the journal when all of it went
	 * through (`content`), so that a process without the row's slug can tell it unchanged; when
	 * something was sent but not all went through, the content it had before no longer holds.
	 */
	settled(keys: string[], content: string | undefined, sentSomething: boolean): void {
		for (const key of keys) {
			const row = this.recall(key);
			if (!row || row.d === content || (content === undefined && !sentSomething)) continue;
			this.remember(key, { ...row, d: content });
			if (content !== undefined) this.journal.done(key, content, row.d);
			else if (row.d !== undefined) this.journal.done(key, undefined, row.d);
		}
	}

	/** Whether an execution of this process sent the row's creation and got no answer: it is not sent again. */
	held(key: string): boolean {
		return this.journal.held(key);
	}

	/** A creation sent without an answer (it may exist): held for every execution of this process, refused as "may already exist" elsewhere. */
	unanswered(key: string): void {
		this.journal.unanswered(key);
	}

	/**
	 * Why a row's claim was refused when it was not another's: the longest of this process's
	 * store calls, in ms, that was too slow to trust what the contest decided (undefined: refused
	 * because it is another's, or known without a slug).
	 */
	doubt(key: string): number | undefined {
		return this.journal.answered(key) === 'unsure' ? this.journal.slowestMs : undefined;
	}

	/** The longest of this process's store calls that was too slow to trust (0: none). */
	get slowestMs(): number {
		return this.journal.slowestMs;
	}

	/** After a creation the service refused (nothing exists): the row may be created again. */
	async unclaim(key: string): Promise<void> {
		await this.journal.release([key]);
	}

	/** Remembers what reached the service for a row; writes nothing when the memory already holds it so. */
	remember(key: string, given: Remembered): void {
		if (typeof given.s !== 'string' || given.s === '') return;
		// What the row's content print was stays until `settled` says otherwise.
		const before = 'd' in given ? undefined : this.recall(key);
		const entry = before?.s === given.s && before.d !== undefined ? { ...given, d: before.d } : given;
		this.own.add(key);
		this.shared.forgotten.delete(key);
		this.journal.keep(key, this.visit);
		const encoded = encodeRow(entry);
		const legacyKey = this.legacyKeys.get(key);
		const known = this.shared.learned.get(key)?.encoded ?? this.store.raw(key);
		if (known === encoded && legacyKey === undefined) return;
		if (known !== encoded) {
			this.shared.learn(key, { encoded });
			// The notebook holds what this execution changed (not every unchanged row of a large sheet).
			this.notebook[key] = decodeRow(encoded)!;
		}
		this.store.set(key, encoded);
		if (legacyKey !== undefined) this.legacy.moved(legacyKey);
	}

	/**
	 * Forgets one row (its slug, prints and claim): the next run creates it again. True when the
	 * memory knew the row or the journal held its claim (a row refused as "may already exist" is
	 * let go: its claim is removed).
	 */
	async forget(key: string, content?: string): Promise<boolean> {
		const remembered = this.recall(key);
		const known = remembered !== undefined;
		delete this.notebook[key];
		this.own.delete(key);
		this.shared.forgotByUser(key, this.store.raw(key));
		this.store.forget(key);
		const legacyKey = this.legacyKeys.get(key);
		if (legacyKey !== undefined) this.legacy.moved(legacyKey);
		const claimed = await this.journal.forget(key, [content, remembered?.d].filter((print): print is string => print !== undefined));
		return known || claimed;
	}

	/** What `clear` would forget: the rows this n8n remembers, and the entries in n8n's store (read without writing). */
	async count(): Promise<{ rows: number; entries: number }> {
		return { rows: Math.max(this.store.count, this.shared.learned.size), entries: await this.journal.count() };
	}

	/**
	 * Forgets every row of this node (all accounts): the journal's list first, at once for every
	 * process. Returns how many rows this n8n remembered, and how many entries n8n's store held.
	 */
	async clear(): Promise<{ rows: number; entries: number }> {
		for (const key of Object.keys(this.notebook)) delete this.notebook[key];
		const rows = Math.max(this.store.count, this.shared.learned.size);
		const entries = await this.journal.clear();
		this.own.clear();
		this.shared.reset();
		for (const key of this.store.keys()) this.shared.forgotByUser(key, this.store.raw(key));
		this.store.clear();
		this.legacy.clear();
		return { rows, entries };
	}

	/**
	 * At the end of the run: every row this process learned (in any execution) goes into this
	 * execution's static data where it differs, so whichever execution n8n saves last holds them
	 * all. A copy written before the journal held every row gets its rows' claims, then counts as
	 * one that does. Then this execution's visit of the journal ends (journal.ts `end`): claims it won and never used leave the store.
	 */
	async repair(): Promise<number> {
		if (this.ended) return 0;
		this.ended = true;
		if (this.store.writable) {
			for (const [key, learned] of this.shared.learned) if (this.store.raw(key) !== learned.encoded) this.store.set(key, learned.encoded);
			if (this.store.trusted) this.journal.ensure(this.store.keys(), this.visit);
		}
		this.shared.running = Math.max(0, this.shared.running - 1);
		const written = await this.journal.end(this.visit);
		if (this.store.trusted) this.store.claimed();
		return written;
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
