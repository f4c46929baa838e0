/**
 * How many rows one execution of Create or Update prepares ahead, from the node's pace.
 *
 * A new row prepared ahead is claimed in n8n's store at once (contest.ts), so that its claim is
 * decided before it is sent. A worker killed in the middle of a run leaves every row it claimed
 * and never sent: refused ("may already exist"), never created (docs/sync-memory.md). So an
 * execution prepares only what its pace needs: the rows it could send during one decision (a
 * claim, a race, the wait and a check), and half as many again. What it could send is its rows in
 * flight over the time a row takes once its turn and its decision came (the time it waited for a
 * decision left out, so that a run that waited does not count itself slower than it is), over the
 * last rows of the node's executions in this process (`PaceSamples`, kept by the registry's
 * `Shared`): a later execution starts from its predecessors' pace, however long ago (a pace that no
 * longer holds is corrected by the first rows done: a faster one by the last 8, a slower one over 32). `INITIAL_AHEAD` before any row of the node was
 * done here; at most `Contest.ahead` (100 while the store answers at once). While the store's calls
 * are slow enough to ask rows in batches (`lazy`), a batch is a third of the pace's rows and is
 * prepared besides (a row waits for its batch before it is asked: `Contest.window`); not the most
 * the store allows, which a busy small list reached too (a killed worker then left 760 rows claimed
 * and never created, against 161–211 on a quiet machine). Rows this process holds (learned, saved, noted)
 * claim nothing when asked, unless their claim is gone (another process forgot them; a Forget run by hand, which n8n
 * does not save): they are prepared besides (`heldAhead`) once their asks answered that, and a batch of them before
 * (`asking`), so that a sheet of such rows is claimed at the pace too. Only rows that sent
 * something and that this process did not hold are samples (a row found unchanged or refused takes
 * about 1 ms, and new rows after such rows would be claimed as if they went as fast).
 */
import type { Clock } from './clock';

/** Rows ahead: this many times the rows the execution could send during one decision. */
export const PACE_MARGIN = 1.5;

/** Rows ahead before any row of the node was done in this process (the rows in flight are taken besides). */
export const INITIAL_AHEAD = 25;

/** Never fewer rows ahead. */
export const MIN_AHEAD = 10;

/** The rows whose times count. */
const SAMPLES = 32;

/** The last rows that alone may make the pace faster (an earlier, slower execution's rows do not hold a faster one back). */
const RECENT = 8;

/** The last rows of a node's executions in this process: how long each took once nothing held it, and the rows in flight when it was taken. */
export class PaceSamples {
	readonly times: number[] = [];

	readonly widths: number[] = [];

	add(list: number[], value: number): void {
		list.push(value);
		if (list.length > SAMPLES) list.shift();
	}

	/**
	 * Rows to prepare ahead: 1.5 times the rows an execution could send in one decision (`decisionMs`), between `MIN_AHEAD`
	 * and `most`, at the pace of the last `SAMPLES` rows or of the last `RECENT`, whichever is faster.
	 */
	ahead(most: number, decisionMs: number): number {
		if (this.times.length === 0) return Math.min(most, INITIAL_AHEAD);
		const width = Math.max(...this.widths);
		const rows = (times: number[]) => Math.ceil((PACE_MARGIN * width * decisionMs) / Math.max(1, times.reduce((sum, ms) => sum + ms, 0) / times.length));
		return Math.min(most, Math.max(MIN_AHEAD, rows(this.times), rows(this.times.slice(-RECENT))));
	}
}

/** One execution's rows in flight, measured into the node's samples. */
export class Pace {
	/** Row key → when it last stopped waiting (its turn came, or its decision), and whether its time counts. */
	private readonly flying = new Map<string, { since: number; counts: boolean; sent?: boolean }>();

	/**
	 * Rows prepared and not taken yet, in the order prepared: `held` (this process holds it and its ask found its claim),
	 * `asking` (it holds it, the ask has not answered), or `claims` (a row whose ask may claim it). Rows are taken (or
	 * forgotten) in input order, so a row prepared before a taken one that was never taken failed its checks: its note
	 * leaves with the taken row's, else each such row would widen the window.
	 */
	private readonly prepared = new Map<string, 'held' | 'asking' | 'claims'>();

	private readonly counts = { held: 0, asking: 0, claims: 0 };

	constructor(
		private readonly clock: Clock,
		private readonly samples: PaceSamples,
	) {}

	/** Held rows whose asks may be open at once besides the pace: one more with each found, half with each claimed afresh. */
	private trust = MIN_AHEAD;

	/**
	 * Rows prepared ahead that this process holds: they claim nothing, so they are prepared besides the pace, once their asks
	 * found their claims, and as many before as `trust` allows (a sheet forgotten elsewhere is claimed at the pace).
	 */
	get heldAhead(): number {
		return this.counts.held + Math.min(this.counts.asking, this.trust);
	}

	/** A row was prepared (its key asked); `held`: this process holds it. */
	prepare(key: string, held: boolean): void {
		this.unnote(key);
		this.note(key, held ? 'asking' : 'claims');
	}

	/** A held row's ask answered: `free`, its claim was there (or is this process's from before); else it was claimed afresh. */
	answered(key: string, free: boolean): void {
		if (this.prepared.get(key) !== 'asking') return;
		this.counts.asking--;
		this.trust = free ? this.trust + 2 : Math.max(MIN_AHEAD, Math.floor(this.trust / 2));
		this.note(key, free ? 'held' : 'claims'); // in its place: the order prepared stays
	}

	private note(key: string, state: 'held' | 'asking' | 'claims'): void {
		this.prepared.set(key, state);
		this.counts[state]++;
	}

	private unnote(key: string): void {
		const state = this.prepared.get(key);
		if (state !== undefined) this.counts[state]--;
		this.prepared.delete(key);
	}

	/** A row prepared ahead is done with (taken, or forgotten): its note leaves, and those of the rows prepared before it. */
	passed(key: string): void {
		if (!this.prepared.has(key)) return;
		for (const before of this.prepared.keys()) {
			this.unnote(before);
			if (before === key) break;
		}
	}

	/** A row is taken: its turn to be sent (or found unchanged) came. `counts`: its time is a sample (a row this process does not hold). */
	took(key: string, counts: boolean): void {
		this.passed(key);
		this.flying.set(key, { since: this.clock.elapsed(), counts });
		this.samples.add(this.samples.widths, this.flying.size);
	}

	/** The row's turn came, or its decision: the time since it was taken does not count. */
	ready(key: string): void {
		const row = this.flying.get(key);
		if (row) row.since = this.clock.elapsed();
	}

	/** Something of the row went to the service (a row refused or found unchanged takes about 1 ms: no sample). */
	sent(key: string): void {
		const row = this.flying.get(key);
		if (row) row.sent = true;
	}

	/** The row waits (its decision): that time does not count. */
	async waits<T>(key: string, work: Promise<T>): Promise<T> {
		try {
			return await work;
		} finally {
			this.ready(key);
		}
	}

	/** The row is done (sent, found unchanged, or failed). */
	done(key: string): void {
		const row = this.flying.get(key);
		if (row === undefined) return;
		this.flying.delete(key);
		if (row.counts && row.sent === true) this.samples.add(this.samples.times, this.clock.elapsed() - row.since);
	}

	/** Rows to prepare ahead from the node's pace (`PaceSamples.ahead`). */
	ahead(most: number, decisionMs: number): number {
		return this.samples.ahead(most, decisionMs);
	}
}
