/**
 * The five "add" operations through the engine: exact bodies with every field and with only
 * the required ones, outputs, every validation rule, date forms and the date format option.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FakeService, errorMessage, outputs, run, setUpNock } from '../helpers/fakeService';

setUpNock();

const job = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}, options: INodeParameters = {}) => ({
	resource: 'candidateJob',
	operation: 'add',
	candidateSlug: 'slug-42',
	companyName: 'Acme GmbH',
	startDate: '2023-10-01',
	...fields,
	additionalFields,
	options,
});

const university = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}, options: INodeParameters = {}) => ({
	resource: 'candidateUniversity',
	operation: 'add',
	candidateSlug: 'slug-42',
	startDate: '2018-10-01',
	...fields,
	additionalFields,
	options,
});

const itSkill = (fields: INodeParameters = {}) => ({
	resource: 'candidateItSkill',
	operation: 'add',
	candidateSlug: 'slug-42',
	skillName: 'Python',
	skillLevel: 3,
	...fields,
});

const language = (fields: INodeParameters = {}) => ({
	resource: 'candidateLanguage',
	operation: 'add',
	candidateSlug: 'slug-42',
	languageId: 26,
	languageLevelId: 4,
	...fields,
});

const info = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}, options: INodeParameters = {}) => ({
	resource: 'candidateAdditionalInfo',
	operation: 'add',
	candidateSlug: 'slug-42',
	title: 'Volunteer work',
	...fields,
	additionalFields,
	options,
});

describe('exact requests and outputs', () => {
	it('job with every field', async () => {
		const service = new FakeService();
		const result = await run(
			job(
				{},
				{
					endDate: '2024-03-31',
					cityName: 'Berlin',
					jobTypeId: 2,
					description: 'Dashboards',
					jobTitle: 'Data Analyst',
					businessAreaDivision: 'Softwareentwicklung',
					lang: 'de',
				},
			),
		);
		expect(result.error).toBeUndefined();
		const body = {
			user_slug: 'slug-42',
			company_name: 'Acme GmbH',
			start_date: '01-10-2023',
			end_date: '31-03-2024',
			city_name: 'Berlin',
			job_type_id: 2,
			description: 'Dashboards',
			job_title: 'Data Analyst',
			business_area_division: 'Softwareentwicklung',
			lang: 'de',
		};
		expect(service.writes()).toEqual([{ method: 'POST', path: '/gin/v1/company/candidate/job', body }]);
		const { user_slug: slug, ...fields } = body;
		expect(outputs(result)).toEqual([{ slug, message: 'Record added', ...fields }]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('job with only the required fields', async () => {
		const service = new FakeService();
		const result = await run(job());
		expect(service.writes()).toEqual([
			{
				method: 'POST',
				path: '/gin/v1/company/candidate/job',
				body: { user_slug: 'slug-42', company_name: 'Acme GmbH', start_date: '01-10-2023' },
			},
		]);
		expect(outputs(result)).toEqual([
			{ slug: 'slug-42', message: 'Record added', company_name: 'Acme GmbH', start_date: '01-10-2023' },
		]);
	});

	it('university record with every field', async () => {
		const service = new FakeService();
		const result = await run(
			university(
				{},
				{
					endDate: '2022-09-30',
					universityName: 'TU Berlin',
					studyName: 'Computer Science',
					universityDegreeId: '10',
					description: 'Thesis on graphs',
					grade: 2,
					gradingSystemId: 1,
				},
			),
		);
		expect(result.error).toBeUndefined();
		const body = {
			user_slug: 'slug-42',
			start_date: '01-10-2018',
			end_date: '30-09-2022',
			university_name: 'TU Berlin',
			study_name: 'Computer Science',
			university_degrees_id: 10,
			description: 'Thesis on graphs',
			grade: 2,
			grading_systems_id: 1,
		};
		expect(service.writes()).toEqual([{ method: 'POST', path: '/gin/v1/company/candidate/university', body }]);
		const { user_slug: slug, ...fields } = body;
		expect(outputs(result)).toEqual([{ slug, message: 'Record added', ...fields }]);
	});

	it('university record with only the required fields', async () => {
		const service = new FakeService();
		await run(university());
		expect(service.writes().map((request) => request.body)).toEqual([{ user_slug: 'slug-42', start_date: '01-10-2018' }]);
	});

	it('IT skill (all fields are required)', async () => {
		const service = new FakeService();
		const result = await run(itSkill({ skillLevel: '4' }));
		expect(service.writes()).toEqual([
			{
				method: 'POST',
				path: '/gin/v1/company/candidate/it-skill',
				body: { user_slug: 'slug-42', skill_name: 'Python', skill_level_id: 4 },
			},
		]);
		expect(outputs(result)).toEqual([{ slug: 'slug-42', message: 'Record added', skill_name: 'Python', skill_level_id: 4 }]);
	});

	it('language (all fields are required); a numeric ID needs no list', async () => {
		const service = new FakeService();
		const result = await run(language());
		expect(service.requests).toEqual([
			{
				method: 'POST',
				path: '/gin/v1/company/candidate/language',
				body: { user_slug: 'slug-42', language_id: 26, language_level_id: 4 },
			},
		]);
		expect(outputs(result)).toEqual([
			{ slug: 'slug-42', message: 'Record added', language_id: 26, language_level_id: 4 },
		]);
	});

	it('additional information with every field', async () => {
		const service = new FakeService();
		const result = await run(info({}, { description: 'Red Cross', startDate: '2020-01-15', endDate: '15.06.2021' }));
		const body = {
			user_slug: 'slug-42',
			title: 'Volunteer work',
			description: 'Red Cross',
			start_date: '15-01-2020',
			end_date: '15-06-2021',
		};
		expect(service.writes()).toEqual([{ method: 'POST', path: '/gin/v1/company/candidate/additional-information', body }]);
		const { user_slug: slug, ...fields } = body;
		expect(outputs(result)).toEqual([{ slug, message: 'Record added', ...fields }]);
	});

	it('additional information with only the title', async () => {
		const service = new FakeService();
		await run(info({}, { description: '' }));
		expect(service.writes().map((request) => request.body)).toEqual([{ user_slug: 'slug-42', title: 'Volunteer work' }]);
	});
});

describe('validation: each rule fails only its item, and sends nothing for it', () => {
	it.each([
		['job without company name', job({ companyName: '={{ "" }}' }), '"Company Name" is required'],
		['job without start date', job({ startDate: '={{ "" }}' }), '"Start Date" is required'],
		['job ending before it starts', job({}, { endDate: '2023-09-30' }), '"End Date" must not be before the start date (start 01-10-2023, end 30-09-2023)'],
		['job with an impossible date', job({ startDate: '2023-02-30' }), '"Start Date" "2023-02-30" is not a real calendar date'],
		['job with a zero job type ID', job({}, { jobTypeId: 0 }), '"Job Type" must be a positive integer ID or a name (got 0)'],
		['job with a negative job type ID as text', job({}, { jobTypeId: '-2' }), '"Job Type" must be a positive integer ID or a name (got "-2")'],
		['university without start date', university({ startDate: '={{ "" }}' }), '"Start Date" is required'],
		['university ending before it starts', university({}, { endDate: '30.09.2018' }), '"End Date" must not be before the start date'],
		['university with a fractional degree ID', university({}, { universityDegreeId: 2.5 }), '"Degree" must be a positive integer ID or a name (got 2.5)'],
		['university with a negative grading system ID', university({}, { gradingSystemId: '={{ -1 }}' }), '"Grading System ID" must be a whole number, 0 or more (got -1)'],
		['university with a fractional grade', university({}, { grade: 1.7 }), '"Grade" must be an integer (got 1.7)'],
		['IT skill level 0', itSkill({ skillLevel: 0 }), '"Skill Level" must be an integer from 1 to 4 (got 0)'],
		['IT skill level 5', itSkill({ skillLevel: 5 }), '"Skill Level" must be an integer from 1 to 4 (got 5)'],
		['IT skill level 2.5', itSkill({ skillLevel: 2.5 }), '"Skill Level" must be an integer from 1 to 4 (got 2.5)'],
		['IT skill without a name', itSkill({ skillName: '={{ " " }}' }), '"Skill Name" is required'],
		['language level 1.5', language({ languageLevelId: '={{ 1.5 }}' }), '"Language Level ID" must be a whole number, 0 or more (got 1.5)'],
		['language level -1', language({ languageLevelId: '={{ -1 }}' }), '"Language Level ID" must be a whole number, 0 or more (got -1)'],
		['language ID 0', language({ languageId: 0 }), '"Language" must be a positive integer ID or a name (got 0)'],
		['additional information without a title', info({ title: '={{ "" }}' }), '"Title" is required'],
		['additional information ending before it starts', info({}, { startDate: '2021-01-02', endDate: '2021-01-01' }), '"End Date" must not be before the start date'],
		['a missing candidate slug', itSkill({ candidateSlug: '={{ $json.nothing }}' }), '"Candidate Slug" is required'],
	])('%s', async (_name, parameters, message) => {
		const service = new FakeService();
		const result = await run(parameters as INodeParameters, [{ ok: false }, { ok: true }], 'continueRegularOutput');
		// Both items break the same rule here; what matters: each fails alone, with the rule, and nothing is sent.
		expect(result.items.map((item) => item.json.error)).toEqual([expect.stringContaining(message), expect.stringContaining(message)]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(service.requests).toEqual([]);
	});

	it('an invalid item fails alone: the other items are sent', async () => {
		const service = new FakeService();
		const result = await run(itSkill({ skillLevel: '={{ $json.level }}' }), [{ level: 2 }, { level: 9 }, { level: '4' }], 'continueRegularOutput');
		expect(service.writes().map((request) => request.body?.skill_level_id)).toEqual([2, 4]);
		expect(outputs(result)).toEqual([
			expect.objectContaining({ skill_level_id: 2 }),
			expect.objectContaining({ error: '"Skill Level" must be an integer from 1 to 4 (got 9)' }),
			expect.objectContaining({ skill_level_id: 4 }),
		]);
	});

	it('without continue on fail the run stops with the field and rule', async () => {
		const service = new FakeService();
		const result = await run(job({}, { endDate: '2020-01-01' }));
		expect(errorMessage(result)).toBe('"End Date" must not be before the start date (start 01-10-2023, end 01-01-2020)');
		expect(service.requests).toEqual([]);
	});
});

describe('dates', () => {
	it.each([
		['YYYY-MM-DD', '2024-03-05'],
		['ISO date-time with Z', '2024-03-05T23:30:00Z'],
		['ISO date-time with an offset that would shift the day in UTC', '2024-03-05T00:30:00+02:00'],
		['ISO date-time late in the day, negative offset', '2024-03-05T23:59:59.999-08:00'],
		['the editor\'s date picker form', '2024-03-05T00:00:00'],
		['DD.MM.YYYY', '05.03.2024'],
		['D.M.YYYY', '5.3.2024'],
		['already DD-MM-YYYY', '05-03-2024'],
		['a Luxon DateTime from an expression', '={{ DateTime.fromISO("2024-03-05") }}'],
		['a Luxon DateTime with a zone from an expression', '={{ DateTime.fromISO("2024-03-05T23:00:00", { zone: "America/New_York" }) }}'],
		['a JS Date from an expression', '={{ new Date(Date.UTC(2024, 2, 5, 12)) }}'],
	])('%s (%s) is sent as 05-03-2024', async (_name, value) => {
		const service = new FakeService();
		// As a top-level parameter (job start) and inside a collection (additional information start).
		await run(job({ startDate: value }));
		await run(info({}, { startDate: value }));
		expect(service.writes().map((request) => request.body?.start_date)).toEqual(['05-03-2024', '05-03-2024']);
	});

	it.each([
		['31 February', '31.02.2024', 'is not a real calendar date'],
		['month 13', '2024-13-01', 'is not a real calendar date'],
		['day/month order not the chosen one', '03-25-2024', 'is not a real calendar date'],
		['free text', 'next Monday', 'is not in an accepted date form'],
		['US slashes', '03/05/2024', 'is not in an accepted date form'],
		['two-digit year', '05.03.24', 'is not in an accepted date form'],
		['a time of 25 o\'clock', '2024-03-05T25:00:00Z', 'is not a real calendar date'],
		['a number', '={{ 45356 }}', '45356 is not a date'],
	])('rejects %s (%s) naming the field, the value and the accepted forms', async (_name, value, reason) => {
		const service = new FakeService();
		const result = await run(job({ startDate: value }));
		expect(errorMessage(result)).toContain(`"Start Date" `);
		expect(errorMessage(result)).toContain(reason);
		expect(errorMessage(result)).toContain('Accepted forms: YYYY-MM-DD');
		expect(errorMessage(result)).toContain('DD.MM.YYYY');
		expect(service.requests).toEqual([]);
	});

	it('dateFormat MM-DD-YYYY sends month first on jobs, university records and additional information', async () => {
		const service = new FakeService();
		const options = { dateFormat: 'MM-DD-YYYY' };
		await run(job({ startDate: '2024-03-05' }, { endDate: '31.12.2024' }, options));
		await run(university({ startDate: '05.03.2024' }, { endDate: '2025-01-31T10:00:00Z' }, options));
		await run(info({}, { startDate: '03-05-2024', endDate: '03-06-2024' }, options));
		expect(service.writes().map((request) => [request.body?.start_date, request.body?.end_date])).toEqual([
			['03-05-2024', '12-31-2024'],
			['03-05-2024', '01-31-2025'],
			['03-05-2024', '03-06-2024'],
		]);
	});

	it('dateFormat DD-MM-YYYY (the default, and when chosen) sends day first', async () => {
		const service = new FakeService();
		await run(job({ startDate: '2024-03-05' }, { endDate: '31.12.2024' }, { dateFormat: 'DD-MM-YYYY' }));
		await run(university({ startDate: '05.03.2024' }, { endDate: '2025-01-31' }));
		expect(service.writes().map((request) => [request.body?.start_date, request.body?.end_date])).toEqual([
			['05-03-2024', '31-12-2024'],
			['05-03-2024', '31-01-2025'],
		]);
	});

	it('with MM-DD-YYYY a value already month first is taken as such, and end before start is still caught', async () => {
		const service = new FakeService();
		const result = await run(job({ startDate: '12-31-2024' }, { endDate: '01-02-2024' }, { dateFormat: 'MM-DD-YYYY' }));
		expect(errorMessage(result)).toContain('"End Date" must not be before the start date (start 12-31-2024, end 01-02-2024)');
		expect(service.requests).toEqual([]);
	});
});
