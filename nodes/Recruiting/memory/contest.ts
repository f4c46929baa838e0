/**
 * How the journal asks n8n's deduplication store about rows and contests them (journal.ts keeps
 * each row's life over executions on top of this).
 *
 * n8n's store reads a scope's whole list, then rewrites it, per call, without a lock (a lost
 * update), and stores only hashes. A row is first asked with its claim alone: there, it is known.
 * Not there (the call wrote it), the row is contested by Fischer's timed mutual exclusion: one call
 * writes `race:<key>` for each row of a batch with one token of the call (`own:<call>:<token>`);
 * a row whose race was there is another's. Otherwise the process waits, then asks
 * again: its token and the claim still there, the row is its own; its token gone while the race is
 * there, another's. Races stay (a loser still checking must find them); tokens leave at the end.
 *
 * The timing assumption, in one sentence: every call to the store writes less than the bound of its list's size (bound.ts,
 * 1 s at least) after it read, or the process that made it sees the call take that long. Every process waits at least that
 * bound before it checks; one that sees its own call take that long trusts nothing its contests decided meanwhile (those rows
 * are `unsure`: refused, saying why), and at its end checks that the rows it created still have their claims.
 * Checked by deterministic simulations: test/unit/claimsSimulation.test.ts, test/unit/memorySimulation.test.ts.
 */
import { randomBytes } from 'crypto';

import { claimOf, ownOf, raceOf } from './marks';
import type { PaceSamples } from './pace';
import type { StoreTiming } from './storeCalls';
import { CHUNK, confirms, covers, LAZY_FROM_MS, MAX_WAIT_MS, MIN_WAIT_MS, WAIT_FACTOR, waitFloorMs } from './bound';
import { StoreCalls } from './storeCalls';

export { LAZY_FROM_MS, MAX_WAIT_MS, MIN_WAIT_MS, WAIT_FACTOR } from './bound';

/** Rows prepared ahead while the store answers at once, and at most (`Contest.ahead`). */
export const AHEAD = 100;
export const MAX_AHEAD = 2_000;

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
	/** A row whose claim was gone when asked: what the process learned of it before the ask (`since`: `learnings` at its start) is void. */
	forget(key: string, since: number): void;
	readonly learnings: number;
	readonly pace: PaceSamples; // how many rows the node's executions here prepare ahead, and so the batches (pace.ts)
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
	/** Tokens of the calls that contested the row (shared by the rows of a batch): they leave the list once no row of this process uses them. */
	own: Set<string>;
}

/** Asking and contesting rows, for one process and node memory (journal.ts builds on it). */
export class Contest {
	protected readonly token = randomBytes(6).toString('base64url');
	protected readonly store: StoreCalls;
	protected readonly rows = new Map<string, Row>();

	/** Tokens of released rows, of rows whose answer failed, and of rows whose batch is still in use: taken off by a later end. */
	protected readonly loose = new Set<string>();

	private waiting: Waiting[] = [];
	/** A row's answer is awaited: the rows waiting are asked now, however few. */
	private hurried = false;
	/** A `hurryLater` is pending. */
	private timer = false;
	/** Calls of this process that contested rows: each writes one token for its whole batch. */
	private calls = 0;
	private flushing = false;

	constructor(protected readonly timing: JournalHost) {
		this.store = new StoreCalls(timing);
		// A call goes anyway: the rows waiting for their batch go with it, so that no creation catches up with them
		// (rows are prepared more slowly than the batch fills: the run then stalled for a claim, a race and a check).
		this.store.beforeCall = () => this.hurry();
	}

	/** The wait before a check: three times the longest recent call, 1–2 s, and never below the bound of the list's size (bound.ts). */
	protected get waitMs(): number {
		return Math.max(waitFloorMs(this.store.entries), Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, WAIT_FACTOR * this.store.longestMs)));
	}

	/** Whether this process's calls are slow enough to ask rows prepared ahead in batches (`LAZY_FROM_MS`). */
	get lazy(): boolean {
		return this.store.longestMs >= LAZY_FROM_MS;
	}

	/**
	 * The most rows an execution prepares ahead (it prepares what its pace needs: `window`): 100 when the
	 * store answers within `LAZY_FROM_MS` (a decision takes the wait, about 1 s), more as its calls slow down with
	 * the size of its list (a decision then takes three calls, each in a slot of twice the longest
	 * call, a longer wait, and a turn in line): about 750 at 0.7 s a call (more where a second check decides), 2,000 at most.
	 */
	get ahead(): number {
		if (!this.lazy) return AHEAD;
		return Math.min(MAX_AHEAD, Math.max(AHEAD, Math.ceil((AHEAD * (this.decisionMs + 4 * this.store.longestMs)) / 1_000)));
	}

	/** A new row's decision at most in the usual case: a claim, a race and a check (each in its slot) and the wait; a large list's second check 1–2 waits later. */
	get decisionMs(): number {
		const once = this.waitMs + 4 * this.store.longestMs;
		return confirms(this.store.entries) ? once + 2 * this.waitMs + this.store.longestMs : once;
	}

	/** Rows asked together when the store is slow: a third of the pace's rows (pace.ts), or fewer with any call that goes anyway (else each at once). */
	private get batch(): number {
		return this.lazy ? Math.max(1, Math.ceil(this.timing.pace.ahead(this.ahead, this.decisionMs) / 3)) : 1;
	}

	/** Rows an execution prepares ahead, `ahead` at most: `paced` (its pace: 1.5 decisions of sending), `held` (they claim nothing), and the batch a row may wait for. */
	window(paced: number, held: number): number {
		return Math.min(this.ahead, paced + held + (this.lazy ? this.batch : 0));
	}

	/**
	 * A row waits to be asked with others: it is asked no later than four waits from now, however few
	 * joined it (sooner when a creation awaits it: `hurry(key)`; every partial batch costs three calls).
	 */
	private hurryLater(): void {
		if (this.timer || this.waiting.length === 0) return;
		this.timer = true;
		void this.timing.clock.sleep(4 * this.waitMs).then(() => {
			this.timer = false;
			this.hurry();
		});
	}

	/** Asks the waiting rows now (a row's answer is awaited, or a waiting row's time is up); `key`: only if that row still waits to be asked. */
	protected hurry(key?: string): void {
		if (this.waiting.length === 0 || (key !== undefined && !this.waiting.some((entry) => entry.key === key))) return;
		this.hurried = true;
		if (!this.flushing) void this.flush();
	}

	/** The time that passes in this process (clock.ts `elapsed`): every duration here. */
	protected get elapsed(): number {
		return this.timing.clock.elapsed();
	}

	/** One call (values other rows asked meanwhile ride along: a row's content, another batch's claims). */
	protected async record(values: string[]): Promise<Set<string>> {
		return await this.store.recordTogether(values);
	}

	protected async remove(values: string[]): Promise<void> {
		await this.store.remove(values);
	}

	/** Takes rows' claims and races off (then `extra`): each row is asked again only once its own removal call has landed (storeCalls.ts `removeKeys`). */
	protected async takeOff(keys: string[], extra: string[] = []): Promise<void> {
		await this.store.removeKeys(keys.map((key) => [key, [claimOf(key), raceOf(key)]]), extra);
	}

	/**
	 * A row asked: it waits in line for its batch. While this process takes its claim off (the end of a visit that won it
	 * and never sent it), it is in `rows` at once (the visits asking it count as its users: an end sees them) and waits in
	 * line once that removal has landed (storeCalls.ts `removeKeys`).
	 */
	protected ask(key: string, before: Row | undefined): Row {
		const since = this.timing.learnings;
		const row: Row = { answer: Promise.resolve('taken'), at: this.elapsed, users: before?.users ?? new Set(), sent: false, kept: false, unknown: false, own: before?.own ?? new Set() };
		this.rows.set(key, row);
		const enter = async () => await new Promise<Standing>((resolve, reject) => this.waiting.push({ key, resolve, reject }));
		// Its claim and race, this process's own win, still on the list (their removal call has not started): its own again.
		const removal = this.store.withhold(key) ? Promise.resolve<Standing>('mine') : this.store.removal(key);
		row.answer = removal === undefined ? enter() : removal.then(async (won) => {
			if (won === 'mine') return won;
			const answer = enter();
			this.hurry();
			return await answer;
		});
		row.answer.then(
			(standing) => {
				[row.settled, row.at] = [standing, this.elapsed];
				if (standing === 'mine') this.timing.forget(key, since);
			},
			() => {
				if (this.rows.get(key) === row) this.rows.delete(key);
				for (const token of row.own) this.loose.add(token);
			},
		);
		if (!this.flushing && this.waiting.length >= this.batch) void this.flush();
		else if (this.batch > 1) this.hurryLater();
		return row;
	}

	/** The answer for a row, when it came (undefined: not asked, or not answered yet). */
	answered(key: string): Standing | undefined {
		return this.rows.get(key)?.settled;
	}

	/**
	 * Asks the waiting rows, one batch at a time: a row whose claim is there is `known`. A row whose
	 * claim was not (this call wrote it: a new row, or a forgotten one) is contested (`race`) while
	 * the next batch is asked: its claims go in the same call as this batch's races. A slow first call
	 * counts too: it may have written back a list read before another process's race. (A row's claim
	 * and race in one call would save a call per decision; the whole-memory simulation then refused a
	 * row never sent: docs/sync-memory.md.)
	 */
	protected async flush(): Promise<void> {
		this.flushing = true;
		try {
			while (this.waiting.length > 0 && (this.hurried || this.waiting.length >= this.batch)) {
				const batch = this.waiting.splice(0, CHUNK);
				if (this.waiting.length === 0) this.hurried = false;
				try {
					const slowBefore = this.store.slowCalls;
					const claimed = await this.record(batch.map(({ key }) => claimOf(key)));
					const contested = batch.filter(({ key, resolve }) => (claimed.has(claimOf(key)) ? (resolve('known'), false) : true));
					// Not awaited: the next batch's claims go with this batch's races (one call, spaced like every call).
					if (contested.length > 0) void this.race(contested, slowBefore);
				} catch (error) {
					for (const entry of batch) entry.reject(error);
				}
			}
		} finally {
			this.flushing = false;
			// Rows that came while the store turned slow wait for their batch, or for the time above.
			this.hurryLater();
		}
	}

	/**
	 * The races of a batch's rows whose claims were not there, with one token for the batch: a write
	 * that drops it drops the batch's races with it (n8n's store loses whole writes), and taking it
	 * off at the end is one value, not one per row (each costs a pass over the list). A row whose race
	 * was there is another's; the others are decided after the wait (`decide`).
	 */
	private async race(contested: Waiting[], slowBefore: number): Promise<void> {
		try {
			const token = ownOf(`c${++this.calls}`, this.token);
			for (const { key } of contested) this.rows.get(key)?.own.add(token);
			const raced = await this.record([...contested.map(({ key }) => raceOf(key)), token]);
			const open = contested.filter(({ key, resolve }) => (raced.has(raceOf(key)) ? (resolve('taken'), false) : true));
			if (open.length > 0) await this.store.recount().then(async () => await this.decide(open, slowBefore, token)); // its wait: bound.ts
		} catch (error) {
			for (const entry of contested) entry.reject(error);
		}
	}

	/**
	 * Fischer's check: after the wait, a row whose batch's token is still there (and its claim) is
	 * this process's; one whose token is gone while the race is there is another's. A row whose token
	 * or claim a later write dropped is written again by this read, and checked after another wait. A call of this process
	 * too slow to trust since the row was asked leaves the rest `unsure`. The list is counted after the race and at each check.
	 */
	protected async decide(batch: Waiting[], slowBefore: number, token: string): Promise<void> {
		const seen = new Set<string>();
		let open = batch;
		try {
			for (let round = 0; round < ROUNDS && open.length > 0 && this.store.slowCalls === slowBefore; round++) {
				// Then 1–2 waits: two processes whose checks keep dropping each other's writes fall out of step.
				const wait = this.waitMs * (round === 0 ? 1 : 1 + this.timing.clock.random());
				const there = await this.store.recordAfter(wait, [token, ...open.flatMap(({ key }) => [raceOf(key), claimOf(key)])]);
				if (this.store.slowCalls !== slowBefore) break;
				// Made twice, the call may show the token its failed first attempt wrote: the check fails (MEMSIM seed 50717 of scenario 4).
				if (this.store.wasRetried(there)) throw new Error("A call to n8n's deduplication store failed, so the node could not check this row's claim; nothing was sent for it");
				const own = there.has(token);
				// Counted again: a list that grew past what the wait covers (brought back after a Forget All Rows) is waited out once more.
				const covered = !own || covers(wait, await this.store.recount());
				// Over a large list a row is won at the second check in a row that finds it so (bound.ts `confirms`).
				const confirm = confirms(this.store.entries);
				open = open.filter(({ key, resolve }) => {
					const found = own && covered && there.has(claimOf(key));
					if (found && (!confirm || seen.has(key))) resolve('mine');
					else if (!own && there.has(raceOf(key))) resolve('taken');
					else {
						if (found) seen.add(key);
						else seen.delete(key);
						return true;
					}
					return false;
				});
			}
			for (const { resolve } of open) resolve(this.store.slowCalls !== slowBefore ? 'unsure' : 'taken');
		} catch (error) {
			for (const entry of open) entry.reject(error);
		}
	}
}
