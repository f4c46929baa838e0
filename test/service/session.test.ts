/**
 * Session → Log In / Log Out and the credential's own login against the sandbox: every place
 * the sandbox can put the token, Token Path, logout killing the token, re-login after expiry
 * (lifetime and the expireTokensAfterRequests fault), and the access-token mode.
 */
import { sleep } from 'n8n-workflow';

import type { Sandbox, TokenLocation } from '../sandbox/server';
import { TOKEN_LOCATIONS, startSandbox } from '../sandbox/server';
import { ALICE, emailCredential, tokenCredential, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

const login = (options: Record<string, unknown> = {}) => ({
	resource: 'session',
	operation: 'login',
	options: { ...FAST, ...options },
});
const logout = { resource: 'session', operation: 'logout' };
const listKeys = { resource: 'apiKey', operation: 'getAll' };

const aliceUser = { id: expect.any(Number), email: ALICE.email, first_name: 'Alice', last_name: 'Archer', company_id: 1 };

/** Whether the service accepts `token` as a session (asks it through the node in access-token mode). */
async function isLive(box: Sandbox, token: unknown): Promise<boolean> {
	if (typeof token !== 'string' || token === '') return false;
	const probe = new Harness(tokenCredential(box, token));
	const result = await probe.run({ parameters: { ...listKeys, options: { maxRetries: 0 } } });
	return result.error === undefined;
}

describe('session.login for every token location the sandbox offers', () => {
	const locations = TOKEN_LOCATIONS.filter((location) => location !== 'none');

	it.each(locations)('token in %s: Log In logs in once and outputs the user, the token only on request; the node then stores its own live session', async (location) => {
		const box = await startSandbox({ tokenLocation: location as TokenLocation });
		try {
			const harness = new Harness(emailCredential(box));
			const plain = await runOk(harness, login());
			const user = outputs(plain)[0];
			if (location === 'data.user.token') {
				expect(user).toEqual({ ...aliceUser, user: aliceUser });
			} else {
				expect(user).toEqual(aliceUser);
			}
			expect(JSON.stringify(plain.items)).not.toMatch(/[0-9a-f]{64}/);
			expect(JSON.stringify(plain.items)).not.toContain(ALICE.password);
			// the operation's own login only: nothing logs in before it, nothing is stored
			expect(box.counts.logins).toBe(1);
			expect(harness.credentials.events.logins).toBe(0);
			expect(harness.credentials.session()).toBe('');

			const withToken = await runOk(harness, login({ includeToken: true }));
			const token = outputs(withToken)[0].token;
			expect(token).toMatch(/^[0-9a-f]{64}$/);
			expect(await isLive(box, token)).toBe(true);

			// a request that needs a session: the node logs in by itself and stores that session
			await runOk(harness, listKeys);
			expect(harness.credentials.events.logins).toBe(1);
			const stored = harness.credentials.session();
			expect(stored).toMatch(/^[0-9a-f]{64}$/);
			expect(stored).not.toBe(token);
			expect(await isLive(box, stored)).toBe(true);
		} finally {
			await box.close();
		}
	});

	it('token nowhere: n8n\'s login fails naming the keys of data and pointing to Token Path', async () => {
		const box = await startSandbox({ tokenLocation: 'none' });
		try {
			const harness = new Harness(emailCredential(box));
			const result = await harness.run({ parameters: listKeys });
			expect(result.error?.message ?? '').toMatch(/Token Path/);
			expect(`${result.error?.message ?? ''} ${result.error?.description ?? ''}`).toMatch(/id, email, first_name, last_name, company_id/);
			expect(result.error?.message).not.toContain(ALICE.email);
			expect(harness.credentials.session()).toBe('');
		} finally {
			await box.close();
		}
	});

	it.each([
		['data.access_token', 'data.access_token'],
		['top.token', 'token'],
		['data.user.token', 'data.user.token'],
	])('token in %s with Token Path %j: logs in and works', async (location, tokenPath) => {
		const box = await startSandbox({ tokenLocation: location as TokenLocation });
		try {
			const harness = new Harness(emailCredential(box, ALICE, { tokenPath }));
			const result = await runOk(harness, login({ includeToken: true }));
			expect(outputs(result)[0].token).toMatch(/^[0-9a-f]{64}$/);
			expect(await isLive(box, outputs(result)[0].token)).toBe(true);
			const keys = await runOk(harness, listKeys);
			expect(keys.items).toEqual([]);
			expect(await isLive(box, harness.credentials.session())).toBe(true);
		} finally {
			await box.close();
		}
	});

	it('a Token Path that is not in the answer fails with a message naming Token Path', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE, { tokenPath: 'data.session.value' }));
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message ?? '').toMatch(/Token Path|data\.session\.value/);
		expect(harness.credentials.session()).toBe('');
	});

	it('a wrong password fails with the service\'s message and never shows the password', async () => {
		const wrong = [ALICE.password, 'x'].join('');
		const harness = new Harness({ ...emailCredential(sandbox()), password: wrong });
		const result = await harness.run({ parameters: login() });
		expect(result.error?.message).toMatch(/Invalid login or password/);
		expect(JSON.stringify(result.error)).not.toContain(wrong);
	});

	it('Log In runs once per node run, however many items', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		const before = sandbox().counts.logins;
		const result = await runOk(harness, login(), [{ a: 1 }, { a: 2 }, { a: 3 }]);
		expect(outputs(result)).toEqual([aliceUser, aliceUser, aliceUser]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sandbox().counts.logins - before).toBe(1);
	});
});

describe('session.logout', () => {
	it('kills the stored token; the next execution logs in again exactly once and stores a live token', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		await runOk(harness, listKeys);
		const first = harness.credentials.session();
		expect(await isLive(sandbox(), first)).toBe(true);
		expect(harness.credentials.events.logins).toBe(1);

		const out = await runOk(harness, logout);
		expect(outputs(out)).toEqual([{ loggedOut: true, message: 'Signed out successfully' }]);
		expect(await isLive(sandbox(), first)).toBe(false);
		expect(sandbox().requests.filter((request) => request.path === '/v1/logout').at(-1)?.headers.authorization).toBe(`Bearer ${String(first)}`);

		const loginsBefore = sandbox().counts.logins;
		const again = await runOk(harness, listKeys);
		expect(again.items).toEqual([]);
		expect(harness.credentials.events.logins).toBe(2);
		expect(sandbox().counts.logins - loginsBefore).toBe(1);
		const second = harness.credentials.session();
		expect(second).not.toBe(first);
		expect(await isLive(sandbox(), second)).toBe(true);
	});

	it('with no session stored, sends nothing', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		const before = sandbox().requests.length;
		const out = await runOk(harness, logout);
		expect(outputs(out)[0].loggedOut).toBe(false);
		expect(sandbox().requests.length).toBe(before);
	});

	it('log out then a later node in the same style: login → logout → login → candidate create all work', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		await runOk(harness, login());
		await runOk(harness, logout);
		await runOk(harness, login());
		const created = await runOk(harness, { resource: 'candidate', operation: 'create', email: 'after.logout@example.test' });
		expect(sandbox().candidates(1).some((candidate) => candidate.slug === outputs(created)[0].slug)).toBe(true);
	});
});

describe('access token mode', () => {
	it('a token from issueToken authorises lists of keys and candidate creation; nobody logs in', async () => {
		const token = sandbox().issueToken(ALICE.email);
		const harness = new Harness(tokenCredential(sandbox(), token));
		const before = sandbox().counts.logins;
		const created = await runOk(harness, { resource: 'candidate', operation: 'create', email: 'token.mode@example.test' });
		const slug = outputs(created)[0].slug;
		expect(sandbox().candidates(1).find((candidate) => candidate.slug === slug)?.email).toBe('token.mode@example.test');
		expect(sandbox().counts.logins).toBe(before);
		expect(harness.credentials.events.logins).toBe(0);
	});

	it('Log Out kills the access token; the next request fails asking for a new token', async () => {
		const token = sandbox().issueToken(ALICE.email);
		const harness = new Harness(tokenCredential(sandbox(), token));
		const out = await runOk(harness, logout);
		expect(outputs(out)[0].loggedOut).toBe(true);
		expect(await isLive(sandbox(), token)).toBe(false);
		const next = await harness.run({ parameters: { ...listKeys, options: { maxRetries: 0 } } });
		expect(next.error?.message).toMatch(/access token may have expired or been logged out/);
	});
});

describe('re-login after expiry', () => {
	it('token lifetime: after it runs out the next execution logs in once more and succeeds', async () => {
		const box = await startSandbox({ tokenLifetimeMs: 300 });
		try {
			const harness = new Harness(emailCredential(box));
			await runOk(harness, listKeys);
			expect(harness.credentials.events.logins).toBe(1);
			await runOk(harness, listKeys);
			expect(harness.credentials.events.logins).toBe(1);
			await sleep(400);
			const result = await runOk(harness, { resource: 'candidate', operation: 'create', email: 'late@example.test' });
			expect(outputs(result)[0].slug).toEqual(expect.any(String));
			expect(harness.credentials.events.logins).toBe(2);
			expect(box.counts.logins).toBe(2);
			expect(box.candidates(1)).toHaveLength(1);
		} finally {
			await box.close();
		}
	});

	it.each([1, 5])('tokens killed after the first request of a 6-item batch (concurrency %d): one re-login, every item created once', async (concurrency) => {
		const box = await startSandbox();
		try {
			const harness = new Harness(emailCredential(box));
			await runOk(harness, listKeys);
			box.setFaults({ expireTokensAfterRequests: 1 });
			const items = Array.from({ length: 6 }, (_, index) => ({ email: `row${index}@example.test` }));
			const result = await harness.run({
				parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', options: { ...FAST, concurrency } },
				items,
			});
			expect(result.error).toBeUndefined();
			expect(outputs(result).map((json) => json.email)).toEqual(items.map((item) => item.email));
			expect(box.counts.faults.tokenExpiry).toBe(1);
			expect(box.candidates(1).map((candidate) => candidate.email).sort()).toEqual(items.map((item) => item.email).sort());
			expect(harness.credentials.events.logins).toBe(2);
			expect(box.counts.logins).toBe(2);
		} finally {
			await box.close();
		}
	});

	it('tokens killed every 2 requests (repeat): a 6-item batch still creates each candidate exactly once', async () => {
		const box = await startSandbox();
		try {
			const harness = new Harness(emailCredential(box));
			box.setFaults({ expireTokensAfterRequests: 2, repeat: true });
			const items = Array.from({ length: 6 }, (_, index) => ({ email: `rep${index}@example.test` }));
			const result = await harness.run({
				parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', options: { ...FAST, concurrency: 1 } },
				items,
			});
			expect(result.error).toBeUndefined();
			expect(box.candidates(1).map((candidate) => candidate.email).sort()).toEqual(items.map((item) => item.email).sort());
			expect(box.counts.faults.tokenExpiry).toBeGreaterThanOrEqual(2);
		} finally {
			await box.close();
		}
	});
});

describe('base URL', () => {
	it('a trailing slash is tolerated: login, list and create reach the right paths', async () => {
		const harness = new Harness({ ...emailCredential(sandbox()), baseUrl: `${sandbox().url}/` });
		sandbox().clearRequests();
		await runOk(harness, listKeys);
		const created = await runOk(harness, { resource: 'candidate', operation: 'create', email: 'slash@example.test' });
		expect(sandbox().candidates(1).some((candidate) => candidate.slug === outputs(created)[0].slug)).toBe(true);
		expect(sandbox().requests.map((request) => request.path)).toEqual(['/v1/login', '/v1/company/api-integrations', '/gin/v1/company/candidate']);
	});
});
