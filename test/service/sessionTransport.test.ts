/**
 * The session and transport issue, one test per item (numbers as in the issue), through n8n's
 * engine against the sandbox over real HTTP. The items that need the sandbox's newer fault
 * modes (a 401 that ends a session, faults after the work was done, scripted login faults) are
 * in sessionFaults.test.ts.
 */
import { sleep } from 'n8n-workflow';

import { CANDIDATE_PATH, LOGIN_PATH, candidateRows, createParameters, requestsTo } from '../helpers/bulk';
import { Harness } from '../helpers/harness';
import { ALICE, keyCredential, emailCredential, tokenCredential, useSandbox } from '../helpers/sandbox';
import { retryAfterMs } from '../../nodes/Recruiting/transport';
import { sealSessionToken } from '../../nodes/Recruiting/transport/token';

const sandbox = useSandbox({}, { resetEachTest: true });

afterEach(() => sandbox().setFaults({}));

const listKeys = { resource: 'apiKey', operation: 'getAll', options: { retryDelayMs: 1 } };
const logout = { resource: 'session', operation: 'logout' };

describe('2. an unreachable host is "Could not reach" in every mode', () => {
	it.each([
		['emailPassword', { authentication: 'emailPassword', email: ALICE.email, password: ALICE.password }],
		['accessToken', { authentication: 'accessToken', accessToken: 'some-token-value' }],
		['apiKey', { authentication: 'apiKey', apiKey: 'some-key-value' }],
	])('%s', async (_mode, credential) => {
		const harness = new Harness({ baseUrl: 'http://127.0.0.1:9', ...credential });
		const result = await harness.run({ parameters: { ...createParameters({ retryDelayMs: 1 }) }, items: candidateRows(1, 'unreachable') });
		expect(result.error?.message).toBe('Could not reach the recruiting service at http://127.0.0.1:9. Check the Base URL and that the service is running.');
		expect(result.error?.description).toBe('Network error: ECONNREFUSED');
	});
});

describe('5. a login that keeps failing is final for the execution', () => {
	it('50 items, logins answered 500/503: 1 + Max Retries login attempts, every item fails with that error', async () => {
		sandbox().setFaults({ errorRate: 1, seed: 5, paths: [LOGIN_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({
			parameters: createParameters({ concurrency: 10, maxRetries: 2, retryDelayMs: 1 }),
			items: candidateRows(50, 'login-fails'),
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(50);
		for (const item of result.items) expect(String(item.json.error)).toMatch(/^Login failed: the service failed \(HTTP 50[03]\)/);
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(3);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH)).toHaveLength(0);
	});
});

describe('6. the rate cap holds in every one-second window, the login included', () => {
	it('a slow login (300 ms) followed by 12 creations at 4 requests per second', async () => {
		sandbox().setFaults({ latencyMs: 300, paths: [LOGIN_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: createParameters({ concurrency: 10, requestsPerSecond: 4 }), items: candidateRows(12, 'cap') });
		expect(result.error).toBeUndefined();
		const starts = sandbox().requests.map((request) => request.at).sort((a, b) => a - b);
		expect(starts).toHaveLength(13);
		// Arrival times on the sandbox: 5 arrivals never within one second (the cap: at most 4). Arrivals
		// lag the client's start by a scheduling delay on a loaded machine, so 75 ms of jitter are allowed;
		// the burst this guards against put 11 requests into one second.
		for (let index = 0; index + 4 < starts.length; index++) expect(starts[index + 4] - starts[index]).toBeGreaterThanOrEqual(925);
	});
});

describe('7. cancelling a run with a rate cap ends the pacing waits promptly', () => {
	it('0.5 requests per second: cancelled after the second request, the run ends within a second', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		let cancelledAt = 0;
		const result = await harness.run({
			parameters: createParameters({ concurrency: 5, requestsPerSecond: 0.5 }),
			items: candidateRows(20, 'cancel-pacing'),
			onStart: (execution) => {
				void (async () => {
					while (sandbox().requests.length < 2) await sleep(5);
					cancelledAt = Date.now();
					execution.cancel();
				})();
			},
		});
		const ended = Date.now();
		expect(cancelledAt).toBeGreaterThan(0);
		expect(ended - cancelledAt).toBeLessThan(1000);
		expect(result.items.length).toBeLessThan(20);
		expect(sandbox().requests.length).toBe(2);
	});
});

describe('9. pasted credential values are trimmed; an invalid header name is refused naming the field', () => {
	it('a Base URL and an access token with a trailing newline and spaces work', async () => {
		const token = sandbox().issueToken(ALICE.email);
		const harness = new Harness({ baseUrl: `${sandbox().url}/ \n`, authentication: 'accessToken', accessToken: ` ${token}\n` });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
	});

	it('an API key with a trailing newline works', async () => {
		const credential = keyCredential(sandbox(), await createKey());
		const harness = new Harness({ ...credential, apiKey: `${String(credential.apiKey)}\r\n` });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error).toBeUndefined();
	});

	it.each(['X API Key', 'X-API-Key:'])('header name %j: refused before sending, naming API Key Header', async (header) => {
		const harness = new Harness({ ...keyCredential(sandbox(), 'some-key-value'), apiKeyHeader: header });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/API Key Header .* is not a valid header name/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('an access token with a line break inside is refused naming the field, nothing sent', async () => {
		const harness = new Harness({ baseUrl: sandbox().url, authentication: 'accessToken', accessToken: 'abc\ndef' });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/Access Token .* contains a line break/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('an empty access token fails before sending, naming the field', async () => {
		const harness = new Harness({ baseUrl: sandbox().url, authentication: 'accessToken', accessToken: '  ' });
		const result = await harness.run({ parameters: listKeys });
		expect(result.error?.message).toMatch(/has no Access Token/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

async function createKey(): Promise<string> {
	const harness = new Harness(emailCredential(sandbox(), ALICE));
	const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'create' } });
	return String(result.items[0].json.value);
}

describe('11. Stop Workflow with concurrency above 1', () => {
	it('after the first failure no new request starts; the error lists every candidate created, by item and slug', async () => {
		sandbox().setFaults({ latencyMs: 40, paths: [CANDIDATE_PATH] });
		const harness = new Harness(tokenCredential(sandbox()));
		const rows = candidateRows(40, 'stop');
		// Item 6 cannot be sent (no e-mail, no phone): it fails while items 0-9 are under way.
		rows[6] = { email: '', phone: '', source: 'stop-6' };
		const result = await harness.run({ parameters: createParameters({ concurrency: 5 }), items: rows });
		expect(result.error?.message).toMatch(/"Email" or "Phone" is required/);
		const stored = sandbox().candidates(1).filter((candidate) => String(candidate.source).startsWith('stop-'));
		// Only requests that had started before the failure were sent: far fewer than the 39 valid rows.
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH).length).toBeLessThanOrEqual(10);
		expect(stored.length).toBeGreaterThan(0);
		for (const candidate of stored) {
			const item = Number(String(candidate.source).replace('stop-', ''));
			expect(result.error?.description).toContain(`item ${item}: ${candidate.slug}`);
		}
		expect((result.error?.description?.match(/item \d+: /g) ?? []).length).toBe(stored.length);
	});
});

describe('12. dropdowns read the reference lists without logging in', () => {
	const loaders = ['getJobTypes', 'getBusinessAreas', 'getLanguages', 'getUniversityDegrees'];

	it('four dropdowns opened together with no stored session: no login at all', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const lists = await Promise.all(loaders.map(async (method) => (await harness.loadOptions(method)) as unknown[]));
		for (const list of lists) expect(list.length).toBeGreaterThan(0);
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(0);
		expect(harness.credentials.events.updates).toBe(0);
	});

	it('a wrong password does not break them', async () => {
		const harness = new Harness({ ...emailCredential(sandbox(), ALICE), password: 'wrong-password' });
		for (const method of loaders) expect(((await harness.loadOptions(method)) as unknown[]).length).toBeGreaterThan(0);
	});

	it('with a stored session, it is not sent either ("Reference-list endpoints are called without any credential")', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await harness.run({ parameters: listKeys });
		expect(harness.credentials.session()).not.toBe('');
		sandbox().clearRequests();
		await harness.loadOptions('getJobTypes');
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0].headers.authorization).toBeUndefined();
	});
});

describe('13. Log Out never logs in', () => {
	it('a repeated Log Out (the session already ended) says so, and logs in no one', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await harness.run({ parameters: listKeys });
		const first = await harness.run({ parameters: logout });
		expect(first.items[0].json.loggedOut).toBe(true);
		const second = await harness.run({ parameters: logout });
		expect(second.error).toBeUndefined();
		expect(second.items[0].json).toEqual({
			loggedOut: false,
			message: 'The session had already ended (the service answered 401), so there was nothing to log out',
		});
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(1);
	});

	it('after the credential was switched to another account, nothing is sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await harness.run({ parameters: listKeys });
		harness.setCredential({ ...harness.credentials.stored_(), email: 'someone-else@acme.test' });
		sandbox().clearRequests();
		const result = await harness.run({ parameters: logout });
		expect(result.items[0].json.loggedOut).toBe(false);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('14. one redaction for every message and description', () => {
	it('an API key value typed as the ID of API Key → Delete is not echoed', async () => {
		const key = await createKey();
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: `${key}x` }, onError: 'continueRegularOutput' });
		expect(String(result.items[0].json.error)).toMatch(/No API key with this ID was found/);
		expect(JSON.stringify(result.items[0].json)).not.toContain(key);
	});
});

describe('16. Retry-After: only the forms RFC 9110 defines', () => {
	it.each([
		['0', 0],
		['7', 7000],
		['1, 2', undefined],
		['0x10', undefined],
		['1e3', undefined],
		['-1', undefined],
		['1.5', undefined],
		['soon', undefined],
		['', undefined],
	])('%j → %j', (value, expected) => {
		expect(retryAfterMs(value)).toBe(expected);
	});

	it('HTTP-dates in all three forms', () => {
		const now = Date.parse('Sun, 06 Nov 1994 08:49:30 GMT');
		expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(7000);
		expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7000);
		expect(retryAfterMs('Sun Nov  6 08:49:37 1994', now)).toBe(7000);
		expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 CET', now)).toBeUndefined();
	});
});

describe('19. several executions share one credential: a 401 re-reads the stored credential first', () => {
	it('an execution whose session ended picks up the token another execution stored, without logging in', async () => {
		sandbox().setFaults({ latencyMs: 100, paths: [CANDIDATE_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await harness.run({ parameters: listKeys });
		const first = harness.credentials.session();
		const slow = harness.run({ parameters: createParameters({ concurrency: 1 }), items: candidateRows(8, 'shared') });
		while (requestsTo(sandbox().requests, CANDIDATE_PATH).length < 2) await sleep(5);
		// Meanwhile another execution (another worker) logged in and stored its session, and the first session ended.
		const stored = harness.credentials.stored_() ?? {};
		harness.setCredential({ ...stored, sessionToken: sealSessionToken(stored, sandbox().issueToken(ALICE.email)) });
		const ended = await new Harness(tokenCredential(sandbox(), first)).run({ parameters: logout });
		expect(ended.items[0].json.loggedOut).toBe(true);
		const result = await slow;
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(8);
		// Only the first login: the slow execution took the stored session instead of logging in.
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(1);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH).filter((request) => request.status === 401)).toHaveLength(1);
	});

	it('the re-read token is only used when it was obtained with these credential values', () => {
		const credential = emailCredential(sandbox(), ALICE);
		expect(sealSessionToken(credential, 'x')).not.toBe(sealSessionToken({ ...credential, email: 'b@b.test' }, 'x'));
	});
});
