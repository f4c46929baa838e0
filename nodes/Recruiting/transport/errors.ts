/**
 * Every message the transport shows, and the one redaction: each text that leaves the node as an
 * error (message, description, the service's answer) passes through `redact` with the secret
 * values the execution knows (password, access token, API key, every session token seen).
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { serviceText } from './http';

/** Removes every given secret, and anything shaped like a bearer token, from a text. */
export function redact(text: string, secrets: Iterable<string> = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result.replace(/(bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
}

const SECRET_KEY = /token|passw(or)?d|secret|api_?key/i;

/** A copy of a JSON value with secret-named fields replaced and every string redacted. */
function redactDeep(value: unknown, secrets: Iterable<string> = []): unknown {
	const list = [...secrets];
	const walk = (entry: unknown): unknown => {
		if (typeof entry === 'string') return redact(entry, list);
		if (Array.isArray(entry)) return entry.map(walk);
		if (typeof entry === 'object' && entry !== null) {
			const out: IDataObject = {};
			for (const [key, inner] of Object.entries(entry)) out[key] = SECRET_KEY.test(key) ? '[redacted]' : (walk(inner) as IDataObject);
			return out;
		}
		return entry;
	};
	return walk(value);
}

export interface ErrorDetails {
	httpCode?: number;
	description?: string;
	itemIndex?: number;
	body?: unknown;
}

/** A `NodeApiError` whose message, description and body are redacted. */
export function apiError(node: INode, message: string, details: ErrorDetails, secrets: Iterable<string>): NodeApiError {
	const list = [...secrets];
	const safeMessage = redact(message, list);
	const response: JsonObject = { message: safeMessage };
	if (details.httpCode !== undefined) response.httpCode = String(details.httpCode);
	if (details.body !== undefined) response.body = redactDeep(details.body, list) as JsonObject;
	return new NodeApiError(node, response, {
		message: safeMessage,
		description: details.description ? redact(details.description, list) : undefined,
		httpCode: details.httpCode !== undefined ? String(details.httpCode) : undefined,
		itemIndex: details.itemIndex,
	});
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
	const said = isJson ? serviceText(body) : undefined;
	const detail = said ? `: ${said}` : !isJson ? ' (its answer was not JSON)' : '';
	return `${statusWords(status)} (HTTP ${status})${detail}`;
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

/** Said of a creation whose outcome is unknown: it was not repeated, so it cannot exist twice. */
const MAY_EXIST =
	'The service may or may not have stored it: it was not sent again, so that it cannot be created twice. Check whether it exists before you run this item again.';

export function brokenMessage(timedOut: boolean, repeatable: boolean): string {
	const what = timedOut
		? 'The recruiting service did not answer in time (Request Timeout)'
		: 'The connection to the recruiting service broke before it answered';
	return repeatable ? what : `${what}. ${MAY_EXIST}`;
}

export function gatewayMessage(status: number, body: unknown, isJson: boolean): string {
	return `${statusMessage(status, body, isJson)}. ${MAY_EXIST}`;
}

export const NOT_JSON = (status: number) =>
	`The service answered HTTP ${status} with something that is not JSON (an HTML page). Check that the Base URL points at the recruiting service's API.`;
