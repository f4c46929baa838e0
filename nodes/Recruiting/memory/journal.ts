/**
 * The creation journal: n8n's deduplication store (scope 'node', mode 'entries'), written to n8n's
 * database at once, in manual executions too, shared by every process and queue-mode worker. It is
 * the one place that says which rows the node knows: a row is known while the journal holds its
 * claim (`claim:<key>`). Forget This Row removes the claim, Forget All Rows the whole list.
 *
 * n8n's store reads a scope's whole list, then rewrites it, per call, without a lock (a lost
 * update), and stores only hashes. A row is first asked with its claim alone: there, it is known.
 * Not there (the call wrote it), the row is contested by Fischer's timed mutual exclusion: one call
 * writes `race:<key>` with `own:<key>:<token>`; a row whose race was there is another's. Otherwise
 * the process waits, then asks again: its token and the claim still there, the row is its own;
 * its token gone while the race is there, another's. Races stay (a loser still checking must find
 * them); tokens leave at the end.
 *
 * The timing assumption, in one sentence: every call to the store writes less than `MIN_WAIT_MS`
 * after it read, or the process that made it sees the call take that long. Every process waits at
 * least `MIN_WAIT_MS` before it checks. A process that sees one of its own calls take that long
 * trusts nothing its contests decided meanwhile (those rows are `unsure`: refused, saying why),
 * and at its end checks that the rows it created still have their claims (docs/sync-memory.md).
 * Checked by a deterministic simulation: test/unit/claimsSimulation.test.ts.
 */
import { randomBytes } from 'crypto';

import type { Explained } from './marks';
import { claimOf, doneOf, EPOCH_MS, epochAt, leaseOf, MARGIN_MS, ownOf, pendingOf, raceOf, sentOf } from './marks';
import type { StoreHelpers, StoreTiming } from './storeCalls';
import { CHUNK, MIN_WAIT_MS, StoreCalls } from './storeCalls';

export { MIN_WAIT_MS } from './storeCalls';
export const MAX_WAIT_MS = 2_000;
export const WAIT_FACTOR = 3;

/** Rounds of the check before a row counts as another's (a write for other rows, read before this one's, can drop its token: the check goes on). */
export const ROUNDS = 16;

/** Rounds when the claims of remembered and created rows are checked at the end. */
const ENSURE_ROUNDS = 3;

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

/** How long an answer counts in this process before the row is asked again (a forget in another process is then seen). */
export const ANSWER_MS = 30_000;

/**
 * One row's life in this process (docs/sync-memory.md draws it): asked, then decided (`settled`);
 * `sent` once a creation of it went out from here, `kept` once its slug is remembered, `unknown`
 * when a creation got no answer (held for every execution of the process, not sent again). The
 * executions that asked it and have not ended are its `users`: when the last of them ends, a
 * claim it won and never used (nothing sent, nothing remembered: a stopped run, a row prepared
 * ahead) is taken off the store, so that the next run creates the row.
 */
interface Row {
	answer: Promise<Standing>;
	at: number;
	settled?: Standing;
	users: Set<number>;
	sent: boolean;
	kept: boolean;
	unknown: boolean;
	/** Entries of this process for the row that leave the list when its last user ends: its tokens and leases. */
	own: Set<string>;
	/** When this process last started writing the row's lease (0: never). */
	leasedAt: number;
}

type Names = (key: string) => { race: string; own: string };

/**
 * One journal per process and node memory (it lives in the registry's `Shared`): the executions
 * of the node that overlap in this process ask each row once and contest it as one, so that they
 * never refuse each other; they take turns per row (registry.ts) instead. Each execution is a
 * visit (`begin`, `end`): what one execution's end takes off the store is only what no other
 * running execution of the process still uses.
 */
export class Journal {
	private readonly token = randomBytes(6).toString('base64url');

	private readonly store: StoreCalls;

	private readonly rows = new Map<string, Row>();

	/** Running executions (visits) and the rows each created or remembered: checked at its end. */
	private readonly visits = new Map<number, Set<string>>();

	/** Writes that go on in the background (a row's content, a confirmation): an execution's end waits for them. */
	private readonly background = new Set<Promise<unknown>>();

	private nextVisit = 1;

	/** Rows forgotten in this process while executions run (`true`: all of them): an execution still running that remembers one does not claim it again. */
	private dropped: Set<string> | true = new Set<string>();

	private waiting: Waiting[] = [];

	private flushing = false;

	constructor(private readonly timing: JournalHost) {
		this.store = new StoreCalls(timing);
	}

	/** The helpers of the execution that opens the memory (any execution's reach the same list: workflow id and node id). */
	use(helpers: StoreHelpers): void {
		this.store.helpers = helpers;
	}

	/** Whether this n8n has the deduplication store (n8n 1.64 and later; not in every context). */
	get available(): boolean {
		return this.store.available;
	}

	/** The longest call of this process that took `MIN_WAIT_MS` or longer (0: none): what an `unsure` row says. */
	get slowestMs(): number {
		return this.store.slowestMs;
	}

	private get waitMs(): number {
		return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, WAIT_FACTOR * this.store.longestMs));
	}

	private get now(): number {
		return this.timing.clock.now();
	}

	private async record(values: string[]): Promise<Set<string>> {
		return await this.store.record(values);
	}

	private async remove(values: string[]): Promise<void> {
		await this.store.remove(values);
	}

	private later(work: Promise<unknown>): void {
		const running = work.catch(() => undefined).finally(() => this.background.delete(running));
		this.background.add(running);
	}

	/** An execution starts using the journal: its number, for `standing`, `claim`, `keep` and `end`. */
	begin(): number {
		const visit = this.nextVisit++;
		this.visits.set(visit, new Set<string>());
		return visit;
	}

	/** What the journal says of a row (asked once for the process's overlapping executions; rows asked together share their calls). */
	async standing(key: string, visit: number): Promise<Standing> {
		if (!this.available) return 'mine';
		let row = this.rows.get(key);
		if (!row || (row.settled !== undefined && row.settled !== 'mine' && this.now - row.at > ANSWER_MS)) {
			if (this.dropped !== true) this.dropped.delete(key);
			row = this.ask(key, row);
		}
		if (this.visits.has(visit)) row.users.add(visit);
		return await row.answer;
	}

	private ask(key: string, before: Row | undefined, enter: (row: Row) => Promise<Standing> = () => new Promise<Standing>((resolve, reject) => this.waiting.push({ key, resolve, reject }))): Row {
		const row: Row = { answer: Promise.resolve('taken'), at: this.now, users: before?.users ?? new Set(), sent: false, kept: false, unknown: false, own: before?.own ?? new Set(), leasedAt: 0 };
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

	/** Whether a creation of the row went out from this process without an answer: no execution of the process sends it again. */
	held(key: string): boolean {
		return this.rows.get(key)?.unknown === true;
	}

	/** Writes the leases of `keys` (with `values`), and notes when. */
	private async leased(keys: string[], values: string[]): Promise<Set<string>> {
		const [at, epoch] = [this.now, epochAt(this.now)];
		for (const key of keys) {
			const row = this.rows.get(key);
			row?.own.add(leaseOf(key, epoch));
			if (row) row.leasedAt = at;
		}
		return await this.record([...values, ...keys.map((key) => leaseOf(key, epoch))]);
	}

	/**
	 * Before a creation: true when this process holds the row's claim and no creation of it is of
	 * unknown outcome. A claim whose lease is close to expiring is contested again first (another
	 * process may be taking it over); then `sent:<key>` is written, before anything goes out.
	 */
	async claim(key: string, visit: number): Promise<boolean> {
		if ((await this.standing(key, visit)) !== 'mine') return false;
		let row = this.rows.get(key);
		if (!row || row.unknown) return false;
		if (this.available && !row.sent && this.now - row.leasedAt > EPOCH_MS - MARGIN_MS) {
			if ((await this.retake(key, visit)) !== 'mine') return false;
			row = this.rows.get(key)!;
		}
		if (this.available && !row.sent) await this.store.recordTogether([sentOf(key)]);
		row.sent = true;
		this.visits.get(visit)?.add(key);
		return true;
	}

	/** A creation sent without an answer: the row stays claimed and held in this process (and refused as "may already exist" elsewhere). */
	unanswered(key: string): void {
		const row = this.rows.get(key);
		if (row) row.unknown = true;
	}

	/** A row an execution remembered (its slug is known): its claim stays, and is checked (written when missing) at the execution's end. */
	keep(key: string, visit: number): void {
		const row = this.rows.get(key);
		if (row) row.kept = true;
		// A row whose claim was there when asked keeps it; any other (adopted before the answer came, say) is checked at the end.
		if (this.available && !this.isDropped(key) && row?.settled !== 'known') this.visits.get(visit)?.add(key);
	}

	private isDropped(key: string): boolean {
		return this.dropped === true || this.dropped.has(key);
	}

	/**
	 * Asks the waiting rows, one batch at a time, with a lease (the asker is alive): a row whose
	 * claim is there is `known` (its lease is taken off again). A row whose claim was not (this
	 * call wrote it: a new row, or a forgotten one) is contested: one call writes `race:<key>` with
	 * this process's token and the row's two `pending` entries; a row whose race another process
	 * had entered is `taken`; the others are decided after the wait (`decide`). A slow first call
	 * counts too: it may have written back a list read before another process's race.
	 */
	private async flush(): Promise<void> {
		this.flushing = true;
		try {
			while (this.waiting.length > 0) {
				const batch = this.waiting.splice(0, CHUNK);
				try {
					const slowBefore = this.store.slowCalls;
					const claimed = await this.leased(
						batch.map(({ key }) => key),
						batch.map(({ key }) => claimOf(key)),
					);
					const known = batch.filter(({ key }) => claimed.has(claimOf(key)));
					const contested = batch.filter(({ key }) => !claimed.has(claimOf(key)));
					for (const { resolve } of known) resolve('known');
					if (contested.length > 0) {
						for (const { key } of contested) this.rows.get(key)?.own.add(ownOf(key, this.token));
						const raced = await this.record(contested.flatMap(({ key }) => [raceOf(key), ownOf(key, this.token), ...pendingOf(key)]));
						const open = contested.filter(({ key, resolve }) => (raced.has(raceOf(key)) ? (resolve('taken'), false) : true));
						if (open.length > 0) void this.decide(open, slowBefore, (key) => ({ race: raceOf(key), own: ownOf(key, this.token) }));
					}
					await this.remove(known.flatMap(({ key }) => [...(this.rows.get(key)?.own ?? [])].filter((value) => value.startsWith('lease:'))));
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
	private async decide(batch: Waiting[], slowBefore: number, names: Names): Promise<void> {
		let open = batch;
		try {
			for (let round = 0; round < ROUNDS && open.length > 0 && this.store.slowCalls === slowBefore; round++) {
				// Then 1–2 waits: two processes whose checks keep dropping each other's writes fall out of step.
				await this.timing.clock.sleep(this.waitMs * (round === 0 ? 1 : 1 + this.timing.clock.random()));
				const keys = open.map(({ key }) => key);
				const there = await this.leased(
					keys,
					keys.flatMap((key) => [names(key).own, names(key).race, claimOf(key)]),
				);
				if (this.store.slowCalls !== slowBefore) break;
				open = open.filter(({ key, resolve }) => {
					const own = there.has(names(key).own);
					if (own && there.has(claimOf(key))) resolve('mine');
					else if (!own && there.has(names(key).race)) resolve('taken');
					else return true;
					return false;
				});
			}
			for (const { resolve } of open) resolve(this.store.slowCalls !== slowBefore ? 'unsure' : 'taken');
		} catch (error) {
			for (const entry of open) entry.reject(error);
		}
	}

	/**
	 * The epoch contest, for a claim that went stale: its holder's lease is about to expire
	 * (`claim`), or no process holds it any more (`explain`: stranded). One call writes the races
	 * of this epoch and the next with this process's token of this epoch: a race that was there is
	 * another taker's; otherwise Fischer's check decides, as for a new row.
	 */
	private async retake(key: string, visit: number): Promise<Standing> {
		const before = this.rows.get(key);
		const row = this.ask(key, before, async (fresh) => {
			const slowBefore = this.store.slowCalls;
			const epoch = epochAt(this.now);
			const own = ownOf(key, this.token, epoch);
			fresh.own.add(own);
			const raced = await this.leased([key], [raceOf(key, epoch), raceOf(key, epoch + 1), own]);
			if (raced.has(raceOf(key, epoch)) || raced.has(raceOf(key, epoch + 1))) return 'taken';
			return await new Promise<Standing>((resolve, reject) => void this.decide([{ key, resolve, reject }], slowBefore, () => ({ race: raceOf(key, epoch), own })));
		});
		if (this.visits.has(visit)) row.users.add(visit);
		return await row.answer;
	}

	/**
	 * What the journal tells of a row known without its slug here (marks.ts `Explained`). One call
	 * asks its content, `sent`, `pending` and the leases of this epoch and the last; what that call
	 * wrote only by asking is taken off again. `done` and `pending` count only with their second
	 * entry, asked in a call of its own: a process that dies between two calls leaves one entry
	 * alone, which the next asker takes off. A stranded row is taken over: `mine` when won.
	 */
	async explain(key: string, visit: number, print: string): Promise<Explained> {
		if (!this.available) return 'old';
		const epoch = epochAt(this.now);
		const [done, done2] = doneOf(key, print);
		const [pending, pending2] = pendingOf(key);
		const asked = [done, sentOf(key), pending, leaseOf(key, epoch), leaseOf(key, epoch - 1)];
		const there = await this.store.recordTogether(asked);
		const wrote = asked.filter((value) => !there.has(value));
		const second = async (value: string, first: string) => {
			const confirmed = (await this.store.recordTogether([value])).has(value);
			if (!confirmed) wrote.push(value, first);
			return confirmed;
		};
		let explained: Explained = 'old';
		if (there.has(done) && (await second(done2, done))) explained = 'same';
		else if (there.has(sentOf(key))) explained = 'sent';
		else if (there.has(leaseOf(key, epoch)) || there.has(leaseOf(key, epoch - 1))) explained = 'busy';
		else if (there.has(pending) && (await second(pending2, pending))) explained = 'stranded';
		await this.remove(wrote);
		if (explained !== 'stranded') return explained;
		return (await this.retake(key, visit)) === 'mine' ? 'stranded' : 'busy';
	}

	/** After everything of a row went through: its content is written (and the content it had before taken off), in the background. */
	done(key: string, print: string | undefined, before: string | undefined): void {
		if (!this.available || this.isDropped(key)) return;
		if (before !== undefined && before !== print) this.later(this.remove([...doneOf(key, before)]));
		if (print !== undefined) this.later(this.store.recordTogether([...doneOf(key, print)]));
	}

	/** Rows kept before the journal held every row (a `v: 2` copy, 0.2.0's memory): their claims are written at this execution's end. */
	ensure(keys: Iterable<string>, visit: number): void {
		const rows = this.visits.get(visit);
		if (this.available && rows) for (const key of keys) if (!this.isDropped(key)) rows.add(key);
	}

	/**
	 * When an execution ends (or stops): each row it asked that no other running execution of the
	 * process uses any more leaves the process: the claim it won and never used (no creation sent,
	 * nothing remembered: a row prepared ahead of a stop) is taken off the store with its race and
	 * pending entries, so that the next run creates the row (unless its lease had gone stale: then
	 * another process may have taken it over, and the claim stays); its tokens and leases leave the
	 * list. Then the rows this execution created or remembered are checked after the wait, with
	 * `sent` (written again when a write dropped them). Returns how many claims were missing.
	 */
	async end(visit: number): Promise<number> {
		const ensure = this.visits.get(visit);
		if (!ensure) return 0;
		this.visits.delete(visit);
		if (!this.available) return 0;
		const used = [...this.rows].filter(([, row]) => row.users.has(visit));
		await Promise.allSettled([...used.map(([, row]) => row.answer), ...this.background]);
		const leaving: string[] = [];
		for (const [key, row] of used) {
			row.users.delete(visit);
			if (row.users.size > 0 || this.rows.get(key) !== row) continue;
			this.rows.delete(key);
			const fresh = this.now - row.leasedAt < EPOCH_MS - MARGIN_MS;
			if (row.settled === 'mine' && !row.sent && !row.kept && fresh) leaving.push(claimOf(key), raceOf(key), ...pendingOf(key));
			leaving.push(...row.own);
		}
		await this.remove(leaving);
		let missing = [...ensure].filter((key) => !this.isDropped(key));
		if (this.visits.size === 0) this.dropped = new Set<string>();
		let written = 0;
		for (let round = 0; round < ENSURE_ROUNDS && missing.length > 0; round++) {
			// With its race: a row whose claim a write dropped later is then refused, not created again.
			for (let at = 0; at < missing.length; at += CHUNK) {
				const part = missing.slice(at, at + CHUNK);
				const there = await this.record(part.flatMap((key) => [claimOf(key), raceOf(key), sentOf(key)]));
				if (round === 0) written += part.filter((key) => !there.has(claimOf(key))).length;
			}
			await this.timing.clock.sleep(this.waitMs);
			const there = new Set<string>();
			for (let at = 0; at < missing.length; at += CHUNK) for (const value of await this.record(missing.slice(at, at + CHUNK).flatMap((key) => [claimOf(key), sentOf(key)]))) there.add(value);
			missing = missing.filter((key) => !there.has(claimOf(key)) || !there.has(sentOf(key)));
		}
		return written;
	}

	/** Everything the journal may hold of a row (but its content). */
	private entriesOf(key: string): string[] {
		return [claimOf(key), raceOf(key), ownOf(key, this.token), ...pendingOf(key), sentOf(key), ...(this.rows.get(key)?.own ?? [])];
	}

	/** After a creation the service refused (nothing exists): the row may be created again, by any execution. */
	async release(keys: string[]): Promise<void> {
		const entries = keys.flatMap((key) => this.entriesOf(key));
		for (const key of keys) {
			this.rows.delete(key);
			for (const rows of this.visits.values()) rows.delete(key);
		}
		await this.remove(entries);
	}

	/** Forgets a row: removes its claim (and the contents given); says whether there was one. */
	async forget(key: string, prints: string[] = []): Promise<boolean> {
		if (!this.available) return false;
		if (this.dropped !== true) this.dropped.add(key);
		// A claim this process made only by asking about the row (keyOf) is not one the row had.
		const asked = this.rows.get(key);
		const askedOnly = asked !== undefined && (await asked.answer.catch(() => undefined)) === 'mine' && !asked.sent && !asked.kept;
		const there = await this.record([claimOf(key)]);
		await this.remove(prints.flatMap((print) => [...doneOf(key, print)]));
		await this.release([key]);
		return there.has(claimOf(key)) && !askedOnly;
	}

	/** How many entries the list holds (read without writing). */
	async count(): Promise<number> {
		return this.available ? await this.store.count() : 0;
	}

	/** Forgets every row, at once for every process; returns how many entries the list held (storeCalls.ts). */
	async clear(): Promise<number> {
		this.dropped = true;
		for (const rows of this.visits.values()) rows.clear();
		this.rows.clear();
		return await this.store.clear();
	}
}
