/**
 * What Create or Update sent for a row, as fingerprints (hashes: no personal data in clear), and
 * the same as the row's `syncState`: a short opaque text the workflow writes back to the row (a
 * sheet, a Data table) and gives the node again, so that the row itself says what was sent.
 *
 * Fingerprints are taken of what the service receives: the profile with its e-mail and phone as
 * the match compares them (case, spaces, phone punctuation ignored), and each record after its
 * names resolved to IDs (`English`, `english` and `26` are one language). They are short, as the
 * memory keeps them: 6 bytes for the profile (which of its fields it held, then a hash), 4 bytes
 * for a record. Fingerprints of the node's earlier versions (taken of the values as written, 9
 * bytes, or their short form) still count as sent (`sentBefore`), so an update of the node sends
 * nothing again.
 *
 * A record whose post had an unknown outcome is kept among the record prints under a print of its
 * own (`unknownPrint`): not sent again, and reported while the row holds it.
 *
 * The profile's fields are kept one by one too, first among the prints (`fieldBlock`): a seal, then
 * 2 bytes per field, bound to the profile print. They tell a row whose only change is an emptied
 * field (the service cannot clear it: nothing to send) from one whose other fields changed too.
 *
 * The state: `2.<account><candidate><check>.<profile>.<records>`
 * - `2`: the version (`1`, without `<candidate>`, is still read: it was written before the state
 *   named its candidate);
 * - `<account>`: 6 characters of the state scope (keys.ts `stateScope`: the service account, not the
 *   n8n credential; a state of another account is refused);
 * - `<candidate>`: 4 characters of a hash of the slug it was output with (a state given with
 *   another Candidate Slug is refused);
 * - `<check>`: 4 characters of a hash of the rest (a garbled or cut state is refused);
 * - `<profile>`: the profile's print (8 characters; empty: to be sent again);
 * - `<records>`: the records' prints, 6 characters each.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { fingerprint, normaliseKey, shortPrint } from './keys';
import { PROFILE_PRINT_BYTES as PROFILE_BYTES, RECORD_PRINT_BYTES as RECORD_BYTES } from './store';

const VERSION = '2';
/** The version written before the state named its candidate: read, never written. */
const UNTIED_VERSION = '1';
const SCOPE_LENGTH = 6;
const SLUG_LENGTH = 4;
const CHECK_LENGTH = 4;
const PROFILE_LENGTH = 8;
const RECORD_LENGTH = 6;
const FIELD_HASH_BYTES = 2;
const PRINT = /^[\w-]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** What was sent for a row: the profile's print, the records' prints. */
export interface SentState {
	p?: string;
	r?: string[];
}

/** Why a given state cannot be used. */
export type StateProblem = 'garbled' | 'version' | 'account' | 'candidate';

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The profile as the service compares it: e-mail and phone as the match normalises them. */
function comparable(fields: IDataObject): IDataObject {
	const out = { ...fields };
	if (typeof out.email === 'string') out.email = normaliseKey('email', out.email);
	if (typeof out.phone === 'string') out.phone = normaliseKey('phone', out.phone);
	return out;
}

/** 7 bits that mark a profile print of this form (an earlier version's print has them by chance once in 128). */
const PROFILE_TAG = 0b1011001;
const MASK_BITS = 11;

/**
 * The profile's print (8 characters, 6 bytes): 3 characters for which of `order`'s fields it
 * holds (so that a later run can tell a field that was emptied) and a tag, then 30 bits of the
 * hash of their normalised values.
 */
export function profilePrint(fields: IDataObject, order: string[]): string {
	let head = PROFILE_TAG << MASK_BITS;
	order.slice(0, MASK_BITS).forEach((field, position) => {
		if (fields[field] !== undefined) head |= 1 << position;
	});
	return [12, 6, 0].map((shift) => ALPHABET[(head >> shift) & 63]).join('') + fingerprint('profile', comparable(fields)).slice(0, PROFILE_LENGTH - 3);
}

/** The fields of `order` a profile print holds; undefined for a print of another form (an earlier version's). */
export function profileFields(print: string | undefined, order: string[]): string[] | undefined {
	if (print === undefined || print.length !== PROFILE_LENGTH) return undefined;
	const head = [...print.slice(0, 3)].reduce((value, char) => (value << 6) | ALPHABET.indexOf(char), 0);
	if (head >> MASK_BITS !== PROFILE_TAG) return undefined;
	return order.slice(0, MASK_BITS).filter((_, position) => (head & (1 << position)) !== 0);
}

/** A record's print: its kind and wire fields, names resolved to IDs. */
export const recordPrint = (type: string, body: IDataObject): string => shortPrint(fingerprint(type, body), RECORD_BYTES);

/**
 * The print of a row's whole content as a run sends it: its profile's print and the prints of its
 * valid records, in any order (journal.ts `done`: "this row was sent with this content").
 */
export const contentPrint = (profile: string, records: string[]): string => shortPrint(fingerprint('row content', { p: profile, r: [...new Set(records)].sort() }), RECORD_BYTES);

/** The print that says a record's post had an unknown outcome. */
export const unknownPrint = (type: string, body: IDataObject): string => shortPrint(fingerprint(`unknown ${type}`, body), RECORD_BYTES);

/** Whether `prints` holds the earlier versions' print of a profile or record (the values as written: 9 bytes, or the memory's short form). */
export function sentBefore(prints: Iterable<string | undefined>, type: string, written: IDataObject): boolean {
	const full = fingerprint(type, written);
	const short = [shortPrint(full, type === 'profile' ? PROFILE_BYTES : RECORD_BYTES)];
	for (const print of prints) if (print === full || short.includes(print as string)) return true;
	return false;
}

/** A state's prints as the memory keeps them (the short form). */
const short = (state: SentState): SentState => ({
	p: state.p === undefined ? undefined : shortPrint(state.p, PROFILE_BYTES),
	r: (state.r ?? []).map((print) => shortPrint(print, RECORD_BYTES)),
});

const encodeBody = (state: SentState) => [state.p ?? '', (state.r ?? []).join('')].join('.');

const checkOf = (head: string, body: string) => hash(`recruiting-state ${head} ${body}`).slice(0, CHECK_LENGTH);

/** 4 characters of a hash of the candidate's slug (as given: trimmed text). */
const candidateTag = (slug: string) => hash(`recruiting-state-slug ${slug.trim()}`).slice(0, SLUG_LENGTH);

/** The row's `syncState` for the account `scope` and the candidate `slug`. */
export function encodeState(scope: string, state: SentState, slug: string): string {
	const head = `${scope.slice(0, SCOPE_LENGTH)}${candidateTag(slug)}`;
	const body = encodeBody(short(state));
	return `${VERSION}.${head}${checkOf(head, body)}.${body}`;
}

function prints(text: string): string[] | undefined {
	if (text.length % RECORD_LENGTH !== 0) return undefined;
	return Array.from({ length: text.length / RECORD_LENGTH }, (_, index) => text.slice(index * RECORD_LENGTH, (index + 1) * RECORD_LENGTH));
}

/**
 * Reads a `syncState` given for the account `scope` with the Candidate Slug `slug`: what was sent,
 * or why it cannot be used. A state of version 1 names no candidate: it is read for any slug.
 */
export function decodeState(text: string, scope: string, slug: string): { state: SentState } | { problem: StateProblem } {
	const parts = text.trim().split('.');
	const version = parts[0];
	if (version !== VERSION && version !== UNTIED_VERSION) return { problem: /^\d+$/.test(version) ? 'version' : 'garbled' };
	if (parts.length !== 4 || !parts.every((part) => PRINT.test(part))) return { problem: 'garbled' };
	const [, head, p, records] = parts;
	const headLength = SCOPE_LENGTH + (version === VERSION ? SLUG_LENGTH : 0);
	if (head.length !== headLength + CHECK_LENGTH) return { problem: 'garbled' };
	if (head.slice(headLength) !== checkOf(head.slice(0, headLength), [p, records].join('.'))) return { problem: 'garbled' };
	const r = prints(records);
	if (r === undefined || ![0, PROFILE_LENGTH].includes(p.length)) return { problem: 'garbled' };
	if (head.slice(0, SCOPE_LENGTH) !== scope.slice(0, SCOPE_LENGTH)) return { problem: 'account' };
	if (version === VERSION && head.slice(SCOPE_LENGTH, headLength) !== candidateTag(slug)) return { problem: 'candidate' };
	return { state: { p: p === '' ? undefined : p, r } };
}

/** 2 bytes of a hash of one profile field's value, bound to the profile print `profile` it was sent with. */
const fieldHash = (profile: string, field: string, value: unknown): Buffer =>
	createHash('sha256').update(JSON.stringify(['recruiting-field', profile, field, value])).digest().subarray(0, FIELD_HASH_BYTES);

/** The seal before a profile's field prints: says where they are among the prints (4 bytes, bound to the profile print). */
const sealOf = (profile: string, packed: string[]) => shortPrint(fingerprint('profile fields', { profile, packed }), RECORD_BYTES);

/**
 * The prints that keep a profile's fields one by one (bound to its print `profile`): a seal, then
 * 2 bytes per field the print holds (in `order`), packed into prints of 4 bytes (so the memory
 * keeps them as it keeps record prints): 3 prints for a profile of 3 or 4 fields.
 */
export function fieldBlock(profile: string, fields: IDataObject, order: string[]): string[] {
	const values = comparable(fields);
	const held = order.filter((field) => values[field] !== undefined);
	const bytes = Buffer.alloc(Math.ceil(held.length / 2) * RECORD_BYTES);
	held.forEach((field, position) => fieldHash(profile, field, values[field]).copy(bytes, position * FIELD_HASH_BYTES));
	const packed = Array.from({ length: bytes.length / RECORD_BYTES }, (_, index) => bytes.subarray(index * RECORD_BYTES, (index + 1) * RECORD_BYTES).toString('base64url'));
	return [sealOf(profile, packed), ...packed];
}

/** Where the field prints of the profile print `profile` sit among `prints`, and the fields' hashes in order; undefined when they are not there. */
function findBlock(prints: string[], profile: string | undefined, order: string[]) {
	const held = profileFields(profile, order);
	if (profile === undefined || held === undefined) return undefined;
	const length = 1 + Math.ceil(held.length / 2);
	for (let at = 0; at + length <= prints.length; at++) {
		const packed = prints.slice(at + 1, at + length);
		if (prints[at] !== sealOf(profile, packed)) continue;
		const bytes = Buffer.concat(packed.map((print) => Buffer.from(print, 'base64url')));
		const hashes = new Map(held.map((field, position) => [field, bytes.subarray(position * FIELD_HASH_BYTES, (position + 1) * FIELD_HASH_BYTES)]));
		return { at, length, hashes };
	}
	return undefined;
}

/**
 * Whether every field of `fields` has the value it had when the profile print `profile` was sent
 * (its field prints among `prints` say so; 2 bytes per field: a changed value passes for the same
 * once in 65,536).
 */
export function fieldsHeld(prints: string[], profile: string | undefined, fields: IDataObject, order: string[]): boolean {
	const block = findBlock(prints, profile, order);
	if (!block || profile === undefined) return false;
	const values = comparable(fields);
	return Object.keys(values)
		.filter((field) => values[field] !== undefined)
		.every((field) => block.hashes.get(field)?.equals(fieldHash(profile, field, values[field])) === true);
}

/** The prints without the field prints of the profile print `profile` (the record prints alone). */
export function withoutBlock(prints: string[], profile: string | undefined, order: string[]): string[] {
	const block = findBlock(prints, profile, order);
	return block ? [...prints.slice(0, block.at), ...prints.slice(block.at + block.length)] : prints;
}
