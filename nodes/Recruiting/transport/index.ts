/**
 * The one module that speaks HTTP to the recruiting service.
 *
 * Every call goes through `this.helpers.httpRequestWithAuthentication`, so n8n's proxy, SSRF
 * filter, cancellation and the credential's login (`preAuthentication`) apply. On top of that:
 * base URL joining, the response envelope (JSON, JSON inside text/plain, empty bodies), bounded
 * retries with backoff, one login at a time per execution, readable `NodeApiError`s and
 * redaction of every secret the credential holds.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { authMode, baseUrlProblem, joinUrl, openSessionToken, serviceText } from './login';

export const CREDENTIAL_TYPE = 'recruitingApi';

export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface RetryPolicy {
	/** How many times one request may be retried (0 = never). */
	maxRetries: number;
	/** First backoff delay; doubles with each retry. */
	initialDelayMs: number;
	/** Upper bound of one wait, Retry-After included. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 30000 };

/** What the service answered, envelope unpacked. */
export interface ServiceResponse {
	httpStatus: number;
	message?: string;
	/** `status` of the envelope, as integer when the service sent a numeric text. */
	status?: number;
	data?: unknown;
	body: unknown;
	/** Response headers of a successful answer (e.g. for a login that returns the token in a header). */
	headers?: IDataObject;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
}

/**
 * State one execution shares across its requests: the decrypted credential (read once; n8n
 * writes a fresh session token into it after a login), the single login in flight, the retry
 * policy and an optional request-rate cap. Created per execution, never kept at module level,
 * so it holds nothing between executions or across queue-mode workers.
 */
export class TransportSession {
	retry: RetryPolicy;

	/** Minimum milliseconds between two request starts (0 = no cap). */
	private minIntervalMs = 0;

	/** When the last request started, and the queue of requests waiting for their turn. */
	private lastStart = 0;

	private paceQueue: Promise<void> = Promise.resolve();

	private credentials?: Promise<ICredentialDataDecryptedObject>;

	private login?: Promise<void>;

	/** A login the service refused (wrong e-mail or password, no token): final for this execution. */
	private refused?: unknown;

	constructor(retry: Partial<RetryPolicy> = {}, requestsPerSecond = 0) {
		this.retry = { ...DEFAULT_RETRY, ...retry };
		if (requestsPerSecond > 0) this.minIntervalMs = 1000 / requestsPerSecond;
	}

	async getCredentials(context: RequestContext): Promise<ICredentialDataDecryptedObject> {
		if (!this.credentials) {
			this.credentials = context.getCredentials(CREDENTIAL_TYPE).then((data) => ({ ...data }));
			this.credentials.catch(() => {
				this.credentials = undefined;
			});
		}
		return await this.credentials;
	}

	/**
	 * Waits for the request-rate cap, if any. Requests take turns, and each one starts at least
	 * the interval after the previous one actually started: a timer that fires late delays the
	 * following requests instead of letting them start in a burst.
	 */
	async pace(): Promise<void> {
		if (this.minIntervalMs <= 0) return;
		const turn = this.paceQueue.then(async () => {
			const due = this.lastStart + this.minIntervalMs - Date.now();
			if (due > 0) await sleep(due);
			this.lastStart = Date.now();
		});
		this.paceQueue = turn;
		await turn;
	}

	/**
	 * Runs `send` as the one request that logs in, while every other request of this execution
	 * waits for it; a request that arrives while a login is under way waits and then uses the
	 * new token. A waiter gets the leader's error along (it tells a failed login apart from a
	 * login that worked for a request that then failed by looking at the session token).
	 */
	async singleLogin(send: () => Promise<void>): Promise<'led' | { waited: unknown }> {
		// The service refused these credentials earlier in this execution: do not ask again.
		if (this.refused !== undefined) return { waited: this.refused };
		if (this.login) {
			const error = await this.login.then(
				() => undefined,
				(failure: unknown) => failure ?? new Error('login failed'),
			);
			return { waited: error };
		}
		this.login = send();
		// Registered before the await below, so it has run when the caller sees the failure.
		this.login.catch((error: unknown) => {
			const text = error instanceof Error ? error.message : String(error);
			if (/login failed: .*\(HTTP 40[13]\)|no session token/i.test(text)) this.refused = error;
		});
		try {
			await this.login;
		} finally {
			this.login = undefined;
		}
		return 'led';
	}

	async loginInFlight(): Promise<void> {
		if (this.login) await this.login.catch(() => undefined);
	}
}

const SECRET_FIELDS = ['password', 'accessToken', 'apiKey', 'sessionToken'];

/** Removes every secret of the credential, and anything shaped like a bearer token, from a text. */
export function redact(text: string, credentials?: ICredentialDataDecryptedObject): string {
	let result = text;
	const secrets: unknown[] = SECRET_FIELDS.map((field) => credentials?.[field]);
	if (credentials) secrets.push(openSessionToken(credentials));
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 4) {
			result = result.split(secret).join('[redacted]');
		}
	}
	return result.replace(/(bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
}

function redactDeep(value: unknown, credentials?: ICredentialDataDecryptedObject): unknown {
	if (typeof value === 'string') return redact(value, credentials);
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, credentials));
	if (typeof value === 'object' && value !== null) {
		const out: IDataObject = {};
		for (const [key, entry] of Object.entries(value)) {
			out[key] = /token|password|secret|api_?key/i.test(key) ? '[redacted]' : (redactDeep(entry, credentials) as IDataObject);
		}
		return out;
	}
	return value;
}

/** Parses a body that may be an object, JSON text (also when declared text/plain), or empty. */
export function parseBody(body: unknown): { parsed: unknown; isJson: boolean } {
	if (body === undefined || body === null) return { parsed: {}, isJson: true };
	if (typeof body === 'object' && !(body instanceof ArrayBuffer)) {
		if (typeof (body as { toString?: unknown }).toString === 'function' && isBuffer(body)) {
			return parseBody((body as { toString(): string }).toString());
		}
		return { parsed: body, isJson: true };
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

function isBuffer(value: object): boolean {
	return value.constructor?.name === 'Buffer';
}

function toStatus(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\d{3}$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

function unpack(httpStatus: number, parsed: unknown): ServiceResponse {
	const envelope = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as IDataObject) : undefined;
	return {
		httpStatus,
		message: typeof envelope?.message === 'string' ? envelope.message : undefined,
		status: toStatus(envelope?.status),
		data: envelope ? envelope.data : parsed,
		body: parsed,
	};
}

function headerOf(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

/** Seconds or an HTTP date → milliseconds to wait; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = Number(value.trim());
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const IDEMPOTENT = new Set<IHttpRequestMethods>(['GET', 'PUT', 'DELETE', 'HEAD']);

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'EAI_AGAIN']);

interface TransportFailure {
	code?: string;
	message: string;
	aborted: boolean;
}

function describeThrown(error: unknown): TransportFailure {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let code: string | undefined;
	let message = '';
	let aborted = false;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const record = current as { code?: unknown; httpCode?: unknown; message?: unknown; name?: unknown; cause?: unknown };
		for (const candidate of [record.code, record.httpCode]) {
			if (!code && typeof candidate === 'string' && /^E[A-Z_]+$/.test(candidate)) code = candidate;
		}
		if (!message && typeof record.message === 'string') message = record.message;
		if (record.name === 'AbortError' || record.name === 'CanceledError' || record.code === 'ERR_CANCELED') aborted = true;
		current = record.cause;
	}
	if (!code && /socket hang up/i.test(message)) code = 'ECONNRESET';
	return { code, message: message || 'unknown error', aborted };
}

function cancelled(context: RequestContext): boolean {
	const signal = 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal?.() : undefined;
	return signal?.aborted === true;
}

/** Waits `ms`, in short steps so that a cancelled execution stops waiting promptly. */
async function wait(context: RequestContext, ms: number): Promise<void> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		if (cancelled(context)) return;
		await sleep(Math.min(250, until - Date.now()));
	}
}

function apiError(
	context: RequestContext,
	message: string,
	details: { httpCode?: number; description?: string; itemIndex?: number; body?: unknown },
	credentials?: ICredentialDataDecryptedObject,
): NodeApiError {
	const safeMessage = redact(message, credentials);
	const response: JsonObject = { message: safeMessage };
	if (details.httpCode !== undefined) response.httpCode = String(details.httpCode);
	if (details.body !== undefined) response.body = redactDeep(details.body, credentials) as JsonObject;
	return new NodeApiError(context.getNode(), response, {
		message: safeMessage,
		description: details.description ? redact(details.description, credentials) : undefined,
		httpCode: details.httpCode !== undefined ? String(details.httpCode) : undefined,
		itemIndex: details.itemIndex,
	});
}

function httpFailureMessage(status: number, body: unknown, isJson: boolean): string {
	const text = isJson ? serviceText(body) : undefined;
	const what =
		status === 401
			? 'The service refused the credentials'
			: status === 403
				? 'The service refused access'
				: status === 404
					? 'The service found nothing there'
					: status === 413
						? 'The request was too large for the service'
						: status === 422 || status === 400
							? 'The service rejected the input'
							: status === 429
								? 'The service is rate limiting requests'
								: status >= 500
									? 'The service failed'
									: 'The service answered with an error';
	const detail = text ? `: ${text}` : !isJson ? ' (its answer was not JSON)' : '';
	return `${what} (HTTP ${status})${detail}`;
}

/** A login that failed because the service was busy or the connection broke: worth another try. */
function transientLoginFailure(error: unknown): boolean {
	const { message } = describeThrown(error);
	return /^Login failed with HTTP (429|5\d\d)\b/.test(message) || /to log in \(/.test(message);
}

/**
 * Sends the request that logs in first; repeats it while the login itself failed transiently
 * (a login creates no record, so repeating it is safe). Any other failure, including one of the
 * request after a successful login, is passed on untouched.
 */
async function sendRetryingLogin(context: RequestContext, session: TransportSession, send: () => Promise<void>): Promise<void> {
	for (let attempt = 0; ; attempt++) {
		const failure = await send().then(
			() => undefined,
			(error: unknown) => error ?? new Error('unknown error'),
		);
		if (failure === undefined) return;
		if (!transientLoginFailure(failure) || attempt >= session.retry.maxRetries || cancelled(context)) {
			// n8n's helper already wrapped it in a NodeApiError; anything else gets wrapped here.
			if (failure instanceof NodeApiError || failure instanceof NodeOperationError) throw failure;
			throw new NodeApiError(context.getNode(), { message: describeThrown(failure).message });
		}
		await wait(context, Math.min(session.retry.maxDelayMs, session.retry.initialDelayMs * 2 ** attempt));
	}
}

/**
 * Sends one request to the service and returns its unpacked answer, or throws a
 * `NodeApiError` (service or network failure) / `NodeOperationError` (bad credential setup).
 */
export async function apiRequest(
	this: RequestContext,
	request: ApiRequest,
	session: TransportSession = new TransportSession(),
): Promise<ServiceResponse> {
	const credentials = await session.getCredentials(this);
	const problem = baseUrlProblem(credentials.baseUrl);
	if (problem) throw new NodeOperationError(this.getNode(), problem, { itemIndex: request.itemIndex });
	const mode = authMode(credentials);
	const loginMode = mode === 'emailPassword';

	const url = joinUrl(credentials.baseUrl as string, request.path);
	const headers: IDataObject = { Accept: 'application/json' };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';

	let attempt = 0;
	let relogged = false;
	for (;;) {
		if (cancelled(this)) {
			throw apiError(this, 'The execution was cancelled before the request was sent', { itemIndex: request.itemIndex });
		}
		await session.pace();
		await session.loginInFlight();

		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			headers: { ...headers },
			qs: request.qs,
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		// A stored session obtained with other credential values (the user edited them) counts as none.
		if (loginMode && credentials.sessionToken && !openSessionToken(credentials)) credentials.sessionToken = '';
		const tokenUsed = credentials.sessionToken;
		let response: { statusCode: number; headers?: IDataObject; body?: unknown } | undefined;
		let failure: TransportFailure | undefined;
		const send = async () => {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials },
			})) as typeof response;
		};
		try {
			if (loginMode && !credentials.sessionToken) {
				// No session yet: one request logs in (n8n runs preAuthentication and stores the
				// token), the others of this execution wait for it. A login the service refused for
				// a moment (429, 5xx, dropped) is tried again inside that one login, and a login that
				// failed for good fails its waiters too, instead of each waiter logging in by itself.
				const role = await session.singleLogin(async () => await sendRetryingLogin(this, session, send));
				if (role !== 'led') {
					if (!credentials.sessionToken) throw role.waited;
					await send();
				}
			} else {
				await send();
			}
		} catch (error) {
			failure = describeThrown(error);
			const loginFailure = !response && /login failed|log in|session token|token path/i.test(failure.message);
			if (loginFailure) {
				throw apiError(this, failure.message, { itemIndex: request.itemIndex }, credentials);
			}
		}

		if (failure) {
			if (failure.aborted || cancelled(this)) {
				throw apiError(this, 'The execution was cancelled while the request was under way', { itemIndex: request.itemIndex });
			}
			const retryable = failure.code !== undefined && RESET_CODES.has(failure.code) && IDEMPOTENT.has(request.method);
			if (retryable && attempt < session.retry.maxRetries) {
				await wait(this, Math.min(session.retry.maxDelayMs, session.retry.initialDelayMs * 2 ** attempt));
				attempt++;
				continue;
			}
			const unreachable = failure.code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(failure.code);
			// No error code in the message itself: n8n replaces messages that contain one.
			throw apiError(
				this,
				unreachable
					? `Could not reach the recruiting service at ${credentials.baseUrl as string}. Check the Base URL and that the service is running.`
					: request.method === 'POST'
						? 'The connection to the recruiting service broke before it answered. The request was not repeated, because the service may have processed it.'
						: 'The connection to the recruiting service broke before it answered',
				{ itemIndex: request.itemIndex, description: `Network error: ${failure.code ?? failure.message}` },
				credentials,
			);
		}

		const status = response!.statusCode;
		const { parsed, isJson } = parseBody(response!.body);

		if (status === 401 && loginMode && !relogged) {
			// The session ended (expired or logged out): log in once for the whole execution,
			// unless another request already did since this one was sent.
			relogged = true;
			if (credentials.sessionToken === tokenUsed) credentials.sessionToken = '';
			continue;
		}

		if (status >= 200 && status < 300) {
			if (!isJson) {
				throw apiError(
					this,
					`The service answered HTTP ${status} with something that is not JSON${/^\s*</.test(String(parsed)) ? ' (an HTML page)' : ''}. Check that the Base URL points at the recruiting service's API.`,
					{ httpCode: status, itemIndex: request.itemIndex },
					credentials,
				);
			}
			return { ...unpack(status, parsed), headers: response!.headers };
		}

		const retryAfter = retryAfterMs(headerOf(response!.headers, 'retry-after'));
		const retryable =
			status === 429 || status === 503 || ((status === 502 || status === 504) && IDEMPOTENT.has(request.method));
		if (retryable && attempt < session.retry.maxRetries) {
			const backoff = session.retry.initialDelayMs * 2 ** attempt;
			await wait(this, Math.min(session.retry.maxDelayMs, retryAfter ?? backoff));
			attempt++;
			continue;
		}

		let message = httpFailureMessage(status, parsed, isJson);
		if (status === 401) {
			message +=
				mode === 'emailPassword'
					? ' even after logging in again. Check the e-mail and password of the Recruiting API credential.'
					: mode === 'accessToken'
						? '. The access token may have expired or been logged out: enter a new one in the Recruiting API credential.'
						: '. The API key may have been deleted, this operation may need a session (Email and Password or Access Token authentication), or the service may expect the key in another header (API Key Header).';
		}
		throw apiError(
			this,
			message,
			{
				httpCode: status,
				itemIndex: request.itemIndex,
				body: isJson ? parsed : undefined,
				description: retryable ? `Gave up after ${attempt + 1} attempts.` : undefined,
			},
			credentials,
		);
	}
}
