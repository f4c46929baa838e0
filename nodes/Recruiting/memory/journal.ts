/**
 * The creation journal: n8n's deduplication store (`this.helpers.checkProcessedAndRecord`, scope
 * 'node', mode 'entries'), written to n8n's database at once, in manual executions too, and
 * shared by every process and queue-mode worker. It is the one place that says which rows the
 * node knows: a row is known while the journal holds its claim (`claim:<key>`). Forget This Row
 * removes the claim, Forget All Rows the whole list, at once for every process.
 *
 * n8n's store reads a scope's whole list, then rewrites it, per call, without a lock (a lost
 * update), and stores only hashes. A row is first asked with its claim alone: there, the row is
 * known. Not there (the call wrote it), the row is contested by Fischer's timed mutual exclusion:
 * one call writes `race:<key>` with `own:<key>:<token>` (a token of this process); a row whose race
 * was there is another's. Otherwise the process waits, then asks again: a row whose token and
 * claim are still there is its own; one whose token is gone while the race is there is another's.
 * Races stay on the list (a loser still checking must find them); tokens leave at the end.
 *
 * The timing assumption, in one sentence: every call to the store writes less than `MIN_WAIT_MS`
 * after it read, or the process that made it sees the call take longer. Every process waits at
 * least `MIN_WAIT_MS` before it checks, so no write read before its token can land after its
 * check. A process that sees one of its own calls take longer does not trust what it decided
 * while that call ran: the rows it was contesting are `unsure` (refused, saying why), and at the
 * end it checks again that the claims of the rows it created are there (docs/sync-memory.md).
 * Checked by a deterministic simulation: test/unit/claimsSimulation.test.ts.
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

/**
 * What the journal says of a row: its claim was there before (`known`), this process holds it
 * (`mine`), another process won it (`taken`), or one of this process's calls took too long to
 * trust what it decided (`unsure`: refused like `taken`, with its own reason).
 */
export type Standing = 'known' | 'mine' | 'taken' | 'unsure';

type Waiting = { key: string; resolve: (standing: Standing) => void; reject: (error: unknown) => void };

/** Where the journal's time comes from: n8n's `sleep` and the system clock in n8n, a simulated clock in test/sim. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	/** Uniform in [0, 1): the jitter of the check's later rounds. */
	random(): number;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms), random: () => Math.random() };

/** What the journal shares with the process's memory of the node (the registry's `Shared`). */
export interface JournalHost {
	readonly clock: Clock;
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

	private waiting: Waiting[] = [];

	/** How many of this process's calls took longer than `MIN_WAIT_MS` (what a contest decided while one ran is not trusted). */
	private slowCalls = 0;

	/** The longest call of this process that was too slow to trust (ms; 0: none): the reason an `unsure` row gives. */
	slowestMs = 0;

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
			const started = this.timing.clock.now();
			try {
				let answer;
				try {
					answer = await this.helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
				} catch {
					answer = await this.helpers.checkProcessedAndRecord!(values, 'node', OPTIONS);
				}
				return new Set(answer.processed.map(String));
			} finally {
				const took = this.timing.clock.now() - started;
				const recent = this.timing.recentCallsMs;
				recent.push(took);
				if (recent.length > RECENT_CALLS) recent.shift();
				if (took >= MIN_WAIT_MS) {
					this.slowCalls += 1;
					this.slowestMs = Math.max(this.slowestMs, took);
				}
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
		if (!known || (known.settled !== undefined && known.settled !== 'mine' && this.timing.clock.now() - known.at > ANSWER_MS)) {
			if (this.dropped !== true) this.dropped.delete(key);
			const entry: { answer: Promise<Standing>; at: number; settled?: Standing } = { answer: Promise.resolve('taken'), at: this.timing.clock.now() };
			entry.answer = new Promise<Standing>((resolve, reject) => this.waiting.push({ key, resolve, reject }));
			entry.answer.then(
				(standing) => {
					entry.settled = standing;
					entry.at = this.timing.clock.now();
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

	/** Whether the row was refused because a call of this process took too long to trust (`unsure`). */
	doubted(key: string): boolean {
		return this.answered(key) === 'unsure';
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
					const slowBefore = this.slowCalls;
					const raced = await this.record(contested.flatMap(({ key }) => [raceOf(key), this.ownOf(key)]));
					const open = contested.filter(({ key, resolve }) => (raced.has(raceOf(key)) ? (resolve('taken'), false) : true));
					if (open.length > 0) void this.decide(open, slowBefore);
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
	 * A call of this process slower than `MIN_WAIT_MS` since the race was entered makes the rest `unsure`.
	 */
	private async decide(batch: Waiting[], slowBefore: number): Promise<void> {
		let open = batch;
		try {
			for (let round = 0; round < ROUNDS && open.length > 0; round++) {
				// Then 1–2 waits: two processes whose checks keep dropping each other's writes fall out of step.
				await this.timing.clock.sleep(round === 0 ? this.waitMs : this.waitMs * (1 + this.timing.clock.random()));
				const there = await this.record(open.flatMap(({ key }) => [this.ownOf(key), raceOf(key), claimOf(key)]));
				if (this.slowCalls !== slowBefore) break;
				open = open.filter(({ key, resolve }) => {
					const own = there.has(this.ownOf(key));
					if (own && there.has(claimOf(key))) resolve('mine');
					else if (!own && there.has(raceOf(key))) resolve('taken');
					else return true;
					return false;
				});
			}
			for (const { resolve } of open) resolve(this.slowCalls !== slowBefore ? 'unsure' : 'taken');
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
	 * remembered without one, and checks that the rows it created still have theirs (after the
	 * wait; written again when a write dropped them); takes the process's tokens off the list, and
	 * the claims it won but used for nothing (no creation sent, nothing remembered) with their
	 * races. Answers are asked afresh by the next execution. Returns how many claims were added.
	 */
	async settle(): Promise<number> {
		if (!this.available) return 0;
		await Promise.allSettled([...this.standings.values()].map(({ answer }) => answer));
		const unused = [...this.standings].filter(([key, { settled }]) => settled === 'mine' && !this.attempted.has(key) && !this.kept.has(key)).map(([key]) => key);
		const added = this.toEnsure.size;
		for (const key of this.attempted) if (this.dropped === true ? false : !this.dropped.has(key)) this.toEnsure.add(key);
		this.standings.clear();
		this.attempted.clear();
		this.kept.clear();
		this.dropped = new Set<string>();
		let missing = [...this.toEnsure];
		for (let round = 0; round < ENSURE_ROUNDS && missing.length > 0; round++) {
			for (let at = 0; at < missing.length; at += CHUNK) await this.record(missing.slice(at, at + CHUNK).map(claimOf));
			await this.timing.clock.sleep(this.waitMs);
			const kept = new Set<string>();
			for (let at = 0; at < missing.length; at += CHUNK) for (const value of await this.record(missing.slice(at, at + CHUNK).map(claimOf))) kept.add(value);
			missing = missing.filter((key) => !kept.has(claimOf(key)));
		}
		this.toEnsure.clear();
		const leaving = [...[...this.tokens].map((key) => this.ownOf(key)), ...unused.flatMap((key) => [claimOf(key), raceOf(key)])];
		this.tokens.clear();
		for (let at = 0; at < leaving.length; at += CHUNK) await this.remove(leaving.slice(at, at + CHUNK));
		return added;
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
