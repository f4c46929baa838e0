/**
 * Every message the transport shows, and the one redaction: each text that leaves the node as an
 * error (message, description, the service's answer) passes through `redact` with the secret
 * values the execution knows (password, access token, API key, every session token seen).
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { serviceText } from './http';

/** A secret as written, and as it stands inside JSON text (quotes, backslashes and control characters escaped). */
function writtenForms(secret: string): string[] {
	const escaped = JSON.stringify(secret).slice(1, -1);
	return escaped === secret ? [secret] : [secret, escaped, JSON.stringify(escaped).slice(1, -1)];
}

/** Where a list made by `secretList` keeps its written forms (not enumerable: never serialised, never copied). */
const FORMS = Symbol('recruiting.secretForms');

type SecretList = readonly string[] & { readonly [FORMS]?: readonly string[] };

/** Every written form of the secrets worth redacting (four characters or more). */
function writtenFormsOf(secrets: Iterable<string>): string[] {
	const forms: string[] = [];
	for (const secret of secrets) if (secret.length >= 4) forms.push(...writtenForms(secret));
	return forms;
}

/**
 * A frozen list of secrets that carries its written forms, worked out once: the transport hands the
 * same list to every output item until a new session token is seen (`TransportSession.secrets`).
 */
export function secretList(secrets: string[]): readonly string[] {
	Object.defineProperty(secrets, FORMS, { value: Object.freeze(writtenFormsOf(secrets)), enumerable: false });
	return Object.freeze(secrets);
}

/** The written forms of `secrets`: those a `secretList` carries, or worked out now. */
function formsOf(secrets: Iterable<string>): readonly string[] {
	return (secrets as SecretList)[FORMS] ?? writtenFormsOf(secrets);
}

function redactForms(text: string, forms: readonly string[]): string {
	let result = text;
	for (const form of forms) if (result.includes(form)) result = result.split(form).join('[redacted]');
	return result.replace(/(bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
}

/** Removes every given secret (also JSON-escaped), and anything shaped like a bearer token, from a text. */
export function redact(text: string, secrets: Iterable<string> = []): string {
	return redactForms(text, formsOf(secrets));
}

/** A text redacted first, then cut to `max` characters: a cut never leaves part of a secret behind. */
export function redactAndCut(text: string, secrets: Iterable<string>, max: number): string {
	const safe = redact(text, secrets);
	return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}


const SECRET_KEY = /token|passw(or)?d|secret|api_?key/i;

/**
 * A copy of a JSON value with every string redacted; with `secretKeys`, fields whose name names
 * a secret (token, password, secret, API key) are replaced whole.
 */
export function redactValues<T>(value: T, secrets: Iterable<string>, secretKeys = false): T {
	const forms = formsOf(secrets);
	// Past 20 levels a value is left out: a body nested without end would overflow every walk over it (n8n's error reads its fields too).
	const walk = (entry: unknown, depth: number): unknown => {
		if (typeof entry === 'string') return redactForms(entry, forms);
		if (typeof entry === 'object' && entry !== null && depth >= 20) return '[nested too deep]';
		if (Array.isArray(entry)) return entry.map((inner) => walk(inner, depth + 1));
		if (typeof entry === 'object' && entry !== null) {
			const out: IDataObject = {};
			for (const [key, inner] of Object.entries(entry)) out[key] = secretKeys && SECRET_KEY.test(key) ? '[redacted]' : (walk(inner, depth + 1) as IDataObject);
			return out;
		}
		return entry;
	};
	return walk(value, 0) as T;
}

export interface ErrorDetails {
	httpCode?: number;
	description?: string;
	itemIndex?: number;
	body?: unknown;
	/** A creation whose outcome is unknown: the service may or may not have stored it (`context.mayExist`). */
	mayExist?: boolean;
}

/** A `NodeApiError` whose message, description and body are redacted. */
/** A message that quotes the service is at most this long (its middle cut: `fitMessage`). */
export const MESSAGE_MAX = 1000;

/**
 * A message that quotes the service (its refusal's text, as long as it sent), made safe to show:
 * redacted first (a cut or a changed space through a secret would leave it readable), its runs of
 * whitespace made one space, and past `MESSAGE_MAX` cut in the middle, where the service's text
 * is, so that the node's own words at both ends stay (the advice after it: "may or may not have
 * stored it …").
 */
export function fitMessage(text: string, secrets: Iterable<string>): string {
	const safe = redact(text, secrets).replace(/\s+/g, ' ');
	return safe.length <= MESSAGE_MAX ? safe : `${safe.slice(0, 560)} … ${safe.slice(safe.length - 420)}`;
}

export function apiError(node: INode, message: string, details: ErrorDetails, secrets: Iterable<string>): NodeApiError {
	const list = [...secrets];
	const safeMessage = fitMessage(message, list);
	const response: JsonObject = { message: safeMessage };
	if (details.httpCode !== undefined) response.httpCode = String(details.httpCode);
	if (details.body !== undefined) response.body = redactValues(details.body, list, true) as JsonObject;
	const error = new NodeApiError(node, response, {
		message: safeMessage,
		description: details.description ? redact(details.description, list) : undefined,
		httpCode: details.httpCode !== undefined ? String(details.httpCode) : undefined,
		itemIndex: details.itemIndex,
	});
	if (details.mayExist) error.context.mayExist = true;
	return error;
}

function statusWords(status: number): string {
	if (status === 401) return 'The service refused the credentials';
	if (status === 403) return 'The service refused access';
	if (status === 404) return 'The service found nothing there';
	if (status === 413) return 'The request was too large for the service';
	if (status === 422 || status === 400) return 'The service rejected the input';
	if (status === 429) return 'The service is rate limiting requests';
	if (status >= 500) return 'The service failed';
	return 'The service answered with an error';
}

/** `<what happened> (HTTP n): <the service's own text>`. */
export function statusMessage(status: number, body: unknown, isJson: boolean): string {
	const said = serviceText(body);
	const detail = said ? `: ${said}` : !isJson ? ' (its answer was not JSON)' : '';
	return `${statusWords(status)} (HTTP ${status})${detail}`;
}

/**
 * A redirect: the transport does not follow one (a followed POST would arrive as a GET, and
 * following costs every request CPU), so the Base URL must be the address the service answers at.
 */
export function redirectMessage(status: number, location: string | undefined, secrets: Iterable<string>, what = 'The service'): string {
	// Redacted before it is cut: a cut through a secret would leave its first characters unredacted.
	const target = location ? ` to ${redactAndCut(location, secrets, 200)}` : '';
	return `${what} answered with a redirect (HTTP ${status})${target}, which the node does not follow. Set the Base URL in the Recruiting API credential to the address the service answers at (for example https:// instead of http://).`;
}

/** "HTTP 422", or for a refusal reported in the body of a 2xx answer "HTTP 200, but the answer's status is 422". */
export function statusNote(status: number, httpStatus: number = status): string {
	return httpStatus === status ? `HTTP ${status}` : `HTTP ${httpStatus}, but the answer's status is ${status}`;
}

/** A failure the service reported in the body of a 2xx answer (`status` 400 or more in its envelope). */
export function refusedInBodyMessage(httpStatus: number, said: number, body: unknown): string {
	const text = serviceText(body);
	return `${statusWords(said)} (${statusNote(said, httpStatus)})${text ? `: ${text}` : ''}`;
}

export const UNAUTHORIZED_ADVICE = {
	emailPassword: ' even after logging in again. Check the e-mail and password of the Recruiting API credential.',
	accessToken: '. The access token may have expired or been logged out: enter a new one in the Recruiting API credential.',
	apiKey:
		'. The API key may have been deleted, this operation may need a session (Email and Password or Access Token authentication), or the service may expect the key in another header (API Key Header).',
} as const;

/**
 * Said of a 401 with Email and Password taken for the request's own answer (transport/session.ts
 * `refusal`): while the credential's sessions serve other requests, the service refuses this one itself; after
 * new sessions served nothing although earlier ones served, that or the account's access ended.
 */
export const OWN_UNAUTHORIZED = {
	own: " for this request, while this credential's sessions serve others: the service refuses this request itself (a record of another company or account, say). The credential works.",
	unclear:
		' even after logging in again: new sessions served nothing, although earlier sessions of this credential served other requests. The service refuses this request itself (a record of another company or account, say), or the account lost its access.',
} as const;

/** Said of a creation whose outcome is unknown: it was not repeated, so it cannot exist twice. */
const MAY_EXIST =
	'The service may or may not have stored it: it was not sent again, so that it cannot be created twice. Check whether it exists before you run this item again.';

export function brokenMessage(timedOut: boolean, repeatable: boolean): string {
	const what = timedOut
		? 'The recruiting service did not answer in time (Request Timeout)'
		: 'The connection to the recruiting service broke before it answered';
	return repeatable ? what : `${what}. ${MAY_EXIST}`;
}

export function cancelledMessage(repeatable: boolean): string {
	const what = 'The execution was cancelled while the request was under way';
	return repeatable ? what : `${what}. ${MAY_EXIST}`;
}

/**
 * Whether an answer proves the service did not process the request: 429, a 503 with Retry-After
 * (both say "come back later"), and a refusal of the request itself (4xx: validation, a conflict,
 * a missing record, a refused credential).
 */
export function provedNotProcessed(status: number, retryAfterMs: number | undefined): boolean {
	return status === 429 || (status === 503 && retryAfterMs !== undefined) || (status >= 400 && status < 500);
}

/**
 * Whether a creation answered `status` (not 2xx) may have been stored: every answer that does not
 * prove it was not processed (a 500, a 502, a 503 without Retry-After, a redirect, any other
 * status). Such a creation is never sent again, and its error carries `context.mayExist`.
 */
export function outcomeUnknown(status: number, retryAfterMs: number | undefined): boolean {
	return !provedNotProcessed(status, retryAfterMs);
}

export function mayExistMessage(message: string): string {
	return `${message}. ${MAY_EXIST}`;
}

export function gatewayMessage(status: number, body: unknown, isJson: boolean): string {
	return mayExistMessage(statusMessage(status, body, isJson));
}

export const HEADER_REFUSED =
	'The request was not sent: a header value (the session token, access token or API key) has a character HTTP headers cannot carry. Paste the value again in the Recruiting API credential without invisible or typographic characters.';

export const NOT_JSON = (status: number) =>
	`The service answered HTTP ${status} with something that is not JSON (an HTML page). Check that the Base URL points at the recruiting service's API.`;
