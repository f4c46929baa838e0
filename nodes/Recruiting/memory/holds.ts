/**
 * Rows held under their other keys (Match By switched), in one process: a row whose creation went out without an answer
 * is held under the keys it is not matched by too (its phone when matched by e-mail, its e-mail and phone when matched by
 * Match Key). Each such key keeps its held rows with all their keys, so that what lets one row go (its Adopt, its Forget,
 * its slug learned) leaves another's hold there: two people who share a phone share that key and no other. A row is the
 * held one when it shares a key with it other than the one the hold is under.
 */
import { MAX_ENTRIES } from './store';

export class OtherHolds {
	/** Other key → the rows held there: the row's key when it was sent → all its keys. */
	private readonly byKey = new Map<string, Map<string, readonly string[]>>();

	/** A held row's key when it was sent → the other keys it is held under. */
	private readonly ofRow = new Map<string, Set<string>>();

	/** Whether a row is held under this key. */
	has(key: string): boolean {
		return this.byKey.has(key);
	}

	/** The row sent under `row` (its keys: `keys`) is held under `other` too; the oldest keys go past `MAX_ENTRIES`. */
	hold(other: string, row: string, keys: readonly string[]): void {
		const rows = this.byKey.get(other) ?? new Map<string, readonly string[]>();
		rows.set(row, keys);
		this.byKey.delete(other);
		this.byKey.set(other, rows);
		this.ofRow.set(row, (this.ofRow.get(row) ?? new Set<string>()).add(other));
		if (this.byKey.size > MAX_ENTRIES) this.byKey.delete(this.byKey.keys().next().value as string);
	}

	/** The other keys the row sent under `row` is held under (its phone then, which may since have changed). */
	of(row: string): string[] {
		return [...(this.ofRow.get(row) ?? [])].filter((other) => this.byKey.get(other)?.has(row) === true);
	}

	/** Whether `other` holds a row that shares none of `keys` (but `other` itself): another person's. */
	holdsOthers(other: string, keys: readonly string[]): boolean {
		return [...(this.byKey.get(other)?.values() ?? [])].some((held) => !this.shares(other, held, keys));
	}

	/** The holds under `other` of the rows that share one of `keys` (but `other` itself) go; without `keys`, every hold there. */
	letGo(other: string, keys?: readonly string[]): void {
		const rows = this.byKey.get(other);
		for (const [row, held] of rows ?? []) if (!keys || this.shares(other, held, keys)) rows?.delete(row);
		if (rows?.size === 0) this.byKey.delete(other);
	}

	/**
	 * The row sent under this key is settled (a slug learned under it, or forgotten under it): its holds under its other keys
	 * go. Only by the key it was sent under: a person sharing its phone, learned under that phone, settles nothing here.
	 */
	settled(key: string): void {
		for (const other of this.ofRow.get(key) ?? []) this.letGo(other, [key]);
		this.ofRow.delete(key);
	}

	clear(): void {
		this.byKey.clear();
		this.ofRow.clear();
	}

	/** A copy for a dry run (registry.ts `copyOf`). */
	copyInto(into: OtherHolds): void {
		for (const [other, rows] of this.byKey) for (const [row, keys] of rows) into.hold(other, row, keys);
	}

	private shares(other: string, held: readonly string[], keys: readonly string[]): boolean {
		return held.some((key) => key !== other && keys.includes(key));
	}
}
