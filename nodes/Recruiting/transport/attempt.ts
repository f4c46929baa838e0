/**
 * One attempt of a request: the options n8n's helper gets, the call itself through
 * `httpRequestWithAuthentication`, and what its outcome tells the run's controller.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import type { LoginFailure } from './auth';
import { CREDENTIAL_TYPE, joinUrl, unreachableMessage } from './auth';
import type { Controller, Signal } from './controller';
import type { RequestContext } from './execution';
import { errorCode, heldBack, neverSent, refusedLocally, retryAfterOf } from './http';

/**
 * How a request is authorised: `session` (default) with the credential; `optional` without a
 * session when none is held, logging in only if the service answers 401 (reference lists);
 * `none` never (the login itself); `existing` only with the session held, never logging in and
 * taking a 401 as the answer (Log Out).
 */
export type AuthUse = 'session' | 'optional' | 'none' | 'existing';

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
	auth?: AuthUse;
	/** Statuses returned as an answer instead of an error. */
	accept?: number[];
	/** A POST that creates nothing (the login): safe to repeat like GET, PUT and DELETE. */
	repeatable?: boolean;
	/** A shorter bound than the run's Request Timeout (ms). */
	timeoutMs?: number;
}

const REPEATABLE = new Set<IHttpRequestMethods>(['GET', 'PUT', 'DELETE', 'HEAD']);

export const isRepeatable = (request: ApiRequest): boolean => request.repeatable === true || REPEATABLE.has(request.method);

/** `probe`: the first request after a hold (its 429 is the run's look at the service, not a retry of the item). */
export type Outcome = { kind: 'answer'; status: number; body: unknown; headers?: IDataObject; probe?: boolean } | { kind: 'thrown'; error: unknown; code?: string };

/** The options of one attempt. */
export function wireOptions(request: ApiRequest, baseUrl: string, timeoutMs: number): IHttpRequestOptions {
	return {
		method: request.method,
		url: joinUrl(baseUrl, request.path),
		headers: request.body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect is an answer (see redirectMessage), not followed: following one wraps every
		// request in follow-redirects, which copies its body and costs CPU on every request.
		disableFollowRedirect: true,
		timeout: timeoutMs,
	};
}

/** What an attempt tells the controller about the service's load (nothing for a cancelled or never-sent request). */
function signalOf(outcome: Outcome): { signal: Signal; retryAfterMs?: number } | undefined {
	if (outcome.kind === 'thrown') {
		const { code } = outcome;
		return !code || code === 'ERR_CANCELED' || heldBack(code) || neverSent(code) || refusedLocally(code) ? undefined : { signal: 'dropped' };
	}
	const { status, headers } = outcome;
	if (status === 429) return { signal: 'throttled', retryAfterMs: retryAfterOf(headers) };
	if (status === 502 || status === 503 || status === 504) return { signal: 'overloaded', retryAfterMs: status === 503 ? retryAfterOf(headers) : undefined };
	return { signal: 'ok' };
}

/** Sends one attempt with the credential data given and tells the controller how it went. */
export async function attempt(context: RequestContext, options: IHttpRequestOptions, data: ICredentialDataDecryptedObject, controller: Controller): Promise<Outcome> {
	const startedAt = controller.sent();
	let outcome: Outcome;
	try {
		const response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options, {
			credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data },
		})) as { statusCode: number; body?: unknown; headers?: IDataObject };
		outcome = { kind: 'answer', status: response.statusCode, body: response.body, headers: response.headers };
	} catch (error) {
		outcome = { kind: 'thrown', error, code: errorCode(error) };
	}
	const signal = signalOf(outcome);
	if (!signal) controller.left(startedAt);
	else {
		const headers = outcome.kind === 'answer' ? outcome.headers : undefined;
		const probe = controller.record(signal.signal, startedAt, Date.now() - startedAt, signal.retryAfterMs, { method: options.method, headers });
		if (probe && outcome.kind === 'answer') outcome.probe = true;
	}
	return outcome;
}

/** A login that left no record of its failure (it never ran, or something else broke). */
export function loginFailureOf(outcome: Outcome, credentials: ICredentialDataDecryptedObject): LoginFailure {
	if (outcome.kind === 'answer') return { kind: 'noToken', message: 'The login did not produce a session token' };
	const { code } = outcome;
	if (neverSent(code)) return { kind: 'network', code, message: unreachableMessage(credentials) };
	if (code && !heldBack(code)) return { kind: 'network', code, message: 'The connection to the recruiting service broke while logging in.' };
	const message = outcome.error instanceof Error ? outcome.error.message : 'The login failed';
	return { kind: 'config', message };
}
