/**
 * Issue 21, "Review findings", items 4, 6, 7, 12, 13, 14, 15 and 16, through n8n's engine
 * against nock: inputs a user would call valid, Import with a given or a non-text slug, long
 * values in messages, dates from expressions in the instance's time zone, and n8n's own
 * "Retry On Fail".
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Recorded, Reply } from '../helpers/fakeService';
import { FakeService, credential, errorMessage, outputs, setUpNock } from '../helpers/fakeService';
import type { RunOptions } from '../helpers/harness';
import { Harness } from '../helpers/harness';

setUpNock();

const FAST = { retryDelayMs: 1 };

async function run(options: RunOptions) {
	return await new Harness(credential).run(options);
}

const create = (fields: INodeParameters): INodeParameters => ({
	resource: 'candidate',
	operation: 'create',
	email: '',
	phone: '',
	...fields,
	options: FAST,
});

const update = (updateFields: INodeParameters): INodeParameters => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: 'slug-42',
	updateFields,
	options: FAST,
});

const job = (additionalFields: INodeParameters, fields: INodeParameters = {}): INodeParameters => ({
	resource: 'candidateJob',
	operation: 'add',
	candidateSlug: 'slug-42',
	companyName: 'Acme GmbH',
	startDate: '2023-10-01',
	...fields,
	additionalFields,
	options: FAST,
});

const importing = (parameters: INodeParameters): INodeParameters => ({
	resource: 'candidate',
	operation: 'import',
	email: 'ida@example.test',
	phone: '',
	recordInput: 'lists',
	...parameters,
	options: { ...FAST, ...((parameters.options as IDataObject | undefined) ?? {}) },
});

const bodies = (service: FakeService) => service.writes().map((request) => request.body);

describe('issue 21 item 4: Import with a Candidate Slug that is not text fails the item', () => {
	it.each([
		['an array', '={{ ["slug-1", "slug-2"] }}', '["slug-1","slug-2"]'],
		['an object', '={{ { slug: "slug-1" } }}', '{"slug":"slug-1"}'],
		['a boolean', '={{ true }}', 'true'],
	])('%s: nothing is created, the item names the field and the value', async (_kind, slug, shown) => {
		const service = new FakeService();
		const result = await run({ parameters: importing({ candidateSlug: slug }), onError: 'continueRegularOutput' });
		expect(service.requests).toEqual([]);
		expect(outputs(result)).toHaveLength(1);
		expect(outputs(result)[0].error).toBe(`"Candidate Slug" must be text (got ${shown})`);
	});

	it('a slug as text or as a number is still used; empty still creates', async () => {
		const service = new FakeService();
		const result = await run({
			parameters: importing({ candidateSlug: '={{ $json.slug }}', recordInput: 'lists', itSkillList: 'SQL: 3' }),
			items: [{ slug: ' slug-7 ' }, { slug: 1234 }, { slug: null }],
		});
		expect(result.error).toBeUndefined();
		expect(outputs(result).map((json) => [json.slug, json.created])).toEqual([
			['slug-7', false],
			['1234', false],
			['slug-new-1', true],
		]);
		expect(service.writes().filter((request) => request.method === 'POST' && request.path === '/gin/v1/company/candidate')).toHaveLength(1);
	});
});

describe('issue 21 item 7: Import with a given slug says which fields it did not send', () => {
	it('Source and Employee given with a slug: listed in "notSent" and in the message, never sent', async () => {
		const service = new FakeService();
		const result = await run({
			parameters: importing({
				candidateSlug: 'slug-9',
				additionalFields: { source: 'Job fair', employee: true, city: 'Leipzig' },
			}),
		});
		expect(result.error).toBeUndefined();
		expect(bodies(service)).toEqual([{ user_slug: 'slug-9', email: 'ida@example.test', city: 'Leipzig' }]);
		const [output] = outputs(result);
		expect(output.notSent).toEqual(['source', 'employee']);
		expect(output.message).toContain('not sent: source, employee (the service takes them only when it creates a candidate)');
	});

	it('a new candidate sends them on creation, and a slug without them has no "notSent"', async () => {
		const service = new FakeService();
		const created = await run({ parameters: importing({ additionalFields: { source: 'Job fair', employee: false } }) });
		expect(bodies(service)[0]).toEqual({ email: 'ida@example.test', source: 'Job fair', employee: false });
		expect(outputs(created)[0].notSent).toBeUndefined();
		const given = await run({ parameters: importing({ candidateSlug: 'slug-9', additionalFields: { city: 'Halle' } }) });
		expect(outputs(given)[0].notSent).toBeUndefined();
		expect(outputs(given)[0].message).not.toContain('not sent');
	});
});

describe('issue 21 item 12: Business Area given as an ID is sent as its name in the job\'s language', () => {
	it.each([
		[66, 'de', 'Softwareentwicklung'],
		['66', 'de', 'Softwareentwicklung'],
		['66', 'en', 'Software Development'],
		[' 100\u200B', 'de', 'Verwaltung'],
		[10, 'en', 'IT & Software Development'],
		['15', 'de', 'Öffentlicher Sektor'],
	])('%j (lang %s) → %s', async (id, lang, name) => {
		const service = new FakeService();
		const result = await run({ parameters: job({ businessAreaDivision: id, lang }) });
		expect(result.error).toBeUndefined();
		expect(bodies(service)[0]?.business_area_division).toBe(name);
	});

	it('an ID from an expression inside Import\'s job list is mapped too', async () => {
		const service = new FakeService();
		const result = await run({
			parameters: importing({ candidateSlug: 'slug-9', email: '', jobList: '={{ [{ company: "Acme", start: "2020-01-01", businessArea: 67, lang: "en" }] }}' }),
		});
		expect(result.error).toBeUndefined();
		expect(bodies(service).find((body) => body?.company_name === 'Acme')?.business_area_division).toBe('Web Design');
	});

	it('an ID that is both a division and an area, or none, fails the item before sending', async () => {
		const service = new FakeService();
		const both = await run({ parameters: job({ businessAreaDivision: 1 }) });
		expect(errorMessage(both)).toBe('"Business Area": the ID 1 is both the division "Einkauf & Verkauf" and the area "Einkauf"');
		const none = await run({ parameters: job({ businessAreaDivision: '999' }) });
		expect(errorMessage(none)).toBe('"Business Area": no business area or division has the ID 999');
		expect(service.writes()).toEqual([]);
	});
});

describe('issue 21 item 13: phone numbers with digits and no letters pass', () => {
	it.each([
		['(+49) 30 1234567', '(+49) 30 1234567'],
		['030\u20111234567 (non-breaking hyphen)', '030\u20111234567'],
		['030 \u2013 1234567 (en dash)', '030 \u2013 1234567'],
		['\u200E+49 30 1234567\u200B (invisible marks)', '+49 30 1234567'],
		['+49\u00A030\u00A01234567 (no-break spaces)', '+49\u00A030\u00A01234567'],
		['[030] 123.45/67', '[030] 123.45/67'],
	])('%s', async (label, sent) => {
		const value = label.replace(/ \([a-z -]+\)$/, '');
		const service = new FakeService();
		const result = await run({ parameters: create({ phone: value }) });
		expect(result.error).toBeUndefined();
		expect(bodies(service)).toEqual([{ phone: sent }]);
	});

	it.each([
		['0151 1234 ext 5', '0151 1234 ext 5'],
		['030 #123', '030 #123'],
		['+1 (555) 123-4567 x89', '+1 (555) 123-4567 x89'],
		['030 1234567, Durchwahl 12', '030 1234567, Durchwahl 12'],
	])('%j with an extension at its end is sent as written (the description gives phone as a string)', async (value, sent) => {
		const service = new FakeService();
		const result = await run({ parameters: create({ phone: value }) });
		expect(result.error).toBeUndefined();
		expect(bodies(service)).toEqual([{ phone: sent }]);
	});

	it.each(['call me maybe', '+', '\u200B', '+49+30 123', '030 ext', 'ext 5', '030 12 ext 5 ext 6', '030 12 ext 5 call me'])('%j is still refused before sending', async (value) => {
		const service = new FakeService();
		const result = await run({ parameters: create({ email: 'a@b.test', phone: value }) });
		expect(errorMessage(result)).toMatch(/^"Phone" (must be a phone number|is required)/);
		expect(service.requests).toEqual([]);
	});
});

describe('issue 21 item 14: internationalised e-mail addresses pass', () => {
	it.each(['info@müller.de', 'a@example.xn--p1ai', 'δοκιμή@παράδειγμα.δοκιμή', 'иван@пример.рф', 'lena.o\'brien+cv@example.test'])(
		'%s is sent as written',
		async (address) => {
			const service = new FakeService();
			const result = await run({ parameters: create({ email: address }) });
			expect(result.error).toBeUndefined();
			expect(bodies(service)).toEqual([{ email: address }]);
		},
	);

	it.each(['not-an-email', 'a@b', 'a b@c.de', 'a@@b.de', '@b.de', 'a@.de', 'a@b..de', '.a@b.de', 'a@-b.de', 'a@b.de.', 'a@b_c.de', 'a@b.c'])(
		'%j is still refused before sending',
		async (address) => {
			const service = new FakeService();
			const result = await run({ parameters: create({ email: address }) });
			expect(errorMessage(result)).toBe(`"Email" must be a valid e-mail address (got "${address}")`);
			expect(service.requests).toEqual([]);
		},
	);
});

describe('issue 21 item 15: a date object from an expression is its calendar date in the instance\'s time zone', () => {
	// Instants, not local times: the machine's own time zone cannot change what they are.
	const lateEvening = 'new Date("2024-03-04T23:30:00Z")'; // Berlin: 5 March 00:30; Los Angeles: 4 March 15:30
	const morning = 'new Date(Date.UTC(2024, 2, 5, 7, 30))'; // Berlin: 5 March 08:30; Los Angeles: 4 March 23:30
	// n8n-core hands a Luxon DateTime over as its ISO text in its own zone, which an expression's
	// DateTime.fromISO takes from the instance: the same calendar date.
	const luxonMorning = 'DateTime.fromISO("2024-03-05T07:30:00Z")';

	it.each([
		['Europe/Berlin', lateEvening, '05-03-2024'],
		['Europe/Berlin', morning, '05-03-2024'],
		['America/Los_Angeles', lateEvening, '04-03-2024'],
		['America/Los_Angeles', morning, '04-03-2024'],
		['Asia/Tokyo', 'new Date("2024-12-31T15:30:00Z")', '01-01-2025'],
		['Europe/Berlin', luxonMorning, '05-03-2024'],
		['America/Los_Angeles', luxonMorning, '04-03-2024'],
	])('instance in %s, %s → birthday %s', async (timezone, expression, sent) => {
		const service = new FakeService();
		const result = await run({ parameters: update({ birthday: `={{ ${expression} }}` }), timezone });
		expect(result.error).toBeUndefined();
		expect(bodies(service)).toEqual([{ user_slug: 'slug-42', birthday: sent }]);
	});

	it('a job\'s start and end dates count in the instance\'s zone too', async () => {
		const service = new FakeService();
		const result = await run({
			parameters: job({ endDate: `={{ ${morning} }}` }, { startDate: `={{ ${lateEvening} }}` }),
			timezone: 'America/Los_Angeles',
		});
		expect(result.error).toBeUndefined();
		expect(bodies(service)[0]).toMatchObject({ start_date: '04-03-2024', end_date: '04-03-2024' });
	});

	it('a date object inside Import\'s record list counts in the instance\'s zone', async () => {
		const imported = new FakeService();
		await run({
			parameters: importing({ candidateSlug: 'slug-9', email: '', jobList: `={{ [{ company: "Acme", start: ${lateEvening} }] }}` }),
			timezone: 'Europe/Berlin',
		});
		expect(bodies(imported)).toEqual([{ user_slug: 'slug-9', company_name: 'Acme', start_date: '05-03-2024' }]);
	});

	it.each(['Europe/Berlin', 'America/Los_Angeles'])('ISO text keeps its written calendar date (instance in %s)', async (timezone) => {
		const service = new FakeService();
		await run({ parameters: update({ birthday: '2024-03-05T23:30:00-08:00' }), timezone });
		await run({ parameters: update({ birthday: '2024-03-05T00:30:00+09:00' }), timezone });
		expect(bodies(service).map((body) => body?.birthday)).toEqual(['05-03-2024', '05-03-2024']);
	});
});

describe('issue 21 item 16: a long value is quoted shortened in every validation message', () => {
	const huge = `${'9'.repeat(100)}x${'y'.repeat(200 * 1024)}`;
	const MAX = 1000;

	it.each([
		['Phone (Create)', create({ email: 'a@b.test', phone: '={{ $json.cell }}' })],
		['Email (Create)', create({ email: '={{ $json.cell }}' })],
		['Birthday (Update)', update({ birthday: '={{ $json.cell }}' })],
		['First Name given an object (Update)', update({ firstName: '={{ { cell: $json.cell } }}' })],
		['Job Type (Job)', job({ jobTypeId: '={{ $json.cell }}' })],
		['Business Area (Job)', job({ businessAreaDivision: '={{ $json.cell }}' })],
		['Start Date (Job)', job({}, { startDate: '={{ $json.cell }}' })],
		['Candidate Slug (Import)', importing({ candidateSlug: '={{ [$json.cell] }}' })],
		['a job line (Import)', importing({ jobList: '={{ $json.cell + "|a|b|c|d|e|f|g|h" }}', options: { failOnRecordError: true } })],
		['a skill entry (Import)', importing({ itSkillList: '={{ $json.cell }}', options: { failOnRecordError: true } })],
	])('%s', async (_field, parameters) => {
		const service = new FakeService();
		const result = await run({ parameters, items: [{ cell: huge }], onError: 'continueRegularOutput' });
		const [output] = outputs(result);
		const text = `${String(output.error)} ${String(output.errorDescription ?? '')}`;
		expect(output.error).toBeDefined();
		expect(output.error).toMatch(/\.\.\./);
		expect(text).toMatch(/"?9{50,}[^"]*\.\.\."? \(\d{6} characters\)/);
		expect(String(output.error).length).toBeLessThan(MAX);
		expect(String(output.errorDescription ?? '').length).toBeLessThan(MAX);
		expect(service.writes()).toEqual([]);
	});

	it('a short value is quoted whole', async () => {
		const result = await run({ parameters: create({ email: 'a@b.test', phone: 'call me maybe' }) });
		expect(errorMessage(result)).toBe(
			'"Phone" must be a phone number: digits, with an optional leading +, spaces, brackets, dashes, / and ., and an optional extension (ext. 89) (got "call me maybe")',
		);
	});
});

/** Creations answered by distinct slugs; `refuse(request, count)` makes one answer a refusal. */
function creatingService(refuse: (request: Recorded, count: number) => boolean) {
	let count = 0;
	return new FakeService((request): Reply => {
		count++;
		if (refuse(request, count)) return [422, { message: 'Refused for the test', status: 422 }];
		if (request.method === 'POST' && request.path === '/gin/v1/company/candidate') {
			return [201, { message: 'Candidate created', status: '201', data: { slug: `slug-${String(request.body?.email)}` } }];
		}
		return FakeService.ok(request);
	});
}

/** True for the first request that `matches`, false for every other. */
function once(matches: (request: Recorded) => boolean) {
	let done = false;
	return (request: Recorded) => {
		if (done || !matches(request)) return false;
		done = true;
		return true;
	};
}

describe('issue 21 item 6: n8n\'s "Retry On Fail" does not send a creation of an earlier try again', () => {
	const rows = [{ mail: 'a@x.test' }, { mail: 'b@x.test' }, { mail: 'c@x.test' }, { mail: 'd@x.test' }];

	it('Create: the retry skips the candidates the first try created and returns their slugs', async () => {
		// The first creation of c@x.test is refused: the first try stops there, the second runs the node again.
		const service = creatingService((request, count) => request.body?.email === 'c@x.test' && count === 3);
		const result = await run({
			parameters: { ...create({ email: '={{ $json.mail }}' }), options: { ...FAST, concurrency: 1 } },
			items: rows,
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(service.writes().map((request) => request.body?.email)).toEqual(['a@x.test', 'b@x.test', 'c@x.test', 'c@x.test', 'd@x.test']);
		expect(outputs(result)).toEqual(rows.map((row) => ({ slug: `slug-${row.mail}`, email: row.mail })));
		expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_row, item) => ({ item })));
	});

	it('Create with "Continue (using error output)": the retry n8n makes after a failed first item skips the others', async () => {
		const service = creatingService((request, count) => request.body?.email === 'a@x.test' && count === 1);
		const result = await run({
			parameters: { ...create({ email: '={{ $json.mail }}' }), options: { ...FAST, concurrency: 2 } },
			items: rows,
			onError: 'continueRegularOutput',
			retryOnFail: { maxTries: 2 },
		});
		expect(outputs(result).map((json) => json.slug)).toEqual(rows.map((row) => `slug-${row.mail}`));
		expect(service.writes().map((request) => request.body?.email).sort()).toEqual(['a@x.test', 'a@x.test', 'b@x.test', 'c@x.test', 'd@x.test']);
	});

	it('Import: the retry neither creates the candidate again nor adds again the records the first try added', async () => {
		// The second skill of the first row is refused once; Fail Item on Record Error makes that the try's failure.
		const service = creatingService(once((request) => request.body?.skill_name === 'Go'));
		const result = await run({
			parameters: importing({
				email: '={{ $json.mail }}',
				itSkillList: '={{ $json.skills }}',
				options: { failOnRecordError: true, concurrency: 1 },
			}),
			items: [
				{ mail: 'a@x.test', skills: 'SQL: 3, Go: 2' },
				{ mail: 'b@x.test', skills: 'Rust: 1' },
			],
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error).toBeUndefined();
		const sent = service.writes().map((request) => `${request.path.replace('/gin/v1/company/candidate', 'candidate')} ${String(request.body?.email ?? request.body?.skill_name)}`);
		expect(sent).toEqual(['candidate a@x.test', 'candidate/it-skill SQL', 'candidate/it-skill Go', 'candidate/it-skill Go', 'candidate b@x.test', 'candidate/it-skill Rust']);
		const [first, second] = outputs(result);
		expect(first).toMatchObject({ slug: 'slug-a@x.test', created: true, summary: { records: 2, added: 2, failed: 0 } });
		expect((first.records as IDataObject[])[0]).toMatchObject({ ok: true, message: 'Added by an earlier try of this node (Retry On Fail); not sent again' });
		expect(second).toMatchObject({ slug: 'slug-b@x.test', created: true });
	});

	it('Candidate Job → Add (every Add operation): the retry does not add again the records the first try added', async () => {
		const service = creatingService(once((request) => request.body?.company_name === 'Gamma'));
		const companies = ['Alpha', 'Beta', 'Gamma', 'Delta'];
		const result = await run({
			parameters: { ...job({}, { companyName: '={{ $json.company }}' }), options: { ...FAST, concurrency: 1 } },
			items: companies.map((company) => ({ company })),
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(service.writes().map((request) => request.body?.company_name)).toEqual(['Alpha', 'Beta', 'Gamma', 'Gamma', 'Delta']);
		expect(outputs(result).map((json) => [json.slug, json.company_name, json.message])).toEqual([
			['slug-42', 'Alpha', 'Added by an earlier try of this node (Retry On Fail); not sent again'],
			['slug-42', 'Beta', 'Added by an earlier try of this node (Retry On Fail); not sent again'],
			['slug-42', 'Gamma', 'Record added'],
			['slug-42', 'Delta', 'Record added'],
		]);
	});

	it('Candidate Job → Add: a record an expression names otherwise in the later try is sent, not taken for the earlier try\'s', async () => {
		// Row 1's company reads the clock: Alpha in try 1, Omega in try 2 (n8n waits 1.5 s between tries). Row 2 fails once, so n8n retries.
		const service = creatingService(once((request) => request.body?.company_name === 'Gamma'));
		const at = Date.now() + 700;
		const result = await run({
			parameters: { ...job({}, { companyName: `={{ $json.company === 'Alpha' && $now.toMillis() >= ${at} ? 'Omega' : $json.company }}` }), options: { ...FAST, concurrency: 1 } },
			items: [{ company: 'Alpha' }, { company: 'Gamma' }],
			retryOnFail: { maxTries: 2, waitBetweenTries: 1_500 },
		});
		expect(result.error).toBeUndefined();
		// Try 1 sent Alpha and Gamma (refused); try 2 sends Omega (another record) and Gamma again.
		expect(service.writes().map((request) => request.body?.company_name)).toEqual(['Alpha', 'Gamma', 'Omega', 'Gamma']);
		expect(outputs(result).map((json) => [json.company_name, json.message])).toEqual([
			['Omega', 'Record added'],
			['Gamma', 'Record added'],
		]);
	});

	it('a new execution does not take the creations of an earlier execution for its own', async () => {
		// Two executions of the same workflow with different rows: nothing is shared between executions.
		const service = creatingService(() => false);
		const harness = new Harness(credential);
		const parameters = { ...create({ email: '={{ $json.mail }}' }), options: { ...FAST, concurrency: 1 } };
		await harness.run({ parameters, items: [rows[0]], retryOnFail: { maxTries: 2 } });
		const second = await harness.run({ parameters, items: [rows[1]], retryOnFail: { maxTries: 2 } });
		expect(outputs(second)).toEqual([{ slug: 'slug-b@x.test', email: 'b@x.test' }]);
		expect(service.writes()).toHaveLength(2);
	});

	it('without Retry On Fail a failed run still lists what it created, and a new execution creates again', async () => {
		const service = creatingService((request) => request.body?.email === 'b@x.test');
		const result = await run({
			parameters: { ...create({ email: '={{ $json.mail }}' }), options: { ...FAST, concurrency: 1 } },
			items: rows.slice(0, 2),
		});
		expect(result.error?.description).toContain('item 0: slug-a@x.test');
		expect(service.writes()).toHaveLength(2);
		// Nothing is kept in the execution data when n8n will not retry.
		expect(result.run.data.executionData?.contextData).toEqual({});
	});
});
