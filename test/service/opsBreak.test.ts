/**
 * An independent review trying to break Candidate → Import, Create, Update and the five Add
 * operations as n8n users run them: n8n's Retry On Fail (the whole node again, same input, when a
 * try throws or the first output item has an `error` field), On Error, a Loop Over Items, a
 * service that stores a record and then drops the connection, refusals (422), dates, names and
 * records as text. Through n8n's real engine against the sandbox (real HTTP on 127.0.0.1).
 *
 * Tests that change a value between tries use an expression reading the clock (`$now`), as
 * test/service/retryBreak.test.ts does: try 1 runs before a deadline, n8n's wait between tries
 * (5 s) puts try 2 after it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ADDED_BY_EARLIER_TRY, ADDED_OTHERWISE_BY_EARLIER_TRY } from '../../nodes/Recruiting/memory/retry';
import { Flow, input, loop, loopConnections, noOp } from '../helpers/flow';
import { Harness } from '../helpers/harness';
import { FAST, createCandidate, outputs } from '../helpers/run';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const IT_SKILL = `${CANDIDATE}/it-skill`;
const ONE_AT_A_TIME = { ...FAST, concurrencyMode: 'fixed', concurrency: 1 };

beforeEach(() => sandbox().setFaults({}));
afterEach(() => sandbox().setFaults({}));

const harness = () => new Harness(emailCredential(sandbox(), ALICE));
const stored = (slug: unknown) => sandbox().candidates(1).find((candidate) => candidate.slug === slug);
const storedByEmail = (email: string) => sandbox().candidates(1).filter((candidate) => candidate.email === email);
const writesSince = (from: number) =>
	sandbox()
		.requests.slice(from)
		.filter((request) => request.method !== 'GET' && request.path !== '/v1/login')
		.map((request) => `${request.method} ${request.path.replace(CANDIDATE, 'candidate')}`);

/** Try 1 runs well before the deadline; n8n waits this long before try 2, which runs after it. */
const WAIT = 5_000;
const deadline = () => Date.now() + 3_000;
/** An expression: `before` until the deadline `at`, then `after` (JavaScript, without `={{ }}`). */
const clock = (at: number, before: string, after: string) => `={{ $now.toMillis() < ${at} ? ${before} : ${after} }}`;

const importParams = (extra: INodeParameters): INodeParameters => ({
	resource: 'candidate',
	operation: 'import',
	recordInput: 'lists',
	options: FAST,
	...extra,
});

const skillParams = (slug: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'candidateItSkill',
	operation: 'add',
	candidateSlug: slug,
	skillName: 'SQL',
	skillLevel: 3,
	options: FAST,
	...extra,
});

// ---------------------------------------------------------------------------------------------
// Retry On Fail
// ---------------------------------------------------------------------------------------------

describe('ops break: Retry On Fail', () => {
	it('Import, Retry On Fail (3 tries), one row that goes through completely: the node runs once, sends the profile update once, and its output does not say the records were added "by an earlier try"', async () => {
		const from = sandbox().requests.length;
		const result = await harness().run({
			parameters: importParams({ email: 'ops.clean@example.test', additionalFields: { firstName: 'Clean' }, itSkillList: 'SQL: 3' }),
			retryOnFail: { maxTries: 3, waitBetweenTries: 10 },
		});
		expect(result.error).toBeUndefined();
		const [row] = outputs(result);
		expect(row).toMatchObject({ action: 'created', created: true, profileUpdated: true });
		// Nothing failed: n8n has no reason to run the node again (docs/errors-and-retries.md: n8n reruns a node whose first
		// output item carries an `error` field, even an empty one; Create or Update leaves it out, Import does not).
		expect(writesSince(from)).toEqual(['POST candidate', 'PUT candidate', 'POST candidate/it-skill']);
		expect((row.records as IDataObject[])[0].message).not.toBe(ADDED_BY_EARLIER_TRY);
	}, 60_000);

	it('Candidate IT Skill → Add, Retry On Fail (2 tries): the service stores the skill and the connection drops before the answer; the retry must not post it again (README: "Retries never create a duplicate")', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.adddrop@example.test' });
		sandbox().setFaults({ paths: [IT_SKILL], afterWorkDropRate: 1, seed: 1 });
		const result = await h.run({ parameters: skillParams(slug), retryOnFail: { maxTries: 2, waitBetweenTries: 10 } });
		sandbox().setFaults({});
		expect(result.error?.message ?? '').toContain('may or may not have stored it');
		// The error says "it was not sent again, so that it cannot be created twice": the service must hold it once.
		expect(stored(slug)?.records.itSkills).toHaveLength(1);
	}, 60_000);

	it('Candidate → Create, Retry On Fail (2 tries): the creation is stored and the connection drops before the answer; the retry must not create the candidate a second time', async () => {
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const result = await harness().run({
			parameters: { resource: 'candidate', operation: 'create', email: 'ops.createdrop@example.test', additionalFields: {}, options: FAST },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		sandbox().setFaults({});
		expect(result.error?.message ?? '').toContain('may or may not have stored it');
		expect(storedByEmail('ops.createdrop@example.test')).toHaveLength(1);
	}, 60_000);

	it('Candidate → Import, Retry On Fail (2 tries): an IT skill is stored and its connection drops before the answer; the retry must not post that skill again', async () => {
		sandbox().setFaults({ paths: [IT_SKILL], afterWorkDropRate: 1, seed: 1 });
		const result = await harness().run({
			parameters: importParams({ email: 'ops.importdrop@example.test', itSkillList: 'SQL: 3' }),
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		sandbox().setFaults({});
		const [candidate] = storedByEmail('ops.importdrop@example.test');
		expect(storedByEmail('ops.importdrop@example.test')).toHaveLength(1);
		expect(outputs(result)[0]?.error).toContain('may or may not have stored it');
		expect(candidate.records.itSkills).toHaveLength(1);
	}, 60_000);

	it('Candidate IT Skill → Add, Continue, Retry On Fail: row 1 fails every try (bad level), row 2\'s skill name changes between tries: the last try\'s skill is not skipped as "added by an earlier try" (the output must not claim a skill the service never got)', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.addchange@example.test' });
		const at = deadline();
		const result = await h.run({
			parameters: skillParams(slug, { skillName: clock(at, "'Go'", "'Rust'"), skillLevel: '={{ $json.level }}' }),
			items: [{ level: 9 }, { level: 2 }],
			onError: 'continueRegularOutput',
			retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
		});
		expect(Date.now()).toBeGreaterThan(at);
		const [bad, good] = outputs(result);
		expect(bad.error).toContain('Skill Level');
		const names = (stored(slug)?.records.itSkills ?? []).map((skill) => skill.skill_name);
		// The output of the try that goes on names a skill; the service must have that skill.
		expect(names).toContain(good.skill_name);
	}, 60_000);

	it('Candidate IT Skill → Add, Continue, Retry On Fail: row 2\'s skill level changes between tries (Go 2 → Go 3): not posted twice, and the output says the earlier try sent other values than it shows', async () => {
		// Reviewed: posting Go 3 beside Go 2 would give the candidate Go twice (the service cannot change or remove a record).
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.addlevel@example.test' });
		const at = deadline();
		const result = await h.run({
			parameters: skillParams(slug, { skillName: 'Go', skillLevel: `={{ $json.level === 9 ? 9 : ($now.toMillis() < ${at} ? 2 : 3) }}` }),
			items: [{ level: 9 }, { level: 0 }],
			onError: 'continueRegularOutput',
			retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
		});
		expect(Date.now()).toBeGreaterThan(at);
		const [bad, good] = outputs(result);
		expect(bad.error).toContain('Skill Level');
		const levels = (stored(slug)?.records.itSkills ?? []).map((skill) => skill.skill_level_id);
		expect(levels).toEqual([2]);
		expect(good).toMatchObject({ skill_level_id: 3, message: ADDED_OTHERWISE_BY_EARLIER_TRY });
	}, 60_000);

	it('Candidate → Import, Continue, Retry On Fail: row 2\'s e-mail changes between tries (another person): the try that creates the new candidate must add its records to it, not skip them as "added by an earlier try"', async () => {
		const at = deadline();
		const result = await harness().run({
			parameters: importParams({
				email: `={{ $json.bad ? '' : ($now.toMillis() < ${at} ? 'ops.who1@example.test' : 'ops.who2@example.test') }}`,
				itSkillList: 'SQL: 3',
			}),
			items: [{ bad: true }, { bad: false }],
			onError: 'continueRegularOutput',
			retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
		});
		expect(Date.now()).toBeGreaterThan(at);
		const row = outputs(result)[1];
		expect(row.slug).toBe(storedByEmail('ops.who2@example.test')[0]?.slug);
		expect(row.records).toMatchObject([{ type: 'itSkill', ok: true }]);
		// The output says SQL is on candidate `slug`: the service must have it there.
		expect(stored(row.slug)?.records.itSkills).toMatchObject([{ skill_name: 'SQL', skill_level_id: 3 }]);
	}, 60_000);

	it('Candidate → Import, Continue, Retry On Fail: row 2\'s IT skill level changes between tries (SQL: 3 → SQL: 4): not posted twice, and the record says the earlier try sent other values', async () => {
		const at = deadline();
		const result = await harness().run({
			parameters: importParams({
				email: "={{ $json.bad ? '' : 'ops.level@example.test' }}",
				itSkillList: clock(at, "'SQL: 3'", "'SQL: 4'"),
			}),
			items: [{ bad: true }, { bad: false }],
			onError: 'continueRegularOutput',
			retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
		});
		expect(Date.now()).toBeGreaterThan(at);
		const row = outputs(result)[1];
		expect(storedByEmail('ops.level@example.test')).toHaveLength(1);
		const levels = (stored(row.slug)?.records.itSkills ?? []).map((skill) => skill.skill_level_id);
		expect(levels).toEqual([3]);
		expect(row.records).toMatchObject([{ type: 'itSkill', name: 'SQL', ok: true, message: ADDED_OTHERWISE_BY_EARLIER_TRY }]);
	}, 60_000);

	it('Loop Over Items (batch 1) around Import with Retry On Fail and Continue: each row becomes one candidate with its one skill', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const rows = [
			{ email: 'ops.loop1@example.test', skills: 'SQL: 3' },
			{ email: 'ops.loop2@example.test', skills: 'Go: 2' },
		];
		const run = await flow.run(
			[
				input(rows),
				loop(1),
				flow.recruiting('Recruiting', importParams({ email: '={{ $json.email }}', itSkillList: '={{ $json.skills }}' }), {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 10,
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(run.error).toBeUndefined();
		for (const row of rows) {
			const found = storedByEmail(row.email);
			expect(found).toHaveLength(1);
			expect(found[0].records.itSkills).toHaveLength(1);
		}
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Partial failures and what the output says
// ---------------------------------------------------------------------------------------------

describe('ops break: partial failures', () => {
	it('Import: the service refuses one record (422, language level 0): the row is partly created, the refusal is that record\'s error, without "may or may not have stored it"', async () => {
		const result = await harness().run({
			parameters: importParams({ email: 'ops.refused@example.test', itSkillList: 'SQL: 3', languageList: 'English: 0' }),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		const row = item.json;
		expect(row).toMatchObject({ action: 'partly created', created: true, summary: { records: 2, added: 1, failed: 1 } });
		const records = row.records as IDataObject[];
		expect(records[0]).toMatchObject({ type: 'itSkill', ok: true });
		expect(records[1]).toMatchObject({ type: 'language', ok: false });
		expect(String(records[1].error)).toContain('422');
		expect(String(records[1].error)).not.toContain('may or may not');
		expect(records[1].outcomeUnknown).toBeUndefined();
		expect(stored(row.slug)?.records.itSkills).toHaveLength(1);
	});

	it('Import under Stop Workflow, one at a time: row 1 is created, row 2\'s creation is refused by the service: the error names row 2 and lists row 1\'s slug', async () => {
		const result = await harness().run({
			parameters: importParams({ email: '={{ $json.email }}', itSkillList: 'SQL: 3', options: ONE_AT_A_TIME }),
			items: [{ email: 'ops.stop1@example.test' }, { email: 'jörg.ops@müller.de' }],
		});
		expect(result.error).toBeDefined();
		const slug = storedByEmail('ops.stop1@example.test')[0]?.slug;
		expect(slug).toBeDefined();
		expect(result.error?.message).toMatch(/^Row 2 \(item index 1\)/);
		expect(String(result.error?.description)).toContain(String(slug));
	});

	it('Candidate Job → Add under Continue (using error output): an unknown slug (404) goes to the error output paired with its item, the others to the regular output', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.errout@example.test' });
		const result = await h.run({
			parameters: { resource: 'candidateJob', operation: 'add', candidateSlug: '={{ $json.slug }}', companyName: '={{ $json.company }}', startDate: '2020-01-01', additionalFields: {}, options: FAST },
			items: [
				{ slug, company: 'A' },
				{ slug: 'no-such-candidate', company: 'B' },
				{ slug, company: 'C' },
			],
			onError: 'continueErrorOutput',
		});
		expect(result.items.map((item) => [item.json.company_name, item.pairedItem])).toEqual([
			['A', { item: 0 }],
			['C', { item: 2 }],
		]);
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].pairedItem).toEqual({ item: 1 });
		expect(JSON.stringify(result.errorItems[0].json)).not.toContain('may or may not');
		expect(stored(slug)?.records.jobs.map((job) => job.company_name)).toEqual(['A', 'C']);
	});
});

// ---------------------------------------------------------------------------------------------
// Inputs: dates, names, text
// ---------------------------------------------------------------------------------------------

describe('ops break: inputs', () => {
	it('Candidate Job → Add: every accepted date form gives 5 March 2024, in both orders; impossible dates fail their item naming the field', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.dates@example.test' });
		const forms = ['2024-03-05', '2024-03-05T23:30:00-05:00', '2024-03-05 00:10', '05.03.2024', '5.3.2024', '05-03-2024', 'js', 'luxon'];
		const bad = ['2024-02-30', '31.02.2024', '2024-13-01', '2024-03-05T25:00:00Z'];
		const items = [...forms, ...bad].map((start, index) => ({ start, index }));
		// A JavaScript Date and a Luxon DateTime from an expression, else the text of the row.
		const startDate = "={{ $json.start === 'js' ? new Date(2024, 2, 5) : $json.start === 'luxon' ? DateTime.fromISO('2024-03-05T00:30:00', { zone: 'Europe/Berlin' }) : $json.start }}";
		for (const [dateFormat, want] of [
			['DD-MM-YYYY', '05-03-2024'],
			['MM-DD-YYYY', '03-05-2024'],
		]) {
			const result = await h.run({
				parameters: { resource: 'candidateJob', operation: 'add', candidateSlug: slug, companyName: '={{ "C" + $json.index }}', startDate, additionalFields: {}, options: { ...FAST, dateFormat } },
				items,
				onError: 'continueRegularOutput',
				timezone: 'Europe/Berlin',
			});
			const out = outputs(result);
			// 05-03-2024 in MM-DD-YYYY is read as given in the target format (3 May): skip it in the second order.
			const expected = forms.map((form) => (dateFormat === 'MM-DD-YYYY' && form === '05-03-2024' ? '05-03-2024' : want));
			expect(out.slice(0, forms.length).map((json) => json.start_date ?? json.error)).toEqual(expected);
			for (const json of out.slice(forms.length)) expect(String(json.error)).toMatch(/"Start Date"/);
		}
	});

	it('Candidate Language → Add: names in German or English, any case, accents or none, invisible characters, an ID as text', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.names@example.test' });
		const names = ['englisch', ' ENGLISH ', 'Eng\u200Blish', 'Französisch', 'franzosisch', 'Maori', 'guarani', '26', 'Kantonesisch', 'Spanisch'];
		const result = await h.run({
			parameters: { resource: 'candidateLanguage', operation: 'add', candidateSlug: slug, languageId: '={{ $json.name }}', languageLevelId: 2, options: FAST },
			items: names.map((name) => ({ name })),
			onError: 'continueRegularOutput',
		});
		expect(outputs(result).map((json) => json.language_id ?? json.error)).toEqual([26, 26, 26, 35, 35, 72, 40, 26, 140, 28]);
	});

	it('Candidate Job → Add: job types and business areas by name or ID, in either language', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.jobnames@example.test' });
		const rows = [
			{ type: 'werkstudent', area: 'software development', lang: 'de' },
			{ type: 'WORKING STUDENT', area: 'Softwareentwicklung', lang: 'en' },
			{ type: 'Dual studies', area: '62', lang: 'de' },
			{ type: '14', area: 'IT & Software Development', lang: 'de' },
		];
		const result = await h.run({
			parameters: {
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: slug,
				companyName: 'Acme',
				startDate: '2020-01-01',
				additionalFields: { jobTypeId: '={{ $json.type }}', businessAreaDivision: '={{ $json.area }}', lang: '={{ $json.lang }}' },
				options: FAST,
			},
			items: rows,
			onError: 'continueRegularOutput',
		});
		expect(outputs(result).map((json) => [json.job_type_id ?? json.error, json.business_area_division])).toEqual([
			[2, 'Softwareentwicklung'],
			[2, 'Software Development'],
			[7, 'Technologie & Digitalisierung'],
			[14, 'IT & Softwareentwicklung'],
		]);
	});

	it('Candidate Job → Add: a business area ID that is both a division\'s and an area\'s (5) fails its item before anything is sent, naming both', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.ambiguous@example.test' });
		const from = sandbox().requests.length;
		const result = await h.run({
			parameters: { resource: 'candidateJob', operation: 'add', candidateSlug: slug, companyName: 'Acme', startDate: '2020-01-01', additionalFields: { businessAreaDivision: '={{ $json.area }}' }, options: FAST },
			items: [{ area: 5 }],
			onError: 'continueRegularOutput',
		});
		const [json] = outputs(result);
		expect(String(json.error)).toContain('Consulting');
		expect(String(json.error)).toContain('Business Development');
		expect(writesSince(from)).toEqual([]);
	});

	it('Candidate → Update: zip code as a number, birthday as a date-time with an offset (its date as written) and day-first under Date Format MM-DD-YYYY, a phone with (0)', async () => {
		const h = harness();
		const slug = await createCandidate(h, { email: 'ops.update@example.test' });
		const result = await h.run({
			parameters: {
				resource: 'candidate',
				operation: 'update',
				candidateSlug: slug,
				updateFields: { zipCode: '={{ $json.zip }}', birthday: '={{ $json.born }}', phone: '+49 (0)30 1234567', emailPreference: '={{ $json.mail }}' },
				options: { ...FAST, dateFormat: 'MM-DD-YYYY' },
			},
			items: [
				{ zip: 1067, born: '1999-04-12T22:30:00-03:00', mail: 'yes' },
				{ zip: 10119, born: '04.12.1999', mail: 'no' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(outputs(result).map((json) => [json.slug, json.zip_code, json.birthday, json.email_preference])).toEqual([
			[slug, '1067', '12-04-1999', true],
			[slug, '10119', '04-12-1999', false],
		]);
		expect(stored(slug)).toMatchObject({ zip_code: '10119', birthday: '04-12-1999', phone: '+49 (0)30 1234567', email_preference: false });
	});

	it('Import records as text: skills with symbols and mixed separators, Windows line breaks, a job with an empty column and a German job type', async () => {
		const result = await harness().run({
			parameters: importParams({
				email: 'ops.text@example.test',
				itSkillList: 'C#: 3, C++: 4; Node.js: 2\r\nF#: 1',
				jobList: 'Acme GmbH | Dev | 2020-01-01\r\nGlobex | Ops | 01.02.2021 | | Werkstudent',
				languageList: 'Englisch: 4\r\nDeutsch: 5',
			}),
		});
		expect(result.error).toBeUndefined();
		const [row] = outputs(result);
		expect(row).toMatchObject({ action: 'created', error: '', summary: { records: 8, added: 8, failed: 0 } });
		const candidate = stored(row.slug);
		expect(candidate?.records.itSkills.map((skill) => [skill.skill_name, skill.skill_level_id])).toEqual([
			['C#', 3],
			['C++', 4],
			['Node.js', 2],
			['F#', 1],
		]);
		expect(candidate?.records.jobs).toMatchObject([
			{ company_name: 'Acme GmbH', job_title: 'Dev', start_date: '01-01-2020' },
			{ company_name: 'Globex', job_title: 'Ops', start_date: '01-02-2021', job_type_id: 2 },
		]);
		expect(candidate?.records.languages.map((language) => language.language_id)).toEqual([26, 23]);
	});

	it('Import: a very long skill list (300 entries) is added completely, in order', async () => {
		const skills = Array.from({ length: 300 }, (_, index) => `Skill${index}: ${(index % 4) + 1}`).join(', ');
		const result = await harness().run({ parameters: importParams({ email: 'ops.long@example.test', itSkillList: skills }) });
		expect(result.error).toBeUndefined();
		const [row] = outputs(result);
		expect(row.summary).toEqual({ records: 300, added: 300, failed: 0 });
		const names = stored(row.slug)?.records.itSkills.map((skill) => skill.skill_name);
		expect(names).toHaveLength(300);
		expect(names?.[299]).toBe('Skill299');
	}, 60_000);
});
