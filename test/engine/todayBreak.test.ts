/**
 * Review of the change "reference lists without the credential, lists in pages, a refusal's
 * reasons shown, a login rate limit waited out": through n8n's engine (WorkflowExecute) against nock.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep, sleepWithAbort } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { upsertParameters } from '../helpers/upsert';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const TOKEN = ['tok-', 'QvX82mPLa0', 'hJ4kR9sTu7', 'WcZ3yBnE5f'].join('');
const accessToken: ICredentialDataDecryptedObject = { baseUrl: BASE, authentication: 'accessToken', accessToken: TOKEN };
const outputs = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);
const created = (slug: string) => ({ message: 'Created', status: '201', data: { slug } });

setUpNock();

describe('finding: a 5xx whose body starts with "{" but is not JSON (a cut answer) overflows the stack', () => {
	const CUT = '{"error": "upstream request timeout'; // a gateway that cut the service's JSON answer

	it('Candidate Create answered 502 with a cut JSON text: the item fails with the 502 and "may or may not have stored it", not "Maximum call stack size exceeded"', async () => {
		nock(BASE).post(CANDIDATE).reply(502, CUT, { 'Content-Type': 'text/plain' });
		const result = await new Harness(accessToken).run({
			parameters: { resource: 'candidate', operation: 'create', email: 'cut@example.test', additionalFields: {}, options: { retryDelayMs: 1, maxRetries: 0 } },
			onError: 'continueRegularOutput',
		});
		const error = String(outputs(result)[0]?.error);
		expect(error).not.toMatch(/call stack/);
		expect(error).toMatch(/HTTP 502/);
		expect(error).toMatch(/may or may not have stored it/);
	});

	it('Create or Update: the creation answered 502 with a cut JSON text may exist, so the next run does not create the candidate again', async () => {
		const harness = new Harness(accessToken);
		const row = { email: 'cut-twice@example.test', city: 'Berlin' };
		const parameters: INodeParameters = upsertParameters({ options: { retryDelayMs: 1, maxRetries: 1, concurrency: 4 } }, { city: '={{ $json.city }}' });
		nock(BASE).post(CANDIDATE).reply(502, CUT, { 'Content-Type': 'text/plain' });
		const first = await harness.run({ parameters, items: [row], onError: 'continueRegularOutput' });
		const firstError = String(outputs(first)[0]?.error);
		const again = nock(BASE).post(CANDIDATE).reply(201, created('slug-second'));
		nock(BASE).put(CANDIDATE).reply(200, { message: 'Updated', status: 200 });
		const second = await harness.run({ parameters, items: [row], onError: 'continueRegularOutput' });
		const line = `first run: "${firstError.slice(0, 80)}"; second run: creation sent again: ${again.isDone()}, output ${JSON.stringify(outputs(second)[0]).slice(0, 120)}`;
		expect({ line, createdTwice: again.isDone() }).toEqual({ line, createdTwice: false });
	});
});

describe('finding: a refusal\'s text is cut at 500 characters BEFORE it is redacted: a secret across the cut leaks its first characters', () => {
	it('an update refused 422 whose reasons (by field) end with the access token echoed: no part of the token in the error', async () => {
		// The reasons the service lists for each field, then the header it took (as some frameworks echo the request).
		const errors: IDataObject = {
			email: ['The email must be a valid email address.'.padEnd(200, '.')],
			zip_code: ['The zip code must be 5 digits.'.padEnd(212, '.')],
			credential: [`The token ${TOKEN} may not update this candidate.`],
		};
		nock(BASE).put(CANDIDATE).reply(422, { message: 'The given data was invalid.', status: 422, errors });
		const result = await new Harness(accessToken).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { city: 'Berlin' }, options: { retryDelayMs: 1 } },
			onError: 'continueRegularOutput',
		});
		const json = outputs(result)[0] ?? {};
		const shown = `${String(json.error)} ${String(json.errorDescription ?? '')}`;
		const leaked = [...Array(TOKEN.length).keys()].map((n) => TOKEN.slice(0, TOKEN.length - n)).find((prefix) => prefix.length >= 8 && shown.includes(prefix)) ?? '';
		expect({ leaked, tail: shown.slice(-60) }).toEqual({ leaked: '', tail: shown.slice(-60) });
	});

	it('the same in plain text (a refusal answered text/plain): no part of the token in the error', async () => {
		const text = `${'Validation failed: '.padEnd(470, '-')} token ${TOKEN} refused`;
		nock(BASE).put(CANDIDATE).reply(400, text, { 'Content-Type': 'text/plain' });
		const result = await new Harness(accessToken).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { city: 'Berlin' }, options: { retryDelayMs: 1 } },
			onError: 'continueRegularOutput',
		});
		const shown = String(outputs(result)[0]?.error);
		const leaked = [...Array(TOKEN.length).keys()].map((n) => TOKEN.slice(0, TOKEN.length - n)).find((prefix) => prefix.length >= 8 && shown.includes(prefix)) ?? '';
		expect({ leaked, tail: shown.slice(-60) }).toEqual({ leaked: '', tail: shown.slice(-60) });
	});
});

describe('lists in pages: a next link that never ends', () => {
	const PATH = '/v1/company/api-integrations';
	it('an offset pagination that always gives "next" (empty pages after the last entries): Get Many returns the 4 keys after a few requests, not 1000 requests and a failure', async () => {
		let requests = 0;
		nock(BASE)
			.persist()
			.get(PATH)
			.query(true)
			.reply((uri) => {
				requests += 1;
				const offset = Number(new URL(uri, BASE).searchParams.get('offset') ?? '0');
				const data = offset < 4 ? [{ id: offset + 1, value: `key-${offset + 1}` }, { id: offset + 2, value: `key-${offset + 2}` }] : [];
				return [200, { status: 200, data, next: `${BASE}${PATH}?offset=${offset + 2}&limit=2` }];
			});
		const result = await new Harness(accessToken).run({ parameters: { resource: 'apiKey', operation: 'getAll', options: { retryDelayMs: 1, maxRetries: 0 } } });
		const line = `${requests} requests, ${result.items.length} items, error: ${result.error?.message ?? 'none'}`;
		expect({ line, requests: Math.min(requests, 10), error: result.error?.message }).toEqual({ line, requests: Math.min(requests, 10), error: undefined });
		expect(requests).toBeLessThanOrEqual(10);
	}, 120_000);
});

describe('held? a stop while a login waits on a 429', () => {
	it('login always answered 429 with Retry-After 30: the run waits; Stop Execution after 1.5 s ends it within a fraction of a second', async () => {
		let logins = 0;
		nock(BASE)
			.persist()
			.post('/v1/login')
			.reply(() => {
				logins += 1;
				return [429, { message: 'Too many logins', status: 429 }, { 'Retry-After': '30' }];
			});
		let execution: { cancel(): void } | undefined;
		let cancelledAt = 0;
		const stop = new AbortController();
		void sleepWithAbort(1500, stop.signal)
			.then(() => {
				cancelledAt = Date.now();
				execution?.cancel();
			})
			.catch(() => undefined);
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: 'r@example.test', password: ['pw', '-today-', '42'].join('') }).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 'slug-1', updateFields: { city: 'Berlin' }, options: { retryDelayMs: 100 } },
			onStart: (running) => (execution = running),
		});
		stop.abort();
		const ended = Date.now();
		await sleep(10);
		expect(cancelledAt).toBeGreaterThan(0);
		expect({ logins, endedAfterStopMs: Math.min(ended - cancelledAt, 1000) }).toEqual({ logins: 1, endedAfterStopMs: expect.any(Number) });
		expect(ended - cancelledAt).toBeLessThan(1000);
		expect(result.items).toHaveLength(0);
	}, 60_000);
});

describe('reference lists: a 401 without the credential, with an Access Token', () => {
	it('the list is asked again with the token, once, and read', async () => {
		const seen: string[] = [];
		nock(BASE)
			.persist()
			.get('/v1/general/job-types')
			.reply(function () {
				const auth = String(this.req.headers.authorization ?? '');
				seen.push(auth === '' ? 'none' : auth.includes(TOKEN) ? 'token' : 'other');
				return auth.includes(TOKEN) ? [200, { message: 'ok', status: 200, data: [{ id: 1, name_ger: 'Praktikum', name_eng: 'Internship' }] }] : [401, { message: 'Not authorized', status: 401 }];
			});
		const result = await new Harness(accessToken).run({ parameters: { resource: 'referenceList', operation: 'getJobTypes' } });
		expect(result.error).toBeUndefined();
		expect(seen).toEqual(['none', 'token']);
		expect(outputs(result)).toHaveLength(1);
	});
});
