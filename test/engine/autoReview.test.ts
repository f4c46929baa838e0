/**
 * Issue 32: the five defects an independent review reproduced in Concurrency Mode Auto and the
 * outcome of a failed creation, through n8n's engine against nock. Each failed on the code before
 * its fix (defect 1 is a unit test of the hold: test/unit/controller.test.ts).
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { upsertParameters } from '../helpers/upsert';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const credential: ICredentialDataDecryptedObject = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-auto-review' };

setUpNock();

const rows = (n: number, prefix = 'c') => Array.from({ length: n }, (_, index) => ({ email: `${prefix}${index}@b.test` }));
const create = (options: IDataObject = {}): INodeParameters => ({ resource: 'candidate', operation: 'create', email: '={{ $json.email }}', options: { retryDelayMs: 1, ...options } });
const update = (options: IDataObject = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: '={{ $json.slug }}',
	updateFields: { city: 'Berlin' },
	options: { retryDelayMs: 1, ...options },
});

/** Counts requests in flight for one method; `answer` decides each (default: success after `delay` ms). */
function service(method: 'post' | 'put', delay: number, answer?: (count: number) => [number, IDataObject?, Record<string, string>?]) {
	const state = { inFlight: 0, max: 0, starts: [] as number[], sent: new Map<string, number>() };
	const scope = nock(BASE).persist();
	(method === 'post' ? scope.post(CANDIDATE) : scope.put(CANDIDATE))
		.reply(async (_uri, body) => {
			const key = String((body as IDataObject).email ?? (body as IDataObject).user_slug);
			const count = (state.sent.get(key) ?? 0) + 1;
			state.sent.set(key, count);
			state.starts.push(Date.now());
			state.inFlight += 1;
			state.max = Math.max(state.max, state.inFlight);
			await sleep(delay);
			state.inFlight -= 1;
			const [status, data, headers] = answer?.(count) ?? [method === 'post' ? 201 : 200];
			const ok = status < 300;
			return [status, ok ? { message: 'Done', status, data: { slug: `s-${key}`, ...data } } : { message: 'failed', status, ...data }, headers ?? {}];
		});
	return state;
}

describe('defect 2: the end of a hold does not burst past Max Requests per Second', () => {
	it('Max 2 per second, every first attempt answered 503 with Retry-After: 2: no two requests start less than an interval apart', async () => {
		const state = service('post', 10, (count) => (count === 1 ? [503, {}, { 'Retry-After': '2' }] : [201]));
		const result = await new Harness(credential).run({ parameters: create({ requestsPerSecond: 2 }), items: rows(5), typeVersion: 1.1 });
		expect(result.items.map((item) => item.json.slug)).toEqual(rows(5).map(({ email }) => `s-${email}`));
		expect(state.starts).toHaveLength(10);
		const gaps = state.starts.slice(1).map((at, index) => at - state.starts[index]);
		// One interval is 500 ms (timers and the mock's own clock may be some ms off); the old code started four at once.
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400);
	}, 20_000);
});

describe('defect 3: the idle latency a fast operation left does not pin a slower one', () => {
	it('creations answered in 5 ms, then 300 updates answered in 150 ms: the updates still go past 20 in flight (the old code: at most 10)', async () => {
		const harness = new Harness(credential);
		service('post', 5);
		const created = await harness.run({ parameters: create(), items: rows(60), typeVersion: 1.1 });
		expect(created.items).toHaveLength(60);
		const updates = service('put', 150);
		await harness.run({ parameters: update(), items: Array.from({ length: 300 }, (_, index) => ({ slug: `slug-${index}` })), typeVersion: 1.1 });
		// What is held is the number in flight (the old code: at most 10), not a time, which would measure the machine.
		expect(updates.max).toBeGreaterThan(20);
	}, 20_000);
});

describe('defect 4: a limit grown while Max Requests per Second held the requests back is not carried to an uncapped run', () => {
	it('a capped run of 200 creations, then an uncapped run of 40: no more in flight than a cold run (10, 20), not all 40', async () => {
		const harness = new Harness(credential);
		service('post', 10);
		await harness.run({ parameters: create({ requestsPerSecond: 200 }), items: rows(200), typeVersion: 1.1 });
		nock.cleanAll();
		const uncapped = service('post', 40);
		await harness.run({ parameters: create(), items: rows(40, 'u'), typeVersion: 1.1 });
		expect(uncapped.max).toBeLessThanOrEqual(20);
	}, 20_000);
});

describe('defect 5: a creation answered HTTP 500 may exist', () => {
	it('Create: the item says the candidate may exist (context.mayExist), and it was sent once', async () => {
		const state = service('post', 5, () => [500]);
		const result = await new Harness(credential).run({ parameters: create({ maxRetries: 2 }), items: rows(1), typeVersion: 1.1, onError: 'continueRegularOutput' });
		expect(String(result.items[0].json.error)).toMatch(/HTTP 500.*may or may not have stored it/);
		expect(state.sent.get('c0@b.test')).toBe(1);
	});

	it('Create or Update keeps its claim: the next run does not create the row again', async () => {
		const harness = new Harness(credential);
		const row = { email: 'five-hundred@example.test', city: 'Berlin' };
		const parameters = upsertParameters({ options: { retryDelayMs: 1, maxRetries: 1 } }, { city: '={{ $json.city }}' });
		nock(BASE).post(CANDIDATE).reply(500, { message: 'internal error', status: 500 });
		const first = await harness.run({ parameters, items: [row], onError: 'continueRegularOutput' });
		expect(String(first.items[0].json.error)).toMatch(/HTTP 500/);
		const again = nock(BASE).post(CANDIDATE).reply(201, { message: 'Created', status: 201, data: { slug: 'slug-twice' } });
		const second = await harness.run({ parameters, items: [row], onError: 'continueRegularOutput' });
		expect(again.isDone()).toBe(false);
		expect(String(second.items[0].json.error)).toMatch(/may already exist/);
	});

	it('answers that prove the creation was not processed still say nothing of that: 422, and 429 then success', async () => {
		service('post', 5, () => [422, { message: 'invalid e-mail' }]);
		const refused = await new Harness(credential).run({ parameters: create({ maxRetries: 1 }), items: rows(1), typeVersion: 1.1, onError: 'continueRegularOutput' });
		expect(String(refused.items[0].json.error)).toMatch(/HTTP 422/);
		expect(String(refused.items[0].json.error)).not.toMatch(/may or may not/);
	});
});

describe('defect 5, the same in the body: a creation answered 200 whose envelope says status 500 may exist', () => {
	it('Create: the item says so, and it was sent once', async () => {
		let sent = 0;
		nock(BASE)
			.persist()
			.post(CANDIDATE)
			.reply(() => {
				sent += 1;
				return [200, { message: 'internal error', status: 500 }];
			});
		const result = await new Harness(credential).run({ parameters: create({ maxRetries: 2 }), items: rows(1), typeVersion: 1.1, onError: 'continueRegularOutput' });
		expect(String(result.items[0].json.error)).toMatch(/answer's status is 500.*may or may not have stored it/);
		expect(sent).toBe(1);
	});
});
