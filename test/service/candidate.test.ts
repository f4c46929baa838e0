/**
 * Candidate create / update and the five sub-record operations against the sandbox, checked
 * in the sandbox's stored state: names instead of ids (German and English), dates in several
 * forms and both date formats, cross-company isolation, and a continue-on-fail batch.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

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

/** Runs one "add" operation for `slug` and returns the stored records of that kind. */
const add = async (resource: string, slug: string, parameters: INodeParameters) =>
	await runOk(alice, { resource, operation: 'add', candidateSlug: slug, ...parameters });

describe('candidate create and update', () => {
	it('create stores e-mail, phone, source and employee; the output slug is the stored one', async () => {
		const result = await runOk(alice, {
			resource: 'candidate',
			operation: 'create',
			email: ' lena@example.test ',
			phone: '+49 151 2345',
			additionalFields: { source: 'Careers page', employee: true },
		});
		const [json] = outputs(result);
		expect(json).toMatchObject({ slug: expect.any(String), email: 'lena@example.test' });
		expect(stored(String(json.slug))).toMatchObject({
			email: 'lena@example.test',
			phone: '+49 151 2345',
			source: 'Careers page',
			employee: true,
			first_name: null,
			companyId: 1,
		});
	});

	it('create with a phone only stores no e-mail, employee false', async () => {
		const slug = await createCandidate(alice, { email: '', phone: '0301234' });
		expect(stored(slug)).toMatchObject({ phone: '0301234', email: null, employee: false, source: null });
	});

	it('update stores every field with the service\'s types (zip as text, birthday day first, booleans)', async () => {
		const slug = await createCandidate(alice);
		const result = await runOk(alice, {
			resource: 'candidate',
			operation: 'update',
			candidateSlug: slug,
			updateFields: {
				email: 'lena.fischer@example.test',
				firstName: 'Lena',
				lastName: 'Fischer',
				city: 'Berlin',
				street: 'Torstraße 1',
				zipCode: 10119,
				phone: '+49 30 1',
				birthday: '1999-04-12',
				whatsappPreference: true,
				smsPreference: false,
				emailPreference: 'true',
			},
		});
		const profile = {
			email: 'lena.fischer@example.test',
			first_name: 'Lena',
			last_name: 'Fischer',
			city: 'Berlin',
			street: 'Torstraße 1',
			zip_code: '10119',
			phone: '+49 30 1',
			birthday: '12-04-1999',
			whatsapp_preference: true,
			sms_preference: false,
			email_preference: true,
		};
		expect(stored(slug)).toMatchObject(profile);
		expect(outputs(result)[0]).toMatchObject({ slug, ...profile });
	});

	it.each([
		['1999-04-12'],
		['1999-04-12T23:30:00-05:00'],
		['12.04.1999'],
		['12-04-1999'],
		['={{ DateTime.fromISO("1999-04-12") }}'],
		['={{ new Date(Date.UTC(1999, 3, 12, 12)) }}'],
	])('birthday %s is stored as 12-04-1999 (also with Date Format MM-DD-YYYY)', async (birthday) => {
		const slug = await createCandidate(alice);
		await runOk(alice, { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { birthday }, options: { ...FAST, dateFormat: 'MM-DD-YYYY' } });
		expect(stored(slug).birthday).toBe('12-04-1999');
	});

	it('a later update changes only the fields it sends', async () => {
		const slug = await createCandidate(alice, { email: 'keep@example.test' });
		await runOk(alice, { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { firstName: 'Ada', city: 'Bonn' } });
		await runOk(alice, { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { city: 'Kiel' } });
		expect(stored(slug)).toMatchObject({ email: 'keep@example.test', first_name: 'Ada', city: 'Kiel' });
	});
});

describe('sub-records with names instead of ids', () => {
	let slug: string;
	beforeAll(async () => {
		slug = await createCandidate(alice, { email: 'records@example.test' });
	});

	it.each([
		['Working student', 2],
		['Werkstudent', 2],
		['  working STUDENT ', 2],
		['Praktikant', 1],
		['Permanent position', 4],
		['Wissenschaftlicher Mitarbeiter / Doktorand', 15],
		['7', 7],
		[10, 10],
	])('job type %j is stored as job_type_id %d', async (jobTypeId, id) => {
		const companyName = `Job type ${String(jobTypeId).trim()}`;
		await add('candidateJob', slug, { companyName, startDate: '2023-10-01', additionalFields: { jobTypeId } });
		const job = stored(slug).records.jobs.find((entry) => entry.company_name === companyName);
		expect(job).toMatchObject({ job_type_id: id, start_date: '01-10-2023' });
	});

	it.each([
		['Softwareentwicklung', undefined, 'Softwareentwicklung'],
		['Software Development', undefined, 'Softwareentwicklung'],
		['software development', 'en', 'Software Development'],
		['Public Sector', undefined, 'Öffentlicher Sektor'],
		['offentlicher sektor', 'en', 'Public Sector'],
		['Verwaltung', 'en', 'Public Administration'],
		['IT & Softwareentwicklung', 'de', 'IT & Softwareentwicklung'],
	])('business area %j (job language %s) is stored as %j', async (value, lang, sent) => {
		const companyName = `Area ${value} ${String(lang)}`;
		await add('candidateJob', slug, {
			companyName,
			startDate: '2021-01-01',
			additionalFields: { businessAreaDivision: value, ...(lang ? { lang } : {}) },
		});
		const job = stored(slug).records.jobs.find((entry) => entry.company_name === companyName);
		expect(job?.business_area_division).toBe(sent);
		if (lang) expect(job?.lang).toBe(lang);
	});

	it('job with every field is stored as sent', async () => {
		await add('candidateJob', slug, {
			companyName: 'Full Job GmbH',
			startDate: '01.02.2019',
			additionalFields: {
				endDate: '2020-12-31T23:59:00+14:00',
				cityName: 'Hamburg',
				jobTypeId: 'Festanstellung',
				description: 'Dashboards',
				jobTitle: 'Analyst',
				businessAreaDivision: 'Controlling',
				lang: 'de',
			},
		});
		const job = stored(slug).records.jobs.find((entry) => entry.company_name === 'Full Job GmbH');
		expect(job).toMatchObject({
			company_name: 'Full Job GmbH',
			start_date: '01-02-2019',
			end_date: '31-12-2020',
			city_name: 'Hamburg',
			job_type_id: 4,
			description: 'Dashboards',
			job_title: 'Analyst',
			business_area_division: 'Controlling',
			lang: 'de',
		});
	});

	it.each([
		['Master of Science', 10],
		['master of science', 10],
		['Promotion', 21],
		['Doctorate', 21],
		['Erstes Staatsexamen', 19],
		['MBA', 22],
		['23', 23],
	])('university degree %j is stored as university_degrees_id %d', async (universityDegreeId, id) => {
		const universityName = `Uni ${universityDegreeId}`;
		await add('candidateUniversity', slug, {
			startDate: '2015-10-01',
			additionalFields: { universityDegreeId, universityName, studyName: 'CS', endDate: '30.09.2019', grade: 2, gradingSystemId: 1, description: 'Thesis' },
		});
		const record = stored(slug).records.universities.find((entry) => entry.university_name === universityName);
		expect(record).toMatchObject({
			university_degrees_id: id,
			start_date: '01-10-2015',
			end_date: '30-09-2019',
			study_name: 'CS',
			grade: 2,
			grading_systems_id: 1,
			description: 'Thesis',
		});
	});

	it.each([
		['English', 26],
		['Englisch', 26],
		[' ENGLISH ', 26],
		['Deutsch', 23],
		['German', 23],
		['Französisch', 35],
		['Māori', 72],
		['maori', 72],
		['Luxembourgish', 139],
		['Luxemburgisch', 139],
		['Cantonese', 140],
		['66', 66],
	])('language %j is stored as language_id %d', async (languageId, id) => {
		const before = stored(slug).records.languages.length;
		await add('candidateLanguage', slug, { languageId, languageLevelId: 3 });
		const languages = stored(slug).records.languages;
		expect(languages).toHaveLength(before + 1);
		expect(languages.at(-1)).toMatchObject({ language_id: id, language_level_id: 3 });
	});

	it('IT skills store name and level (1 to 4, number or text)', async () => {
		await add('candidateItSkill', slug, { skillName: 'Python', skillLevel: 4 });
		await add('candidateItSkill', slug, { skillName: 'Rust', skillLevel: '1' });
		expect(stored(slug).records.itSkills).toMatchObject([
			{ skill_name: 'Python', skill_level_id: 4 },
			{ skill_name: 'Rust', skill_level_id: 1 },
		]);
	});

	it('additional information with and without dates', async () => {
		await add('candidateAdditionalInfo', slug, { title: 'Volunteer', additionalFields: { description: 'Red Cross', startDate: '2020-01-15', endDate: '15.06.2021' } });
		await add('candidateAdditionalInfo', slug, { title: 'Only a title' });
		expect(stored(slug).records.additionalInfo).toMatchObject([
			{ title: 'Volunteer', description: 'Red Cross', start_date: '15-01-2020', end_date: '15-06-2021' },
			{ title: 'Only a title' },
		]);
		expect(stored(slug).records.additionalInfo[1].start_date).toBeUndefined();
	});

	it.each([
		['2024-03-05', '05-03-2024', '03-05-2024'],
		['2024-03-05T10:00:00Z', '05-03-2024', '03-05-2024'],
		['2024-03-05T23:30:00-08:00', '05-03-2024', '03-05-2024'],
		['05.03.2024', '05-03-2024', '03-05-2024'],
		['={{ DateTime.fromISO("2024-03-05") }}', '05-03-2024', '03-05-2024'],
		['={{ new Date(Date.UTC(2024, 2, 5, 12)) }}', '05-03-2024', '03-05-2024'],
	])('start date %s is stored as %s (DD-MM-YYYY) and %s (MM-DD-YYYY) on jobs, universities, additional info', async (value, dayFirst, monthFirst) => {
		for (const [dateFormat, expected] of [['DD-MM-YYYY', dayFirst], ['MM-DD-YYYY', monthFirst]]) {
			const tag = `date ${value.replace(/^=/, 'expression ')} ${dateFormat}`;
			const options = { ...FAST, dateFormat };
			await add('candidateJob', slug, { companyName: tag, startDate: value, options });
			await add('candidateUniversity', slug, { startDate: value, additionalFields: { universityName: tag }, options });
			await add('candidateAdditionalInfo', slug, { title: tag, additionalFields: { startDate: value }, options });
			const records = stored(slug).records;
			expect(records.jobs.find((entry) => entry.company_name === tag)?.start_date).toBe(expected);
			expect(records.universities.find((entry) => entry.university_name === tag)?.start_date).toBe(expected);
			expect(records.additionalInfo.find((entry) => entry.title === tag)?.start_date).toBe(expected);
		}
	});

	it('an unknown name fails naming the closest entries and stores nothing', async () => {
		const before = stored(slug).records.languages.length;
		const result = await alice.run({ parameters: { resource: 'candidateLanguage', operation: 'add', candidateSlug: slug, languageId: 'Klingonisch', languageLevelId: 2 } });
		expect(result.error?.message).toMatch(/no language is named "Klingonisch". Closest: /);
		expect(stored(slug).records.languages).toHaveLength(before);
	});

	it('an ongoing job: empty end date is accepted and stored without an end', async () => {
		await add('candidateJob', slug, { companyName: 'Ongoing AG', startDate: '2024-01-01', additionalFields: { endDate: '' } });
		const job = stored(slug).records.jobs.find((entry) => entry.company_name === 'Ongoing AG');
		expect(job?.start_date).toBe('01-01-2024');
		expect(job?.end_date ?? '').toBe('');
	});
});

describe('cross-company isolation', () => {
	let slug: string;
	let before: SandboxCandidate;
	beforeAll(async () => {
		slug = await createCandidate(alice, { email: 'private@acme.test' });
		await runOk(alice, { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { firstName: 'Private' } });
		before = stored(slug);
	});

	it('bob cannot update alice\'s candidate: a clear error item, nothing changed', async () => {
		const result = await bob.run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { firstName: 'Hijacked' }, options: FAST },
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(String(result.items[0].json.error)).toMatch(/Candidate not found/);
		expect(String(result.items[0].json.error)).toMatch(/404/);
		expect(stored(slug)).toEqual(before);
	});

	it('without continue on fail the run stops with that error', async () => {
		const result = await bob.run({ parameters: { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { city: 'X' }, options: FAST } });
		expect(result.error?.message).toMatch(/Candidate not found/);
		expect(stored(slug)).toEqual(before);
	});

	it.each([
		['candidateJob', { companyName: 'Evil Corp', startDate: '2020-01-01' }],
		['candidateUniversity', { startDate: '2020-01-01' }],
		['candidateItSkill', { skillName: 'Hacking', skillLevel: 4 }],
		['candidateLanguage', { languageId: 'English', languageLevelId: 1 }],
		['candidateAdditionalInfo', { title: 'Evil' }],
	])('bob cannot add a %s record to alice\'s candidate', async (resource, parameters) => {
		const result = await bob.run({
			parameters: { resource, operation: 'add', candidateSlug: slug, ...parameters, options: FAST },
			onError: 'continueRegularOutput',
		});
		expect(String(result.items[0].json.error)).toMatch(/Candidate not found/);
		expect(stored(slug)).toEqual(before);
	});

	it('bob\'s company holds only bob\'s candidates', async () => {
		const bobs = await createCandidate(bob, { email: 'own@globex.test' });
		expect(sandbox().candidates(2).map((candidate) => candidate.slug)).toEqual([bobs]);
		expect(sandbox().candidates(1).some((candidate) => candidate.slug === bobs)).toBe(false);
	});
});

describe('continue on fail: a batch mixing valid and invalid rows', () => {
	it('candidate create: one output per input, paired, and the sandbox holds exactly the valid rows', async () => {
		const rows: IDataObject[] = [
			{ email: 'batch.ok1@example.test', phone: '' },
			{ email: '', phone: '' },
			{ email: 'not-an-email', phone: '' },
			{ email: '', phone: '+49 170 1' },
			{ email: 'batch.ok3@example.test', phone: '+49 170 2' },
		];
		const before = sandbox().candidates(1).length;
		const result = await alice.run({
			parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', phone: '={{ $json.phone }}', options: FAST },
			items: rows,
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, index) => ({ item: index })));
		const json = outputs(result);
		expect(json[1]).toEqual({ error: expect.stringContaining('"Email" or "Phone" is required') });
		expect(json[2]).toEqual({ error: expect.stringContaining('"Email" must be a valid e-mail address') });
		const slugs = [json[0].slug, json[3].slug, json[4].slug];
		expect(slugs.every((slug) => typeof slug === 'string')).toBe(true);
		const after = sandbox().candidates(1);
		expect(after).toHaveLength(before + 3);
		expect(after.slice(before).map((candidate) => candidate.slug).sort()).toEqual([...slugs].sort());
		expect(stored(String(json[3].slug)).phone).toBe('+49 170 1');
	});

	it('records: node-side and service-side failures (unknown slug, unknown name, bad level, bad date) fail alone', async () => {
		const slug = await createCandidate(alice, { email: 'batch.records@example.test' });
		const rows: IDataObject[] = [
			{ slug, skill: 'Python', level: 3 },
			{ slug, skill: 'SQL', level: 7 },
			{ slug: '00000000-0000-4000-8000-000000000000', skill: 'Ghost', level: 2 },
			{ slug: '', skill: 'Go', level: 1 },
			{ slug, skill: 'Excel', level: '4' },
		];
		const result = await alice.run({
			parameters: {
				resource: 'candidateItSkill',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				skillName: '={{ $json.skill }}',
				skillLevel: '={{ $json.level }}',
				options: FAST,
			},
			items: rows,
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, index) => ({ item: index })));
		const json = outputs(result);
		expect(json[0]).toMatchObject({ slug, skill_name: 'Python', skill_level_id: 3 });
		expect(json[1]).toEqual({ error: '"Skill Level" must be an integer from 1 to 4 (got 7)' });
		expect(String(json[2].error)).toMatch(/Candidate not found/);
		expect(json[3]).toEqual({ error: '"Candidate Slug" is required' });
		expect(json[4]).toMatchObject({ slug, skill_name: 'Excel', skill_level_id: 4 });
		expect(stored(slug).records.itSkills.map((skill) => [skill.skill_name, skill.skill_level_id]).sort()).toEqual([
			['Excel', 4],
			['Python', 3],
		]);
	});

	it('jobs with names and dates from the rows: error output gets exactly the bad rows', async () => {
		const slug = await createCandidate(alice, { email: 'batch.jobs@example.test' });
		const rows: IDataObject[] = [
			{ company: 'A', start: '2020-01-01', type: 'Werkstudent' },
			{ company: 'B', start: '2020-02-30', type: 'Werkstudent' },
			{ company: 'C', start: '01.03.2020', type: 'Astronaut' },
			{ company: 'D', start: '2020-04-01', type: 'Internship', end: '2019-01-01' },
			{ company: 'E', start: '2020-05-01T12:00:00Z', type: '4' },
		];
		const result = await alice.run({
			parameters: {
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: slug,
				companyName: '={{ $json.company }}',
				startDate: '={{ $json.start }}',
				additionalFields: { jobTypeId: '={{ $json.type }}', endDate: '={{ $json.end ?? "" }}' },
				options: FAST,
			},
			items: rows,
			onError: 'continueErrorOutput',
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 4 }]);
		expect(result.errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
		expect(String(result.errorItems[0].json.error)).toMatch(/"Start Date" "2020-02-30" is not a real calendar date/);
		expect(String(result.errorItems[1].json.error)).toMatch(/no job type is named "Astronaut"/);
		expect(String(result.errorItems[2].json.error)).toMatch(/"End Date" must not be before the start date/);
		expect(stored(slug).records.jobs.map((job) => [job.company_name, job.start_date, job.job_type_id]).sort()).toEqual([
			['A', '01-01-2020', 2],
			['E', '01-05-2020', 4],
		]);
	});
});
