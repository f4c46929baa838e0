/**
 * The row-level memory of Candidate → Create or Update: what it knows of a row and what it decides
 * for it, over the four places (index.ts). `CandidateMemory` (index.ts) opens it for an execution.
 */
import type { Journal } from './journal';
import type { Explained } from './marks';
import type { MatchBy } from './keys';
import { legacyRowKey, normaliseKey, rowKey } from './keys';
import { Pace } from './pace';
import type { Shared } from './registry';
import type { LegacyStore, NodeStore, Remembered } from './store';
import { decodeRow, encodeRow, normalRow } from './store';

/** What a row without a known slug may do (`admit`): be created, be `unchanged` (sent with this content), or be refused for the reason given. */
export type Admission = 'create' | 'same' | 'unsure' | 'held' | 'busy' | 'known';

/** One execution's memory of a node, row by row (see `CandidateMemory` for how it is opened). */
export class MemoryRows {
	/** Row key → the key the memory of 0.2.0 and earlier used for it (only when that memory is present). */
	private readonly legacyKeys = new Map<string, string>();

	/** Rows this execution remembered (their entries count whatever the journal answered before). */
	private readonly own = new Set<string>();
	private ended = false;

	/** This execution's visit of the process's journal (journal.ts `begin`). */
	protected readonly visit: number;
	private readonly pace: Pace; // this execution's rows in flight, measured into the node's pace (pace.ts), and the rows prepared ahead

	protected constructor(
		protected readonly shared: Shared,
		protected readonly store: NodeStore,
		private readonly legacy: LegacyStore,
		private readonly scope: string,
		private readonly legacyScope: string,
		private readonly rowStateScope: string,
		private readonly notebook: Record<string, Remembered>,
	) {
		this.visit = shared.journal.begin();
		this.pace = new Pace(shared.clock, shared.pace);
	}

	protected get journal(): Journal {
		return this.shared.journal;
	}

	/** Rows the operation prepares ahead of the ones it sends: as many as the node's pace needs (pace.ts), those this process holds, and a batch when rows are asked in batches (contest.ts `window`). */
	get ahead(): number {
		return this.journal.window(this.pace.ahead(this.journal.ahead, this.journal.decisionMs), this.pace.heldAhead);
	}

	/** Whether this process holds the row (learned here, saved, noted by this execution, or kept by 0.2.0 and earlier). */
	private holds(key: string): boolean {
		return this.shared.learned.has(key) || this.store.raw(key) !== undefined || this.notebook[key] !== undefined || this.legacyKeys.has(key);
	}

	/**
	 * A row's memory key ('' without a key value), asked of the journal in the background (rows are prepared ahead). A key under
	 * another identifier (`alias`: Match By switched) is asked only when the row is kept under it (journal.ts `keep`).
	 */
	keyOf(matchBy: MatchBy, value: unknown, alias = false): string {
		const normalised = normaliseKey(matchBy, value);
		if (normalised === '') return '';
		const key = rowKey(this.scope, matchBy, normalised);
		if (this.legacy.present && !this.legacyKeys.has(key)) this.legacyKeys.set(key, legacyRowKey(this.legacyScope, matchBy, normalised));
		if (alias) return key;
		this.pace.prepare(key, this.holds(key));
		// A held row is free once its ask found its claim (or it is this process's from before); one forgotten elsewhere was claimed afresh.
		this.journal.standing(key, this.visit, true).then((standing) => this.pace.answered(key, standing === 'known' || !this.journal.wonAfresh(key)), () => this.pace.answered(key, false));
		return key;
	}

	/**
	 * Runs `work` for a row key (and its keys under its other identifiers, `others`: an execution matched by one of them finds what
	 * this row did) after the work for those keys already in line in this process; for a row the memory holds, once the journal
	 * answered (a row it does not hold waits at `claim`).
	 */
	async inTurn<T>(key: string, work: () => Promise<T>, others: readonly string[] = []): Promise<T> {
		this.pace.took(key, !this.holds(key)); // only the rows whose asks claim count for the pace
		try {
			return await this.shared.inTurns([key, ...others], async () => {
				this.pace.ready(key);
				if (this.holds(key)) await this.pace.waits(key, this.journal.standing(key, this.visit));
				return await work();
			});
		} finally {
			this.pace.done(key);
		}
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
		if (this.journal.wonAfresh(key) && !this.own.has(key) && !this.trusted(key)) return undefined;
		// A saved copy is void while it is the one this process had when it forgot the row, or when a creation of it went out
		// from here without an answer (no slug was known then: held, not unchanged).
		const was = (saved: Map<string, string | undefined>) => saved.has(key) && saved.get(key) === this.store.raw(key);
		const stored = was(this.shared.forgotten) || (was(this.shared.unanswered) && !this.own.has(key)) ? undefined : this.store.get(key);
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
		return await this.pace.waits(key, this.journal.claim(key, this.visit));
	}

	/**
	 * A row whose slug is not known here, before it is sent: `create` when this execution holds its
	 * claim (a new row, or one forgotten or released meanwhile), `same` when it was sent before with this
	 * content, else why not (docs/sync-memory.md, "A row's life").
	 */
	async admit(key: string, content: string): Promise<Admission> {
		if (this.held(key)) return 'held';
		if (await this.claim(key)) return 'create';
		const why = await this.whyNot(key, content);
		if (why !== 'gone') return why;
		// Forgotten or released meanwhile: asked afresh (once).
		if (await this.claim(key)) return 'create';
		const again = await this.whyNot(key, content);
		return again === 'gone' ? 'known' : again;
	}

	/**
	 * Why a row this node does not know the slug of was not claimed (`claim` false), and what it
	 * may do: `unsure` (this process's store calls were too slow), `held` (a creation of it from this
	 * process got no answer), or what the journal tells of it (marks.ts `Explained`).
	 */
	private async whyNot(key: string, content: string): Promise<'unsure' | 'held' | Explained> {
		if (this.journal.held(key)) return 'held';
		if (this.journal.answered(key) === 'unsure') return 'unsure';
		// Known, or won by another process (it may hold it, or have created it long ago): the journal tells which.
		return await this.journal.explain(key, content);
	}

	/**
	 * After a row's run: its content print is kept and written to the journal when all of it went
	 * through (`content`), so that a process without the row's slug can tell it unchanged; when
	 * something was sent but not all went through, the content it had before no longer holds.
	 */
	settled(keys: string[], content: string | undefined, sentSomething: boolean): void {
		if (sentSomething) this.pace.sent(keys[0]);
		for (const key of keys) {
			const row = this.recall(key);
			if (!row || row.d === content || (content === undefined && !sentSomething)) continue;
			this.remember(key, { ...row, d: content });
			if (content !== undefined) this.journal.done(key, content, row.d, this.visit);
			else if (row.d !== undefined) this.journal.done(key, undefined, row.d, this.visit);
		}
	}

	/** Whether n8n's store says the row was last sent in full with this content (read as `explain` reads it). */
	async sentAs(key: string, content: string): Promise<boolean> {
		return (await this.journal.explain(key, content)) === 'same';
	}

	/** Whether an execution of this process sent the row's creation and got no answer: it is not sent again (`sinceStart`: or one that ended since the process started, its slug not learned since). */
	held(key: string, sinceStart = false): boolean {
		return this.journal.held(key) || (sinceStart && this.shared.unanswered.has(key));
	}

	/** A creation sent without an answer (it may exist): held for every execution of this process, refused as "may already exist" elsewhere. */
	unanswered(key: string): void {
		this.shared.sentUnanswered(key, this.store.raw(key));
		this.journal.unanswered(key);
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
		const learned = this.shared.learned.get(key);
		const known = learned?.encoded ?? this.store.raw(key);
		// Learned now (an ask under way forgets only what came before it; a hold here ends: Adopt of what was saved).
		if (known === encoded && (learned || this.shared.unanswered.has(key))) this.shared.learn(key, learned ?? { encoded });
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
		this.pace.passed(key);
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
