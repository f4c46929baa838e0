/**
 * What Create or Update sent for a row, as fingerprints (hashes: no personal data in clear), and
 * the same as the row's `syncState`: a short opaque text the workflow writes back to the row (a
 * sheet, a Data table) and gives the node again, so that the row itself says what was sent.
 *
 * Fingerprints are taken of what the service receives: the profile with its e-mail and phone as
 * the match compares them (case, spaces, phone punctuation ignored), and each record after its
 * names resolved to IDs (`English`, `english` and `26` are one language). Fingerprints of the
 * node's earlier versions (taken as written) still count as sent (`legacy*`), so an update of the
 * node sends nothing again.
 *
 * The state: `1.<account><check>.<profile>.<records>.<unknown>`
 * - `1`: the version;
 * - `<account>`: 6 characters of the account scope (a state of another account is refused);
 * - `<check>`: 4 characters of a hash of the rest (a garbled or cut state is refused);
 * - `<profile>`: the profile's fingerprint (empty: to be sent again);
 * - `<records>`, `<unknown>`: 12-character fingerprints of the records added, and of those whose
 *   post had an unknown outcome (not posted again, reported).
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { fingerprint, normaliseKey } from './keys';

const VERSION = '1';
const SCOPE_LENGTH = 6;
const CHECK_LENGTH = 4;
const RECORD_PRINT_LENGTH = 12;
const PRINT = /^[A-Za-z0-9_-]*$/;

/** What was sent for a row: the profile's fingerprint, the records added, the records whose outcome is unknown. */
export interface SentState {
	p?: string;
	r?: string[];
	u?: string[];
}

/** Why a given state cannot be used. */
export type StateProblem = 'garbled' | 'version' | 'account';

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The profile as the service compares it: e-mail and phone as the match normalises them. */
function comparable(fields: IDataObject): IDataObject {
	const out = { ...fields };
	if (typeof out.email === 'string') out.email = normaliseKey('email', out.email);
	if (typeof out.phone === 'string') out.phone = normaliseKey('phone', out.phone);
	return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MASK_LENGTH = 3;

/**
 * The profile's fingerprint: which of `order`'s fields it holds (3 characters, 18 bits, so that a
 * later run can tell a field that was emptied), then the hash of their normalised values.
 */
export function profilePrint(fields: IDataObject, order: string[]): string {
	let mask = 0;
	order.forEach((field, position) => {
		if (fields[field] !== undefined) mask |= 1 << position;
	});
	const head = [12, 6, 0].map((shift) => ALPHABET[(mask >> shift) & 63]).join('');
	return head + fingerprint('profile', comparable(fields));
}

/** The fields of `order` a profile fingerprint holds; undefined for a fingerprint of an earlier version (no field list). */
export function profileFields(print: string | undefined, order: string[]): string[] | undefined {
	if (print === undefined || print.length !== MASK_LENGTH + RECORD_PRINT_LENGTH) return undefined;
	const mask = [...print.slice(0, MASK_LENGTH)].reduce((value, char) => (value << 6) | ALPHABET.indexOf(char), 0);
	return order.filter((_, position) => (mask & (1 << position)) !== 0);
}

/** The profile's fingerprint as the node's versions before issue 25 took it (the values as written). */
export const legacyProfilePrint = (fields: IDataObject): string => fingerprint('profile', fields);

/** A record's fingerprint: its kind and wire fields, names resolved to IDs. The earlier versions' took the body before resolving. */
export const recordPrint = (type: string, body: IDataObject): string => fingerprint(type, body);

const encodeBody = (state: SentState) => [state.p ?? '', (state.r ?? []).join(''), (state.u ?? []).join('')].join('.');

const checkOf = (account: string, body: string) => hash(`recruiting-state ${account} ${body}`).slice(0, CHECK_LENGTH);

/** The row's `syncState` for the account `scope`. */
export function encodeState(scope: string, state: SentState): string {
	const account = scope.slice(0, SCOPE_LENGTH);
	const body = encodeBody(state);
	return `${VERSION}.${account}${checkOf(account, body)}.${body}`;
}

function prints(text: string): string[] | undefined {
	if (text.length % RECORD_PRINT_LENGTH !== 0) return undefined;
	return Array.from({ length: text.length / RECORD_PRINT_LENGTH }, (_, index) => text.slice(index * RECORD_PRINT_LENGTH, (index + 1) * RECORD_PRINT_LENGTH));
}

/** Reads a `syncState` given for the account `scope`: what was sent, or why it cannot be used. */
export function decodeState(text: string, scope: string): { state: SentState } | { problem: StateProblem } {
	const parts = text.trim().split('.');
	if (parts.length !== 5) return { problem: /^\d+$/.test(parts[0]) && parts[0] !== VERSION ? 'version' : 'garbled' };
	const [version, head, p, records, unknown] = parts;
	if (version !== VERSION) return { problem: /^\d+$/.test(version) ? 'version' : 'garbled' };
	if (head.length !== SCOPE_LENGTH + CHECK_LENGTH || !parts.every((part) => PRINT.test(part))) return { problem: 'garbled' };
	const account = head.slice(0, SCOPE_LENGTH);
	if (head.slice(SCOPE_LENGTH) !== checkOf(account, [p, records, unknown].join('.'))) return { problem: 'garbled' };
	const r = prints(records);
	const u = prints(unknown);
	if (r === undefined || u === undefined || ![0, 12, 15].includes(p.length)) return { problem: 'garbled' };
	if (account !== scope.slice(0, SCOPE_LENGTH)) return { problem: 'account' };
	return { state: { p: p === '' ? undefined : p, r, u } };
}
