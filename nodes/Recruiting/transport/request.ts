/**
 * `apiRequest`: one request to the service, as a short loop of send → classify → decide
 * (return, retry after a delay, renew the session, fail). Every call goes through
 * `this.helpers.httpRequestWithAuthentication`, so n8n's proxy, SSRF filter, cancellation and
 * the credential's login (`preAuthentication`) apply.
 *
 * Retries: 429, and 503 with `Retry-After`, for every request (the service says it did not
 * process it); 502, 503, 504, timeouts and broken connections only for requests that are safe
 * to repeat (GET, PUT, DELETE, the login). A creation (POST) whose outcome is unknown is never
 * sent again: it fails and says the record may or may not exist.
 *
 * Each attempt (`attempt.ts`) waits for its turn under the run's controller and tells it how the
 * service answered.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AuthMode, LoginFailure } from './auth';
import { ANONYMOUS, CREDENTIAL_TYPE, authMode, loginRetryWait, markLoginOnly, readLoginFailure, unreachableMessage } from './auth';
import type { ApiRequest, Outcome } from './attempt';
import { attempt, isRepeatable, loginFailureOf, wireOptions } from './attempt';
import type { ErrorDetails } from './errors';
import {
	HEADER_REFUSED,
	NOT_JSON,
	OWN_UNAUTHORIZED,
	UNAUTHORIZED_ADVICE,
	apiError,
	brokenMessage,
	cancelledMessage,
	gatewayMessage,
	mayExistMessage,
	outcomeUnknown,
	redactAndCut,
	redirectMessage,
	refusedInBodyMessage,
	statusMessage,
} from './errors';
import type { RequestContext } from './execution';
import { TransportSession, cancelled } from './execution';
import type { ServiceResponse } from './http';
import { CANCELLED_UNSENT_CODE, headerValue, isObject, neverSent, parseBody, refusedLocally, retryAfterOf, timedOut, unpack } from './http';
import type { LoginTurn } from './session';

export type { ApiRequest, AuthUse } from './attempt';

interface Lease {
	data: ICredentialDataDecryptedObject;
	tokenUsed: string;
	/** The number of this send with the session (see `SessionOwner.ticket`). */
	ticket?: number;
	turn?: LoginTurn;
}

/** A send that did not go: the session it was to go with was renewed meanwhile (`send`); the request takes a session again. */
const RELET = Symbol('relet');

/** The read that asks whether a session serves (the credential test's request for Email and Password). */
const SESSION_PROBE: ApiRequest = { method: 'GET', path: '/v1/company/api-integrations', timeoutMs: 10_000 };

/** The error, when it is the refusal of a request never sent because the run is stopping (not a failure of its own). */
export function notSentStopping(error: unknown): NodeOperationError | NodeApiError | undefined {
	return (error instanceof NodeOperationError || error instanceof NodeApiError) && error.context.notSentStopping === true ? error : undefined;
}

/** One request, from its first attempt to its answer or error. */
class Call {
	private attempt = 0;

	/** An earlier attempt may have reached the service (its answer was lost, or a gateway failed). */
	private reached = false;

	/**
	 * An `optional` request (a reference list: the description calls them "without any credential")
	 * goes without one in every mode; answered 401 that way, it needs the credential from now on.
	 */
	private sessionNeeded = false;

	/** A session was renewed for this request (it logs in at most once: refused again, the 401 is its answer). */
	private readonly refusals = { renewed: false };

	/** What a 401 the session's owner took for this request's own answer says of the credential (session.ts `refusal`). */
	private refusal: 'own' | 'unclear' | 'credential' = 'credential';

	private readonly mode: AuthMode;
	private readonly repeatable: boolean;
	private readonly wait;

	constructor(
		private readonly context: RequestContext,
		private readonly transport: TransportSession,
		private readonly request: ApiRequest,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {
		this.mode = authMode(credentials);
		this.repeatable = isRepeatable(request);
		this.wait = transport.waiter(context);
	}

	async run(): Promise<ServiceResponse> {
		for (;;) {
			this.checkRunning();
			const lease = await this.lease();
			if (!lease) continue;
			let outcome: Outcome;
			try {
				const sent = lease.turn ? await this.sendLoggingIn(lease, lease.turn) : await this.send(lease.data, this.request, lease);
				if (sent === RELET) continue;
				outcome = sent;
			} finally {
				// Whatever came back (an answer, a lost connection, or not sent): a 401 waits no more for it.
				if (lease.ticket !== undefined) this.transport.session(this.credentials).returned(lease.ticket);
			}
			const result = outcome.kind === 'thrown' ? await this.afterThrown(outcome) : await this.afterAnswer(outcome, lease);
			if (result !== 'again') return result;
		}
	}

	private error(message: string, details: ErrorDetails = {}) {
		return apiError(this.context.getNode(), message, { ...details, itemIndex: this.request.itemIndex }, this.transport.secretsFor(this.credentials));
	}

	private loginError(failure: LoginFailure) {
		return this.error(failure.message, { httpCode: failure.status, description: failure.code ? `Network error: ${failure.code}` : undefined });
	}

	private checkRunning(): void {
		if (cancelled(this.context)) throw this.error('The execution was cancelled before the request was sent');
		if (this.transport.stopped) {
			const error = new NodeOperationError(this.context.getNode(), 'Not sent: the run is stopping because an earlier item failed', { itemIndex: this.request.itemIndex });
			error.context.notSentStopping = true;
			throw error;
		}
	}

	/** What to send with: the credential as it is (other modes), without a session, the session held, or a login first. */
	private async lease(): Promise<Lease | undefined> {
		const { credentials, request } = this;
		if (request.auth === 'none' || (request.auth === 'optional' && !this.sessionNeeded)) return { data: { ...credentials, authentication: ANONYMOUS }, tokenUsed: '' };
		if (this.mode !== 'emailPassword') return { data: credentials, tokenUsed: '' };
		const owner = this.transport.session(credentials);
		const token = await owner.current();
		if (typeof token !== 'string') throw this.loginError(token);
		if (token !== '') return { data: owner.lend(credentials, token), tokenUsed: token, ticket: owner.ticket() };
		if (request.auth === 'existing') throw this.error('There is no session to use: the credential holds none');
		const turn = owner.tryLead();
		return turn ? { data: credentials, tokenUsed: '', turn } : undefined;
	}

	/**
	 * The one request of the execution that logs in: n8n runs the credential's login
	 * (preAuthentication, which stores the token in the credential) and then sends this request.
	 * Under a rate cap the login counts as a request of its own: it goes with a carrier that is
	 * never sent, and this request takes the next turn. A login the service refused for a moment
	 * (429, 5xx, a broken connection) is tried again here (`loginRetryWait`), while the other
	 * requests wait; a login that failed for good fails them all.
	 */
	private async sendLoggingIn(lease: Lease, turn: LoginTurn): Promise<Outcome> {
		try {
			return await this.loggingIn(lease, turn);
		} finally {
			// However it ended (stopped or cancelled before or while it logged in, a throw of `send` too): the turn is over, so
			// the requests waiting for it, and other executions waiting for this process's login (session.ts
			// `loginsUnderWay`), look again. After `succeeded` or `failed` this changes nothing (a turn ends once).
			turn.abandoned();
		}
	}

	private async loggingIn(lease: Lease, turn: LoginTurn): Promise<Outcome> {
		const { pacer } = this.transport;
		for (let tries = 0; ; tries++) {
			if (cancelled(this.context) || this.transport.stopped) turn.abandoned();
			this.checkRunning();
			const data: ICredentialDataDecryptedObject = { ...this.credentials, sessionToken: '' };
			// Sent along with this request, the login is a request of its own for an announced quota too.
			if (!pacer.capped) await this.transport.controller.loginAlong(this.wait);
			const outcome = await this.send(pacer.capped ? markLoginOnly(data) : data);
			const token = typeof data.sessionToken === 'string' ? data.sessionToken : '';
			if (token !== '') {
				turn.succeeded(token);
				lease.tokenUsed = token;
				lease.ticket = this.transport.session(this.credentials).ticket();
				if (!pacer.capped) return outcome;
				lease.data = { ...this.credentials, sessionToken: token };
				return await this.send(lease.data);
			}
			const failure = readLoginFailure(data) ?? loginFailureOf(outcome, this.credentials);
			const waitMs = cancelled(this.context) ? undefined : loginRetryWait(failure, tries, this.transport.retry);
			if (waitMs === undefined) {
				turn.failed(failure);
				throw this.loginError(failure);
			}
			await this.wait(waitMs);
		}
	}

	/**
	 * Sends one attempt in its turn: the controller's (a Retry-After hold, a learned or announced
	 * rate) first, then Max Requests per Second's, so that requests released together at the end
	 * of a hold still start one interval apart.
	 */
	private async send(data: ICredentialDataDecryptedObject, request?: ApiRequest): Promise<Outcome>;
	private async send(data: ICredentialDataDecryptedObject, request: ApiRequest, lease: Lease): Promise<Outcome | typeof RELET>;
	private async send(data: ICredentialDataDecryptedObject, request: ApiRequest = this.request, lease?: Lease): Promise<Outcome | typeof RELET> {
		await this.transport.controller.turn(this.wait);
		await this.transport.pacer.turn(this.wait);
		this.checkRunning();
		if (lease && lease.tokenUsed !== '') {
			// Its session was taken before the turn (a hold can be long): a 401 of the first request after the hold is decided
			// first, and a session renewed meanwhile is taken up (the request takes its turn again).
			const owner = this.transport.session(this.credentials);
			await owner.cleared(lease.tokenUsed);
			if (owner.held !== lease.tokenUsed) {
				this.transport.controller.notSent();
				return RELET;
			}
			this.checkRunning();
		}
		const options = wireOptions(request, String(this.credentials.baseUrl), Math.min(request.timeoutMs ?? Number.POSITIVE_INFINITY, this.transport.timeoutMs));
		return await attempt(this.context, options, data, this.transport.controller);
	}

	private delay(tries: number, retryAfter?: number): number {
		const { initialDelayMs, maxDelayMs } = this.transport.retry;
		return Math.min(maxDelayMs, retryAfter ?? initialDelayMs * 2 ** Math.max(0, tries));
	}

	private async retryAfter(ms: number | undefined): Promise<'again'> {
		await this.wait(this.delay(this.attempt, ms));
		this.attempt += 1;
		return 'again';
	}

	private async afterThrown(outcome: Extract<Outcome, { kind: 'thrown' }>): Promise<'again'> {
		const { code } = outcome;
		// Stopped before n8n sent it (the credential's last check, after a login that ran while the stop came): nothing went out.
		if (code === CANCELLED_UNSENT_CODE) throw this.error('The execution was cancelled before the request was sent');
		if (code === 'ERR_CANCELED' || cancelled(this.context)) throw this.error(cancelledMessage(this.repeatable), { mayExist: !this.repeatable });
		const description = code ? `Network error: ${code}` : undefined;
		if (neverSent(code)) throw this.error(unreachableMessage(this.credentials), { description });
		if (refusedLocally(code)) throw this.error(HEADER_REFUSED, { description });
		if (!code) {
			// Not a network failure (n8n refused to send it, for example): its own message, redacted.
			throw this.error(outcome.error instanceof Error ? outcome.error.message : 'The request failed');
		}
		this.reached = true;
		if (this.repeatable && this.attempt < this.transport.retry.maxRetries) return await this.retryAfter(undefined);
		throw this.error(brokenMessage(timedOut(code), this.repeatable), { description, mayExist: !this.repeatable });
	}

	private async afterAnswer(outcome: Extract<Outcome, { kind: 'answer' }>, lease: Lease): Promise<ServiceResponse | 'again'> {
		const { status, headers } = outcome;
		const { parsed, isJson } = parseBody(outcome.body);
		if (status === 401 && (await this.renewed(lease, outcome.probe === true))) return 'again';
		// Completed in place, not copied: this runs for every answer.
		const answer = unpack(status, parsed, headers) as ServiceResponse & { repeated: boolean };
		answer.repeated = this.reached;
		if (status >= 200 && status < 300) return this.afterSuccess(answer, isJson, lease);
		if (this.request.accept?.includes(status)) return answer;
		if (status >= 300 && status < 400) {
			// A redirect may answer a creation the service made (303 See Other to GET it; a 301/302 after storing it).
			throw this.error(redirectMessage(status, headerValue(headers, 'location'), this.transport.secretsFor(this.credentials)), { httpCode: status, mayExist: !this.repeatable });
		}
		const retryAfter = retryAfterOf(headers);
		// 429, and 503 with Retry-After, say "not processed, come back later": sent again.
		const notProcessed = status === 429 || (status === 503 && retryAfter !== undefined);
		const gateway = status === 502 || status === 503 || status === 504;
		const retryable = notProcessed || (gateway && this.repeatable);
		// A 429 (or a 503 with Retry-After) to the first request after a hold is the run's look at the service: not a retry of its own.
		if (notProcessed && outcome.probe) this.attempt -= 1;
		if (retryable && this.attempt < this.transport.retry.maxRetries) {
			if (!notProcessed) this.reached = true;
			return await this.retryAfter(retryAfter);
		}
		const mayExist = !this.repeatable && outcomeUnknown(status, retryAfter);
		let message = mayExist ? gatewayMessage(status, parsed, isJson) : statusMessage(status, parsed, isJson);
		if (status === 401) message += this.mode === 'emailPassword' && this.refusal !== 'credential' ? OWN_UNAUTHORIZED[this.refusal] : UNAUTHORIZED_ADVICE[this.mode];
		const description = retryable ? `Gave up after ${this.attempt + 1} attempts.` : undefined;
		throw this.error(message, { httpCode: status, body: isJson ? parsed : undefined, description, mayExist });
	}

	/**
	 * A 2xx answer. An HTML page means the Base URL is not the API. Other text (the update's
	 * answer is not shown) is a success whose text is the message. A JSON envelope whose `status`
	 * is 400 to 599 is a refusal reported in the body: a failure with that status, never sent again.
	 */
	private afterSuccess(answer: ServiceResponse & { repeated: boolean }, isJson: boolean, lease: Lease): ServiceResponse {
		const { httpStatus, body } = answer;
		const text = isJson ? '' : String(body).trim();
		if (text.startsWith('<')) throw this.error(NOT_JSON(httpStatus), { httpCode: httpStatus });
		const said = answer.status;
		// A success shows the session works only for a request that needs one (a reference list is answered without it).
		if (lease.tokenUsed !== '' && said !== 401 && this.request.auth !== 'optional') this.transport.session(this.credentials).authorised(lease.tokenUsed, lease.ticket);
		if (!isJson) return { ...answer, message: redactAndCut(text, this.transport.secretsFor(this.credentials), 500), data: undefined };
		if (said === undefined || said < 400 || said > 599) return answer;
		if (this.request.accept?.includes(said)) return { ...answer, httpStatus: said };
		// A creation whose answer's status does not prove it was not processed (a 500 in the body) may exist.
		const mayExist = !this.repeatable && outcomeUnknown(said, undefined);
		const message = refusedInBodyMessage(httpStatus, said, body);
		throw this.error(mayExist ? mayExistMessage(message) : message, { httpCode: said, body, mayExist });
	}

	/** A 401: whether to send again (a new session, or one is needed now) or take it as the answer; `look`: it was the first request after a hold. */
	private async renewed(lease: Lease, look: boolean): Promise<boolean> {
		if (this.request.auth === 'optional' && lease.data.authentication === ANONYMOUS) {
			this.sessionNeeded = true;
			return true;
		}
		if (this.mode !== 'emailPassword' || this.request.auth === 'none' || this.request.auth === 'existing') return false;
		const owner = this.transport.session(this.credentials);
		const probe = async () => await this.sessionServes(lease.tokenUsed);
		const verdict = await owner.expired(lease.tokenUsed, async () => await this.context.getCredentials(CREDENTIAL_TYPE), this.wait, this.refusals, lease.ticket, probe, look);
		if (typeof verdict !== 'string') throw this.loginError(verdict);
		if (verdict === 'renewed') this.refusals.renewed = true;
		if (verdict === 'final') this.refusal = owner.refusal;
		return verdict !== 'final';
	}

	/**
	 * Whether the session `token` serves now: the credential test's request (an authenticated read
	 * of the company's API integrations), sent after a 401 came back. Its answer is only looked at
	 * for its status, never kept. Answered 429 or 502–504 ("come back later"), it is sent again, up
	 * to `PROBE_TRIES` times in all, after the answer's Retry-After or the backoff. Anything but a
	 * 401 or the API's answer tells nothing ('unknown').
	 */
	private async sessionServes(token: string): Promise<'served' | 'refused' | 'unknown'> {
		for (let tries = 0; ; tries++) {
			let outcome: Outcome;
			try {
				outcome = await this.send(this.transport.session(this.credentials).lend(this.credentials, token), SESSION_PROBE);
			} catch {
				return 'unknown';
			}
			if (outcome.kind !== 'answer') return 'unknown';
			const { status } = outcome;
			if ([429, 502, 503, 504].includes(status) && tries + 1 < PROBE_TRIES && !cancelled(this.context)) {
				// `Retry-After: 0` (a window about to open) waits the backoff, as a login does.
				await this.wait(this.delay(tries, retryAfterOf(outcome.headers) || undefined));
				continue;
			}
			if (status === 401) return 'refused';
			return status >= 200 && status <= 299 ? apiAnswerOf(outcome.body) : 'unknown';
		}
	}
}

/** How often a probe answered "come back later" is sent in all. */
const PROBE_TRIES = 3;

/**
 * What the body of a 2xx answer to the probe says: the API's answer (a JSON object with its list
 * in `data`, or a `status` of 2xx), 'served'; its envelope's `status` 401, 'refused'; anything
 * else (a sign-in page, an empty body, `{}`, another status) tells nothing.
 */
function apiAnswerOf(body: unknown): 'served' | 'refused' | 'unknown' {
	const { parsed, isJson } = parseBody(body);
	if (!isJson || !isObject(parsed)) return 'unknown';
	// The envelope read as every answer's is (http.ts `unpack`).
	const { status, data } = unpack(200, parsed);
	if (status === 401) return 'refused';
	if (status !== undefined) return status >= 200 && status <= 299 ? 'served' : 'unknown';
	return Array.isArray(data) ? 'served' : 'unknown';
}

/**
 * Sends one request to the service and returns its unpacked answer, or throws a
 * `NodeApiError` (service or network failure) / `NodeOperationError` (credential setup, or the
 * run is stopping).
 */
export async function apiRequest(
	this: RequestContext,
	request: ApiRequest,
	transport: TransportSession = new TransportSession(),
): Promise<ServiceResponse> {
	const credentials = await transport.getCredentials(this);
	const problem = transport.problemOf(credentials);
	if (problem) throw new NodeOperationError(this.getNode(), problem, { itemIndex: request.itemIndex });
	const planned = transport.intercept?.(request);
	if (planned) return planned;
	return await new Call(this, transport, request, credentials).run();
}
