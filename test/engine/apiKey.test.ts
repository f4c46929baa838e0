import nock from 'nock';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const PATH = '/v1/company/api-integrations';

const keys = [
	{ id: 1, value: '6f1c2a9e-0000-4000-8000-000000000001' },
	{ id: 2, value: '6f1c2a9e-0000-4000-8000-000000000002' },
];

const tokenCredential = { baseUrl: `${BASE}/`, authentication: 'accessToken', accessToken: 'acc-123456' };

const params = (operation: string, extra: Record<string, unknown> = {}) => ({
	parameters: { resource: 'apiKey', operation, options: { maxRetries: 0 }, ...extra },
});

setUpNock();

describe('apiKey.getAll', () => {
	it('GETs the integrations with the bearer token and outputs one item per key (id, value)', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE, {
			reqheaders: { authorization: 'Bearer acc-123456', accept: 'application/json' },
			badheaders: ['content-type'],
		})
			.get(PATH)
			.reply(200, { message: 'ok', status: 200, data: keys.map((key) => ({ ...key, company_id: 3 })) });
		const result = await harness.run(params('getAll'));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(keys);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		scope.done();
	});

	it('logs in first with e-mail and password, then sends the session token', async () => {
		const harness = new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: 'a@example.test', password: 'pw-123456' });
		const scope = nock(BASE)
			.post('/v1/login')
			.reply(200, { message: 'ok', status: 200, data: { id: 1, token: 'tok-1' } })
			.get(PATH)
			.matchHeader('authorization', 'Bearer tok-1')
			.reply(200, { message: 'ok', status: 200, data: keys });
		const result = await harness.run(params('getAll'));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(keys);
		expect(harness.credentials.events.logins).toBe(1);
		scope.done();
	});

	it('an empty list gives no items', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE).get(PATH).reply(200, { message: 'ok', status: 200, data: [] });
		const result = await harness.run(params('getAll'));
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		scope.done();
	});

	it.each([
		['data: null (how a Go service sends an empty list)', { message: 'ok', status: 200, data: null }],
		['no data field', { message: 'ok', status: 200 }],
	])('an empty list as %s gives no items', async (_name, body) => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE).get(PATH).reply(200, body);
		const result = await harness.run(params('getAll'));
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		scope.done();
	});

	it('an answer without a data array is an error', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE).get(PATH).reply(200, { message: 'ok', status: 200, data: { id: 1 } });
		const result = await harness.run(params('getAll'));
		expect(result.error?.message).toMatch(/without a list in "data"/);
		scope.done();
	});
});

describe('apiKey.create', () => {
	it('POSTs without a body and outputs the new key id and value', async () => {
		const harness = new Harness(tokenCredential);
		let body: unknown = 'not called';
		const scope = nock(BASE, {
			reqheaders: { authorization: 'Bearer acc-123456', accept: 'application/json' },
			badheaders: ['content-type'],
		})
			.post(PATH)
			.reply(201, (_uri, requestBody) => {
				body = requestBody;
				return { message: 'API integration created successfully', status: 200, data: { id: 5, value: 'new-key-value' } };
			});
		const result = await harness.run(params('create'));
		expect(result.error).toBeUndefined();
		expect(body).toBe('');
		expect(result.items.map((item) => item.json)).toEqual([{ id: 5, value: 'new-key-value' }]);
		scope.done();
	});

	it('without authorization fails with the service\'s message', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE).post(PATH).reply(401, { message: 'You are not authorized', status: 401 });
		const result = await harness.run(params('create'));
		expect(result.error?.message).toMatch(/You are not authorized/);
		expect(result.error?.message).not.toContain('acc-123456');
		scope.done();
	});

	it('without authorization after logging in again (a fresh session refused too) fails with the service\'s message after one login (issue 40: logins bounded per request)', async () => {
		const harness = new Harness({
			baseUrl: BASE,
			authentication: 'emailPassword',
			email: 'a@example.test',
			password: 'pw-123456',
			sessionToken: 'tok-old',
		});
		const scope = nock(BASE)
			.post(PATH)
			.matchHeader('authorization', 'Bearer tok-old')
			.reply(401, { message: 'You are not authorized', status: 401 })
			.post('/v1/login')
			.reply(200, { message: 'ok', status: 200, data: { token: 'tok-new' } })
			.post(PATH)
			.matchHeader('authorization', 'Bearer tok-new')
			.reply(401, { message: 'You are not authorized', status: 401 });
		const result = await harness.run(params('create'));
		expect(result.error?.message).toMatch(/You are not authorized/);
		expect(harness.credentials.events.logins).toBe(1);
		scope.done();
	});

	it('an answer without the new key is an error', async () => {
		const harness = new Harness(tokenCredential);
		const scope = nock(BASE).post(PATH).reply(201, { message: 'created', status: 200 });
		const result = await harness.run(params('create'));
		expect(result.error?.message).toMatch(/without an API integration/);
		scope.done();
	});
});

describe('apiKey.delete', () => {
	/** Records the exact path of every DELETE the service sees. */
	function recordDeletes(status = 200) {
		const seen: string[] = [];
		const scope = nock(BASE, { reqheaders: { authorization: 'Bearer acc-123456' }, badheaders: ['content-type'] })
			.persist()
			.delete((uri) => uri.startsWith(`${PATH}/`))
			.reply(status, function () {
				seen.push(this.req.path);
				return status === 200 ? { message: 'API integration deleted successfully', status: 200 } : { message: 'API integration not found', status: 404 };
			});
		return { seen, scope };
	}

	it('DELETEs the key by id and outputs { deleted: true, id }', async () => {
		const harness = new Harness(tokenCredential);
		const { seen } = recordDeletes();
		const result = await harness.run(params('delete', { apiKeyId: '12' }));
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([`${PATH}/12`]);
		expect(result.items.map((item) => item.json)).toEqual([{ deleted: true, id: 12 }]);
	});

	it('takes the id per item (expressions), surrounding spaces trimmed', async () => {
		const harness = new Harness(tokenCredential);
		const { seen } = recordDeletes();
		const result = await harness.run({
			...params('delete', { apiKeyId: '={{ $json.key }}' }),
			items: [{ key: 3 }, { key: ' 4 ' }],
		});
		expect(result.error).toBeUndefined();
		expect([...seen].sort()).toEqual([`${PATH}/3`, `${PATH}/4`]);
		expect(result.items.map((item) => item.json)).toEqual([
			{ deleted: true, id: 3 },
			{ deleted: true, id: 4 },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it.each([
		['../login', '..%2Flogin'],
		['a/b', 'a%2Fb'],
		['%2e%2e', '%252e%252e'],
		['%2E%2E/login', '%252E%252E%2Flogin'],
		['a b', 'a%20b'],
		['.%2e', '.%252e'],
		['...', '...'],
		['x?y#z', 'x%3Fy%23z'],
		['a\\b', 'a%5Cb'],
	])('the hostile id %j stays one encoded path segment', async (id, segment) => {
		const harness = new Harness(tokenCredential);
		const { seen } = recordDeletes();
		const result = await harness.run(params('delete', { apiKeyId: id }));
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([`${PATH}/${segment}`]);
		expect(result.items[0].json).toEqual({ deleted: true, id });
	});

	it.each([
		// an empty literal is a workflow issue n8n refuses to run; an expression can still yield it
		['={{ "" }}', /API Key ID is empty/],
		['   ', /API Key ID is empty/],
		['={{ null }}', /API Key ID is empty/],
		['.', /"\." is not an API Key ID/],
		['..', /"\.\." is not an API Key ID/],
		[' .. ', /"\.\." is not an API Key ID/],
	])('refuses the id %j before sending anything', async (id, pattern) => {
		const harness = new Harness(tokenCredential);
		const { seen } = recordDeletes();
		const result = await harness.run(params('delete', { apiKeyId: id }));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(pattern);
		expect(seen).toEqual([]);
	});

	it('an unknown id (404) fails with a clear error that does not echo the id (a password field)', async () => {
		const harness = new Harness(tokenCredential);
		const { seen } = recordDeletes(404);
		const result = await harness.run(params('delete', { apiKeyId: '99' }));
		expect(seen).toEqual([`${PATH}/99`]);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('No API key with this ID was found (HTTP 404)');
		expect(`${result.error?.message} ${result.error?.description}`).not.toContain('99');
		expect(result.error?.description).toMatch(/Get Many lists the existing IDs/);
	});

	it('with continue on fail, bad ids become error items and good ones are deleted', async () => {
		const harness = new Harness(tokenCredential);
		const seen: string[] = [];
		nock(BASE)
			.persist()
			.delete((uri) => uri.startsWith(`${PATH}/`))
			.reply(function () {
				seen.push(this.req.path);
				return this.req.path.endsWith('/7')
					? [200, { message: 'deleted', status: 200 }]
					: [404, { message: 'API integration not found', status: 404 }];
			});
		const result = await harness.run({
			...params('delete', { apiKeyId: '={{ $json.key }}' }),
			items: [{ key: 7 }, { key: '' }, { key: 'gone' }],
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.error ?? item.json)).toEqual([
			{ deleted: true, id: 7 },
			expect.stringMatching(/API Key ID is empty/),
			'No API key with this ID was found (HTTP 404)',
		]);
		expect([...seen].sort()).toEqual([`${PATH}/7`, `${PATH}/gone`]);
	});
});
