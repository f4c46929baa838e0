/**
 * Candidate → Create or Update with Dry Run (issue 33), through n8n's engine against nock: the
 * exact plan (method, path, body) where the row's Sync State decides, a dry run that stops as a
 * real run stops, its error items, and Retry On Fail. Writes reach nock only in the real runs:
 * every dry run's requests are counted.
 */
import nock from 'nock';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NEW_SLUG } from '../../nodes/Recruiting/actions/candidate/upsert/dryRun';
import { BASE, FakeService, credential, outputs, setUpNock } from '../helpers/fakeService';
import { Harness } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';

setUpNock();

const CANDIDATE = '/gin/v1/company/candidate';

const parameters = (extra: INodeParameters = {}, dryRun = true, options: IDataObject = {}): INodeParameters =>
	upsertParameters(
		{
			languageList: '={{ $json.languages }}',
			...extra,
			options: { retryDelayMs: 1, maxRetries: 0, concurrency: 1, ...(dryRun ? { dryRun: true } : {}), ...options },
		},
		{ city: '={{ $json.city }}', birthday: '={{ $json.birthday }}' },
	);

describe('Dry Run where the row\'s Sync State decides', () => {
	it('plans only what changed since the state, for the slug given, with the language\'s name resolved to its ID', async () => {
		const row = { email: 'state@example.test', city: 'Berlin', skills: 'SQL: 3' };
		const service = new FakeService();
		const first = outputs(await new Harness(credential).run({ parameters: parameters({}, false), items: [row] }))[0];
		expect(first).toMatchObject({ action: 'created', slug: 'slug-new-1' });
		nock.cleanAll();
		const dry = new FakeService();
		// Another n8n (no memory of this node): the slug and state written back to the row decide.
		const mapped = { candidateSlug: '={{ $json.slug }}', syncState: '={{ $json.syncState }}' };
		const changed = { ...row, slug: first.slug, syncState: first.syncState, city: 'Hamburg', skills: 'SQL: 3, Go: 2', languages: 'English: 4' };
		const result = await new Harness(credential).run({ parameters: parameters(mapped), items: [changed] });
		expect(dry.writes()).toEqual([]);
		expect(dry.requests.map((request) => request.path)).toEqual(['/v1/general/language-skills?lang=de']);
		expect(outputs(result)[0]).toMatchObject({
			dryRun: true,
			action: 'updated',
			slug: 'slug-new-1',
			requests: [
				{ method: 'PUT', path: CANDIDATE, body: { user_slug: 'slug-new-1', email: row.email, city: 'Hamburg' } },
				{ method: 'POST', path: `${CANDIDATE}/it-skill`, body: { skill_name: 'Go', skill_level_id: 2, user_slug: 'slug-new-1' } },
				{ method: 'POST', path: `${CANDIDATE}/language`, body: { language_id: 26, language_level_id: 4, user_slug: 'slug-new-1' } },
			],
		});
		expect(service.writes()).toHaveLength(3);
	});
});

describe('Dry Run: failures as in a real run, marked as a plan', () => {
	const rows: IDataObject[] = [
		{ email: 'fine@example.test', city: 'Berlin', skills: 'SQL: 3' },
		{ email: 'wrong.birthday@example.test', city: 'Berlin', birthday: '31.02.2024' },
	];

	it('on the error output the refused row is a plan too; pairing holds', async () => {
		const service = new FakeService();
		const result = await new Harness(credential).run({ parameters: parameters(), items: rows, onError: 'continueErrorOutput' });
		expect(service.writes()).toEqual([]);
		expect(result.items.map((item) => [item.json.action, item.json.dryRun, item.pairedItem])).toEqual([['created', true, { item: 0 }]]);
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].pairedItem).toEqual({ item: 1 });
		expect(result.errorItems[0].json.error).toMatchObject({ dryRun: true, requests: [] });
		expect(String((result.errorItems[0].json.error as IDataObject).message)).toMatch(/Birthday/);
	});

	it('without continue on fail the dry run stops at the refused row, and lists no "(new)" candidate as created', async () => {
		const service = new FakeService();
		const result = await new Harness(credential).run({ parameters: parameters(), items: rows });
		expect(service.writes()).toEqual([]);
		expect(result.error?.message).toMatch(/Birthday/);
		expect(String(result.error?.description ?? '')).not.toContain(NEW_SLUG);
	});

	it('Retry On Fail: the try after a failed one plans every row again (nothing was created)', async () => {
		const list = nock(BASE).get('/v1/general/language-skills').query(true).reply(500, { message: 'down', status: 500 });
		const service = new FakeService();
		const items = [rows[0], { email: 'lang@example.test', city: 'Berlin', languages: 'English: 4' }];
		// The first try fails at the second row (its language cannot be resolved: Fail Item on Record Error), after the first was planned.
		const result = await new Harness(credential).run({ parameters: parameters({}, true, { failOnRecordError: true }), items, retryOnFail: { maxTries: 2 } });
		expect(list.isDone()).toBe(true);
		expect(result.error).toBeUndefined();
		expect(service.writes()).toEqual([]);
		const [fine, lang] = outputs(result);
		expect(fine).toMatchObject({ dryRun: true, action: 'created' });
		expect((fine.requests as IDataObject[]).map((request) => `${request.method as string} ${request.path as string}`)).toEqual([
			`POST ${CANDIDATE}`,
			`PUT ${CANDIDATE}`,
			`POST ${CANDIDATE}/it-skill`,
		]);
		expect(lang).toMatchObject({ dryRun: true, action: 'created' });
	});
});
