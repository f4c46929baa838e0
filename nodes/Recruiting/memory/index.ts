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

import { accountScope, legacyAccountScope, stateScope } from './keys';
import type { Registry, Shared } from './registry';
import { processRegistry } from './registry';
import { MemoryRows } from './rows';
import type { StoreHelpers } from './storeCalls';
import type { Remembered } from './store';
import { decodeRow, encodeRow, FIELD, LegacyStore, NodeStore } from './store';

export type { MatchBy } from './keys';
export { MATCH_BY_LABEL, fingerprint, normaliseKey } from './keys';
export { AHEAD, MIN_WAIT_MS } from './journal';
export { MAX_TRUST_MS } from './bound';
export { MAX_ENTRIES, MAX_RECORDS } from './store';
export type { Remembered } from './store';
export { ADDED_BY_EARLIER_TRY, ADDED_OTHERWISE_BY_EARLIER_TRY, RETRY_MEMORY_KEY, RetryMemory, readOnlyRetryMemory, retryMemory } from './retry';
export type { CreatedBefore } from './retry';

/** Where in the node's context the execution's notebook lives. */
const NOTEBOOK = 'recruitingMemoryNotebook';

/** The execution hint of an execution that did not load the saved memory. */
export const NOT_LOADED_NOTICE =
	"n8n gave this execution no saved memory of this node (a queue-mode worker of n8n 2.40 or later, a retry with the original workflow, or an execution of an inactive workflow that is not a sub-workflow), so nothing was written to the workflow's static data (writing would have replaced what every node of the workflow keeps there). Rows created here are remembered by this n8n process and claimed in n8n's deduplication store; a row that brings its Candidate Slug and Sync State is exact anywhere.";

/**
 * Whether n8n gave this execution the workflow's saved static data (and saves it after). A regular instance builds a production
 * execution's workflow from the workflow's row: active, with its static data. A queue worker of n8n 2.40 and later
 * (scaling/job-processor) and a retry with the original workflow build it from the execution's snapshot, which keeps neither
 * the static data nor `active`/`activeVersionId` (execution-data/types `toWorkflowSnapshot`), so the node sees `active: false`.
 * A sub-workflow (mode `integrated`) loads its static data from the workflow's row everywhere; a manual execution reads the
 * saved copy and is never saved.
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

export type { Admission } from './rows';
export { adoptThroughMemory, forgetWithTwins, givenState, throughMemory } from './way';
export type { Adoption, RowOnItsWay, RowToAdopt, Sent, SendFailed, WaySteps } from './way';

export class CandidateMemory extends MemoryRows {
	/**
	 * The execution's memory. Reads the node's saved memory from the workflow's static data, and writes there only when n8n gave
	 * this execution the saved copy (`loadsSavedCopy`): writing into a copy n8n did not load would replace every node's static
	 * data with a partial one.
	 *
	 * The notebook is kept in the node's context (`getContext('node')`), which n8n keeps in the execution's own data: n8n hands it
	 * to a try of "Retry On Fail" and to a retry of the failed execution (execution.service `retry`: `executionData:
	 * execution.data`), whose static data may be the one the execution started with: they find there what the failed run created.
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
	 * The read-only door, for a dry run: what a real execution of the node would read (the saved copy, the rows this process
	 * learned, this execution's notebook), as copies, with the same decisions made on them (`PlannedMemory`). Nothing shared is
	 * handed anything: the process's registry is only looked at (not opened, not counted), its journal is not given this
	 * execution's helpers, and n8n's store is never called. Whether the journal holds a row's claim cannot be read without writing
	 * it (the plan says so). `elsewhere`: what the plan recalls of a row this node does not know (another Create or Update node of
	 * the workflow).
	 */
	static readOnly(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject, nodeId = context.getNode().id, elsewhere?: Elsewhere): CandidateMemory {
		const node = context.getNode();
		const own = nodeId === node.id;
		return CandidateMemory.readOnlyIn(
			processRegistry(),
			credentials,
			{
				workflowId: String(context.getWorkflow().id ?? ''),
				nodeId,
				credentialId: node.credentials?.recruitingApi?.id ?? undefined,
				staticData: context.getWorkflowStaticData('global'),
				nodeStaticData: own ? context.getWorkflowStaticData('node') : {},
				nodeContext: own ? context.getContext('node') : {},
				helpers: context.helpers,
				writable: false,
			},
			elsewhere,
		);
	}

	/** The read-only door in a registry (`readOnly`; the whole-memory simulation gives each simulated process its own). */
	static readOnlyIn(registry: Registry, credentials: ICredentialDataDecryptedObject, host: MemoryHost, elsewhere?: Elsewhere): CandidateMemory {
		const scope = accountScope(credentials, host.credentialId);
		const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;
		const shared = registry.copyOf(host.workflowId, host.nodeId, scope);
		const store = new NodeStore(copy(host.staticData), host.nodeId, false);
		const legacy = new LegacyStore(copy(host.nodeStaticData), false);
		const notebook = copy((host.nodeContext[NOTEBOOK] ?? {}) as Record<string, Remembered>);
		return new PlannedMemory(shared, store, legacy, scope, legacyAccountScope(credentials), stateScope(credentials), notebook, elsewhere);
	}

	/** The ids of the other nodes of the workflow whose memory n8n saved (for a dry run's note on a row another node knows). */
	static otherNodes(context: IExecuteFunctions): string[] {
		const saved = context.getWorkflowStaticData('global')[FIELD] as Record<string, unknown> | undefined;
		return Object.keys(saved ?? {}).filter((id) => id !== context.getNode().id);
	}

	/**
	 * A new row's creation went out without an answer: its other keys (Match By switched) hold it too. A run of this process
	 * matched by one of them refuses it as held, and takes no candidate this memory kept there (another person sharing the phone,
	 * one forgotten by hand) for it; their claims are kept (journal.ts `keep`), so that any other process, and this one after a
	 * restart, refuses it as "may already exist".
	 */
	holdUnder(keys: readonly string[], row: string): void {
		for (const key of keys) {
			this.shared.unansweredOther.hold(key, row, [row, ...keys]);
			this.journal.keep(key, this.visit);
		}
	}

	/** Before a row is remembered under its other keys too: they are kept as its key is, after a Forget here too (journal.ts `follow`). */
	follow(key: string, aliases: readonly string[]): void {
		this.journal.follow(key, aliases, this.visit);
	}

	/** The row with the keys `keys` was adopted or forgotten: `key`, one of them, no longer holds it (another row's hold there stays: holds.ts). */
	letGoOther(key: string, keys: readonly string[]): void {
		this.shared.unansweredOther.letGo(key, keys);
	}

	/** The other keys this process holds the row sent under `key` under (`holdUnder`: its phone then, which may since have changed). */
	heldUnderOthersOf(key: string): string[] {
		return this.shared.unansweredOther.of(key);
	}

	/** Whether this process holds a creation of a row under this, its other key (`holdUnder`). */
	heldUnderOther(key: string): boolean {
		return this.shared.unansweredOther.has(key);
	}

	/** Whether this, a row's other key, holds the creation of a row that shares none of the keys `keys` (another person sharing the phone). */
	heldForOthers(key: string, keys: readonly string[]): boolean {
		return this.shared.unansweredOther.holdsOthers(key, keys);
	}

	/** The execution hint's text: why this execution's memory is not saved in the static data (undefined: it is, or a manual run). */
	get notice(): string | undefined {
		return this.store.writable ? undefined : NOT_LOADED_NOTICE;
	}
}

/** What a dry run recalls of a row this node's memory does not know (undefined: nothing). */
export type Elsewhere = (key: string) => Remembered | undefined;

/**
 * A dry run's memory (`CandidateMemory.readOnly`): the decisions of a real run (memory/way.ts, rows.ts) on copies. A
 * creation is planned where the real run would contest the row (n8n's store cannot be read without writing); what the
 * plan remembers or forgets stays in the plan, so a row given twice is planned as a real run does it; a row this
 * process holds after a creation without an answer is planned as held until the plan forgets it.
 */
class PlannedMemory extends CandidateMemory {
	/** Row key → the row as the plan left it (undefined: forgotten). */
	private readonly planned = new Map<string, string | undefined>();

	/** Rows the plan learned, as the real run would (`remember`). */
	private readonly learnedHere = new Set<string>();

	constructor(
		shared: Shared,
		store: NodeStore,
		legacy: LegacyStore,
		scope: string,
		legacyScope: string,
		rowStateScope: string,
		notebook: Record<string, Remembered>,
		private readonly elsewhere?: Elsewhere,
	) {
		super(shared, store, legacy, scope, legacyScope, rowStateScope, notebook);
	}

	override recall(key: string): Remembered | undefined {
		if (this.planned.has(key)) return decodeRow(this.planned.get(key));
		return super.recall(key) ?? this.elsewhere?.(key);
	}

	/** Held by any execution of this process, running or ended (the copy of its rows held after a creation without an answer). */
	override held(key: string): boolean {
		return super.held(key, true);
	}

	/**
	 * The real run contests the row, and wins it, unless this process keeps its claim for a creation without an answer of a
	 * row that has this key as its other key (`holdUnder`): that claim is found, and the row refused as held.
	 */
	override async claim(key: string): Promise<boolean> {
		return !this.heldUnderOther(key);
	}

	override async unclaim(): Promise<void> {}

	override remember(key: string, given: Remembered): void {
		if (typeof given.s !== 'string' || given.s === '') return;
		// As the real run remembers it (rows.ts `remember`): the content print written stays; a row the process knows only
		// from the saved memory, remembered as it was, is not learned again, so it settles no hold under this key (another
		// person's, sharing the phone, stays held: seed 90040 of the whole-memory simulation's "two people sharing a phone").
		const before = 'd' in given ? undefined : this.recall(key);
		const encoded = encodeRow(before?.s === given.s && before.d !== undefined ? { ...given, d: before.d } : given);
		const learned = this.learnedHere.has(key) || this.shared.learned.has(key) || this.shared.unanswered.has(key);
		const known = this.planned.has(key) ? this.planned.get(key) : this.store.raw(key);
		this.planned.set(key, encoded);
		if (known === encoded && !learned) return;
		this.learnedHere.add(key);
		// On the plan's copy, as a real run learns it: the row is no longer held, nor its holds under its other keys.
		this.shared.unanswered.delete(key);
		this.shared.unansweredOther.settled(key);
	}

	override async forget(key: string): Promise<boolean> {
		// A held row's claim is there: the real forget finds and removes it.
		const known = this.recall(key) !== undefined || this.held(key);
		this.planned.set(key, undefined);
		// On the plan's copy of the process's memory, as the real forget on the process's: its holds under this key go.
		this.shared.forgotByUser(key, this.store.raw(key));
		return known;
	}

	/** Never asked: a dry run answers Forget All Rows itself (upsert/dryRun.ts). */
	override async clear(): Promise<{ rows: number; entries: number }> {
		return { rows: 0, entries: 0 };
	}

	override async repair(): Promise<number> {
		return 0;
	}
}

/**
 * The prints of a profile update and of records, as the memory compares and keeps them: short
 * forms of `fingerprint` (6 and 4 bytes; among the few records of one row two prints meet with a
 * chance of about 1 in a billion). Compare what `recall` gives with these, not with `fingerprint`.
 */
export { profilePrint, recordPrint } from './syncState';
