/**
 * The sandbox's fault modes for the transport's tests, over real HTTP on 127.0.0.1: per-session
 * request limits, injected 401s, faults after the work was done, Retry-After on pre-work 503s,
 * scripted login answers, hanging requests, one session per user, run-time token lifetime and
 * what the request log and the state say about sessions and logins.
 */
import { sleep } from 'n8n-workflow';

import { ALICE, BOB, call, callAndGiveUp, createCandidate, login, NOT_AUTHORIZED } from './client';
import { settingsFromFlags } from './cli-options';
import type { CliFlags } from './cli-options';
import { startSandbox, TOKEN_LOCATIONS } from './server';
import type { FaultConfig, Sandbox, SandboxOptions } from './server';

const started: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = await startSandbox(options);
	started.push(sandbox);
	return sandbox;
}
afterAll(async () => {
	await Promise.all(started.splice(0).map(async (sandbox) => await sandbox.close()));
});

const INTEGRATION = '0b0f6f9e-0000-4000-8000-000000000002';
const WITH_KEY: SandboxOptions = {
	companies: [
		{ id: 1, name: 'Acme Recruiting GmbH', users: [{ email: ALICE.login, password: ALICE.password }], apiKeys: [INTEGRATION] },
		{ id: 2, name: 'Globex Talent AG', users: [{ email: BOB.login, password: BOB.password }] },
	],
};

const list = (sandbox: Sandbox, token: string) => call(sandbox, 'GET', '/v1/company/api-integrations', { token });
const create = (sandbox: Sandbox, token: string, email: string) =>
	call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email } });
const lastEntry = (sandbox: Sandbox) => sandbox.requests[sandbox.requests.length - 1];

/** How many requests a fresh session token survives (its last answer is 200, the next 401). */
async function lifetimeOf(sandbox: Sandbox, token: string, atMost: number): Promise<number> {
	for (let used = 0; used <= atMost; used++) {
		const reply = await list(sandbox, token);
		if (reply.status === 401) return used;
		expect(reply.status).toBe(200);
	}
	throw new Error(`token still alive after ${atMost + 1} requests`);
}

describe('fault modes', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await sandboxWith(WITH_KEY);
	});
	beforeEach(() => {
		sandbox.setFaults({});
		sandbox.clearRequests();
	});
	const stored = () => sandbox.candidates(1).length;

	describe('sessionRequestLimit', () => {
		it('a token dies after N authenticated requests made with it; other tokens and API keys count on their own', async () => {
			sandbox.setFaults({ sessionRequestLimit: 3 });
			const alice = await login(sandbox, ALICE);
			const bob = sandbox.issueToken(BOB.login);
			const before = sandbox.counts.faults.sessionLimit;
			for (let i = 0; i < 2; i++) expect((await list(sandbox, alice)).status).toBe(200);
			for (let i = 0; i < 5; i++) expect((await list(sandbox, INTEGRATION)).status).toBe(200);
			expect((await list(sandbox, bob)).status).toBe(200);
			await call(sandbox, 'GET', '/v1/general/job-types'); // no credentials: not counted
			expect((await list(sandbox, alice)).status).toBe(200); // the 3rd: answered, then the token dies
			expect(lastEntry(sandbox)).toMatchObject({ status: 200, fault: 'sessionLimit', auth: 'session' });
			expect(sandbox.counts.faults.sessionLimit).toBe(before + 1);
			const fourth = await list(sandbox, alice);
			expect(fourth.status).toBe(401);
			expect(fourth.json).toEqual(NOT_AUTHORIZED);
			expect((await list(sandbox, bob)).status).toBe(200);
			expect((await list(sandbox, bob)).status).toBe(200);
			expect((await list(sandbox, bob)).status).toBe(401);
		});

		it('session limits do not shift the seeded request faults (a PRNG stream of their own)', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const statuses = async (config: FaultConfig): Promise<number[]> => {
				sandbox.setFaults(config);
				const result: number[] = [];
				for (let i = 0; i < 16; i++) result.push((await list(sandbox, token)).status);
				return result;
			};
			const plain = await statuses({ errorRate: 0.5, seed: 8 });
			expect(new Set(plain)).toEqual(new Set([200, 500, 503]));
			expect(await statuses({ errorRate: 0.5, seed: 8, sessionRequestLimit: { min: 100, max: 200 } })).toEqual(plain);
		});

		it('setFaults starts the count of every session anew', async () => {
			sandbox.setFaults({ sessionRequestLimit: 2 });
			const token = sandbox.issueToken(ALICE.login);
			expect((await list(sandbox, token)).status).toBe(200);
			sandbox.setFaults({ sessionRequestLimit: 2 });
			expect(await lifetimeOf(sandbox, token, 2)).toBe(2);
		});

		it('a range {min, max} draws each session\'s limit (inclusive) with the seeded PRNG, reproducibly', async () => {
			const lifetimes = async (): Promise<number[]> => {
				sandbox.setFaults({ sessionRequestLimit: { min: 1, max: 3 }, seed: 77 });
				const result: number[] = [];
				for (let i = 0; i < 24; i++) result.push(await lifetimeOf(sandbox, sandbox.issueToken(ALICE.login), 3));
				return result;
			};
			const first = await lifetimes();
			expect(new Set(first)).toEqual(new Set([1, 2, 3]));
			expect(await lifetimes()).toEqual(first);
		});

		it('lifetimes from 1 to 50 requests stay in the range', async () => {
			sandbox.setFaults({ sessionRequestLimit: { min: 1, max: 50 }, seed: 5 });
			const seen: number[] = [];
			for (let i = 0; i < 6; i++) seen.push(await lifetimeOf(sandbox, sandbox.issueToken(ALICE.login), 50));
			for (const lifetime of seen) {
				expect(lifetime).toBeGreaterThanOrEqual(1);
				expect(lifetime).toBeLessThanOrEqual(50);
			}
			expect(new Set(seen).size).toBeGreaterThan(1);
		});
	});

	describe('unauthorizedRate', () => {
		it('answers 401 without processing and ends that session only; API keys and open routes are untouched', async () => {
			const alice = sandbox.issueToken(ALICE.login);
			const bob = sandbox.issueToken(BOB.login);
			const before = { stored: stored(), faults: sandbox.counts.faults.unauthorized };
			sandbox.setFaults({ unauthorizedRate: 1 });
			const reply = await create(sandbox, alice, 'u@example.test');
			expect(reply.status).toBe(401);
			expect(reply.json).toEqual(NOT_AUTHORIZED);
			expect(stored()).toBe(before.stored);
			expect(lastEntry(sandbox)).toMatchObject({ status: 401, fault: 'unauthorized', auth: 'session', session: expect.any(Number) });
			expect((await list(sandbox, INTEGRATION)).status).toBe(200);
			expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);
			sandbox.setFaults({});
			expect((await list(sandbox, alice)).status).toBe(401);
			expect((await list(sandbox, bob)).status).toBe(200);
			expect(sandbox.counts.faults.unauthorized).toBe(before.faults + 1);
		});

		it('hits the given fraction of session requests, seeded', async () => {
			sandbox.setFaults({ unauthorizedRate: 0.5, seed: 11 });
			const statuses: number[] = [];
			for (let i = 0; i < 20; i++) statuses.push((await list(sandbox, sandbox.issueToken(ALICE.login))).status);
			expect(statuses).toContain(200);
			expect(statuses).toContain(401);
			expect(sandbox.requests.filter((entry) => entry.fault === 'unauthorized')).toHaveLength(statuses.filter((s) => s === 401).length);
		});
	});

	describe('after-work faults', () => {
		it('afterWorkErrorRate: stored, then 503 without Retry-After; the log keeps the real status', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before = { stored: stored(), faults: sandbox.counts.faults.afterWorkError };
			sandbox.setFaults({ afterWorkErrorRate: 1 });
			const reply = await create(sandbox, token, 'after@example.test');
			expect(reply.status).toBe(503);
			expect(reply.headers.get('retry-after')).toBeNull();
			expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
			expect(reply.json).toEqual({ message: 'Service Unavailable', status: 503 });
			expect(stored()).toBe(before.stored + 1);
			expect(sandbox.candidates(1).some((candidate) => candidate.email === 'after@example.test')).toBe(true);
			expect(lastEntry(sandbox)).toMatchObject({ status: 503, workStatus: 201, fault: 'afterWorkError' });
			expect(sandbox.counts.faults.afterWorkError).toBe(before.faults + 1);
		});

		it('picks the status per request from afterWorkErrorStatuses; answers that did no work are left alone', async () => {
			const token = sandbox.issueToken(ALICE.login);
			sandbox.setFaults({ afterWorkErrorRate: 1, afterWorkErrorStatuses: [502, 504], seed: 9 });
			const statuses: number[] = [];
			for (let i = 0; i < 12; i++) statuses.push((await create(sandbox, token, `s${i}@example.test`)).status);
			expect(new Set(statuses)).toEqual(new Set([502, 504]));
			const refused = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: {} });
			expect(refused.status).toBe(422);
			expect(lastEntry(sandbox).fault).toBeUndefined();
		});

		it('afterWorkNoDataRate: stored, then answered its status with an envelope without data (a creation without its slug)', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before = { stored: stored(), faults: sandbox.counts.faults.afterWorkNoData };
			sandbox.setFaults({ afterWorkNoDataRate: 1 });
			const reply = await create(sandbox, token, 'noslug@example.test');
			expect(reply.status).toBe(201);
			expect(reply.json).toEqual({ message: 'Created', status: 201 });
			expect(stored()).toBe(before.stored + 1);
			expect(lastEntry(sandbox)).toMatchObject({ status: 201, workStatus: 201, fault: 'afterWorkNoData' });
			expect(sandbox.counts.faults.afterWorkNoData).toBe(before.faults + 1);
			sandbox.setFaults({});
		});

		it('afterWorkDropRate: stored, then the socket is destroyed without an answer', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before = { stored: stored(), faults: sandbox.counts.faults.afterWorkDrop };
			sandbox.setFaults({ afterWorkDropRate: 1 });
			await expect(create(sandbox, token, 'dropped@example.test')).rejects.toThrow();
			expect(stored()).toBe(before.stored + 1);
			expect(lastEntry(sandbox)).toMatchObject({ status: 0, workStatus: 201, fault: 'afterWorkDrop' });
			expect(sandbox.counts.faults.afterWorkDrop).toBe(before.faults + 1);
			sandbox.setFaults({});
			expect((await list(sandbox, token)).status).toBe(200);
		});

		it('stored == successes + after-work faults, with pre-work faults mixed in', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before: Record<string, number> = { stored: stored(), ...sandbox.counts.faults };
			sandbox.setFaults({ errorRate: 0.15, dropRate: 0.1, afterWorkErrorRate: 0.2, afterWorkDropRate: 0.15, seed: 31 });
			let successes = 0;
			for (let i = 0; i < 40; i++) {
				const reply = await create(sandbox, token, `mix${i}@example.test`).catch(() => undefined);
				if (reply?.status === 201) successes += 1;
			}
			const afterWork = sandbox.counts.faults.afterWorkError - before.afterWorkError + sandbox.counts.faults.afterWorkDrop - before.afterWorkDrop;
			expect(afterWork).toBeGreaterThan(0);
			expect(sandbox.counts.faults.drop - before.drop + sandbox.counts.faults.error500 - before.error500).toBeGreaterThan(0);
			expect(stored() - before.stored).toBe(successes + afterWork);
			expect(sandbox.requests.filter((entry) => entry.workStatus === 201)).toHaveLength(afterWork);
		});
	});

	describe('retryAfterOn503', () => {
		it('a pre-work 503 carries Retry-After when set; 500s never do; by default 503s carry none', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before = stored();
			type Seen = Map<number, Set<string | null>>;
			const headersBy = async (): Promise<Seen> => {
				const seen = new Map<number, Set<string | null>>();
				for (let i = 0; i < 16; i++) {
					const reply = await create(sandbox, token, `r${i}@example.test`);
					if (!seen.has(reply.status)) seen.set(reply.status, new Set());
					seen.get(reply.status)?.add(reply.headers.get('retry-after'));
				}
				return seen;
			};
			sandbox.setFaults({ errorRate: 1, seed: 42 });
			const none = new Set<string | null>([null]);
			expect(await headersBy()).toEqual(new Map([[500, none], [503, none]]));
			sandbox.setFaults({ errorRate: 1, seed: 42, retryAfterOn503: 4 });
			expect(await headersBy()).toEqual(new Map([[500, none], [503, new Set<string | null>(['4'])]]));
			expect(stored()).toBe(before);
		});
	});

	describe('loginScript', () => {
		it('answers the next logins as scripted, then logins are normal; attempts and successes are counted', async () => {
			const before = { ...sandbox.counts, scripted: sandbox.counts.faults.loginScript };
			const date = 'Wed, 21 Oct 2015 07:28:00 GMT';
			sandbox.setFaults({
				paths: ['/gin/'], // the script ignores `paths`
				loginScript: [{ status: 429, retryAfter: '2' }, { status: 503 }, { drop: true }, { status: 500, retryAfter: date }, { status: 401 }, { ok: true }],
			});
			const attempt = () => call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
			await call(sandbox, 'GET', '/v1/general/job-types'); // other requests do not consume entries
			const first = await attempt();
			expect([first.status, first.headers.get('retry-after'), first.json]).toEqual([429, '2', { message: 'Too Many Requests', status: 429 }]);
			const second = await attempt();
			expect([second.status, second.headers.get('retry-after')]).toEqual([503, null]);
			await expect(attempt()).rejects.toThrow();
			const fourth = await attempt();
			expect([fourth.status, fourth.headers.get('retry-after')]).toEqual([500, date]);
			const fifth = await attempt();
			expect([fifth.status, fifth.json]).toEqual([401, { error: 'Invalid login or password' }]);
			const sixth = await attempt();
			expect(sixth.status).toBe(200);
			expect((await list(sandbox, sixth.json.data.token)).status).toBe(200);
			expect((await attempt()).status).toBe(200);
			expect(sandbox.counts.loginAttempts - before.loginAttempts).toBe(7);
			expect(sandbox.counts.logins - before.logins).toBe(2);
			expect(sandbox.counts.faults.loginScript - before.scripted).toBe(5);
			expect(sandbox.requests.filter((entry) => entry.path === '/v1/login').map((entry) => [entry.status, entry.fault])).toEqual([
				[429, 'loginScript'],
				[503, 'loginScript'],
				[0, 'loginScript'],
				[500, 'loginScript'],
				[401, 'loginScript'],
				[200, undefined],
				[200, undefined],
			]);
		});

		it('a refused login is an attempt, not a login, and uses up an entry; setFaults restarts the script', async () => {
			const before = { ...sandbox.counts };
			sandbox.setFaults({ loginScript: [{ ok: true }, { status: 503 }] });
			expect((await call(sandbox, 'POST', '/v1/login', { body: { user: { login: ALICE.login, password: 'wrong' } } })).status).toBe(401);
			expect((await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } })).status).toBe(503);
			sandbox.setFaults({ loginScript: [{ status: 503 }] });
			expect((await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } })).status).toBe(503);
			expect((await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } })).status).toBe(200);
			expect(sandbox.counts.loginAttempts - before.loginAttempts).toBe(4);
			expect(sandbox.counts.logins - before.logins).toBe(1);
		});
	});

	describe('hanging requests', () => {
		it('hangPaths hold every matching request hangMs (after the latency) before it is processed; others pass', async () => {
			const token = sandbox.issueToken(ALICE.login);
			sandbox.setFaults({ hangPaths: ['/gin/'], hangMs: 300, latencyMs: 1 });
			const start = Date.now();
			const reply = await create(sandbox, token, 'slow@example.test');
			expect(Date.now() - start).toBeGreaterThanOrEqual(280);
			expect(reply.status).toBe(201);
			expect((await list(sandbox, token)).status).toBe(200);
			expect(sandbox.requests.map((entry) => entry.fault)).toEqual(['latency+hang', 'latency']);
		});

		it('a client that gives up during a hang before work: the request is never processed, even after hangMs', async () => {
			const token = sandbox.issueToken(ALICE.login);
			const before = stored();
			sandbox.setFaults({ hangPaths: ['/gin/', '/v1/logout'], hangMs: 500 });
			await callAndGiveUp(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'gone@example.test' } });
			await callAndGiveUp(sandbox, 'DELETE', '/v1/logout', { token });
			await sleep(800);
			expect(stored()).toBe(before);
			expect(sandbox.requests.map((entry) => [entry.status, entry.fault])).toEqual([[0, 'hang'], [0, 'hang']]);
			sandbox.setFaults({});
			expect((await list(sandbox, token)).status).toBe(200); // the logout was not processed either
		});

		it('hangAfterWork: processed and stored first, then held; answered normally when the client waits', async () => {
			const token = sandbox.issueToken(ALICE.login);
			sandbox.setFaults({ hangPaths: ['/gin/'], hangMs: 300, hangAfterWork: true });
			const start = Date.now();
			expect((await create(sandbox, token, 'patient@example.test')).status).toBe(201);
			expect(Date.now() - start).toBeGreaterThanOrEqual(280);
			expect(lastEntry(sandbox)).toMatchObject({ status: 201, fault: 'hang' });
			const before = stored();
			sandbox.setFaults({ hangPaths: ['/gin/'], hangMs: 5000, hangAfterWork: true });
			const held = { token, body: { email: 'held@example.test' } };
			await callAndGiveUp(sandbox, 'POST', '/gin/v1/company/candidate', held, () => stored() > before);
			expect(stored()).toBe(before + 1);
			for (let i = 0; i < 100 && lastEntry(sandbox).status !== 0; i++) await sleep(20);
			expect(lastEntry(sandbox)).toMatchObject({ status: 0, workStatus: 201, fault: 'hang' });
		});

		it('hangRate: a seeded fraction of the requests hangs; `paths` limits hangs too', async () => {
			sandbox.setFaults({ hangRate: 0.5, hangMs: 20, seed: 4 });
			for (let i = 0; i < 16; i++) expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);
			const hung = sandbox.requests.filter((entry) => entry.fault === 'hang').length;
			expect(hung).toBeGreaterThan(0);
			expect(hung).toBeLessThan(16);
			sandbox.clearRequests();
			sandbox.setFaults({ hangRate: 1, hangMs: 20, paths: ['/gin/'] });
			await call(sandbox, 'GET', '/v1/general/job-types');
			expect(sandbox.requests[0].fault).toBeUndefined();
		});
	});
});

describe('close during a hang', () => {
	it('close() ends hung requests at once instead of waiting hangMs', async () => {
		const sandbox = await startSandbox({ faults: { hangPaths: ['/v1/'], hangMs: 20_000 } });
		const pending = call(sandbox, 'GET', '/v1/general/job-types').then(
			() => 'answered',
			() => 'failed',
		);
		for (let i = 0; i < 100 && sandbox.requests.length === 0; i++) await sleep(10);
		const start = Date.now();
		await sandbox.close();
		expect(Date.now() - start).toBeLessThan(10_000);
		expect(await pending).toBe('failed');
	});
});

describe('sessions', () => {
	it('singleSessionPerUser: a new login (or issueToken) ends that user\'s earlier sessions only', async () => {
		const sandbox = await sandboxWith({ singleSessionPerUser: true });
		const first = await login(sandbox, ALICE);
		const bob = await login(sandbox, BOB);
		const second = await login(sandbox, ALICE);
		expect((await list(sandbox, first)).json).toEqual(NOT_AUTHORIZED);
		expect((await list(sandbox, second)).status).toBe(200);
		expect((await list(sandbox, bob)).status).toBe(200);
		const issued = sandbox.issueToken(ALICE.login);
		expect((await list(sandbox, second)).status).toBe(401);
		expect((await list(sandbox, issued)).status).toBe(200);
		expect(sandbox.state().liveTokens).toBe(2);
	});

	it('by default a user keeps several sessions', async () => {
		const sandbox = await sandboxWith();
		const first = await login(sandbox, ALICE);
		const second = await login(sandbox, ALICE);
		expect((await list(sandbox, first)).status).toBe(200);
		expect((await list(sandbox, second)).status).toBe(200);
	});

	it('setTokenLifetime and POST /__sandbox/token-lifetime change the lifetime of later sessions; reset restores the option', async () => {
		const sandbox = await sandboxWith({ admin: true, tokenLifetimeMs: 60_000 });
		const lifetime = () => {
			const sessions = sandbox.state().sessions;
			const last = sessions[sessions.length - 1];
			return last.expiresAt === undefined ? undefined : last.expiresAt - last.createdAt;
		};
		const early = await login(sandbox, ALICE);
		expect(lifetime()).toBe(60_000);
		sandbox.setTokenLifetime(150);
		const short = await login(sandbox, ALICE);
		expect(lifetime()).toBe(150);
		await sleep(250);
		expect((await list(sandbox, short)).status).toBe(401);
		expect((await list(sandbox, early)).status).toBe(200);

		expect((await call(sandbox, 'POST', '/__sandbox/token-lifetime', { body: { seconds: 2 } })).json).toMatchObject({ data: { ms: 2000 } });
		sandbox.issueToken(ALICE.login);
		expect(lifetime()).toBe(2000);
		expect((await call(sandbox, 'POST', '/__sandbox/token-lifetime', { body: { ms: 300 } })).json).toMatchObject({ data: { ms: 300 } });
		sandbox.issueToken(ALICE.login);
		expect(lifetime()).toBe(300);
		expect((await call(sandbox, 'POST', '/__sandbox/token-lifetime', { body: {} })).json).toMatchObject({ data: { ms: null } });
		sandbox.issueToken(ALICE.login);
		expect(lifetime()).toBeUndefined();
		expect((await call(sandbox, 'POST', '/__sandbox/token-lifetime', { body: { seconds: -1 } })).status).toBe(422);
		expect((await call(sandbox, 'POST', '/__sandbox/token-lifetime', { body: { ms: 'soon' } })).status).toBe(422);

		await sandbox.reset();
		sandbox.issueToken(ALICE.login);
		expect(lifetime()).toBe(60_000);
	});
});

describe('request log and state: sessions and logins', () => {
	it('each entry says how it was authenticated and by which session number (never the token)', async () => {
		const sandbox = await sandboxWith(WITH_KEY);
		const first = await login(sandbox, ALICE);
		const second = await login(sandbox, ALICE);
		await list(sandbox, first);
		await list(sandbox, second);
		await list(sandbox, INTEGRATION);
		await call(sandbox, 'GET', '/v1/general/job-types');
		await list(sandbox, 'not-a-token');
		const numbers = sandbox.state().sessions.map((session) => session.number);
		expect(numbers).toEqual([1, 2]);
		expect(sandbox.requests.map(({ auth, session, newSession }) => ({ auth, session, newSession }))).toEqual([
			{ auth: 'none', session: undefined, newSession: 1 },
			{ auth: 'none', session: undefined, newSession: 2 },
			{ auth: 'session', session: 1, newSession: undefined },
			{ auth: 'session', session: 2, newSession: undefined },
			{ auth: 'apiKey', session: undefined, newSession: undefined },
			{ auth: 'none', session: undefined, newSession: undefined },
			{ auth: 'none', session: undefined, newSession: undefined },
		]);
		const logged = JSON.stringify(sandbox.requests.map((entry) => ({ ...entry, headers: undefined })));
		expect(logged).not.toContain(first);
		expect(logged).not.toContain(second);
	});

	it('state().logins counts successful logins since the seed and survives a restore; counts and admin routes show attempts', async () => {
		const sandbox = await sandboxWith({ admin: true });
		await login(sandbox, ALICE);
		await call(sandbox, 'POST', '/v1/login', { body: { user: { login: BOB.login, password: 'wrong' } } });
		sandbox.issueToken(BOB.login);
		await login(sandbox, BOB);
		expect(sandbox.state()).toMatchObject({ logins: 2, nextIds: { session: 4 } });
		const admin = await call(sandbox, 'GET', '/__sandbox/requests');
		expect(admin.json.counts).toMatchObject({ logins: 2, loginAttempts: 3 });
		expect((await call(sandbox, 'GET', '/__sandbox/state')).json.logins).toBe(2);

		const restored = await sandboxWith({ initialState: sandbox.state() });
		await login(restored, ALICE);
		expect(restored.state()).toMatchObject({ logins: 3, nextIds: { session: 5 } });
		expect(restored.state().sessions.map((session) => session.number)).toEqual([1, 2, 3, 4]);
		await sandbox.reset();
		expect(sandbox.state()).toMatchObject({ logins: 0, liveTokens: 0 });
		expect(sandbox.counts).toMatchObject({ logins: 0, loginAttempts: 0 });
	});

	it('a state saved before sessions had numbers is numbered on restore', async () => {
		const sandbox = await sandboxWith();
		sandbox.issueToken(ALICE.login);
		sandbox.issueToken(BOB.login);
		const old = sandbox.state() as unknown as Record<string, unknown> & { sessions: Array<Record<string, unknown>>; nextIds: Record<string, number> };
		for (const session of old.sessions) delete session.number;
		delete old.nextIds.session;
		delete old.logins;
		const restored = await sandboxWith({ initialState: old as never });
		expect(restored.state()).toMatchObject({ logins: 0, nextIds: { session: 3 } });
		expect(restored.state().sessions.map((session) => session.number)).toEqual([1, 2]);
		const token = restored.state().sessions[0].token;
		expect((await list(restored, token)).status).toBe(200);
		expect(restored.requests[0]).toMatchObject({ auth: 'session', session: 1 });
	});
});

describe('faults over the admin route', () => {
	it('POST /__sandbox/faults takes the new options too', async () => {
		const sandbox = await sandboxWith({ admin: true });
		const config: FaultConfig = { loginScript: [{ status: 503, retryAfter: '1' }], sessionRequestLimit: { min: 1, max: 1 } };
		expect((await call(sandbox, 'POST', '/__sandbox/faults', { body: config })).json.data).toEqual(config);
		const scripted = await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
		expect([scripted.status, scripted.headers.get('retry-after')]).toEqual([503, '1']);
		const token = await login(sandbox, ALICE);
		expect((await list(sandbox, token)).status).toBe(200);
		expect((await list(sandbox, token)).status).toBe(401);
		const candidate = await createCandidate(sandbox, await login(sandbox, ALICE));
		expect(candidate).toEqual(expect.any(String));
	});
});

describe('command line (cli.mjs flags → options)', () => {
	const settings = (flags: CliFlags) => settingsFromFlags(flags, TOKEN_LOCATIONS);

	it('--token-lifetime-seconds N is N × 1000 ms beside --token-lifetime MS; not both', () => {
		expect(settings({ 'token-lifetime-seconds': '2' }).options.tokenLifetimeMs).toBe(2000);
		expect(settings({ 'token-lifetime': '1500' }).options.tokenLifetimeMs).toBe(1500);
		expect(settings({}).options.tokenLifetimeMs).toBeUndefined();
		expect(() => settings({ 'token-lifetime': '1', 'token-lifetime-seconds': '1' })).toThrow(/not both/);
		expect(() => settings({ 'token-lifetime-seconds': '1.5' })).toThrow(/non-negative integer/);
		expect(() => settings({ 'token-lifetime-seconds': '' })).toThrow(/non-negative integer/);
	});

	it('--single-session sets singleSessionPerUser; the other flags keep their meaning', () => {
		expect(settings({ 'single-session': true }).options.singleSessionPerUser).toBe(true);
		expect(settings({}).options.singleSessionPerUser).toBe(false);
		expect(settings({ port: '8080', host: '::1', admin: true, latency: '5', data: 'state.json', 'seed-file': 'seed.json', 'token-location': 'top.token' })).toEqual({
			port: 8080,
			host: '::1',
			admin: true,
			dataFile: 'state.json',
			seedFile: 'seed.json',
			options: { tokenLocation: 'top.token', tokenLifetimeMs: undefined, singleSessionPerUser: false, faults: { latencyMs: 5 } },
		});
		expect(settings({})).toMatchObject({ port: 0, host: '127.0.0.1', admin: false, options: { faults: undefined } });
		expect(() => settings({ 'token-location': 'cookie' })).toThrow(/--token-location must be one of data\.token/);
		expect(() => settings({ port: '-1' })).toThrow(/--port/);
	});
});
