/**
 * What the memory of Candidate → Create or Update is keyed by, and how it compares what was sent:
 * every key and fingerprint is a salted hash, so the memory holds no personal data in clear.
 *
 * - the account scope: the service's base URL and the account the credential signs in as (the
 *   login e-mail; for an access token or API key, that secret itself, hashed), so a credential
 *   pointed at another service or account never reuses slugs that belong elsewhere;
 * - a row's key: its e-mail (case and spaces ignored), phone (digits only) or any stable value;
 * - fingerprints of the profile fields and of each record sent.
 */
import { createHash } from 'crypto';
import { omit } from 'lodash';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

export type MatchBy = 'email' | 'phone' | 'key';

export const MATCH_BY_LABEL: Record<MatchBy, string> = { email: 'Email', phone: 'Phone', key: 'Match Key' };

/** A short, URL-safe sha256 of `parts` (16 bytes: 22 characters; collisions are out of reach at 100,000 keys). */
function digest(parts: unknown[], bytes = 16): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest().subarray(0, bytes).toString('base64url');
}

/** JSON with object keys sorted, so that a fingerprint does not depend on field order. */
function stable(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stable);
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((key) => [key, stable((value as IDataObject)[key])]),
		);
	}
	return value;
}

/** The row's key as it is compared: e-mail lower case without spaces, phone digits only, a key trimmed; '' when empty. */
export function normaliseKey(matchBy: MatchBy, value: unknown): string {
	if (value === undefined || value === null) return '';
	const text = (typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)).normalize('NFC');
	if (matchBy === 'email') return text.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, '').toLowerCase();
	if (matchBy === 'phone') return text.replace(/\D+/g, '');
	return text.trim();
}

/** The account a credential acts as, hashed: base URL and login e-mail, or base URL and the token / key. */
export function accountScope(credentials: ICredentialDataDecryptedObject): string {
	const text = (field: string) => (typeof credentials[field] === 'string' ? (credentials[field] as string).trim() : '');
	const baseUrl = text('baseUrl').replace(/\/+$/, '').toLowerCase();
	const mode = typeof credentials.authentication === 'string' ? credentials.authentication : 'emailPassword';
	const account = mode === 'accessToken' ? text('accessToken') : mode === 'apiKey' ? text('apiKey') : text('email').toLowerCase();
	return digest(['recruiting-account', baseUrl, mode, account]);
}

/** The memory key of a row: its account scope, how it is matched, and its normalised key. */
export function rowKey(scope: string, matchBy: MatchBy, normalised: string): string {
	return digest(['recruiting-row', scope, matchBy, normalised]);
}

/** A fingerprint of what was sent (the profile fields, or one record's kind and fields). */
export function fingerprint(kind: string, body: IDataObject): string {
	return digest(['recruiting-sent', kind, stable(omit(body, 'user_slug'))], 9);
}
