/**
 * One memory per process: n8n loads a node package once per process, so every execution running
 * in it shares this module. Overlapping executions of the same node (workflow id, node id,
 * account scope) share one `Shared`: they take turns per row (under each of its keys), see the rows the others
 * learned, and each writes every row learned here into its own static data at its end, so
 * whichever execution n8n saves last saves them all.
 *
 * It is a cache of what running executions learned on top of what n8n saved: an entry is dropped
 * once the saved copy holds it and no execution of the node runs here; whether a row is still
 * known is the journal's to say (journal.ts), so a forget anywhere counts here too. A restart
 * loses it (the saved copy, the journal and the rows' state are then what remains).
 *
 * Bounded: `MAX_SCOPES` (64) nodes × accounts per process (the least recently opened go when none of
 * their executions runs), `MAX_ENTRIES` learned rows per scope (the oldest go). Nothing in it is
 * a secret: row keys and prints are hashes, slugs are the service's ids. A scope's key holds the
 * workflow id and the node id, so one workflow's memory is never another's.
 */
import type { Clock } from './clock';
import { systemClock } from './clock';
import { OtherHolds } from './holds';
import { Journal } from './journal';
import { PaceSamples } from './pace';
import { MAX_ENTRIES } from './store';

export const MAX_SCOPES = 64;

export interface Learned {
	/** The row as encoded for the static data (`encodeRow`; decoded when asked). */
	encoded: string;
	/** When it was learned, counted in rows learned (`learnings`). */
	seq?: number;
}

export class Shared {
	/** Rows learned by executions of this process that the saved copy may not hold yet (in the order learned). */
	readonly learned = new Map<string, Learned>();

	/**
	 * Rows forgotten in this process (Forget Each Input Row, Forget All Rows), with the saved row
	 * they had then: a saved copy that still holds that row (a forget by hand is never saved) holds
	 * it for nothing, for a real run (whose journal asks afresh) and for a dry run alike.
	 */
	readonly forgotten = new Map<string, string | undefined>();

	/**
	 * Rows whose creation an execution of this process sent without an answer, and whose slug it has not learned since: none
	 * of their records went out from here. With the saved row they had then: that copy is older than the creation (it went
	 * out because no slug was known), one saved since (an Adopt in another process) is not.
	 */
	readonly unanswered = new Map<string, string | undefined>();

	/** The other keys (Match By switched) of those rows: a run matched by one of them refuses the row as held, whatever it recalls there (holds.ts). */
	readonly unansweredOther = new OtherHolds();

	/** The work running per row key: the next in line waits for it. */
	readonly turns = new Map<string, Promise<unknown>>();

	/** Executions of this scope now running in this process. */
	running = 0;

	/** How long the last calls of this process to n8n's deduplication store took, in ms (the journal's wait follows them). */
	readonly recentCallsMs: number[] = [];

	/** The last rows' times of the node's executions here: how many rows an execution prepares ahead (pace.ts). */
	readonly pace = new PaceSamples();

	/** The journal's side in this process: the rows asked, contested and claimed by its executions (journal.ts). */
	readonly journal = new Journal(this);

	constructor(readonly clock: Clock = systemClock) {}

	/** How many rows this process learned so far: what a row's journal ask notes at its start (see `forget`). */
	learnings = 0;

	learn(key: string, entry: Learned): void {
		this.unanswered.delete(key);
		this.unansweredOther.settled(key);
		this.learned.delete(key);
		this.learned.set(key, { ...entry, seq: ++this.learnings });
		if (this.learned.size > MAX_ENTRIES) {
			const oldest = this.learned.keys().next().value;
			if (oldest !== undefined) this.learned.delete(oldest);
		}
	}

	/**
	 * A row whose claim was gone when the journal asked it: what the process learned of it before that ask (`since`, its
	 * `learnings` then) is void. What it learned during the ask stays: a slug given by Adopt Given Slugs meanwhile.
	 */
	forget(key: string, since = Infinity): void {
		if ((this.learned.get(key)?.seq ?? 0) <= since) this.learned.delete(key);
	}

	/** A row forgotten by Forget Each Input Row or Forget All Rows (see `forgotten`). */
	forgotByUser(key: string, saved: string | undefined): void {
		this.unanswered.delete(key);
		// Forgotten under this key: every hold under it goes (under its Match By it is the one candidate), and its own elsewhere.
		this.unansweredOther.letGo(key);
		this.unansweredOther.settled(key);
		this.learned.delete(key);
		this.forgotten.delete(key);
		this.forgotten.set(key, saved);
		if (this.forgotten.size > MAX_ENTRIES) {
			const oldest = this.forgotten.keys().next().value;
			if (oldest !== undefined) this.forgotten.delete(oldest);
		}
	}

	reset(): void {
		this.learned.clear();
		this.unanswered.clear();
		this.unansweredOther.clear();
	}

	/** A creation sent without an answer (see `unanswered`); the oldest go past `MAX_ENTRIES`. */
	sentUnanswered(key: string, saved: string | undefined): void {
		this.unanswered.delete(key);
		this.unanswered.set(key, saved);
		if (this.unanswered.size > MAX_ENTRIES) this.unanswered.delete(this.unanswered.keys().next().value as string);
	}

	/** Runs `work` for a row key after the work for that key already in line (in any execution of this process). */
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

	/**
	 * `inTurn` for several keys at once: in line under each of them at the same moment, it runs once the work before it under every
	 * one of them is done. Each waits only for work that got in line before it, so none waits for another that waits for it, and the
	 * order of the calls is kept under every key (an input's rows that share a key run in their order).
	 */
	async inTurns<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
		const unique = [...new Set(keys)];
		if (unique.length === 1) return await this.inTurn(unique[0], work);
		const mine = Promise.all(unique.map(async (key) => await (this.turns.get(key) ?? Promise.resolve()).catch(() => undefined))).then(work);
		for (const key of unique) this.turns.set(key, mine);
		try {
			return await mine;
		} finally {
			for (const key of unique) if (this.turns.get(key) === mine) this.turns.delete(key);
		}
	}
}

/** The key of a node's memory for one account: workflow id, node id and account scope, never mixed. */
export const scopeKey = (workflowId: string, nodeId: string, scope: string) => JSON.stringify([workflowId, nodeId, scope]);

/**
 * The memories of one process, by node and account (a simulation makes one per simulated process,
 * with its clock; n8n's process has the one below).
 */
export class Registry {
	constructor(
		private readonly clock: Clock = systemClock,
		private readonly memories = new Map<string, Shared>(),
	) {}

	/** The shared memory of a workflow's node for one account (made on first use). */
	open(workflowId: string, nodeId: string, scope: string): Shared {
		const key = scopeKey(workflowId, nodeId, scope);
		let shared = this.memories.get(key);
		if (shared) {
			this.memories.delete(key);
		} else {
			shared = new Shared(this.clock);
			for (const [other, entry] of this.memories) {
				if (this.memories.size < MAX_SCOPES) break;
				if (entry.running === 0 && entry.turns.size === 0) this.memories.delete(other);
			}
		}
		this.memories.set(key, shared);
		return shared;
	}

	/** The shared memory when there is one, without opening it (a dry run's read-only look). */
	peek(workflowId: string, nodeId: string, scope: string): Shared | undefined {
		return this.memories.get(scopeKey(workflowId, nodeId, scope));
	}

	/**
	 * A dry run's copy of the shared memory (a detached `Shared`: in no registry, its journal handed no helpers, so it claims
	 * nothing): the rows learned here, forgotten here, and held here after a creation without an answer, as they are now.
	 */
	copyOf(workflowId: string, nodeId: string, scope: string): Shared {
		const peeked = this.peek(workflowId, nodeId, scope);
		const copy = new Shared(this.clock);
		for (const [key, learned] of peeked?.learned ?? []) copy.learned.set(key, learned);
		for (const [key, saved] of peeked?.forgotten ?? []) copy.forgotten.set(key, saved);
		for (const [key, saved] of peeked?.unanswered ?? []) copy.unanswered.set(key, saved);
		peeked?.unansweredOther.copyInto(copy.unansweredOther);
		return copy;
	}

	get size(): number {
		return this.memories.size;
	}

	clear(): void {
		this.memories.clear();
	}
}

/**
 * The registry, the one piece of module-level state of the package (scripts/queue/module-state.mjs
 * names it as the only exception, with this reason).
 */
const memories = new Map<string, Shared>();

const processMemories = new Registry(systemClock, memories);

/** This n8n process's registry. */
export const processRegistry = (): Registry => processMemories;

/** The shared memory of a workflow's node for one account (made on first use). */
export const sharedMemory = (workflowId: string, nodeId: string, scope: string): Shared => processMemories.open(workflowId, nodeId, scope);

/** The shared memory of a workflow's node for one account when there is one, without opening it (a dry run's read-only look). */
export const peekSharedMemory = (workflowId: string, nodeId: string, scope: string): Shared | undefined => processMemories.peek(workflowId, nodeId, scope);

/** How many scopes the registry holds (for tests and the benchmark). */
export const registrySize = () => processMemories.size;

/** Empties the registry, as a restart of the n8n process does (the tests model a restart with it). */
export function forgetProcessMemory(): void {
	memories.clear();
}
