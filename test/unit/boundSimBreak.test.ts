/**
 * A review of the bound that grows with the list (memory/bound.ts, commits ac9c311 and a8df105; docs/sync-memory.md, "The
 * bound grows with the list") through the whole-memory simulation (test/sim/memory.ts), with variants of its twelfth
 * scenario ("a list of 100,000–600,000 entries", test/unit/memorySimulation.test.ts) that scenario does not cover: lists
 * around the size where the waits jump (133,334 and 200,000 entries), at and beyond the 4-s cap, 4 processes with more
 * executions each, more stalls, clock jumps, outages, store calls that fail, Forget All Rows in every seed, Match By
 * switches, manual runs, and everything at once.
 *
 * Each variant runs its own seeds (variant n: seeds 500,000 + 10,000 × n onwards) and asserts what memorySimulation.test.ts
 * asserts on every seed of every scenario: no row created twice at the service outside the stated cases (`Outcome.twice`:
 * not after a Forget during its claims, not after a write slower than every wait, not one of the Match By cases), no row
 * that updated another person's candidate, and no dry run that planned otherwise than its execution did (property 4).
 * The stated cases are counted and printed, not asserted.
 *
 * Replay one seed of a variant, with a row's life and every store call on it:
 *   BOUNDSIM_VARIANT=<n> BOUNDSIM_SEED=<seed> BOUNDSIM_TRACE=r5 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
 * BOUNDSIM_SEEDS=<n> runs n seeds per variant (default: each variant's own count), BOUNDSIM_FROM=<n> from the n-th,
 * BOUNDSIM_SHOW=<n> lists up to n failing seeds (10), BOUNDSIM_PLAIN=1 runs the `it.failing` tests as plain ones (their seeds
 * printed), BOUNDSIM_WINDOW=<from>-<to> adds every trace line of that window (simulated ms) to BOUNDSIM_TRACE's.
 */
import type { Knobs, Outcome } from '../sim/memory';
import { Simulation } from '../sim/memory';
import { print, setting as hostSetting } from '../sim/host';

const setting = hostSetting as (name: string) => string | undefined;

/** As memorySimulation.test.ts's `BASE` and its twelfth scenario (not exported there: that file is a test). */
const BASE: Knobs = { processes: [2, 4], worker: 0.4, executions: [1, 3], rows: 16, noAnswer: 0.03, refused: 0.03, changed: 0.3, manual: 0.1 };
const BIG: Knobs = { ...BASE, entries: [100_000, 600_000], stop: 0.2, kill: 0.3, forget: 0.4, adopt: 0.4, stall: 0.01, forgetAll: 0.5, later: 0.6 };

interface Variant {
	name: string;
	knobs: Knobs;
	seeds: number;
	/** Seeds to run instead of the variant's own range (found by longer runs). */
	only?: number[];
	/** A defect found on these seeds (`it.failing`). */
	failing?: boolean;
}

const ONE = setting('BOUNDSIM_SEED') === undefined ? undefined : Number(setting('BOUNDSIM_SEED'));
const ONLY = setting('BOUNDSIM_VARIANT') === undefined ? undefined : Number(setting('BOUNDSIM_VARIANT'));
const SEEDS = setting('BOUNDSIM_SEEDS') === undefined ? undefined : Number(setting('BOUNDSIM_SEEDS'));
const FROM = Number(setting('BOUNDSIM_FROM') ?? 0);
const TRACE = setting('BOUNDSIM_TRACE');
/** BOUNDSIM_PLAIN=1: the tests kept failing run as plain tests, so that their failing seeds are printed. */
const PLAIN = setting('BOUNDSIM_PLAIN') !== undefined;
/** BOUNDSIM_WINDOW=<from>-<to> (simulated ms): with BOUNDSIM_TRACE, every line of the simulation's trace in that window. */
const WINDOW = setting('BOUNDSIM_WINDOW')?.split('-').map(Number);

const firstSeed = (index: number) => 500_000 + 10_000 * index;

interface Totals {
	seeds: number;
	processes: number;
	executions: number;
	rows: number;
	created: number;
	twice: number;
	stated: Record<string, number>;
	wrongPerson: number;
	planCompared: number;
	planDiffers: number;
	unsure: number;
	events: Record<string, number>;
	failures: string[];
}

const STATED: Array<[string, (outcome: Outcome) => string[]]> = [
	['after a Forget during their claims', (outcome) => outcome.twiceForgetDuring],
	['after a write slower than every wait', (outcome) => outcome.twiceSlowWrite],
	['by executions of different Match By at once', (outcome) => outcome.twiceMatchBySwitch],
	['held under one Match By, created under the other', (outcome) => outcome.twiceHeldSwitch],
	['killed at once, then the other Match By', (outcome) => outcome.twiceKilledSwitch],
	['sharing a phone, one forgotten', (outcome) => outcome.twiceSharedForget],
];

async function runVariant(index: number, variant: Variant): Promise<Totals> {
	const totals: Totals = { seeds: 0, processes: 0, executions: 0, rows: 0, created: 0, twice: 0, stated: {}, wrongPerson: 0, planCompared: 0, planDiffers: 0, unsure: 0, events: {}, failures: [] };
	const seeds = ONE !== undefined ? [ONE] : variant.only ?? Array.from({ length: SEEDS ?? variant.seeds }, (_, at) => firstSeed(index) + FROM + at);
	const replay = (seed: number, row: string) => `replay: BOUNDSIM_VARIANT=${index} BOUNDSIM_SEED=${seed} BOUNDSIM_TRACE=${row} nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts`;
	for (const seed of seeds) {
		const simulation = new Simulation(seed, variant.knobs);
		if (TRACE) simulation.store.follow = TRACE.split(',').flatMap((name) => simulation.rowKeys(name));
		const outcome = await simulation.check();
		const list = `a list of ${simulation.store.padding} entries`;
		totals.seeds += 1;
		totals.processes += outcome.processes;
		totals.executions += outcome.executions;
		totals.rows += outcome.rows;
		totals.created += outcome.created;
		totals.twice += outcome.twice.length;
		for (const [name, rows] of STATED) totals.stated[name] = (totals.stated[name] ?? 0) + rows(outcome).length;
		totals.wrongPerson += outcome.wrongPerson.length;
		totals.planCompared += outcome.planCompared;
		totals.planDiffers += outcome.planDiffers.length;
		totals.unsure += outcome.refusals.unsure ?? 0;
		for (const [name, count] of Object.entries(outcome.events)) totals.events[name] = (totals.events[name] ?? 0) + count;
		if (outcome.twice.length > 0) totals.failures.push(`seed ${seed}, ${list}: created twice ${outcome.twice.join(', ')} — ${replay(seed, outcome.twice[0])}`);
		if (outcome.wrongPerson.length > 0) totals.failures.push(`seed ${seed}, ${list}: another person's candidate updated by ${outcome.wrongPerson.join(', ')} — ${replay(seed, outcome.wrongPerson[0])}`);
		if (outcome.planDiffers.length > 0)
			totals.failures.push(`seed ${seed}, ${list}: ${outcome.planDiffers.slice(0, 3).map((diff) => `${diff.row}: ${diff.exec} planned ${diff.planned}, did ${diff.did}`).join('; ')} — ${replay(seed, outcome.planDiffers[0].row)}`);
		if (TRACE) {
			for (const name of TRACE.split(',')) print(`--- ${name}\n${outcome.log(name)}`);
			const keys = TRACE.split(',').flatMap((name) => simulation.rowKeys(name));
			const inWindow = (line: string) => WINDOW !== undefined && Number(line.split(' ')[0]) >= WINDOW[0] && Number(line.split(' ')[0]) <= WINDOW[1];
			print(simulation.world.trace.filter((line) => inWindow(line) || keys.some((key) => line.includes(key.slice(0, 6))) || line.includes('[')).join('\n'));
		}
	}
	return totals;
}

const summary = (variant: Variant, totals: Totals) =>
	`${variant.name}: ${totals.seeds} seeds, ${totals.processes} processes, ${totals.executions} executions, ${totals.rows} rows, ${totals.created} created; ` +
	`created twice ${totals.twice} (stated: ${JSON.stringify(totals.stated)}); another person's candidate updated ${totals.wrongPerson}; ` +
	`dry runs: ${totals.planCompared} rows compared, ${totals.planDiffers} planned otherwise; refused unsure ${totals.unsure}; events ${JSON.stringify(totals.events)}`;

const check = (index: number, variant: Variant) => async () => {
	const totals = await runVariant(index, variant);
	print(summary(variant, totals));
	expect(totals.failures.slice(0, Number(setting('BOUNDSIM_SHOW') ?? 10))).toEqual([]);
};

/** Per test (the longest, 300 seeds, took about 12 s alone on a 2-core machine; the whole file about 100 s). */
const TIMEOUT = 120_000;

const variants: Variant[] = [
	/*
	 * 0. Promise: around the sizes where the wait jumps (waitFloorMs: 1 s up to 133,333 entries, then 2 × 1.5 × 5 ms per 1,000;
	 * trustMs: 1 s up to 200,000), nothing is created twice outside the stated cases and every dry run plans what its
	 * execution does. Expected: holds. FAILS: seed 500159 (234,608 entries) creates r2 twice in the first wave (p1.e1 at 38.7 s,
	 * p3.e10 at 50.8 s; no Forget of r2 before, no write flagged slower than every wait); seed 500182 (124,055 entries): r2
	 * planned `updated` by p0.e12's dry run, created by the run (not analysed). 2,000 seeds: 2 created twice, 1 planned
	 * otherwise (500159, 500182, 500357: 122,934 entries, r3 created twice by p0.e2 and p3.e4). Replay:
	 * BOUNDSIM_VARIANT=0 BOUNDSIM_SEED=500159 BOUNDSIM_TRACE=r2 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
	 * FIXED 2026-12-02 (ef90643: over a large list a row is won at the second check in a row, a whole wait after the first;
	 * memory/bound.ts `confirms`): these seeds and 1,500 more of variant 0 and 3,000 of the control create nothing twice.
	 */
	{ name: 'a list of 120,000–250,000 entries (around the sizes where the waits jump)', knobs: { ...BIG, entries: [120_000, 250_000] }, seeds: 300 },
	/*
	 * 1. Promise: at and beyond the 4-s cap (trust capped at 800,000 entries, the wait at 8 s from 533,334), calls of up to
	 * 1.5M × 4.5 µs ≈ 6.8 s are never trusted (rows `unsure`), and nothing is created twice. Expected: holds, with more
	 * `unsure` refusals.
	 */
	{ name: 'a list of 600,000–1,500,000 entries (at and beyond the 4-s cap)', knobs: { ...BIG, entries: [600_000, 1_500_000] }, seeds: 200 },
	/* 2. Promise: as above with 4 processes and 3–6 executions each on the twelfth scenario's lists. Expected: holds. */
	{ name: '4 processes, 3–6 executions each, a list of 100,000–600,000 entries', knobs: { ...BIG, processes: [4, 4], executions: [3, 6] }, seeds: 150 },
	/*
	 * 3. Promise: stalls (1.5–4.5 s between read and write, added to the list's own time) are either seen by their process
	 * (rows `unsure`) or fall in "after a write slower than every wait". Expected: holds outside that stated case.
	 */
	{ name: 'stalls in 5 % of store calls, a list of 100,000–600,000 entries', knobs: { ...BIG, stall: 0.05 }, seeds: 200 },
	/* 4. Promise: the wall clock's jumps (forward 5–150 s, back 1–150 s) change no bound: they are read from the time that passes. Expected: holds. */
	{ name: 'a wall clock that jumps, a list of 100,000–600,000 entries', knobs: { ...BIG, jump: 1 }, seeds: 200 },
	/* 5. Promise: a service outage (1–6 s without answers) with the list's long calls. Expected: holds. */
	{ name: 'a service outage, a list of 100,000–600,000 entries', knobs: { ...BIG, outage: 1 }, seeds: 200 },
	/* 6. Promise: store calls that fail, or fail after their write (a failed count counts as the largest list: waits of 8 s). Expected: holds. */
	{ name: 'store calls that fail or fail after their write, a list of 100,000–600,000 entries', knobs: { ...BIG, fail: 0.03, commitFail: 0.03 }, seeds: 200 },
	/*
	 * 7. Promise: Forget All Rows in every seed over a large list: what it breaks is the stated limit (a row created twice
	 * "after a Forget during their claims" or "after a write slower than every wait"), nothing else. Expected: holds.
	 * FAILS, though not by the Forget All Rows: seed 570244 (970,525 entries) creates r14 and r5 twice at 30–31 s, the Forget All
	 * Rows comes at 71.9 s. 1,500 seeds: 13 rows created twice in 3 seeds, each before the Forget All Rows (570244; 570662,
	 * 157,523 entries; 571150, 854,490 entries, 10 rows: three processes claim and race r8 within 6–19 s, calls of 3.5–3.7 s, two
	 * checks at 27.9 s and 30.0 s both find their own token after the races' writes dropped each other's). Replay:
	 * BOUNDSIM_VARIANT=7 BOUNDSIM_SEED=571150 BOUNDSIM_TRACE=r8 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
	 * FIXED 2026-12-02 (ef90643: over a large list a row is won at the second check in a row, a whole wait after the first;
	 * memory/bound.ts `confirms`): these seeds and 1,500 more of variant 0 and 3,000 of the control create nothing twice.
	 */
	{ name: 'Forget All Rows in every seed, a list of 100,000–1,000,000 entries', knobs: { ...BIG, forgetAll: 1, entries: [100_000, 1_000_000] }, seeds: 250 },
	/*
	 * 8. Promise: Match By switched at a moment (each row kept under both keys) with the list's waits. Expected: holds outside
	 * the Match By cases stated. FAILS: seed 580032 (416,914 entries) creates r9 twice outside every stated case; seed 580151
	 * (283,453 entries): r12 planned `unchanged` by the final run's dry run, created by it (not analysed). Replay:
	 * BOUNDSIM_VARIANT=8 BOUNDSIM_SEED=580032 BOUNDSIM_TRACE=r9 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
	 * FIXED 2026-12-02 (ef90643: over a large list a row is won at the second check in a row, a whole wait after the first;
	 * memory/bound.ts `confirms`): these seeds and 1,500 more of variant 0 and 3,000 of the control create nothing twice.
	 */
	{ name: 'Match By switched, a list of 100,000–600,000 entries', knobs: { ...BIG, switchMatchBy: 0.8 }, seeds: 200 },
	/* 9. Promise: manual runs (they load the saved copy, n8n never saves it) in most executions. Expected: holds. */
	{ name: 'manual runs in 60 % of executions, a list of 100,000–600,000 entries', knobs: { ...BIG, manual: 0.6 }, seeds: 200 },
	/* 10. Promise: all of the above at once over lists up to 1,000,000 entries. Expected: holds outside the stated cases. */
	{
		name: 'everything at once, 3–4 processes, a list of 100,000–1,000,000 entries',
		knobs: { ...BIG, processes: [3, 4], executions: [2, 4], entries: [100_000, 1_000_000], stall: 0.03, jump: 0.5, outage: 0.5, fail: 0.02, commitFail: 0.02, forgetAll: 0.8, switchMatchBy: 0.5, manual: 0.3 },
		seeds: 200,
	},
	/*
	 * 11. Control: the twelfth scenario's own knobs on this file's seeds (its own seeds 120,000–124,000 gave 0 created twice
	 * outside the stated cases and 0 planned otherwise, docs/sync-memory.md). Expected: holds. Holds on seeds 610,000–611,400;
	 * 3,000 seeds gave 14 rows created twice in 4 seeds (next test).
	 */
	{ name: 'control: the twelfth scenario as it is (a list of 100,000–600,000 entries), other seeds', knobs: BIG, seeds: 300 },
	/*
	 * 12. The control's seeds 610,000–613,000 that created rows twice outside the stated cases: the twelfth scenario's own
	 * knobs, so the committed scenario has the defect, not only the variants. Expected (docs: 0 in 4,000 seeds): none. FAILS:
	 * 611520 (497,978 entries: r7, r9), 611776 (585,577 entries: 9 rows), 612372 (432,353: r0, r2), 612706 (363,101: r0). In
	 * 611776, r4: p1 and p2 race it at 5.5–8.4 s (p2's write, read before p1's, drops p1's race and token), both checks
	 * (15.6 s, 16.4 s, after waits of 8 s) find their own token and claim, p2.e10 creates r4 at 18.8 s, p1.e1 at 21.2 s; no
	 * Forget before, no write flagged slower than every wait (the Forget All Rows comes at 118 s). Replay:
	 * BOUNDSIM_VARIANT=12 BOUNDSIM_SEED=611776 BOUNDSIM_TRACE=r4 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
	 * FIXED 2026-12-02 (ef90643: over a large list a row is won at the second check in a row, a whole wait after the first;
	 * memory/bound.ts `confirms`): these seeds and 1,500 more of variant 0 and 3,000 of the control create nothing twice.
	 */
	{ name: 'the twelfth scenario as it is, the seeds the control found', knobs: BIG, seeds: 4, only: [611520, 611776, 612372, 612706] },
	/*
	 * 13. Found on the code with the second check (ef90643), 3,000 seeds of the control (BOUNDSIM_VARIANT=11
	 * BOUNDSIM_SEEDS=3000): nothing created twice, but two dry runs planned otherwise than their execution did: seed 610378
	 * (146,420 entries), r14: the final run's dry run planned `updated`, the run created it; seed 611013 (168,916 entries),
	 * r0 and r3: p0.e9's dry run planned `updated` and `unchanged`, the run created them. Replay:
	 * BOUNDSIM_VARIANT=13 BOUNDSIM_SEED=610378 BOUNDSIM_TRACE=r14 nice -n 19 npx jest --runInBand test/unit/boundSimBreak.test.ts
	 * ANALYSED 2026-12-02: the stated Forget All Rows while executions run, which the judge did not classify. A Forget All Rows by
	 * hand (n8n saves nothing of it) at 81 s, while p2.e9, a sync that had loaded the static data with r14's slug, ran; p2.e9
	 * saved it again at 112 s. The plan read that slug; the run asked the row's claim, found it gone and created the row, as
	 * after a Forget (the candidate was deleted). The dry run cannot read n8n's store without writing. The judge now excuses a
	 * plan whose static data an execution that ran during the row's last Forget saved again (test/sim/memory.ts `savedBack`);
	 * docs/create-or-update.md states it with the Dry Run's other limit.
	 */
	{ name: 'the control with the second check, the seeds whose dry run planned otherwise', knobs: BIG, seeds: 2, only: [610378, 611013] },
];

describe('the bound grows with the list: variants of the whole-memory simulation', () => {
	for (const [index, variant] of variants.entries()) {
		if (ONLY !== undefined && ONLY !== index) continue;
		(variant.failing && !PLAIN ? it.failing : it)(`${index}. ${variant.name}: nothing created twice outside the stated cases, each dry run plans what its execution does`, check(index, variant), TIMEOUT);
	}
});
