/**
 * Issue 21 (review findings), the items about secrets, causes and classification, through n8n's
 * engine against nock. Numbered as in the issue; each failed before its fix.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const ECHOED = 'tok-4711-abcdef-echoed';
const PASSWORD = 'S3cret-Passw0rd!';
const envelope = (data: unknown) => ({ message: 'Success', status: 200, data });
const created = (slug: string) => ({ message: 'Created', status: '201', data: { slug } });

const tokenCredential = (accessToken = ECHOED): ICredentialDataDecryptedObject => ({ baseUrl: BASE, authentication: 'accessToken', accessToken });
const emailPassword = (): ICredentialDataDecryptedObject => ({ baseUrl: BASE, authentication: 'emailPassword', email: 'alice@acme.test', password: PASSWORD });

const FAST = { retryDelayMs: 1 };

setUpNock();

describe('issue 21 item 1: a 2xx answer that echoes a secret reaches no output item', () => {
	const update: INodeParameters = { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { city: 'Berlin' }, options: FAST };

	it('Update answered in plain text that repeats the access token', async () => {
		nock(BASE).put(CANDIDATE).reply(200, `updated with token ${ECHOED}`, { 'Content-Type': 'text/plain' });
		const result = await new Harness(tokenCredential()).run({ parameters: update });
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.items)).not.toContain(ECHOED);
		expect(result.items[0].json.message).toContain('[redacted]');
	});

	it('Update answered with JSON whose message and data repeat it', async () => {
		nock(BASE)
			.put(CANDIDATE)
			.reply(200, { message: `ok ${ECHOED}`, status: 200, data: { note: `session=${ECHOED}`, list: [ECHOED] } });
		const result = await new Harness(tokenCredential()).run({ parameters: update });
		expect(JSON.stringify(result.items)).not.toContain(ECHOED);
	});

	it('a record Add whose answer repeats the password of the login', async () => {
		nock(BASE)
			.post('/v1/login')
			.reply(200, envelope({ token: ECHOED }))
			.post(`${CANDIDATE}/it-skill`)
			.reply(200, { message: `added for alice / ${PASSWORD}`, status: 201 });
		const result = await new Harness(emailPassword()).run({
			parameters: { resource: 'candidateItSkill', operation: 'add', candidateSlug: 'slug-1', skillName: 'SQL', skillLevel: 3, options: FAST },
		});
		expect(result.error).toBeUndefined();
		const text = JSON.stringify(result.items);
		expect(text).not.toContain(PASSWORD);
		expect(text).not.toContain(ECHOED);
	});

	it('API Key → Create still returns the key it was asked for', async () => {
		nock(BASE).post('/v1/company/api-integrations').reply(200, envelope({ id: 7, value: ECHOED }));
		const result = await new Harness(tokenCredential()).run({ parameters: { resource: 'apiKey', operation: 'create', options: FAST } });
		expect(result.items[0].json).toEqual({ id: 7, value: ECHOED });
	});
});

describe('issue 21 item 2: Log In drops the token where the answer repeats it inside another string', () => {
	it('authorization: Bearer <token> and cookie: sid=<token> are redacted', async () => {
		nock(BASE)
			.post('/v1/login')
			.times(2)
			.reply(200, envelope({ name: 'Alice', token: ECHOED, authorization: `Bearer ${ECHOED}`, cookie: `sid=${ECHOED}; Path=/`, nested: { header: `X ${ECHOED} Y` } }));
		const result = await new Harness(emailPassword()).run({ parameters: { resource: 'session', operation: 'login', options: FAST } });
		expect(result.error).toBeUndefined();
		const user = result.items[0].json;
		expect(JSON.stringify(user)).not.toContain(ECHOED);
		expect(user.name).toBe('Alice');
		expect(user.cookie).toBe('sid=[redacted]; Path=/');
	});
});

describe('issue 21 item 3: a description is redacted before it is cut', () => {
	it("a token straddling Create's 500-character cut leaves no part behind", async () => {
		// JSON.stringify of the body puts the token at characters 490-512 of the description's answer.
		const filler = 'x'.repeat(490 - JSON.stringify({ message: '' }).length + 1);
		nock(BASE).post(CANDIDATE).reply(201, { message: `${filler}${ECHOED}`, status: 201, data: {} });
		const result = await new Harness(tokenCredential()).run({ parameters: { resource: 'candidate', operation: 'create', email: 'a@b.test', options: FAST } });
		expect(result.error?.message).toMatch(/did not return its slug/);
		const description = String(result.error?.description);
		for (let length = 6; length <= ECHOED.length; length++) expect(description).not.toContain(ECHOED.slice(0, length));
	});

	it('a secret with quotes and backslashes is found in its JSON-escaped form', async () => {
		const key = 'k"ey\\with-quote';
		nock(BASE).post(CANDIDATE).reply(201, { message: `key was ${key}`, status: 201, data: {} });
		const result = await new Harness({ baseUrl: BASE, authentication: 'apiKey', apiKey: key, apiKeyHeader: 'X-API-Key' }).run({
			parameters: { resource: 'candidate', operation: 'create', email: 'a@b.test', options: FAST },
		});
		const description = String(result.error?.description);
		expect(description).toContain('[redacted]');
		expect(description).not.toContain(JSON.stringify(key).slice(1, -1));
	});
});

describe('issue 21 item 5: cancelling while creations are in flight', () => {
	it('the cut-off creations say they may exist; the run lists them with the created candidates', async () => {
		nock(BASE).post(CANDIDATE).reply(201, created('slug-0'));
		nock(BASE).post(CANDIDATE).times(2).delay(3000).reply(201, created('late'));
		const result = await new Harness(tokenCredential()).run({
			parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', options: { ...FAST, concurrency: 2 } },
			items: [{ email: 'a0@b.test' }, { email: 'a1@b.test' }, { email: 'a2@b.test' }],
			onStart: (execution) => {
				void sleep(500).then(() => execution.cancel());
			},
		});
		const description = String(result.error?.description);
		expect(description).toContain('item 0: slug-0');
		expect(description).toMatch(/may or may not have stored \(item index\): 1, 2/);
	});
});

describe('issue 21 item 8: Stop Workflow with Import and Fail Item on Record Error names the real cause', () => {
	it("another item's 'not sent: the run is stopping' record is not the cause", async () => {
		nock(BASE)
			.post(CANDIDATE, (body: IDataObject) => body.email === 'ok@b.test')
			.reply(201, created('slug-ok'))
			.put(CANDIDATE)
			.delay(300)
			.reply(200, { message: 'updated', status: 200 });
		nock(BASE)
			.post(CANDIDATE, (body: IDataObject) => body.email === 'refused@b.test')
			.delay(100)
			.reply(422, { message: 'E-mail refused by the service', status: 422 });
		const result = await new Harness(tokenCredential()).run({
			parameters: {
				resource: 'candidate',
				operation: 'import',
				email: '={{ $json.email }}',
				additionalFields: { city: 'Berlin' },
				recordInput: 'fields',
				itSkills: { itSkill: [{ skillName: 'SQL', skillLevel: 3 }] },
				options: { ...FAST, concurrency: 2, failOnRecordError: true },
			},
			items: [{ email: 'ok@b.test' }, { email: 'refused@b.test' }],
		});
		expect(result.error?.message).toMatch(/E-mail refused by the service/);
		expect(result.error?.description).toContain('item 0: slug-ok');
	});
});

describe('issue 21 item 9: a token or key with a character HTTP headers cannot carry', () => {
	it.each([
		['a zero-width space', 'tok\u200Bwith-zws'],
		['an ellipsis', 'tok…cut'],
	])('an access token with %s fails before sending, naming the field (not a network error)', async (_case, accessToken) => {
		const result = await new Harness(tokenCredential(accessToken)).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 's', updateFields: { city: 'X' }, options: FAST },
		});
		expect(result.error?.message).toMatch(/Access Token in the Recruiting API credential contains .* cannot carry/);
		expect(result.error?.message).not.toMatch(/may or may not|network/i);
		expect(nock.pendingMocks()).toHaveLength(0);
	});

	it('the same for an API key', async () => {
		const result = await new Harness({ baseUrl: BASE, authentication: 'apiKey', apiKey: 'key\u200B1' }).run({
			parameters: { resource: 'candidate', operation: 'create', email: 'a@b.test', options: FAST },
		});
		expect(result.error?.message).toMatch(/API Key in the Recruiting API credential contains .*U\+200B/);
	});
});

describe('issue 21 item 10: Max Requests per Second = 1 with an empty session', () => {
	it('the login and the first request leave one interval apart', async () => {
		const times: Record<string, number> = {};
		nock(BASE)
			.post('/v1/login')
			.reply(() => {
				times.login = Date.now();
				return [200, envelope({ token: ECHOED })];
			})
			.post(CANDIDATE)
			.reply(() => {
				times.create = Date.now();
				return [201, created('slug-1')];
			});
		const result = await new Harness(emailPassword()).run({
			parameters: { resource: 'candidate', operation: 'create', email: 'a@b.test', options: { ...FAST, requestsPerSecond: 1 } },
		});
		expect(result.error).toBeUndefined();
		expect(times.create - times.login).toBeGreaterThanOrEqual(900);
	});
});

describe('issue 21 item 11: a Retry-After wait ends when the run stops', () => {
	it("after another item's failure the run does not wait out a 30 s Retry-After", async () => {
		const retried = nock(BASE)
			.put(CANDIDATE, (body: IDataObject) => body.user_slug === 'busy')
			.reply(429, { message: 'slow down', status: 429 }, { 'Retry-After': '30' })
			.put(CANDIDATE, (body: IDataObject) => body.user_slug === 'busy')
			.reply(200, { message: 'updated', status: 200 });
		nock(BASE)
			.put(CANDIDATE, (body: IDataObject) => body.user_slug === 'gone')
			.delay(200)
			.reply(404, { message: 'Candidate not found', status: 404 });
		const started = Date.now();
		const result = await new Harness(tokenCredential()).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: '={{ $json.slug }}', updateFields: { city: 'X' }, options: { concurrency: 2 } },
			items: [{ slug: 'busy' }, { slug: 'gone' }],
		});
		expect(result.error?.message).toMatch(/Candidate not found/);
		// Far under the 30 s it would take to wait them out, on any machine.
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(retried.pendingMocks()).toHaveLength(1);
	});
});

describe('issue 21, also looked at: a stale stored token on the reference lists', () => {
	it('the list is read without the stored session (the description calls the lists "without any credential"): no login, so a stale token or a wrong password does not break it', async () => {
		const list = [{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' }];
		const stale = nock(BASE, { reqheaders: { authorization: 'Bearer tok-stale' } }).get('/v1/general/job-types').reply(401, { message: 'Not authorized', status: 401 });
		const anonymous = nock(BASE, { badheaders: ['authorization'] }).get('/v1/general/job-types').reply(200, envelope(list));
		const harness = new Harness({ ...emailPassword(), password: 'wrong', sessionToken: 'tok-stale' });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: FAST } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(list);
		expect(harness.credentials.events.logins).toBe(0);
		expect(stale.isDone()).toBe(false);
		anonymous.done();
		nock.cleanAll();
	});
});

describe('issue 21, also looked at: a token the lists refuse while the candidate requests accept it', () => {
	it('a job type resolved by name after a creation: the list is read without the session, no login', async () => {
		const list = [{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' }];
		nock(BASE, { reqheaders: { authorization: 'Bearer tok-stored' } })
			.post(CANDIDATE)
			.reply(201, created('slug-1'))
			.get('/v1/general/job-types')
			.reply(401, { message: 'Not authorized', status: 401 })
			.post(`${CANDIDATE}/job`)
			.reply(200, { message: 'added', status: 201 });
		nock(BASE, { badheaders: ['authorization'] }).get('/v1/general/job-types').reply(200, envelope(list));
		const harness = new Harness({ ...emailPassword(), password: 'wrong', sessionToken: 'tok-stored' });
		const result = await harness.run({
			parameters: {
				resource: 'candidate',
				operation: 'import',
				email: 'a@b.test',
				recordInput: 'fields',
				jobs: { job: [{ companyName: 'Acme', startDate: '2020-01-01', additionalFields: { jobTypeId: 'Internship' } }] },
				options: FAST,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.summary).toEqual({ records: 1, added: 1, failed: 0 });
		expect(harness.credentials.events.logins).toBe(0);
	});
});

describe("issue 21, also looked at: list elements are output as answered", () => {
	it('an element with a "json" field keeps its other fields; a null element becomes { value: null }', async () => {
		nock(BASE).get('/v1/general/university-degrees').query(true).reply(200, envelope([{ id: 1, value: 'Bachelor', json: 'x' }, null]));
		const result = await new Harness(tokenCredential()).run({ parameters: { resource: 'referenceList', operation: 'getUniversityDegrees', options: FAST } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ id: 1, value: 'Bachelor', json: 'x' }, { value: null }]);
		expect(result.items.every((item) => item.pairedItem !== undefined)).toBe(true);
	});
});
