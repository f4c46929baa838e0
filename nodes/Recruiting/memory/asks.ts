/**
 * What this process's asks wrote in n8n's store only by asking (journal.ts `explain`): asking
 * marks, and the second content half a confirming call wrote when it was not there. Each is taken
 * off at once by its ask, and again by an end (journal.ts `end`), once every write that read before
 * the first removal has landed: such a write brings back what it took off, and the marks alone taken
 * off again left a false pair unguarded (the whole-memory simulation: a row `unchanged` with a
 * content that never reached the service). The first content half is not kept here: every ask
 * writes it, and taken off twice it took true pairs with it (docs/sync-memory.md, "Reading without
 * writing").
 */
export class Asks {
	/** Value → its row and when its ask took it off (the time that passes, clock.ts `elapsed`). */
	private readonly written = new Map<string, { key: string; at: number }>();

	/** Rows whose asks run now: their values stay (an end taking the marks off now would unguard the ask's own false writes). */
	private readonly running: string[] = [];

	get size(): number {
		return this.written.size;
	}

	begin(key: string): void {
		this.running.push(key);
	}

	/** An ask ended (its removal done or failed): what it wrote only by asking is taken off again by an end. */
	end(key: string, wrote: readonly string[], at: number): void {
		this.running.splice(this.running.indexOf(key), 1);
		for (const value of wrote) this.written.set(value, { key, at });
	}


	/** How long until every value kept was taken off at least `waitMs` ago. */
	dueIn(now: number, waitMs: number): number {
		return Math.max(0, ...[...this.written.values()].map(({ at }) => at + waitMs - now));
	}

	/** The values to take off again now: taken off a wait ago or more, not of a row asked now, nor a content this process wrote (`mine`). */
	ready(mine: ReadonlySet<string>, now: number, waitMs: number): string[] {
		return [...this.written].flatMap(([value, { key, at }]) => (at + waitMs > now || this.running.includes(key) || mine.has(value) ? [] : [value]));
	}

	/** Values no longer to take off: taken off again (the call went through), or a true pair this process writes. */
	drop(values: readonly string[]): void {
		for (const value of values) this.written.delete(value);
	}
}
