/**
 * Candidate → Import through the engine against the sandbox (real HTTP): a full import from the
 * editor's fixed collections, from JSON and from compact text, checked in the sandbox's stored
 * candidate; record failures that keep the candidate; "Fail Item on Record Error" on both
 * outputs; an existing slug skips creation.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ImportBench } from '../helpers/importBench';

const bench = new ImportBench();
const sandbox = () => bench.sandbox;

const person = {
	email: 'lena.fischer@example.test',
	phone: '+49 151 2345',
	additionalFields: {
		source: 'Careers page form',
		firstName: 'Lena',
		lastName: 'Fischer',
		city: 'Berlin',
		zipCode: 10119,
		birthday: '12.04.1999',
		emailPreference: true,
	},
};

/** What every full import below stores: the same candidate, whatever form the lists came in. */
const expectFullCandidate = (slug: unknown) => {
	const stored = bench.stored(slug);
	expect(stored).toMatchObject({
		email: 'lena.fischer@example.test',
		phone: '+49 151 2345',
		source: 'Careers page form',
		first_name: 'Lena',
		last_name: 'Fischer',
		city: 'Berlin',
		zip_code: '10119',
		birthday: '12-04-1999',
		email_preference: true,
	});
	expect(stored.records.jobs).toMatchObject([
		{
			company_name: 'Acme GmbH',
			job_title: 'Data Analyst',
			start_date: '01-01-2020',
			end_date: '30-06-2022',
			job_type_id: 2,
			business_area_division: 'Softwareentwicklung',
		},
		{ company_name: 'Globex AG', start_date: '01-07-2022' },
	]);
	expect(stored.records.universities).toMatchObject([
		{ university_name: 'TU Berlin', study_name: 'Computer Science', start_date: '01-10-2016', university_degrees_id: 10 },
	]);
	expect(stored.records.itSkills).toMatchObject([
		{ skill_name: 'TypeScript', skill_level_id: 4 },
		{ skill_name: 'SQL', skill_level_id: 3 },
	]);
	expect(stored.records.languages).toMatchObject([
		{ language_id: 26, language_level_id: 4 },
		{ language_id: 23, language_level_id: 5 },
	]);
	expect(stored.records.additionalInfo).toMatchObject([
		{ title: 'Volunteer work', start_date: '01-01-2019', description: 'Food bank' },
	]);
};

const expectAllAdded = (json: IDataObject) => {
	expect(json).toMatchObject({
		slug: expect.any(String),
		created: true,
		profileUpdated: true,
		summary: { records: 8, added: 8, failed: 0 },
	});
	expect((json.records as IDataObject[]).map((record) => [record.type, record.index, record.ok])).toEqual([
		['job', 1, true],
		['job', 2, true],
		['university', 1, true],
		['itSkill', 1, true],
		['itSkill', 2, true],
		['language', 1, true],
		['language', 2, true],
		['additionalInfo', 1, true],
	]);
	expect(json.message).toBe(`Created candidate ${json.slug as string}; profile updated; 8 of 8 records added`);
};

/** The person, with every list taken from the input row (fields jobs, studies, skills, languages, extra). */
const fromRow: INodeParameters = {
	...person,
	recordInput: 'lists',
	jobList: '={{ $json.jobs }}',
	universityList: '={{ $json.studies }}',
	...{ itSkillList: '={{ $json.skills }}', languageList: '={{ $json.languages }}' },
	additionalInfoList: '={{ $json.extra }}',
};

describe('candidate import: a full import', () => {
	it('from the fixed collections of the editor, names and dates in several forms', async () => {
		const result = await bench.run({
			...person,
			recordInput: 'fields',
			jobs: {
				job: [
					{
						companyName: 'Acme GmbH',
						startDate: '2020-01-01T00:00:00',
						additionalFields: {
							endDate: '30.06.2022',
							jobTitle: 'Data Analyst',
							jobTypeId: 'Working student',
							businessAreaDivision: 'Software Development',
						},
					},
					{ companyName: 'Globex AG', startDate: '2022-07-01' },
				],
			},
			universities: {
				university: [
					{
						startDate: '2016-10-01',
						additionalFields: { universityName: 'TU Berlin', studyName: 'Computer Science', universityDegreeId: 'master of science' },
					},
				],
			},
			itSkills: { itSkill: [{ skillName: 'TypeScript', skillLevel: 4 }, { skillName: 'SQL', skillLevel: 3 }] },
			languages: { language: [{ languageId: 'Englisch', languageLevelId: 4 }, { languageId: 23, languageLevelId: 5 }] },
			additionalInfo: {
				entry: [{ title: 'Volunteer work', additionalFields: { startDate: '01-01-2019', description: 'Food bank' } }],
			},
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expectAllAdded(item.json);
		expect(item.json.records).toContainEqual({
			type: 'job',
			index: 1,
			name: 'Acme GmbH',
			ok: true,
			message: 'Job added successfully',
		});
		expectFullCandidate(item.json.slug);
	});

	it('from JSON arrays given by expressions (objects, wire names, short keys, text elements)', async () => {
		const row = {
			email: 'lena.fischer@example.test',
			jobs: [
				{ company: 'Acme GmbH', title: 'Data Analyst', start: '2020-01-01', end: '2022-06-30', jobType: 2, businessArea: 'softwareentwicklung' },
				{ company_name: 'Globex AG', start_date: '01.07.2022' },
			],
			studies: '[{"university": "TU Berlin", "study": "Computer Science", "start": "2016-10-01", "degree": "10"}]',
			skills: [{ name: 'TypeScript', level: 4 }, 'SQL: 3'],
			languages: [{ language: 'English', level: 4 }, { languageId: 'Deutsch', languageLevelId: '5' }],
			extra: { title: 'Volunteer work', start: '2019-01-01', description: 'Food bank' },
		};
		const result = await bench.run({ ...fromRow, email: '={{ $json.email }}' }, { items: [row] });
		expect(result.error).toBeUndefined();
		expectAllAdded(result.items[0].json);
		expectFullCandidate(result.items[0].json.slug);
	});

	it('from compact text as in spreadsheet cells', async () => {
		const row = {
			jobs: 'Acme GmbH | Data Analyst | 2020-01-01 | 30.06.2022 | Werkstudent | Software Development\nGlobex AG | | 2022-07-01',
			studies: 'TU Berlin | Computer Science | 01.10.2016 | | Master of Science',
			...{ skills: 'TypeScript: 4, SQL: 3', languages: 'English: 4; German: 5' },
			extra: 'Volunteer work | 2019-01-01 | | Food bank',
		};
		const result = await bench.run(fromRow, { items: [row] });
		expect(result.error).toBeUndefined();
		expectAllAdded(result.items[0].json);
		expectFullCandidate(result.items[0].json.slug);
	});
});

/** A list with one record of each kind of failure: bad input, an unknown name, a service rejection. */
const withFailures: INodeParameters = {
	email: 'omar@example.test',
	additionalFields: { firstName: 'Omar' },
	recordInput: 'lists',
	jobList: 'Acme GmbH | Dev | 2022-01-01 | 2021-01-01\nGlobex AG | Dev | 2022-01-01',
	itSkillList: 'Go: 9, SQL: 2',
	languageList: 'Klingon: 3; English: 4; 999: 2',
};

describe('candidate import: record failures keep the candidate', () => {
	it('reports each failed record and adds the others (option off: the item succeeds)', async () => {
		const created = sandbox().counts.candidatesCreated;
		const result = await bench.run(withFailures);
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		expect(json).toMatchObject({ created: true, profileUpdated: true, summary: { records: 7, added: 3, failed: 4 } });
		expect(json.records).toEqual([
			{ type: 'job', index: 1, name: 'Acme GmbH', ok: false, error: '"End Date" must not be before the start date (start 01-01-2022, end 01-01-2021)' },
			{ type: 'job', index: 2, name: 'Globex AG', ok: true, message: 'Job added successfully' },
			{ type: 'itSkill', index: 1, name: 'Go', ok: false, error: '"Skill Level" must be an integer from 1 to 4 (got "9")' },
			{ type: 'itSkill', index: 2, name: 'SQL', ok: true, message: 'IT skill added successfully' },
			{ type: 'language', index: 1, name: 'Klingon', ok: false, error: expect.stringContaining('"Language": no language is named "Klingon". Closest:') },
			{ type: 'language', index: 2, name: 'English', ok: true, message: expect.any(String) },
			{ type: 'language', index: 3, name: '999', ok: false, error: expect.stringContaining('(HTTP 422)') },
		]);
		expect(json.message).toMatch(/^Created candidate \S+; profile updated; 3 of 7 records added\. Failed: job 1 \("Acme GmbH"\): "End Date"/);
		expect(sandbox().counts.candidatesCreated).toBe(created + 1);
		const stored = bench.stored(json.slug);
		expect(stored.first_name).toBe('Omar');
		expect(stored.records.jobs.map((job) => job.company_name)).toEqual(['Globex AG']);
		expect(stored.records.itSkills.map((skill) => skill.skill_name)).toEqual(['SQL']);
		expect(stored.records.languages.map((entry) => entry.language_id)).toEqual([26]);
	});

	it('a failed profile update is reported too; the records are still added', async () => {
		const result = await bench.run({
			candidateSlug: 'no-such-candidate',
			additionalFields: { firstName: 'Nobody' },
			recordInput: 'lists',
			itSkillList: 'SQL: 2',
		});
		const json = result.items[0].json;
		expect(json).toMatchObject({
			slug: 'no-such-candidate',
			created: false,
			profileUpdated: false,
			profileError: expect.stringContaining('Candidate not found'),
			summary: { records: 1, added: 0, failed: 1 },
		});
		expect(json.message).toContain('profile update failed; 0 of 1 records added. Failed: profile update:');
	});
});

describe('candidate import: Fail Item on Record Error', () => {
	const failing = { ...withFailures, jobList: 'Globex AG | Dev | 2022-01-01', itSkillList: 'SQL: 2', options: { failOnRecordError: true } };

	it('error output: the item fails, its error item keeps the slug and every record result', async () => {
		const result = await bench.run(failing, { onError: 'continueErrorOutput', items: [{ row: 7 }] });
		expect(result.items).toEqual([]);
		expect(result.errorItems).toHaveLength(1);
		const [item] = result.errorItems;
		expect(item.pairedItem).toEqual({ item: 0 });
		const json = item.json;
		// The engine merges the input item's json into an error item.
		expect(json.row).toBe(7);
		const error = json.error as IDataObject;
		expect(error.message).toMatch(/^Import incomplete: language 1 \("Klingon"\): "Language": no language is named "Klingon"/);
		expect(error).toMatchObject({ created: true, profileUpdated: true, summary: { records: 5, added: 3, failed: 2 } });
		expect(error.errorDescription).toContain(`is kept (slug ${error.slug as string})`);
		expect((error.records as IDataObject[]).map((record) => record.ok)).toEqual([true, true, false, true, false]);
		expect(bench.stored(error.slug).records.languages.map((entry) => entry.language_id)).toEqual([26]);
	});

	it('regular output (continue): the error item carries error, slug and records side by side', async () => {
		const result = await bench.run(failing, { onError: 'continueRegularOutput' });
		const json = result.items[0].json;
		expect(json.error).toEqual(expect.stringMatching(/^Import incomplete: language 1/));
		expect(json).toMatchObject({ slug: expect.any(String), created: true, summary: { failed: 2 } });
		expect(bench.stored(json.slug).email).toBe('omar@example.test');
	});

	it('without continue on fail the run stops with that error', async () => {
		const result = await bench.run(failing);
		expect(result.error?.message).toMatch(/^Import incomplete: language 1/);
	});

	it('invalid input fails the item before anything is sent', async () => {
		const before = sandbox().requests.length;
		const created = sandbox().counts.candidatesCreated;
		const result = await bench.run(
			{ ...withFailures, options: { failOnRecordError: true } },
			{ onError: 'continueRegularOutput' },
		);
		expect(result.items[0].json.error).toBe(
			'job 1 ("Acme GmbH"): "End Date" must not be before the start date (start 01-01-2022, end 01-01-2021)',
		);
		// Nothing kept but the row's action (issue 47, trap 8): the error's description beside it.
		expect(result.items[0].json).toMatchObject({ action: 'failed', errorDescription: expect.stringContaining('Nothing was sent. Also: IT skill 1 ("Go")') });
		expect(sandbox().counts.candidatesCreated).toBe(created);
		expect(bench.writesSince(before)).toEqual([]);
	});

	it('invalid candidate fields or an unreadable list fail the item before anything is sent', async () => {
		const before = sandbox().requests.length;
		const noContact = await bench.run({ email: '', phone: '', recordInput: 'lists', itSkillList: 'SQL: 2' });
		expect(noContact.error?.message).toBe('"Email" or "Phone" is required: give at least one of them');
		const badJson = await bench.run({ email: 'a@b.test', recordInput: 'lists', languageList: '[{"language": "English"' });
		expect(badJson.error?.message).toMatch(/^"Languages" is not valid JSON/);
		expect(bench.writesSince(before)).toEqual([]);
	});
});

describe('candidate import: re-runs', () => {
	it('a given slug skips creation: only the update and the records are sent', async () => {
		const first = await bench.run({ email: 'sofia@example.test', recordInput: 'lists', itSkillList: 'Figma: 2' });
		const slug = first.items[0].json.slug as string;
		const created = sandbox().counts.candidatesCreated;
		const before = sandbox().requests.length;

		const again = await bench.run({
			candidateSlug: `  ${slug} `,
			email: 'sofia.rossi@example.test',
			additionalFields: { source: 'ignored for an existing candidate', city: 'München' },
			recordInput: 'lists',
			languageList: 'Italian: 5',
		});
		expect(again.items[0].json).toMatchObject({ slug, created: false, profileUpdated: true, summary: { added: 1, failed: 0 }, notSent: ['source'] });
		expect(again.items[0].json.message).toBe(
			`Used candidate ${slug}; profile updated; 1 of 1 records added; not sent: source (the service takes them only when it creates a candidate)`,
		);
		expect(sandbox().counts.candidatesCreated).toBe(created);
		expect(bench.writesSince(before)).toEqual([
			{ method: 'PUT', path: '/gin/v1/company/candidate', body: { user_slug: slug, email: 'sofia.rossi@example.test', city: 'München' } },
			{ method: 'POST', path: '/gin/v1/company/candidate/language', body: { user_slug: slug, language_id: 53, language_level_id: 5 } },
		]);
		const stored = bench.stored(slug);
		expect(stored).toMatchObject({ email: 'sofia.rossi@example.test', city: 'München', source: null });
		expect(stored.records.itSkills).toHaveLength(1);
	});

	it('a new candidate gets no update when only the creation fields are given', async () => {
		const before = sandbox().requests.length;
		const result = await bench.run({ phone: '0301234', additionalFields: { employee: true }, recordInput: 'fields' });
		expect(result.items[0].json).toMatchObject({ created: true, profileUpdated: false, summary: { records: 0 } });
		expect(bench.writesSince(before).map((request) => request.method)).toEqual(['POST']);
	});
});
