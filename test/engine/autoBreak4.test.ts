/**
 * Review 4 of Concurrency Mode Auto and of the logins per run (an outside reviewer), through
 * n8n's engine against nock: Email and Password authentication, sessions that end every few
 * requests, a login endpoint with a rate limit of its own, answers that are all 401 for a while.
 */
import nock from 'nock';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep, sleepWithAbort } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { print } from '../sim/host';

const BASE = 'https://recruiting.example.test';
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pass', 'word', '-r4'].join('');
const CANDIDATE = '/gin/v1/company/candidate';

setUpNock();

const update = (options: IDataObject = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: '={{ $json.slug }}',
	updateFields: { city: 'Berlin' },
	options: { retryDelayMs: 100, concurrencyMode: 'auto', ...options },
});

interface LoginService {
	logins: number;
	loginRefused: number;
	served: number;
	refused: number;
	probes: number;
	maxInFlight: number;
	sends: number[];
}

/**
 * A service whose sessions end after `sessionServes` served requests, whose login endpoint accepts
 * `loginLimit` logins per `loginWindowMs` (a fixed window; 429 with Retry-After to its end beyond),
 * and whose requests take `latencyMs`. `allRefusedUntil`: before this time (ms since the start)
 * every request with a session is answered 401 (the service's sign-in back end is down).
 */
function loginService(opts: { sessionServes: number; loginLimit: number; loginWindowMs: number; latencyMs: number; allRefusedUntilMs?: number }): LoginService {
	const state: LoginService = { logins: 0, loginRefused: 0, served: 0, refused: 0, probes: 0, maxInFlight: 0, sends: [] };
	const live = new Map<string, number>();
	const start = Date.now();
	let windowStart = 0;
	let used = 0;
	let inFlight = 0;
	const authorised = (header: unknown): boolean => {
		const token = String(header).replace(/^Bearer /, '');
		if (Date.now() - start < (opts.allRefusedUntilMs ?? 0)) return false;
		const count = live.get(token);
		if (count === undefined) return false;
		if (count + 1 >= opts.sessionServes) live.delete(token);
		else live.set(token, count + 1);
		return true;
	};
	nock(BASE)
		.persist()
		.post('/v1/login')
		.reply(async () => {
			const now = Date.now();
			const startOf = Math.floor((now - start) / opts.loginWindowMs) * opts.loginWindowMs;
			if (startOf !== windowStart) {
				windowStart = startOf;
				used = 0;
			}
			if (used >= opts.loginLimit) {
				state.loginRefused += 1;
				const retry = Math.max(1, Math.ceil((start + windowStart + opts.loginWindowMs - now) / 1000));
				return [429, { message: 'Too many logins', status: 429 }, { 'Retry-After': String(retry) }];
			}
			used += 1;
			state.logins += 1;
			const token = `tok-${state.logins}`;
			live.set(token, 0);
			await sleep(opts.latencyMs);
			return [200, { message: 'Signed in', status: 200, data: { id: 7, email: EMAIL, token } }];
		})
		.get('/v1/company/api-integrations')
		.reply(async function () {
			state.probes += 1;
			await sleep(opts.latencyMs);
			return authorised(this.req.headers.authorization) ? [200, { status: 200, data: [] }] : [401, { message: 'Not authorized', status: 401 }];
		})
		.put(CANDIDATE)
		.reply(async function () {
			inFlight += 1;
			state.maxInFlight = Math.max(state.maxInFlight, inFlight);
			state.sends.push(Date.now() - start);
			const ok = authorised(this.req.headers.authorization);
			await sleep(opts.latencyMs);
			inFlight -= 1;
			if (!ok) {
				state.refused += 1;
				return [401, { message: 'Not authorized', status: 401 }];
			}
			state.served += 1;
			return [200, { message: 'Updated', status: 200 }];
		});
	return state;
}

const harness = () => new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD });
const slugs = (n: number) => Array.from({ length: n }, (_, index) => ({ slug: `slug-${index}` }));

describe('finding 1 on the wire: X-RateLimit-Reset written in milliseconds stalls the run', () => {
	// README: "holds of at most 30 s, one request checking after each"; docs/concurrency.md: "a wrong header never stalls a run".
	it('5 updates per 2 s (a fixed window), X-RateLimit-Reset in ms (e.g. 1500 for 1.5 s), 20 updates with Auto: all done, at most one hold of 30 s (the reset read as 25 minutes at first), then at the pace of the window', async () => {
		const began = Date.now();
		const sends: number[] = [];
		let windowStart = 0;
		let used = 0;
		let accepted = 0;
		nock(BASE)
			.persist()
			.put(CANDIDATE)
			.reply(() => {
				const now = Date.now() - began;
				sends.push(now);
				const startOf = Math.floor(now / 2000) * 2000;
				if (startOf !== windowStart) {
					windowStart = startOf;
					used = 0;
				}
				const resetMs = windowStart + 2000 - now;
				const refused = used >= 5;
				if (!refused) used += 1;
				if (!refused) accepted += 1;
				const headers = { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': String(5 - used), 'X-RateLimit-Reset': String(resetMs) };
				return refused ? [429, { message: 'Too Many Requests', status: 429 }, { ...headers, 'Retry-After': String(Math.ceil(resetMs / 1000)) }] : [200, { message: 'Updated', status: 200 }, headers];
			});
		let execution: { cancel(): void } | undefined;
		const stop = new AbortController();
		void sleepWithAbort(60_000, stop.signal)
			.then(() => execution?.cancel())
			.catch(() => undefined);
		const result = await new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-r4' }).run({
			parameters: update(),
			items: slugs(20),
			onError: 'continueRegularOutput',
			typeVersion: 1.1,
			onStart: (running) => (execution = running),
		});
		stop.abort();
		const elapsed = Date.now() - began;
		const gaps = sends.slice(1).map((at, index) => at - sends[index]);
		const silence = Math.max(0, ...gaps, elapsed - (sends.at(-1) ?? 0));
		const done = accepted;
		const line = `${sends.length} sent, ${done} of 20 updated by the service (output: ${result.items.length} items, ${result.error ? 'cancelled' : 'not cancelled'}), ${(elapsed / 1000).toFixed(1)} s, longest silence ${(silence / 1000).toFixed(1)} s`;
		print(`X-RateLimit-Reset in ms on the wire: ${line}`);
		expect({ done, figures: line }).toEqual({ done: 20, figures: line });
		// The first answers come back together (their resets alike): the reset is read as seconds until answers 200 ms apart show it in ms.
		expect(silence).toBeLessThanOrEqual(31_000);
		// After the look, the pace of the window: the 15 updates left within 4 windows of 2 s, and some.
		expect(elapsed - silence).toBeLessThanOrEqual(15_000);
	}, 90_000);
});

describe('held: logins bounded per run under Auto', () => {
	it('sessions end after 100 requests, 500 updates with Auto: one login per session (5, at most 6), none fails', async () => {
		const state = loginService({ sessionServes: 100, loginLimit: 1000, loginWindowMs: 1000, latencyMs: 10 });
		const result = await harness().run({ parameters: update(), items: slugs(500), onError: 'continueRegularOutput', typeVersion: 1.1 });
		const failed = result.items.filter((item) => item.json.error !== undefined);
		print(`sessions of 100, 500 updates: ${failed.length} failed, ${state.logins} logins, ${state.refused} answered 401, ${state.probes} probes, max in flight ${state.maxInFlight}`);
		expect(failed).toHaveLength(0);
		expect(state.logins).toBeLessThanOrEqual(6);
	});
});
