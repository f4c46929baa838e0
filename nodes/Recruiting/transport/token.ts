/**
 * The session token itself: where a login answer carries it, and the seal that ties a stored
 * token to the credential values it was obtained with.
 *
 * The service does not document where the login answer carries the session token, so
 * the token is taken from `tokenPath` when the user set one, or found by the contract's
 * auto-detection. Errors never quote a value of the answer, only its keys.
 */
import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { headerValue, isObject } from './http';

export const TOKEN_KEYS = [
	'token',
	'access_token',
	'accessToken',
	'auth_token',
	'authToken',
	'jwt',
	'session_token',
	'sessionToken',
	'api_token',
	'bearer',
] as const;

function nonEmptyString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function getPath(body: unknown, path: string): unknown {
	let current: unknown = body;
	for (const key of path.split('.').filter((part) => part !== '')) {
		if (!isObject(current)) return undefined;
		current = current[key];
	}
	return current;
}

/** Keys (never values) of the answer's `data`, for an error message that helps set Token Path. */
function describeKeys(body: unknown): string {
	const data = isObject(body) ? body.data : undefined;
	if (isObject(data)) {
		const keys = Object.keys(data);
		return keys.length ? `the answer's data has the keys: ${keys.join(', ')}` : "the answer's data is empty";
	}
	if (isObject(body)) {
		const keys = Object.keys(body);
		return keys.length ? `the answer has the keys: ${keys.join(', ')}` : 'the answer is empty';
	}
	return 'the answer carried no JSON object';
}

export class TokenNotFoundError extends Error {}

/**
 * Finds the session token in a login answer.
 * Order: `tokenPath` if set; else each of TOKEN_KEYS in `data`, then `data.user`, then the
 * top level; last the `Authorization` (after `Bearer `) or `X-Auth-Token` response header.
 */
export function extractToken(body: unknown, headers: IDataObject | undefined, tokenPath: string): string {
	const path = tokenPath.trim();
	if (path !== '') {
		const found = nonEmptyString(getPath(body, path));
		if (found !== undefined) return found;
		throw new TokenNotFoundError(
			`No session token at Token Path "${path}": ${describeKeys(body)}. Correct Token Path in the Recruiting API credential.`,
		);
	}
	const data = isObject(body) ? body.data : undefined;
	const places: unknown[] = [data, isObject(data) ? data.user : undefined, body];
	for (const place of places) {
		if (!isObject(place)) continue;
		for (const key of TOKEN_KEYS) {
			const found = nonEmptyString(place[key]);
			if (found !== undefined) return found;
		}
	}
	const authorization = headerValue(headers, 'authorization');
	if (authorization !== undefined) {
		const bearer = authorization.replace(/^bearer\s+/i, '').trim();
		if (bearer !== '') return bearer;
	}
	const xAuth = headerValue(headers, 'x-auth-token');
	if (xAuth !== undefined) return xAuth;
	throw new TokenNotFoundError(
		`Logged in, but found no session token in the login answer: ${describeKeys(body)}. Set Token Path in the Recruiting API credential to the dotted path of the token (for example data.token).`,
	);
}

/**
 * The stored session token is sealed with a fingerprint of what it was obtained with (base URL,
 * e-mail, password, token path). When the user edits any of them, the stored token no longer
 * matches: it is not sent, the service answers 401 and the node (or n8n's credential test) logs
 * in again with the new values, instead of quietly going on with the old account's session.
 */
const SEAL = /^rs1:([0-9a-f]{16}):([\s\S]*)$/;

function fingerprint(credentials: ICredentialDataDecryptedObject): string {
	const parts = [credentials.baseUrl, credentials.email, credentials.password, credentials.tokenPath].map((value) =>
		typeof value === 'string' ? value.trim() : '',
	);
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

export function sealSessionToken(credentials: ICredentialDataDecryptedObject, token: string): string {
	return `rs1:${fingerprint(credentials)}:${token}`;
}

/**
 * The open token of a sealed one, as the transport's session owner already checked it against the
 * same credential values, kept on the transport's own per-request copy of the credential (a
 * symbol, not enumerable: never stored, serialised or copied), so that `authenticate` need not
 * hash the credential again for every request. It counts only while the copy's `sessionToken` is
 * still the sealed token it was made for (n8n's login replaces it).
 */
const OPENED = Symbol('recruiting.openedToken');

type MarkedCredentials = ICredentialDataDecryptedObject & { readonly [OPENED]?: { sealed: string; open: string } };

/** Marks a copy of the credential whose `sessionToken` is `sealed` with its open token `open` (checked by the caller). */
export function markOpened(credentials: ICredentialDataDecryptedObject, sealed: string, open: string): ICredentialDataDecryptedObject {
	Object.defineProperty(credentials, OPENED, { value: { sealed, open }, enumerable: false, configurable: true });
	return credentials;
}

/** The session token to send: '' when none is stored or it was obtained with other values. */
export function openSessionToken(credentials: ICredentialDataDecryptedObject): string {
	const stored = typeof credentials.sessionToken === 'string' ? credentials.sessionToken : '';
	const opened = (credentials as MarkedCredentials)[OPENED];
	if (opened !== undefined && opened.sealed === stored) return opened.open;
	const sealed = SEAL.exec(stored);
	if (!sealed) return stored;
	return sealed[1] === fingerprint(credentials) ? sealed[2] : '';
}

const SECRET_FIELDS = ['password', 'accessToken', 'apiKey', 'sessionToken'];

/** The secret values a credential holds (as typed and trimmed, and the open session token), for redaction. */
export function credentialSecrets(credentials: ICredentialDataDecryptedObject): string[] {
	const values = new Set<string>();
	for (const field of SECRET_FIELDS) {
		const value = credentials[field];
		if (typeof value === 'string' && value !== '') {
			values.add(value);
			values.add(value.trim());
		}
	}
	const open = openSessionToken(credentials);
	if (open !== '') values.add(open);
	return [...values];
}
