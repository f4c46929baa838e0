/**
 * What n8n keeps of the memory between executions: one compact map per node, in the workflow's
 * static data (`getWorkflowStaticData('global')`, field `recruitingMemory`, keyed by the node's
 * id, so that renaming the node keeps it; a copied node has a new id and starts empty).
 *
 * What n8n does with static data (read in n8n 1.123.50 and 2.41.1: n8n-workflow
 * `observable-object`, n8n-core `workflow-execute`, n8n `execution-lifecycle-hooks`,
 * `workflow-runner`, `scaling/job-processor`, `executions/execution.service`): any assignment
 * into it marks the whole static data changed; at the end of an execution that is not manual,
 * n8n then writes the whole static data as this execution holds it over the workflow's saved
 * copy (every node's, no merge). A queue-mode worker of n8n 2.40 and later starts new
 * executions with empty static data, and a retry "with the original workflow" starts from the
 * execution's snapshot, also empty. So this store:
 *   - assigns nothing unless a row changed (an execution that changes nothing leaves it as loaded);
 *   - is read-only (`writable` false) when the execution did not load the saved copy (memory/index.ts
 *     decides): writing then would save a partial copy over every node's static data;
 *   - is a cache: whether a row is still known is the journal's to say (journal.ts).
 *
 * A row is one string: base64url of [flags][profile print, 6 bytes][slug: 16 bytes for a UUID,
 * else 2 bytes length + UTF-8][record prints, 4 bytes each], under a 10-character row key: about
 * 60 bytes with a UUID slug and three records. Past `MAX_ENTRIES` rows per node, the rows changed
 * longest ago are dropped (rows are kept in the order they last changed).
 */
import type { IDataObject } from 'n8n-workflow';

import { shortPrint } from './keys';

export const MAX_ENTRIES = 100_000;

/**
 * Records remembered per row at most (the most recent; 4 bytes each); an older record past them
 * may be sent again. Far above what one row holds, so that a row's own prints never rotate (with
 * 64, a row of 70 records sent 6 of them again on every run).
 */
export const MAX_RECORDS = 1_000;

/** Bytes of a profile print and of a record print as stored. */
export const PROFILE_PRINT_BYTES = 6;
export const RECORD_PRINT_BYTES = 4;

/** The field of the workflow's global static data that holds every Recruiting node's memory, by node id. */
export const FIELD = 'recruitingMemory';

/** What the memory knows of a row: the candidate's slug, the profile print and record prints last sent. */
export interface Remembered {
	/** The candidate's slug. */
	s: string;
	/** Fingerprint of the profile fields last sent (absent: none yet). */
	p?: string;
	/** Fingerprints of the records sent. */
	r?: string[];
	/** The print of the row's whole content when everything of it last went through (journal.ts `done`). */
	d?: string;
}

/**
 * One node's memory as stored. `v: 3`: every row in it had its claim in the journal when it was
 * written, so a row whose claim is gone was forgotten (journal.ts). `v: 2` (0.2.x after issue 25):
 * the claims of saved rows were taken off the journal; its rows are trusted, and their claims
 * written again before the copy becomes `v: 3`.
 */
export interface Stored {
	v: 2 | 3;
	/** Row key → encoded row. */
	rows: Record<string, string>;
	/** Left by `v: 2` (a generation and a count): dropped when the copy becomes `v: 3`. */
	g?: string;
	n?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HAS_PROFILE = 1;
const UUID_SLUG = 2;
const HAS_DONE = 4;

/** The row as one string (see the file's comment). */
export function encodeRow(row: Remembered): string {
	const parts: Buffer[] = [];
	let flags = 0;
	if (row.p !== undefined) {
		flags |= HAS_PROFILE;
		parts.push(Buffer.from(shortPrint(row.p, PROFILE_PRINT_BYTES), 'base64url').subarray(0, PROFILE_PRINT_BYTES));
	}
	if (row.d !== undefined) {
		flags |= HAS_DONE;
		parts.push(Buffer.from(shortPrint(row.d, RECORD_PRINT_BYTES), 'base64url').subarray(0, RECORD_PRINT_BYTES));
	}
	if (UUID.test(row.s)) {
		flags |= UUID_SLUG;
		parts.push(Buffer.from(row.s.replace(/-/g, ''), 'hex'));
	} else {
		const text = Buffer.from(row.s, 'utf8');
		const length = Buffer.alloc(2);
		length.writeUInt16BE(Math.min(text.length, 0xffff));
		parts.push(length, text.subarray(0, 0xffff));
	}
	for (const print of (row.r ?? []).slice(-MAX_RECORDS)) {
		parts.push(Buffer.from(shortPrint(print, RECORD_PRINT_BYTES), 'base64url').subarray(0, RECORD_PRINT_BYTES));
	}
	return Buffer.concat([Buffer.from([flags]), ...parts]).toString('base64url');
}

/** The row a string of `encodeRow` holds; undefined when it is not one. */
export function decodeRow(text: unknown): Remembered | undefined {
	if (typeof text !== 'string' || text === '') return undefined;
	const bytes = Buffer.from(text, 'base64url');
	const flags = bytes[0];
	let at = 1;
	const row: Remembered = { s: '' };
	if (flags & HAS_PROFILE) {
		row.p = bytes.subarray(at, at + PROFILE_PRINT_BYTES).toString('base64url');
		at += PROFILE_PRINT_BYTES;
	}
	if (flags & HAS_DONE) {
		row.d = bytes.subarray(at, at + RECORD_PRINT_BYTES).toString('base64url');
		at += RECORD_PRINT_BYTES;
	}
	if (flags & UUID_SLUG) {
		const hex = bytes.subarray(at, at + 16).toString('hex');
		row.s = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
		at += 16;
	} else {
		const length = bytes.readUInt16BE(at);
		row.s = bytes.subarray(at + 2, at + 2 + length).toString('utf8');
		at += 2 + length;
	}
	const r: string[] = [];
	for (; at + RECORD_PRINT_BYTES <= bytes.length; at += RECORD_PRINT_BYTES) r.push(bytes.subarray(at, at + RECORD_PRINT_BYTES).toString('base64url'));
	row.r = r;
	return row.s === '' ? undefined : row;
}

/** The row as the memory stores it (prints shortened, records bounded), for comparing. */
export const normalRow = (row: Remembered): Remembered | undefined => decodeRow(encodeRow(row));

/** One node's stored memory in the execution's static data. */
export class NodeStore {
	private data: Stored | undefined;

	/** How many rows are stored (counted when first needed: counting 100,000 keys costs milliseconds). */
	private counted?: number;

	/**
	 * @param global the workflow's global static data (as loaded for this execution)
	 * @param writable false when this execution did not load the saved copy: nothing is ever assigned
	 */
	constructor(
		private readonly global: IDataObject,
		private readonly nodeId: string,
		readonly writable: boolean,
	) {
		const all = global[FIELD] as Record<string, Stored> | undefined;
		const existing = all?.[nodeId];
		this.data = (existing?.v === 2 || existing?.v === 3) && typeof existing.rows === 'object' && existing.rows !== null ? existing : undefined;
	}

	private get size(): number {
		this.counted ??= this.data ? Object.keys(this.data.rows).length : 0;
		return this.counted;
	}

	private set size(value: number) {
		this.counted = value;
	}

	/** Whether the loaded static data holds this node's memory. */
	get loaded(): boolean {
		return this.data !== undefined;
	}

	/** Whether the copy was written before the journal held every row (`v: 2`): its rows are trusted without their claims. */
	get trusted(): boolean {
		return this.data?.v === 2;
	}

	/** Every stored row key. */
	keys(): string[] {
		return this.data ? Object.keys(this.data.rows) : [];
	}

	/** Marks the copy as one whose every row has its claim (after `keys()`' claims were written). */
	claimed(): void {
		if (!this.writable || !this.data || this.data.v === 3) return;
		this.data.v = 3;
		delete this.data.g;
		delete this.data.n;
	}

	get count(): number {
		return this.size;
	}

	/** The encoded row (for comparing without decoding). */
	raw(key: string): string | undefined {
		return this.data?.rows[key];
	}

	get(key: string): Remembered | undefined {
		return decodeRow(this.data?.rows[key]);
	}

	/** Creates the node's memory in the static data (a change, so n8n saves it): only when writable. */
	create(): boolean {
		if (!this.writable) return false;
		if (this.data) return true;
		const all = (this.global[FIELD] as Record<string, Stored> | undefined) ?? {};
		const data: Stored = { v: 3, rows: {} };
		all[this.nodeId] = data;
		if (this.global[FIELD] === undefined) this.global[FIELD] = all as unknown as IDataObject;
		// n8n wraps what it loaded in proxies; read back what it holds now, so later writes go through them.
		this.data = (this.global[FIELD] as Record<string, Stored>)[this.nodeId];
		this.size = 0;
		return true;
	}

	/** Writes a row when it differs from what is stored (`encoded` from `encodeRow`); says whether it wrote. */
	set(key: string, encoded: string): boolean {
		if (!this.writable) return false;
		const before = this.data?.rows[key];
		if (before === encoded) return false;
		this.create();
		const data = this.data!;
		// The rows stay in the order they last changed: the oldest are dropped past the bound.
		if (before !== undefined) delete data.rows[key];
		data.rows[key] = encoded;
		if (before === undefined) {
			this.size += 1;
			if (this.size > MAX_ENTRIES) this.dropOldest();
		}
		return true;
	}

	forget(key: string): boolean {
		if (!this.data || this.data.rows[key] === undefined) return false;
		if (!this.writable) return true;
		delete this.data.rows[key];
		this.size -= 1;
		return true;
	}

	/** Forgets every row; returns how many there were. Nothing is written when nothing was stored. */
	clear(): number {
		const count = this.size;
		if (!this.writable || !this.data) return count;
		this.data.rows = {};
		this.claimed();
		this.size = 0;
		return count;
	}

	/** Drops the rows changed longest ago, down to 99% of the bound (so that it does not run per row). */
	private dropOldest(): void {
		const rows = this.data!.rows;
		let excess = this.size - Math.floor(MAX_ENTRIES * 0.99);
		for (const key of Object.keys(rows)) {
			if (excess-- <= 0) break;
			delete rows[key];
			this.size -= 1;
		}
	}
}

/** The memory of 0.2.0 and earlier in the node's static data (keyed by the node's name): read, and emptied as its rows move. */
export class LegacyStore {
	private readonly rows: Record<string, { s: string; p?: string; r?: string[] }> | undefined;

	constructor(
		private readonly nodeData: IDataObject,
		private readonly writable: boolean,
	) {
		const old = nodeData[FIELD] as { v?: number; rows?: Record<string, { s: string; p?: string; r?: string[] }> } | undefined;
		this.rows = old?.v === 1 && typeof old.rows === 'object' && old.rows !== null ? old.rows : undefined;
	}

	get present(): boolean {
		return this.rows !== undefined;
	}

	get(legacyKey: string): Remembered | undefined {
		const row = this.rows?.[legacyKey];
		return row && typeof row.s === 'string' ? { s: row.s, p: row.p, r: row.r } : undefined;
	}

	/** Removes a row that moved to the new store; the whole old field once none is left. */
	moved(legacyKey: string): void {
		if (!this.writable || !this.rows || this.rows[legacyKey] === undefined) return;
		delete this.rows[legacyKey];
	}

	/** Removes the old field (Forget All Rows). */
	clear(): void {
		if (this.writable && this.rows) delete this.nodeData[FIELD];
	}
}
