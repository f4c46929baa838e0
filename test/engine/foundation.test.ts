/**
 * Credential modes, automatic login, the transport (URL joining, envelope, retries, errors,
 * redaction) and the dropdown loaders, all through n8n's execution engine and nock.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const PASSWORD = 'S3cret-Passw0rd!';
const SESSION = 'tok_9f8e7d6c5b4a39281706';
const INTEGRATION = '5b0e3c1a-1111-4222-8333-944455556666';

const jobTypes = [
	{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
	{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
];
const envelope = (data: unknown) => ({ message: 'Success', status: 200, data });

/** An endpoint that needs a session (the reference lists are read without one when none is held). */
const INTEGRATIONS_PATH = '/v1/company/api-integrations';
const apiKeys = [
	{ id: 1, value: 'key-one' },
	{ id: 2, value: 'key-two' },
];
const listKeys: INodeParameters = { resource: 'apiKey', operation: 'getAll', options: { maxRetries: 2, retryDelayMs: 1 } };

const listJobTypes: INodeParameters = {
	resource: 'referenceList',
	operation: 'getJobTypes',
	options: { maxRetries: 2, retryDelayMs: 1 },
};

function emailPassword(extra: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return { baseUrl: BASE, authentication: 'emailPassword', email: 'alice@acme.test', password: PASSWORD, ...extra };
}

setUpNock();

describe('the four reference lists', () => {
	it.each([
		['getBusinessAreas', '/v1/general/business-areas', { lang: 'en' }],
		['getJobTypes', '/v1/general/job-types', undefined],
		['getLanguageSkills', '/v1/general/language-skills', { lang: 'de' }],
		['getUniversityDegrees', '/v1/general/university-degrees', { lang: 'en' }],
	])('%s sends GET %s with the right query and returns one item per entry', async (operation, path, query) => {
		const data = [
			{ id: 23, value: 'German' },
			{ id: 26, value: 'English' },
		];
		// "Reference-list endpoints are called without any credential": the access token stays home.
		const scope = nock(BASE, { reqheaders: { accept: 'application/json' }, badheaders: ['authorization'] })
			.get(path)
			.query((actual) => {
				expect(actual).toEqual(query ?? {});
				return true;
			})
			.reply(200, envelope(data));
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const parameters: INodeParameters = { resource: 'referenceList', operation };
		if (query) parameters.lang = query.lang;
		const result = await harness.run({ parameters });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(data);
		scope.done();
	});

	it('reads university degrees sent as text/plain holding the JSON envelope', async () => {
		const data = [{ id: 10, value: 'Master of Science' }];
		nock(BASE)
			.get('/v1/general/university-degrees')
			.query({ lang: 'de' })
			.reply(200, JSON.stringify(envelope(data)), { 'Content-Type': 'text/plain' });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getUniversityDegrees' } });
		expect(result.items.map((item) => item.json)).toEqual(data);
	});

	it('joins a base URL with trailing slashes and a path prefix without a double slash', async () => {
		const scope = nock(BASE).get('/api/v1/general/job-types').reply(200, envelope(jobTypes));
		const harness = new Harness({ baseUrl: `${BASE}/api///`, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.items).toHaveLength(2);
		scope.done();
	});

	it('pairs the entries of each input item with that item', async () => {
		nock(BASE).get('/v1/general/job-types').times(2).reply(200, envelope(jobTypes));
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes, items: [{ a: 1 }, { a: 2 }] });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }]);
	});
});

describe('credential modes', () => {
	it('API key mode sends "Authorization: Bearer <key>" by default', async () => {
		const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${INTEGRATION}` } })
			.get(INTEGRATIONS_PATH)
			.reply(200, envelope(apiKeys));
		const harness = new Harness({ baseUrl: BASE, authentication: 'apiKey', apiKey: INTEGRATION });
		await harness.run({ parameters: listKeys });
		scope.done();
		expect(harness.credentials.events.logins).toBe(0);
	});

	it('API key mode sends the bare key in another header, and no Authorization', async () => {
		const scope = nock(BASE, { reqheaders: { 'x-api-key': INTEGRATION }, badheaders: ['authorization'] })
			.get(INTEGRATIONS_PATH)
			.reply(200, envelope(apiKeys));
		const harness = new Harness({ baseUrl: BASE, authentication: 'apiKey', apiKey: INTEGRATION, apiKeyHeader: 'X-API-Key' });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it('e-mail and password mode logs in once, stores the token with the credential and reuses it next run', async () => {
		const login = nock(BASE, { reqheaders: { 'content-type': 'application/json', accept: 'application/json' } })
			.post('/v1/login', { user: { login: 'alice@acme.test', password: PASSWORD } })
			.reply(200, envelope({ id: 7, email: 'alice@acme.test', token: SESSION }));
		const lists = nock(BASE, { reqheaders: { authorization: `Bearer ${SESSION}` } })
			.get(INTEGRATIONS_PATH)
			.times(2)
			.reply(200, envelope(apiKeys));
		const harness = new Harness(emailPassword());
		const first = await harness.run({ parameters: listKeys });
		expect(first.error).toBeUndefined();
		expect(harness.credentials.session()).toBe(SESSION);
		const second = await harness.run({ parameters: listKeys });
		expect(second.items).toHaveLength(2);
		expect(harness.credentials.events.logins).toBe(1);
		login.done();
		lists.done();
	});

	it.each([
		['data.access_token', { body: envelope({ access_token: SESSION }) }],
		['data.user.jwt', { body: envelope({ user: { id: 1, jwt: SESSION } }) }],
		['top-level session_token', { body: { message: 'ok', status: 200, session_token: SESSION, data: { id: 1 } } }],
		['Authorization response header', { body: envelope({ id: 1 }), headers: { Authorization: `Bearer ${SESSION}` } }],
		['X-Auth-Token response header', { body: envelope({ id: 1 }), headers: { 'X-Auth-Token': SESSION } }],
	])('auto-detects the token in %s', async (_place, answer) => {
		nock(BASE).post('/v1/login').reply(200, answer.body, (answer as { headers?: Record<string, string> }).headers);
		const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${SESSION}` } })
			.get(INTEGRATIONS_PATH)
			.reply(200, envelope(apiKeys));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it('takes the token from Token Path when set', async () => {
		nock(BASE).post('/v1/login').reply(200, envelope({ token: 'decoy-token', session: { key: SESSION } }));
		const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${SESSION}` } })
			.get(INTEGRATIONS_PATH)
			.reply(200, envelope(apiKeys));
		const harness = new Harness(emailPassword({ tokenPath: 'data.session.key' }));
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it('a login answer without token names the keys of data, never their values', async () => {
		nock(BASE).post('/v1/login').reply(200, envelope({ id: 7, email: 'alice@acme.test', secretish: 'VALUE-NOT-SHOWN' }));
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/no session token/i);
		expect(result.error?.message).toMatch(/id, email, secretish/);
		expect(result.error?.message).toMatch(/Token Path/);
		expect(JSON.stringify(result.error)).not.toContain('VALUE-NOT-SHOWN');
	});

	it('a wrong e-mail or password shows the service text and never the password', async () => {
		nock(BASE).post('/v1/login').reply(401, { error: 'Invalid login or password' });
		const harness = new Harness(emailPassword());
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message).toContain('Invalid login or password');
		expect(JSON.stringify(result.run)).not.toContain(PASSWORD);
	});

	it('logs in again exactly once after a 401, then repeats the request with the new token', async () => {
		nock(BASE, { reqheaders: { authorization: 'Bearer expired-token' } }).get(INTEGRATIONS_PATH).reply(401, { message: 'Not authorized', status: 401 });
		const login = nock(BASE).post('/v1/login').once().reply(200, envelope({ token: SESSION }));
		nock(BASE, { reqheaders: { authorization: `Bearer ${SESSION}` } }).get(INTEGRATIONS_PATH).reply(200, envelope(apiKeys));
		const harness = new Harness(emailPassword({ sessionToken: 'expired-token' }));
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(harness.credentials.events.logins).toBe(1);
		expect(harness.credentials.session()).toBe(SESSION);
		login.done();
	});

	it('after the user edits the e-mail or password, the old session is not sent: the node logs in with the new values', async () => {
		nock(BASE).post('/v1/login', { user: { login: 'alice@acme.test', password: PASSWORD } }).reply(200, envelope({ token: 'first-session' }));
		nock(BASE, { reqheaders: { authorization: 'Bearer first-session' } }).get(INTEGRATIONS_PATH).reply(200, envelope(apiKeys));
		const harness = new Harness(emailPassword());
		await harness.run({ parameters: listKeys });
		expect(harness.credentials.session()).toBe('first-session');

		// The user switches the credential to another account; the stored session stays behind.
		harness.setCredential({ ...harness.credentials.stored_(), email: 'bob@globex.test' });
		const relogin = nock(BASE).post('/v1/login', { user: { login: 'bob@globex.test', password: PASSWORD } }).reply(200, envelope({ token: 'second-session' }));
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer second-session' } }).get(INTEGRATIONS_PATH).reply(200, envelope(apiKeys));
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		expect(harness.credentials.session()).toBe('second-session');
		expect(harness.credentials.events.logins).toBe(2);
		relogin.done();
		scope.done();
	});

	it('a service that refuses every session of the account: a clear message after five logins, no more (issue 40: logins bounded; each new session was asked and refused, so it ended as far as the node can tell)', async () => {
		const refused = nock(BASE).get(INTEGRATIONS_PATH).times(100).reply(401, { message: 'Not authorized', status: 401 });
		nock(BASE).post('/v1/login').times(10).reply(200, envelope({ token: SESSION }));
		const harness = new Harness(emailPassword({ sessionToken: 'expired-token' }));
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/refused the credentials \(HTTP 401\).*even after logging in again/);
		expect(harness.credentials.events.logins).toBe(5);
		refused.persist(false);
		nock.cleanAll();
	}, 60_000);

	it('an access token that the service rejects says so (the list is asked without it first, then with it)', async () => {
		nock(BASE, { badheaders: ['authorization'] }).get('/v1/general/job-types').reply(401, { message: 'Not authorized', status: 401 });
		nock(BASE, { reqheaders: { authorization: `Bearer ${SESSION}` } }).get('/v1/general/job-types').reply(401, { message: 'Not authorized', status: 401 });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toMatch(/HTTP 401.*Not authorized.*access token may have expired/);
		expect(harness.credentials.events.logins).toBe(0);
	});
});

describe('bad input and bad answers give clear errors, never a TypeError', () => {
	it('a base URL that is not a URL', async () => {
		const harness = new Harness({ baseUrl: 'not a url', authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toMatch(/Base URL "not a url".*is not a URL/);
	});

	it('an unreachable host', async () => {
		nock.enableNetConnect('127.0.0.1');
		const harness = new Harness({ baseUrl: 'http://127.0.0.1:9', authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		nock.disableNetConnect();
		expect(result.error?.message).toMatch(/Could not reach the recruiting service at http:\/\/127\.0\.0\.1:9\. Check the Base URL/);
		expect(result.error?.description).toBe('Network error: ECONNREFUSED');
	});

	it('an HTML page where JSON is expected', async () => {
		nock(BASE).get('/v1/general/job-types').reply(200, '<!doctype html><html><body>Login</body></html>', { 'Content-Type': 'text/html' });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toMatch(/not JSON \(an HTML page\)/);
	});

	it('plain text on a 2xx (the update\'s answer is not shown) is a success whose text is the message', async () => {
		const token = { baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION };
		nock(BASE).put('/gin/v1/company/candidate').reply(200, 'Candidate updated', { 'Content-Type': 'text/plain' });
		nock(BASE).post('/gin/v1/company/candidate/it-skill').reply(201, 'Created', { 'Content-Type': 'text/plain' });
		const harness = new Harness(token);
		const update = await harness.run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { city: 'Berlin' } },
		});
		expect(update.error).toBeUndefined();
		expect(update.items[0].json).toEqual({ slug: 'slug-1', city: 'Berlin', message: 'Candidate updated' });
		const skill = await harness.run({
			parameters: { resource: 'candidateItSkill', operation: 'add', candidateSlug: 'slug-1', skillName: 'SQL', skillLevel: 2 },
		});
		expect(skill.error).toBeUndefined();
		expect(skill.items[0].json).toMatchObject({ slug: 'slug-1', message: 'Created', skill_name: 'SQL' });
	});

	it('plain text where the new candidate\'s slug is expected: the item says the candidate may exist', async () => {
		nock(BASE).post('/gin/v1/company/candidate').once().reply(201, 'Created', { 'Content-Type': 'text/plain' });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: { resource: 'candidate', operation: 'create', email: 'a@example.test' } });
		expect(result.error?.message).toBe('The candidate may have been created, but the service did not return its slug in "data.slug"');
	});

	it('an empty body where a list is expected', async () => {
		nock(BASE).get('/v1/general/job-types').reply(200, '');
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toMatch(/without a list in "data"/);
	});

	it('an error answer carries the HTTP status and the service message', async () => {
		nock(BASE).get('/v1/general/job-types').reply(404, { message: 'Route not found', status: 404 });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toBe('The service found nothing there (HTTP 404): Route not found');
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('404');
	});
});

describe('retries', () => {
	it('honours 429 with Retry-After, then succeeds', async () => {
		nock(BASE).get('/v1/general/job-types').reply(429, { message: 'Slow down' }, { 'Retry-After': '0' });
		nock(BASE).get('/v1/general/job-types').reply(200, envelope(jobTypes));
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.items).toHaveLength(2);
	});

	it('retries 502, 503, 504 and a reset connection on a GET', async () => {
		nock(BASE).get('/v1/general/job-types').reply(502, 'Bad gateway');
		nock(BASE).get('/v1/general/job-types').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		nock(BASE).get('/v1/general/job-types').reply(503, { message: 'Unavailable' });
		nock(BASE).get('/v1/general/job-types').reply(200, envelope(jobTypes));
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({
			parameters: { ...listJobTypes, options: { maxRetries: 3, retryDelayMs: 1 } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
	});

	it('gives up after Max Retries and says so', async () => {
		const scope = nock(BASE).get('/v1/general/job-types').times(3).reply(503, { message: 'Unavailable' });
		const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });
		const result = await harness.run({ parameters: listJobTypes });
		expect(result.error?.message).toBe('The service failed (HTTP 503): Unavailable');
		expect(result.error?.description).toMatch(/after 3 attempts/);
		scope.done();
	});
});

describe('secrets', () => {
	it('never appear in output items, error messages or descriptions', async () => {
		const secrets = [PASSWORD, SESSION, INTEGRATION];
		nock(BASE).post('/v1/login').reply(200, envelope({ token: SESSION }));
		nock(BASE)
			.get('/v1/general/job-types')
			.reply(422, { message: `rejected Bearer ${SESSION} and key ${INTEGRATION}`, token: SESSION, status: 422 });
		const harness = new Harness(emailPassword({ apiKey: INTEGRATION }));
		const result = await harness.run({ parameters: listJobTypes, onError: 'continueRegularOutput' });
		expect(result.items).toHaveLength(1);
		const text = JSON.stringify({
			items: result.items.map((item) => item.json),
			error: result.items[0].error?.message,
			description: result.items[0].error?.description,
			context: result.items[0].error?.context,
		});
		expect(text).toContain('[redacted]');
		for (const secret of secrets) expect(text).not.toContain(secret);
	});
});

describe('dropdown loaders (n8n-core LoadOptionsContext)', () => {
	const harness = new Harness({ baseUrl: BASE, authentication: 'accessToken', accessToken: SESSION });

	it('job types: English name with the German one, id as value', async () => {
		nock(BASE).get('/v1/general/job-types').reply(200, envelope(jobTypes));
		expect(await harness.loadOptions('getJobTypes')).toEqual([
			{ name: 'Internship (Praktikant)', value: 1 },
			{ name: 'Working student (Werkstudent)', value: 2 },
		]);
	});

	it('business areas: every division and every area, "English (German)", value = the German name, whatever the job language', async () => {
		nock(BASE)
			.get('/v1/general/business-areas')
			.query({ lang: 'en' })
			.reply(200, envelope([{ id: 1, name: 'Purchasing & Sales', area: [{ id: 3, name: 'Sales' }] }]));
		nock(BASE)
			.get('/v1/general/business-areas')
			.query({ lang: 'de' })
			.reply(200, envelope([{ id: 1, name: 'Einkauf & Vertrieb', area: [{ id: 3, name: 'Vertrieb' }] }]));
		const options = await harness.loadOptions('getBusinessAreas', { additionalFields: { lang: 'en' } });
		expect(options).toEqual([
			{ name: 'Purchasing & Sales (Einkauf & Vertrieb)', value: 'Einkauf & Vertrieb', description: 'Division' },
			{
				name: 'Purchasing & Sales (Einkauf & Vertrieb) › Sales (Vertrieb)',
				value: 'Vertrieb',
				description: 'Area of Purchasing & Sales (Einkauf & Vertrieb)',
			},
		]);
	});

	it('languages and degrees: English, with the German name where it differs', async () => {
		nock(BASE).get('/v1/general/language-skills').query({ lang: 'en' }).reply(200, envelope([{ id: 23, value: 'German' }, { id: 139, value: 'Luxembourgish' }]));
		nock(BASE).get('/v1/general/language-skills').query({ lang: 'de' }).reply(200, envelope([{ id: 23, value: 'German' }, { id: 139, value: 'Luxemburgisch' }]));
		nock(BASE).get('/v1/general/university-degrees').query({ lang: 'en' }).reply(200, envelope([{ id: 2, value: 'Bachelor of Science' }]));
		nock(BASE).get('/v1/general/university-degrees').query({ lang: 'de' }).reply(200, envelope([{ id: 2, value: 'Bachelor of Science' }]));
		expect(await harness.loadOptions('getLanguages')).toEqual([
			{ name: 'German', value: 23 },
			{ name: 'Luxembourgish (Luxemburgisch)', value: 139 },
		]);
		expect(await harness.loadOptions('getUniversityDegrees')).toEqual([{ name: 'Bachelor of Science', value: 2 }]);
	});

	it('a failing loader gives a readable message', async () => {
		nock(BASE).get('/v1/general/job-types').times(2).reply(500, '<html>oops</html>');
		await expect(harness.loadOptions('getJobTypes')).rejects.toThrow(
			'Could not load the list from the recruiting service: The service failed (HTTP 500) (its answer was not JSON)',
		);
	});
});
