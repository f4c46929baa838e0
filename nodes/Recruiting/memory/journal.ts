/**
 * The creation journal: n8n's deduplication store (scope 'node', mode 'entries'), written at once, in manual executions too,
 * shared by every process and queue-mode worker: a row is known while it holds the row's claim (`claim:<key>`). A row's life
 * (docs/sync-memory.md): asked and contested (contest.ts), sent, created or of unknown outcome (held), or left; each execution
 * is a visit, and an end takes off only what no running execution uses. A row known without its slug is explained (`explain`).
 */
import { Asks } from './asks';
import type { Explained } from './marks';
import { askingOf, claimOf, doneOf, minuteAt, raceOf } from './marks';
import type { Row, Standing } from './contest';
import { Contest } from './contest';
import type { StoreHelpers } from './storeCalls';
import { CHUNK } from './storeCalls';
import { Dropped } from './dropped';
import type { Ending } from './visits';
import { Visits } from './visits';

export type { JournalHost, Standing } from './contest';
export { AHEAD, MAX_WAIT_MS, MIN_WAIT_MS, ROUNDS, WAIT_FACTOR } from './contest';
/** Rounds when the claims of remembered and created rows are checked at the end. */
const ENSURE_ROUNDS = 4;
/** How long an answer counts in this process before the row is asked again (a forget in another process is then seen). */
export const ANSWER_MS = 30_000;
/** A claim this process won and never used: nothing sent or remembered for it (a row held, `unknown`, was sent). */
const unused = (row: Row | undefined): boolean => row?.settled === 'mine' && !row.sent && !row.kept;

/**
 * One journal per process and node memory (in the registry's `Shared`): overlapping executions of the process ask each row
 * once and contest it as one (never refusing each other), taking turns per row (registry.ts); each is a visit (`begin`, `end`).
 */
export class Journal extends Contest {
	/** Running executions (visits) and what the end of each checks (visits.ts). */
	private readonly visits = new Visits();
	/** What asks of this process wrote only by asking: taken off again at an end (asks.ts). */
	private readonly asks = new Asks();
	/** Writes that go on in the background (a row's content, a confirmation): an execution's end waits for them. */
	private readonly background = new Set<Promise<unknown>>();
	private nextVisit = 1;
	private readonly dropped = new Dropped();

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

	private later(work: Promise<unknown>): void {
		const running = work.catch(() => undefined).finally(() => this.background.delete(running));
		this.background.add(running);
	}

	/** An execution starts using the journal: its number, for `standing`, `claim`, `keep` and `end`. */
	begin(): number {
		const visit = this.nextVisit++;
		this.visits.begin(visit);
		return visit;
	}

	/** A row's standing, asked once for the process's overlapping executions; `ahead`: a row prepared ahead, its answer not awaited yet (contest.ts `ask`). */
	async standing(key: string, visit: number, ahead = false): Promise<Standing> {
		if (!this.available) return 'mine';
		let row = this.rows.get(key);
		if (!row || (row.settled !== undefined && row.settled !== 'mine' && this.elapsed - row.at > ANSWER_MS)) {
			this.dropped.revive(key);
			row = this.ask(key, row);
		}
		this.use_(row, visit);
		if (!ahead) this.hurry(key);
		return await row.answer;
	}

	/** The row is used by this visit (its end counts it). */
	private use_(row: Row, visit: number): void {
		if (this.visits.has(visit)) row.users.add(visit);
	}

	/** Whether this process won the row's claim afresh (a new row, or one forgotten): not one it created or remembered. */
	wonAfresh(key: string): boolean {
		return unused(this.rows.get(key));
	}

	/** Whether a creation of the row went out from this process without an answer: no execution of the process sends it again. */
	held(key: string): boolean {
		return this.rows.get(key)?.unknown === true;
	}

	/** Before a creation: true when this process holds the row's claim and no creation of it is of unknown outcome. */
	async claim(key: string, visit: number): Promise<boolean> {
		if ((await this.standing(key, visit)) !== 'mine') return false;
		const row = this.rows.get(key);
		// Created or remembered by an execution of this process already: its slug is what the row needs, never a second creation.
		if (!row || row.unknown || row.sent || row.kept) return false;
		row.sent = true;
		this.visits.of(visit)?.add(key);
		return true;
	}

	/** A creation sent without an answer: the row stays claimed and held in this process (and refused as "may already exist" elsewhere). */
	unanswered(key: string): void {
		const row = this.rows.get(key);
		if (row) row.unknown = true;
	}

	/**
	 * A row an execution remembered (its slug is known): its claim stays, and is checked (written when missing) at the end. A key
	 * not asked here (a row's other key: `keyOf` asks only the one it is matched by) is asked now, as kept (with the next call).
	 */
	keep(key: string, visit: number): void {
		const ensure = this.visits.of(visit);
		const row = this.rows.get(key);
		const usable = this.available && !this.dropped.has(key);
		const asking = !row && usable ? this.standing(key, visit, true) : undefined;
		const kept = this.rows.get(key);
		if (kept) kept.kept = true;
		// A row whose claim was there when asked keeps it; any other (adopted before the answer came, say) is checked at the end.
		const check = (standing?: Standing) => standing !== 'known' && ensure?.add(key);
		if (asking) this.later(asking.then(check, () => check()));
		else if (row && usable) check(row.settled);
	}

	/** A row's other keys follow its key, before it is sent or adopted: one forgotten here no longer is once the row's key was asked since (dropped.ts); the visit's end checks them with it (visits.ts). */
	follow(key: string, aliases: readonly string[], visit: number): void {
		if (this.dropped.has(key)) return;
		for (const alias of aliases) this.dropped.revive(alias);
		this.visits.follow(visit, key, aliases);
	}

	/**
	 * What the journal tells of a row known without its slug here (marks.ts `Explained`): one call asks its claim and
	 * content with this asker's `asking` mark (another's there: `busy`, its false writes cannot be told); the content
	 * counts only with its pair, asked in a call of its own. What asks wrote is taken off, again at an end (asks.ts); an
	 * answer of a call made twice may show this ask's own writes: nothing is told from it.
	 */
	async explain(key: string, print: string): Promise<Explained> {
		if (!this.available) return 'known';
		const [done, done2] = doneOf(key, print);
		const minute = minuteAt(this.timing.clock.now());
		const asking = [askingOf(key, minute), askingOf(key, minute - 1)];
		const asked = [claimOf(key), done, ...asking];
		const withoutOwnPair = (values: string[]) => values.filter((value) => !this.visits.pairOf(key)?.includes(value));
		let [explained, wrote]: [Explained, string[]] = ['known', []];
		this.asks.begin(key);
		try {
			const there = await this.store.recordTogether(asked);
			const retried = this.store.wasRetried(there);
			wrote = asked.filter((value) => !there.has(value) || (retried && value !== claimOf(key)));
			if (!retried && !there.has(claimOf(key))) explained = 'gone';
			else if (!retried && asking.some((value) => there.has(value))) explained = 'busy';
			else if (!retried && there.has(done)) {
				wrote.push(done2); // unless it was there: a call that fails may have written it too
				const second = await this.store.recordTogether([done2]);
				if (second.has(done2) && !this.store.wasRetried(second)) {
					explained = 'same';
					wrote.pop();
				} else wrote.push(done);
			}
			await this.remove(withoutOwnPair(wrote));
		} finally {
			this.asks.end(key, withoutOwnPair(wrote).filter((value) => value !== claimOf(key) && value !== done), this.elapsed);
		}
		if (explained === 'gone') {
			for (const token of this.rows.get(key)?.own ?? []) this.loose.add(token);
			this.rows.delete(key);
		}
		return explained;
	}

	/** After everything of a row went through: its content is written (and the content it had before taken off), in the background. */
	done(key: string, print: string | undefined, before: string | undefined, visit: number): void {
		if (!this.available || this.dropped.has(key)) return;
		if (before !== undefined && before !== print) {
			// Still in line (a lazy write): it never goes; already written: taken off.
			this.store.withdraw([...doneOf(key, before)]);
			this.later(this.remove([...doneOf(key, before)]));
		}
		this.visits.wrote(visit, key, print === undefined ? undefined : doneOf(key, print));
		if (print !== undefined) {
			this.asks.drop(doneOf(key, print));
			// With a slow store, it goes with the next call the rows need (or the end's).
			this.later(this.store.recordTogether([...doneOf(key, print)], this.lazy));
		}
	}

	/** Rows kept before the journal held every row (a `v: 2` copy, 0.2.0's memory): their claims are written at this execution's end. */
	ensure(keys: Iterable<string>, visit: number): void {
		const rows = this.visits.of(visit);
		if (this.available && rows) for (const key of keys) if (!this.dropped.has(key)) rows.add(key);
	}

	async end(visit: number): Promise<number> {
		const ending = this.visits.end(visit);
		if (!ending) return 0;
		try {
			return this.available ? await this.close(visit, ending) : 0;
		} finally {
			// What this end left unchecked goes to the ends of executions running now; with none running or ending, what the process forgot counts no more.
			if (this.visits.ended(ending)) this.dropped.reset();
		}
	}

	private async close(visit: number, ending: Ending): Promise<number> {
		const used = [...this.rows].filter(([, row]) => row.users.has(visit));
		this.hurry();
		this.store.kick();
		await Promise.allSettled([...used.map(([, row]) => row.answer), ...this.background]);
		// The rows this visit created, remembered, wrote the content of, sent or adopted, with their other keys (visits.ts).
		const rows = ending.rows();
		const [leaving, released] = [new Set<string>(), [] as string[]];
		for (const [key, row] of used) {
			row.users.delete(visit);
			if (row.users.size > 0 || this.rows.get(key) !== row) continue;
			this.rows.delete(key);
			if (unused(row)) released.push(key);
			for (const token of row.own) leaving.add(token);
		}
		for (const token of this.loose) leaving.add(token);
		this.loose.clear();
		// A batch's token leaves with the last row of this process that uses it.
		for (const row of this.rows.values()) for (const token of row.own) if (leaving.delete(token)) this.loose.add(token);
		// The wait of the check below runs from here (this process's last write of what it checks), while the rest is taken off.
		const waited = this.timing.clock.sleep(this.waitMs);
		// The last rows first: a re-run takes the first back before their call (storeCalls.ts `withhold`), and asks the rest later.
		await this.takeOff(released.reverse(), [...leaving]);
		const removed = this.timing.clock.sleep(this.waitMs);
		let missing = (ending.unchecked = rows.filter((key) => !this.dropped.has(key)));
		// The content pair this process wrote last for the row, read at each check (another execution may have replaced it meanwhile).
		const checked = (key: string) => [claimOf(key), ...(this.visits.pairOf(key) ?? [])];
		let written = 0;
		// After the wait, every call that read before this process's last write has landed: what is there stays. One call looks and
		// writes again what is missing (with its race: a row whose claim a write dropped is then refused, not created again).
		for (let round = 0; round < ENSURE_ROUNDS && missing.length > 0; round++) {
			await (round === 0 ? waited : this.timing.clock.sleep(this.waitMs));
			const there = new Set<string>();
			for (let at = 0; at < missing.length; at += CHUNK) for (const value of await this.record(missing.slice(at, at + CHUNK).flatMap((key) => [...checked(key), raceOf(key)]))) there.add(value);
			if (round === 0) written = missing.filter((key) => !there.has(claimOf(key))).length;
			ending.unchecked = missing = missing.filter((key) => checked(key).some((value) => !there.has(value)));
		}
		// What asks wrote (asks.ts) and tokens: off again once every write that read before their removal landed (another's true
		// second half written meanwhile may go too: read as changed, never as sent). A slow store: tokens once (a call costs 1 s+).
		if (this.asks.size > 0 || (!this.lazy && leaving.size > 0)) {
			await removed;
			const due = this.asks.dueIn(this.elapsed, this.waitMs);
			if (due > 0) await this.timing.clock.sleep(due);
			const again = this.asks.ready(this.visits.mine, this.elapsed, this.waitMs);
			await this.remove([...again, ...(this.lazy ? [] : leaving)]);
			this.asks.drop(again);
		}
		// Claims are not removed a second time: by then another process may have claimed the row afresh (the simulation found that).
		// A write that read before the removal and landed after it can bring a released claim back: refused, never created twice.
		return written;
	}

	/** After a creation the service refused (nothing exists): the row may be created again, by any execution (its batch's token stays for the others of the batch: it leaves at the end). */
	async release(keys: string[]): Promise<void> {
		for (const key of keys) {
			for (const token of this.rows.get(key)?.own ?? []) this.loose.add(token);
			this.rows.delete(key);
			this.visits.drop(key);
		}
		await this.takeOff(keys);
	}

	/** Forgets a row: removes its claim (and the content marks given); says whether there was one. */
	async forget(key: string, prints: string[] = []): Promise<boolean> {
		if (!this.available) return false;
		this.dropped.add(key);
		this.visits.drop(key); // nor is its content pair checked (written back) at an end (test/service/followBreak.test.ts)
		// A claim this process made only by asking about the row (keyOf) is not one the row had.
		const asked = this.rows.get(key);
		this.hurry();
		const askedOnly = asked !== undefined && (await asked.answer.catch(() => undefined)) === 'mine' && unused(asked);
		const there = await this.record([claimOf(key)]);
		await this.remove(prints.flatMap((print) => [...doneOf(key, print)]));
		await this.release([key]);
		return there.has(claimOf(key)) && !askedOnly;
	}

	/** How many entries the list holds (read without writing). */
	async count(): Promise<number> {
		return this.available ? await this.store.count() : 0;
	}

	/** Forgets every row, at once for every process; returns how many entries the list held (storeCalls.ts). The timings go too. */
	async clear(): Promise<number> {
		this.dropped.addAll();
		this.visits.clear();
		this.rows.clear();
		this.timing.recentCallsMs.length = 0; // those of the list just removed (a large one kept the next 20 calls slow)
		return await this.store.clear();
	}
}
