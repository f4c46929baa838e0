/**
 * Review 4 of Concurrency Mode Auto (an outside reviewer): services whose rate limits the
 * existing simulations do not model. The real transport (`apiRequest` with its retries, the run's
 * controller, the router's slots) on jest's fake clock, against a service given here as a
 * function of the time and the request's number. Each case prints its figures.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../nodes/Recruiting/actions/shared/options';
import { Controller } from '../../nodes/Recruiting/transport/controller';
import type { RequestContext } from '../../nodes/Recruiting/transport/execution';
import { AUTO_START } from '../../nodes/Recruiting/transport/law';
import { apiRequest } from '../../nodes/Recruiting/transport/request';
import type { Answer } from '../helpers/autoSim';
import { EPOCH, SimTransport, created, figures, simulate, tooMany } from '../helpers/autoSim';
import { print } from '../sim/host';

/** A fixed window of `limit` per `windowS`, aligned on the clock; `retryAfter` decides the 429's headers. */
function fixedWindow(limit: number, windowS: number, headersOf: (left: number, resetMs: number) => IDataObject, refusal: (resetMs: number) => IDataObject) {
	let windowStart = Number.NEGATIVE_INFINITY;
	let used = 0;
	const windowMs = windowS * 1000;
	return (now: number): Answer => {
		const startOf = Math.floor(now / windowMs) * windowMs;
		if (startOf !== windowStart) {
			windowStart = startOf;
			used = 0;
		}
		const resetMs = windowStart + windowMs - now;
		if (used >= limit) return tooMany({ ...headersOf(0, resetMs), ...refusal(resetMs) });
		used += 1;
		return { ...created(), headers: headersOf(limit - used, resetMs) };
	};
}



function slidingWindow(limit: number, windowS: number, refusal: (retryMs: number) => IDataObject, status = 429) {
	const log: number[] = [];
	const windowMs = windowS * 1000;
	return (now: number): Answer => {
		while (log.length > 0 && log[0] <= now - windowMs) log.shift();
		if (log.length >= limit) {
			const retryMs = log[0] + windowMs - now;
			return status === 429 ? tooMany(refusal(retryMs)) : { statusCode: status, body: { message: 'Slow down', status }, headers: refusal(retryMs) };
		}
		log.push(now);
		return created();
	};
}

const secondsHeader = (ms: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) });


function bucket(limit: number, windowS: number, refusal: (retryMs: number) => IDataObject) {
	let tokens = limit;
	let at = Number.NEGATIVE_INFINITY;
	const windowMs = windowS * 1000;
	return (now: number): Answer => {
		if (now > at) tokens = Math.min(limit, tokens + ((now - (at === Number.NEGATIVE_INFINITY ? now : at)) * limit) / windowMs);
		at = Math.max(at, now);
		if (tokens < 1) return tooMany(refusal(((1 - tokens) * windowMs) / limit));
		tokens -= 1;
		return created();
	};
}


const as503 = (answer: (now: number) => Answer) => (now: number): Answer => {
	const a = answer(now);
	return a.statusCode === 429 ? { ...a, statusCode: 503, body: { message: 'Service Unavailable', status: 503 } } : a;
};



interface LoginSim {
	/** Sessions end after serving this many requests. */
	sessionServes: number;
	/** The login endpoint: `loginLimit` logins per `loginWindowS` (a fixed window, 429 with Retry-After to its end). */
	loginLimit: number;
	loginWindowS: number;
	items: number;
	latencyMs: number;
	deadlineMs: number;
	/** Before this (ms since the start) every request with a session is answered 401. */
	allRefusedUntilMs?: number;
}

interface LoginRun {
	logins: number;
	loginRefused: number;
	done: number;
	failed: number;
	errors: string[];
	elapsedMs: number;
	finished: boolean;
	served: number;
	refused: number;
}

/**
 * One node run of `items` updates with Email and Password, through the real transport and session
 * owner; the credential's own `preAuthentication` and `authenticate` run as n8n runs them (n8n
 * logs in when the request's credential has no session token, and stores what it returns).
 */
async function simulateLogins(sim: LoginSim): Promise<LoginRun> {
	const { RecruitingApi } = await import('../../credentials/RecruitingApi.credentials');
	const { authenticateRequest } = await import('../../nodes/Recruiting/transport/auth');
	const type = new RecruitingApi();
	const start = Date.now();
	const out: LoginRun = { logins: 0, loginRefused: 0, done: 0, failed: 0, errors: [], elapsedMs: 0, finished: false, served: 0, refused: 0 };
	const live = new Map<string, number>();
	let windowStart = Number.NEGATIVE_INFINITY;
	let used = 0;
	const stored: ICredentialDataDecryptedObject = { baseUrl: 'https://sim.example.test', authentication: 'emailPassword', email: 'r@example.test', password: 'pw-r4', sessionToken: '' };
	const login = async () => {
		await sleep(1);
		const now = Date.now();
		const windowMs = sim.loginWindowS * 1000;
		const startOf = Math.floor((now - start) / windowMs) * windowMs;
		if (startOf !== windowStart) {
			windowStart = startOf;
			used = 0;
		}
		let answer: { statusCode: number; body: IDataObject; headers: IDataObject };
		if (used >= sim.loginLimit) {
			out.loginRefused += 1;
			answer = { statusCode: 429, body: { message: 'Too many logins', status: 429 }, headers: { 'retry-after': String(Math.max(1, Math.ceil((start + windowStart + windowMs - now) / 1000))) } };
		} else {
			used += 1;
			out.logins += 1;
			const token = `tok-${out.logins}`;
			live.set(token, 0);
			answer = { statusCode: 200, body: { message: 'Signed in', status: 200, data: { token } }, headers: {} };
		}
		await sleep(sim.latencyMs);
		return answer;
	};
	const authorised = (header: unknown): boolean => {
		if (Date.now() - start < (sim.allRefusedUntilMs ?? 0)) return false;
		const token = String(header).replace(/^Bearer /, '');
		const count = live.get(token);
		if (count === undefined) return false;
		if (count + 1 >= sim.sessionServes) live.delete(token);
		else live.set(token, count + 1);
		return true;
	};
	const context = {
		getNode: () => ({ id: 'sim', name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1.1, position: [0, 0], parameters: {} }),
		getCredentials: async () => ({ ...stored }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IDataObject, extra: { credentialsDecrypted: { data: ICredentialDataDecryptedObject } }) => {
				const data = extra.credentialsDecrypted.data;
				if (data.authentication === 'emailPassword' && (data.sessionToken ?? '') === '') {
					const output = (await type.preAuthentication.call({ helpers: { httpRequest: login } } as never, data)) as IDataObject;
					Object.assign(data, output);
					stored.sessionToken = output.sessionToken as string;
				}
				const sent = (await authenticateRequest(data, options as never)) as { headers?: IDataObject; url?: string };
				await sleep(1);
				const ok = String(sent.url).endsWith('/v1/company/api-integrations') ? authorised(sent.headers?.Authorization) : authorised(sent.headers?.Authorization);
				if (ok) out.served += 1;
				else out.refused += 1;
				await sleep(sim.latencyMs);
				return ok ? { statusCode: 200, body: { message: 'Updated', status: 200, data: [] }, headers: {} } : { statusCode: 401, body: { message: 'Not authorized', status: 401 }, headers: {} };
			},
		},
	} as unknown as RequestContext;
	const controller = new Controller({ mode: 'auto', concurrency: AUTO_START, maxConcurrency: DEFAULT_MAX_CONCURRENCY });
	const transport = new SimTransport({ maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 30_000 }, 0, 60_000, controller);
	let next = 0;
	const worker = async () => {
		for (;;) {
			if (!(await controller.slot())) return;
			if (next >= sim.items) {
				controller.release();
				return;
			}
			next += 1;
			try {
				await apiRequest.call(context, { method: 'PUT', path: '/gin/v1/company/candidate', body: { user_slug: `s-${next}` } }, transport);
				out.done += 1;
			} catch (error) {
				out.failed += 1;
				if (out.errors.length < 3) out.errors.push((error as Error).message.slice(0, 160));
			} finally {
				controller.release();
			}
		}
	};
	let finished = false;
	const all = Promise.all(Array.from({ length: Math.min(sim.items, DEFAULT_MAX_CONCURRENCY) }, worker)).then(() => (finished = true));
	while (!finished && Date.now() - start < sim.deadlineMs) await jest.advanceTimersByTimeAsync(250);
	out.finished = finished;
	out.elapsedMs = Date.now() - start;
	if (!finished) {
		controller.close();
		transport.stop();
		await jest.runAllTimersAsync();
	}
	await all;
	return out;
}

const loginFigures = (label: string, run: LoginRun) => {
	const line = `${label}: ${run.done} done, ${run.failed} failed, ${run.logins} logins (+${run.loginRefused} refused 429), ${run.served} served, ${run.refused} answered 401, ${run.finished ? '' : 'NOT FINISHED after '}${(run.elapsedMs / 1000).toFixed(1)} s; errors: ${run.errors.join(' | ')}`;
	print(line);
	return line;
};








/** X-RateLimit headers of a quota of 100: what remains, and the reset as the service wrote it. */
const xRate = (resetOf: (resetMs: number) => number) => (left: number, resetMs: number) => ({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': String(resetOf(resetMs)) });
const draftRate = (resetOf: (resetMs: number) => number) => (left: number, resetMs: number) => ({ 'ratelimit-limit': '100', 'ratelimit-remaining': String(left), 'ratelimit-reset': String(resetOf(resetMs)) });

describe('finding 1: a reset written in milliseconds ("X-RateLimit-Reset: 42000" for 42 s) stalls the run', () => {
	// README: "waits out a rate limit of any length without failing rows (holds of at most 30 s, one
	// request checking after each)"; docs/concurrency.md: "Values out of these bounds are ignored
	// (a malformed field reads as absent), so a wrong header never stalls a run".
	it.each([
		['X-RateLimit-Reset', xRate((ms) => Math.ceil(ms))],
		['RateLimit-Reset (draft)', draftRate((ms) => Math.ceil(ms))],
	] as const)('%s in ms, 100 per minute (fixed window), 300 creations: done within 5 minutes, no silence beyond the window (60 s), a request checks after each 30 s hold', async (label, headers) => {
		jest.useFakeTimers({ now: EPOCH + 5_000 });
		const run = await simulate({ answer: fixedWindow(100, 60, headers, secondsHeader) }, 300, { deadlineMs: 900_000 });
		const line = figures(`fixed 100/60 s, ${label} in ms`, run, 115_000);
		// The same service with the reset in seconds: 300 done in 120 s, longest silence 55 s (the quota held).
		expect({ finished: run.finished, failed: run.failed, silenceWithin61s: run.longestSilenceMs <= 61_000, figures: line }).toEqual({ finished: true, failed: 0, silenceWithin61s: true, figures: line });
		expect(run.elapsedMs).toBeLessThanOrEqual(300_000);
	});

	it('control (holds): the same service with the reset in seconds is waited out at each window end', async () => {
		jest.useFakeTimers({ now: EPOCH + 5_000 });
		const run = await simulate({ answer: fixedWindow(100, 60, xRate((ms) => Math.ceil(ms / 1000)), secondsHeader) }, 300, { deadlineMs: 900_000 });
		figures('fixed 100/60 s, X-RateLimit-Reset in seconds', run, 115_000);
		expect(run.finished).toBe(true);
		expect(run.failed).toBe(0);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(61_000);
	});
});

describe('finding 2: a rate limit answered 503 with Retry-After (not 429) fails rows once its window is longer than about a minute', () => {
	// README: "waits out a rate limit of any length without failing rows"; the service description
	// says a limit may be answered 429 or 503. The same window answered 429 fails none.
	it.each([
		['fixed 500 per 5 min', () => as503(fixedWindow(500, 300, () => ({}), secondsHeader)), 1200],
		['sliding 500 per 5 min', () => slidingWindow(500, 300, secondsHeader, 503), 1200],
		['fixed 500 per hour', () => as503(fixedWindow(500, 3600, () => ({}), secondsHeader)), 700],
	] as const)('%s, 503 with Retry-After to the window end: none fails', async (label, make, items) => {
		jest.useFakeTimers({ now: EPOCH + 1_000 });
		const run = await simulate({ answer: make() }, items, { deadlineMs: 8_000_000 });
		const line = figures(`${label}, 503 + Retry-After`, run);
		expect({ failed: run.failed, figures: line }).toEqual({ failed: 0, figures: line });
		expect(run.longestSilenceMs).toBeLessThanOrEqual(31_000);
	});

	it('control (holds): the same 5-minute window answered 429 with Retry-After fails none', async () => {
		jest.useFakeTimers({ now: EPOCH + 1_000 });
		const run = await simulate({ answer: fixedWindow(500, 300, () => ({}), secondsHeader) }, 1200, { deadlineMs: 8_000_000 });
		figures('fixed 500 per 5 min, 429 + Retry-After', run);
		expect(run.failed).toBe(0);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(31_000);
	});
});

describe('finding 3: a login endpoint limited per 2 minutes or per hour fails every later row', () => {
	// README: "waits out a rate limit of any length without failing rows"; "logins are bounded per
	// run". docs/errors-and-retries.md bounds a refused login's retries to 60 s.
	it.each([
		['3 logins per 2 minutes', 120],
		['3 logins per hour', 3600],
	] as const)('sessions end after 50 requests, %s, 500 updates (10 sessions needed): none fails, at most one login per session', async (label, windowS) => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulateLogins({ sessionServes: 50, loginLimit: 3, loginWindowS: windowS, items: 500, latencyMs: 20, deadlineMs: 4 * 3_600_000 });
		const line = loginFigures(`sessions of 50, ${label}`, run);
		expect({ failed: run.failed, figures: line }).toEqual({ failed: 0, figures: line });
		expect(run.logins).toBeLessThanOrEqual(500 / 50 + 1);
	});

	it('control (holds): 3 logins per 10 s, sessions of 50, 1,000 updates: none fails, one login per session', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulateLogins({ sessionServes: 50, loginLimit: 3, loginWindowS: 10, items: 1000, latencyMs: 20, deadlineMs: 3_600_000 });
		loginFigures('sessions of 50, 3 logins per 10 s', run);
		expect(run.failed).toBe(0);
		expect(run.logins).toBeLessThanOrEqual(1000 / 50 + 1);
	});
});

describe('held (controls of what was tried)', () => {
	it.each([
		['fixed 100/60 s, no headers, no Retry-After', () => fixedWindow(100, 60, () => ({}), () => ({}))],
		['sliding 100/60 s, no headers, no Retry-After', () => slidingWindow(100, 60, () => ({}))],
		['fixed 100/60 s, X-RateLimit remaining never decreasing', () => fixedWindow(100, 60, (left, resetMs) => xRate((ms) => Math.ceil(ms / 1000))(99, resetMs), secondsHeader)],
		['fixed 100/60 s, X-RateLimit-Reset a Unix time in the past', () => fixedWindow(100, 60, (left, resetMs) => ({ ...xRate(() => 0)(left, resetMs), 'x-ratelimit-reset': String(Math.floor((Date.now() + resetMs) / 1000) - 60) }), secondsHeader)],
		['bucket 100 per 60 s, no Retry-After', () => bucket(100, 60, () => ({}))],
	] as const)('%s: 300 creations, none fails, no silence over 31 s beyond the quota window', async (label, make) => {
		jest.useFakeTimers({ now: EPOCH + 5_000 });
		const run = await simulate({ answer: make() }, 300, { deadlineMs: 900_000 });
		figures(label, run, 115_000);
		expect(run.finished).toBe(true);
		expect(run.failed).toBe(0);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(61_000);
	});

	it('a service that answers 429 without Retry-After for 3 minutes: none fails, no silence over 30 s', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulate({ answer: (now) => (now - EPOCH > 300 && now - EPOCH < 180_300 ? tooMany() : created()) }, 6000, { deadlineMs: 900_000 });
		figures('429 without Retry-After from 0.3 s to 180.3 s', run);
		expect(run.failed).toBe(0);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(30_500);
	});

	it('a service that slows to 5 s per answer for a minute, then recovers: Auto is back at full speed within seconds', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const slow = (now: number) => now - EPOCH > 3_000 && now - EPOCH < 63_000;
		const run = await simulate({ answer: () => created(), latencyMs: (now) => (slow(now) ? 5_000 : 20) }, 20_000, { deadlineMs: 600_000 });
		figures('5 s per answer from 3 s to 63 s', run);
		expect(run.finished).toBe(true);
		expect(run.elapsedMs).toBeLessThanOrEqual(70_000);
	});

	it('Auto with Max Requests per Second 50, 2,000 creations: within 5 % of the cap', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulate({ answer: () => created() }, 2000, { deadlineMs: 600_000, requestsPerSecond: 50 });
		figures('Max Requests per Second 50', run, 40_000);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.05 * 40_000);
	});

	it('all answers 401 for 10 s, then the service works: logins stay bounded (at most 6)', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulateLogins({ sessionServes: 1e9, loginLimit: 1e9, loginWindowS: 1, items: 2000, latencyMs: 20, deadlineMs: 3_600_000, allRefusedUntilMs: 10_000 });
		// The rows refused meanwhile fail after five fruitless logins: a documented known limit (docs/errors-and-retries.md).
		loginFigures('all 401 for 10 s', run);
		expect(run.logins).toBeLessThanOrEqual(6);
	});
});
