/**
 * A review of 6ad7dd1..HEAD (transport/session.ts `servedAfter`, `returned`, `deciding`, `refusedAgain`).
 *
 * Fixed since (both): the looks go on while requests are out, up to 10 minutes; `refusedAgain`
 * counts in `deciding`. Before the fix, what broke (all deterministic: simulated clock, Math.random fixed at 0.5; each run twice, same result):
 * - Max Requests per Second: in request.ts the ticket is taken in `lease()`, before `send()` waits
 *   for the pacer's turn, so every leased request queued behind the cap is "out", and a request
 *   leased after a 401 came back is sent only (in flight - 1) x interval later. Past 30 s no 401
 *   finds its proof: each row of another account renews the session (issue 48's login per refused
 *   row: 9 logins for 8 refused rows of 40 at 5 in flight, 0.1 per second), and the run takes up
 *   to twice as long.
 * - A first 401 is taken for "alone" while another request is still deciding in `refusedAgain`
 *   (which does not count in `deciding`): after two wasted logins, rows of the account's own fail
 *   with 401 on sessions that end after 1 to 3 requests when rows of another account are mixed in.
 *
 * Tried, and held (no failing test): a ticket left in `out` (request.ts `run()` returns it in a
 * `finally` for every path: both sends of the capped login, a login that fails or is cancelled,
 * `checkRunning` throwing inside `send`, thrown outcomes and retries, which lease a new ticket);
 * `deciding` after an exception (try/finally); answers reset when the token changes (a new login or
 * a stored session: the looks stop when the token changes, then 'retry'); whole runs without a
 * cap, rows of another account every 5th of 100 to 400, 1, 2, 5, 32 in flight, answers in 10 ms to
 * 3 s: 1 to 6 logins, no row of the account's own failed (32 in flight: 3 for 400 rows); sessions
 * ending after 1, 2, 3, 5, 10, 50 requests without rows of another account (2, 5, 32 in flight; 10,
 * 600, 1500 ms): no row failed; with them, answers in 600 and 1500 ms: no row of the account's
 * own failed (only with answers in 10 ms, below).
 *
 * Parts: whole runs of `SessionOwner` on a simulated clock and service (`simulate`, after
 * sessionServedAfterBreak.test.ts: the lease / send / `expired` loop of transport/request.ts),
 * extended with Max Requests per Second (`intervalMs`: the pacer of transport/pacer.ts on the
 * simulated clock; under a cap the login is a request of its own, one pacer turn, the ticket is
 * taken after it, then the request is sent, as `sendLoggingIn` does); `SessionOwner` driven directly.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ownerAfterLogin, ownerCredentials, sealed } from '../helpers/sessionOwner';
import { fixed, otherIndexes, rowsOf, simulate } from '../helpers/sessionSim';


describe('issue 48 under Max Requests per Second: rows of another account (always 401), the session works', () => {
	beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0.5));
	afterEach(() => jest.restoreAllMocks());

	// Under a cap, the leased requests wait for their pacer turns holding tickets (`out`): a request
	// leased after a 401 came back is sent only after all those leased before it, (in flight - 1) x
	// interval later; past the 30 s of looks, no 401 ever finds its proof (measured in the first
	// run: 0 'works' of all servedAfter calls, the first one 'unknown' after 300 looks with 26 out),
	// and refused rows renew the session. Without a cap, 32 in flight and 400 rows take 3 logins
	// (sessionServedAfterBreak.test.ts bounds 5 to 10 in flight at 2 to 3).
	// Fixed: the looks go on while requests are out, up to 10 minutes. The first case's 6 logins
	// (126.2 s against 100.0 s) are the end of the run: a row of another account among the last
	// 32, refused while nothing else is out, cannot be told from a session that ended.
	it.each([
		[32, 1, 100, 7, '8 logins, 219.9 s against 100.0 s'],
		[5, 0.1, 40, 3, '9 logins for the 8 refused rows (issue 48 exactly), 630.6 s against 400.0 s'],
		[2, 0.05, 20, 3, '5 logins for the 4 refused rows, 560.6 s against 400.0 s'],
		[8, 0.25, 60, 3, '12 logins for the 12 refused rows, 484.0 s against 240.0 s'],
	])('%i in flight, Max Requests per Second %d, %i updates answered in 10 ms, every 5th of another account: those fail, at most %i logins, the run takes at most 1.5 times as long as without those rows (measured: %s)', async (concurrency, perSecond, count, maxLogins) => {
		const model = { toMs: fixed(5), backMs: fixed(5), intervalMs: 1000 / perSecond };
		const rows = rowsOf(count, (index) => index % 5 === 2);
		const result = await simulate(rows, concurrency, model);
		const baseline = await simulate(rowsOf(count, () => false), concurrency, model);
		expect(result.failed).toEqual(otherIndexes(rows));
		expect({ logins: result.logins, tooManyLogins: result.logins > maxLogins, timeMs: result.timeMs, slowerThan150Percent: result.timeMs > 1.5 * baseline.timeMs }).toEqual({
			logins: expect.any(Number),
			tooManyLogins: false,
			timeMs: expect.any(Number),
			slowerThan150Percent: false,
		});
	}, 300000);
});

describe('sessions that end after a few requests, and rows of another account', () => {
	beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0.5));
	afterEach(() => jest.restoreAllMocks());

	// Without rows of another account the same runs fail no row (checked: 2, 5, 32 in flight;
	// 10, 600, 1500 ms; sessions of 1, 2, 3, 5, 10, 50).
	it.each([
		[2, 1, 'rows 33, 35, 37, 47, ... (16)'],
		[2, 3, 'rows 35, 40, 44, 56, 61, 65, 77, 82, 86, 98'],
		[5, 2, 'row 97'],
	])('%i in flight, answers in 10 ms, sessions end after %i served, every 7th of 100 of another account: only those fail (measured: also %s of the account\'s own)', async (concurrency, limit) => {
		const rows = rowsOf(100, (index) => index % 7 === 3);
		const result = await simulate(rows, concurrency, { toMs: fixed(5), backMs: fixed(5), sessionLimit: () => limit });
		expect(result.wrong).toEqual([]);
	}, 120000);
});

describe('SessionOwner: "alone" while another refused request is still deciding in refusedAgain', () => {
	// The header: after two logins that did not help, "a 401 of a request alone (nothing else out,
	// sent or deciding) is its own answer". A request refused again after a renewal looks for its
	// answer in `refusedAgain`, which does not count in `deciding`: a first 401 meanwhile is taken
	// for "alone". In the whole runs above, every wrongly failed row took this path (first 401,
	// out 0, deciding 0, wasted 2 to 7, while the other in-flight request was in refusedAgain).
	it('after two wasted logins, request B\'s first 401 while request A (refused again after its renewal) is still looking is not taken for a lone 401 (measured: \'final\')', async () => {
		const own = sealed('own-1');
		const owner = ownerAfterLogin(own);
		const reread = async (): Promise<ICredentialDataDecryptedObject> => ({ ...ownerCredentials, sessionToken: own });
		const instant = async () => undefined;
		// Two logins that did not help: requests refused again, alone, with no sign either way.
		for (let i = 0; i < 2; i++) {
			owner.authorised(own, owner.ticket());
			expect(await owner.expired(own, reread, instant, { renewed: true, shared: false }, owner.ticket())).toBe('final');
		}
		owner.authorised(own, owner.ticket());
		// Request A: refused again after a renewal; its looks wait (held here).
		const held: Array<() => void> = [];
		const holdingWait = async () => await new Promise<void>((resolve) => held.push(resolve));
		const a = owner.ticket();
		const b = owner.ticket();
		const verdictA = owner.expired(own, reread, holdingWait, { renewed: true, shared: false }, a);
		await sleep(0);
		expect(held.length).toBe(1);
		// Request B (in flight with A): its first 401 comes back while A is deciding.
		owner.returned(b);
		const verdictB = owner.expired(own, reread, instant, {}, b);
		let settledB: string | undefined;
		void verdictB.then((v) => (settledB = String(v)));
		for (let i = 0; i < 20 && settledB === undefined; i++) await sleep(0);
		expect(settledB).not.toBe('final');
		while (held.length > 0) held.shift()!();
		for (let i = 0; i < 20; i++) {
			await sleep(0);
			while (held.length > 0) held.shift()!();
		}
		await verdictA;
	});
});
