/**
 * The node as an AI agent's tool (`usableAsTool`): n8n's tool wrapper runs the node with the
 * parameters the user let the model define written as `$fromAI(...)` expressions, and the
 * model's arguments on the input item (under `query`). Here the engine resolves those
 * expressions for real, with arguments an agent would give: names instead of IDs (German ones
 * too), dates in other forms, lists as compact text or JSON text. Checked: the requests the
 * sandbox received and a result an agent can read. Also: the descriptions an agent reads say
 * what it needs to know.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { ImportBench } from '../helpers/importBench';

const bench = new ImportBench();

/** The import as a user would configure the tool: every value left to the model. */
const toolParameters = {
	email: "={{ $fromAI('email', 'E-mail address of the candidate', 'string') }}",
	phone: "={{ $fromAI('phone', 'Phone number, if known', 'string', '') }}",
	additionalFields: {
		firstName: "={{ $fromAI('firstName', 'Given name', 'string') }}",
		lastName: "={{ $fromAI('lastName', 'Family name', 'string') }}",
		birthday: "={{ $fromAI('birthday', 'Date of birth', 'string') }}",
	},
	recordInput: 'lists',
	jobList: "={{ $fromAI('jobs', 'Jobs, one per line: Company | Job Title | Start | End | Job Type', 'string', '') }}",
	itSkillList: "={{ $fromAI('itSkills', 'IT skills as Name: level (1-4), comma separated', 'string', '') }}",
	languageList: "={{ $fromAI('languages', 'Languages as Language: level, semicolon separated', 'string', '') }}",
};

describe('the import as an agent tool', () => {
	it('resolves $fromAI arguments: names instead of IDs, dates in other forms; the result reads as a sentence', async () => {
		const before = bench.sandbox.requests.length;
		const query = {
			email: 'amira.nasser@example.test',
			firstName: 'Amira',
			lastName: 'Nasser',
			birthday: '03.11.1994',
			jobs: 'Nordlicht Software AG | Backend Developer | 2021-03-01T09:00:00+01:00 | | Festanstellung',
			itSkills: '[{"name": "Python", "level": 3}]',
			languages: 'Englisch: 4; French: 2',
		};
		const result = await bench.run(toolParameters, { items: [{ query }] });
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		const slug = json.slug as string;
		expect(bench.writesSince(before)).toEqual([
			{ method: 'POST', path: '/gin/v1/company/candidate', body: { email: 'amira.nasser@example.test' } },
			{
				method: 'PUT',
				path: '/gin/v1/company/candidate',
				body: { user_slug: slug, first_name: 'Amira', last_name: 'Nasser', birthday: '03-11-1994' },
			},
			{
				method: 'POST',
				path: '/gin/v1/company/candidate/job',
				body: {
					user_slug: slug,
					company_name: 'Nordlicht Software AG',
					job_title: 'Backend Developer',
					start_date: '01-03-2021',
					job_type_id: 4,
				},
			},
			{ method: 'POST', path: '/gin/v1/company/candidate/it-skill', body: { user_slug: slug, skill_name: 'Python', skill_level_id: 3 } },
			{ method: 'POST', path: '/gin/v1/company/candidate/language', body: { user_slug: slug, language_id: 26, language_level_id: 4 } },
			{ method: 'POST', path: '/gin/v1/company/candidate/language', body: { user_slug: slug, language_id: 35, language_level_id: 2 } },
		]);
		expect(json.message).toBe(`Created candidate ${slug}; profile updated; 4 of 4 records added`);
		expect(json.records).toEqual([
			{ type: 'job', index: 1, name: 'Nordlicht Software AG', ok: true, message: 'Job added successfully' },
			{ type: 'itSkill', index: 1, name: 'Python', ok: true, message: 'IT skill added successfully' },
			{ type: 'language', index: 1, name: 'Englisch', ok: true, message: expect.any(String) },
			{ type: 'language', index: 2, name: 'French', ok: true, message: expect.any(String) },
		]);
	});

	it('tells the agent which record failed and why, naming the closest entries, and keeps the candidate', async () => {
		const query = { email: 'li.wei@example.test', firstName: 'Li', lastName: 'Wei', birthday: '1990-02-30', languages: 'Klingon: 5' };
		const invalid = await bench.run(toolParameters, { items: [{ query }] });
		// An impossible date is caught before anything is created, with the accepted forms.
		expect(invalid.error?.message).toContain('"Birthday" "1990-02-30" is not a real calendar date. Accepted forms: YYYY-MM-DD');

		const result = await bench.run(toolParameters, { items: [{ query: { ...query, birthday: '1990-02-28' } }] });
		const json = result.items[0].json;
		expect(json).toMatchObject({ created: true, profileUpdated: true, summary: { records: 1, added: 0, failed: 1 } });
		expect(json.message).toMatch(
			/; 0 of 1 records added\. Failed: language 1 \("Klingon"\): "Language": no language is named "Klingon"\. Closest: /,
		);
		expect(bench.stored(json.slug).birthday).toBe('28-02-1990');
	});
});

describe('what an agent reads', () => {
	const properties = new Recruiting().description.properties.filter(
		(property) => property.displayOptions?.show?.operation?.includes('import') && property.displayOptions.show.resource?.includes('candidate'),
	);
	const byName = (name: string) => properties.find((property) => property.name === name) as INodeProperties;

	it('Import says that it creates a new candidate each time and points re-runs to Create or Update', () => {
		const operation = new Recruiting().description.properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes('candidate'),
		);
		const options = operation?.options as INodePropertyOptions[];
		const option = options.find((entry) => entry.value === 'import');
		expect(option?.description).toContain('Creates a new candidate each time: for re-runs use Create or Update');
		expect(options.find((entry) => entry.value === 'upsert')?.name).toBe('Create or Update');
		expect(byName('importNotice').displayName).toMatch(/every import without a Candidate Slug creates a new candidate/);
	});

	it('each list names its compact form in its description and a working example in its placeholder', () => {
		expect(byName('languageList').description).toContain('"Language: Language Level ID" entries');
		expect(byName('languageList').placeholder).toBe('e.g. English: 4; German: 5');
		expect(byName('itSkillList').placeholder).toBe('e.g. TypeScript: 4, SQL: 3');
		expect(byName('jobList').description).toContain(
			'Company Name | Job Title | Start Date | End Date | Job Type | Business Area | City Name | Description',
		);
		expect(byName('jobList').placeholder).toContain('Working student; Globex AG');
		expect(byName('universityList').placeholder).toContain('Bachelor of Science');
		const described = properties.filter((property) => property.type !== 'collection' && property.type !== 'notice');
		for (const property of described) expect([property.name, property.description ?? '']).not.toEqual([property.name, '']);
	});
});
