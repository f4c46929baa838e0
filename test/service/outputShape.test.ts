/**
 * Issue 15 against the sandbox, through n8n-core's WorkflowExecute:
 * - one output rule for every candidate operation: the candidate is `slug`, record fields keep
 *   the service's names (snake_case), never `candidateSlug`;
 * - Phone is checked before anything is sent: letters or no digit fail the item; the usual
 *   national and international forms pass unchanged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { emailCredential, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, createCandidate, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

/** Keys that follow the rule: `slug`, the service's snake_case names, and the node's own fields. */
const OWN_FIELDS = new Set(['slug', 'message', 'created', 'profileUpdated', 'profileError', 'records', 'summary']);
const badKeys = (json: IDataObject) => Object.keys(json).filter((key) => !OWN_FIELDS.has(key) && !/^[a-z]+(?:_[a-z]+)*$/.test(key));

describe('output shape: one rule for every candidate operation', () => {
	let harness: Harness;
	let slug: string;
	beforeAll(async () => {
		harness = new Harness(emailCredential(sandbox()));
		slug = await createCandidate(harness, { phone: '+49 30 1234567' });
	});

	const operations: Array<[string, () => INodeParameters]> = [
		['candidateJob.add', () => ({ resource: 'candidateJob', operation: 'add', candidateSlug: slug, companyName: 'Acme GmbH', startDate: '2024-01-01', additionalFields: { jobTitle: 'Analyst', cityName: 'Berlin' } })],
		['candidateUniversity.add', () => ({ resource: 'candidateUniversity', operation: 'add', candidateSlug: slug, startDate: '2016-10-01', additionalFields: { universityName: 'TU Berlin', studyName: 'Informatics' } })],
		['candidateItSkill.add', () => ({ resource: 'candidateItSkill', operation: 'add', candidateSlug: slug, skillName: 'SQL', skillLevel: 3 })],
		['candidateLanguage.add', () => ({ resource: 'candidateLanguage', operation: 'add', candidateSlug: slug, languageId: 26, languageLevelId: 2 })],
		['candidateAdditionalInfo.add', () => ({ resource: 'candidateAdditionalInfo', operation: 'add', candidateSlug: slug, title: 'Volunteer coach', additionalFields: { startDate: '2018-01-01' } })],
		['candidate.update', () => ({ resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { firstName: 'Lena', zipCode: '10119' } })],
	];

	it.each(operations)('%s returns the candidate as "slug" and the service\'s field names', async (_name, parameters) => {
		const result = await runOk(harness, parameters());
		const [json] = outputs(result);
		expect(json.slug).toBe(slug);
		expect(json).not.toHaveProperty('candidateSlug');
		expect(json).not.toHaveProperty('user_slug');
		expect(badKeys(json)).toEqual([]);
	});

	it('the add operations keep the fields sent under the service\'s names', async () => {
		const result = await runOk(harness, operations[0][1]());
		expect(outputs(result)[0]).toEqual({
			slug,
			message: expect.any(String),
			company_name: 'Acme GmbH',
			start_date: '01-01-2024',
			job_title: 'Analyst',
			city_name: 'Berlin',
		});
	});

	it('candidate.create and candidate.import return "slug" too', async () => {
		const created = outputs(await runOk(harness, { resource: 'candidate', operation: 'create', email: 'shape@example.test', additionalFields: {} }))[0];
		expect(typeof created.slug).toBe('string');
		expect(badKeys(created)).toEqual([]);
		const imported = outputs(
			await runOk(harness, {
				resource: 'candidate',
				operation: 'import',
				email: 'import-shape@example.test',
				recordInput: 'lists',
				itSkillList: 'SQL: 3',
			}),
		)[0];
		expect(typeof imported.slug).toBe('string');
		expect(imported).not.toHaveProperty('candidateSlug');
		expect(badKeys(imported)).toEqual([]);
	});
});

describe('phone', () => {
	const create = (phone: unknown): INodeParameters => ({ resource: 'candidate', operation: 'create', phone: phone as string, additionalFields: {}, options: FAST });

	it.each(['call me maybe', '---', '+49 30 CALL-ME', '0800 FLOWERS', '+', '()'])('refuses "%s" before sending anything', async (phone) => {
		const harness = new Harness(emailCredential(sandbox()));
		sandbox().clearRequests();
		const result = await harness.run({ parameters: create(phone) });
		expect(result.error?.message).toBe(
			`"Phone" must be a phone number: digits, with an optional leading +, spaces, brackets, dashes, / and ., and an optional extension (ext. 89) (got "${phone}")`,
		);
		expect(sandbox().requests.filter((request) => request.method !== 'GET')).toEqual([]);
	});

	it.each(['+49 30 1234567', '(030) 123-45', '0151/1234567', '+1 (555) 010-9999', '030.1234567', ' 0049 30 1234567 '])(
		'accepts "%s" and sends it as written (trimmed)',
		async (phone) => {
			const harness = new Harness(emailCredential(sandbox()));
			sandbox().clearRequests();
			const result = await runOk(harness, create(phone));
			expect(outputs(result)[0]).toMatchObject({ phone: phone.trim() });
			const sent = sandbox().requests.filter((request) => request.method === 'POST' && request.path === '/gin/v1/company/candidate');
			expect(sent.map((request) => (request.body as IDataObject).phone)).toEqual([phone.trim()]);
		},
	);

	it('a number from a spreadsheet cell is sent as text; in a batch only the bad item fails', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		const result = await harness.run({
			parameters: { ...create('={{ $json.tel }}') },
			items: [{ tel: 4915112345 }, { tel: 'ring me' }, { tel: '0151/1234567' }],
			onError: 'continueRegularOutput',
		});
		expect(outputs(result).map((json) => json.phone ?? json.error)).toEqual([
			'4915112345',
			'"Phone" must be a phone number: digits, with an optional leading +, spaces, brackets, dashes, / and ., and an optional extension (ext. 89) (got "ring me")',
			'0151/1234567',
		]);
	});

	it('Update and Import check the phone the same way', async () => {
		const harness = new Harness(emailCredential(sandbox()));
		const slug = await createCandidate(harness);
		const update = await harness.run({ parameters: { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { phone: 'call me maybe' }, options: FAST } });
		expect(update.error?.message).toMatch(/^"Phone" must be a phone number/);
		const imported = await harness.run({ parameters: { resource: 'candidate', operation: 'import', phone: 'call me maybe', options: FAST } });
		expect(imported.error?.message).toMatch(/^"Phone" must be a phone number/);
	});
});
