/**
 * The session and transport issue, the items whose exact exchange matters, through n8n's
 * engine against nock (numbers as in the issue). The same behaviour against the sandbox is in
 * test/service/sessionTransport.test.ts and sessionFaults.test.ts.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const PASSWORD = 'S3cret-Passw0rd!';
const CANDIDATE = '/gin/v1/company/candidate';
const envelope = (data: unknown) => ({ message: 'Success', status: 200, data });
const created = (slug: string) => ({ message: 'Created', status: '201', data: { slug } });

function emailPassword(extra: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return { baseUrl: BASE, authentication: 'emailPassword', email: 'alice@acme.test', password: PASSWORD, ...extra };
}

const create = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'create',
	email: 'new@acme.test',
	options: { retryDelayMs: 1, ...options },
});
const update = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: 'slug-1',
	updateFields: { firstName: 'Ada' },
	options: { retryDelayMs: 1, ...options },
});

setUpNock();

describe('1. a new session that ends soon after the login is renewed', () => {
	it('concurrency 1: login, 401 with the fresh token, exactly one re-login, the request retried', async () => {
		const logins = nock(BASE).post('/v1/login').reply(200, envelope({ token: 'tok-1' })).post('/v1/login').reply(200, envelope({ token: 'tok-2' }));
		const first = nock(BASE, { reqheaders: { authorization: 'Bearer tok-1' } }).post(CANDIDATE).reply(401, { message: 'Not authorized', status: 401 });
		const second = nock(BASE, { reqheaders: { authorization: 'Bearer tok-2' } }).post(CANDIDATE).reply(201, created('slug-a'));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create({ concurrency: 1 }) });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.slug).toBe('slug-a');
		expect(harness.credentials.events.logins).toBe(2);
		logins.done();
		first.done();
		second.done();
	});
});

describe('3. a login whose connection is reset is retried', () => {
	it('reset, then a good login: one item, no error', async () => {
		const scope = nock(BASE)
			.post('/v1/login')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.post('/v1/login')
			.reply(200, envelope({ token: 'tok-1' }))
			.post(CANDIDATE)
			.reply(201, created('slug-b'));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create() });
		expect(result.error).toBeUndefined();
		scope.done();
	});
});

describe('4. a rate-limited login honours Retry-After; advice fits the status', () => {
	it('429 with Retry-After: 1 → the next login after about a second', async () => {
		const times: number[] = [];
		const scope = nock(BASE)
			.post('/v1/login')
			.reply(() => {
				times.push(Date.now());
				return [429, { error: 'Too many logins' }, { 'Retry-After': '1' }];
			})
			.post('/v1/login')
			.reply(() => {
				times.push(Date.now());
				return [200, envelope({ token: 'tok-1' })];
			})
			.post(CANDIDATE)
			.reply(201, created('slug-c'));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create({ retryDelayMs: 1 }) });
		expect(result.error).toBeUndefined();
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
		scope.done();
	});

	it('HTTP 429: a login refused for rate limiting is tried again for as long as the run runs (9 refusals with Max Retries 2, then a session)', async () => {
		const scope = nock(BASE)
			.post('/v1/login')
			.times(9)
			.reply(429, { error: 'Too many logins' })
			.post('/v1/login')
			.reply(200, envelope({ token: 'tok-9' }))
			.post(CANDIDATE)
			.reply(201, created('slug-9'));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create({ maxRetries: 2, retryDelayMs: 1 }) });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it.each([
		[500, /service failed \(HTTP 500\).*Try again later/],
		[404, /no login at this address \(HTTP 404\)\. Check the Base URL/],
		[401, /Invalid login or password \(HTTP 401\)\. Check Email and Password/],
	])('HTTP %d', async (status, pattern) => {
		nock(BASE).post('/v1/login').times(3).reply(status, { error: 'Invalid login or password' });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create({ maxRetries: 2, retryDelayMs: status === 429 ? 1 : undefined }) });
		expect(result.error?.message).toMatch(pattern);
		expect(result.error?.message).not.toMatch(status >= 429 ? /Check the Base URL/ : /^$/);
	});

	it('HTTP 200 without a token whose body says status 401: a wrong password, final, not a missing Token Path', async () => {
		const scope = nock(BASE).post('/v1/login').once().reply(200, { error: 'Invalid login or password', status: 401 });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create({ maxRetries: 2 }) });
		expect(result.error?.message).toBe(
			"Login failed: Invalid login or password (HTTP 200, but the answer's status is 401). Check Email and Password in the Recruiting API credential.",
		);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('HTTP 200 without a token whose body says status 503: retried like an HTTP 503', async () => {
		const scope = nock(BASE)
			.post('/v1/login')
			.reply(200, { message: 'Busy', status: 503 })
			.post('/v1/login')
			.reply(200, envelope({ token: 'tok-1' }))
			.post(CANDIDATE)
			.reply(201, created('slug-e'));
		const result = await new Harness(emailPassword()).run({ parameters: create() });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.slug).toBe('slug-e');
		scope.done();
	});
});

describe('8. a creation is repeated only when the answer proves it was not processed', () => {
	const token = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-access' };

	it.each([
		['503 without Retry-After', 503, {}],
		['502', 502, {}],
		['504', 504, {}],
	])('POST, %s: sent once, the item says the record may or may not exist', async (_name, status, headers) => {
		const scope = nock(BASE).post(CANDIDATE).once().reply(status, { message: 'Gateway' }, headers);
		const harness = new Harness(token);
		const result = await harness.run({ parameters: create() });
		expect(result.error?.message).toMatch(new RegExp(`HTTP ${status}.*may or may not have stored it.*not sent again`));
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it.each([
		['503 with Retry-After', 503, { 'Retry-After': '0' }],
		['429', 429, {}],
	])('POST, %s: repeated', async (_name, status, headers) => {
		const scope = nock(BASE).post(CANDIDATE).reply(status, { message: 'Busy' }, headers).post(CANDIDATE).reply(201, created('slug-d'));
		const result = await new Harness(token).run({ parameters: create() });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it('PUT, 503 without Retry-After: repeated (an update is safe to repeat)', async () => {
		const scope = nock(BASE).put(CANDIDATE).reply(503, {}).put(CANDIDATE).reply(200, envelope({ first_name: 'Ada' }));
		const result = await new Harness(token).run({ parameters: update() });
		expect(result.error).toBeUndefined();
		scope.done();
	});
});

describe('a refusal in the body of a 2xx answer (envelope status 400 to 599)', () => {
	const token = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-access' };

	it.each([
		['status 422 (number)', { message: 'The email is invalid', status: 422 }, '422'],
		['status "503" (text)', { message: 'Busy', status: '503' }, '503'],
	])('POST answered HTTP 200 with %s: sent once, fails with that status', async (_name, body, code) => {
		const scope = nock(BASE).post(CANDIDATE).once().reply(200, body);
		const result = await new Harness(token).run({ parameters: create() });
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: code });
		expect(result.error?.message).toContain(`(HTTP 200, but the answer's status is ${code}): ${body.message}`);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('HTTP 201 whose body says status 200 (the API key sample) is a success', async () => {
		const scope = nock(BASE).post('/v1/company/api-integrations').reply(201, { message: 'Created', status: 200, data: { id: 7, value: 'k-7' } });
		const result = await new Harness(token).run({ parameters: { resource: 'apiKey', operation: 'create' } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ id: 7, value: 'k-7' });
		scope.done();
	});
});

describe('14. the answer quoted in an error is redacted', () => {
	it('Create without a slug in the answer: the quoted answer carries no token or password', async () => {
		nock(BASE).post('/v1/login').reply(200, envelope({ token: 'tok-secret-session' }));
		nock(BASE).post(CANDIDATE).reply(201, { message: `echo tok-secret-session ${PASSWORD}`, status: 201, data: {} });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create() });
		expect(result.error?.message).toMatch(/did not return its slug/);
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).toContain('[redacted]');
		expect(text).not.toContain('tok-secret-session');
		expect(text).not.toContain(PASSWORD);
	});
});

describe('redirects are answers, never followed (no follow-redirects wrapper on any request)', () => {
	it('a creation answered 301 fails with the address it points to; nothing is sent there', async () => {
		const target = nock('https://elsewhere.example.test').post(CANDIDATE).reply(201, created('never')).get(CANDIDATE).reply(200, {});
		nock(BASE).post('/v1/login').reply(200, envelope({ token: 'tok-r' }));
		nock(BASE).post(CANDIDATE).reply(301, '', { Location: `https://elsewhere.example.test${CANDIDATE}` });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create() });
		expect(result.error?.message).toBe(
			`The service answered with a redirect (HTTP 301) to https://elsewhere.example.test${CANDIDATE}, which the node does not follow. Set the Base URL in the Recruiting API credential to the address the service answers at (for example https:// instead of http://).`,
		);
		expect(target.isDone()).toBe(false);
	});

	it('a creation answered 303 (See Other may follow a creation) is listed as one whose outcome is unknown', async () => {
		nock(BASE).post('/v1/login').reply(200, envelope({ token: 'tok-r' }));
		nock(BASE).post(CANDIDATE).reply(303, '', { Location: `${BASE}${CANDIDATE}/slug-x` });
		const result = await new Harness(emailPassword()).run({ parameters: create() });
		expect(result.error?.message).toContain('answered with a redirect (HTTP 303)');
		expect(result.error?.description).toContain('Creations under way when it stopped, which the service may or may not have stored (item index): 0');
	});

	it('a login answered 308 fails the login with the same advice, once (not retried)', async () => {
		const login = nock(BASE).post('/v1/login').reply(308, '', { Location: 'https://elsewhere.example.test/v1/login' });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: create() });
		// One login answer only: a second attempt would find no answer and fail otherwise.
		expect(result.error?.message).toContain('Login failed: the service answered with a redirect (HTTP 308) to https://elsewhere.example.test/v1/login');
		login.done();
	});
});
