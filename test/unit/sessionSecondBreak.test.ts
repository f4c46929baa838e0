/**
 * A second review of the session probe (transport/session.ts `probed`, `refusedAgain`, `expired`;
 * transport/request.ts `sessionServes`), on the simulated clock of test/helpers/sessionSim.ts.
 * Each failing test says at its top what is wrong, the numbers measured and how to replay it
 * (the seeds are in the test; `npx jest test/unit/sessionSecondBreak.test.ts -t '<name>'`).
 *
 * The engine half (n8n's WorkflowExecute against nock) is test/service/sessionSecondBreak.test.ts.
 */
import { mulberry32 } from '../sandbox/faults';
import type { ExecutionPlan, ProbeAnswer, ServiceModel } from '../helpers/sessionSim';
import { fixed, otherIndexes, rowsOf, simulateShared } from '../helpers/sessionSim';
import { print } from '../sim/host';

/** Seeds `from`..`to`: own rows that failed in all, per failing seed, and the most logins of a run. */
async function sweep(plan: (draw: () => number) => ExecutionPlan[], model: (draw: () => number) => ServiceModel, from: number, to: number) {
	let wrong = 0;
	let maxLogins = 0;
	const failingSeeds: string[] = [];
	for (let seed = from; seed <= to; seed++) {
		const draw = mulberry32(seed);
		const plans = plan(draw);
		jest.spyOn(Math, 'random').mockImplementation(mulberry32(seed + 1_000_000));
		const result = await simulateShared(plans, model(draw));
		jest.restoreAllMocks();
		const rows = result.executions.reduce((sum, execution) => sum + execution.wrong.length, 0);
		wrong += rows;
		if (rows > 0) failingSeeds.push(`seed ${seed}: ${rows}`);
		maxLogins = Math.max(maxLogins, result.logins);
	}
	return { wrong, failingSeeds, maxLogins };
}

describe('the probe\'s read refused (401) while the session works: an account that may not list API integrations', () => {
	beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0.5));
	afterEach(() => jest.restoreAllMocks());

	// Found by a review (2026-11-30): it FAILED with 41 logins for 8 refused rows of 40 (without the
	// probe: 3). The node took a 401 to its read `GET /v1/company/api-integrations` for "the session
	// ended"; this service answers 401 for what the account may not see while the session works (the
	// spec's only documented refusal of the API integrations is a 401 "not authorized"), so an account
	// without the right to list them got 401 to every probe, and each row of another account ran into
	// the five-fruitless bound. Fixed (session.ts `probeRefused`): a session that serves a request sent
	// after its probe's refusal came back shows the probe untrue, and the execution stops asking. The
	// first such row still costs up to five logins (the probe cannot be told from a session that
	// ended until the session serves another row): 8 logins in all.
	it('1 at once, every 5th of 40 rows of another account, every probe answered 401: the execution stops asking after the first such row (before: 41 logins; without the probe 3; now 8)', async () => {
		const rows = rowsOf(40, (index) => index % 5 === 2);
		const model: ServiceModel = { toMs: fixed(5), backMs: fixed(5) };
		const result = await simulateShared([{ rows, concurrency: 1 }], { ...model, probeAnswer: () => 401 });
		const without = await simulateShared([{ rows, concurrency: 1 }], { ...model, probe: false });
		print(`probe answered 401: ${result.logins} logins, ${result.probes} probes; without the probe: ${without.logins} logins`);
		expect(result.executions[0].failed).toEqual(otherIndexes(rows));
		expect(without.logins).toBe(3);
		// The first row of another account: up to five logins (MAX_FRUITLESS_LOGINS); then the rules without the probe.
		expect(result.logins).toBeLessThanOrEqual(without.logins + 5);
	});
});

describe('a probe answered 429 (a rate limit) is "tells nothing", not "come back later"', () => {
	afterEach(() => jest.restoreAllMocks());

	// Found by a review (2026-11-30): it FAILED with 19 own rows over seeds 1-20 (52 with the first 16
	// probes 429'd). sessionServes took a 429 to the probe for 'unknown' (not sent again after its
	// Retry-After), and two such ended the asking for the execution: on a one-session-per-user
	// service, the known limit of a probe that tells nothing, reached by a passing rate limit. Fixed
	// (request.ts `sessionServes`, mirrored by test/helpers/sessionSim.ts): a probe answered 429 or
	// 502-504 is sent again after its Retry-After or the backoff, three tries in all.
	it('8 executions × 100 rows at 1 at once, one session per user, the run\'s first 8 probes answered 429 then as the service would: no row of the account fails (before: 19 rows over 20 seeds; 0 when no probe is 429\'d)', async () => {
		const plan = (first: number) => async () =>
			await sweep(
				(draw) => Array.from({ length: 8 }, () => ({ rows: rowsOf(100, () => false), concurrency: 1, startMs: Math.floor(draw() * 2_000) })),
				(draw) => {
					const leg = () => 5 + Math.floor(draw() * 40);
					return { toMs: leg, backMs: leg, loginMs: 40, singleSession: true, lifetimeMs: 5_000, storeDelayMs: () => Math.floor(draw() * 500), probeAnswer: (n): ProbeAnswer => (n < first ? 429 : 'service') };
				},
				1,
				20,
			);
		const answered = await plan(0)();
		const burst = await plan(8)();
		print(`first 8 probes 429: ${burst.wrong} own rows failed (${burst.failingSeeds.join(', ')}); none 429: ${answered.wrong}`);
		expect(answered.failingSeeds).toEqual([]);
		expect(burst.failingSeeds).toEqual([]);
	}, 60000);
});

describe('the probe takes a turn of Max Requests per Second', () => {
	afterEach(() => jest.restoreAllMocks());

	// Found by a review (2026-11-30), kept as a known limit (docs/errors-and-retries.md). The probe is
	// sent like any request (request.ts `send`: controller.turn, then pacer.turn), so under a cap it
	// takes a turn an own row was waiting for. 1 request a second, 2 at once, sessions of 3 s, every
	// 4th of 40 rows of another account: each session serves the login's turn and about two more, the
	// probe takes one of them, sessions serve nothing, the fruitless logins reach five and the rows
	// after fail "Not authorized even after logging in again": 93 own rows over seeds 1-6 (without
	// the probe: 0; about one login per row either way: 43 logins for 40 rows, seed 6). Such sessions
	// are shorter than 2 × Concurrent Requests × the cap's interval; from that length on, none fail.
	it('Max Requests per Second 1, 2 at once, sessions of 4 s (2 × at once × interval) and 6 s, every 4th of 40 rows of another account: no row of the account fails, as without the probe; at 3 s the known limit is measured', async () => {
		const config = (probe: boolean, lifetimeMs: number) => async () =>
			await sweep(
				(draw) => [{ rows: rowsOf(40, (index) => index % 4 === 2), concurrency: 2, startMs: Math.floor(draw() * 2_000) }],
				(draw) => {
					const leg = () => 5 + Math.floor(draw() * 200);
					return { toMs: leg, backMs: leg, loginMs: 40, lifetimeMs, intervalMs: 1_000, limitMs: 24 * 3_600_000, probe };
				},
				1,
				6,
			);
		const short = await config(true, 3_000)();
		const shortWithout = await config(false, 3_000)();
		print(`1/s, 2 at once, sessions of 3 s (the known limit): own rows failed with the probe ${short.wrong} (${short.failingSeeds.join(', ')}), without ${shortWithout.wrong}`);
		for (const lifetimeMs of [4_000, 6_000]) {
			const without = await config(false, lifetimeMs)();
			const result = await config(true, lifetimeMs)();
			print(`1/s, 2 at once, sessions of ${lifetimeMs / 1000} s: own rows failed with the probe ${result.wrong}, without ${without.wrong}`);
			expect(without.failingSeeds).toEqual([]);
			expect(result.failingSeeds).toEqual([]);
		}
	}, 120000);
});

describe('guard: a service that refuses every session of the account', () => {
	beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0.5));
	afterEach(() => jest.restoreAllMocks());

	// PASSES. The CHANGELOG: "now fails the run after five logins": at any concurrency, every probe
	// refused (the session serves nothing, the probe included), 100 rows.
	it.each([1, 2, 5, 32])('%i at once, 100 rows, every request and every probe refused: exactly five logins, every row fails, and no more than one probe per session', async (concurrency) => {
		const rows = rowsOf(100, () => true);
		const result = await simulateShared([{ rows, concurrency }], { toMs: fixed(5), backMs: fixed(5), probeAnswer: () => 401 });
		expect(result.logins).toBe(5);
		expect(result.executions[0].failed).toHaveLength(100);
		expect(result.probes).toBeLessThanOrEqual(5);
	});
});
