/**
 * Small readers of what comes back over HTTP: bodies (JSON, JSON declared as text, empty),
 * the service's envelope, headers, `Retry-After`, and the error code of a failed connection.
 * No state, no requests.
 */
import type { IDataObject } from 'n8n-workflow';

/** What the service answered, envelope unpacked. */
export interface ServiceResponse {
	httpStatus: number;
	message?: string;
	/** `status` of the envelope, as integer when the service sent a numeric text. */
	status?: number;
	data?: unknown;
	body: unknown;
	/** Response headers (e.g. for a login that returns the token in a header). */
	headers?: IDataObject;
	/**
	 * True when an earlier attempt of this same request may have reached the service (its
	 * answer was lost, or a gateway failed after forwarding it): a 404 on a repeated DELETE
	 * then means the first attempt did the work.
	 */
	repeated?: boolean;
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBuffer(value: object): value is { toString(): string } {
	return value.constructor?.name === 'Buffer';
}

/** Parses a body that may be an object, JSON text (also when declared text/plain), or empty. */
export function parseBody(body: unknown): { parsed: unknown; isJson: boolean } {
	if (body === undefined || body === null) return { parsed: {}, isJson: true };
	if (typeof body === 'object' && !(body instanceof ArrayBuffer)) {
		return isBuffer(body) ? parseBody(body.toString()) : { parsed: body, isJson: true };
	}
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '') return { parsed: {}, isJson: true };
		try {
			return { parsed: JSON.parse(text), isJson: true };
		} catch {
			return { parsed: text, isJson: false };
		}
	}
	return { parsed: body, isJson: false };
}

function toStatus(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\d{3}$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

export function unpack(httpStatus: number, parsed: unknown, headers?: IDataObject): ServiceResponse {
	const envelope = isObject(parsed) ? parsed : undefined;
	return {
		httpStatus,
		message: typeof envelope?.message === 'string' ? envelope.message : undefined,
		status: toStatus(envelope?.status),
		data: envelope ? envelope.data : parsed,
		body: parsed,
		headers,
	};
}

/** A response header by case-insensitive name, trimmed; undefined when absent or empty. */
export function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	const raw = key === undefined ? undefined : headers[key];
	const value = Array.isArray(raw) ? raw[0] : raw;
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The text of a failure answer (the description shows none for a refused update or record):
 * the service's `error` and `message`, with the reasons it lists (a list in `message` or
 * `errors`, or `errors` by field: "email: is invalid"); a plain-text answer as it came (a cut
 * JSON text too). An HTML page says nothing (it is not the API's answer). Not cut here: the
 * message it goes into is redacted, then cut (`apiError`), so no cut leaves part of a secret.
 */
export function serviceText(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		const { parsed, isJson } = trimmed.startsWith('{') ? parseBody(trimmed) : { parsed: undefined, isJson: false };
		if (isJson) return serviceText(parsed);
		return trimmed === '' || trimmed.startsWith('<') ? undefined : trimmed;
	}
	if (!isObject(body)) return undefined;
	// At most 40 reasons, two lists deep: a body of reasons nested without end costs nothing.
	const texts = new Set<string>();
	const add = (value: unknown, field = '', depth = 0): void => {
		if (texts.size >= 40 || depth > 2) return;
		if (typeof value === 'string') {
			if (value.trim() !== '') texts.add(`${field}${value.trim()}`);
		} else if (Array.isArray(value)) {
			for (const entry of value.slice(0, 20)) add(isObject(entry) ? entry.message : entry, field, depth + 1);
		} else if (isObject(value) && field === '') {
			for (const [name, reasons] of Object.entries(value).slice(0, 20)) add(reasons, `${name}: `, depth + 1);
		}
	};
	add(isObject(body.error) ? body.error.message : body.error);
	add(body.message);
	add(body.errors);
	return texts.size === 0 ? undefined : [...texts].join('; ');
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110 HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms it still accepts. */
const HTTP_DATE = new RegExp(
	`^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} (?: \\d|\\d{2}) ${TIME} \\d{4})$`,
);

/**
 * `Retry-After` → milliseconds to wait, only for the forms RFC 9110 defines: delta-seconds
 * (digits only) or an HTTP-date. Anything else ("1, 2", "0x10", "1e3", "-1") is undefined, and
 * the caller falls back to its backoff.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
	if (!HTTP_DATE.test(text)) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The time an answer's `Date` header names (ms; the service's clock, in whole seconds), or NaN. */
function dateOf(headers: IDataObject | undefined): number {
	const text = headerValue(headers, 'date');
	return text !== undefined && HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
}

/**
 * The service's clock now, as well as one answer's `Date` header tells it (RFC 9110: the time the
 * answer was made, in whole seconds): the node's clock when it falls within that second, else the
 * nearest edge of it.
 */
export function serviceClock(headers: IDataObject | undefined, now: number): number {
	const date = dateOf(headers);
	return Number.isNaN(date) ? now : Math.min(Math.max(now, date), date + 999);
}

/**
 * The service's clock over many answers (issue 48): each `Date` header says the service's clock
 * minus the node's lies within a second; the answers' spacing within their seconds narrows that to
 * the part every answer allows, and its middle is taken. No difference is assumed while 0 is allowed; a clock that jumps
 * (nothing allowed any more) starts again. A reset given as a Unix time is read against it, so a
 * service clock seconds ahead or behind neither stretches nor cuts the window read from it.
 */
export class ServiceClock {
	private low = Number.NEGATIVE_INFINITY;

	private high = Number.POSITIVE_INFINITY;

	/** The service's clock at the node's `now`, after reading this answer's `Date`. */
	read(headers: IDataObject | undefined, now: number): number {
		const date = dateOf(headers);
		if (!Number.isNaN(date)) {
			const low = Math.max(this.low, date - now);
			const high = Math.min(this.high, date + 999 - now);
			[this.low, this.high] = low <= high ? [low, high] : [date - now, date + 999 - now];
		}
		// The middle of what the answers allow (an answer is read a round trip after its `Date`).
		return this.low <= 0 && this.high >= 0 ? now : now + (this.low + this.high) / 2;
	}
}

/** The answer's `Retry-After` in milliseconds (a date read against the service's clock), or undefined. */
export function retryAfterOf(headers: IDataObject | undefined, now = Date.now()): number | undefined {
	return retryAfterMs(headerValue(headers, 'retry-after'), serviceClock(headers, now));
}

/**
 * The error code of a failed connection (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...), found
 * in the error's cause chain: its `code`, or the `httpCode` n8n's `NodeApiError` keeps it in.
 * Never read from a message text (n8n rewrites messages that contain error codes).
 */
export function errorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const record = current as { code?: unknown; httpCode?: unknown; cause?: unknown; name?: unknown };
		if (record.name === 'AbortError' || record.name === 'CanceledError' || record.code === 'ERR_CANCELED') return 'ERR_CANCELED';
		for (const candidate of [record.code, record.httpCode]) {
			if (typeof candidate === 'string' && (/^E[A-Z_]+$/.test(candidate) || heldBack(candidate))) return candidate;
		}
		current = record.cause;
	}
	return undefined;
}

/** Codes that mean the connection was never made: nothing of the request reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function neverSent(code: string | undefined): boolean {
	return code !== undefined && NOT_CONNECTED.has(code);
}

/** The credential's `authenticate` stopped the request before n8n sent it: a login's carrier, or a request of a cancelled execution. */
export const LOGIN_ONLY_CODE = 'RECRUITING_LOGIN_ONLY';
export const CANCELLED_UNSENT_CODE = 'RECRUITING_CANCELLED_UNSENT';

export function heldBack(code: string | undefined): boolean {
	return code === LOGIN_ONLY_CODE || code === CANCELLED_UNSENT_CODE;
}

/** Codes of a request Node refused to build (a header with a character HTTP cannot carry): nothing left the machine. */
const REFUSED_LOCALLY = new Set(['ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN']);

export function refusedLocally(code: string | undefined): boolean {
	return code !== undefined && REFUSED_LOCALLY.has(code);
}

/** Codes of a request that timed out (n8n's helper uses axios: ECONNABORTED on its timeout). */
export function timedOut(code: string | undefined): boolean {
	return code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT';
}
