/**
 * A simulated run of the real transport (issue 48): `apiRequest` with its retries, the run's
 * controller (Concurrency Mode Auto) and the router's slots, on jest's fake clock, against a
 * service that counts with the sandbox's own limiters (test/sandbox/limiter.ts) on a clock of its
 * own (`skewMs` ahead of the node's; negative: behind). Each request reaches the service 1 ms
 * after it is sent (plus the seeded jitter) and its answer comes 20 ms later (plus jitter). The
 * service answers 429 with `Retry-After` (whole seconds, at least 1; as an HTTP date; or 0), a
 * `Date` header of its own clock, and, when asked, its rate-limit headers; `maintenance` answers
 * 503 with `Retry-After` until then. Nothing real waits: the caller runs it under
 * `jest.useFakeTimers` and the run advances the clock.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../nodes/Recruiting/actions/shared/options';
import { Controller } from '../../nodes/Recruiting/transport/controller';
import type { Pace } from '../../nodes/Recruiting/transport/controller';
import type { RequestContext } from '../../nodes/Recruiting/transport/execution';
import { TransportSession } from '../../nodes/Recruiting/transport/execution';
import { AUTO_START } from '../../nodes/Recruiting/transport/law';
import { apiRequest } from '../../nodes/Recruiting/transport/request';
import { mulberry32 } from '../sandbox/faults';
import type { LimiterKind, RatePolicy } from '../sandbox/limiter';
import { Limiter } from '../sandbox/limiter';
import type { RateLimitHeaderStyle } from '../sandbox/types';

export type RetryAfterForm = 'seconds' | 'date' | 'zero';

export interface SimService {
	kind: LimiterKind;
	policies: RatePolicy[];
	style?: RateLimitHeaderStyle;
	retryAfter?: RetryAfterForm;
	/** The service's clock minus the node's (ms). */
	skewMs?: number;
	/** Resets announced in whole seconds never below 1 (as some services give them; the sandbox says 0 while there is room). */
	resetAtLeast1?: boolean;
	/** Until this many ms after the start, every request is answered 503 with `Retry-After: maintenanceRetryS`. */
	maintenanceMs?: number;
	maintenanceRetryS?: number;
}

export interface SimOptions {
	items: number;
	seed: number;
	/** Each leg of a request takes up to this much longer (ms), drawn from the seeded generator. */
	jitterMs?: number;
	/** The retry policy's bound of one wait (the documented 30 s unless raised). */
	maxDelayMs?: number;
	maxRetries?: number;
	resumeFrom?: Pace;
}

export interface SimRun {
	sent: number;
	answered429: number;
	answered503: number;
	failed: number;
	elapsedMs: number;
	/** The longest time in which nothing was sent, after the first send (ms). */
	longestSilenceMs: number;
	/** The longest wait the service asked for (ms). */
	longestAskedMs: number;
	pace?: Pace;
}

export const credentials: ICredentialDataDecryptedObject = { baseUrl: 'https://sim.example.test', authentication: 'accessToken', accessToken: 'sim-token' };

/** A reset header's value with its seconds never below 1 (`x-ratelimit-reset`, `ratelimit-reset`, the `t` of `ratelimit`). */
function atLeastOne(name: string, value: string): string {
	if (name === 'x-ratelimit-reset' || name === 'ratelimit-reset') return String(Math.max(1, Number(value)));
	return name === 'ratelimit' ? value.replace(/t=(\d+)/g, (_, t: string) => `t=${Math.max(1, Number(t))}`) : value;
}

/** The transport with plain waits (the real one waits in 100 ms steps to notice a stop; nothing stops here). */
export class SimTransport extends TransportSession {
	waiter() {
		return async (ms: number) => {
			if (ms > 0) await sleep(ms);
		};
	}
}

/** A request context whose every HTTP call is `send` (the transport uses nothing else of n8n's). */
export function simContext(send: () => Promise<unknown>): RequestContext {
	return {
		getNode: () => ({ id: 'sim', name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1.1, position: [0, 0], parameters: {} }),
		getCredentials: async () => credentials,
		helpers: { httpRequestWithAuthentication: send },
	} as unknown as RequestContext;
}

/** The router's slots over `items` creations, each sent through the real `apiRequest`; every outcome told. */
export async function createAll(items: number, context: RequestContext, transport: TransportSession, controller: Controller, told: { done?: () => void; failed: (error: unknown) => void }): Promise<void> {
	let next = 0;
	const worker = async () => {
		for (;;) {
			if (!(await controller.slot())) return;
			if (next >= items) {
				controller.release();
				return;
			}
			next += 1;
			try {
				await apiRequest.call(context, { method: 'POST', path: '/gin/v1/company/candidate', body: { email: 'a@b.test' } }, transport);
				told.done?.();
			} catch (error) {
				told.failed(error);
			} finally {
				controller.release();
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(items, DEFAULT_MAX_CONCURRENCY) }, worker));
}

/** One node run of `options.items` creations; `service` keeps its limiter between runs when given the same `state`. */
export async function simulateRun(service: SimService, options: SimOptions, state: { limiter?: Limiter } = {}): Promise<SimRun> {
	const limiter = (state.limiter ??= new Limiter(service.kind, service.policies));
	const draw = mulberry32(options.seed);
	const jitter = () => Math.floor(draw() * (options.jitterMs ?? 0));
	const skew = service.skewMs ?? 0;
	const start = Date.now();
	const run: SimRun = { sent: 0, answered429: 0, answered503: 0, failed: 0, elapsedMs: 0, longestSilenceMs: 0, longestAskedMs: 0 };
	let lastSend = Number.NaN;
	const answer = (): { statusCode: number; body: IDataObject; headers: IDataObject } => {
		const now = Date.now();
		const serviceNow = now + skew;
		const headers: IDataObject = { date: new Date(serviceNow).toUTCString() };
		if (service.maintenanceMs !== undefined && now - start < service.maintenanceMs) {
			const seconds = service.maintenanceRetryS ?? 3600;
			run.longestAskedMs = Math.max(run.longestAskedMs, seconds * 1000);
			run.answered503 += 1;
			return { statusCode: 503, body: { message: 'maintenance', status: 503 }, headers: { ...headers, 'retry-after': String(seconds) } };
		}
		const retryAfter = limiter.take(serviceNow);
		if (service.style) for (const [name, value] of Object.entries(limiter.headers(service.style, serviceNow))) headers[name.toLowerCase()] = service.resetAtLeast1 ? atLeastOne(name.toLowerCase(), value) : value;
		if (retryAfter === undefined) return { statusCode: 201, body: { message: 'Created', status: 201, data: { slug: 's' } }, headers };
		run.answered429 += 1;
		const seconds = Number(retryAfter);
		run.longestAskedMs = Math.max(run.longestAskedMs, seconds * 1000);
		const form = service.retryAfter ?? 'seconds';
		headers['retry-after'] = form === 'zero' ? '0' : form === 'date' ? new Date(serviceNow + seconds * 1000).toUTCString() : retryAfter;
		return { statusCode: 429, body: { message: 'Too Many Requests', status: 429 }, headers };
	};
	const context = simContext(async () => {
		const now = Date.now();
		if (!Number.isNaN(lastSend)) run.longestSilenceMs = Math.max(run.longestSilenceMs, now - lastSend);
		lastSend = now;
		run.sent += 1;
		await sleep(1 + jitter());
		const answered = answer();
		await sleep(20 + jitter());
		return answered;
	});
	const controller = new Controller({ mode: 'auto', concurrency: AUTO_START, maxConcurrency: DEFAULT_MAX_CONCURRENCY });
	if (options.resumeFrom) controller.resume(options.resumeFrom);
	const transport = new SimTransport({ maxRetries: options.maxRetries ?? 3, initialDelayMs: 1000, maxDelayMs: options.maxDelayMs ?? 30_000 }, 0, 60_000, controller);
	const all = createAll(options.items, context, transport, controller, { failed: () => (run.failed += 1) });
	await jest.runAllTimersAsync();
	await all;
	run.elapsedMs = Date.now() - start;
	run.pace = controller.pace();
	return run;
}
