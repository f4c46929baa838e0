/**
 * A review of the change "executions of one process share a login under way" (commit c86519e: transport/session.ts
 * `loginsUnderWay`, `tryLead`, `renew`), through n8n's engine (WorkflowExecute, real timers) against the sandbox over
 * real HTTP. `loginsUnderWay` lives as long as the module (the n8n process; here the test file): each test has a sandbox
 * of its own, so that its base URL, and with it the key of its logins, is its own. Each test says at its top what it
 * checks, the doc's sentence, what was expected and what happened.
 * Run: `npx jest test/service/loginShareBreak.test.ts` (about a minute and a half).
 */
import { sleep } from 'n8n-workflow';

import { createUnderAuto, failuresOf } from '../helpers/autoLogin';
import { LOGIN_PATH } from '../helpers/bulk';
import { Harness } from '../helpers/harness';
import type { RunResult } from '../helpers/harness';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../sandbox/server';
import { print } from '../sim/host';

const PROBE_PATH = '/v1/company/api-integrations';

/** One sandbox per test: a base URL of its own, so that no login under way of one test is seen by another. */
const leakBox = useSandbox({}, { resetEachTest: true });
const twoCredentialsBox = useSandbox({}, { resetEachTest: true });
const stopBox = useSandbox({}, { resetEachTest: true });
const manyBox = useSandbox({}, { resetEachTest: true });
const singleBox = useSandbox({ singleSessionPerUser: true }, { resetEachTest: true });

afterEach(() => {
	for (const box of [leakBox(), twoCredentialsBox(), stopBox(), manyBox(), singleBox()]) {
		box.setFaults({});
		box.setTokenLifetime(undefined);
	}
});



/** Logs `harness`'s credential in with a session that lives `lifeMs`, then waits until it ended: the stored session is an ended one. */
async function storeEndedSession(box: Sandbox, harness: Harness, tag: string, lifeMs = 600): Promise<void> {
	box.setTokenLifetime(lifeMs);
	const seed = await createUnderAuto(harness, 1, tag);
	box.setTokenLifetime(undefined);
	expect(failuresOf(seed)).toEqual([]);
	await sleep(lifeMs + 300);
}

/** Waits (at most `ms`) until `check` holds. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (check()) return true;
		await sleep(20);
	}
	return check();
}

describe('a login that never ends in the map', () => {
	// Checks: an execution stopped (Stop Execution) while its login waits for its turn under Max Requests per Second leaves
	// nothing behind for the other executions of the process. docs/errors-and-retries.md: "when no newer session is stored
	// yet, a renewal waits for a login another execution of the same n8n process has under way with the same credential
	// (at most 30 s) and takes up the session it stores"; the LoginTurn of session.ts: "abandoned(): The login was not
	// completed (cancelled, stopped)". Expected: execution X (1 row, Max Requests per Second 0.2) finds its stored session
	// ended, asks the session, renews, and its login waits for the cap's turn; X is stopped then (its login never sent). A
	// later execution A of the same credential, its stored session ended as well, has no login of another to wait for:
	// it logs in after its looks and its row is created within a few seconds.
	// FIXED 2026-12-01 (request.ts `sendLoggingIn` ends the turn however it ends; session.ts ends a turn once). Measured on
	// the code it was written against (see the print): FAILED, A took 31,251 ms (30 s of it waiting for X's login, which no longer exists); on the
	// code before the change (4539d29) this test passes: A took 870 ms.
	// Likely cause: request.ts `sendLoggingIn` → `send`: `checkRunning()` after `controller.turn`/`pacer.turn` throws
	// ("The execution was cancelled before the request was sent") without `turn.abandoned()`, so session.ts `tryLead`'s
	// `end` never runs and the module-level `loginsUnderWay` keeps X's promise, never settled, until another login of
	// the same credential values replaces it; `renew` then waits `JOIN_WAIT_MS` for it. (Before the change the same missed
	// `end` only left the stopped execution's own `pending`, which no one else saw.) The same path is taken when the run
	// stops because an earlier item failed (`transport.stopped`) and when a hold of Auto keeps the login waiting.
	it('an execution stopped while its login waits for its turn: a later execution does not wait 30 s for that login', async () => {
		const box = leakBox();
		box.setFaults({ latencyMs: 5 });
		const harness = new Harness(emailCredential(box, ALICE));
		await storeEndedSession(box, harness, 'seed');
		expect(box.counts.loginAttempts).toBe(1);

		// X: its session read is answered 401 (the session ended), its renewal's login then waits for the cap's turn (5 s
		// after the read's); it is stopped 2.5 s after the read reached the service (the looks take at most 1.35 s).
		let cancelledAt = 0;
		let readAt = 0;
		const stopped = createUnderAuto(harness, 1, 'x', { requestsPerSecond: 0.2 }, (execution) => {
			void (async () => {
				if (!(await until(() => box.requests.some((request) => request.path === PROBE_PATH && request.status === 401), 20_000))) return;
				readAt = Date.now();
				await sleep(2_500);
				cancelledAt = Date.now();
				execution.cancel();
			})();
		});
		const x = await stopped;
		const xEnded = Date.now();
		expect(readAt).toBeGreaterThan(0);
		expect(cancelledAt).toBeGreaterThan(0);
		// X never sent its login: the stop came while it waited for its turn.
		expect(box.counts.loginAttempts).toBe(1);
		expect(box.counts.candidatesCreated).toBe(1);

		// A: a later execution of the same credential; its stored session (the seed's) ended too.
		const started = Date.now();
		const a = await createUnderAuto(harness, 1, 'a');
		const took = Date.now() - started;
		print(
			`leak: X stopped ${cancelledAt - readAt} ms after its read, ended ${xEnded - cancelledAt} ms after the stop (${failuresOf(x).length} failed: ${failuresOf(x)[0] ?? ''}); ` +
				`A took ${took} ms, ${box.counts.loginAttempts} login attempts in all, ${failuresOf(a).length} failed`,
		);
		expect(failuresOf(a)).toEqual([]);
		expect(box.counts.loginAttempts).toBe(2);
		expect(took).toBeLessThan(8_000);
	}, 90_000);
});

describe('executions with different n8n credentials of the same account', () => {
	// Checks: two n8n credentials with the same e-mail, password and base URL (two users of n8n who each made one, or a
	// copy of a credential) do not wait for each other's logins. docs/errors-and-retries.md: "a renewal waits for a login
	// another execution of the same n8n process has under way with the same credential (at most 30 s) and takes up the
	// session it stores"; docs/credentials.md: the node "keeps the session token in the credential (so every execution
	// and every queue-mode worker shares it)". A session stored with another credential can never be taken up (each
	// execution reads its own), so waiting for it only delays. Expected: executions A and B, one per credential, both
	// stored sessions ended; each renews: the one whose login comes first is answered 429 with Retry-After 12 s (the
	// service limits logins for a moment) and waits it out; the other's login goes through at once and its row is
	// created within a few seconds.
	// FIXED 2026-12-01 (logins are shared by n8n credential id, execution.ts `credentialId`). Measured on the code it was
	// written against (see the print): FAILED, A 13,115 ms and B 13,052 ms: the one not rate limited waited for the other
	// credential's login (12 s of Retry-After), found nothing stored with its own credential, and only then logged in
	// (its login reached the service 12,014 ms after the 429, 54 ms before the other's second try). On the code before
	// the change (4539d29) this test passes: B 896 ms (its login 70 ms after the 429).
	// Likely cause: session.ts `loginsUnderWay` is keyed by the credential's values (`sealSessionToken(credentials, '')`:
	// base URL, e-mail, password, token path), not by the n8n credential, and `renew` waits for any login under that key
	// before `takeUpStored`, which reads the execution's own credential only.
	it('two credentials of one account, one login rate limited for 12 s: the other execution does not wait for it', async () => {
		const box = twoCredentialsBox();
		box.setFaults({ latencyMs: 5 });
		const first = new Harness(emailCredential(box, ALICE));
		const second = new Harness(emailCredential(box, ALICE));
		second.credentialId = 'cred-2';
		second.setCredential(emailCredential(box, ALICE));
		box.setTokenLifetime(800);
		expect(failuresOf(await createUnderAuto(first, 1, 'seed-1'))).toEqual([]);
		expect(failuresOf(await createUnderAuto(second, 1, 'seed-2'))).toEqual([]);
		box.setTokenLifetime(undefined);
		await sleep(1_100);
		// The next login is answered 429 (Retry-After 12 s); the logins after it go through.
		box.setFaults({ latencyMs: 5, loginScript: [{ status: 429, retryAfter: '12' }] });
		const timed = async (harness: Harness, tag: string) => {
			const started = Date.now();
			const result = await createUnderAuto(harness, 1, tag);
			return { result, took: Date.now() - started };
		};
		const [a, b] = await Promise.all([timed(first, 'a'), timed(second, 'b')]);
		const logins = box.requests.filter((request) => request.path === LOGIN_PATH).slice(-3);
		print(
			`two credentials: A ${a.took} ms, B ${b.took} ms; the last logins ${logins.map((request) => `${request.status} at +${request.at - logins[0].at} ms`).join(', ')}; ` +
				`failed ${failuresOf(a.result).length} + ${failuresOf(b.result).length}`,
		);
		expect(failuresOf(a.result)).toEqual([]);
		expect(failuresOf(b.result)).toEqual([]);
		expect(Math.min(a.took, b.took)).toBeLessThan(6_000);
	}, 60_000);
});

describe('Stop Execution of an execution that waits for another one\'s login', () => {
	// Checks: the wait for another execution's login ends at once when the waiting execution is stopped.
	// docs/errors-and-retries.md: "A service that refuses every login with 429 holds the run until it is stopped (Stop
	// Execution ends the wait at once)"; "a renewal waits for a login another execution ... has under way ... (at most
	// 30 s)". Expected: execution A's login is answered 429 with Retry-After 20 s; execution B of the same credential,
	// its stored session ended, waits for A's login; B is stopped 3 s after it started: it ends within about a second,
	// nothing created, no login of its own. (A is stopped afterwards, so that the test does not wait out its 20 s.)
	// Measured: PASSES (B ended 6 ms after its stop; no login tried while B ran).
	it('the waiting execution is stopped: it ends within a second', async () => {
		const box = stopBox();
		box.setFaults({ latencyMs: 5 });
		const harness = new Harness(emailCredential(box, ALICE));
		await storeEndedSession(box, harness, 'seed');
		box.setFaults({ latencyMs: 5, loginScript: [{ status: 429, retryAfter: '20' }] });
		let stopA = () => undefined as void;
		const a = createUnderAuto(harness, 1, 'a', {}, (execution) => (stopA = () => execution.cancel()));
		expect(await until(() => box.requests.some((request) => request.path === LOGIN_PATH && request.status === 429), 10_000)).toBe(true);
		const attempts = box.counts.loginAttempts;
		let cancelledAt = 0;
		const b = await createUnderAuto(harness, 1, 'b', {}, (execution) => {
			void sleep(3_000).then(() => {
				cancelledAt = Date.now();
				execution.cancel();
			});
		});
		const ended = Date.now() - cancelledAt;
		stopA();
		await a;
		print(`stop: B ended ${ended} ms after its stop; ${failuresOf(b).length} failed (${failuresOf(b)[0] ?? ''}); logins tried while B ran: ${box.counts.loginAttempts - attempts}`);
		expect(cancelledAt).toBeGreaterThan(0);
		expect(ended).toBeLessThan(1_000);
		expect(box.counts.candidatesCreated).toBe(1);
	}, 60_000);
});

describe('several executions whose sessions end often (guards)', () => {
	// Checks: with 6 executions at once, the shared session ending every 60 requests, no execution stalls or fails and the
	// logins stay about one per ended session. docs/errors-and-retries.md: "executions whose shared session ended together
	// take up the first one's login ...; when no newer session is stored yet, a renewal waits for a login another
	// execution of the same n8n process has under way with the same credential". Expected: no row fails, at most one
	// login per session ended (plus one), the run within seconds (no 30 s wait).
	// Measured: PASSES (6.4 s, 7 logins, 8 requests met an ended session, 0 failed, 481 created).
	it('6 executions, 80 rows each, the session ends every 60 requests, a login of 300 ms: no row fails, one login per end', async () => {
		const box = manyBox();
		box.setFaults({ latencyMs: 10 });
		const harness = new Harness(emailCredential(box, ALICE));
		expect(failuresOf(await createUnderAuto(harness, 1, 'seed'))).toEqual([]);
		box.setFaults({ latencyMs: 10, hangPaths: [LOGIN_PATH], hangMs: 300, expireTokensAfterRequests: 60, repeat: true });
		const before = box.counts.logins;
		const started = Date.now();
		const results = await Promise.all(Array.from({ length: 6 }, async (_, index) => await createUnderAuto(harness, 80, `many-${index}`, { maxConcurrency: 4 })));
		const took = Date.now() - started;
		const ends = box.counts.faults.tokenExpiry ?? 0;
		const logins = box.counts.logins - before;
		const failed = results.reduce((sum, result) => sum + failuresOf(result).length, 0);
		print(`many: ${took} ms, ${logins} logins, ${ends} requests met an ended session (tokenExpiry), ${failed} failed, ${box.counts.candidatesCreated} created`);
		expect(failed).toBe(0);
		expect(box.counts.candidatesCreated).toBe(481);
		// About 480 + reads: 8 session ends at most.
		expect(logins).toBeLessThanOrEqual(10);
		expect(took).toBeLessThan(25_000);
	}, 90_000);

	// Checks: on a service that allows one session per user, 4 executions of one credential and another client logging
	// in as the same user every 700 ms take turns, none stalls. docs/errors-and-retries.md (as above), and "another login of
	// the user ends it on a service that allows one session per user". Expected: no row fails; the executions end
	// within seconds of each other; the logins about one per session the other client ended.
	// Measured: PASSES (12.6 s, 13 logins for 17 sessions the other client ended, 0 failed, 1,001 created).
	it('one session per user, 4 executions, another client logs in every 700 ms: no row fails, no stall', async () => {
		const box = singleBox();
		box.setFaults({ latencyMs: 20, hangPaths: [LOGIN_PATH], hangMs: 200 });
		const harness = new Harness(emailCredential(box, ALICE));
		expect(failuresOf(await createUnderAuto(harness, 1, 'seed'))).toEqual([]);
		const before = box.counts.logins;
		let running = true;
		let kills = 0;
		const other = (async () => {
			while (running) {
				await sleep(700);
				if (!running) break;
				box.issueToken(ALICE.email);
				kills += 1;
			}
		})();
		const started = Date.now();
		let results: RunResult[];
		try {
			results = await Promise.all(Array.from({ length: 4 }, async (_, index) => await createUnderAuto(harness, 250, `single-${index}`, { maxConcurrency: 4 })));
		} finally {
			running = false;
			await other;
		}
		const took = Date.now() - started;
		const failed = results.flatMap((result) => failuresOf(result));
		print(`single: ${took} ms, ${box.counts.logins - before} logins, ${kills} sessions ended by the other client, ${failed.length} failed ${failed[0] ?? ''}`);
		expect(failed).toEqual([]);
		expect(box.counts.candidatesCreated).toBe(1001);
		expect(box.counts.logins - before).toBeLessThanOrEqual(kills + 4);
		expect(took).toBeLessThan(40_000);
	}, 90_000);
});
