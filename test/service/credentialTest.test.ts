/**
 * The credential's connection test, run the way n8n's server runs a declarative test
 * (packages/cli/src/services/credentials-tester.service.ts): the test request becomes the
 * routing of a temporary node, n8n-core's RoutingNode sends it through
 * httpRequestWithAuthentication (so preAuthentication and authenticate apply), a thrown HTTP
 * error is matched against the `responseCode` rules, any other error fails, and anything else
 * passes. Against the sandbox over real HTTP. The same test runs in a real n8n in
 * test/e2e/e2e.test.mjs.
 */
import type { ICredentialTestRequest } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { testCredential } from '../helpers/credentialTest';
import { emailCredential, keyCredential, tokenCredential, useSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../sandbox/server';
import { FAST, Harness, createCandidate, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

/** The sandbox's stored candidates and API keys: a credential test must change none of them. */
/** Candidates, API keys and the record ids of every company (sessions left out: a login opens one). */
function stored() {
	const nextIds: Partial<ReturnType<Sandbox['state']>['nextIds']> = { ...sandbox().state().nextIds };
	delete nextIds.session;
	return JSON.stringify(sandbox().state().companies.map((company) => [company.candidates, company.apiKeys, nextIds]));
}

const credentialType = new RecruitingApi();

describe('credential test (as n8n runs it)', () => {
	let key: string;
	beforeAll(async () => {
		const creator = new Harness(emailCredential(sandbox()));
		key = String(outputs(await runOk(creator, { resource: 'apiKey', operation: 'create', options: FAST }))[0].value);
		await createCandidate(creator);
	});

	it('API Key: a valid key passes; the request is an update without a candidate, which the service refuses (422) and which changes nothing', async () => {
		const before = stored();
		sandbox().clearRequests();
		expect(await testCredential(keyCredential(sandbox(), key))).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sandbox().requests.map((request) => [request.method, request.path, request.status])).toEqual([['PUT', '/gin/v1/company/candidate', 422]]);
		expect(stored()).toBe(before);
	});

	it('API Key: a valid key in another header (X-API-Key) passes', async () => {
		expect((await testCredential(keyCredential(sandbox(), key, 'X-API-Key'))).status).toBe('OK');
	});

	it('API Key: any other key fails with a clear message (401)', async () => {
		sandbox().clearRequests();
		const result = await testCredential(keyCredential(sandbox(), 'not-a-key-of-this-service'));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service rejected the credential \(HTTP 401\)\. API key: check the key/);
		// n8n repeats a request once after a 401 for credentials with preAuthentication
		expect(sandbox().requests.map((request) => [request.method, request.status])).toEqual([['PUT', 401], ['PUT', 401]]);
	});

	it('on n8n 1.x, which lets every status through, a wrong key still fails (the envelope rules) and a valid one passes', async () => {
		const asOn1x: ICredentialTestRequest = { ...credentialType.test, request: { ...credentialType.test.request, ignoreHttpStatusErrors: true } };
		const bad = await testCredential(keyCredential(sandbox(), 'not-a-key-of-this-service'), asOn1x);
		expect(bad).toEqual({ status: 'Error', message: expect.stringMatching(/^The service rejected the credential \(HTTP 401\)/) });
		expect((await testCredential(keyCredential(sandbox(), key), asOn1x)).status).toBe('OK');
		const wrongUrl = await testCredential({ ...keyCredential(sandbox(), key), baseUrl: `${sandbox().url}/not-the-api` }, asOn1x);
		expect(wrongUrl.message).toMatch(/^The service answered 404/);
	});

	it('API Key: a Base URL with a path fails with the 404 message', async () => {
		const result = await testCredential({ ...keyCredential(sandbox(), key), baseUrl: `${sandbox().url}/not-the-api` });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^The service answered 404: the Base URL/) });
	});

	it('Access Token: a valid token passes (lists the API keys), a rejected one fails with the 401 message', async () => {
		sandbox().clearRequests();
		expect((await testCredential(tokenCredential(sandbox()))).status).toBe('OK');
		expect(sandbox().requests.map((request) => [request.method, request.path])).toEqual([['GET', '/v1/company/api-integrations']]);
		const bad = await testCredential(tokenCredential(sandbox(), 'no-such-token'));
		expect(bad.status).toBe('Error');
		expect(bad.message).toMatch(/^The service rejected the credential \(HTTP 401\)/);
	});

	it('Email and Password: logs in, then lists the API keys; nothing is created or changed', async () => {
		const before = stored();
		sandbox().clearRequests();
		expect((await testCredential(emailCredential(sandbox()))).status).toBe('OK');
		expect(sandbox().requests.map((request) => [request.method, request.path])).toEqual([
			['POST', '/v1/login'],
			['GET', '/v1/company/api-integrations'],
		]);
		expect(stored()).toBe(before);
	});
});
