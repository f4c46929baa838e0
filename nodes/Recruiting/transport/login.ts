/**
 * Session login and token discovery, shared by the credential's `preAuthentication`
 * (automatic login) and the node's Session → Login operation.
 *
 * The service does not document where the login answer carries the session token, so
 * the token is taken from `tokenPath` when the user set one, or found by the contract's
 * auto-detection. Errors never quote a value of the answer, only its keys.
 */
import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

export type AuthMode = 'emailPassword' | 'accessToken' | 'apiKey';

/** The credential's authentication mode (E-mail and Password when unset, as the credential's default). */
export function authMode(credentials: ICredentialDataDecryptedObject): AuthMode {
	const mode = credentials.authentication;
	return mode === 'accessToken' || mode === 'apiKey' ? mode : 'emailPassword';
}

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

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	if (key === undefined) return undefined;
	const value = headers[key];
	return nonEmptyString(Array.isArray(value) ? value[0] : value);
}

/** Keys (never values) of the answer's `data`, for an error message that helps set Token Path. */
export function describeKeys(body: unknown): string {
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

/** Joins the base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Checks that the base URL is an http(s) URL; returns the message to show when it is not. */
export function baseUrlProblem(baseUrl: unknown): string | undefined {
	if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
		return 'The Recruiting API credential has no Base URL. Enter the service address, for example https://api.example.com.';
	}
	let parsed: URL;
	try {
		parsed = new URL(baseUrl.trim());
	} catch {
		return `The Base URL "${baseUrl}" in the Recruiting API credential is not a URL. Enter the service address, for example https://api.example.com.`;
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return `The Base URL "${baseUrl}" must start with http:// or https://.`;
	}
	return undefined;
}

/** The text of a login failure answer: the service's `error` or `message`. */
export function serviceText(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed.startsWith('{')) {
			try {
				return serviceText(JSON.parse(trimmed));
			} catch {
				return undefined;
			}
		}
		return undefined;
	}
	if (!isObject(body)) return undefined;
	return nonEmptyString(body.error) ?? nonEmptyString(body.message);
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

/** The session token to send: '' when none is stored or it was obtained with other values. */
export function openSessionToken(credentials: ICredentialDataDecryptedObject): string {
	const stored = typeof credentials.sessionToken === 'string' ? credentials.sessionToken : '';
	const sealed = SEAL.exec(stored);
	if (!sealed) return stored;
	return sealed[1] === fingerprint(credentials) ? sealed[2] : '';
}
