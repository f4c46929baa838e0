/**
 * Dropdown fields given by ID, ID as text or name (German or English, any case, accents,
 * spaces): what is sent, the suggestions for unknown names, and at most one request per
 * reference list and language per execution, however many items.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FakeService, errorMessage, outputs, run, setUpNock } from '../helpers/fakeService';

setUpNock();

const job = (additionalFields: INodeParameters) => ({
	resource: 'candidateJob',
	operation: 'add',
	candidateSlug: 'slug-42',
	companyName: 'Acme GmbH',
	startDate: '2023-10-01',
	additionalFields,
});

const language = (languageId: string | number) => ({
	resource: 'candidateLanguage',
	operation: 'add',
	candidateSlug: 'slug-42',
	languageId,
	languageLevelId: 3,
});

const degree = (universityDegreeId: string | number) => ({
	resource: 'candidateUniversity',
	operation: 'add',
	candidateSlug: 'slug-42',
	startDate: '2018-10-01',
	additionalFields: { universityDegreeId },
});

describe('job types', () => {
	it.each([
		[2, 2],
		['2', 2],
		[' 4 ', 4],
		['Working student', 2],
		['werkstudent', 2],
		['  WERKSTUDENT ', 2],
		['workingstudent', 2],
		['Praktikant', 1],
		['internship', 1],
		['Masterarbeit (im Unternehmen)', 6],
		['duales studium', 7],
	])('%j is sent as job_type_id %d', async (value, id) => {
		const service = new FakeService();
		const result = await run(job({ jobTypeId: value as string }));
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body?.job_type_id).toBe(id);
	});

	it('an unknown name fails the item with the closest entries and sends nothing', async () => {
		const service = new FakeService();
		const result = await run(job({ jobTypeId: 'Werkstudnt' }));
		expect(errorMessage(result)).toBe(
			'"Job Type": no job type is named "Werkstudnt". Closest: "Werkstudent / Working student" (ID 2), "Duales Studium / Dual studies" (ID 7), "Praktikant / Internship" (ID 1)',
		);
		expect(service.writes()).toEqual([]);
		expect(service.listRequests()).toEqual({ '/v1/general/job-types': 1 });
	});
});

describe('languages', () => {
	it.each([
		['English', 26],
		['english', 26],
		[' ENGLISH ', 26],
		['Englisch', 26],
		['Deutsch', 23],
		['Französisch', 35],
		['franzosisch', 35],
		['maori', 72],
		['Māori', 72],
		['Luxembourgish', 139],
		['Luxemburgisch', 139],
		['35', 35],
	])('%j is sent as language_id %d', async (value, id) => {
		const service = new FakeService();
		const result = await run(language(value));
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body?.language_id).toBe(id);
	});

	it('a name in the default list costs one request', async () => {
		const service = new FakeService();
		await run(language('Englisch'));
		expect(service.listRequests()).toEqual({ '/v1/general/language-skills?lang=de': 1 });
	});

	it('the English list is asked only when the default list lacks the name', async () => {
		const service = new FakeService();
		await run(degree('Doctorate'));
		expect(service.listRequests()).toEqual({
			'/v1/general/university-degrees?lang=de': 1,
			'/v1/general/university-degrees?lang=en': 1,
		});
	});

	it('an unknown name fails with the closest languages', async () => {
		const service = new FakeService();
		const result = await run(language('Klingon'), [{}, {}], 'continueRegularOutput');
		expect(outputs(result)[0].error).toMatch(/^"Language": no language is named "Klingon"\. Closest: .*\(ID \d+\)/);
		expect(service.writes()).toEqual([]);
	});

	it('suggests the near spelling', async () => {
		new FakeService();
		const result = await run(language('Englsh'));
		expect(errorMessage(result)).toContain('Closest: "English / Englisch" (ID 26)');
	});
});

describe('university degrees', () => {
	it.each([
		['Master of Science', 10],
		['master of science', 10],
		['Diplom', 23],
		['Diploma', 23],
		['Doctorate', 21],
		[10, 10],
	])('%j is sent as university_degrees_id %d', async (value, id) => {
		const service = new FakeService();
		const result = await run(degree(value));
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body?.university_degrees_id).toBe(id);
	});
});

describe('business areas and divisions', () => {
	it.each([
		['Softwareentwicklung', undefined, 'Softwareentwicklung'],
		['softwareentwicklung ', undefined, 'Softwareentwicklung'],
		['Software Development', undefined, 'Softwareentwicklung'],
		['IT & Softwareentwicklung', undefined, 'IT & Softwareentwicklung'],
		['offentlicher sektor', undefined, 'Öffentlicher Sektor'],
		['Public Sector', undefined, 'Öffentlicher Sektor'],
		['Verwaltung', 'en', 'Administration'],
		['administration', 'en', 'Administration'],
		['Sales', 'de', 'Sales'],
	])('%j (job language %s) is sent as %j', async (value, lang, sent) => {
		const service = new FakeService();
		const result = await run(job({ businessAreaDivision: value, ...(lang ? { lang } : {}) }));
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body?.business_area_division).toBe(sent);
	});

	it('an unknown name fails with the closest divisions and areas', async () => {
		const service = new FakeService();
		const result = await run(job({ businessAreaDivision: 'Softwarentwicklung' }));
		expect(errorMessage(result)).toContain('"Business Area": no business area or division is named "Softwarentwicklung". Closest: "Softwareentwicklung / Software Development"');
		expect(service.writes()).toEqual([]);
	});
});

describe('one request per list and language per execution', () => {
	it('50 items given by name: at most one request per reference list and language', async () => {
		const service = new FakeService();
		const names = ['English', 'Deutsch', 'Luxembourgish', 'französisch', 'Spanish'];
		const items = Array.from({ length: 50 }, (_, index) => ({ language: names[index % names.length], row: index }));
		const result = await run(language('={{ $json.language }}'), items);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(50);
		expect(service.listRequests()).toEqual({ '/v1/general/language-skills?lang=de': 1 });
		expect(service.writes()).toHaveLength(50);
		expect(outputs(result).slice(0, 5).map((json) => json.language_id)).toEqual([26, 23, 139, 35, 28]);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, index) => ({ item: index })));
	});

	it('50 university records with degree names in both languages: one request per language', async () => {
		const service = new FakeService();
		const names = ['Doctorate', 'Diplom', 'master of science', 'Diploma', '2'];
		const items = Array.from({ length: 50 }, (_, index) => ({ degree: names[index % names.length] }));
		const result = await run(degree('={{ $json.degree }}'), items);
		expect(result.error).toBeUndefined();
		expect(service.listRequests()).toEqual({
			'/v1/general/university-degrees?lang=de': 1,
			'/v1/general/university-degrees?lang=en': 1,
		});
		expect(outputs(result).slice(0, 5).map((json) => json.university_degrees_id)).toEqual([21, 23, 10, 23, 2]);
	});

	it('50 jobs with job type, business area and language names: one request per list and language', async () => {
		const service = new FakeService();
		const types = ['Working student', 'Praktikant', 'trainee', '4'];
		const areas = ['Software Development', 'Verwaltung', 'Sales'];
		const items = Array.from({ length: 50 }, (_, index) => ({ type: types[index % 4], area: areas[index % 3] }));
		const result = await run(job({ jobTypeId: '={{ $json.type }}', businessAreaDivision: '={{ $json.area }}' }), items);
		expect(result.error).toBeUndefined();
		expect(service.listRequests()).toEqual({
			'/v1/general/job-types': 1,
			'/v1/general/business-areas?lang=de': 1,
			'/v1/general/business-areas?lang=en': 1,
		});
		expect(outputs(result).slice(0, 4).map((json) => [json.job_type_id, json.business_area_division])).toEqual([
			[2, 'Softwareentwicklung'],
			[1, 'Verwaltung'],
			[3, 'Sales'],
			[4, 'Softwareentwicklung'],
		]);
	});

	it('each execution has its own cache: a second run fetches the list again', async () => {
		const service = new FakeService();
		await run(language('English'));
		await run(language('English'));
		expect(service.listRequests()).toEqual({ '/v1/general/language-skills?lang=de': 2 });
	});
});
