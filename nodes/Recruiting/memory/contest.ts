/**
 * How the journal asks n8n's deduplication store about rows and contests them (journal.ts keeps
 * each row's life over executions on top of this).
 *
 * n8n's store reads a scope's whole list, then rewrites it, per call, without a lock (a lost
 * update), and stores only hashes. A row is first asked with its claim alone: there, it is known.
 * Not there (the call wrote it), the row is contested by Fischer's timed mutual exclusion: one call
 * writes `race:<key>` with `own:<key>:<token>`; a row whose race was there is another's. Otherwise the process waits, then asks
 * again: its token and the claim still there, the row is its own; its token gone while the race is
 * there, another's. Races stay (a loser still checking must find them); tokens leave at the end.
 *
 * The timing assumption, in one sentence: every call to the store writes less than `MIN_WAIT_MS`
 * after it read, or the process that made it sees the call take that long. Every process waits at
 * least `MIN_WAIT_MS` before it checks. A process that sees one of its own calls take that long
 * trusts nothing its contests decided meanwhile (those rows are `unsure`: refused, saying why),
 * and at its end checks that the rows it created still have their claims (docs/sync-memory.md).
 * Checked by deterministic simulations: test/unit/claimsSimulation.test.ts, test/unit/memorySimulation.test.ts.
 */
import { randomBytes } from 'crypto';

import { claimOf, ownOf, raceOf } from './marks';
import type { StoreTiming } from './storeCalls';
import { CHUNK, MIN_WAIT_MS, StoreCalls } from './storeCalls';

export { MIN_WAIT_MS } from './storeCalls';
export const MAX_WAIT_MS = 2_000;
export const WAIT_FACTOR = 3;

/** Rounds of the check before a row counts as another's (a write for other rows, read before this one's, can drop its token: the check goes on). */
export const ROUNDS = 16;

/**
 * What the journal says of a row: its claim was there before (`known`), this process holds it
 * (`mine`), another process won it (`taken`), or a call of this process took too long to trust
 * what the contest decided (`unsure`: refused like `taken`, with its own reason).
 */
export type Standing = 'known' | 'mine' | 'taken' | 'unsure';

type Waiting = { key: string; resolve: (standing: Standing) => void; reject: (error: unknown) => void };

/** What the journal shares with the process's memory of the node (the registry's `Shared`). */
export interface JournalHost extends StoreTiming {
	/** A row whose claim was gone when asked: what the process learned of it before is void. */
	forget(key: string): void;
}

/**
 * One row's life in this process (docs/sync-memory.md draws it): asked, then decided (`settled`);
 * `sent` once a creation of it went out from here, `kept` once its slug is remembered, `unknown`
 * when a creation got no answer (held for every execution of the process, not sent again). The
 * executions that asked it and have not ended are its `users`: when the last of them ends, a
 * claim it won and never used (nothing sent, nothing remembered: a stopped run, a row prepared
 * ahead) is taken off the store, so that the next run creates the row.
 */
export interface Row {
	answer: Promise<Standing>;
	at: number;
	settled?: Standing;
	users: Set<number>;
	sent: boolean;
	kept: boolean;
	unknown: boolean;
	/** Entries of this process for the row that leave the list when its last user ends: its token. */
	own: Set<string>;
}

/** Asking and contesting rows, for one process and node memory (journal.ts builds on it). */
export class Contest {
	protected readonly token = randomBytes(6).toString('base64url');

	protected readonly store: StoreCalls;

	protected readonly rows = new Map<string, Row>();

	private waiting: Waiting[] = [];

	private flushing = false;

	constructor(protected readonly timing: JournalHost) {
		this.store = new StoreCalls(timing);
	}

	protected get waitMs(): number {
		return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, WAIT_FACTOR * this.store.longestMs));
	}

	protected get now(): number {
		return this.timing.clock.now();
	}

	protected async record(values: string[]): Promise<Set<string>> {
		return await this.store.record(values);
	}

	protected async remove(values: string[]): Promise<void> {
		await this.store.remove(values);
	}

	protected ask(key: string, before: Row | undefined, enter: (row: Row) => Promise<Standing> = () => new Promise<Standing>((resolve, reject) => this.waiting.push({ key, resolve, reject }))): Row {
		const row: Row = { answer: Promise.resolve('taken'), at: this.now, users: before?.users ?? new Set(), sent: false, kept: false, unknown: false, own: before?.own ?? new Set() };
		this.rows.set(key, row);
		row.answer = enter(row);
		row.answer.then(
			(standing) => {
				[row.settled, row.at] = [standing, this.now];
				if (standing === 'mine') this.timing.forget(key);
			},
			() => {
				if (this.rows.get(key) === row) this.rows.delete(key);
			},
		);
		if (!this.flushing && this.waiting.length > 0) void this.flush();
		return row;
	}

	/** The answer for a row, when it came (undefined: not asked, or not answered yet). */
	answered(key: string): Standing | undefined {
		return this.rows.get(key)?.settled;
	}

	/**
	 * Asks the waiting rows, one batch at a time: a row whose claim is there is `known`. A row whose
	 * claim was not (this call wrote it: a new row, or a forgotten one) is contested: one call writes
	 * `race:<key>` with this process's token; a row whose race another process
	 * had entered is `taken`; the others are decided after the wait (`decide`). A slow first call
	 * counts too: it may have written back a list read before another process's race.
	 */
	protected async flush(): Promise<void> {
		this.flushing = true;
		try {
			while (this.waiting.length > 0) {
				const batch = this.waiting.splice(0, CHUNK);
				try {
					const slowBefore = this.store.slowCalls;
					const claimed = await this.record(batch.map(({ key }) => claimOf(key)));
					const known = batch.filter(({ key }) => claimed.has(claimOf(key)));
					const contested = batch.filter(({ key }) => !claimed.has(claimOf(key)));
					for (const { resolve } of known) resolve('known');
					if (contested.length > 0) {
						for (const { key } of contested) this.rows.get(key)?.own.add(ownOf(key, this.token));
						const raced = await this.record(contested.flatMap(({ key }) => [raceOf(key), ownOf(key, this.token)]));
						const open = contested.filter(({ key, resolve }) => (raced.has(raceOf(key)) ? (resolve('taken'), false) : true));
						if (open.length > 0) void this.decide(open, slowBefore);
					}
				} catch (error) {
					for (const entry of batch) entry.reject(error);
				}
			}
		} finally {
			this.flushing = false;
		}
	}

	/**
	 * Fischer's check: after the wait, a row whose token is still there (and its claim) is this
	 * process's; one whose token is gone while the race is there is another's. A row whose token
	 * or claim a later write dropped is written again by this read, and checked after another wait.
	 * A call of this process that took `MIN_WAIT_MS` or longer since the row was asked leaves the rest `unsure`.
	 */
	protected async decide(batch: Waiting[], slowBefore: number): Promise<void> {
		let open = batch;
		try {
			for (let round = 0; round < ROUNDS && open.length > 0 && this.store.slowCalls === slowBefore; round++) {
				// Then 1–2 waits: two processes whose checks keep dropping each other's writes fall out of step.
				await this.timing.clock.sleep(this.waitMs * (round === 0 ? 1 : 1 + this.timing.clock.random()));
				const there = await this.record(open.flatMap(({ key }) => [ownOf(key, this.token), raceOf(key), claimOf(key)]));
				if (this.store.slowCalls !== slowBefore) break;
				open = open.filter(({ key, resolve }) => {
					const own = there.has(ownOf(key, this.token));
					if (own && there.has(claimOf(key))) resolve('mine');
					else if (!own && there.has(raceOf(key))) resolve('taken');
					else return true;
					return false;
				});
			}
			for (const { resolve } of open) resolve(this.store.slowCalls !== slowBefore ? 'unsure' : 'taken');
		} catch (error) {
			for (const entry of open) entry.reject(error);
		}
	}

}
