/**
 * The journal's calls to n8n's deduplication store (scope 'node', mode 'entries'), one at a time
 * per process, each timed: how long the last calls took sizes the journal's wait, spaces the next
 * call, and says when a call was too slow to trust (journal.ts, the timing assumption).
 */
import type { DeduplicationHelperFunctions, ICheckProcessedOptions } from 'n8n-workflow';

import { CHUNK, MIN_WAIT_MS, REMOVE_CHUNK, trustMs } from './bound';
import type { Clock } from './clock';

const OPTIONS: ICheckProcessedOptions = { mode: 'entries' };

export { CHUNK, MIN_WAIT_MS, REMOVE_CHUNK } from './bound';

/** Calls timed per process: the wait and the spacing follow the longest of them. */
export const RECENT_CALLS = 20;

export type StoreHelpers = Partial<Pick<DeduplicationHelperFunctions, 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems' | 'getProcessedDataCount'>>;

/** What the calls share with the process's memory of the node (the registry's `Shared`). */
export interface StoreTiming {
	readonly clock: Clock;
	/** Runs `work` after the store calls already in line in this process (so that they do not drop each other's writes). */
	inTurn<T>(key: string, work: () => Promise<T>): Promise<T>;
	/** How long this process's last calls to the store took, in ms (the newest last). */
	recentCallsMs: number[];
}

export class StoreCalls {
	helpers: StoreHelpers = {};

	/** How many calls of this process took `MIN_WAIT_MS` or longer, and the longest of them. */
	slowCalls = 0;

	slowestMs = 0;

	/** When this process's last call ended. */
	private lastEnd = 0;

	/** The list's size as this process last counted it: every check waits at least the bound of a list half as large again (bound.ts). */
	entries = 0;

	/** Counts the list now (0 when n8n cannot count; undefined: the count failed). */
	private async countNow(): Promise<number | undefined> {
		const count = this.helpers.getProcessedDataCount;
		const entries = typeof count === 'function' ? await count('node', OPTIONS).catch(() => undefined) : 0;
		if (entries !== undefined) this.entries = entries;
		return entries;
	}

	/**
	 * Counts the list for a contest's wait (after its race, at its check), out of turn: a read writes nothing, so it need not
	 * wait for this process's calls in line. A count that failed counts as the largest list.
	 */
	async recount(): Promise<number> {
		const entries = await this.countNow();
		this.entries = entries ?? Number.POSITIVE_INFINITY;
		return this.entries;
	}

	constructor(private readonly timing: StoreTiming) {}

	get available(): boolean {
		return typeof this.helpers.checkProcessedAndRecord === 'function';
	}

	get longestMs(): number {
		return Math.max(0, ...this.timing.recentCallsMs);
	}

	/**
	 * One call, in turn with this process's others, timed. It starts no sooner than the longest
	 * recent call after the previous one ended: a call of another process that read before this
	 * process's last write has landed by then, so two versions of the list do not stay alive by
	 * landing between each other's write and next read (the simulation's ping-pong scenario).
	 */
	private async call<T>(work: () => Promise<T>): Promise<T> {
		const clock = this.timing.clock;
		return await this.timing.inTurn(' journal', async () => {
			const pause = this.lastEnd + this.longestMs - clock.elapsed();
			if (pause > 0) await clock.sleep(pause);
			const [started, startedWall] = [clock.elapsed(), clock.now()];
			try {
				return await work();
			} finally {
				this.lastEnd = clock.elapsed();
				const took = this.lastEnd - started;
				const recent = this.timing.recentCallsMs;
				recent.push(took);
				if (recent.length > RECENT_CALLS) recent.shift();
				// Slow by either clock: the time that passes hides a machine suspended during the call, the wall clock one set back.
				// Trusted below the bound of the list's size counted now (bound.ts): it wrote before every other process checks.
				const real = Math.max(took, clock.now() - startedWall);
				if (real >= MIN_WAIT_MS && real >= trustMs((await this.countNow()) ?? 0)) [this.slowCalls, this.slowestMs] = [this.slowCalls + 1, Math.max(this.slowestMs, real)];
			}
		});
	}

	/** Answers that came from a second attempt (`record`): values the failed first one wrote show as there. */
	private readonly retried = new WeakSet<Set<string>>();

	/**
	 * Writes `values` and says which were there; once more when the call failed (two executions
	 * created the list at the same moment). The second answer may count what the first attempt
	 * wrote before it failed as there before (`wasRetried`).
	 */
	private async record(values: string[]): Promise<{ there: Set<string>; retried: boolean }> {
		const once = async () => await this.call(async () => await this.helpers.checkProcessedAndRecord!(values, 'node', OPTIONS));
		let retried = false;
		const answer = await once().catch(async () => ((retried = true), await once()));
		return { there: new Set(answer.processed.map(String)), retried };
	}

	/** Whether an answer of `recordTogether` came from a call made twice (a value this process wrote may show as there). */
	wasRetried(answer: Set<string>): boolean {
		return this.retried.has(answer);
	}

	/** When the checks announced by `recordAfter` are due: a call about to start waits for one due within its spacing. */
	private readonly due = new Set<number>();

	/** Waits `ms`, then writes `values` (as `recordTogether`); a call that would start just before goes with them. */
	async recordAfter(ms: number, values: string[]): Promise<Set<string>> {
		const at = this.timing.clock.elapsed() + ms;
		this.due.add(at);
		try {
			await this.timing.clock.sleep(ms);
		} finally {
			this.due.delete(at);
		}
		return await this.recordTogether(values);
	}

	/** Called as a call takes what is in line: values that may go now join it (contest.ts: rows waiting for their batch). */
	beforeCall?: () => void;

	private queued: Array<{ values: string[]; lazy: boolean; resolve: (there: Set<string>) => void; reject: (error: unknown) => void }> = [];

	private draining = false;

	/** Every value in line, the lazy ones too, goes now (`kick`). */
	private hurried = false;

	/**
	 * Writes `values` in one call with the values other rows asked meanwhile (rows sent at the same
	 * time share a call); says which were there before. `lazy`: no call of its own, it goes with the
	 * next one (`kick`).
	 */
	async recordTogether(values: string[], lazy = false): Promise<Set<string>> {
		if (values.length === 0) return new Set();
		const answer = new Promise<Set<string>>((resolve, reject) => this.queued.push({ values, lazy, resolve, reject }));
		if (!lazy && !this.draining) void this.drain();
		return await answer;
	}

	/** Takes values out of the line before their call (a content mark replaced before it was written). */
	withdraw(values: string[]): void {
		const gone = new Set(values);
		for (const asked of this.queued) if (asked.lazy) asked.values = asked.values.filter((value) => !gone.has(value));
	}

	/** Starts a call for every value in line (`lazy` ones wait for the next call, or for this). */
	kick(): void {
		if (this.queued.length === 0) return;
		this.hurried = true;
		if (!this.draining) void this.drain();
	}

	private async drain(): Promise<void> {
		this.draining = true;
		try {
			// Values in line go with each call; lazy ones alone start none.
			for (let first = true; this.queued.length > 0 && (first || this.hurried || this.queued.some((asked) => !asked.lazy)); first = false) {
				// What is asked in the same turn goes in this call (a batch's races, then the next batch's claims); so does a
				// check due within the spacing after the call could start (else it waits for a whole call and its spacing:
				// 1.2 s on a large list).
				const clock = this.timing.clock;
				await Promise.resolve();
				const start = Math.max(clock.elapsed(), this.lastEnd + this.longestMs);
				const soon = Math.max(0, ...[...this.due].filter((at) => at - start <= this.longestMs).map((at) => at - clock.elapsed()));
				if (soon > 0) await clock.sleep(soon + 1);
				this.beforeCall?.();
				const batch = this.queued.splice(0);
				if (this.queued.length === 0) this.hurried = false;
				const values = [...new Set(batch.flatMap((asked) => asked.values))];
				try {
					const there = new Set<string>();
					for (let at = 0; at < values.length; at += CHUNK) {
						const answer = await this.record(values.slice(at, at + CHUNK));
						for (const value of answer.there) there.add(value);
						if (answer.retried) this.retried.add(there);
					}
					for (const asked of batch) asked.resolve(there);
				} catch (error) {
					for (const asked of batch) asked.reject(error);
				}
			}
		} finally {
			this.draining = false;
		}
	}

	/**
	 * Takes values off, `REMOVE_CHUNK` per call: n8n looks each one up with a pass over the whole list
	 * between its read and its write, and a call that long drops what other processes wrote meanwhile.
	 */
	async remove(values: string[]): Promise<void> {
		if (typeof this.helpers.removeProcessed !== 'function') return;
		for (let at = 0; at < values.length; at += REMOVE_CHUNK) await this.call(async () => await this.helpers.removeProcessed!(values.slice(at, at + REMOVE_CHUNK), 'node', OPTIONS));
	}

	/** Keys whose values this process is taking off (`removeKeys`), until the call that takes them off has landed. */
	private readonly releasing = new Map<string, Promise<void>>();

	/** Keys whose values wait for their removal call (`withhold` takes them back). */
	private readonly unsent = new Map<string, () => void>();

	/**
	 * Takes each key's values off (`REMOVE_CHUNK` values a call), then `extra`; until the call that takes a key's values
	 * off has landed, `removal(key)` says so. A claim call of this process between two removal calls would find a claim
	 * still there and call the row known (a re-run right after a stopped run refused rows nobody sent:
	 * test/unit/rideAlongBreak.test.ts). Each key waits for its own call, not the whole removal (a stopped run's 700 rows
	 * take 28 calls on a large list), and a key whose call has not started can be taken back (`withhold`).
	 */
	async removeKeys(keys: Array<[string, string[]]>, extra: string[] = []): Promise<void> {
		const lands: Array<[string, string[], () => void]> = [];
		for (const [key, values] of keys) {
			let land = (): void => undefined;
			const landed: Promise<void> = new Promise<void>((resolve) => {
				land = () => {
					if (this.releasing.get(key) === landed) this.releasing.delete(key);
					if (this.unsent.get(key) === land) this.unsent.delete(key);
					resolve();
				};
			});
			this.releasing.set(key, landed);
			this.unsent.set(key, land);
			lands.push([key, values, land]);
		}
		try {
			for (let at = 0; at < lands.length; ) {
				const call: Array<() => void> = [];
				const values: string[] = [];
				for (; at < lands.length && values.length < REMOVE_CHUNK; at++) {
					const [key, own, land] = lands[at];
					if (this.unsent.get(key) !== land) continue;
					this.unsent.delete(key);
					values.push(...own);
					call.push(land);
				}
				if (values.length > 0) await this.remove(values);
				for (const land of call) land();
			}
			await this.remove(extra);
		} finally {
			for (const [, , land] of lands) land();
		}
	}

	/** Takes a key's values back from a removal whose call for them has not started (true): they stay on the list. */
	withhold(key: string): boolean {
		const land = this.unsent.get(key);
		land?.();
		return land !== undefined;
	}

	/** When no removal of the key's values by this process is under way any more (undefined: none is now; `removeKeys`). */
	removal(key: string): Promise<void> | undefined {
		const first = this.releasing.get(key);
		if (first === undefined) return undefined;
		return (async () => {
			let last: Promise<void> | undefined;
			for (let removal: Promise<void> | undefined = first; removal !== undefined && removal !== last; removal = this.releasing.get(key)) await (last = removal);
		})();
	}

	/** How many entries the list holds (n8n's count: a read, nothing written). */
	async count(): Promise<number> {
		const helpers = this.helpers;
		if (typeof helpers.getProcessedDataCount !== 'function') return 0;
		return await this.timing.inTurn(' journal', async () => await helpers.getProcessedDataCount!('node', OPTIONS));
	}

	/**
	 * Empties the list (one DELETE, at once for every process). Returns how many entries it held
	 * (a row has two to seven: marks.ts), so that a worker that holds none of the rows still says.
	 */
	async clear(): Promise<number> {
		const helpers = this.helpers;
		if (typeof helpers.clearAllProcessedItems !== 'function') return 0;
		return await this.timing.inTurn(' journal', async () => {
			const entries = typeof helpers.getProcessedDataCount === 'function' ? await helpers.getProcessedDataCount('node', OPTIONS) : 0;
			await helpers.clearAllProcessedItems!('node', OPTIONS);
			return entries;
		});
	}
}
