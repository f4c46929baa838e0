/**
 * The sandbox of the recruiting service over real HTTP on 127.0.0.1: every endpoint (success
 * and error shapes), isolation between companies, session tokens, faults, admin routes and
 * the persistence callback. Expected reference data is transcribed from service-interface.md.
 */
import { sleep } from 'n8n-workflow';

import { ALICE, BOB, call, createCandidate, login, NOT_AUTHORIZED } from './client';
import type { Reply } from './client';
import { DEFAULT_COMPANIES, startSandbox } from './server';
import type { Sandbox, SandboxOptions, SandboxState, TokenLocation } from './server';

// ---- helpers ----------------------------------------------------------------------------

const SEEDED_INTEGRATION = '0b0f6f9e-0000-4000-8000-000000000001';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CANDIDATE_NOT_FOUND = { message: 'Candidate not found', status: 404 };

const started: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = await startSandbox(options);
	started.push(sandbox);
	return sandbox;
}
async function stop(sandbox: Sandbox): Promise<void> {
	started.splice(started.indexOf(sandbox), 1);
	await sandbox.close();
}
afterAll(async () => {
	await Promise.all(started.splice(0).map(async (sandbox) => await sandbox.close()));
});

// ---- reference lists ----------------------------------------------------------------------

describe('reference lists', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await sandboxWith();
	});

	const DIVISIONS: Array<[number, string, number[]]> = [
		[1, 'Einkauf & Verkauf', [1, 2, 3]],
		[2, 'Management & Organisation', [4, 5, 6, 7]],
		[3, 'Marketing & Kommunikation', [8, 9]],
		[4, 'Finanzen & Buchhaltung', [16, 17, 18, 19, 15]],
		[5, 'Consulting', [13, 14, 11, 10, 12]],
		[6, 'Banken & Vermögensverwaltung', [20, 21, 22, 23, 24, 26, 28, 29, 30, 31, 32, 25, 27]],
		[7, 'Versicherungswesen & Finanzdienstleistung', [33, 34, 35, 36, 37]],
		[8, 'Jura & Rechtswesen', [38, 39, 40, 41, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 42, 43]],
		[9, 'Startups & Digitalisierung', [61, 62]],
		[10, 'IT & Softwareentwicklung', [63, 64, 65, 66, 67]],
		[11, 'Ingenieurwesen & Technik', [68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 88, 87]],
		[12, 'Naturwissenschaften', [89, 90, 91, 92, 93, 94, 102, 103]],
		[13, 'Design, Gestaltung & Medien', [96, 97, 95]],
		[14, 'Gesundheit', [98, 99]],
		[15, 'Öffentlicher Sektor', [100]],
		[16, 'Bildung & Soziales', [101]],
	];

	it('business areas: divisions and areas in the listed order, German by default, English on lang=en', async () => {
		const german = await call(sandbox, 'GET', '/v1/general/business-areas');
		expect(german.status).toBe(200);
		expect(german.headers.get('content-type')).toMatch(/^application\/json/);
		expect(german.json).toMatchObject({ message: expect.any(String), status: 200 });
		const data = german.json.data as Array<{ id: number; name: string; area: Array<{ id: number; name: string }> }>;
		expect(data.map((division) => [division.id, division.name, division.area.map((area) => area.id)])).toEqual(DIVISIONS);
		const areaName = (id: number, divisions = data) =>
			divisions.flatMap((division) => division.area).find((area) => area.id === id)?.name;
		expect(areaName(15)).toBe('Audit & Wirtschaftsprüfung');
		expect(areaName(56)).toBe('Energierecht / Gesundheitsrecht / Lebensmittelrecht');
		expect(areaName(103)).toBe('Hotellier');

		const explicit = await call(sandbox, 'GET', '/v1/general/business-areas?lang=de');
		expect(explicit.json).toEqual(german.json);

		const english = await call(sandbox, 'GET', '/v1/general/business-areas?lang=en');
		expect(english.status).toBe(200);
		const englishData = english.json.data as typeof data;
		expect(englishData.map((division) => [division.id, division.area.map((area) => area.id)])).toEqual(
			DIVISIONS.map(([id, , areas]) => [id, areas]),
		);
		expect(englishData[0].name).toBe('Purchasing & Sales');
		expect(areaName(66, englishData)).toBe('Software Development');
		expect(englishData.every((division) => division.name !== '' && division.area.every((area) => area.name !== ''))).toBe(true);
	});

	it('job types: both names on every element, in the listed order', async () => {
		const reply = await call(sandbox, 'GET', '/v1/general/job-types?lang=en');
		expect(reply.status).toBe(200);
		expect(reply.json).toMatchObject({ message: expect.any(String), status: 200 });
		expect(reply.json.data).toEqual([
			{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
			{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
			{ id: 3, name_ger: 'Trainee', name_eng: 'Trainee' },
			{ id: 7, name_ger: 'Duales Studium', name_eng: 'Dual studies' },
			{ id: 4, name_ger: 'Festanstellung', name_eng: 'Permanent position' },
			{ id: 8, name_ger: 'Referendariat', name_eng: 'Clerkship' },
			{ id: 5, name_ger: 'Bachelorarbeit (im Unternehmen)', name_eng: 'Bachelor thesis (in company)' },
			{ id: 6, name_ger: 'Masterarbeit (im Unternehmen)', name_eng: 'Master thesis (in company)' },
			{ id: 14, name_ger: 'Studentische Hilfskraft', name_eng: 'Student Resarch Assistant' },
			{ id: 15, name_ger: 'Wissenschaftlicher Mitarbeiter / Doktorand', name_eng: 'Research Assistant / PhD Student' },
			{ id: 9, name_ger: 'Teilzeit (befristet)', name_eng: 'Part-Time (fixed term)' },
			{ id: 10, name_ger: 'Vollzeit (befristet)', name_eng: 'Full-Time (fixed term)' },
		]);
	});

	it('language skills: 23, 26, 35, 28, 66 first, then ascending ids; lang=en translates the German names', async () => {
		const reply = await call(sandbox, 'GET', '/v1/general/language-skills');
		expect(reply.status).toBe(200);
		expect(reply.json).toMatchObject({ message: expect.any(String), status: 200 });
		const data = reply.json.data as Array<{ id: number; value: string }>;
		const first = [23, 26, 35, 28, 66];
		const rest = Array.from({ length: 140 }, (_, index) => index + 1).filter((id) => !first.includes(id));
		expect(data.map((entry) => entry.id)).toEqual([...first, ...rest]);
		expect(data.slice(0, 5).map((entry) => entry.value)).toEqual(['German', 'English', 'French', 'Spanish', 'Latin']);
		const value = (entries: typeof data, id: number) => entries.find((entry) => entry.id === id)?.value;
		expect(value(data, 40)).toBe('Guaraní');
		expect(value(data, 97)).toBe('Sanskrit (Saṁskṛta)');
		expect(value(data, 139)).toBe('Luxemburgisch');
		expect(value(data, 140)).toBe('Kantonesisch');

		const english = (await call(sandbox, 'GET', '/v1/general/language-skills?lang=en')).json.data as typeof data;
		expect(english.map((entry) => entry.id)).toEqual(data.map((entry) => entry.id));
		expect(value(english, 139)).toBe('Luxembourgish');
		expect(value(english, 26)).toBe('English');
	});

	it('university degrees: text/plain holding the JSON envelope; German by default', async () => {
		const reply = await call(sandbox, 'GET', '/v1/general/university-degrees');
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
		const envelope = JSON.parse(reply.text);
		expect(envelope).toMatchObject({ message: expect.any(String), status: 200 });
		expect(envelope.data).toHaveLength(24);
		expect(envelope.data.map((entry: { id: number }) => entry.id)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
		expect(envelope.data[0]).toEqual({ id: 1, value: 'Bachelor of Arts' });
		expect(envelope.data[18]).toEqual({ id: 19, value: 'Erstes Staatsexamen' });
		expect(envelope.data[23]).toEqual({ id: 24, value: 'Vollzeit' });

		const english = JSON.parse((await call(sandbox, 'GET', '/v1/general/university-degrees?lang=en')).text);
		expect(english.data[18]).toEqual({ id: 19, value: 'First State Examination' });
		expect(english.data[9]).toEqual({ id: 10, value: 'Master of Science' });
	});

	it('the reference lists need no credentials; the singular degree path is unknown', async () => {
		for (const path of ['/v1/general/business-areas', '/v1/general/job-types', '/v1/general/language-skills', '/v1/general/university-degrees']) {
			expect((await call(sandbox, 'GET', path)).status).toBe(200);
		}
		expect((await call(sandbox, 'GET', '/v1/general/university-degree')).status).toBe(404);
	});
});

// ---- session -------------------------------------------------------------------------------

describe('session: login and logout', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await sandboxWith();
	});

	it('login answers 200 with the user object and a 32-byte hex session token in data.token', async () => {
		const before = sandbox.counts.logins;
		const reply = await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			message: expect.any(String),
			status: 200,
			data: {
				id: expect.any(Number),
				email: 'alice@acme.test',
				first_name: 'Alice',
				last_name: 'Archer',
				company_id: 1,
				token: expect.stringMatching(/^[0-9a-f]{64}$/),
			},
		});
		expect(sandbox.counts.logins).toBe(before + 1);
		const second = await login(sandbox, ALICE);
		expect(second).not.toBe(reply.json.data.token);
	});

	it('accepts the e-mail under user.email too (the reference table names the field so)', async () => {
		const reply = await call(sandbox, 'POST', '/v1/login', { body: { user: { email: BOB.login, password: BOB.password } } });
		expect(reply.status).toBe(200);
		expect(reply.json.data.company_id).toBe(2);
	});

	it.each([
		['a wrong password', { user: { login: ALICE.login, password: 'wrong-password' } }],
		['an unknown login', { user: { login: 'nobody@acme.test', password: ALICE.password } }],
		['another user\'s password', { user: { login: ALICE.login, password: BOB.password } }],
		['no user object', { login: ALICE.login, password: ALICE.password }],
		['no password', { user: { login: ALICE.login } }],
	])('login with %s answers 401 {error}', async (_case, body) => {
		const reply = await call(sandbox, 'POST', '/v1/login', { body });
		expect(reply.status).toBe(401);
		expect(reply.json).toEqual({ error: 'Invalid login or password' });
	});

	it('stores passwords as salted scrypt hashes only', () => {
		const users = sandbox.state().companies.flatMap((company) => company.users);
		expect(users).toHaveLength(2);
		for (const user of users) {
			expect(user.passwordHash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
			expect(JSON.stringify(user)).not.toContain('password-');
		}
		expect(users[0].passwordHash.split('$')[1]).not.toBe(users[1].passwordHash.split('$')[1]);
	});

	it('logout answers 200 {message, status: 200} and the token is dead afterwards', async () => {
		const token = await login(sandbox, ALICE);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token })).status).toBe(200);
		const before = sandbox.counts.logouts;
		const reply = await call(sandbox, 'DELETE', '/v1/logout', { token, headers: { 'content-type': 'application/json' } });
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({ message: expect.any(String), status: 200 });
		expect(sandbox.counts.logouts).toBe(before + 1);

		const after = await call(sandbox, 'GET', '/v1/company/api-integrations', { token });
		expect(after.status).toBe(401);
		expect(after.json).toEqual(NOT_AUTHORIZED);
		expect((await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'a@b.de' } })).status).toBe(401);
		expect((await call(sandbox, 'DELETE', '/v1/logout', { token })).json).toEqual(NOT_AUTHORIZED);
	});

	it('logout without a valid session token answers 401 {message, status}', async () => {
		expect((await call(sandbox, 'DELETE', '/v1/logout')).json).toEqual(NOT_AUTHORIZED);
		expect((await call(sandbox, 'DELETE', '/v1/logout', { token: 'f'.repeat(64) })).status).toBe(401);
		expect((await call(sandbox, 'DELETE', '/v1/logout', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
	});

	it('issueToken gives a live token without a login request; unknown users throw', async () => {
		const logins = sandbox.counts.logins;
		const token = sandbox.issueToken('BOB@globex.test');
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		const reply = await call(sandbox, 'GET', '/v1/company/api-integrations', { token });
		expect(reply.status).toBe(200);
		expect(sandbox.counts.logins).toBe(logins);
		expect(() => sandbox.issueToken('nobody@example.test')).toThrow(/no user/);
	});
});

describe('session: where login puts the token (tokenLocation)', () => {
	const locate: Record<Exclude<TokenLocation, 'none'>, (reply: Reply) => string | undefined> = {
		'data.token': (reply) => reply.json.data.token,
		'data.user.token': (reply) => reply.json.data.user?.token,
		'data.access_token': (reply) => reply.json.data.access_token,
		'top.token': (reply) => reply.json.token,
		'header.authorization': (reply) => /^Bearer (\S+)$/.exec(reply.headers.get('authorization') ?? '')?.[1],
		'header.x-auth-token': (reply) => reply.headers.get('x-auth-token') ?? undefined,
	};

	it.each(Object.keys(locate) as Array<Exclude<TokenLocation, 'none'>>)('%s', async (tokenLocation) => {
		const sandbox = await sandboxWith({ tokenLocation });
		const reply = await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
		expect(reply.status).toBe(200);
		expect(reply.json.data).toMatchObject({ email: ALICE.login, company_id: 1 });
		const token = locate[tokenLocation](reply);
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		// only in the configured place
		const elsewhere = Object.entries(locate)
			.filter(([location]) => location !== tokenLocation)
			.map(([, find]) => find(reply))
			.filter((found) => found !== undefined);
		expect(elsewhere).toEqual([]);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token })).status).toBe(200);
		await stop(sandbox);
	});

	it('none: no token anywhere and no live session', async () => {
		const sandbox = await sandboxWith({ tokenLocation: 'none' });
		const reply = await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
		expect(reply.status).toBe(200);
		expect(reply.text).not.toMatch(/token/i);
		expect(reply.headers.get('authorization')).toBeNull();
		expect(reply.headers.get('x-auth-token')).toBeNull();
		expect(sandbox.state().liveTokens).toBe(0);
		await stop(sandbox);
	});

	it('rejects an unknown tokenLocation', async () => {
		await expect(startSandbox({ tokenLocation: 'cookie' as TokenLocation })).rejects.toThrow(/tokenLocation/);
	});
});

describe('session: token expiry', () => {
	it('a token dies when its lifetime is over', async () => {
		const sandbox = await sandboxWith({ tokenLifetimeMs: 150 });
		const token = await login(sandbox, ALICE);
		expect(sandbox.state().sessions[0].expiresAt).toBeGreaterThan(Date.now());
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token })).status).toBe(200);
		await sleep(250);
		const reply = await call(sandbox, 'GET', '/v1/company/api-integrations', { token });
		expect(reply.status).toBe(401);
		expect(reply.json).toEqual(NOT_AUTHORIZED);
		expect(sandbox.state().liveTokens).toBe(0);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token: await login(sandbox, ALICE) })).status).toBe(200);
	});

	it('all live tokens die once after N authenticated requests (expireTokensAfterRequests)', async () => {
		const sandbox = await sandboxWith({ faults: { expireTokensAfterRequests: 3 } });
		const alice = await login(sandbox, ALICE);
		const bob = sandbox.issueToken(BOB.login);
		const list = (token: string) => call(sandbox, 'GET', '/v1/company/api-integrations', { token });
		// unauthenticated requests do not count
		await call(sandbox, 'GET', '/v1/general/job-types');
		await call(sandbox, 'GET', '/v1/company/api-integrations');
		expect((await list(alice)).status).toBe(200);
		expect((await list(bob)).status).toBe(200);
		expect(sandbox.counts.faults.tokenExpiry).toBe(0);
		expect((await list(alice)).status).toBe(200); // the 3rd: answered, then the tokens die
		expect(sandbox.counts.faults.tokenExpiry).toBe(1);
		expect(sandbox.requests[sandbox.requests.length - 1]).toMatchObject({ status: 200, fault: 'tokenExpiry' });
		expect(sandbox.state().liveTokens).toBe(0);
		expect((await list(alice)).json).toEqual(NOT_AUTHORIZED);
		expect((await list(bob)).status).toBe(401);

		// once only: a fresh login lives on
		const fresh = await login(sandbox, ALICE);
		for (let i = 0; i < 5; i++) expect((await list(fresh)).status).toBe(200);
		expect(sandbox.counts.faults.tokenExpiry).toBe(1);
	});

	it('with repeat, tokens die again after every further N requests; API keys survive', async () => {
		const sandbox = await sandboxWith({
			companies: [{ id: 7, name: 'Initech', users: [{ email: 'peter@initech.test', password: 'tps-report' }], apiKeys: [SEEDED_INTEGRATION] }],
			faults: { expireTokensAfterRequests: 2, repeat: true },
		});
		const apiKey = SEEDED_INTEGRATION;
		let token = await login(sandbox, { login: 'peter@initech.test', password: 'tps-report' });
		const list = (credential: string) => call(sandbox, 'GET', '/v1/company/api-integrations', { token: credential });
		const statuses: number[] = [];
		for (let i = 0; i < 3; i++) statuses.push((await list(token)).status);
		token = sandbox.issueToken('peter@initech.test');
		statuses.push((await list(token)).status, (await list(apiKey)).status, (await list(token)).status, (await list(apiKey)).status);
		expect(statuses).toEqual([200, 200, 401, 200, 200, 401, 200]);
		expect(sandbox.counts.faults.tokenExpiry).toBe(2);
	});
});

// ---- API integrations ---------------------------------------------------------------------

describe('API integrations', () => {
	let sandbox: Sandbox;
	let alice: string;
	let bob: string;
	beforeAll(async () => {
		sandbox = await sandboxWith();
		alice = await login(sandbox, ALICE);
		bob = await login(sandbox, BOB);
	});

	it('create without valid authorization answers 401 {message: "Not authorized", status: 401}', async () => {
		for (const options of [{}, { token: 'not-a-token' }, { headers: { authorization: alice } }]) {
			const reply = await call(sandbox, 'POST', '/v1/company/api-integrations', options);
			expect(reply.status).toBe(401);
			expect(reply.json).toEqual(NOT_AUTHORIZED);
		}
		expect(sandbox.state().companies.every((company) => company.apiKeys.length === 0)).toBe(true);
	});

	it('create answers 201 with {id, value} (the body carries status 200), list shows only the own keys', async () => {
		const created = await call(sandbox, 'POST', '/v1/company/api-integrations', { token: alice });
		expect(created.status).toBe(201);
		expect(created.json).toEqual({ message: expect.any(String), status: 200, data: { id: expect.any(Number), value: expect.stringMatching(UUID) } });
		const bobs = await call(sandbox, 'POST', '/v1/company/api-integrations', { token: bob, headers: { 'content-type': 'application/json' } });
		expect(bobs.status).toBe(201);
		expect(bobs.json.data.id).not.toBe(created.json.data.id);

		const list = await call(sandbox, 'GET', '/v1/company/api-integrations', { token: alice });
		expect(list.status).toBe(200);
		expect(list.json).toEqual({ message: expect.any(String), status: 200, data: [created.json.data] });
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token: bob })).json.data).toEqual([bobs.json.data]);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations')).json).toEqual(NOT_AUTHORIZED);
	});

	it('an API key authorizes listing (Bearer or X-API-Key) but not key management', async () => {
		const key = (await call(sandbox, 'POST', '/v1/company/api-integrations', { token: alice })).json.data;
		const viaBearer = await call(sandbox, 'GET', '/v1/company/api-integrations', { token: key.value });
		expect(viaBearer.status).toBe(200);
		expect(viaBearer.json.data).toContainEqual(key);
		const viaHeader = await call(sandbox, 'GET', '/v1/company/api-integrations', { headers: { 'x-api-key': key.value } });
		expect(viaHeader.json.data).toEqual(viaBearer.json.data);
		expect((await call(sandbox, 'POST', '/v1/company/api-integrations', { token: key.value })).json).toEqual(NOT_AUTHORIZED);
		expect((await call(sandbox, 'DELETE', `/v1/company/api-integrations/${key.id}`, { token: key.value })).status).toBe(401);
		expect((await call(sandbox, 'DELETE', '/v1/logout', { token: key.value })).status).toBe(401);
	});

	it('delete answers 200 {message, status, data: {id}}; an unknown or foreign key 404 {message, status}', async () => {
		const key = (await call(sandbox, 'POST', '/v1/company/api-integrations', { token: alice })).json.data;
		const foreign = await call(sandbox, 'DELETE', `/v1/company/api-integrations/${key.id}`, { token: bob });
		expect(foreign.status).toBe(404);
		expect(foreign.json).toEqual({ message: expect.any(String), status: 404 });
		expect((await call(sandbox, 'DELETE', `/v1/company/api-integrations/${key.id}`)).json).toEqual(NOT_AUTHORIZED);

		const deleted = await call(sandbox, 'DELETE', `/v1/company/api-integrations/${key.id}`, { token: alice });
		expect(deleted.status).toBe(200);
		expect(deleted.json).toEqual({ message: expect.any(String), status: 200, data: { id: key.id } });
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token: alice })).json.data).not.toContainEqual(key);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token: key.value })).status).toBe(401);

		const again = await call(sandbox, 'DELETE', `/v1/company/api-integrations/${key.id}`, { token: alice });
		expect(again.status).toBe(404);
		expect(again.json).toEqual({ message: expect.any(String), status: 404 });
		expect((await call(sandbox, 'DELETE', '/v1/company/api-integrations/no-such-key', { token: alice })).status).toBe(404);
	});

	it('a key can be deleted by its value as identifier too', async () => {
		const key = (await call(sandbox, 'POST', '/v1/company/api-integrations', { token: alice })).json.data;
		const deleted = await call(sandbox, 'DELETE', `/v1/company/api-integrations/${encodeURIComponent(key.value)}`, { token: alice });
		expect(deleted.json).toEqual({ message: expect.any(String), status: 200, data: { id: key.id } });
	});

	it('seeded API keys work from the start', async () => {
		const seeded = await sandboxWith({
			companies: [{ ...DEFAULT_COMPANIES[0], apiKeys: ['11111111-2222-4333-8444-555555555555'] }],
		});
		const reply = await call(seeded, 'GET', '/v1/company/api-integrations', { headers: { 'X-API-Key': '11111111-2222-4333-8444-555555555555' } });
		expect(reply.json.data).toEqual([{ id: 1, value: '11111111-2222-4333-8444-555555555555' }]);
	});
});

// ---- candidates -----------------------------------------------------------------------------

describe('candidates', () => {
	let sandbox: Sandbox;
	let alice: string;
	let bob: string;
	beforeAll(async () => {
		sandbox = await sandboxWith();
		alice = await login(sandbox, ALICE);
		bob = await login(sandbox, BOB);
	});

	const CANDIDATE_PATHS: Array<[string, string]> = [
		['POST', '/gin/v1/company/candidate'],
		['PUT', '/gin/v1/company/candidate'],
		['POST', '/gin/v1/company/candidate/job'],
		['POST', '/gin/v1/company/candidate/university'],
		['POST', '/gin/v1/company/candidate/it-skill'],
		['POST', '/gin/v1/company/candidate/language'],
		['POST', '/gin/v1/company/candidate/additional-information'],
	];

	it.each(CANDIDATE_PATHS)('%s %s without credentials answers 401', async (method, path) => {
		const reply = await call(sandbox, method, path, { body: { email: 'a@b.de', user_slug: 'x' } });
		expect(reply.status).toBe(401);
		expect(reply.json).toEqual(NOT_AUTHORIZED);
		const stale = await call(sandbox, method, path, { token: 'a'.repeat(64), body: { email: 'a@b.de' } });
		expect(stale.status).toBe(401);
	});

	describe('create', () => {
		it('answers 201 with status as text and data.slug, and stores the candidate in the company', async () => {
			const before = sandbox.counts.candidatesCreated;
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', {
				token: alice,
				body: { phone: '+49 30 1234567', email: 'max@example.test', source: 'job fair' },
			});
			expect(reply.status).toBe(201);
			expect(reply.json).toEqual({ message: expect.any(String), status: '201', data: { slug: expect.stringMatching(UUID) } });
			expect(typeof reply.json.status).toBe('string');
			expect(sandbox.counts.candidatesCreated).toBe(before + 1);
			const stored = sandbox.candidates(1).find((candidate) => candidate.slug === reply.json.data.slug);
			expect(stored).toMatchObject({
				companyId: 1,
				phone: '+49 30 1234567',
				email: 'max@example.test',
				source: 'job fair',
				employee: false,
				records: { jobs: [], universities: [], itSkills: [], languages: [], additionalInfo: [] },
			});
			expect(sandbox.candidates(2).some((candidate) => candidate.slug === reply.json.data.slug)).toBe(false);
		});

		it('accepts phone only, an employee flag and an empty source', async () => {
			const slug = await createCandidate(sandbox, alice, { phone: '0123', employee: true, source: '' });
			expect(sandbox.candidates(1).find((candidate) => candidate.slug === slug)).toMatchObject({ phone: '0123', email: null, employee: true, source: '' });
		});

		it('takes the company from an API key (Bearer or X-API-Key)', async () => {
			const key = (await call(sandbox, 'POST', '/v1/company/api-integrations', { token: bob })).json.data.value as string;
			const viaBearer = await createCandidate(sandbox, key, { email: 'viakey@example.test' });
			const viaHeader = await call(sandbox, 'POST', '/gin/v1/company/candidate', { headers: { 'x-api-key': key }, body: { email: 'viaheader@example.test' } });
			expect(viaHeader.status).toBe(201);
			const slugs = sandbox.candidates(2).map((candidate) => candidate.slug);
			expect(slugs).toEqual(expect.arrayContaining([viaBearer, viaHeader.json.data.slug]));
			expect(sandbox.candidates(1).map((candidate) => candidate.slug)).not.toContain(viaBearer);
		});

		it('refuses a company_id other than the authorized company', async () => {
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, body: { email: 'x@example.test', company_id: 2 } });
			expect(reply.status).toBe(403);
			expect(reply.json).toEqual({ message: expect.any(String), status: 403 });
			expect((await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, body: { email: 'x@example.test', company_id: 1 } })).status).toBe(201);
		});

		it.each([
			['no body', undefined, 'phone: is required when email is missing'],
			['empty phone and e-mail', { phone: '', email: ' ', source: 'x' }, 'phone: is required when email is missing'],
			['a malformed e-mail', { email: 'not-an-email' }, 'email: must be a valid e-mail address'],
			['a non-string phone', { phone: 491234 }, 'phone: must be a string'],
			['a non-boolean employee', { email: 'a@b.de', employee: 'yes' }, 'employee: must be a boolean'],
			['an array body', [{ email: 'a@b.de' }], 'body: must be a JSON object'],
		])('answers 422 for %s', async (_case, body, message) => {
			const count = sandbox.candidates(1).length;
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, body });
			expect(reply.status).toBe(422);
			expect(reply.json).toEqual({ message, status: 422 });
			expect(sandbox.candidates(1)).toHaveLength(count);
		});
	});

	describe('update', () => {
		it('answers 200 {message, status: 200, data: profile} and stores the fields', async () => {
			const slug = await createCandidate(sandbox, alice, { email: 'old@example.test' });
			const fields = {
				email: 'new@example.test',
				first_name: 'Erika',
				last_name: 'Mustermann',
				city: 'Köln',
				street: 'Domkloster 4',
				zip_code: '50667',
				phone: '+49 221 0000',
				birthday: '12-08-1964',
				whatsapp_preference: true,
				sms_preference: false,
				email_preference: true,
			};
			const reply = await call(sandbox, 'PUT', '/gin/v1/company/candidate', { token: alice, body: { user_slug: slug, ...fields } });
			expect(reply.status).toBe(200);
			expect(reply.json).toEqual({ message: expect.any(String), status: 200, data: { slug, source: null, employee: false, ...fields } });
			expect(sandbox.candidates(1).find((candidate) => candidate.slug === slug)).toMatchObject(fields);

			const partial = await call(sandbox, 'PUT', '/gin/v1/company/candidate', { token: alice, body: { user_slug: slug, city: 'Bonn' } });
			expect(partial.json.data).toMatchObject({ city: 'Bonn', first_name: 'Erika', zip_code: '50667' });
		});

		it.each([
			['no user_slug', { city: 'Bonn' }, 'user_slug: is required'],
			['a numeric zip_code', { user_slug: 'x', zip_code: 50667 }, 'zip_code: must be a string'],
			['an impossible birthday', { user_slug: 'x', birthday: '31-02-1990' }, 'birthday: must be a valid date in the form DD-MM-YYYY'],
			['a month-first birthday', { user_slug: 'x', birthday: '12-31-1990' }, 'birthday: must be a valid date in the form DD-MM-YYYY'],
			['an ISO birthday', { user_slug: 'x', birthday: '1990-12-31' }, 'birthday: must be a valid date in the form DD-MM-YYYY'],
			['a malformed e-mail', { user_slug: 'x', email: 'a@' }, 'email: must be a valid e-mail address'],
			['a non-boolean preference', { user_slug: 'x', sms_preference: 'true' }, 'sms_preference: must be a boolean'],
		])('answers 422 for %s', async (_case, body, message) => {
			const reply = await call(sandbox, 'PUT', '/gin/v1/company/candidate', { token: alice, body });
			expect(reply.status).toBe(422);
			expect(reply.json).toEqual({ message, status: 422 });
		});

		it('answers 404 {message: "Candidate not found"} for an unknown or another company\'s candidate', async () => {
			const slug = await createCandidate(sandbox, alice);
			const foreign = await call(sandbox, 'PUT', '/gin/v1/company/candidate', { token: bob, body: { user_slug: slug, city: 'Hijacked' } });
			expect(foreign.status).toBe(404);
			expect(foreign.json).toEqual(CANDIDATE_NOT_FOUND);
			expect(sandbox.candidates(1).find((candidate) => candidate.slug === slug)?.city).toBeNull();
			const unknown = await call(sandbox, 'PUT', '/gin/v1/company/candidate', { token: alice, body: { user_slug: 'no-such-slug', city: 'x' } });
			expect(unknown.json).toEqual(CANDIDATE_NOT_FOUND);
		});
	});

	describe('sub-records', () => {
		let slug: string;
		beforeAll(async () => {
			slug = await createCandidate(sandbox, alice, { email: 'records@example.test' });
		});
		const stored = () => sandbox.candidates(1).find((candidate) => candidate.slug === slug);

		it('job: 201 {message, status: 201}; stored with its fields; end_date may be empty; either date order', async () => {
			const before = sandbox.counts.recordsCreated;
			const job = {
				company_name: 'Initech',
				start_date: '01-03-2019',
				end_date: '28-02-2021',
				city_name: 'Austin',
				job_type_id: 4,
				description: 'TPS reports',
				job_title: 'Engineer',
				business_area_division: 'Softwareentwicklung',
				lang: 'de',
			};
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate/job', { token: alice, body: { user_slug: slug, ...job } });
			expect(reply.status).toBe(201);
			expect(reply.json).toEqual({ message: expect.any(String), status: 201 });
			const ongoing = await call(sandbox, 'POST', '/gin/v1/company/candidate/job', {
				token: alice,
				body: { user_slug: slug, company_name: 'Globex', start_date: '12-31-2021', end_date: '' },
			});
			expect(ongoing.status).toBe(201);
			expect(sandbox.counts.recordsCreated).toBe(before + 2);
			expect(stored()?.records.jobs).toEqual([
				{ id: expect.any(Number), createdAt: expect.any(String), ...job },
				{ id: expect.any(Number), createdAt: expect.any(String), company_name: 'Globex', start_date: '12-31-2021', end_date: '' },
			]);
		});

		it('university: 201 {message, status: 201}', async () => {
			const record = {
				start_date: '01-10-2012',
				end_date: '30-09-2016',
				university_name: 'TU München',
				study_name: 'Informatik',
				university_degrees_id: 10,
				description: 'Thesis on compilers',
				grade: 2,
				grading_systems_id: 1,
			};
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate/university', { token: alice, body: { user_slug: slug, ...record } });
			expect(reply.status).toBe(201);
			expect(reply.json).toEqual({ message: expect.any(String), status: 201 });
			expect(stored()?.records.universities).toEqual([{ id: expect.any(Number), createdAt: expect.any(String), ...record }]);
		});

		it('IT skill: HTTP 200 with body status 201', async () => {
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate/it-skill', {
				token: alice,
				body: { user_slug: slug, skill_name: 'TypeScript', skill_level_id: 4 },
			});
			expect(reply.status).toBe(200);
			expect(reply.json).toEqual({ message: expect.any(String), status: 201 });
			expect(stored()?.records.itSkills).toEqual([{ id: expect.any(Number), createdAt: expect.any(String), skill_name: 'TypeScript', skill_level_id: 4 }]);
		});

		it('language: HTTP 200 with body status 201', async () => {
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate/language', {
				token: alice,
				body: { user_slug: slug, language_id: 139, language_level_id: 3 },
			});
			expect(reply.status).toBe(200);
			expect(reply.json).toEqual({ message: expect.any(String), status: 201 });
			expect(stored()?.records.languages).toEqual([{ id: expect.any(Number), createdAt: expect.any(String), language_id: 139, language_level_id: 3 }]);
		});

		it('additional information: HTTP 200 with body status 201; only the title is required', async () => {
			const minimal = await call(sandbox, 'POST', '/gin/v1/company/candidate/additional-information', {
				token: alice,
				body: { user_slug: slug, title: 'Volunteer' },
			});
			expect(minimal.status).toBe(200);
			expect(minimal.json).toEqual({ message: expect.any(String), status: 201 });
			const full = { title: 'Sabbatical', description: 'Travelling', start_date: '01-01-2022', end_date: '30-06-2022' };
			expect((await call(sandbox, 'POST', '/gin/v1/company/candidate/additional-information', { token: alice, body: { user_slug: slug, ...full } })).status).toBe(200);
			expect(stored()?.records.additionalInfo).toEqual([
				{ id: expect.any(Number), createdAt: expect.any(String), title: 'Volunteer' },
				{ id: expect.any(Number), createdAt: expect.any(String), ...full },
			]);
		});

		const JOB = '/gin/v1/company/candidate/job';
		const UNIVERSITY = '/gin/v1/company/candidate/university';
		const IT_SKILL = '/gin/v1/company/candidate/it-skill';
		const LANGUAGE = '/gin/v1/company/candidate/language';
		const ADDITIONAL = '/gin/v1/company/candidate/additional-information';
		const job = { company_name: 'Initech', start_date: '01-03-2019' };
		it.each([
			[JOB, { ...job, company_name: undefined }, 'company_name: is required'],
			[JOB, { ...job, company_name: '  ' }, 'company_name: is required'],
			[JOB, { ...job, start_date: undefined }, 'start_date: is required'],
			[JOB, { ...job, start_date: '2019-03-01' }, 'start_date: must be a valid date in the form DD-MM-YYYY or MM-DD-YYYY'],
			[JOB, { ...job, start_date: '31-31-2019' }, 'start_date: must be a valid date in the form DD-MM-YYYY or MM-DD-YYYY'],
			[JOB, { ...job, start_date: '1-3-2019' }, 'start_date: must be a valid date in the form DD-MM-YYYY or MM-DD-YYYY'],
			[JOB, { ...job, end_date: '31-02-2020' }, 'end_date: must be a valid date in the form DD-MM-YYYY or MM-DD-YYYY'],
			[JOB, { ...job, end_date: '28-02-2019' }, 'end_date: must not be before start_date'],
			[JOB, { ...job, job_type_id: 11 }, 'job_type_id: must be an id from the job types list'],
			[JOB, { ...job, job_type_id: 0 }, 'job_type_id: must be a positive integer'],
			[JOB, { ...job, job_type_id: 2.5 }, 'job_type_id: must be a positive integer'],
			[JOB, { ...job, job_type_id: '4' }, 'job_type_id: must be a positive integer'],
			[JOB, { ...job, city_name: 42 }, 'city_name: must be a string'],
			[UNIVERSITY, {}, 'start_date: is required'],
			[UNIVERSITY, { start_date: '01-10-2016', end_date: '01-10-2012' }, 'end_date: must not be before start_date'],
			[UNIVERSITY, { start_date: '01-10-2012', university_degrees_id: 25 }, 'university_degrees_id: must be an id from the university degrees list'],
			[UNIVERSITY, { start_date: '01-10-2012', grade: 0 }, 'grade: must be a positive integer'],
			[UNIVERSITY, { start_date: '01-10-2012', grading_systems_id: -1 }, 'grading_systems_id: must be a positive integer'],
			[IT_SKILL, { skill_level_id: 2 }, 'skill_name: is required'],
			[IT_SKILL, { skill_name: 'Go' }, 'skill_level_id: is required'],
			[IT_SKILL, { skill_name: 'Go', skill_level_id: 5 }, 'skill_level_id: must be an integer from 1 to 4'],
			[IT_SKILL, { skill_name: 'Go', skill_level_id: 0 }, 'skill_level_id: must be an integer from 1 to 4'],
			[IT_SKILL, { skill_name: 'Go', skill_level_id: 1.5 }, 'skill_level_id: must be an integer from 1 to 4'],
			[LANGUAGE, { language_id: 141, language_level_id: 1 }, 'language_id: must be an id from the language skills list'],
			[LANGUAGE, { language_id: 26 }, 'language_level_id: is required'],
			[LANGUAGE, { language_id: 26, language_level_id: 0 }, 'language_level_id: must be a positive integer'],
			[ADDITIONAL, { description: 'x' }, 'title: is required'],
			[ADDITIONAL, { title: 'x', start_date: '15-05-2022', end_date: '14-05-2022' }, 'end_date: must not be before start_date'],
		])('%s answers 422 %#', async (path, fields, message) => {
			const count = sandbox.counts.recordsCreated;
			const reply = await call(sandbox, 'POST', path, { token: alice, body: { user_slug: slug, ...fields } });
			expect(reply.status).toBe(422);
			expect(reply.json).toEqual({ message, status: 422 });
			expect(sandbox.counts.recordsCreated).toBe(count);
		});

		it('every sub-record endpoint needs user_slug (422) and refuses an unknown or foreign candidate (404)', async () => {
			const bodies: Array<[string, Record<string, unknown>]> = [
				[JOB, job],
				[UNIVERSITY, { start_date: '01-10-2012' }],
				[IT_SKILL, { skill_name: 'Go', skill_level_id: 2 }],
				[LANGUAGE, { language_id: 26, language_level_id: 2 }],
				[ADDITIONAL, { title: 'x' }],
			];
			const before = JSON.stringify(stored()?.records);
			for (const [path, body] of bodies) {
				expect((await call(sandbox, 'POST', path, { token: alice, body })).json).toEqual({ message: 'user_slug: is required', status: 422 });
				const foreign = await call(sandbox, 'POST', path, { token: bob, body: { user_slug: slug, ...body } });
				expect(foreign.status).toBe(404);
				expect(foreign.json).toEqual(CANDIDATE_NOT_FOUND);
				expect((await call(sandbox, 'POST', path, { token: alice, body: { user_slug: 'nope', ...body } })).json).toEqual(CANDIDATE_NOT_FOUND);
			}
			expect(JSON.stringify(stored()?.records)).toBe(before);
		});

		it('ambiguous day/month dates are only rejected when no reading keeps the order', async () => {
			// 02-03 vs 01-04: as DD-MM 2 Mar → 1 Apr (fine); as MM-DD 3 Feb → 4 Jan (before) → accepted
			expect((await call(sandbox, 'POST', JOB, { token: alice, body: { user_slug: slug, company_name: 'A', start_date: '02-03-2020', end_date: '01-04-2020' } })).status).toBe(201);
			// month-first dates that are only valid as MM-DD: 12-31-2020 → 01-15-2021 is fine
			expect((await call(sandbox, 'POST', JOB, { token: alice, body: { user_slug: slug, company_name: 'B', start_date: '12-31-2020', end_date: '01-15-2021' } })).status).toBe(201);
			// month-first, end before start
			expect((await call(sandbox, 'POST', JOB, { token: alice, body: { user_slug: slug, company_name: 'C', start_date: '12-31-2020', end_date: '12-15-2020' } })).json).toEqual({
				message: 'end_date: must not be before start_date',
				status: 422,
			});
		});
	});
});

// ---- transport-level errors -----------------------------------------------------------------

describe('malformed requests, body limit, unknown routes', () => {
	let sandbox: Sandbox;
	let alice: string;
	beforeAll(async () => {
		sandbox = await sandboxWith({ bodyLimitBytes: 4096 });
		alice = await login(sandbox, ALICE);
	});

	it('malformed JSON answers 400 {message: "Malformed JSON", status: 400}', async () => {
		for (const [path, token] of [['/v1/login', undefined], ['/gin/v1/company/candidate', alice]] as const) {
			const reply = await call(sandbox, 'POST', path, { token, raw: '{"user": {"login": ' });
			expect(reply.status).toBe(400);
			expect(reply.json).toEqual({ message: 'Malformed JSON', status: 400 });
		}
		expect(sandbox.candidates(1)).toHaveLength(0);
	});

	it('an empty JSON body counts as no body', async () => {
		const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, raw: '' , headers: { 'content-type': 'application/json' } });
		expect(reply.json).toEqual({ message: 'phone: is required when email is missing', status: 422 });
	});

	it('a body over the limit answers 413; one under it passes', async () => {
		const big = { email: 'big@example.test', source: 'x'.repeat(5000) };
		const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, body: big });
		expect(reply.status).toBe(413);
		expect(reply.json).toEqual({ message: expect.any(String), status: 413 });
		expect(sandbox.candidates(1)).toHaveLength(0);
		const small = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, body: { ...big, source: 'x'.repeat(3000) } });
		expect(small.status).toBe(201);
	});

	it('the default limit is 1 MiB', async () => {
		const defaults = await sandboxWith();
		const token = defaults.issueToken(ALICE.login);
		const over = await call(defaults, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'a@b.de', source: 'x'.repeat(1024 * 1024) } });
		expect(over.status).toBe(413);
		const under = await call(defaults, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'a@b.de', source: 'x'.repeat(1000 * 1000) } });
		expect(under.status).toBe(201);
		await stop(defaults);
	});

	it.each(['application/xml', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded'])(
		'a body sent as %s answers 415',
		async (contentType) => {
			const count = sandbox.candidates(1).length;
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token: alice, raw: '{"email":"a@b.de"}', headers: { 'content-type': contentType } });
			expect(reply.status).toBe(415);
			expect(reply.json).toEqual({ message: expect.any(String), status: 415 });
			expect(sandbox.candidates(1)).toHaveLength(count);
		},
	);

	it('unknown routes and methods answer 404 {message, status: 404}', async () => {
		for (const [method, path] of [['GET', '/v1/nothing'], ['GET', '/v1/login'], ['POST', '/v1/general/job-types'], ['GET', '/v2/general/job-types']]) {
			const reply = await call(sandbox, method, path);
			expect(reply.status).toBe(404);
			expect(reply.json).toEqual({ message: expect.any(String), status: 404 });
		}
	});
});

// ---- request log --------------------------------------------------------------------------

describe('request log', () => {
	it('records method, path, query, unredacted headers, parsed body and status; clearRequests empties it', async () => {
		const sandbox = await sandboxWith();
		const token = await login(sandbox, ALICE);
		await call(sandbox, 'GET', '/v1/general/language-skills?lang=en&x=1');
		await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'log@example.test' }, headers: { 'x-trace': 'abc' } });
		expect(sandbox.requests).toHaveLength(3);
		const [loginEntry, listEntry, createEntry] = sandbox.requests;
		expect(loginEntry).toMatchObject({ method: 'POST', path: '/v1/login', status: 200, body: { user: ALICE } });
		expect(listEntry).toMatchObject({ method: 'GET', path: '/v1/general/language-skills', query: { lang: 'en', x: '1' }, status: 200 });
		expect(createEntry).toMatchObject({
			method: 'POST',
			path: '/gin/v1/company/candidate',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-trace': 'abc' },
			body: { email: 'log@example.test' },
			status: 201,
		});
		expect(createEntry.fault).toBeUndefined();
		expect(createEntry.at).toBeGreaterThanOrEqual(loginEntry.at);
		sandbox.clearRequests();
		expect(sandbox.requests).toHaveLength(0);
		await call(sandbox, 'GET', '/v1/general/job-types');
		expect(sandbox.requests).toHaveLength(1);
	});
});

// ---- fault injection ----------------------------------------------------------------------

describe('fault injection', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await sandboxWith();
	});
	beforeEach(() => {
		sandbox.setFaults({});
		sandbox.clearRequests();
	});

	it('errorRate: 500 and 503 envelopes before processing, counted and marked', async () => {
		const token = sandbox.issueToken(ALICE.login);
		sandbox.setFaults({ errorRate: 1, seed: 42 });
		const statuses: number[] = [];
		for (let i = 0; i < 16; i++) {
			const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: `e${i}@example.test` } });
			statuses.push(reply.status);
			expect(reply.json).toEqual({ message: expect.any(String), status: reply.status });
		}
		expect(new Set(statuses)).toEqual(new Set([500, 503]));
		expect(sandbox.candidates(1)).toHaveLength(0);
		const fiveHundreds = statuses.filter((status) => status === 500).length;
		expect(sandbox.counts.faults.error500).toBeGreaterThanOrEqual(fiveHundreds);
		expect(sandbox.requests.map((entry) => entry.fault)).toEqual(statuses.map((status) => (status === 500 ? 'error500' : 'error503')));
		expect(sandbox.requests.map((entry) => entry.status)).toEqual(statuses);
	});

	it('holdNext: the next request to that method and path waits (logged, nothing stored) until released; others pass meanwhile', async () => {
		const token = sandbox.issueToken(ALICE.login);
		const release = sandbox.holdNext('POST', '/gin/v1/company/candidate');
		let answered = false;
		const held = call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'held@example.test' } }).then((reply) => ((answered = true), reply));
		await sleep(300);
		expect([answered, sandbox.requests.length, sandbox.candidates(1).some((candidate) => candidate.email === 'held@example.test')]).toEqual([false, 1, false]);
		// Only the first such request is held: the next passes, and so does any other request.
		expect((await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'next@example.test' } })).status).toBe(201);
		expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);
		expect(answered).toBe(false);
		release();
		expect((await held).status).toBe(201);
		expect(sandbox.candidates(1).filter((candidate) => ['held@example.test', 'next@example.test'].includes(String(candidate.email))).length).toBe(2);
	});

	it('rateLimitRate: 429 with Retry-After (default 1 s, configurable)', async () => {
		const before = sandbox.counts.faults.rateLimit;
		sandbox.setFaults({ rateLimitRate: 1 });
		const first = await call(sandbox, 'GET', '/v1/general/job-types');
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('1');
		expect(first.json).toEqual({ message: expect.any(String), status: 429 });
		sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 7 });
		const second = await call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } });
		expect(second.status).toBe(429);
		expect(second.headers.get('retry-after')).toBe('7');
		expect(sandbox.counts.faults.rateLimit).toBe(before + 2);
		expect(sandbox.requests.map((entry) => [entry.status, entry.fault])).toEqual([[429, 'rateLimit'], [429, 'rateLimit']]);
	});

	it('dropRate: the connection is destroyed without an answer, before processing', async () => {
		const before = sandbox.counts.faults.drop;
		const logins = sandbox.counts.logins;
		sandbox.setFaults({ dropRate: 1 });
		await expect(call(sandbox, 'POST', '/v1/login', { body: { user: ALICE } })).rejects.toThrow();
		expect(sandbox.counts.faults.drop).toBe(before + 1);
		expect(sandbox.counts.logins).toBe(logins);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ path: '/v1/login', status: 0, fault: 'drop' });
		sandbox.setFaults({});
		expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);
	});

	it('latencyMs (+ jitter) delays every request and is counted', async () => {
		const before = sandbox.counts.faults.latency;
		sandbox.setFaults({ latencyMs: 150 });
		const start = Date.now();
		const reply = await call(sandbox, 'GET', '/v1/general/job-types');
		expect(Date.now() - start).toBeGreaterThanOrEqual(140);
		expect(reply.status).toBe(200);
		sandbox.setFaults({ latencyMs: 10, latencyJitterMs: 50, seed: 1 });
		await call(sandbox, 'GET', '/v1/general/job-types');
		expect(sandbox.counts.faults.latency).toBe(before + 2);
		expect(sandbox.requests.map((entry) => entry.fault)).toEqual(['latency', 'latency']);
	});

	it('a seed makes the random faults reproducible; combined faults are all marked', async () => {
		const run = async (): Promise<number[]> => {
			sandbox.setFaults({ errorRate: 0.3, rateLimitRate: 0.3, seed: 2024 });
			const statuses: number[] = [];
			for (let i = 0; i < 24; i++) statuses.push((await call(sandbox, 'GET', '/v1/general/job-types')).status);
			return statuses;
		};
		const first = await run();
		const second = await run();
		expect(second).toEqual(first);
		expect(new Set(first).size).toBeGreaterThan(1);
		expect(first).toContain(200);

		sandbox.clearRequests();
		sandbox.setFaults({ latencyMs: 1, errorRate: 1, seed: 3 });
		await call(sandbox, 'GET', '/v1/general/job-types');
		expect(sandbox.requests[0].fault).toMatch(/^latency\+error50[03]$/);
	});

	it('paths restricts the faults to matching path prefixes; admin-free default sandbox is unaffected elsewhere', async () => {
		const token = sandbox.issueToken(ALICE.login);
		sandbox.setFaults({ errorRate: 1, paths: ['/gin/'] });
		expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token })).status).toBe(200);
		expect([500, 503]).toContain((await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body: { email: 'p@example.test' } })).status);
		expect(sandbox.faults()).toEqual({ errorRate: 1, paths: ['/gin/'] });
	});

	it('faults can be configured at start', async () => {
		const faulty = await sandboxWith({ faults: { rateLimitRate: 1, retryAfterSeconds: 3 } });
		const reply = await call(faulty, 'GET', '/v1/general/job-types');
		expect(reply.status).toBe(429);
		expect(reply.headers.get('retry-after')).toBe('3');
		expect(faulty.counts.faults.rateLimit).toBe(1);
	});
});

// ---- admin routes -----------------------------------------------------------------------------

describe('admin routes', () => {
	it('are off by default (404)', async () => {
		const sandbox = await sandboxWith();
		for (const [method, path] of [['GET', '/__sandbox/state'], ['POST', '/__sandbox/faults'], ['POST', '/__sandbox/reset'], ['GET', '/__sandbox/requests']]) {
			expect((await call(sandbox, method, path, { body: method === 'POST' ? {} : undefined })).status).toBe(404);
		}
	});

	it('when enabled: state, requests, faults and reset, themselves free of faults and logging', async () => {
		const sandbox = await sandboxWith({ admin: true });
		const token = await login(sandbox, ALICE);
		const slug = await createCandidate(sandbox, token, { email: 'admin@example.test' });

		const state = await call(sandbox, 'GET', '/__sandbox/state');
		expect(state.status).toBe(200);
		expect(state.json.companies.map((company: { name: string }) => company.name)).toEqual(['Acme Recruiting GmbH', 'Globex Talent AG']);
		expect(state.json.companies[0].candidates[0]).toMatchObject({ slug, email: 'admin@example.test' });
		expect(state.json.liveTokens).toBe(1);

		const faults = await call(sandbox, 'POST', '/__sandbox/faults', { body: { errorRate: 1, seed: 5 } });
		expect(faults.json).toMatchObject({ status: 200, data: { errorRate: 1, seed: 5 } });
		expect([500, 503]).toContain((await call(sandbox, 'GET', '/v1/general/job-types')).status);
		expect((await call(sandbox, 'GET', '/__sandbox/state')).status).toBe(200);
		expect((await call(sandbox, 'POST', '/__sandbox/faults', { raw: '[1]' })).status).toBe(422);
		expect((await call(sandbox, 'POST', '/__sandbox/faults', { body: {} })).status).toBe(200);
		expect((await call(sandbox, 'GET', '/v1/general/job-types')).status).toBe(200);

		const log = await call(sandbox, 'GET', '/__sandbox/requests');
		expect(log.json.requests.map((entry: { path: string }) => entry.path)).toEqual([
			'/v1/login',
			'/gin/v1/company/candidate',
			'/v1/general/job-types',
			'/v1/general/job-types',
		]);
		expect(log.json.counts.candidatesCreated).toBe(1);

		expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
		expect(sandbox.candidates(1)).toEqual([]);
		expect(sandbox.requests).toEqual([]);
		expect(sandbox.counts.candidatesCreated).toBe(0);
		expect((await call(sandbox, 'GET', '/v1/company/api-integrations', { token })).status).toBe(401);
		expect(await login(sandbox, ALICE)).toMatch(/^[0-9a-f]{64}$/);
	});
});

// ---- state, persistence ----------------------------------------------------------------------

describe('state and persistence', () => {
	it('state() and candidates() are deep copies', async () => {
		const sandbox = await sandboxWith();
		const token = sandbox.issueToken(ALICE.login);
		await createCandidate(sandbox, token);
		const state = sandbox.state();
		state.companies[0].candidates[0].email = 'changed@example.test';
		sandbox.candidates(1)[0].records.jobs.push({ id: 1, createdAt: '', company_name: 'x', start_date: '01-01-2020' });
		expect(sandbox.candidates(1)[0]).toMatchObject({ email: 'jane@example.test', records: { jobs: [] } });
		expect(sandbox.candidates(99)).toEqual([]);
	});

	it('onStateChange gets the state after every mutation; initialState restores it', async () => {
		const states: SandboxState[] = [];
		const first = await sandboxWith({ onStateChange: (state) => states.push(state) });
		const seeded = states.length;
		const token = await login(first, ALICE);
		expect(states.length).toBe(seeded + 1);
		expect(states[states.length - 1].liveTokens).toBe(1);
		const slug = await createCandidate(first, token);
		await call(first, 'POST', '/gin/v1/company/candidate/it-skill', { token, body: { user_slug: slug, skill_name: 'SQL', skill_level_id: 3 } });
		const key = (await call(first, 'POST', '/v1/company/api-integrations', { token })).json.data;
		expect(states.length).toBe(seeded + 4);
		const count = states.length;
		await call(first, 'GET', '/v1/general/job-types');
		await call(first, 'POST', '/gin/v1/company/candidate', { token, body: {} });
		expect(states.length).toBe(count); // reads and refusals do not mutate

		const last = JSON.parse(JSON.stringify(states[states.length - 1])) as SandboxState;
		expect(last.companies[0].candidates[0]).toMatchObject({ slug, records: { itSkills: [{ skill_name: 'SQL', skill_level_id: 3 }] } });
		await stop(first);

		const restored = await sandboxWith({ initialState: last });
		expect(restored.candidates(1)).toEqual(last.companies[0].candidates);
		expect((await call(restored, 'GET', '/v1/company/api-integrations', { token })).json.data).toEqual([key]);
		expect((await call(restored, 'GET', '/v1/company/api-integrations', { token: key.value })).status).toBe(200);
		expect(await login(restored, BOB)).toMatch(/^[0-9a-f]{64}$/);
		const next = (await call(restored, 'POST', '/v1/company/api-integrations', { token })).json.data;
		expect(next.id).toBeGreaterThan(key.id);
	});
});
