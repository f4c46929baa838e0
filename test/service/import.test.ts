/**
 * Candidate → Import against the sandbox: one item becomes a stored candidate with its profile
 * and every kind of record (fields mode and JSON/compact-text mode, names instead of ids, dates
 * in several forms), an existing slug is added to instead of creating, records of another
 * company's candidate are refused, and a continue-on-fail batch stores exactly the valid rows.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SandboxCandidate } from '../sandbox/server';
import { ALICE, BOB, emailCredential, storedCandidate, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, createCandidate, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

let alice: Harness;
let bob: Harness;
beforeAll(() => {
	alice = new Harness(emailCredential(sandbox(), ALICE));
	bob = new Harness(emailCredential(sandbox(), BOB));
});

const stored = (slug: string, companyId = 1): SandboxCandidate => storedCandidate(sandbox(), slug, companyId);

const importing = (parameters: IDataObject) => ({ resource: 'candidate', operation: 'import', options: FAST, ...parameters });

describe('candidate.import', () => {
	it('fields mode: creates the candidate, sets the profile and adds every record, names resolved', async () => {
		const result = await runOk(
			alice,
			importing({
				email: 'import.fields@example.test',
				phone: '',
				additionalFields: { source: 'Job fair', firstName: 'Ida', lastName: 'Import', city: 'Leipzig', zipCode: 4109, birthday: '03.07.1998' },
				recordInput: 'fields',
				// as the editor stores them: the add operation's optional fields sit in each entry's Additional Fields
				jobs: { job: [{ companyName: 'Acme GmbH', startDate: '2020-01-01', additionalFields: { endDate: '2022-06-30', jobTypeId: 'Working student', businessAreaDivision: 'Software Development' } }] },
				universities: { university: [{ startDate: '2016-10-01', additionalFields: { endDate: '30.09.2019', universityName: 'TU Berlin', universityDegreeId: 'Master of Science' } }] },
				itSkills: { itSkill: [{ skillName: 'TypeScript', skillLevel: 4 }, { skillName: 'SQL', skillLevel: 3 }] },
				languages: { language: [{ languageId: 'Englisch', languageLevelId: 4 }, { languageId: 'German', languageLevelId: 5 }] },
				additionalInfo: { entry: [{ title: 'Volunteer work', additionalFields: { startDate: '2019-01-01' } }] },
			}),
		);
		const [json] = outputs(result);
		expect(json).toMatchObject({ created: true, slug: expect.any(String) });
		const candidate = stored(String(json.slug));
		expect(candidate).toMatchObject({
			email: 'import.fields@example.test',
			source: 'Job fair',
			first_name: 'Ida',
			last_name: 'Import',
			city: 'Leipzig',
			zip_code: '4109',
			birthday: '03-07-1998',
		});
		expect(candidate.records.jobs).toMatchObject([
			{ company_name: 'Acme GmbH', start_date: '01-01-2020', end_date: '30-06-2022', job_type_id: 2, business_area_division: 'Softwareentwicklung' },
		]);
		expect(candidate.records.universities).toMatchObject([
			{ start_date: '01-10-2016', end_date: '30-09-2019', university_name: 'TU Berlin', university_degrees_id: 10 },
		]);
		expect(candidate.records.itSkills.map((skill) => [skill.skill_name, skill.skill_level_id])).toEqual([['TypeScript', 4], ['SQL', 3]]);
		expect(candidate.records.languages.map((entry) => [entry.language_id, entry.language_level_id])).toEqual([[26, 4], [23, 5]]);
		expect(candidate.records.additionalInfo).toMatchObject([{ title: 'Volunteer work', start_date: '01-01-2019' }]);
		expect(sandbox().candidates(1).filter((entry) => entry.email === 'import.fields@example.test')).toHaveLength(1);
	});

	it('JSON or text mode onto an existing slug: nothing created, records added, dates in MM-DD-YYYY when chosen', async () => {
		const slug = await createCandidate(alice, { email: 'import.lists@example.test' });
		const count = sandbox().candidates(1).length;
		const result = await runOk(
			alice,
			importing({
				candidateSlug: slug,
				additionalFields: { lastName: 'Listed' },
				recordInput: 'lists',
				jobList: 'Beta AG | Analyst | 2021-03-05 | | Werkstudent\nGamma KG | Lead | 05.04.2022',
				universityList: '={{ [{ university: "LMU", start: "2015-10-01", degree: "Promotion" }] }}',
				itSkillList: 'Python: 4, Go: 2',
				languageList: 'English: 4; Französisch: 2',
				additionalInfoList: '[{"title": "Award", "start": "2020-02-03"}]',
				options: { ...FAST, dateFormat: 'MM-DD-YYYY' },
			}),
		);
		expect(outputs(result)[0]).toMatchObject({ slug, created: false });
		expect(sandbox().candidates(1)).toHaveLength(count);
		const candidate = stored(slug);
		expect(candidate.last_name).toBe('Listed');
		expect(candidate.records.jobs).toMatchObject([
			{ company_name: 'Beta AG', job_title: 'Analyst', start_date: '03-05-2021', job_type_id: 2 },
			{ company_name: 'Gamma KG', job_title: 'Lead', start_date: '04-05-2022' },
		]);
		expect(candidate.records.universities).toMatchObject([{ university_name: 'LMU', start_date: '10-01-2015', university_degrees_id: 21 }]);
		expect(candidate.records.itSkills.map((skill) => [skill.skill_name, skill.skill_level_id])).toEqual([['Python', 4], ['Go', 2]]);
		expect(candidate.records.languages.map((entry) => [entry.language_id, entry.language_level_id])).toEqual([[26, 4], [35, 2]]);
		expect(candidate.records.additionalInfo).toMatchObject([{ title: 'Award', start_date: '02-03-2020' }]);
	});

	it('bob importing onto alice\'s slug changes nothing of alice\'s candidate', async () => {
		const slug = await createCandidate(alice, { email: 'import.private@example.test' });
		const before = stored(slug);
		const result = await bob.run({
			parameters: importing({
				candidateSlug: slug,
				additionalFields: { firstName: 'Hijack' },
				recordInput: 'lists',
				itSkillList: 'Hacking: 4',
				options: { ...FAST, failOnRecordError: true },
			}),
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(1);
		expect(String(result.items[0].json.error)).toMatch(/not found|404/i);
		expect(stored(slug)).toEqual(before);
		expect(sandbox().candidates(2).some((candidate) => candidate.slug === slug)).toBe(false);
	});

	it('continue on fail: a batch of rows, one output per row, the sandbox holds exactly the valid candidates', async () => {
		const rows: IDataObject[] = [
			{ email: 'imp.ok1@example.test', languages: 'English: 4' },
			{ email: '', languages: 'English: 4' },
			{ email: 'imp.bad-date@example.test', languages: 'German: 3', jobs: 'Bad Date GmbH | X | 2020-02-30' },
			{ email: 'imp.ok2@example.test', languages: 'Deutsch: 5' },
		];
		const before = sandbox().candidates(1).length;
		const result = await alice.run({
			parameters: importing({
				email: '={{ $json.email }}',
				recordInput: 'lists',
				languageList: '={{ $json.languages }}',
				jobList: '={{ $json.jobs ?? "" }}',
				options: { ...FAST, failOnRecordError: true },
			}),
			items: rows,
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, index) => ({ item: index })));
		const json = outputs(result);
		expect(json[1].error).toEqual(expect.stringContaining('"Email" or "Phone" is required'));
		expect(String(json[2].error)).toMatch(/2020-02-30/);
		const created = sandbox().candidates(1).slice(before);
		expect(created.map((candidate) => candidate.email).sort()).toEqual(['imp.ok1@example.test', 'imp.ok2@example.test']);
		expect(created.map((candidate) => candidate.slug).sort()).toEqual([json[0].slug, json[3].slug].sort());
		expect(stored(String(json[3].slug)).records.languages).toMatchObject([{ language_id: 23, language_level_id: 5 }]);
	});
});
