/**
 * The creation journal: n8n's deduplication store (`this.helpers.checkProcessedAndRecord`, scope
 * 'node', mode 'entries'), written to n8n's database at once, in manual executions too, and
 * shared by every process and queue-mode worker. It is the one place that says which rows the
 * node knows: a row is known while the journal holds its claim (`claim:<key>`); the static data
 * and the process only keep its slug and prints. Forget This Row removes the claim, Forget All
 * Rows the whole list: at once, for every process and every copy of the static data.
 *
 * n8n's store reads and rewrites a scope's whole list per call without a lock (a lost update),
 * and stores only hashes. So a row is first asked with its claim alone: there, the row is known
 * (or another's). Not there (the call wrote it), the row is contested by Fischer's timed mutual
 * exclusion: one call writes `race:<key>` with `own:<key>:<token>` (a token of this process); if
 * the race was entered already, the row is another's. Otherwise the process waits longer than
 * any one store call can take (`wait`), then reads again: a write that read the list before its
 * own has landed by then, and only the last writer still finds its token. A claim that passed
 * this check stays while two processes write (each makes one call at a time, so every later
 * write read a list that held it); a third process's write, read before the check, could bring
 * back a list without it (docs/sync-memory.md).
 *
 * The timing bound: no call to the store (its read and its write) takes longer than the wait,
 * `MIN_WAIT_MS` or `WAIT_FACTOR` times the longest of the last `RECENT_CALLS` calls this process
 * made (at most `MAX_WAIT_MS`; a slow first call, n8n warming up, does not slow every later claim).
 * A call that takes longer can let two executions claim the same new row.
 */
import { randomBytes } from 'crypto';
import type { DeduplicationHelperFunctions, ICheckProcessedOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

const OPTIONS: ICheckProcessedOptions = { mode: 'entries' };

export const MIN_WAIT_MS = 200;
export const MAX_WAIT_MS = 2_000;
export const WAIT_FACTOR = 3;
export const RECENT_CALLS = 20;

/**
 * Rounds of the check for a row before it counts as another's. A round ends undecided when a
 * write for other rows, read before this one's, dropped the row's token or claim (n8n's lost
 * update): under two busy workers about every other round, so the check goes on (the queue
 * scenario `sync-state` refused 25 of 2,000 rows after 3 rounds; test/unit/journal.test.ts).
 */
export const ROUNDS = 16;

/** Rounds when the claims of remembered rows are written at the end. */
const ENSURE_ROUNDS = 3;

/** Values per call when many claims are written at once (the store compares each value with its whole list). */
const CHUNK = 2_000;

type Helpers = Partial<Pick<DeduplicationHelperFunctions, 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems'>>;

/** What the journal says of a row: its claim was there before (`known`), this execution holds it (`mine`), or another execution won it (`taken`). */
export type Standing = 'known' | 'mine' | 'taken';

/** What the journal shares with the process's memory of the node (the registry's `Shared`). */
export interface JournalHost {
	/** Runs `work` after the store calls already in line in this process (so that they do not drop each other's writes). */
	inTurn<T>(key: string, work: () => Promise<T>): Promise<T>;
	/** How long this process's last calls to the store took, in ms (the newest last). */
	recentCallsMs: number[];
	/** A row whose claim was gone when asked: what the process learned of it before is void. */
	forget(key: string): void;
}

/** How long an answer counts in this process before the row is asked again (a forget in another process is then seen). */
export const ANSWER_MS = 30_000;

const claimOf = (key: string) => `claim:${key}`;
const raceOf = (key: string) => `race:${key}`;

/**
 * One journal per process and node memory (it lives in the registry's `Shared`): the executions
 * of the node that overlap in this process ask each row once and contest it as one, so that they
 * never refuse each other; they take turns per row (registry.ts) instead.
 */
export class Journal {
	private readonly token = randomBytes(6).toString('base64url');

	private helpers: Helpers = {};

	private readonly standings = new Map<string, { answer: Promise<Standing>; at: number; settled?: Standing }>();

	/** Rows this process claimed for a creation (`claim` was called): their claims stay. */
	private readonly attempted = new Set<string>();

	/** Rows remembered by an execution of this process: their claims stay. */
	private readonly kept = new Set<string>();

	/** Rows forgotten in this process since it last settled (`true`: all of them): an execution still running that remembers one does not claim it again. */
	private dropped: Set<string> | true = new Set<string>();

	/** Rows whose claim this execution wrote: their tokens leave the list at the end. */
	private readonly tokens = new Set<string>();

	/** Rows of this execution to be claimed without a contest (their slug is known): written at the end. */
	private readonly toEnsure = new Set<string>();

	private waiting: Array<{ key: string; resolve: (standing: Standing) => void; reject: (error: unknown) => void }> = [];

	private flushing = false;

	constructor(private readonly timing: JournalHost) {}

	/** The helpers of the execution that opens the memory (any execution's reach the same list: workflow id and node id). */
	use(helpers: Helpers): void {
		this.helpers = helpers;
	}

	/** Whether this n8n has the deduplication store (n8n 1.64 and later; not in every context). */
	get available(): boolean {
		return typeof this.helpers.checkProcessedAndRecord === 'function';
	}

	private get waitMs(): number {
		return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, WAIT_FACTOR * Math.max(0, ...this.timing.recentCallsMs)));
	}

	private ownOf(key: string): string {
		return `own:${key}:${this.token}`;
	}

	/** One call to n8n's store, in turn with this process's others, timed; once more when two executions created its row at the same moment. */
	private async record(values: string[]): Promise<Set<string>> {
		return await this.timing.inTurn(' journal', async () => {
			const started = Date.now();
			try {
				let answer;
				try {
					answer = await this.helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
				} catch {
					answer = await this.helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
				}
				return new Set(answer.processed.map(String));
			} finally {
				const recent = this.timing.recentCallsMs;
				recent.push(Date.now() - started);
				if (recent.length > RECENT_CALLS) recent.shift();
			}
		});
	}

	private async remove(values: string[]): Promise<void> {
		if (values.length === 0 || typeof this.helpers.removeProcessed !== 'function') return;
		await this.timing.inTurn(' journal', async () => await this.helpers.removeProcessed!(values, 'node', OPTIONS));
	}

	/** What the journal says of a row (asked once per execution; rows asked together share their calls). */
	async standing(key: string): Promise<Standing> {
		if (!this.available) return 'mine';
		let known = this.standings.get(key);
		if (!known || (known.settled !== undefined && known.settled !== 'mine' && Date.now() - known.at > ANSWER_MS)) {
			if (this.dropped !== true) this.dropped.delete(key);
			const entry: { answer: Promise<Standing>; at: number; settled?: Standing } = { answer: Promise.resolve('taken'), at: Date.now() };
			entry.answer = new Promise<Standing>((resolve, reject) => this.waiting.push({ key, resolve, reject }));
			entry.answer.then(
				(standing) => {
					entry.settled = standing;
					entry.at = Date.now();
					if (standing === 'mine') this.timing.forget(key);
				},
				() => this.standings.delete(key),
			);
			this.standings.set(key, entry);
			known = entry;
			if (!this.flushing) void this.flush();
		}
		return await known.answer;
	}

	/** The answer for a row, when it came (undefined: not asked, or not answered yet). */
	answered(key: string): Standing | undefined {
		return this.standings.get(key)?.settled;
	}

	/** Before a creation: true when this process holds the row's claim. */
	async claim(key: string): Promise<boolean> {
		const mine = (await this.standing(key)) === 'mine';
		if (mine) this.attempted.add(key);
		return mine;
	}

	/** A row an execution remembered (its slug is known): its claim stays, or is written at the end when it was never asked. */
	keep(key: string): void {
		this.kept.add(key);
		if (this.available && !this.standings.has(key) && this.dropped !== true && !this.dropped.has(key)) this.toEnsure.add(key);
	}

	/**
	 * Asks the waiting rows, one batch at a time: a row whose claim is there is `known`. A row
	 * whose claim was not (this call wrote it: a new row, or a forgotten one) is contested: one
	 * call writes `race:<key>` with this process's token; a row whose race another process had
	 * entered is `taken`; the others are decided after the wait (`decide`). Only contested rows
	 * carry a token, so that a re-run of known rows leaves nothing to take off the list.
	 */
	private async flush(): Promise<void> {
		this.flushing = true;
		try {
			while (this.waiting.length > 0) {
				const batch = this.waiting.splice(0, CHUNK);
				try {
					const claimed = await this.record(batch.map(({ key }) => claimOf(key)));
					const contested = batch.filter(({ key, resolve }) => (claimed.has(claimOf(key)) ? (resolve('known'), false) : true));
					if (contested.length === 0) continue;
					for (const { key } of contested) this.tokens.add(key);
					const raced = await this.record(contested.flatMap(({ key }) => [raceOf(key), this.ownOf(key)]));
					const open = contested.filter(({ key, resolve }) => (raced.has(raceOf(key)) ? (resolve('taken'), false) : true));
					if (open.length > 0) void this.decide(open);
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
	 */
	private async decide(batch: Array<{ key: string; resolve: (standing: Standing) => void; reject: (error: unknown) => void }>): Promise<void> {
		let open = batch;
		try {
			for (let round = 0; round < ROUNDS && open.length > 0; round++) {
				// Then 1–2 waits: two processes whose checks keep dropping each other's writes fall out of step.
				await sleep(round === 0 ? this.waitMs : this.waitMs * (1 + Math.random()));
				const there = await this.record(open.flatMap(({ key }) => [this.ownOf(key), raceOf(key), claimOf(key)]));
				open = open.filter(({ key, resolve }) => {
					const own = there.has(this.ownOf(key));
					if (own && there.has(claimOf(key))) resolve('mine');
					else if (!own && there.has(raceOf(key))) resolve('taken');
					else return true;
					return false;
				});
			}
			for (const { resolve } of open) resolve('taken');
		} catch (error) {
			for (const entry of open) entry.reject(error);
		}
	}

	/** Rows kept before the journal held every row (a `v: 2` copy, 0.2.0's memory): their claims are written at the end. */
	ensure(keys: Iterable<string>): void {
		if (this.available) for (const key of keys) this.toEnsure.add(key);
	}

	/**
	 * When the last overlapping execution of the process ends: writes the claims of rows
	 * remembered without one (checked after the wait, written again when a write dropped them),
	 * takes the process's tokens off the list, and the claims it won but used for nothing (no
	 * creation sent, nothing remembered). Answers are asked afresh by the next execution.
	 */
	async settle(): Promise<number> {
		if (!this.available) return 0;
		await Promise.allSettled([...this.standings.values()].map(({ answer }) => answer));
		const unused = [...this.standings].filter(([key, { settled }]) => settled === 'mine' && !this.attempted.has(key) && !this.kept.has(key)).map(([key]) => key);
		// The races this process won are over (the claim stays): their entries leave with the tokens.
		const won = [...this.tokens].filter((key) => this.standings.get(key)?.settled === 'mine').map(raceOf);
		this.standings.clear();
		this.attempted.clear();
		this.kept.clear();
		this.dropped = new Set<string>();
		let missing = [...this.toEnsure];
		let written = 0;
		for (let round = 0; round < ENSURE_ROUNDS && missing.length > 0; round++) {
			for (let at = 0; at < missing.length; at += CHUNK) await this.record(missing.slice(at, at + CHUNK).map(claimOf));
			written += round === 0 ? missing.length : 0;
			await sleep(this.waitMs);
			const kept = new Set<string>();
			for (let at = 0; at < missing.length; at += CHUNK) for (const value of await this.record(missing.slice(at, at + CHUNK).map(claimOf))) kept.add(value);
			missing = missing.filter((key) => !kept.has(claimOf(key)));
		}
		this.toEnsure.clear();
		const leaving = [...[...this.tokens].map((key) => this.ownOf(key)), ...won, ...unused.map(claimOf)];
		this.tokens.clear();
		for (let at = 0; at < leaving.length; at += CHUNK) await this.remove(leaving.slice(at, at + CHUNK));
		return written;
	}

	/** After a creation the service refused (nothing exists): the row may be created again. */
	async release(keys: string[]): Promise<void> {
		for (const key of keys) {
			this.standings.delete(key);
			this.attempted.delete(key);
			this.kept.delete(key);
		}
		await this.remove(keys.flatMap((key) => [claimOf(key), raceOf(key), this.ownOf(key)]));
	}

	/** Forgets a row: removes its claim; says whether there was one. */
	async forget(key: string): Promise<boolean> {
		if (!this.available) return false;
		if (this.dropped !== true) this.dropped.add(key);
		// A claim this process made only by asking about the row (keyOf) is not one the row had.
		const asked = this.standings.get(key);
		const askedOnly = asked !== undefined && (await asked.answer.catch(() => undefined)) === 'mine' && !this.attempted.has(key) && !this.kept.has(key);
		const there = await this.record([claimOf(key)]);
		await this.release([key]);
		this.toEnsure.delete(key);
		return there.has(claimOf(key)) && !askedOnly;
	}

	async clear(): Promise<void> {
		this.dropped = true;
		this.standings.clear();
		this.toEnsure.clear();
		this.kept.clear();
		this.attempted.clear();
		if (typeof this.helpers.clearAllProcessedItems !== 'function') return;
		await this.timing.inTurn(' journal', async () => await this.helpers.clearAllProcessedItems!('node', OPTIONS));
	}
}
