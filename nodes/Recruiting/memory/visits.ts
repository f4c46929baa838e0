/**
 * The running executions (visits) of one process's journal (journal.ts), and what the end of each checks after its wait: the
 * rows it created, remembered with a claim it did not find, wrote the content of, sent or adopted (`follow`), with their other
 * keys; each row's claim, and the content pair this process wrote for it last (`pairs`, read when the check is made, so a
 * content another execution replaced meanwhile is not written back). A mark an execution wrote is checked at its own end, a
 * whole wait after the write, so no later end needs to check it again (an end that checked every mark of the process while any
 * execution ran wrote back rows another process forgot since: test/unit/otherKeyEndBreak.test.ts); what an end could not check
 * (its call failed) goes to the end of an execution that was running then (`carried`: a later one would write back a row
 * forgotten since).
 *
 * A row's other keys are checked with it, since a claim there when the row was kept under one may have been another process's
 * contest for it as a new row, which that process takes off once it never used it (MEMSIM seed 95327 of "two people sharing a
 * phone"): the key then read as new, and a run matched by it created the person again.
 */
/** An end under way: the rows it checks (its list, the rows it sent or adopted, their other keys, what an end beside it could not check), and what is still unchecked. */
export interface Ending {
	rows: () => string[];
	unchecked: string[];
	done: () => void;
}

export class Visits {
	private readonly rows = new Map<number, Set<string>>();
	private readonly followed = new Map<number, Map<string, readonly string[]>>();
	/** Content marks written by this process (row key → its pair), kept while a running or ending execution lists the row. */
	private readonly pairs = new Map<string, readonly string[]>();
	/** Rows an end could not check → the last execution begun then: the ends of executions up to it check them. */
	private readonly carried = new Map<string, number>();
	private latest = 0;
	/** The lists of the ends under way. */
	private readonly ending = new Set<Set<string>>();

	has(visit: number): boolean {
		return this.rows.has(visit);
	}

	begin(visit: number): void {
		this.latest = visit;
		this.rows.set(visit, new Set<string>());
		this.followed.set(visit, new Map());
	}

	/** The rows the visit's end checks: add to it (kept as the visit's list until its end, also once the end began). */
	of(visit: number): Set<string> | undefined {
		return this.rows.get(visit);
	}

	/** A row about to be sent or adopted, with its other keys: checked at the visit's end. */
	follow(visit: number, key: string, others: readonly string[]): void {
		this.followed.get(visit)?.set(key, others);
	}

	/** The row's content went through (its pair written) or no longer holds (undefined). */
	wrote(visit: number, key: string, pair: readonly string[] | undefined): void {
		if (pair === undefined) this.pairs.delete(key);
		else {
			this.pairs.set(key, pair);
			this.of(visit)?.add(key);
		}
	}

	/** The content pair this process wrote last for the row (undefined: none). */
	pairOf(key: string): readonly string[] | undefined {
		return this.pairs.get(key);
	}

	/** Every content mark this process wrote and still holds. */
	get mine(): Set<string> {
		return new Set([...this.pairs.values()].flat());
	}

	/** The visit's end begins (undefined: no such visit); its list still takes what the end awaits (`of`), until `rows` is read. */
	end(visit: number): Ending | undefined {
		const [rows, followed] = [this.rows.get(visit), this.followed.get(visit)];
		this.rows.delete(visit);
		this.followed.delete(visit);
		if (!rows) return undefined;
		this.ending.add(rows);
		const ending: Ending = {
			unchecked: [],
			rows: () => {
				for (const [key, others] of followed ?? []) for (const one of [key, ...others]) rows.add(one);
				for (const [key, upTo] of this.carried) if (visit <= upTo && this.carried.delete(key)) rows.add(key);
				return (ending.unchecked = [...rows]);
			},
			done: () => this.ending.delete(rows),
		};
		return ending;
	}

	/** The end is over: what it left unchecked goes to the ends of executions running now; a pair no list holds any more goes. True when no execution of the process runs or ends. */
	ended(ending: Ending): boolean {
		ending.done();
		for (const key of ending.unchecked) this.carried.set(key, this.latest);
		for (const [key, upTo] of this.carried) if (![...this.rows.keys()].some((visit) => visit <= upTo)) this.carried.delete(key);
		const listed = [...this.rows.values(), ...this.ending, new Set(this.carried.keys())];
		for (const key of this.pairs.keys()) if (!listed.some((rows) => rows.has(key))) this.pairs.delete(key);
		return this.rows.size === 0 && this.ending.size === 0;
	}

	/** A row released or forgotten: no end checks it, nor the other keys of a row it is one of; its content pair is not this process's any more. */
	drop(key: string): void {
		for (const rows of this.rows.values()) rows.delete(key);
		for (const followed of this.followed.values()) for (const [one, others] of followed) if (one === key || others.includes(key)) followed.delete(one);
		this.pairs.delete(key);
		this.carried.delete(key);
	}

	/** Forget All Rows: no end checks anything it had. */
	clear(): void {
		for (const rows of [...this.rows.values(), ...this.followed.values()]) rows.clear();
		this.pairs.clear();
		this.carried.clear();
	}
}
