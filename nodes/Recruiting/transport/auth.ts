/**
 * How a request is authorised, and the one login request.
 *
 * - `credentialProblem`: what is wrong with the credential's values before anything is sent
 *   (an empty required field, a Base URL that is not a URL, a header name with a space).
 * - `authenticateRequest`: the credential's `authenticate`, for the three modes (and the internal
 *   anonymous mode the transport uses for requests that need no session).
 * - `loginRequest` / `logIn`: the login, used by the credential's `preAuthentication` (automatic
 *   login) and, through the transport, by Session → Log In.
 *
 * Pasted values are trimmed where they are used (a trailing newline or space in a token, key,
 * header name or Base URL), never rewritten in the stored credential.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { fitMessage, redirectMessage, statusNote } from './errors';
import { CANCELLED_UNSENT_CODE, LOGIN_ONLY_CODE, errorCode, headerValue, neverSent, parseBody, retryAfterOf, serviceText, timedOut, unpack } from './http';
import { TokenNotFoundError, credentialSecrets, extractToken, openSessionToken, sealSessionToken } from './token';

export type AuthMode = 'emailPassword' | 'accessToken' | 'apiKey';

/** Internal mode for requests sent without any authorisation (never stored in a credential). */
export const ANONYMOUS = 'anonymous';

export const CREDENTIAL_TYPE = 'recruitingApi';

/** The credential's authentication mode (Email and Password when unset, as the credential's default). */
export function authMode(credentials: ICredentialDataDecryptedObject): AuthMode {
	const mode = credentials.authentication;
	return mode === 'accessToken' || mode === 'apiKey' ? mode : 'emailPassword';
}

export function text(credentials: ICredentialDataDecryptedObject, field: string): string {
	const value = credentials[field];
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/** Joins the base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Checks that the base URL is an http(s) URL; returns the message to show when it is not. */
function baseUrlProblem(baseUrl: unknown): string | undefined {
	if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
		return 'The Recruiting API credential has no Base URL. Enter the service address, for example https://api.example.com.';
	}
	let parsed: URL;
	try {
		parsed = new URL(baseUrl.trim());
	} catch {
		return `The Base URL "${baseUrl.trim()}" in the Recruiting API credential is not a URL. Enter the service address, for example https://api.example.com.`;
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return `The Base URL "${baseUrl.trim()}" must start with http:// or https://.`;
	}
	return undefined;
}

/** RFC 9110 token characters: what a header name may consist of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The first character of a value that an HTTP header cannot carry, or undefined. Node's rule
 * (`ERR_INVALID_CHAR`): tab, visible ASCII, space and Latin-1 only; so a line break, another
 * control character, or a pasted zero-width space or "…" inside a secret.
 */
export function headerUnsafeCharacter(value: string): string | undefined {
	return /[^\t\x20-\x7e\x80-\xff]/.exec(value)?.[0];
}

/** How a character is named in a message: U+200B for invisible ones, the character itself otherwise. */
function describeCharacter(character: string): string {
	const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	return /[\p{L}\p{N}\p{P}\p{S}]/u.test(character) ? `"${character}" (${code})` : code;
}

const REQUIRED: Record<AuthMode, Array<[string, string]>> = {
	emailPassword: [
		['email', 'Email'],
		['password', 'Password'],
	],
	accessToken: [['accessToken', 'Access Token']],
	apiKey: [['apiKey', 'API Key']],
};

/** What stops the credential from being used, naming the field; undefined when it can be used. */
export function credentialProblem(credentials: ICredentialDataDecryptedObject): string | undefined {
	const baseUrl = baseUrlProblem(credentials.baseUrl);
	if (baseUrl) return baseUrl;
	const mode = authMode(credentials);
	for (const [field, label] of REQUIRED[mode]) {
		const value = field === 'password' ? credentials.password : text(credentials, field);
		if (typeof value !== 'string' || value === '') {
			return `The Recruiting API credential has no ${label}: enter it, or choose another Authentication.`;
		}
	}
	for (const [field, label] of [
		['accessToken', 'Access Token'],
		['apiKey', 'API Key'],
	] as const) {
		const unsafe = mode === field ? headerUnsafeCharacter(text(credentials, field)) : undefined;
		if (unsafe !== undefined) {
			return `The ${label} in the Recruiting API credential contains a line break or another character an HTTP header cannot carry (${describeCharacter(unsafe)}; for example a zero-width space or "…" pasted with it): paste it again without it. Nothing was sent.`;
		}
	}
	if (mode === 'apiKey') {
		const header = text(credentials, 'apiKeyHeader') || 'Authorization';
		if (!HEADER_NAME.test(header)) {
			return `The API Key Header "${header.slice(0, 60)}" in the Recruiting API credential is not a valid header name: use letters, digits and - only, without spaces or a colon (for example X-API-Key).`;
		}
	}
	return undefined;
}

/**
 * A request that only carries n8n's login: n8n runs the credential's `preAuthentication` (the
 * login, whose token it stores in the credential), then `authenticate`, which stops the request
 * before it is sent. So a rate cap can space the login and the request that needed it. Marked like
 * a login failure, under a non-enumerable symbol on the transport's own copy of the credential.
 */
const LOGIN_ONLY = Symbol.for('n8n-nodes-recruiting.loginOnly');

export function markLoginOnly(credentials: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	Object.defineProperty(credentials, LOGIN_ONLY, { value: true, enumerable: false, configurable: true });
	return credentials;
}

/** The credential's `authenticate`: adds the header of the credential's mode to a request. */
export function authenticateRequest(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): IHttpRequestOptions {
	// The last step before n8n sends it (after the login it may have run): a stopped execution's request stays unsent, and says so.
	if (requestOptions.abortSignal?.aborted === true) {
		throw Object.assign(new Error('The execution was cancelled before the request was sent'), { code: CANCELLED_UNSENT_CODE });
	}
	if ((credentials as { [LOGIN_ONLY]?: boolean })[LOGIN_ONLY] === true) {
		throw Object.assign(new Error('Logged in; the carrier request is not sent'), { code: LOGIN_ONLY_CODE });
	}
	if (credentials.authentication === ANONYMOUS) return requestOptions;
	const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
	const mode = authMode(credentials);
	if (mode === 'apiKey') {
		const header = text(credentials, 'apiKeyHeader') || 'Authorization';
		const key = text(credentials, 'apiKey');
		headers[header] = header.toLowerCase() === 'authorization' ? `Bearer ${key}` : key;
	} else {
		const token = mode === 'accessToken' ? text(credentials, 'accessToken') : openSessionToken(credentials);
		headers.Authorization = `Bearer ${token}`;
	}
	return { ...requestOptions, headers };
}

/** The login request (`POST /v1/login`), built in one place. */
export function loginRequest(credentials: ICredentialDataDecryptedObject): IHttpRequestOptions & { body: IDataObject } {
	return {
		method: 'POST',
		url: joinUrl(String(credentials.baseUrl ?? ''), '/v1/login'),
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: { user: { login: text(credentials, 'email'), password: credentials.password as string } },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect is an answer (see redirectMessage), not followed.
		disableFollowRedirect: true,
		timeout: 60000,
	};
}

/**
 * Why a login failed, as data: the transport decides from it whether to try again (429, 5xx,
 * a broken connection), to stop for the whole execution (wrong password, no token), or to
 * report the service as unreachable.
 */
export interface LoginFailure {
	kind: 'status' | 'network' | 'noToken' | 'config';
	message: string;
	status?: number;
	retryAfterMs?: number;
	code?: string;
}

/** A login failure worth another try: the service was busy or the connection broke. */
export function transientLogin(failure: LoginFailure): boolean {
	if (failure.kind === 'status') return failure.status === 429 || (failure.status ?? 0) >= 500;
	return failure.kind === 'network' && !neverSent(failure.code);
}

/**
 * How long to wait before trying a failed login again, or undefined (it failed for good). A busy
 * service or a broken connection: up to `maxRetries` times. A login refused for rate limiting
 * (429, or 503 with Retry-After: "come back later") tries again for as long as the run runs, as
 * any request does under a rate limit (a service that allows 3 logins per hour opens again
 * within it; issue 48: failing it after three tries failed every later row of the run, and a
 * bound of 60 s still failed 350 of 500 rows on a login limit per 2 minutes). Each wait is its
 * Retry-After, else the backoff (also for a `Retry-After: 0` the service did not keep), at most
 * the bound of one wait.
 */
export function loginRetryWait(failure: LoginFailure, tries: number, retry: { maxRetries: number; initialDelayMs: number; maxDelayMs: number }): number | undefined {
	if (!transientLogin(failure)) return undefined;
	const patient = failure.status === 429 || (failure.status === 503 && failure.retryAfterMs !== undefined);
	if (tries >= retry.maxRetries && !patient) return undefined;
	return Math.min(retry.maxDelayMs, failure.retryAfterMs || retry.initialDelayMs * 2 ** Math.min(tries, 16));
}

/**
 * The login records its failure on the credential object it was given (n8n hands the
 * transport's own per-request copy to `preAuthentication`), under a non-enumerable symbol: it is
 * never stored or serialised, and the transport reads it as data instead of parsing the error
 * message n8n wraps around it.
 */
const LOGIN_FAILURE = Symbol.for('n8n-nodes-recruiting.loginFailure');

export function readLoginFailure(credentials: ICredentialDataDecryptedObject): LoginFailure | undefined {
	return (credentials as { [LOGIN_FAILURE]?: LoginFailure })[LOGIN_FAILURE];
}

function fail(credentials: ICredentialDataDecryptedObject, failure: LoginFailure): Error {
	// The service's text may echo what was sent (the password): redacted, then cut.
	const safe = { ...failure, message: fitMessage(failure.message, credentialSecrets(credentials)) };
	Object.defineProperty(credentials, LOGIN_FAILURE, { value: safe, enumerable: false, configurable: true, writable: true });
	return new Error(safe.message);
}

/**
 * The message of a login the service refused (a non-2xx status, or a 2xx answer whose body says
 * `status` 400 or more: then `httpStatus` is the 2xx): advice that fits the status.
 */
export function loginStatusMessage(status: number, body: unknown, httpStatus: number = status): string {
	const said = serviceText(body);
	const note = statusNote(status, httpStatus);
	if (status === 401 || status === 403) {
		return `Login failed: ${said ?? 'the service rejected the e-mail or password'} (${note}). Check Email and Password in the Recruiting API credential.`;
	}
	const detail = said ? `: ${said}` : '';
	if (status === 429) return `Login failed: the service is rate limiting logins (${note})${detail}. Try again later.`;
	if (status >= 500) return `Login failed: the service failed (${note})${detail}. Try again later.`;
	if (status === 404) return `Login failed: the service has no login at this address (${note}). Check the Base URL (without a path).`;
	return `Login failed with ${note}${detail}. Check the Base URL and the credential.`;
}

export function unreachableMessage(credentials: ICredentialDataDecryptedObject): string {
	return `Could not reach the recruiting service at ${text(credentials, 'baseUrl')}. Check the Base URL and that the service is running.`;
}

/**
 * Logs in (the credential's `preAuthentication`): returns the sealed session token to store, or
 * throws with the reason recorded as a `LoginFailure`. Modes other than Email and Password
 * need no login and return nothing to store.
 */
export async function logIn(helpers: IHttpRequestHelper['helpers'], credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
	if (authMode(credentials) !== 'emailPassword' || credentials.authentication === ANONYMOUS) return {};
	const problem = credentialProblem(credentials);
	if (problem) throw fail(credentials, { kind: 'config', message: problem });
	let response: { statusCode?: number; body?: unknown; headers?: IDataObject };
	try {
		response = (await helpers.httpRequest(loginRequest(credentials))) as typeof response;
	} catch (error) {
		const code = errorCode(error);
		const message = neverSent(code)
			? unreachableMessage(credentials)
			: timedOut(code)
				? 'The login request timed out before the recruiting service answered.'
				: 'The connection to the recruiting service broke while logging in.';
		throw fail(credentials, { kind: 'network', code, message });
	}
	const status = response.statusCode ?? 0;
	const { parsed } = parseBody(response.body);
	if (status < 200 || status >= 300) {
		const retryAfter = retryAfterOf(response.headers);
		const message =
			status >= 300 && status < 400
				? redirectMessage(status, headerValue(response.headers, 'location'), credentialSecrets(credentials), 'Login failed: the service')
				: loginStatusMessage(status, parsed);
		throw fail(credentials, { kind: 'status', status, retryAfterMs: retryAfter, message });
	}
	try {
		return { sessionToken: sealSessionToken(credentials, extractToken(parsed, response.headers, text(credentials, 'tokenPath'))) };
	} catch (error) {
		// No token, and the body says the login was refused (a 2xx answer whose envelope status is
		// 400 to 599): that status is the failure, not a missing Token Path.
		const said = unpack(status, parsed).status;
		if (said !== undefined && said >= 400 && said <= 599) {
			throw fail(credentials, { kind: 'status', status: said, message: loginStatusMessage(said, parsed, status) });
		}
		const message = error instanceof TokenNotFoundError ? error.message : 'Logged in, but found no session token';
		throw fail(credentials, { kind: 'noToken', message });
	}
}
