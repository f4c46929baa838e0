/**
 * Issue 39, traps 5 and 6, through n8n's engine against nock: rows that fail validation keep
 * their identity (`action: failed`, `matchedBy`, the value they were matched by), the run's error
 * under Stop Workflow names rows as the editor counts them and the other rows that failed, and
 * records of unknown outcome have a bulk way out (Options → Send Unknown-Outcome Records Again).
 * Each failed on the code before issue 39.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { upsertParameters } from '../helpers/upsert';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const created = (slug: string) => ({ message: 'Created', status: '201', data: { slug } });
const ok = { message: 'Success', status: 200 };
const credential: ICredentialDataDecryptedObject = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-issue-39' };

const upsert = (extra: INodeParameters = {}, options: IDataObject = {}): INodeParameters =>
	upsertParameters(
		{ phone: '={{ $json.phone }}', options: { retryDelayMs: 1, maxRetries: 1, concurrency: 5, ...options }, ...extra },
		{ city: '={{ $json.city }}', birthday: '={{ $json.birthday }}' },
	);

const outputs = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);

setUpNock();

describe('issue 39 trap 5: rows that fail validation keep their identity', () => {
	const rows = [
		{ email: 'good@example.test', city: 'Berlin' },
		{ email: 'bad.birthday@example.test', city: 'Berlin', birthday: '31.02.2024' },
		{ email: '', city: 'Berlin' },
	];

	it('On Error → Continue: each failed row leads with action "failed", matchedBy and its e-mail', async () => {
		nock(BASE).post(CANDIDATE).reply(201, created('slug-good')).put(CANDIDATE).reply(200, ok);
		const result = await new Harness(credential).run({ parameters: upsert(), items: rows, onError: 'continueRegularOutput' });
		const [good, birthday, empty] = outputs(result);
		expect(good).toMatchObject({ action: 'created', matchedBy: 'email', email: 'good@example.test', error: '' });
		expect(birthday).toMatchObject({ action: 'failed', matchedBy: 'email', email: 'bad.birthday@example.test' });
		expect(birthday.error).toMatch(/"Birthday" "31\.02\.2024" is not a real calendar date/);
		expect(empty).toMatchObject({ action: 'failed', matchedBy: 'email', email: '' });
		expect(empty.error).toMatch(/no E-?mail to match it by/i);
	});

	it('On Error → Error Output: the error item carries the same identity', async () => {
		const result = await new Harness(credential).run({ parameters: upsert(), items: [rows[1]], onError: 'continueErrorOutput' });
		expect(result.errorItems.map((item) => item.json.error)).toEqual([
			expect.objectContaining({ action: 'failed', matchedBy: 'email', email: 'bad.birthday@example.test', message: expect.stringMatching(/31\.02\.2024/) }),
		]);
	});

	it('Stop Workflow: the error names the row as the editor counts it, and the other row that failed', async () => {
		nock(BASE).post(CANDIDATE).times(2).reply(201, created('slug-stop')).put(CANDIDATE).times(2).reply(200, ok);
		const items = [rows[0], { email: 'good.two@example.test', city: 'Bonn' }, rows[1], { email: 'bad.phone@example.test', phone: 'call me maybe' }];
		const result = await new Harness(credential).run({ parameters: upsert(), items });
		expect(result.error?.message).toMatch(/^Row 3 \(item index 2\): "Birthday" "31\.02\.2024" is not a real calendar date.* \(1 more row fails: row 4\)$/);
		expect(String(result.error?.description)).toMatch(/Also failing \(rows in flight when the run stopped[^:]*\): row 4 \(item index 3\): "Phone" must be a phone number/);
	});

	it('Stop Workflow, one row at a time: the rows the run did not reach are checked (nothing sent for them), and every bad one is named', async () => {
		const posts = nock(BASE).post(CANDIDATE).reply(201, created('slug-one')).put(CANDIDATE).reply(200, ok);
		const items = [rows[0], rows[1], { email: 'fine@example.test', city: 'Bonn' }, { email: 'bad.phone@example.test', phone: 'call me maybe' }, rows[2]];
		const result = await new Harness(credential).run({ parameters: upsert({}, { concurrencyMode: 'fixed', concurrency: 1 }), items });
		expect(posts.isDone()).toBe(true);
		expect(result.error?.message).toMatch(/^Row 2 \(item index 1\): "Birthday" "31\.02\.2024" .* \(2 more rows fail: row 4, row 5\)$/);
		expect(String(result.error?.description)).toContain(
			'Also failing (rows in flight when the run stopped; the rows after it were checked (up to 1000) and nothing was sent for them): row 4 (item index 3): "Phone" must be a phone number',
		);
		expect(String(result.error?.description)).toMatch(/row 5 \(item index 4\): This row has no E-?mail to match it by/i);
	});

	it('one input item: the message is the row\'s own (no row number)', async () => {
		const result = await new Harness(credential).run({ parameters: upsert(), items: [rows[1]] });
		expect(result.error?.message).toMatch(/^"Birthday" "31\.02\.2024" is not a real calendar date/);
	});
});

describe('issue 39 trap 6: records of unknown outcome have a bulk way out that says its risk', () => {
	it('Send Unknown-Outcome Records Again posts them once more; the rows are then complete and stay so', async () => {
		const harness = new Harness(credential);
		const sheet = [0, 1, 2].map((index) => ({ email: `unknown.${index}@example.test`, city: 'Berlin', skills: 'SQL: 3' }));
		let slug = 0;
		nock(BASE)
			.post(CANDIDATE)
			.times(3)
			.reply(201, () => created(`slug-unknown-${slug++}`))
			.put(CANDIDATE)
			.times(3)
			.reply(200, ok)
			.post(`${CANDIDATE}/it-skill`)
			.times(3)
			.reply(502, 'Bad Gateway');
		const outage = outputs(await harness.run({ parameters: upsert(), items: sheet, onError: 'continueRegularOutput' }));
		expect(outage.map((json) => json.action)).toEqual(['partly created', 'partly created', 'partly created']);
		// Without the option: held back, each row asks for a look and names the option with its risk.
		const held = outputs(await harness.run({ parameters: upsert(), items: sheet, onError: 'continueRegularOutput' }));
		expect(held.map((json) => json.action)).toEqual(['failed', 'failed', 'failed']);
		expect(held[0].message).toMatch(/Options → Send Unknown-Outcome Records Again for one run, which may add it twice/);
		// Issue 47: the way out for a record the service did store is offered beside it.
		expect(held[0].message).toMatch(/Memory Action → Adopt Given Slugs and Candidate Slug set to its slug, which marks it as added/);
		const posted: IDataObject[] = [];
		nock(BASE)
			.post(`${CANDIDATE}/it-skill`, (body: IDataObject) => posted.push(body) > 0)
			.times(3)
			.reply(200, ok);
		const resent = outputs(await harness.run({ parameters: upsert({}, { resendUnknownRecords: true }), items: sheet, onError: 'continueRegularOutput' }));
		expect(posted.map((body) => body.user_slug)).toEqual(['slug-unknown-0', 'slug-unknown-1', 'slug-unknown-2']);
		expect(resent.map((json) => json.action)).toEqual(['updated', 'updated', 'updated']);
		expect(resent[0]).toMatchObject({ error: '', summary: { added: 1, failed: 0 } });
		expect(resent[0]).not.toHaveProperty('outcomeUnknown');
		expect(resent[0].message).toMatch(/1 of 1 new record added, 1 of unknown outcome sent again/);
		// Sent and answered: known as added, with or without the option.
		const after = outputs(await harness.run({ parameters: upsert({}, { resendUnknownRecords: true }), items: sheet, onError: 'continueRegularOutput' }));
		expect(after.map((json) => json.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	});

	it('the option is described with its risk', async () => {
		const { Recruiting } = await import('../../nodes/Recruiting/Recruiting.node');
		const options = new Recruiting().description.properties.filter((property) => property.name === 'options' && property.displayOptions?.show?.operation?.includes('upsert'));
		const option = (options[0].options as Array<{ name: string; displayName: string; description?: string }>).find((entry) => entry.name === 'resendUnknownRecords');
		expect(option?.displayName).toBe('Send Unknown-Outcome Records Again');
		expect(option?.description).toMatch(/exists twice/);
	});
});
