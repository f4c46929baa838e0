/**
 * One login under load: an e-mail/password credential without a session token, many items in
 * flight, and session expiry in the middle of the run, against the sandbox over real HTTP.
 */
import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import {
	CANDIDATE_PATH,
	LOGIN_PATH,
	candidateRows,
	createParameters,
	isSuccess,
	pairedIndexes,
	requestsTo,
	runNode,
} from '../helpers/bulk';

const sandbox = useSandbox({}, { resetEachTest: true });

describe('one login under load', () => {
	it('200 items at concurrency 10 with no session token: exactly one login, every item created', async () => {
		sandbox().setFaults({ latencyMs: 2, latencyJitterMs: 5, seed: 1 });
		const harness = new Harness(emailCredential(sandbox()));
		const items = candidateRows(200, 'one-login');
		const result = await runNode(harness, createParameters({ concurrency: 10 }), items);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(200);
		expect(result.items.every(isSuccess)).toBe(true);
		expect(sandbox().counts.logins).toBe(1);
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(1);
		expect(harness.credentials.events.logins).toBe(1);
		expect(sandbox().counts.candidatesCreated).toBe(200);
		// No candidate request went out without a token (nothing answered 401).
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH).every((request) => request.status === 201)).toBe(true);
		// The new session token is stored with the credential, as n8n does, so the next execution reuses it.
		expect(harness.credentials.session()).toEqual(expect.any(String));
		const second = await runNode(harness, createParameters({ concurrency: 10 }), candidateRows(20, 'reuse'));
		expect(second.items.every(isSuccess)).toBe(true);
		expect(sandbox().counts.logins).toBe(1);
	});

	it('the session expires once in the middle of the run: one more login, no item lost', async () => {
		sandbox().setFaults({ latencyJitterMs: 8, expireTokensAfterRequests: 70, seed: 2 });
		const harness = new Harness(emailCredential(sandbox()));
		const items = candidateRows(200, 'expiry');
		const result = await runNode(harness, createParameters({ concurrency: 10 }), items);
		expect(result.error).toBeUndefined();
		expect(result.items.every(isSuccess)).toBe(true);
		expect(sandbox().counts.faults.tokenExpiry).toBe(1);
		expect(sandbox().counts.logins).toBe(2);
		expect(harness.credentials.events.logins).toBe(2);
		// The requests in flight at the expiry were answered 401 and repeated once with the new token.
		const refused = requestsTo(sandbox().requests, CANDIDATE_PATH).filter((request) => request.status === 401);
		expect(refused.length).toBeGreaterThan(0);
		expect(refused.length).toBeLessThanOrEqual(10);
		expect(sandbox().counts.candidatesCreated).toBe(200);
	});

	it('the session expires every 40 requests: at most one login per expiry', async () => {
		sandbox().setFaults({ latencyJitterMs: 8, expireTokensAfterRequests: 40, repeat: true, seed: 3 });
		const harness = new Harness(emailCredential(sandbox()));
		const items = candidateRows(200, 'repeat');
		const result = await runNode(harness, createParameters({ concurrency: 10 }), items, { onError: 'continueRegularOutput' });
		expect(result.items).toHaveLength(200);
		expect(pairedIndexes(result.items)).toEqual(items.map((_, index) => index));
		const expiries = sandbox().counts.faults.tokenExpiry;
		expect(expiries).toBeGreaterThanOrEqual(4);
		expect(sandbox().counts.logins).toBeLessThanOrEqual(1 + expiries);
		expect(harness.credentials.events.logins).toBe(sandbox().counts.logins);
		expect(result.items.every(isSuccess)).toBe(true);
		expect(sandbox().counts.candidatesCreated).toBe(200);
	});

	it('a login that fails for a moment (5xx on the login) is tried again and does not turn into one login per waiting request', async () => {
		// Seeded so that the first login attempt is answered 500 and the next one succeeds; the
		// candidate route has no fault.
		sandbox().setFaults({ errorRate: 0.5, paths: [LOGIN_PATH], seed: 7 });
		const harness = new Harness(emailCredential(sandbox()));
		const items = candidateRows(100, 'login-fault');
		const result = await runNode(harness, createParameters({ concurrency: 10, retryDelayMs: 1 }), items, {
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(100);
		expect(pairedIndexes(result.items)).toEqual(items.map((_, index) => index));
		expect(requestsTo(sandbox().requests, LOGIN_PATH)[0].status).toBe(500);
		expect(requestsTo(sandbox().requests, LOGIN_PATH).map((request) => request.status)).toEqual([500, 200]);
		expect(sandbox().counts.logins).toBe(1);
		expect(result.items.every(isSuccess)).toBe(true);
	});

	it('a refused login (wrong password) fails the items waiting for it with its error, with one login attempt in all', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE, { password: `${ALICE.password}-wrong` }));
		const items = candidateRows(30, 'refused');
		const result = await runNode(harness, createParameters({ concurrency: 10 }), items, { onError: 'continueRegularOutput' });
		expect(result.items).toHaveLength(30);
		expect(pairedIndexes(result.items)).toEqual(items.map((_, index) => index));
		for (const item of result.items) {
			expect(item.json.error).toBe('Login failed: Invalid login or password (HTTP 401). Check Email and Password in the Recruiting API credential.');
		}
		// The refusal is final for the execution: one login attempt, not one per item or wave.
		expect(requestsTo(sandbox().requests, LOGIN_PATH)).toHaveLength(1);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH)).toHaveLength(0);
		expect(JSON.stringify(result.items)).not.toContain(ALICE.password);
	});
});
