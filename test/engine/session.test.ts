import nock from 'nock';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pass', 'word', '-1'].join('');

const user = {
	id: 7,
	email: EMAIL,
	first_name: 'Rita',
	company: { id: 3, name: 'ACME', api_key: 'company-key-value' },
	password_digest: 'digest-value',
	settings: { theme: 'dark', refreshToken: 'refresh-value', clientSecret: 'client-secret-value' },
};

/** The user as the login operation must output it: every token, password and secret gone. */
const cleanUser = {
	id: 7,
	email: EMAIL,
	first_name: 'Rita',
	company: { id: 3, name: 'ACME' },
	settings: { theme: 'dark' },
};

function emailCredential(extra: Record<string, string> = {}) {
	return { baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD, ...extra };
}

const loginHeaders = { 'content-type': 'application/json', accept: 'application/json' };
const loginBody = { user: { login: EMAIL, password: PASSWORD } };

const login = (options: Record<string, unknown> = {}) => ({
	parameters: { resource: 'session', operation: 'login', options: { maxRetries: 0, ...options } },
});
const logout = { parameters: { resource: 'session', operation: 'logout', options: { maxRetries: 0 } } };
const listKeys = { parameters: { resource: 'apiKey', operation: 'getAll', options: { maxRetries: 0 } } };

setUpNock();

describe('session.login', () => {
	it('sends the credential e-mail and password and outputs the user without tokens, passwords or secrets', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
		// The login is sent without any session: it needs none.
		const scope = nock(BASE, { reqheaders: loginHeaders, badheaders: ['authorization'] })
			.post('/v1/login', loginBody)
			.reply(200, {
				message: 'Signed in',
				status: 200,
				data: { ...user, token: 'tok-new', jwt: 'jwt-value', user: { id: 7, access_token: 'tok-new' } },
			});
		const result = await harness.run(login());
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ ...cleanUser, user: { id: 7 } }]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		const text = JSON.stringify(result.items);
		for (const secret of ['tok-new', 'jwt-value', 'digest-value', 'refresh-value', 'client-secret-value', 'company-key-value', PASSWORD]) {
			expect(text).not.toContain(secret);
		}
		// the session was there: the node did not log in by itself
		expect(harness.credentials.events.logins).toBe(0);
		scope.done();
	});

	it('adds the token under "token" only when Include Token is on', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
		const scope = nock(BASE)
			.post('/v1/login', loginBody)
			.reply(200, { message: 'Signed in', status: 200, data: { ...user, token: 'tok-new' } });
		const result = await harness.run(login({ includeToken: true }));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ ...cleanUser, token: 'tok-new' }]);
		scope.done();
	});

	it.each([
		['data.access_token', { data: { ...user, access_token: 'tok-a' } }, {}],
		['data.user.token', { data: { ...user, user: { id: 7, token: 'tok-a' } } }, {}],
		['top-level token', { token: 'tok-a', data: user }, {}],
		['Authorization header', { data: user }, { Authorization: 'Bearer tok-a' }],
		['X-Auth-Token header', { data: user }, { 'X-Auth-Token': 'tok-a' }],
	])('finds the token in %s for Include Token, and never outputs it otherwise', async (_place, body, headers) => {
		for (const includeToken of [false, true]) {
			const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
			const scope = nock(BASE)
				.post('/v1/login', loginBody)
				.reply(200, { message: 'Signed in', status: 200, ...body }, headers);
			const result = await harness.run(login({ includeToken }));
			expect(result.error).toBeUndefined();
			const json = result.items[0].json;
			if (includeToken) expect(json.token).toBe('tok-a');
			else expect(JSON.stringify(json)).not.toContain('tok-a');
			expect(json.password_digest).toBeUndefined();
			scope.done();
		}
	});

	it('with Token Path, removes the token from an innocent-looking field and returns it on request', async () => {
		for (const includeToken of [false, true]) {
			const harness = new Harness(emailCredential({ sessionToken: 'tok-stored', tokenPath: 'data.session.value' }));
			const scope = nock(BASE)
				.post('/v1/login', loginBody)
				.reply(200, { message: 'ok', status: 200, data: { id: 7, session: { value: 'tok-path', kind: 'web' } } });
			const result = await harness.run(login({ includeToken }));
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toEqual({
				id: 7,
				session: { kind: 'web' },
				...(includeToken ? { token: 'tok-path' } : {}),
			});
			scope.done();
		}
	});

	it('with no stored session, logs in exactly once: the operation\'s own login, no automatic login before it', async () => {
		const harness = new Harness(emailCredential());
		const scope = nock(BASE, { reqheaders: loginHeaders, badheaders: ['authorization'] })
			.post('/v1/login', loginBody)
			.once()
			.reply(200, { message: 'Signed in', status: 200, data: { ...user, token: 'tok-op' } });
		const result = await harness.run(login({ includeToken: true }));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ ...cleanUser, token: 'tok-op' }]);
		expect(harness.credentials.events.logins).toBe(0);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('logs in once per node run: every input item gets the same user', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
		const scope = nock(BASE)
			.post('/v1/login', loginBody)
			.once()
			.reply(200, { message: 'Signed in', status: 200, data: { ...user, token: 'tok-new' } });
		const result = await harness.run({ ...login(), items: [{ a: 1 }, { a: 2 }, { a: 3 }] });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([cleanUser, cleanUser, cleanUser]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it.each([
		['accessToken', { accessToken: 'acc-123456' }, /Email and Password.*Access Token/],
		['apiKey', { apiKey: 'key-123456' }, /Email and Password.*API Key/],
	])('fails in %s mode with a message that says why, without any request', async (mode, extra, pattern) => {
		const harness = new Harness({ baseUrl: BASE, authentication: mode, ...extra });
		const result = await harness.run(login());
		expect(result.error?.message).toMatch(pattern);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.items).toEqual([]);
	});

	it('fails before any request when the credential lacks the password', async () => {
		const harness = new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: '' });
		const result = await harness.run(login());
		expect(result.error?.message).toMatch(/has no Password/);
	});

	it('a wrong password fails with the service\'s message', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
		// the operation's login answers 401: that is the answer, nothing else logs in
		const scope = nock(BASE)
			.post('/v1/login', loginBody)
			.once()
			.reply(401, { error: 'Invalid login or password' });
		const result = await harness.run(login());
		expect(result.error?.message).toMatch(/Login failed: Invalid login or password \(HTTP 401\)/);
		expect(result.error?.message).not.toContain(PASSWORD);
		expect(harness.credentials.events.logins).toBe(0);
		scope.done();
	});

	it('Include Token without a findable token fails naming the keys of data, never values', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-stored' }));
		const scope = nock(BASE)
			.post('/v1/login', loginBody)
			.reply(200, { message: 'ok', status: 200, data: { id: 7, email: EMAIL } });
		const result = await harness.run(login({ includeToken: true }));
		expect(result.error?.message).toMatch(/keys: id, email/);
		expect(result.error?.message).toMatch(/Token Path/);
		expect(result.error?.message).not.toContain(EMAIL);
		scope.done();
	});

	it('with continue on fail, a failed login becomes an error item per input item', async () => {
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: 'acc-123456' });
		const result = await harness.run({ ...login(), items: [{}, {}], onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of result.items) expect(String(item.json.error)).toMatch(/Email and Password/);
	});
});

describe('session.logout', () => {
	it('sends DELETE /v1/logout with the current session token and no body', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-1' }));
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer tok-1', accept: 'application/json' }, badheaders: ['content-type'] })
			.delete('/v1/logout', (body) => body === '' || body === undefined || Object.keys(body as object).length === 0)
			.reply(200, { message: 'Signed out successfully', status: 200 });
		const result = await harness.run(logout);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ loggedOut: true, message: 'Signed out successfully' }]);
		expect(harness.credentials.events.logins).toBe(0);
		scope.done();
	});

	it('login → logout → the next request logs in again and stores the new session', async () => {
		const harness = new Harness(emailCredential());
		let issued = 0;
		const live = new Set<string>();
		const authorized = (header: string | string[] | undefined) => live.has(String(header).replace(/^Bearer /, ''));
		const scope = nock(BASE)
			.persist()
			.post('/v1/login', loginBody)
			.reply(() => {
				issued += 1;
				const token = `tok-${issued}`;
				live.add(token);
				return [200, { message: 'Signed in', status: 200, data: { ...user, token } }];
			})
			.delete('/v1/logout')
			.reply(function () {
				const token = String(this.req.headers.authorization).replace(/^Bearer /, '');
				if (!live.delete(token)) return [401, { message: 'Not authorized', status: 401 }];
				return [200, { message: 'Signed out successfully', status: 200 }];
			})
			.get('/v1/company/api-integrations')
			.reply(function () {
				if (!authorized(this.req.headers.authorization)) return [401, { message: 'Not authorized', status: 401 }];
				return [200, { message: 'ok', status: 200, data: [{ id: 1, value: 'key-one' }] }];
			});

		// 1. Log In: the operation's own login (tok-1), not stored in the credential
		const first = await harness.run(login());
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toEqual(cleanUser);
		expect(harness.credentials.events.logins).toBe(0);

		// 2. A request logs in by itself (tok-2, stored with the credential)
		const keys = await harness.run(listKeys);
		expect(keys.error).toBeUndefined();
		expect(harness.credentials.events.logins).toBe(1);
		expect(harness.credentials.session()).toBe('tok-2');

		// 3. Log Out ends the stored session (tok-2)
		const second = await harness.run(logout);
		expect(second.error).toBeUndefined();
		expect(second.items[0].json).toEqual({ loggedOut: true, message: 'Signed out successfully' });
		expect(live.has('tok-2')).toBe(false);
		expect(harness.credentials.events.logins).toBe(1);

		// 4. The next execution's request meets 401 with tok-2, logs in again (tok-3) and succeeds
		const third = await harness.run(listKeys);
		expect(third.error).toBeUndefined();
		expect(third.items.map((item) => item.json)).toEqual([{ id: 1, value: 'key-one' }]);
		expect(harness.credentials.events.logins).toBe(2);
		expect(harness.credentials.session()).toBe('tok-3');
		expect(issued).toBe(3);
		scope.persist(false);
	});

	it('logs out once per node run, however many input items', async () => {
		const harness = new Harness(emailCredential({ sessionToken: 'tok-1' }));
		const scope = nock(BASE)
			.delete('/v1/logout')
			.once()
			.reply(200, { message: 'Signed out successfully', status: 200 });
		const result = await harness.run({ ...logout, items: [{}, {}, {}] });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.loggedOut)).toEqual([true, true, true]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		scope.done();
	});

	it('with no session in the credential, sends nothing (no login just to log out)', async () => {
		const harness = new Harness(emailCredential());
		const result = await harness.run(logout);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ loggedOut: false, message: 'No session was open, so there was nothing to log out' });
		expect(harness.credentials.events.logins).toBe(0);
	});

	it('in accessToken mode invalidates that token: later requests fail asking for a new one', async () => {
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: 'acc-123456' });
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer acc-123456' } })
			.delete('/v1/logout')
			.reply(200, { message: 'Signed out successfully', status: 200 })
			.get('/v1/company/api-integrations')
			.reply(401, { message: 'Not authorized', status: 401 });
		const out = await harness.run(logout);
		expect(out.error).toBeUndefined();
		expect(out.items[0].json).toEqual({ loggedOut: true, message: 'Signed out successfully' });
		const next = await harness.run(listKeys);
		expect(next.error?.message).toMatch(/access token may have expired or been logged out/);
		expect(harness.credentials.events.logins).toBe(0);
		scope.done();
	});

	it('in apiKey mode fails with a message that says why, without any request', async () => {
		const harness = new Harness({ baseUrl: BASE, authentication: 'apiKey', apiKey: 'key-123456' });
		const result = await harness.run(logout);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/API Key authentication: an API key is not a login session/);
		expect(result.error?.description).toMatch(/API Key → Delete/);
	});
});
