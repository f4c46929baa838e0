/**
 * What the memory of Candidate → Create or Update is keyed by, and how it compares what was sent:
 * every key and fingerprint is a salted hash, so the memory holds no personal data in clear.
 *
 * - the account scope: the n8n credential the node uses (its id, which stays when the credential is
 *   edited) and, for a login, the e-mail it signs in as; never a secret (a rotated access token or
 *   API key keeps the memory) nor the Base URL (a trailing slash or a corrected address keeps it).
 *   A node pointed at another credential, or a credential edited to sign in as another e-mail,
 *   starts an empty memory: it never reuses slugs that belong elsewhere;
 * - the state scope: the service account a row's `syncState` belongs to, the same through every
 *   credential and n8n instance that reaches it: the service address (normalised) and, for a
 *   login, its e-mail; for an access token or API key (whose account the node cannot learn
 *   without the secret) the service address and the authentication mode;
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

/** The row's key as it is compared: e-mail lower case without spaces, phone digits only (the contract's "phone digits"), a key trimmed; '' when empty. */
export function normaliseKey(matchBy: MatchBy, value: unknown): string {
	if (value === undefined || value === null) return '';
	const text = (typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)).normalize('NFC');
	if (matchBy === 'email') return text.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, '').toLowerCase();
	// Digits only, an extension's too: "030 5550202-17" and "030 5550202 Durchwahl 17" are one phone (so are 030 12 x 3 and 030 123).
	if (matchBy === 'phone') return text.replace(/\D+/g, '');
	return text.trim();
}

/** How a credential signs in. */
const modeOf = (credentials: ICredentialDataDecryptedObject) =>
	typeof credentials.authentication === 'string' ? credentials.authentication : 'emailPassword';

const textOf = (credentials: ICredentialDataDecryptedObject, field: string) =>
	typeof credentials[field] === 'string' ? (credentials[field] as string).trim() : '';

/**
 * The account the node acts as, hashed: the n8n credential's id and, for a login, its e-mail (case
 * and spaces ignored). Without a credential id (not seen in n8n 1.x or 2.x, kept as a fallback):
 * the Base URL's host instead.
 */
export function accountScope(credentials: ICredentialDataDecryptedObject, credentialId: string | undefined): string {
	const mode = modeOf(credentials);
	const login = mode === 'emailPassword' ? textOf(credentials, 'email').toLowerCase() : '';
	let where = credentialId ?? '';
	if (where === '') {
		const base = textOf(credentials, 'baseUrl').toLowerCase();
		where = `url:${base.replace(/^[a-z]+:\/\//, '').replace(/[/?#].*$/, '')}`;
	}
	return digest(['recruiting-account-2', where, mode, login]);
}

/**
 * The service address as it names the service: the Base URL without its scheme, user info, query
 * and fragment, a default port (80, 443) or trailing slashes, in lower case. `http://api.example.com`,
 * `https://API.example.com:443/` and `api.example.com` are one service; another host or path is
 * another.
 */
export function serviceAddress(baseUrl: unknown): string {
	const text = typeof baseUrl === 'string' ? baseUrl.trim().toLowerCase() : '';
	let host: string;
	let path: string;
	try {
		const url = new URL(/^[a-z][a-z\d+.-]*:\/\//.test(text) ? text : `http://${text}`);
		host = url.host;
		path = url.pathname;
	} catch {
		// Not a URL (the node's requests then fail with their own message): the text without scheme, user info, query, fragment.
		const rest = text.replace(/^[a-z][a-z\d+.-]*:\/\//, '').replace(/[?#].*$/, '').replace(/^[^/@]*@/, '');
		const slash = rest.indexOf('/');
		host = slash === -1 ? rest : rest.slice(0, slash);
		path = slash === -1 ? '' : rest.slice(slash);
	}
	return `${host.replace(/\.?(:(80|443))?$/, '')}${path.replace(/\/{2,}/g, '/').replace(/\/+$/, '')}`;
}

/**
 * The account a row's `syncState` belongs to, hashed: the service address (`serviceAddress`) and
 * how the credential signs in, with the login e-mail (lower case, trimmed) for Email and Password.
 * Not the n8n credential: another credential of the same login, on this n8n instance or another,
 * takes the state. For an access token or API key the node cannot tell the account without the
 * secret: a state made for another account of the same service through such a credential is not
 * detected here (docs/sync-state.md).
 */
export function stateScope(credentials: ICredentialDataDecryptedObject): string {
	const mode = modeOf(credentials);
	const login = mode === 'emailPassword' ? textOf(credentials, 'email').toLowerCase() : '';
	return digest(['recruiting-state-account', serviceAddress(credentials.baseUrl), mode, login]);
}

/**
 * The service scope whose pace (`transport/pace.ts`) a node run starts from and leaves: the
 * service address, the sign-in mode with the login e-mail, and the n8n credential (another
 * credential may be another account with a limit of its own), hashed. Holds no secret.
 */
export function paceScope(credentials: ICredentialDataDecryptedObject, credentialId: string | undefined): string {
	const mode = modeOf(credentials);
	const login = mode === 'emailPassword' ? textOf(credentials, 'email').toLowerCase() : '';
	return digest(['recruiting-pace', serviceAddress(credentials.baseUrl), mode, login, credentialId ?? '']);
}

/** The scope of the memory of 0.2.0 and earlier (base URL and login, or the secret itself): read only, to carry old rows over. */
export function legacyAccountScope(credentials: ICredentialDataDecryptedObject): string {
	const baseUrl = textOf(credentials, 'baseUrl').replace(/\/+$/, '').toLowerCase();
	const mode = modeOf(credentials);
	const account = mode === 'accessToken' ? textOf(credentials, 'accessToken') : mode === 'apiKey' ? textOf(credentials, 'apiKey') : textOf(credentials, 'email').toLowerCase();
	return digest(['recruiting-account', baseUrl, mode, account]);
}

/**
 * The memory key of a row: its account scope, how it is matched, and its normalised key. 7 bytes
 * (10 characters): among 100,000 rows of one node two keys meet with a chance of about 1 in 14
 * million.
 */
export function rowKey(scope: string, matchBy: MatchBy, normalised: string): string {
	return digest(['recruiting-row', scope, matchBy, normalised], ROW_KEY_BYTES);
}

/** A row's key as the memory of 0.2.0 and earlier wrote it (16 bytes, under the legacy scope). */
export function legacyRowKey(legacyScope: string, matchBy: MatchBy, normalised: string): string {
	return digest(['recruiting-row', legacyScope, matchBy, normalised]);
}

const ROW_KEY_BYTES = 7;

/** Whether `text` has the form of a short print of `bytes` bytes (base64url). */
function isShort(text: string, bytes: number): boolean {
	return text.length === Math.ceil((bytes * 4) / 3) && /^[\w-]+$/.test(text);
}

/**
 * A print as the memory keeps it: `bytes` bytes of a sha256 of `print` (or `print` itself when it
 * already is such a short print). The same for the same print, so a short print compares equal.
 * (syncState.ts shortens prints the same way.)
 */
export function shortPrint(print: string, bytes: number): string {
	if (isShort(print, bytes)) return print;
	return createHash('sha256').update(print).digest().subarray(0, bytes).toString('base64url');
}

/** A fingerprint of what was sent (the profile fields, or one record's kind and fields). */
export function fingerprint(kind: string, body: IDataObject): string {
	return digest(['recruiting-sent', kind, stable(omit(body, 'user_slug'))], 9);
}
