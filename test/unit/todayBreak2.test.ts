/**
 * Review 2 of the day's change ("a cut JSON text no longer crashes the error, redacted before cut,
 * a reset in ms told by the time since the compared request was sent and only above 120 s, a look
 * against the quota teaches no rate, a bucket's served look keeps the quota, an empty page ends a
 * list"). Pure functions, and the real transport (`apiRequest`, the run's controller) on jest's
 * fake clock against a service given as a function of the time. Each case prints its figures.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { logIn } from '../../nodes/Recruiting/transport/auth';
import type { RequestContext } from '../../nodes/Recruiting/transport/execution';
import { TransportSession } from '../../nodes/Recruiting/transport/execution';
import { apiList } from '../../nodes/Recruiting/transport/pages';
import type { Answer } from '../helpers/autoSim';
import { EPOCH, created, credentials, figures, simulate, tooMany } from '../helpers/autoSim';
import { print } from '../sim/host';

/** 2026-11-27 00:00:00 UTC: where the clock starts (on the hour). */
afterEach(() => jest.useRealTimers());

/** Fixed windows aligned on the clock, several policies; each answer's headers from `headersOf`. */
function fixedPolicies(policies: Array<{ name: string; limit: number; windowS: number }>, headersOf: (states: Array<{ name: string; limit: number; windowS: number; remaining: number; resetS: number }>) => IDataObject) {
	const used = policies.map(() => ({ start: Number.NEGATIVE_INFINITY, count: 0 }));
	return (now: number): Answer => {
		const states = policies.map((policy, i) => {
			const windowMs = policy.windowS * 1000;
			const start = Math.floor(now / windowMs) * windowMs;
			if (start !== used[i].start) used[i] = { start, count: 0 };
			return { ...policy, remaining: policy.limit - used[i].count, resetMs: start + windowMs - now };
		});
		const spent = states.filter((s) => s.remaining <= 0);
		if (spent.length > 0) {
			const retryS = Math.max(...spent.map((s) => Math.ceil(s.resetMs / 1000)));
			return tooMany({ ...headersOf(states.map((s) => ({ ...s, resetS: Math.ceil(s.resetMs / 1000) }))), 'retry-after': String(retryS) });
		}
		for (const u of used) u.count += 1;
		return created(headersOf(states.map((s) => ({ ...s, remaining: s.remaining - 1, resetS: Math.ceil(s.resetMs / 1000) }))));
	};
}

/** X-RateLimit naming the policy with the fewest left (the longer reset on a tie), as the sandbox and many gateways do. */
const xTightest = (states: Array<{ limit: number; remaining: number; resetS: number }>): IDataObject => {
	const t = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetS > a.resetS) ? b : a));
	return { 'x-ratelimit-limit': String(t.limit), 'x-ratelimit-remaining': String(Math.max(0, t.remaining)), 'x-ratelimit-reset': String(t.resetS) };
};
const ietf = (states: Array<{ name: string; limit: number; windowS: number; remaining: number; resetS: number }>): IDataObject => ({
	'ratelimit-policy': states.map((s) => `"${s.name}";q=${s.limit};w=${s.windowS}`).join(', '),
	ratelimit: states.map((s) => `"${s.name}";r=${Math.max(0, s.remaining)};t=${s.resetS}`).join(', '),
});

describe('finding: a long service text pushes the advice the node appends (a creation may exist, check the credential) past the 1,000-character cut', () => {
	// The change dropped serviceText's own cut (500) and cuts the whole message at 1,000 in apiError: the advice comes after the service's text.
	const gatewayText = `upstream connect error or disconnect/reset before headers. reset reason: connection termination. ${'retrying upstream cluster outbound|8080||candidates.svc.cluster.local; '.repeat(16)}`;

	it('a creation answered 502 with a 1,300-character plain-text body: the error message still says it may exist and was not sent again', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const run = await simulate({ answer: () => ({ statusCode: 502, body: gatewayText, headers: { 'content-type': 'text/plain' } }) }, 1, { deadlineMs: 60_000 });
		const message = run.errors[0] ?? '';
		const line = `body ${gatewayText.length} chars; message ${message.length} chars, ends "${message.slice(-60)}"`;
		print(line);
		expect({ line, mayExistSaid: message.includes('may or may not have stored it') }).toEqual({ line, mayExistSaid: true });
	});

	it('a creation answered 500 with a JSON message of 1,100 characters (a stack trace): the message still says it may exist', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const trace = `NullPointerException in CandidateService.create ${'at com.example.recruiting.CandidateService.create(CandidateService.java:42) '.repeat(14)}`;
		const run = await simulate({ answer: () => ({ statusCode: 500, body: { message: trace, status: 500 } }) }, 1, { deadlineMs: 60_000 });
		const message = run.errors[0] ?? '';
		const line = `service message ${trace.length} chars; error message ${message.length} chars, ends "${message.slice(-60)}"`;
		print(line);
		expect({ line, mayExistSaid: message.includes('may or may not have stored it') }).toEqual({ line, mayExistSaid: true });
	});
});

describe('finding: a login refusal that echoes the password in plain text leaks it when the password holds a run of whitespace', () => {
	// serviceText collapses every whitespace run of a plain-text answer to one space before the message is redacted: the password no longer matches.
	it.each([
		['two spaces', 'correct  horse battery staple'],
		['a tab', 'Winter\t2026!secret'],
	])('401 "invalid password <password>" with %s in it: no form of the password in the error', async (_label, password) => {
		const creds: ICredentialDataDecryptedObject = { baseUrl: 'https://sim.example.test', authentication: 'emailPassword', email: 'a@b.test', password };
		const helpers = { httpRequest: async () => ({ statusCode: 401, body: `Invalid login for a@b.test: password ${password} is wrong`, headers: { 'content-type': 'text/plain' } }) };
		let message = '';
		try {
			await logIn(helpers as never, creds);
		} catch (error) {
			message = error instanceof Error ? error.message : String(error);
		}
		const collapsed = password.replace(/\s+/g, ' ');
		print(`message: ${message}`);
		expect({ message, leaks: message.includes(collapsed) || message.includes(password) }).toEqual({ message, leaks: false });
	});
});

describe('finding: a 5,000-deep nested "errors" list throws a RangeError out of the error building (a creation loses its may-exist)', () => {
	it('a creation answered 502 with {"errors":[[[…"x"…]]]} (5,000 deep, 10 KB) fails with the node\'s message, not "Maximum call stack size exceeded"', async () => {
		jest.useFakeTimers({ now: EPOCH });
		const body = `{"errors":${'['.repeat(5000)}"upstream"${']'.repeat(5000)}}`;
		const run = await simulate({ answer: () => ({ statusCode: 502, body }) }, 1, { deadlineMs: 60_000 });
		const message = run.errors[0] ?? '';
		print(`message: ${message.slice(0, 120)}`);
		expect({ message: message.slice(0, 120), mayExistSaid: message.includes('may or may not have stored it') }).toEqual({ message: message.slice(0, 120), mayExistSaid: true });
	});
});

describe('finding: an empty page in the middle of a list that says it has more ends the list silently (an incomplete list returned)', () => {
	it('page 2 of 3 comes back empty (meta: current_page 2, last_page 3), page 3 has 2 entries: the list has all 4, or fails as incomplete', async () => {
		const pages: Record<number, unknown[]> = { 1: [{ id: 1 }, { id: 2 }], 2: [], 3: [{ id: 3 }, { id: 4 }] };
		const asked: number[] = [];
		const context = {
			getNode: () => ({ id: 'sim', name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1.1, position: [0, 0], parameters: {} }),
			getCredentials: async () => credentials,
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: { qs?: IDataObject }) => {
					const page = Number(options.qs?.page ?? 1);
					asked.push(page);
					return { statusCode: 200, headers: {}, body: { status: 200, message: 'OK', data: pages[page] ?? [], meta: { current_page: page, last_page: 3 } } };
				},
			},
		} as unknown as RequestContext;
		let outcome = '';
		try {
			const answer = await apiList.call(context, { method: 'GET', path: '/gin/v1/company/api_integrations' }, new TransportSession(), 'API integrations');
			outcome = `returned ${(answer.data as unknown[]).length} entries`;
		} catch (error) {
			outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
		}
		const line = `pages asked ${asked.join(', ')}; ${outcome}`;
		print(line);
		expect({ line, silentlyIncomplete: outcome === 'returned 2 entries' }).toEqual({ line, silentlyIncomplete: false });
	});
});

describe('held: a daily quota really spent (a burst of 5/s and 30 a day, the day ending in an hour)', () => {
	it.each([
		['RateLimit (IETF, both policies)', ietf],
		['X-RateLimit naming the tightest', xTightest],
	])('%s: no row fails, one look per 30 s for the hour, the last 5 rows go when the day turns', async (label, headersOf) => {
		jest.useFakeTimers({ now: EPOCH + 86_400_000 - 3_600_000 });
		const run = await simulate({ answer: fixedPolicies([{ name: 'burst', limit: 5, windowS: 1 }, { name: 'day', limit: 30, windowS: 86_400 }], headersOf) }, 35, { deadlineMs: 3 * 3_600_000 });
		const line = figures(label, run);
		expect({ line, failed: run.failed, finished: run.finished, fewLooks: run.sent <= 35 + 3600 / 30 + 15, silenceBounded: run.longestSilenceMs <= 31_000, endsSoonAfterTheDay: run.elapsedMs <= 3_600_000 + 35_000 }).toEqual({
			line,
			failed: 0,
			finished: true,
			fewLooks: true,
			silenceBounded: true,
			endsSoonAfterTheDay: true,
		});
	}, 120_000);
});
