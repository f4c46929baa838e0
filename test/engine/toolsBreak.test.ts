/**
 * Independent review: the node as an AI agent's tool, the dropdowns fed by the reference lists and
 * the names taken where IDs are expected, API Key, Reference List and Session operations. Through
 * n8n's engine (WorkflowExecute) against nock; every request the fake service gets is recorded.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const ACCESS = 'acc-tool-secret-1234';
const tokenCredential = { baseUrl: BASE, authentication: 'accessToken', accessToken: ACCESS };
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pw', 'tool', '-9876'].join('');
const emailCredential = (extra: IDataObject = {}) => ({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD, ...extra });

const envelope = (data: unknown) => ({ message: 'Success', status: 200, data });

const JOB_TYPES = [
	{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
	{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
	{ id: 4, name_ger: 'Festanstellung', name_eng: 'Permanent position' },
];
const LANGUAGES_DE = [
	{ id: 23, value: 'German' },
	{ id: 26, value: 'English' },
	{ id: 35, value: 'French' },
	{ id: 139, value: 'Luxemburgisch' },
	{ id: 140, value: 'Kantonesisch' },
];
const LANGUAGES_EN = [
	{ id: 23, value: 'German' },
	{ id: 26, value: 'English' },
	{ id: 35, value: 'French' },
	{ id: 139, value: 'Luxembourgish' },
	{ id: 140, value: 'Cantonese' },
];
const DEGREES_DE = [
	{ id: 10, value: 'Master of Science' },
	{ id: 21, value: 'Promotion' },
];
const DEGREES_EN = [
	{ id: 10, value: 'Master of Science' },
	{ id: 21, value: 'Doctorate' },
];
const AREAS_DE = [
	{ id: 1, name: 'Einkauf & Verkauf', area: [{ id: 1, name: 'Einkauf' }, { id: 3, name: 'Sales' }] },
	{ id: 9, name: 'Startups & Digitalisierung', area: [{ id: 61, name: 'Startup' }, { id: 62, name: 'Technologie & Digitalisierung' }] },
];
const AREAS_EN = [
	{ id: 1, name: 'Purchasing & Sales', area: [{ id: 1, name: 'Purchasing' }, { id: 3, name: 'Sales' }] },
	{ id: 9, name: 'Startups & Digitization', area: [{ id: 61, name: 'Startup' }, { id: 62, name: 'Technology & Digitization' }] },
];

interface Seen {
	method: string;
	path: string;
	body: unknown;
	headers: IDataObject;
}

interface Lists {
	jobTypes?: unknown;
	languages?: Record<string, unknown>;
	degrees?: Record<string, unknown>;
	areas?: Record<string, unknown>;
}

/** A fake service: the reference lists (per lang) and every write answered 201; everything recorded. */
function fakeService(lists: Lists = {}) {
	const seen: Seen[] = [];
	const langOf = (path: string) => new URL(path, BASE).searchParams.get('lang') ?? 'de';
	const pick = (table: Record<string, unknown>, path: string) => table[langOf(path)] ?? table.de;
	const listTables: Record<string, Record<string, unknown>> = {
		'/v1/general/job-types': { de: envelope(lists.jobTypes ?? JOB_TYPES) },
		'/v1/general/language-skills': lists.languages ?? { de: envelope(LANGUAGES_DE), en: envelope(LANGUAGES_EN) },
		'/v1/general/university-degrees': lists.degrees ?? { de: envelope(DEGREES_DE), en: envelope(DEGREES_EN) },
		'/v1/general/business-areas': lists.areas ?? { de: envelope(AREAS_DE), en: envelope(AREAS_EN) },
	};
	nock(BASE)
		.persist()
		.get(/^\/v1\/general\//)
		.reply(function (uri) {
			seen.push({ method: 'GET', path: uri, body: undefined, headers: this.req.headers as IDataObject });
			const table = listTables[uri.split('?')[0]];
			if (!table) return [404, { message: 'not found', status: 404 }];
			const answer = pick(table, uri);
			if (Array.isArray(answer)) return answer as [number, unknown, IDataObject?];
			return [200, answer];
		})
		.post(/^\/gin\/v1\/company\/candidate\/.+/)
		.reply(function (uri, body) {
			seen.push({ method: 'POST', path: uri, body, headers: this.req.headers as IDataObject });
			return [201, { message: 'Added', status: 201 }];
		});
	return { seen, writes: () => seen.filter((entry) => entry.method !== 'GET'), gets: () => seen.filter((entry) => entry.method === 'GET').map((entry) => entry.path) };
}

const job = (additionalFields: IDataObject, extra: IDataObject = {}): INodeParameters => ({
	resource: 'candidateJob',
	operation: 'add',
	candidateSlug: 'slug-42',
	companyName: 'Acme GmbH',
	startDate: '2023-10-01',
	additionalFields: additionalFields as INodeParameters,
	options: { maxRetries: 0 },
	...(extra as INodeParameters),
});

/** What the AI agent gets from the node run as its tool (n8n logs the tool node's output to ai_tool). */
const toolAnswer = (result: Awaited<ReturnType<Harness['run']>>): INodeExecutionData[] =>
	result.run.data.resultData.runData.Recruiting?.[0]?.data?.ai_tool?.[0] ?? [];

setUpNock();

describe('names and languages where the agent or an expression gives them', () => {
	it('Job "Language" given as "EN" (an agent\'s or a sheet\'s spelling of the code): never sent as an unknown code with the business area in the other language', async () => {
		const service = fakeService();
		const result = await new Harness(tokenCredential).run({
			parameters: job({ lang: "={{ $fromAI('lang', 'Language code of the job details', 'string') }}", businessAreaDivision: "={{ $fromAI('area', 'Business area', 'string') }}" }),
			items: [{ query: { lang: 'EN', area: 'Einkauf' } }],
			asAgentTool: true,
		});
		const writes = service.writes();
		if (writes.length === 0) {
			// refused: the answer names the field
			expect(String(toolAnswer(result)[0]?.json.error)).toMatch(/Language/);
		} else {
			// taken as English: the code the contract offers and the area's English name
			expect(writes[0].body).toMatchObject({ lang: 'en', business_area_division: 'Purchasing' });
		}
	});

	it('Reference List → Get Language Skills with Language "EN" from an expression asks the service for lang=en (or refuses), never lang=EN', async () => {
		const service = fakeService();
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'referenceList', operation: 'getLanguageSkills', lang: '={{ "EN" }}', options: { maxRetries: 0 } },
		});
		const asked = service.gets();
		if (asked.length === 0) expect(result.error?.message).toMatch(/Language/);
		else expect(asked).toEqual(['/v1/general/language-skills?lang=en']);
	});

	it.each([
		['without a name', { id: 62 }],
		['with name null', { id: 62, name: null }],
		['with an empty name', { id: 62, name: '' }],
	])('Business Area with the job in English: an area the English list gives %s is sent under its German name, never as "undefined", "null" or ""', async (_how, area62) => {
		const areasEn = [AREAS_EN[0], { id: 9, name: 'Startups & Digitization', area: [{ id: 61, name: 'Startup' }, area62] }];
		const service = fakeService({ areas: { de: envelope(AREAS_DE), en: envelope(areasEn) } });
		const result = await new Harness(tokenCredential).run({
			parameters: job({ lang: 'en', businessAreaDivision: 'Technologie & Digitalisierung' }),
		});
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body).toMatchObject({ lang: 'en', business_area_division: 'Technologie & Digitalisierung' });
	});

	it('Business Area by ID with the job in English, the English name missing: not "undefined"', async () => {
		const areasEn = [AREAS_EN[0], { id: 9, name: 'Startups & Digitization', area: [{ id: 61, name: 'Startup' }, { id: 62, name: null }] }];
		const service = fakeService({ areas: { de: envelope(AREAS_DE), en: envelope(areasEn) } });
		const result = await new Harness(tokenCredential).run({ parameters: job({ lang: 'en', businessAreaDivision: '62' }) });
		const sent = service.writes()[0]?.body as IDataObject | undefined;
		if (sent) expect(sent.business_area_division).toBe('Technologie & Digitalisierung');
		else expect(result.error?.message).toMatch(/Business Area/);
	});

	it('Business Area: a division typed in English (any case, spaces) with the job in German is sent as the German division name', async () => {
		const service = fakeService();
		const result = await new Harness(tokenCredential).run({ parameters: job({ businessAreaDivision: '  purchasing &  SALES ' }) });
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body).toMatchObject({ business_area_division: 'Einkauf & Verkauf' });
	});

	it('Business Area: a name matching nothing fails the item naming the closest entries, nothing sent', async () => {
		const service = fakeService();
		const result = await new Harness(tokenCredential).run({ parameters: job({ businessAreaDivision: 'Technologie und Digitalisierung' }) });
		expect(result.error?.message).toMatch(/^"Business Area": no business area or division is named "Technologie und Digitalisierung"\. Closest: .*Technologie & Digitalisierung/);
		expect(service.writes()).toEqual([]);
	});

	it('as an agent tool: a language by German name, an ID as text and a name with accents/zero-width space all resolve; an unknown one answers the field and closest entries', async () => {
		const service = fakeService();
		const parameters = {
			resource: 'candidateLanguage',
			operation: 'add',
			candidateSlug: "={{ $fromAI('slug', 'Candidate slug', 'string') }}",
			languageId: "={{ $fromAI('language', 'Language name or ID', 'string') }}",
			languageLevelId: "={{ $fromAI('level', 'Level', 'number') }}",
			options: { maxRetries: 0 },
		};
		const ids: unknown[] = [];
		for (const language of ['Französisch', ' 26 ', 'KANTONESISCH\u200B', 'Luxembourgish']) {
			const before = service.writes().length;
			const result = await new Harness(tokenCredential).run({ parameters, items: [{ query: { slug: 's-1', language, level: 3 } }], asAgentTool: true });
			expect(toolAnswer(result)[0]?.json.error).toBeUndefined();
			ids.push((service.writes()[before]?.body as IDataObject | undefined)?.language_id);
		}
		expect(ids).toEqual([35, 26, 140, 139]);
		const before = service.writes().length;
		const failed = await new Harness(tokenCredential).run({ parameters, items: [{ query: { slug: 's-1', language: 'Klingon', level: 3 } }], asAgentTool: true });
		const answer = toolAnswer(failed);
		expect(answer).toHaveLength(1);
		expect(String(answer[0].json.error)).toMatch(/^"Language": no language is named "Klingon"\. Closest: /);
		expect(answer[0].pairedItem).toEqual({ item: 0 });
		expect(service.writes().length).toBe(before);
	});
});

describe('dropdowns fed by the reference lists', () => {
	it.each([
		['lacks one entry', LANGUAGES_EN.filter((entry) => entry.id !== 140)],
		['is empty (data: [])', []],
	])('Language dropdown: when the English list %s, every entry of the default (German) list is still offered', async (_how, languagesEn) => {
		fakeService({ languages: { de: envelope(LANGUAGES_DE), en: envelope(languagesEn) } });
		const options = (await new Harness(tokenCredential).loadOptions('getLanguages')) as Array<{ name: string; value: unknown }>;
		expect(options.map((option) => option.value)).toEqual([23, 26, 35, 139, 140]);
		expect(options.find((option) => option.value === 140)?.name).toMatch(/Kantonesisch/);
	});

	it('Business Area dropdown: an area whose German name the service left out is offered under its English name, never the value "undefined"', async () => {
		const areasDe = [AREAS_DE[0], { id: 9, name: 'Startups & Digitalisierung', area: [{ id: 61, name: 'Startup' }, { id: 62 }] }];
		fakeService({ areas: { de: envelope(areasDe), en: envelope(AREAS_EN) } });
		const options = (await new Harness(tokenCredential).loadOptions('getBusinessAreas')) as Array<{ name: string; value: unknown }>;
		expect(options.map((option) => option.value)).not.toContain('undefined');
		expect(options.map((option) => option.name).join('\n')).not.toMatch(/undefined/);
	});

	it('University Degree: a name matching nothing names the closest entries, never a missing English name as "null"', async () => {
		const service = fakeService({ degrees: { de: envelope(DEGREES_DE), en: envelope([{ id: 10, value: 'Master of Science' }, { id: 21, value: null }]) } });
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'candidateUniversity', operation: 'add', candidateSlug: 'slug-42', startDate: '2015-10-01', additionalFields: { universityDegreeId: 'Promotio' }, options: { maxRetries: 0 } },
		});
		expect(result.error?.message).toMatch(/^"Degree": no university degree is named "Promotio"\. Closest: "Promotion/);
		expect(result.error?.message).not.toMatch(/null|undefined/);
		expect(service.writes()).toEqual([]);
	});

	it('University Degree dropdown: the body declared text/plain with the JSON envelope is read; "English (German)" labels', async () => {
		nock(BASE)
			.get('/v1/general/university-degrees')
			.query({ lang: 'en' })
			.reply(200, JSON.stringify(envelope(DEGREES_EN)), { 'Content-Type': 'text/plain' })
			.get('/v1/general/university-degrees')
			.query({ lang: 'de' })
			.reply(200, JSON.stringify(envelope(DEGREES_DE)), { 'Content-Type': 'text/plain; charset=utf-8' });
		const options = await new Harness(tokenCredential).loadOptions('getUniversityDegrees');
		expect(options).toEqual([
			{ name: 'Master of Science', value: 10 },
			{ name: 'Doctorate (Promotion)', value: 21 },
		]);
	});

	it('Job Type dropdown with IDs as text: the value chosen runs as the numeric ID', async () => {
		const stringIds = JOB_TYPES.map((entry) => ({ ...entry, id: String(entry.id) }));
		const service = fakeService({ jobTypes: stringIds });
		const options = (await new Harness(tokenCredential).loadOptions('getJobTypes')) as Array<{ name: string; value: unknown }>;
		const chosen = options.find((option) => option.name === 'Working student (Werkstudent)');
		expect(chosen).toBeDefined();
		const result = await new Harness(tokenCredential).run({ parameters: job({ jobTypeId: chosen!.value as string }) });
		expect(result.error).toBeUndefined();
		expect((service.writes()[0].body as IDataObject).job_type_id).toBe(2);
	});

	it('a list that fails to load gives a readable message without the access token', async () => {
		nock(BASE).get('/v1/general/job-types').reply(500, { message: `internal error for ${ACCESS}`, status: 500 });
		await expect(new Harness(tokenCredential).loadOptions('getJobTypes')).rejects.toThrow(/Could not load the list from the recruiting service/);
		nock.cleanAll();
		nock(BASE).get('/v1/general/job-types').reply(500, { message: `internal error for ${ACCESS}`, status: 500 });
		const error = await new Harness(tokenCredential).loadOptions('getJobTypes').catch((caught: Error) => caught);
		expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(ACCESS);
	});

	it('Business Area dropdown: a division with an empty data list of areas, and a list answered `data: []`', async () => {
		fakeService({ areas: { de: envelope([{ id: 16, name: 'Bildung & Soziales', area: [] }]), en: envelope([]) } });
		const options = await new Harness(tokenCredential).loadOptions('getBusinessAreas');
		expect(options).toEqual([{ name: 'Bildung & Soziales', value: 'Bildung & Soziales', description: 'Division' }]);
	});
});

describe('names where IDs are expected: what a bad list entry must not turn into', () => {
	it('Degree given as the text "null" (what a model or a template writes for "none") is not taken as the entry whose English name is missing', async () => {
		const service = fakeService({ degrees: { de: envelope(DEGREES_DE), en: envelope([{ id: 10, value: 'Master of Science' }, { id: 21, value: null }]) } });
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'candidateUniversity', operation: 'add', candidateSlug: 'slug-42', startDate: '2015-10-01', additionalFields: { universityDegreeId: 'null' }, options: { maxRetries: 0 } },
		});
		expect(service.writes().map((write) => (write.body as IDataObject).university_degrees_id)).toEqual([]);
		expect(result.error?.message).toMatch(/"Degree": no university degree is named "null"/);
	});

	it('On Error → Continue: a good language, an unknown name and a bad level give three items paired in order, the errors naming the field', async () => {
		const service = fakeService();
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'candidateLanguage', operation: 'add', candidateSlug: 's-1', languageId: '={{ $json.language }}', languageLevelId: '={{ $json.level }}', options: { maxRetries: 0 } },
			items: [{ language: 'Englisch', level: 4 }, { language: 'Elbisch', level: 2 }, { language: 'French', level: 'B2' }],
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject({ slug: 's-1', language_id: 26, language_level_id: 4 });
		expect(String(result.items[1].json.error)).toMatch(/^"Language": no language is named "Elbisch"\. Closest: /);
		expect(String(result.items[2].json.error)).toMatch(/^"Language Level ID" must be a whole number, 0 or more \(got "B2"\)/);
		expect(service.writes()).toHaveLength(1);
	});
});

describe('API Key and Reference List operations', () => {
	it('Get Many as an agent tool: one answer item per key, id and value only, paired to the call', async () => {
		nock(BASE)
			.get('/v1/company/api-integrations')
			.reply(200, envelope([
				{ id: '5', value: 'key-five', company_id: 3 },
				{ id: 6, value: 'key-six', secret_note: 'x' },
			]));
		const result = await new Harness(tokenCredential).run({ parameters: { resource: 'apiKey', operation: 'getAll', options: { maxRetries: 0 } }, asAgentTool: true });
		const answer = toolAnswer(result);
		expect(answer.map((item) => item.json)).toEqual([
			{ id: '5', value: 'key-five' },
			{ id: 6, value: 'key-six' },
		]);
		expect(answer.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Delete as an agent tool with the ID as a number (`$fromAI` number): one encoded path segment, { deleted: true, id }', async () => {
		const paths: string[] = [];
		nock(BASE)
			.delete(/^\/v1\/company\/api-integrations\//)
			.reply(function (uri) {
				paths.push(uri);
				return [200, { message: 'deleted', status: 200 }];
			});
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: "={{ $fromAI('id', 'API key ID', 'number') }}", options: { maxRetries: 0 } },
			items: [{ query: { id: 12 } }],
			asAgentTool: true,
		});
		expect(paths).toEqual(['/v1/company/api-integrations/12']);
		expect(toolAnswer(result).map((item) => item.json)).toEqual([{ deleted: true, id: 12 }]);
	});

	it('Create: the new key id and value, nothing else of the answer', async () => {
		nock(BASE).post('/v1/company/api-integrations').reply(201, { message: 'created', status: 200, data: { id: 9, value: 'new-key', company_id: 3, created_at: 'now' } });
		const result = await new Harness(tokenCredential).run({ parameters: { resource: 'apiKey', operation: 'create', options: { maxRetries: 0 } } });
		expect(result.items.map((item) => item.json)).toEqual([{ id: 9, value: 'new-key' }]);
	});

	it('On Error → Continue: each failing Delete is an error item paired with its input, the others are deleted', async () => {
		nock(BASE)
			.persist()
			.delete(/^\/v1\/company\/api-integrations\//)
			.reply((uri) => (uri.endsWith('/1') ? [200, { message: 'ok', status: 200 }] : [404, { message: 'not found', status: 404 }]));
		const result = await new Harness(tokenCredential).run({
			parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: '={{ $json.id }}', options: { maxRetries: 0 } },
			items: [{ id: 1 }, { id: '..' }, { id: 2 }],
			onError: 'continueErrorOutput',
		});
		expect(result.items.map((item) => [item.json, item.pairedItem])).toEqual([[{ deleted: true, id: 1 }, { item: 0 }]]);
		expect(result.errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
	});
});

describe('Session → Log In and Log Out', () => {
	const login = (options: IDataObject = {}) => ({ resource: 'session', operation: 'login', options: { maxRetries: 0, ...options } });

	it.each([
		['an empty data.token does not hide data.user.token', { data: { id: 7, token: '', user: { token: 'tok-user' } }, token: 'tok-top' }, { Authorization: 'Bearer tok-header' }, 'tok-user'],
		['data before data.user', { data: { id: 7, jwt: 'tok-data', user: { token: 'tok-user' } } }, {}, 'tok-data'],
		['data.user before the top level', { data: { id: 7, user: { bearer: 'tok-user' } }, access_token: 'tok-top' }, {}, 'tok-user'],
		['the top level before the headers', { data: { id: 7 }, sessionToken: 'tok-top' }, { Authorization: 'Bearer tok-header', 'X-Auth-Token': 'tok-x' }, 'tok-top'],
		['Authorization before X-Auth-Token', { data: { id: 7 } }, { Authorization: 'Bearer tok-header', 'X-Auth-Token': 'tok-x' }, 'tok-header'],
		['X-Auth-Token last', { data: { id: 7, token: '   ' } }, { 'X-Auth-Token': 'tok-x' }, 'tok-x'],
	])('token auto-detection order: %s', async (_name, body, headers, expected) => {
		for (const includeToken of [true, false]) {
			nock(BASE).post('/v1/login').reply(200, { message: 'ok', status: 200, ...body }, headers);
			const result = await new Harness(emailCredential()).run({ parameters: login({ includeToken }) });
			expect(result.error).toBeUndefined();
			const { token, ...rest } = result.items[0].json;
			expect(token).toBe(includeToken ? expected : undefined);
			expect(JSON.stringify(rest)).not.toContain('tok-');
		}
	});

	it('no token found with Include Token: the error names the keys of data, never their values, and points to Token Path', async () => {
		nock(BASE).post('/v1/login').reply(200, { message: 'ok', status: 200, data: { id: 7, session: { key: 'hidden-session-value' }, sid: 'sid-value-123' } });
		const result = await new Harness(emailCredential()).run({ parameters: login({ includeToken: true }) });
		const text = `${result.error?.message} ${result.error?.description ?? ''}`;
		expect(text).toMatch(/id, session, sid/);
		expect(text).toMatch(/Token Path/);
		for (const value of ['hidden-session-value', 'sid-value-123']) expect(text).not.toContain(value);
	});

	it('as an agent tool, Log In answers the user without the token, the password or the stored session', async () => {
		nock(BASE)
			.post('/v1/login')
			.reply(200, { message: 'ok', status: 200, data: { id: 7, email: EMAIL, note: `welcome, your password ${PASSWORD} is weak`, links: [`https://app.example.test/?t=tok-new-77`], user: { token: 'tok-new-77' } } });
		const result = await new Harness(emailCredential({ sessionToken: 'tok-stored-55' })).run({ parameters: login(), asAgentTool: true });
		const answer = JSON.stringify(toolAnswer(result).map((item) => item.json));
		expect(toolAnswer(result)).toHaveLength(1);
		expect(answer).toContain('"id":7');
		for (const secret of ['tok-new-77', PASSWORD, 'tok-stored-55']) expect(answer).not.toContain(secret);
	});

	it('Log Out with an access token as an agent tool: DELETE /v1/logout with the bearer token, a confirmation without it', async () => {
		const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${ACCESS}` } }).delete('/v1/logout').reply(200, { message: `Logged out ${ACCESS}`, status: 200 });
		const result = await new Harness(tokenCredential).run({ parameters: { resource: 'session', operation: 'logout', options: { maxRetries: 0 } }, asAgentTool: true });
		const answer = toolAnswer(result);
		expect(answer).toHaveLength(1);
		expect(answer[0].json.loggedOut).toBe(true);
		expect(JSON.stringify(answer)).not.toContain(ACCESS);
		scope.done();
	});
});
