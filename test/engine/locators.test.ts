/**
 * Issue 34, point 7: node version 1.2 takes Job Type, Language, University Degree and Business
 * Area as resource locators (From List / By Name / By ID), through n8n's engine against the fake
 * service: each mode sends what the dropdown of versions 1 and 1.1 sends, a typed or mapped name
 * is resolved as before, and a version 1.1 workflow's plain values work unchanged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeService, credential, errorMessage, setUpNock } from '../helpers/fakeService';
import { Harness } from '../helpers/harness';

setUpNock();

const locator = (mode: 'list' | 'name' | 'id', value: string | number) => ({ __rl: true, mode, value });

/** Candidate Job → Add with these Additional Fields. */
const job = (additionalFields: IDataObject): INodeParameters => ({ resource: 'candidateJob', operation: 'add', candidateSlug: 'slug-42', companyName: 'Acme GmbH', startDate: '2023-10-01', additionalFields: additionalFields as INodeParameters });

const runAt = async (typeVersion: number, parameters: INodeParameters, items?: IDataObject[]) =>
	await new Harness(credential).run({ parameters, items, typeVersion });

describe('version 1.2: resource locators', () => {
	it('Job Type and Business Area from the list, by name (typed or mapped) and by ID send what the dropdown sends', async () => {
		const service = new FakeService();
		const result = await runAt(
			1.2,
			job({ jobTypeId: locator('name', '={{ $json.type }}'), businessAreaDivision: locator('name', '={{ $json.area }}') }),
			[{ type: 'Werkstudent', area: 'Software Development' }],
		);
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body).toMatchObject({ job_type_id: 2, business_area_division: 'Softwareentwicklung' });

		expect((await runAt(1.2, job({ jobTypeId: locator('list', 2), businessAreaDivision: locator('list', 'Sales') }))).error).toBeUndefined();
		expect(service.writes()[1].body).toMatchObject({ job_type_id: 2, business_area_division: 'Sales' });

		expect((await runAt(1.2, job({ jobTypeId: locator('id', ' 4 ') }))).error).toBeUndefined();
		expect(service.writes()[2].body?.job_type_id).toBe(4);
	});

	it('Language (a top-level field) and University Degree by name; an unknown name fails naming the closest entries', async () => {
		const service = new FakeService();
		const language = { resource: 'candidateLanguage', operation: 'add', candidateSlug: 'slug-42', languageId: locator('name', 'Englisch'), languageLevelId: 3 };
		expect((await runAt(1.2, language)).error).toBeUndefined();
		expect(service.writes()[0].body?.language_id).toBe(26);

		const university = { resource: 'candidateUniversity', operation: 'add', candidateSlug: 'slug-42', startDate: '2018-10-01', additionalFields: { universityDegreeId: locator('name', 'Master of Science') } };
		expect((await runAt(1.2, university)).error).toBeUndefined();
		expect(typeof service.writes()[1].body?.university_degrees_id).toBe('number');

		const failed = await runAt(1.2, job({ jobTypeId: locator('name', 'Werkstudnt') }));
		expect(errorMessage(failed)).toContain('"Job Type": no job type is named "Werkstudnt"');
		expect(service.writes()).toHaveLength(2);
	});

	it("Import's record collections take locators too", async () => {
		const service = new FakeService();
		const result = await runAt(1.2, {
			resource: 'candidate',
			operation: 'import',
			email: 'ada@example.test',
			recordInput: 'fields',
			jobs: { job: [{ companyName: 'Acme', startDate: '2020-01-01', additionalFields: { jobTypeId: locator('name', 'Praktikant') } }] },
			languages: { language: [{ languageId: locator('list', 26), languageLevelId: 4 }] },
		});
		expect(result.error).toBeUndefined();
		const bodies = service.writes().map((write) => write.body ?? {});
		expect(bodies.find((body) => 'job_type_id' in body)?.job_type_id).toBe(1);
		expect(bodies.find((body) => 'language_id' in body)?.language_id).toBe(26);
	});

	it('a version 1.1 workflow keeps its plain dropdown values', async () => {
		const service = new FakeService();
		expect((await runAt(1.1, job({ jobTypeId: 'Working student', businessAreaDivision: 'Sales' }))).error).toBeUndefined();
		expect(service.writes()[0].body).toMatchObject({ job_type_id: 2, business_area_division: 'Sales' });
	});
});
