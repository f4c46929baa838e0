/**
 * The session and transport issue, the items that need the sandbox's fault modes (a session that
 * ends after N requests, faults after the work was done, scripted logins, hanging requests, one
 * session per user), through n8n's engine over real HTTP. Numbers as in the issue.
 */
import { CANDIDATE_PATH, LOGIN_PATH, candidateRows, createParameters, isSuccess, pairedIndexes, requestsTo } from '../helpers/bulk';
import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, tokenCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox({}, { resetEachTest: true });

afterEach(() => sandbox().setFaults({}));

const INTEGRATIONS_PATH = '/v1/company/api-integrations';

describe('1. a new session that ends right after the login is renewed', () => {
	it('every session serves one request: concurrency 1, 5 items, all created, one login per item', async () => {
		sandbox().setFaults({ sessionRequestLimit: 1 });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: createParameters({ concurrency: 1 }), items: candidateRows(5, 'fresh') });
		expect(result.error).toBeUndefined();
		expect(result.items.filter(isSuccess)).toHaveLength(5);
		// The first login, then one per ended session that a request met.
		expect(sandbox().counts.logins).toBe(5);
		expect(sandbox().candidates(1).filter((candidate) => String(candidate.source).startsWith('fresh-'))).toHaveLength(5);
	});
});

describe('3 and 4. login faults: a reset login is retried; a rate-limited login waits for Retry-After', () => {
	it('drop, then 429 with Retry-After: 1, then a good login', async () => {
		sandbox().setFaults({ loginScript: [{ drop: true }, { status: 429, retryAfter: '1' }] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: createParameters({ retryDelayMs: 1 }), items: candidateRows(3, 'login-faults') });
		expect(result.error).toBeUndefined();
		const logins = requestsTo(sandbox().requests, LOGIN_PATH);
		expect(logins).toHaveLength(3);
		expect(logins[2].at - logins[1].at).toBeGreaterThanOrEqual(950);
		expect(sandbox().counts.logins).toBe(1);
	});

	it('a wall clock set forward two minutes while a rate-limited login waits: the login is tried again, as it would be without the step', async () => {
		sandbox().setFaults({ loginScript: [{ status: 429, retryAfter: '1' }, { status: 429, retryAfter: '1' }, { status: 429, retryAfter: '1' }] });
		const realNow = Date.now.bind(Date);
		// An NTP step (or a clock set by hand) once the first login was refused: the wall clock reads two minutes later.
		const step = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + (requestsTo(sandbox().requests, LOGIN_PATH).length > 0 ? 120_000 : 0));
		try {
			const harness = new Harness(emailCredential(sandbox(), ALICE));
			const result = await harness.run({ parameters: createParameters({ retryDelayMs: 1, maxRetries: 1 }), items: candidateRows(1, 'login-step') });
			expect(result.error).toBeUndefined();
			expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(4);
			expect(sandbox().counts.logins).toBe(1);
		} finally {
			step.mockRestore();
		}
	}, 30_000);

	it('a login answered 503 every time: advice to try later, not "Check the Base URL"', async () => {
		sandbox().setFaults({ loginScript: [{ status: 503 }, { status: 503 }, { status: 503 }] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: createParameters({ retryDelayMs: 1, maxRetries: 2 }), items: candidateRows(1, 'login-503') });
		expect(result.error?.message).toMatch(/^Login failed: the service failed \(HTTP 503\).*Try again later/);
		expect(result.error?.message).not.toMatch(/Base URL/);
	});
});

describe('8. a 503 after the service processed a creation does not duplicate it', () => {
	it('after-work 503s and drops: each fails saying the record may exist, and every stored candidate is stored once', async () => {
		sandbox().setFaults({ afterWorkErrorRate: 0.2, afterWorkDropRate: 0.1, seed: 11, paths: [CANDIDATE_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const rows = candidateRows(60, 'after-work');
		const result = await harness.run({ parameters: createParameters({ retryDelayMs: 1, concurrency: 5 }), items: rows, onError: 'continueRegularOutput' });
		const failed = result.items.filter((item) => !isSuccess(item));
		expect(failed.length).toBe(sandbox().counts.faults.afterWorkError + sandbox().counts.faults.afterWorkDrop);
		expect(failed.length).toBeGreaterThan(0);
		for (const item of failed) expect(String(item.json.error)).toMatch(/may or may not have stored it/);
		const stored = sandbox().candidates(1).filter((candidate) => String(candidate.email).startsWith('after-work-'));
		// Every row was processed exactly once: the failed ones too (their answer was lost), none twice.
		expect(stored).toHaveLength(rows.length);
		expect(new Set(stored.map((candidate) => candidate.email)).size).toBe(rows.length);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH, 'POST')).toHaveLength(rows.length);
	});

	it('a pre-work 503 with Retry-After is repeated, and the row is stored once', async () => {
		sandbox().setFaults({ errorRate: 0.5, retryAfterOn503: 0, seed: 4, paths: [CANDIDATE_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const rows = candidateRows(30, 'pre-work');
		const result = await harness.run({ parameters: createParameters({ retryDelayMs: 1, maxRetries: 10 }), items: rows, onError: 'continueRegularOutput' });
		const ok = result.items.filter(isSuccess);
		expect(sandbox().counts.faults.error503).toBeGreaterThan(0);
		// 503 with Retry-After is repeated until it works; a 500 is not (it fails alone).
		for (const item of result.items.filter((entry) => !isSuccess(entry))) expect(String(item.json.error)).toMatch(/HTTP 500/);
		const stored = sandbox().candidates(1).filter((candidate) => String(candidate.email).startsWith('pre-work-'));
		expect(stored).toHaveLength(ok.length);
	});
});

describe('10. API Key → Delete whose answer was lost', () => {
	it('the repeated DELETE gets 404, which counts as deleted, and the output says so', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const created = await harness.run({ parameters: { resource: 'apiKey', operation: 'create' } });
		const id = created.items[0].json.id as number;
		sandbox().setFaults({ afterWorkDropRate: 1, paths: [`${INTEGRATIONS_PATH}/`] });
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: String(id), options: { retryDelayMs: 1 } } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ deleted: true, id });
		expect(String(result.items[0].json.note)).toMatch(/answer was lost/);
		expect(requestsTo(sandbox().requests, `${INTEGRATIONS_PATH}/${id}`, 'DELETE')).toHaveLength(2);
	});

	it('a first DELETE answered 404 is still "not found"', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: '424242' } });
		expect(result.error?.message).toBe('No API key with this ID was found (HTTP 404)');
	});
});

describe('18. a hung service: the Request Timeout option', () => {
	it('a creation that hangs fails after the timeout, is not repeated, and says it may exist', async () => {
		sandbox().setFaults({ hangMs: 5000, hangPaths: [CANDIDATE_PATH], hangAfterWork: true });
		const harness = new Harness(tokenCredential(sandbox()));
		const started = Date.now();
		const result = await harness.run({ parameters: createParameters({ timeout: 1000, retryDelayMs: 1 }), items: candidateRows(1, 'hang') });
		expect(Date.now() - started).toBeLessThan(4000);
		expect(result.error?.message).toMatch(/did not answer in time.*may or may not have stored it/);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH)).toHaveLength(1);
	});

	it('a read that hangs once is repeated', async () => {
		sandbox().setFaults({ hangMs: 5000, hangPaths: [INTEGRATIONS_PATH], hangRate: 0.5, seed: 2 });
		const harness = new Harness(tokenCredential(sandbox()));
		const result = await harness.run({
			parameters: { resource: 'apiKey', operation: 'getAll', options: { timeout: 1000, retryDelayMs: 1, maxRetries: 6 } },
			items: [{}, {}, {}, {}],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox().counts.faults.hang).toBeGreaterThan(0);
	});

	it('an update that hangs is repeated (a PUT is safe to repeat)', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		const created = await harness.run({ parameters: createParameters({}), items: candidateRows(4, 'hang-update') });
		const slugs = created.items.map((item) => ({ slug: item.json.slug }));
		sandbox().setFaults({ hangMs: 5000, hangPaths: [CANDIDATE_PATH], hangRate: 0.5, seed: 2 });
		const result = await harness.run({
			parameters: {
				resource: 'candidate',
				operation: 'update',
				candidateSlug: '={{ $json.slug }}',
				updateFields: { city: 'Berlin' },
				options: { timeout: 1000, retryDelayMs: 1, maxRetries: 6 },
			},
			items: slugs,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.slug)).toEqual(slugs.map(({ slug }) => slug));
		expect(sandbox().counts.faults.hang).toBeGreaterThan(0);
	});
});

describe('19. executions sharing one credential on a service that allows one session per user', () => {
	it.each([
		{ executions: 5, storeDelayMs: 0, why: 'from an empty credential' },
		{ executions: 8, storeDelayMs: 200, why: 'whose logins reach the stored credential 200 ms late (a queue worker writes it to the database)' },
	])('$executions overlapping executions $why: none fails; logins at most two per execution (each login ends the others\' sessions; they take up the newest stored one)', async ({ executions, storeDelayMs }) => {
		const { startSandbox } = await import('../sandbox/server');
		const box = await startSandbox({ singleSessionPerUser: true, faults: { latencyMs: 5, paths: [CANDIDATE_PATH] } });
		try {
			const harness = new Harness(emailCredential(box, ALICE));
			harness.credentials.storeDelayMs = storeDelayMs;
			const runs = await Promise.all(
				Array.from({ length: executions }, async (_, run) => await harness.run({ parameters: createParameters({ concurrency: 4 }), items: candidateRows(40, `single-${storeDelayMs}-${run}`) })),
			);
			for (const result of runs) {
				expect(result.error).toBeUndefined();
				expect(result.items.filter(isSuccess)).toHaveLength(40);
			}
			expect(box.counts.logins).toBeLessThanOrEqual(2 * executions);
		} finally {
			await box.close();
		}
	});
});

/**
 * Stress: 2,000 items at concurrency 1, 5 and 32, sessions that end after 1 to 50 requests, and
 * random 500/503/429/drops before any work. What must hold: every item accounted for with its
 * pairing; stored candidates equal the successes; nothing duplicated; logins equal one plus the
 * ended sessions the node met (a 401 names the session it was sent with).
 */
describe('stress: 2,000 items, short sessions, random faults', () => {
	it.each([1, 5, 32])('concurrency %d', async (concurrency) => {
		sandbox().setFaults({
			sessionRequestLimit: { min: 1, max: 50 },
			errorRate: 0.05,
			retryAfterOn503: 0,
			rateLimitRate: 0.03,
			retryAfterSeconds: 0,
			dropRate: 0.02,
			seed: 100 + concurrency,
			paths: [CANDIDATE_PATH],
		});
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const rows = candidateRows(2000, `stress-${concurrency}`);
		const result = await harness.run({
			parameters: createParameters({ concurrency, retryDelayMs: 1, maxRetries: 5 }),
			items: rows,
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(rows.length);
		expect(pairedIndexes(result.items)).toEqual(rows.map((_, index) => index));
		const successes = result.items.filter(isSuccess).map((item) => item.json.email);
		const stored = sandbox().candidates(1).filter((candidate) => String(candidate.email).startsWith(`stress-${concurrency}-`));
		expect(stored.map((candidate) => candidate.email).sort()).toEqual([...successes].sort());
		expect(new Set(stored.map((candidate) => candidate.email)).size).toBe(stored.length);
		for (const item of result.items.filter((entry) => !isSuccess(entry))) {
			expect(String(item.json.error)).toMatch(/HTTP 500|broke before it answered.*may or may not/);
		}
		// A dead token no longer names its session: map tokens to sessions from the requests it served.
		const sessionOf = new Map<string, number>();
		for (const request of sandbox().requests) {
			if (request.session !== undefined) sessionOf.set(String(request.headers.authorization), request.session);
		}
		const endedSessionsMet = new Set(
			sandbox()
				.requests.filter((request) => request.status === 401)
				.map((request) => sessionOf.get(String(request.headers.authorization))),
		);
		expect(endedSessionsMet.has(undefined)).toBe(false);
		expect(sandbox().counts.logins).toBe(1 + endedSessionsMet.size);
	}, 240000);
});

/**
 * Sessions that end after 5 to 20 requests while requests arrive out of order (latency jitter of
 * up to 40 ms) or the service answers slower than a second: a request sent after a refused one may
 * reach the service first, before the session ended, and be served. Each 401 is a session that
 * ended, never the request's own answer: every item is created. Before: 2 of 6 jittered runs
 * failed rows "Not authorized even after logging in again" (the requests sent before the refusal
 * came back were counted as proof that the session works); on the slow service, 10 to 20 of 120
 * rows in each of 3 runs (a helper's review, which also found that the first version of the fix
 * looked for proof for only a second).
 */
describe('a session that ends while requests arrive out of order', () => {
	it.each([
		['400 items at concurrency 32, latency jitter 40 ms', 400, 32, { latencyJitterMs: 40, seed: 5 }],
		['120 items at concurrency 16, answers in 1.2 s', 120, 16, { latencyMs: 1200, latencyJitterMs: 40, seed: 2 }],
	])('%s: all created, no 401 taken for a row\'s own answer', async (name, count, concurrency, latency) => {
		sandbox().setFaults({ sessionRequestLimit: { min: 5, max: 20 }, ...latency, paths: [CANDIDATE_PATH] });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = `ends-${count}`;
		const rows = candidateRows(count, prefix);
		const result = await harness.run({ parameters: createParameters({ concurrency }), items: rows, onError: 'continueRegularOutput' });
		expect(result.items.filter((item) => !isSuccess(item)).map((item) => item.json.error)).toEqual([]);
		expect(pairedIndexes(result.items)).toEqual(rows.map((_, index) => index));
		const stored = sandbox().candidates(1).filter((candidate) => String(candidate.email).startsWith(`${prefix}-`));
		expect(stored).toHaveLength(rows.length);
	}, 240000);
});
