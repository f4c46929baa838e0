/**
 * The slug map: row key → the candidate's slug and fingerprints of what was last sent, kept in
 * the node's workflow static data (`getWorkflowStaticData('node')`).
 *
 * What n8n does with it (n8n 1.123 and 2.41, `execution-lifecycle-hooks`): it loads it with the
 * workflow, and saves it when it changed at the end of every execution that is not manual,
 * successful or failed, in the workflow's row, shared by every queue-mode worker. It is not saved
 * for a manual execution, nor by a worker that dies, and an overlapping execution that ends later
 * overwrites it with its own copy. The journal (journal.ts) covers those gaps for creations.
 *
 * Bounded: past `MAX_ENTRIES` rows, the least recently seen are dropped (they are then created
 * again if they come back: say so in the README).
 */
import { isEqual } from 'lodash';
import type { IDataObject } from 'n8n-workflow';

export const MAX_ENTRIES = 100_000;

/** Where in the node's static data the map lives. */
const FIELD = 'recruitingMemory';

export interface Remembered {
	/** The candidate's slug. */
	s: string;
	/** Fingerprint of the profile fields last sent (absent: none yet). */
	p?: string;
	/** Fingerprints of the records sent. */
	r?: string[];
	/** Fingerprints of the records whose post had an unknown outcome (not posted again; Create or Update reports them). */
	u?: string[];
	/** When the row was last seen (seconds since 1970), for dropping the oldest past the bound. */
	t: number;
}

interface Stored {
	v: 1;
	rows: Record<string, Remembered>;
	/** Row keys created by executions whose map was saved: their journal claims can go. */
	prune?: string[];
}

const now = () => Math.floor(Date.now() / 1000);

const DAY = 24 * 60 * 60;

export class SlugMap {
	private readonly data: Stored;

	private size: number;

	constructor(staticData: IDataObject) {
		const existing = staticData[FIELD] as Stored | undefined;
		if (existing?.v === 1 && typeof existing.rows === 'object' && existing.rows !== null) {
			this.data = existing;
		} else {
			this.data = { v: 1, rows: {} };
			staticData[FIELD] = this.data as unknown as IDataObject;
		}
		this.size = Object.keys(this.data.rows).length;
	}

	get(key: string): Remembered | undefined {
		return this.data.rows[key];
	}

	/**
	 * Remembers (or updates) a row, and says whether it wrote; a new row is also listed for the journal's pruning. A row
	 * remembered as it is, and seen within the last day, is left alone: an execution that changes
	 * nothing leaves the static data unchanged, so n8n does not save it over a concurrent one's.
	 */
	set(key: string, entry: Omit<Remembered, 't'>): boolean {
		const existing = this.data.rows[key];
		if (existing && existing.s === entry.s && existing.p === entry.p && isEqual(existing.r ?? [], entry.r ?? []) && isEqual(existing.u ?? [], entry.u ?? []) && now() - existing.t < DAY) {
			return false;
		}
		this.data.rows[key] = { ...entry, t: now() };
		if (existing) return true;
		this.size += 1;
		// In place (a copy per row made a large first run's CPU grow with the square of its rows); the
		// row set above already marks the static data changed for n8n.
		(this.data.prune ??= []).push(key);
		if (this.size > MAX_ENTRIES) this.dropOldest();
		return true;
	}

	forget(key: string): boolean {
		if (this.data.rows[key] === undefined) return false;
		delete this.data.rows[key];
		this.size -= 1;
		return true;
	}

	/** Forgets every row; returns how many there were. */
	clear(): number {
		const count = this.size;
		this.data.rows = {};
		this.data.prune = [];
		this.size = 0;
		return count;
	}

	get count(): number {
		return this.size;
	}

	/** Takes the keys whose claims may leave the journal (the map that holds them was saved). */
	takePrune(): string[] {
		const keys = this.data.prune ?? [];
		if (keys.length > 0) this.data.prune = [];
		return keys;
	}

	/** Drops the least recently seen rows, down to 99% of the bound (so that it does not run per row). */
	private dropOldest(): void {
		const keep = Math.floor(MAX_ENTRIES * 0.99);
		const byAge = Object.entries(this.data.rows).sort(([, a], [, b]) => a.t - b.t);
		for (const [key] of byAge.slice(0, byAge.length - keep)) delete this.data.rows[key];
		this.size = Object.keys(this.data.rows).length;
	}
}
