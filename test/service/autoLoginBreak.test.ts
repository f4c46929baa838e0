/**
 * A review of Auto's pacing together with the session logins (transport/controller.ts `turn`,
 * `record`; transport/session.ts `expired`, `servedAfter`, `renew`), through n8n's engine
 * (WorkflowExecute, real timers) against the sandbox over real HTTP. Each test says at its top the
 * promise it checks, what was expected and, when it fails, what happened and the likely cause.
 * Run: `npx jest test/service/autoLoginBreak.test.ts` (about a minute).
 */

import { CANDIDATE_PATH, LOGIN_PATH } from '../helpers/bulk';
import { Harness } from '../helpers/harness';
import type { RunResult } from '../helpers/harness';
import { answered, createUnderAuto, failuresOf, useLoginSandboxes } from '../helpers/autoLogin';
import { ALICE, emailCredential, endSessionAtFirst429 } from '../helpers/sandbox';
import { print } from '../sim/host';

/** `single`: a service that allows one session per user (another login of the user ends the node's session). */
const { sandbox, single } = useLoginSandboxes();



/** Everything of a run a user or a log can see: output items, error items, the run's error (message and description). */
const visible = (result: RunResult): string =>
	JSON.stringify([result.items.map((item) => item.json), result.errorItems.map((item) => item.json), result.error?.message, result.error?.description]);

/** A session token of the sandbox (32 random bytes in hex). */
const TOKEN_SHAPE = /[0-9a-f]{64}/;

describe('a session that ends while Auto waits out a window', () => {
	// FAILED on the code it was written against (20-22 answered 401 after the session ended); FIXED 2026-12-01: a 401 of the
	// first request after a hold is decided at once (the session asked, then renewed), and the requests that waited out the
	// hold wait for that decision and take the session again before they go (session.ts `doubt`, request.ts `send`): 2
	// answered 401. A first try that only kept the look going after its 401 still let 19 go: the requests held at the gate
	// had taken their session before the hold. docs/speed.md: "a window of any length ... is waited out once, at its end: no single wait
	// is longer than 30 s, and after each hold one request goes first and the rest follow only if it
	// is accepted"; docs/concurrency.md: "When a hold ends, one request goes first and the others wait
	// for its answer: refused again ..., it holds the run once more ...; accepted, every request waiting
	// goes at the learned rate"; docs/errors-and-retries.md: "when the session token is missing or has
	// ended, one request logs in and the others of that execution wait for it". Expected: the session
	// ends while the run is held (another login of the same user on a one-session-per-user service;
	// the same happens to any session that expires during a hold of a minute or an hour); after the
	// hold the first request is answered 401, one login follows, and the held requests go with the new
	// session: at most a few 401s. Measured: the first request's 401 releases every held request, each
	// is sent with the ended session: 20-22 answered 401 after the session ended, the whole quota (20
	// of 20) of the window after the hold spent on 401s, so the rows wait a whole window more (and the
	// session read and the login that follow are answered 429). Cause: controller.ts `record` takes
	// the 401 of the request that looks after the hold for an accepted answer (attempt.ts `signalOf`:
	// every status but 429/502-504 is 'ok', `probeAnswered` ends the look), and session.ts
	// `servedAfter` lets new requests go with the session that refused while it looks for a success
	// sent after the 401 (none can come: the session ended). Replay: this test alone (about 20 s).
	it('a fixed window of 20 per 4 s, the session ends during the first hold: after the hold, not a whole window of 401s', async () => {
		const box = single();
		box.setFaults({ latencyMs: 5, rateLimitPerSecond: 20, rateLimitWindowS: 4, rateLimiter: 'fixed' });
		const harness = new Harness(emailCredential(box, ALICE));
		const ending = endSessionAtFirst429(box, ALICE.email);
		const started = Date.now();
		let result: RunResult;
		try {
			result = await createUnderAuto(harness, 80, 'held');
		} finally {
			await ending.stop();
		}
		const endedAt = ending.endedAt();
		const after = box.requests.slice(endedAt);
		// The window after the hold: from the first request accepted by the limiter after the kill (its answer not a 429).
		const firstServed = after.findIndex((request) => request.status !== 429);
		const nextWindow = after.slice(firstServed).filter((request) => request.at < after[firstServed].at + 4_000);
		print(
			`held: ${Date.now() - started} ms, ${box.counts.logins} logins, ${answered(after, 401)} answered 401 after the session ended ` +
				`(${answered(nextWindow, 401)} of the ${nextWindow.filter((request) => request.status !== 429).length} accepted in the window after the hold), ` +
				`${answered(box.requests, 429)} answered 429, ${failuresOf(result).length} failed, ${box.counts.candidatesCreated} created`,
		);
		expect(endedAt).toBeGreaterThan(0);
		expect(failuresOf(result)).toEqual([]);
		expect(box.counts.candidatesCreated).toBe(80);
		expect(answered(after, 401)).toBeLessThanOrEqual(3);
	}, 90_000);
});

describe('one login shared by executions whose session ended together', () => {
	// FAILED on the code it was written against (2 logins); FIXED 2026-12-01: a renewal that finds no newer stored session
	// waits for a login another execution of the process has under way with the same credential, and takes up its session
	// (session.ts `loginsUnderWay`). docs/errors-and-retries.md: "A renewal after a session that served reads the stored
	// credential at once and once more after a short random wait before logging in, so executions
	// whose shared session ended together take up the first one's login"; docs/credentials.md: "When
	// the service answers 401, it first reads the stored credential again (another execution may have
	// logged in meanwhile) and logs in only when the stored session is the one that ended". Expected:
	// two executions of the same credential (Auto, Max Concurrency 4) share a stored session that
	// expires mid-run; one logs in, the other takes up its session: 1 login. Measured: 2 logins in
	// every run with a login that takes 800 ms (a password hash and a round trip; 2 of 2 runs), and
	// also with a login of 150 ms (1 of 1) and now and then with one of 50 ms (1 of 3). Cause:
	// session.ts `renew` (SERVED_LOOKS = 2): the second look is 150-450 ms after the first
	// (`lookWaitMs`), and both executions wait before logging in, so a login that is not stored within
	// that wait is never seen: each execution logs in. Nothing tells one execution that another's
	// login is under way. Replay: this test alone (about 7 s).
	it.each([800, 50])('two executions at once, the stored session ends, a login takes %i ms: one login after it', async (loginMs) => {
		const box = sandbox();
		box.setFaults({ latencyMs: 50, hangPaths: [LOGIN_PATH], hangMs: loginMs });
		const harness = new Harness(emailCredential(box, ALICE));
		// The shared session lives 3 s; the sessions after it live on.
		box.setTokenLifetime(3_000);
		await createUnderAuto(harness, 1, 'seed');
		box.setTokenLifetime(undefined);
		expect(box.counts.logins).toBe(1);
		const [a, b] = await Promise.all([createUnderAuto(harness, 300, 'exec-a', { maxConcurrency: 4 }), createUnderAuto(harness, 300, 'exec-b', { maxConcurrency: 4 })]);
		print(`shared: ${box.counts.logins - 1} logins after the shared session ended, ${answered(box.requests, 401)} answered 401, failed ${failuresOf(a).length} + ${failuresOf(b).length}`);
		expect(failuresOf(a)).toEqual([]);
		expect(failuresOf(b)).toEqual([]);
		// The shared session did end within the executions.
		expect(answered(box.requests, 401)).toBeGreaterThan(0);
		expect(box.counts.logins - 1).toBe(1);
	}, 60_000);
});

describe('logins stay bounded under Auto and a rate limit (guards)', () => {
	// PASSES (new coverage: Auto with many items in flight and a windowed rate limit; the existing
	// tests of a refusing service run one request at a time against nock). docs/errors-and-retries.md:
	// "And per execution: five own logins in a row whose sessions serve nothing end the renewals";
	// "tokens, passwords and API keys are redacted from every message, description and output item".
	// Expected: every session request refused 401 (a service that refuses this account), 100 rows, a
	// fixed window of 20 per 2 s: at most 5 logins, the run ends, every row fails with the 401 and
	// the advice to check the credential, no password or session token anywhere.
	it('every session refused, 100 rows, a fixed window of 20 per 2 s: at most five logins, the run ends, nothing secret shown', async () => {
		const box = sandbox();
		box.setFaults({ latencyMs: 5, unauthorizedRate: 1, paths: [CANDIDATE_PATH, '/v1/company'], rateLimitPerSecond: 20, rateLimitWindowS: 2, rateLimiter: 'fixed' });
		const harness = new Harness(emailCredential(box, ALICE));
		const started = Date.now();
		const result = await createUnderAuto(harness, 100, 'refused');
		const told = failuresOf(result);
		print(`refused: ${Date.now() - started} ms, ${box.counts.logins} logins (${box.counts.loginAttempts} tried), ${answered(box.requests, 401)} answered 401, ${answered(box.requests, 429)} answered 429, ${told.length} failed`);
		expect(box.counts.logins).toBeLessThanOrEqual(5);
		expect(told).toHaveLength(100);
		expect(told.every((text) => /HTTP 401/.test(text))).toBe(true);
		expect(visible(result)).not.toContain(ALICE.password);
		expect(visible(result)).not.toMatch(TOKEN_SHAPE);
	}, 90_000);

	// PASSES (new coverage: a renewal login refused mid-run under Auto; bulkLogin.test.ts has the first
	// login refused, at Fixed 10). docs/errors-and-retries.md: "A login that failed for good (wrong
	// password, ...) is final for the execution: every waiting item fails with that error and nothing
	// logs in again." Expected: the session ends after 30 requests, the renewal login is refused
	// (the password was changed meanwhile): 2 login attempts in all, the rows not created fail with
	// the login's error, the password and tokens nowhere.
	it('the session ends after 30 requests and the renewal login is refused: two login attempts in all, final', async () => {
		const box = sandbox();
		box.setFaults({ latencyMs: 5, expireTokensAfterRequests: 30, loginScript: [{ ok: true }, { status: 401 }] });
		const harness = new Harness(emailCredential(box, ALICE));
		const result = await createUnderAuto(harness, 100, 'renewal-refused');
		const told = failuresOf(result);
		print(`renewal refused: ${box.counts.loginAttempts} login attempts, ${told.length} failed, ${box.counts.candidatesCreated} created`);
		expect(box.counts.loginAttempts).toBe(2);
		expect(told.length).toBe(100 - box.counts.candidatesCreated);
		expect(told.length).toBeGreaterThan(0);
		expect(told.every((text) => /^Login failed: Invalid login or password \(HTTP 401\)/.test(text))).toBe(true);
		expect(visible(result)).not.toContain(ALICE.password);
		expect(visible(result)).not.toMatch(TOKEN_SHAPE);
	}, 60_000);
});
