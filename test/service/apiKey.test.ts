/**
 * API Key operations against the sandbox (list, create, delete; per company), then the created
 * key used in API Key credential mode, in the Authorization header and in X-API-Key, for every
 * candidate operation, checked in the sandbox's stored state.
 */
import type { IDataObject } from 'n8n-workflow';

import { ALICE, BOB, emailCredential, keyCredential, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

const keys = (operation: string, extra: IDataObject = {}) => ({ resource: 'apiKey', operation, options: FAST, ...extra });

let alice: Harness;
let bob: Harness;
beforeAll(() => {
	alice = new Harness(emailCredential(sandbox(), ALICE));
	bob = new Harness(emailCredential(sandbox(), BOB));
});

const REFUSED =
	'The service refused the credentials (HTTP 401): Not authorized. The API key may have been deleted, this operation may need a session (Email and Password or Access Token authentication), or the service may expect the key in another header (API Key Header).';

const storedKeys = (companyId: number) =>
	sandbox()
		.state()
		.companies.find((company) => company.id === companyId)
		?.apiKeys.map((key) => ({ id: key.id, value: key.value })) ?? [];

describe('apiKey getAll / create / delete', () => {
	it('a company starts without keys; create adds one (id, value) that getAll lists and the sandbox stores', async () => {
		expect((await runOk(alice, keys('getAll'))).items).toEqual([]);
		const created = outputs(await runOk(alice, keys('create')));
		expect(created).toEqual([{ id: expect.any(Number), value: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
		expect(storedKeys(1)).toEqual(created);
		const listed = await runOk(alice, keys('getAll'));
		expect(outputs(listed)).toEqual(created);
		expect(storedKeys(2)).toEqual([]);
	});

	it('create runs once per input item; delete removes exactly the given key and answers {deleted, id}', async () => {
		const before = storedKeys(1);
		const made = outputs(await runOk(alice, keys('create'), [{}, {}]));
		expect(made).toHaveLength(2);
		expect(new Set(made.map((key) => key.value)).size).toBe(2);
		expect(storedKeys(1)).toEqual([...before, ...made]);

		const removed = await runOk(alice, keys('delete', { apiKeyId: '={{ $json.id }}' }), [{ id: made[0].id }]);
		expect(outputs(removed)).toEqual([{ deleted: true, id: made[0].id }]);
		expect(removed.items[0].pairedItem).toEqual({ item: 0 });
		expect(storedKeys(1)).toEqual([...before, made[1]]);
		expect(sandbox().requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/company/api-integrations/${String(made[0].id)}`, status: 200 });
	});

	it('deleting an unknown key fails with a clear error; the keys stay', async () => {
		const before = storedKeys(1);
		const result = await alice.run({ parameters: keys('delete', { apiKeyId: '99999' }) });
		expect(result.error?.message).toBe("No API key with this ID was found (HTTP 404)");
		expect(storedKeys(1)).toEqual(before);
	});

	it('bob cannot delete alice\'s key (404 from the service): error item, key intact', async () => {
		const [key] = storedKeys(1);
		const result = await bob.run({ parameters: keys('delete', { apiKeyId: String(key.id) }), onError: 'continueRegularOutput' });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toBe("No API key with this ID was found (HTTP 404)");
		expect(storedKeys(1)).toContainEqual(key);
		expect((await runOk(bob, keys('getAll'))).items).toEqual([]);
	});
});

describe('API Key credential mode with a key created by the node', () => {
	let key: string;
	beforeAll(async () => {
		const created = outputs(await runOk(alice, keys('create')));
		key = String(created[0].value);
	});

	it.each([
		['Authorization', (value: string) => ({ authorization: `Bearer ${value}` })],
		['X-API-Key', (value: string) => ({ 'x-api-key': value })],
	])('header %s: every candidate operation lands in the key\'s company', async (header, expectedHeaders) => {
		const harness = new Harness(keyCredential(sandbox(), key, header));
		sandbox().clearRequests();
		const loginsBefore = sandbox().counts.logins;
		const email = `key.${header.toLowerCase()}@example.test`;
		const created = await runOk(harness, { resource: 'candidate', operation: 'create', email, additionalFields: { source: `api key via ${header}` } });
		const slug = String(outputs(created)[0].slug);
		await runOk(harness, { resource: 'candidate', operation: 'update', candidateSlug: slug, updateFields: { firstName: 'Kim', city: 'Köln' } });
		await runOk(harness, { resource: 'candidateJob', operation: 'add', candidateSlug: slug, companyName: 'Keyed GmbH', startDate: '2020-02-01', additionalFields: { jobTypeId: 'Werkstudent' } });
		await runOk(harness, { resource: 'candidateUniversity', operation: 'add', candidateSlug: slug, startDate: '2015-10-01', additionalFields: { universityDegreeId: 'Bachelor of Science' } });
		await runOk(harness, { resource: 'candidateItSkill', operation: 'add', candidateSlug: slug, skillName: 'SQL', skillLevel: 2 });
		await runOk(harness, { resource: 'candidateLanguage', operation: 'add', candidateSlug: slug, languageId: 'Französisch', languageLevelId: 2 });
		await runOk(harness, { resource: 'candidateAdditionalInfo', operation: 'add', candidateSlug: slug, title: 'Keyed note' });
		const listed = await runOk(harness, keys('getAll'));
		expect(outputs(listed).map((entry) => entry.value)).toContain(key);

		const stored = sandbox().candidates(1).find((candidate) => candidate.slug === slug);
		expect(stored).toMatchObject({ email, source: `api key via ${header}`, first_name: 'Kim', city: 'Köln' });
		expect(stored?.records.jobs).toMatchObject([{ company_name: 'Keyed GmbH', start_date: '01-02-2020', job_type_id: 2 }]);
		expect(stored?.records.universities).toMatchObject([{ start_date: '01-10-2015', university_degrees_id: 2 }]);
		expect(stored?.records.itSkills).toMatchObject([{ skill_name: 'SQL', skill_level_id: 2 }]);
		expect(stored?.records.languages).toMatchObject([{ language_id: 35, language_level_id: 2 }]);
		expect(stored?.records.additionalInfo).toMatchObject([{ title: 'Keyed note' }]);
		expect(sandbox().candidates(2).some((candidate) => candidate.slug === slug)).toBe(false);

		// every request to the service carried the key in the chosen header, and only there
		const authenticated = sandbox().requests.filter((request) => !request.path.startsWith('/v1/general/'));
		expect(authenticated.length).toBeGreaterThanOrEqual(8);
		for (const request of authenticated) {
			expect(request.headers).toMatchObject(expectedHeaders(key));
			if (header !== 'Authorization') expect(request.headers.authorization).toBeUndefined();
			expect(request.status).toBeLessThan(300);
		}
		expect(sandbox().counts.logins).toBe(loginsBefore);
		expect(harness.credentials.events.logins).toBe(0);
	});

	it('creating a key needs a session: in API Key mode the service refuses (401) and the node says so', async () => {
		const harness = new Harness(keyCredential(sandbox(), key));
		const before = storedKeys(1).length;
		const result = await harness.run({ parameters: keys('create', { options: { maxRetries: 0 } }) });
		expect(result.error?.message).toBe(REFUSED);
		expect(storedKeys(1)).toHaveLength(before);
	});

	it('after API Key → Delete the key no longer works', async () => {
		const created = outputs(await runOk(alice, keys('create')))[0];
		const harness = new Harness(keyCredential(sandbox(), String(created.value), 'X-API-Key'));
		await runOk(harness, { resource: 'candidate', operation: 'create', email: 'before.delete@example.test' });
		await runOk(alice, keys('delete', { apiKeyId: String(created.id) }));
		const result = await harness.run({ parameters: { resource: 'candidate', operation: 'create', email: 'after.delete@example.test', options: { maxRetries: 0 } } });
		expect(result.error?.message).toBe(REFUSED);
		expect(sandbox().candidates(1).some((candidate) => candidate.email === 'after.delete@example.test')).toBe(false);
	});

	it('an unknown key fails with an error that never shows the key', async () => {
		const unknown = ['00000000', '0000', '4000', '8000', '00000000dead'].join('-');
		const harness = new Harness(keyCredential(sandbox(), unknown));
		const result = await harness.run({ parameters: { resource: 'candidate', operation: 'create', email: 'nope@example.test', options: { maxRetries: 0 } } });
		expect(result.error?.message).toBe(REFUSED);
		expect(JSON.stringify({ message: result.error?.message, description: result.error?.description })).not.toContain(unknown);
	});
});
