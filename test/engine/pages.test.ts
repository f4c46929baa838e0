/**
 * Lists that come in pages ("Pagination of lists: not shown"): every page the service says it has
 * is read, at the credential's own Base URL only; a list that says there is more but cannot be
 * followed fails instead of being returned as if whole. Through n8n-core's WorkflowExecute, nock.
 */
import nock from 'nock';

import { nextPage } from '../../nodes/Recruiting/transport/pages';
import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const token = { baseUrl: `${BASE}/api`, authentication: 'accessToken', accessToken: 'acc-123456' };
const PATH = '/api/v1/company/api-integrations';
const FAST = { maxRetries: 0, retryDelayMs: 1 };
const keys = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: from + index, value: `key-${from + index}` }));
const listKeys = { resource: 'apiKey', operation: 'getAll', options: FAST };

setUpNock();

describe('lists in pages', () => {
	it('meta.current_page below meta.last_page, no address: the same request with page one higher, every entry once', async () => {
		nock(BASE).get(PATH).reply(200, { status: 200, data: keys(1, 2), meta: { current_page: 1, last_page: 3 } });
		nock(BASE).get(PATH).query({ page: '2' }).reply(200, { status: 200, data: keys(3, 2), meta: { current_page: 2, last_page: 3 } });
		nock(BASE).get(PATH).query({ page: '3' }).reply(200, { status: 200, data: keys(5, 1), meta: { current_page: 3, last_page: 3 } });
		const result = await new Harness(token).run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([1, 2, 3, 4, 5]);
	});

	it('a Link header with rel="next" at the Base URL (with its path) is followed; the last page has none', async () => {
		nock(BASE)
			.get(PATH)
			.reply(200, { status: 200, data: keys(1, 1) }, { Link: `<${BASE}${PATH}?cursor=abc>; rel="next", <${BASE}${PATH}>; rel="first"` });
		nock(BASE).get(PATH).query({ cursor: 'abc' }).reply(200, { status: 200, data: keys(2, 1) });
		const result = await new Harness(token).run({ parameters: listKeys });
		expect(result.items.map((item) => item.json.id)).toEqual([1, 2]);
	});

	it('a next page at another address fails the list, naming the address, and nothing is sent there', async () => {
		nock(BASE).get(PATH).reply(200, { status: 200, data: keys(1, 1), links: { next: 'https://elsewhere.example.test/keys?page=2' } });
		const elsewhere = nock('https://elsewhere.example.test').get('/keys').query(true).reply(200, { data: [] });
		const result = await new Harness(token).run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/in pages, and its next page is at another address \(https:\/\/elsewhere\.example\.test\).*the list is incomplete/);
		expect(elsewhere.isDone()).toBe(false);
		nock.cleanAll();
	});

	it('a next page that points back at one already read fails instead of looping', async () => {
		nock(BASE).get(PATH).reply(200, { status: 200, data: keys(1, 1), next_page_url: `${BASE}${PATH}?page=2` });
		nock(BASE).get(PATH).query({ page: '2' }).reply(200, { status: 200, data: keys(2, 1), next_page_url: `${BASE}${PATH}?page=2` });
		const result = await new Harness(token).run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/one it already answered/);
	});

	it('a reference list in pages (job types): every entry, without the credential on any page', async () => {
		const list = (id: number) => ({ id, name_ger: `Typ ${id}`, name_eng: `Type ${id}` });
		nock(BASE, { badheaders: ['authorization'] })
			.get('/api/v1/general/job-types')
			.reply(200, { status: 200, data: [list(1)], meta: { current_page: 1, last_page: 2 } })
			.get('/api/v1/general/job-types')
			.query({ page: '2' })
			.reply(200, { status: 200, data: [list(2)], meta: { current_page: 2, last_page: 2 } });
		const result = await new Harness(token).run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: FAST } });
		expect(result.items.map((item) => item.json.id)).toEqual([1, 2]);
	});
});

describe('nextPage', () => {
	const answer = (body: unknown, headers = {}) => ({ httpStatus: 200, body, headers });
	it('reads the usual signs, keeps the request\'s query for a page number, and says nothing for a list answered whole', () => {
		expect(nextPage(answer({ data: [] }), BASE, { path: '/v1/x' })).toBeUndefined();
		expect(nextPage(answer({ data: [], current_page: 2, last_page: 2 }), BASE, { path: '/v1/x' })).toBeUndefined();
		expect(nextPage(answer({ data: [], current_page: 1, last_page: 2 }), BASE, { path: '/v1/x', qs: { lang: 'en' } })).toEqual({ path: '/v1/x', qs: { lang: 'en', page: 2 } });
		expect(nextPage(answer({ data: [], next: '/v1/x?offset=50' }), BASE, { path: '/v1/x' })).toEqual({ path: '/v1/x', qs: { offset: '50' } });
		expect(nextPage(answer({ data: [] }, { link: '<https://other.test/v1/x?p=2>; rel="next"' }), BASE, { path: '/v1/x' })).toEqual({ away: 'https://other.test' });
	});
});
