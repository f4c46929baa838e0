/**
 * Spec audit (service-interface.md), by a reviewer who had not seen the node (2026-11-30): places
 * where the node leaned on something the service description does not promise, or ignored
 * something it does promise. Each test names the sentence it checks. Wire shapes through n8n-core's
 * WorkflowExecute against nock. Nine failed on the code as audited (the reference lists sent with
 * the credential, a list in pages returned as whole, a refusal's reasons dropped, the update's
 * output replaced by an answer that is not the profile, a phone with an extension and a level ID of
 * 0 refused, the API Key test's 404 read only as a wrong Base URL); the others guard what the
 * description promises and no other test pins down.
 */
import nock from 'nock';

import { testCredential } from '../helpers/credentialTest';
import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';

const tokenCredential = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'acc-123456' };
const keyCredential = { baseUrl: BASE, authentication: 'apiKey', apiKey: 'key-6f1c2a9e', apiKeyHeader: 'Authorization' };

const JOB_TYPES = [
	{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
	{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
];

const FAST = { maxRetries: 0, retryDelayMs: 1 };

setUpNock();

describe('spec audit: authentication of the reference lists', () => {
	it('"Reference-list endpoints are called without any credential": Get Job Types with an Access Token credential sends no Authorization header', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE, { badheaders: ['authorization'] })
			.get('/v1/general/job-types')
			.reply(200, { message: 'ok', status: 200, data: JOB_TYPES });
		// Anything that does carry a credential is answered 401 (so the run shows what was sent).
		nock(BASE).get('/v1/general/job-types').reply(401, { message: 'Not authorized', status: 401 });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: FAST } });
		expect(result.error?.message).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(JOB_TYPES);
		scope.done();
	});

	it('"Reference-list endpoints are called without any credential": with an API Key credential whose key the service does not take on /v1 paths (401), Get Job Types still reads the list', async () => {
		const harness = new Harness(keyCredential);
		// A service that checks any credential presented: the key is refused, no credential is fine.
		nock(BASE)
			.get('/v1/general/job-types')
			.times(5)
			.reply(function reply() {
				return this.req.headers.authorization === undefined
					? [200, { message: 'ok', status: 200, data: JOB_TYPES }]
					: [401, { message: 'Not authorized', status: 401 }];
			});
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: FAST } });
		expect(result.error?.message).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(JOB_TYPES);
	});
});

describe('spec audit: pagination of lists', () => {
	it('"Pagination of lists: not shown" (never guess silently): a list of API integrations that announces a next page (Link rel="next", meta.last_page 2) is not returned as if complete', async () => {
		const harness = new Harness(tokenCredential);
		const page1 = [
			{ id: 1, value: '6f1c2a9e-0000-4000-8000-000000000001' },
			{ id: 2, value: '6f1c2a9e-0000-4000-8000-000000000002' },
		];
		const page2 = [{ id: 3, value: '6f1c2a9e-0000-4000-8000-000000000003' }];
		nock(BASE)
			.get('/v1/company/api-integrations')
			.query((query) => query.page === undefined || query.page === '1')
			.reply(
				200,
				{
					message: 'ok',
					status: 200,
					data: page1,
					links: { next: `${BASE}/v1/company/api-integrations?page=2` },
					meta: { current_page: 1, last_page: 2, per_page: 2, total: 3 },
				},
				{ Link: `<${BASE}/v1/company/api-integrations?page=2>; rel="next"` },
			);
		nock(BASE)
			.get('/v1/company/api-integrations')
			.query({ page: '2' })
			.reply(200, { message: 'ok', status: 200, data: page2, meta: { current_page: 2, last_page: 2, per_page: 2, total: 3 } });
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'getAll', options: FAST } });
		// Either every key (the next page followed) or a failure that says the list is incomplete:
		// never the first page returned as the whole list.
		const complete = result.items.length === 3;
		const saidIncomplete = result.error !== undefined;
		expect({ items: result.items.length, completeOrSaidIncomplete: complete || saidIncomplete }).toEqual({
			items: expect.any(Number),
			completeOrSaidIncomplete: true,
		});
	});
});

describe('spec audit: validation failures (not shown)', () => {
	it('"Validation failure responses (missing required fields, unknown user_slug): not shown": an update refused 422 with a plain-text reason shows that reason', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.put('/gin/v1/company/candidate')
			.reply(422, 'user_slug does not belong to this company', { 'Content-Type': 'text/plain; charset=utf-8' });
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { firstName: 'Lena' }, options: FAST },
		});
		scope.done();
		const error = result.error as { message?: string; description?: string | null } | undefined;
		expect(error).toBeDefined();
		expect(`${error?.message ?? ''} ${error?.description ?? ''}`).toContain('user_slug does not belong to this company');
	});

	it('"Validation failure responses ...: not shown": a refusal whose reasons come as a list in "message" (400) shows the reasons', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.post('/gin/v1/company/candidate/job')
			.reply(400, { message: ['start_date must be a valid date', 'company_name should not be empty'], error: 'Bad Request', statusCode: 400 });
		const result = await harness.run({
			parameters: {
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: 'slug-1',
				companyName: 'Acme',
				startDate: '2020-01-01',
				additionalFields: {},
				options: FAST,
			},
		});
		scope.done();
		const error = result.error as { message?: string; description?: string | null } | undefined;
		expect(`${error?.message ?? ''} ${error?.description ?? ''}`).toContain('start_date must be a valid date');
	});
});

describe('spec audit: candidate update answer', () => {
	it('"PUT /gin/v1/company/candidate ... 200, JSON. Response body: not shown": an answer whose data is not the profile (data: {id}) does not replace the fields the output reports as sent', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.put('/gin/v1/company/candidate', { user_slug: 'slug-1', first_name: 'Lena', city: 'Berlin' })
			.reply(200, { message: 'Candidate updated', status: 200, data: { id: 981 } });
		const result = await harness.run({
			parameters: {
				resource: 'candidate',
				operation: 'update',
				candidateSlug: 'slug-1',
				updateFields: { firstName: 'Lena', city: 'Berlin' },
				options: FAST,
			},
		});
		scope.done();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual(expect.objectContaining({ slug: 'slug-1', first_name: 'Lena', city: 'Berlin' }));
	});
});

describe('spec audit: field types the description gives only as "string"', () => {
	it('"phone | string | required if email is missing": a phone number the service takes as a string (with an extension) is sent, not refused by the node', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.post('/gin/v1/company/candidate', { phone: '+1 (555) 123-4567 ext. 89' })
			.reply(201, { message: 'Candidate created', status: '201', data: { slug: 'slug-9' } });
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'create', email: '', phone: '+1 (555) 123-4567 ext. 89', additionalFields: {}, options: FAST },
		});
		expect(result.error?.message).toBeUndefined();
		expect(result.items[0]?.json.slug).toBe('slug-9');
		scope.done();
	});

	it('"language_level_id | integer | proficiency level id" and "Language level catalogue: not shown": a level id of 0 is sent unchanged, not refused by a guessed lower bound', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.post('/gin/v1/company/candidate/language', { user_slug: 'slug-1', language_id: 26, language_level_id: 0 })
			.reply(201, { message: 'Language added', status: 201 });
		const result = await harness.run({
			parameters: { resource: 'candidateLanguage', operation: 'add', candidateSlug: 'slug-1', languageId: 26, languageLevelId: 0, options: FAST },
		});
		expect(result.error?.message).toBeUndefined();
		scope.done();
	});
});

describe('spec audit: guards (pass on the audited code)', () => {
	it('"POST /v1/company/api-integrations ... no body" and "Requests that carry a body send Content-Type": Create API key sends no body and no Content-Type', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer acc-123456' }, badheaders: ['content-type'] })
			.post('/v1/company/api-integrations', (body) => body === '' || body === undefined || (typeof body === 'object' && Object.keys(body as object).length === 0))
			.reply(201, { message: 'created', status: 200, data: { id: 7, value: 'v-7' } });
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'create', options: FAST } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ id: 7, value: 'v-7' });
		scope.done();
	});

	it('"Language skills — The response lists ids 23, 26, 35, 28, 66 first": Get Language Skills keeps the service order and sends lang', async () => {
		const harness = new Harness(tokenCredential);
		const list = [
			{ id: 23, value: 'German' },
			{ id: 26, value: 'English' },
			{ id: 35, value: 'French' },
			{ id: 28, value: 'Spanish' },
			{ id: 66, value: 'Latin' },
			{ id: 1, value: 'Afar' },
		];
		const scope = nock(BASE).get('/v1/general/language-skills').query({ lang: 'en' }).reply(200, { message: 'ok', status: 200, data: list });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getLanguageSkills', lang: 'en', options: FAST } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([23, 26, 35, 28, 66, 1]);
		scope.done();
	});

	it('"Job types ... there is no lang parameter": Get Job Types sends no query', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.get('/v1/general/job-types')
			.query((query) => Object.keys(query).length === 0)
			.reply(200, { message: 'ok', status: 200, data: JOB_TYPES });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: FAST } });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	it('"POST /gin/v1/company/candidate ... status (string)": a create answered with status "201" (text) and HTTP 200 returns the slug', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE)
			.post('/gin/v1/company/candidate', { email: 'lena@example.test', source: 'fair', employee: true })
			.reply(200, { message: 'Employee created successfully', status: '201', data: { slug: '8e0e7c1d-aaaa-4bbb-8ccc-000000000001' } });
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'create', email: 'lena@example.test', phone: '', additionalFields: { source: 'fair', employee: true }, options: FAST },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.slug).toBe('8e0e7c1d-aaaa-4bbb-8ccc-000000000001');
		scope.done();
	});
});

describe('spec audit: the API Key credential test', () => {
	it('"Validation failure responses (missing required fields, unknown user_slug): not shown": a service that answers the slug-less update 404 "Candidate not found" (key accepted): the test\'s message does not say only that the Base URL is wrong (a declarative test cannot tell the two 404s apart)', async () => {
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer key-6f1c2a9e' } })
			.put('/gin/v1/company/candidate')
			.reply(404, { message: 'Candidate not found', status: 404 });
		const result = await testCredential(keyCredential);
		scope.done();
		expect(result.message).toMatch(/Base URL does not point at the recruiting service/);
		expect(result.message).toMatch(/With an API Key.*candidate was not found, it took the key and the credential works/);
	});
});
