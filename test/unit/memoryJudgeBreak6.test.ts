/**
 * A sixth review of the whole-memory simulation's judge (test/sim/memory.ts): `check()`'s `forgetExempt` clause `passedOn`,
 * its new (uncommitted) alternative for who was "deciding the row during the Forget": the releasing process itself, whose last
 * fresh claim write of the row before the release came before the Forget began, with no removal of the row's marks by it
 * since ("the process held its contest across the Forget", seed 102016 of scenario 9).
 *
 * As the reviews before: each BREAK scripts a seed (`Scripted`) where the node does something wrong, injected with `defect`
 * or a spy of its own, which a correct judge must report as the row created twice; it FAILS on the judge as it is (1 of 3 BREAKs fails). Each has
 * a control (no defect: nothing created twice) and a `cause` (the same, with the releasing process's fresh write before the
 * Forget hidden from the judge: the new alternative finds none, and the judge reports the double).
 * Findings (the judge changed during this review: `contestedAcross`, which now also asks that the process sent no creation
 * of the row between its fresh write and the Forget, and exempts a creator whose process "contested across" it):
 * 1. Found sound now: its execution, decided and answered before the Forget and ending after it, whose end takes off the
 *    claim of the row it created (a defect) — the send before the Forget excludes it (section 1);
 * 2. found sound now: a later execution of the process, begun after the Forget, that wins the row by a defect with the claim
 *    there, is refused and releases that claim (section 2);
 * 3. BREAK: a process whose fresh write before the Forget began a contest it LOST (taken: nothing to send, nothing to
 *    release) counts as contesting across the Forget; as a creator (`contestedAcross(send.exec.proc.name, send.at)`) its
 *    creation after the Forget, won by a defect with another's claim there, is counted under the stated Forget, with no
 *    release at all (section 4). The alternative should ask that the contest was still open at the Forget (the process
 *    had not lost it: no `taken`/`known` decision before `forget.at`), and, for a creator, that it won the row without
 *    finding the claim there (as `wroteFresh` asks of the creators in `passedOn`).
 * Also: `Store.claimsWritten` records nothing for the first write of an empty list (the INSERT path): a claim written
 * fresh then is missed (stricter, never laxer); each script here writes a filler row first.
 * The intended case (seed 102016 of scenario 9: an Adopt that adopted the row before the Forget, whose journal ask wrote
 * the claim fresh and released it after the Forget) is exempt, and r11 only by the new alternative (section 3).
 *
 * Run: nice -n 19 npx jest --runInBand test/unit/memoryJudgeBreak6.test.ts   (SHOW=1 prints each seed's verdict and row log)
 */
import { accountScope } from '../../nodes/Recruiting/memory/keys';
import { Contest } from '../../nodes/Recruiting/memory/contest';
import { Journal } from '../../nodes/Recruiting/memory/journal';
import type { Knobs, Outcome } from '../sim/memory';
import { CREDENTIALS, Simulation } from '../sim/memory';
import { print, setting as hostSetting } from '../sim/host';
import type { Proc, Row } from '../helpers/judgeScript';
import { defect, force, QUIET, Scripted, useDefects } from '../helpers/judgeScript';

const setting = hostSetting as (name: string) => string | undefined;

useDefects();

/** SHOW=1: the verdict, the claims written and removed, and r0's log. */
function show(sim: Simulation, outcome: Outcome, name = 'r0'): Outcome {
	if (!setting('SHOW')) return outcome;
	const marks = (list: Array<{ value: string; who: string; at: number }>) => list.map(({ value, who, at }) => `${who}@${at.toFixed(1)} ${value.slice(0, 10)}`);
	print(`${JSON.stringify({ twice: outcome.twice, forget: outcome.twiceForgetDuring, written: marks(sim.store.claimsWritten), removed: marks(sim.store.claimsRemoved) })}\n${outcome.log(name)}`);
	return outcome;
}

/** The process's journal for the simulated node and account. */
const journalOf = (proc: Proc) => proc.registry.peek('workflow-1', 'node-1', accountScope(CREDENTIALS, 'credential-1'))!.journal;

/** The cause shown: once played, the judge is not told of `who`'s fresh claim writes before `before` (the new alternative finds no contest held). */
function hideWritesBefore(sim: Simulation, who: string, before: number): void {
	const kept = sim.store.claimsWritten.filter((written) => !(written.who === who && written.at < before));
	sim.store.claimsWritten.splice(0, sim.store.claimsWritten.length, ...kept);
}

/** The next real (not dry) admission of the row wins it whatever the store says, once (a defect of the node). */
function winsOnce(row: Row): void {
	defect.admit = (key, _content, plan) => {
		if (plan || !row.keys.includes(key)) return undefined;
		delete defect.admit;
		return 'create';
	};
}

type Played = { outcome: Outcome; releaser?: string; removedByA: number };

// ---------------------------------------------------------------------------------------------------------------------
// 1. The releasing process's contest was decided and used before the Forget: its execution's end releases the row.
// ---------------------------------------------------------------------------------------------------------------------

/**
 * pA syncs r0: it writes the claim fresh, wins, creates r0 (answered), and its execution goes to its end, which waits (a
 * gate: the execution runs on, r0 decided before the Forget). pF forgets r0 (pA's execution is no longer deciding it).
 * pB syncs r0 after the Forget: it writes the claim fresh, wins and creates r0; its execution ends. Then pA's end goes on:
 * with `withDefect`, its journal takes r0 as a claim won and never used (a defect: it created r0) and takes its claim and
 * race off, pB's by now. pC, a queue worker, syncs r0 right after: the claim is gone, pC writes it fresh, wins and creates r0
 * while pB's candidate lives. Nothing of pA's contest was open at the Forget: the double is the defect's.
 */
async function endReleasesAnswered(withDefect: boolean, hide = false): Promise<Played> {
	let removedByA = 0;
	let forgetAt = Infinity;
	const sim = new Scripted({ ...QUIET, processes: [4, 4], rows: 2 }, async (self, inside) => {
		const [pA, pB, pC, pF]: Proc[] = [inside.process('main'), inside.process('main'), inside.process('worker'), inside.process('main')];
		const r0 = self.row('r0');
		// r1 first, in pF: n8n's row of the list exists (a first write is an INSERT, which `claimsWritten` does not record).
		await self.execution(pF, 'sync', [self.row('r1')]);
		await inside.wait(2_000);
		let open: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const end = Journal.prototype.end;
		const spy = jest.spyOn(Journal.prototype, 'end').mockImplementation(async function (this: Journal, visit: number) {
			if (this === journalOf(pA)) {
				await gate;
				// The defect: r0, created here, taken as won and never used (nothing sent, nothing remembered).
				const row = (this as unknown as { rows: Map<string, { sent: boolean; kept: boolean }> }).rows.get(r0.key);
				if (withDefect && row) [row.sent, row.kept] = [false, false];
			}
			return await end.call(this, visit);
		});
		try {
			const first = self.execution(pA, 'sync', [r0]);
			const e1 = self.execs[self.execs.length - 1];
			while (!e1.decided.has(r0)) await inside.wait(1);
			await inside.wait(50);
			forgetAt = self.now();
			await self.execution(pF, 'forget', [r0], { concurrency: 1 });
			await inside.wait(20);
			await self.execution(pB, 'sync', [r0]);
			const removed = self.store.claimsRemoved.length;
			open();
			if (withDefect) {
				while (self.store.claimsRemoved.length === removed) await inside.wait(1);
				removedByA = self.store.claimsRemoved.slice(removed).filter(({ who }) => who === pA.name).length;
			} else await first;
			const late = self.execution(pC, 'sync', [r0]);
			await Promise.all([first, late]);
			expect(e1.end).toBeGreaterThan(forgetAt);
			return await self.final(inside, pB, []);
		} finally {
			spy.mockRestore();
		}
	});
	if (setting('SHOW')) sim.store.follow = sim.rowKeys('r0');
	const played = sim.check();
	const outcome = await played;
	if (hide) {
		hideWritesBefore(sim, 'p0', forgetAt);
		return { outcome: show(sim, await rejudge(sim)), removedByA };
	}
	return { outcome: show(sim, outcome), removedByA };
}

/**
 * The judge asked again over the same seed's records (`check` runs the seed: here its classification is wanted again, once a
 * record was hidden). The simulation's `check` plays and judges in one; a second `check` would play again, so the seed is
 * judged again through a copy whose `play` returns the final run's outcome already played.
 */
async function rejudge(sim: Simulation): Promise<Outcome> {
	const finalOutcomes = new Map<Simulation['rows'][number], string>();
	(sim as unknown as { play: () => Promise<unknown> }).play = async () => finalOutcomes;
	// Nothing is left in the sheet to judge as lost (the final run of these scripts takes no row).
	const sheet = sim.sheet;
	sim.sheet = [];
	try {
		return await sim.check();
	} finally {
		sim.sheet = sheet;
	}
}

describe('the judge, reviewed a sixth time: a contest "held across the Forget" that was decided and used before it (passedOn)', () => {
	it('control: pA\'s end after the Forget releases nothing (r0 created there): pC finds pB\'s claim, nothing created twice', async () => {
		const { outcome } = await endReleasesAnswered(false);
		expect(outcome.twice).toEqual([]);
		expect(outcome.twiceForgetDuring).toEqual([]);
	});

	it('BREAK: pA\'s end takes off the claim of r0, which pA created and was answered before the Forget, by a defect: created twice', async () => {
		const { outcome, removedByA } = await endReleasesAnswered(true);
		expect(removedByA).toBe(2);
		expect(outcome.twice).toEqual(['r0']);
	});

	it('cause: the same, with pA\'s fresh claim write before the Forget hidden from the judge: created twice', async () => {
		const { outcome, removedByA } = await endReleasesAnswered(true, true);
		expect(removedByA).toBe(2);
		expect(outcome.twice).toEqual(['r0']);
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// 2. A later execution of the process, begun after the Forget, wins by a defect with the claim there and releases it.
// ---------------------------------------------------------------------------------------------------------------------

/**
 * pA syncs r0: it writes the claim fresh, wins, creates r0 (answered); its execution ends. pF forgets r0, no execution
 * running. pB syncs r0: it writes the claim fresh, wins, creates r0. Then pA syncs r0 again, its learned slug lost (the
 * injected recall; with `withDefect`, the injected admit wins r0 although pB's claim is there). pA's creation is refused by
 * the service, and pA releases r0: pB's claim and race go. pC, a queue worker, syncs r0 right after: it writes the claim
 * fresh, wins and creates r0 while pB's candidate lives. pA held no contest at the Forget: the double is the defect's.
 */
async function laterWinByDefect(withDefect: boolean, hide = false): Promise<Played> {
	let forgetAt = Infinity;
	let removedByA = 0;
	const sim = new Scripted({ ...QUIET, processes: [4, 4], rows: 2 }, async (self, inside) => {
		const [pA, pB, pC, pF]: Proc[] = [inside.process('main'), inside.process('main'), inside.process('worker'), inside.process('main')];
		const r0 = self.row('r0');
		// r1 first, in pF: n8n's row of the list exists (a first write is an INSERT, which `claimsWritten` does not record).
		await self.execution(pF, 'sync', [self.row('r1')]);
		await inside.wait(2_000);
		await self.execution(pA, 'sync', [r0]);
		await inside.wait(2_000);
		forgetAt = self.now();
		await self.execution(pF, 'forget', [r0], { concurrency: 1 });
		await inside.wait(20);
		await self.execution(pB, 'sync', [r0]);
		await inside.wait(20);
		defect.recall = (key, remembered, plan) => (!plan && r0.keys.includes(key) ? undefined : remembered);
		if (withDefect) winsOnce(r0);
		force(self, 'r0', 'refused');
		const removed = self.store.claimsRemoved.length;
		const again = self.execution(pA, 'sync', [r0]);
		const e2 = self.execs[self.execs.length - 1];
		if (withDefect) while (self.store.claimsRemoved.length === removed) await inside.wait(1);
		else await again;
		while (!e2.decided.has(r0)) await inside.wait(1);
		delete defect.recall;
		removedByA = self.store.claimsRemoved.slice(removed).filter(({ who }) => who === pA.name).length;
		const late = self.execution(pC, 'sync', [r0]);
		await Promise.all([again, late]);
		expect(defect.admit).toBeUndefined();
		return await self.final(inside, pB, []);
	});
	if (setting('SHOW')) sim.store.follow = sim.rowKeys('r0');
	const outcome = await sim.check();
	if (hide) {
		hideWritesBefore(sim, 'p0', forgetAt);
		return { outcome: show(sim, await rejudge(sim)), removedByA };
	}
	return { outcome: show(sim, outcome), removedByA };
}

describe('the judge, reviewed a sixth time: a release after the Forget by a process whose contest before it was used (passedOn)', () => {
	it('control: pA\'s later sync finds pB\'s claim and is refused (no defect): nothing created twice', async () => {
		const { outcome, removedByA } = await laterWinByDefect(false);
		expect(removedByA).toBe(0);
		expect(outcome.twice).toEqual([]);
		expect(outcome.twiceForgetDuring).toEqual([]);
	});

	it('BREAK: pA\'s later sync wins r0 with pB\'s claim there by a defect, is refused and releases it: created twice', async () => {
		const { outcome, removedByA } = await laterWinByDefect(true);
		expect(removedByA).toBe(2);
		expect(outcome.twice).toEqual(['r0']);
	});

	it('cause: the same, with pA\'s fresh claim write before the Forget hidden from the judge: created twice', async () => {
		const { outcome } = await laterWinByDefect(true, true);
		expect(outcome.twice).toEqual(['r0']);
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// 3. The intended case: seed 102016 of scenario 9.
// ---------------------------------------------------------------------------------------------------------------------

/** Scenario 9 of test/unit/memorySimulation.test.ts ("e-mails and phones corrected"), copied (importing that file would run its tests). */
const BASE: Knobs = { processes: [2, 4], worker: 0.4, executions: [1, 3], rows: 16, noAnswer: 0.03, refused: 0.03, changed: 0.3, manual: 0.1 };
const CORRECTED: Knobs = { ...BASE, switchMatchBy: 0, correct: 0.35, sharePhone: 0.3, stop: 0.2, kill: 0.3, forget: 0.5, adopt: 0.5, later: 0.6 };

describe('the judge, reviewed a sixth time: the intended case (seed 102016 of scenario 9)', () => {
	it('control: p0\'s Adopt adopted r11 before the Forget, its journal ask wrote r11\'s claim fresh and p0 released it after the Forget; p1 and p2 create r11: exempt', async () => {
		const sim = new Simulation(102016, CORRECTED);
		const outcome = show(sim, await sim.check(), 'r11');
		expect(outcome.twice).toEqual([]);
		expect(outcome.twiceForgetDuring).toEqual(['r11', 'r14']);
		const r11 = sim.rows.find((row) => row.name === 'r11')!;
		const forget = r11.forgets[r11.forgets.length - 1];
		const adopt = [...r11.touches].find((exec) => exec.kind === 'adopt')!;
		// The Adopt decided r11 before the Forget (not `deciding`); its process wrote the claim fresh before it, released after.
		expect(adopt.proc.name).toBe('p0');
		expect(adopt.decided.get(r11)!).toBeLessThan(forget.at);
		const claims = sim.store.claimsWritten.filter(({ who, value }) => who === 'p0' && r11.keys.some((key) => value === `claim:${key}`));
		expect(claims[0].at).toBeLessThan(forget.at);
		expect(sim.store.claimsRemoved.some(({ who, at }) => who === 'p0' && at > forget.until!)).toBe(true);
	});

	it('cause: the same seed, p0\'s fresh claim writes before the Forget hidden from the judge: r11 created twice (r14 stays exempt by another clause)', async () => {
		const sim = new Simulation(102016, CORRECTED);
		await sim.check();
		const r11 = sim.rows.find((row) => row.name === 'r11')!;
		hideWritesBefore(sim, 'p0', r11.forgets[r11.forgets.length - 1].at);
		const outcome = show(sim, await rejudge(sim), 'r11');
		expect(outcome.twice).toContain('r11');
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// 3. `contestedAcross` for a creator: a process whose contest before the Forget was lost (decided, nothing to send or release).
// ---------------------------------------------------------------------------------------------------------------------

/**
 * pA syncs r0 before the Forget: it writes the claim fresh and loses the contest (injected: its check resolves `taken`, as
 * when another process's race is there); it sends nothing and takes nothing off, its execution ends. pF forgets r0, no
 * execution running. pB syncs r0: it writes the claim fresh, wins and creates r0. Then pA syncs r0 again, pB's claim there:
 * with `withDefect`, the injected admit wins r0 anyway and pA creates it while pB's candidate lives. pA held no contest at
 * the Forget (it had lost it): the double is the defect's, with no release at all.
 */
async function lostBeforeForget(withDefect: boolean, hide = false): Promise<Played & { admitted?: boolean }> {
	let forgetAt = Infinity;
	let admitted: boolean | undefined;
	const sim = new Scripted({ ...QUIET, processes: [3, 3], rows: 2 }, async (self, inside) => {
		// pA: a queue worker (no saved static data: it does not read r0's slug that pB's end saved).
		const [pA, pB, pF]: Proc[] = [inside.process('worker'), inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		await self.execution(pF, 'sync', [self.row('r1')]);
		await inside.wait(2_000);
		type Entry = { key: string; resolve: (standing: string) => void };
		const proto = Contest.prototype as unknown as { race: (contested: Entry[], slowBefore: number) => Promise<void> };
		const race = proto.race;
		const spy = jest.spyOn(proto, 'race').mockImplementation(async function (this: Contest, contested: Entry[], slowBefore: number) {
			const lost = this === (journalOf(pA) as Contest) ? contested.map((entry) => (entry.key === r0.key ? { ...entry, resolve: () => entry.resolve('taken') } : entry)) : contested;
			return await race.call(this, lost, slowBefore);
		});
		try {
			await self.execution(pA, 'sync', [r0]);
		} finally {
			spy.mockRestore();
		}
		await inside.wait(2_000);
		forgetAt = self.now();
		await self.execution(pF, 'forget', [r0], { concurrency: 1 });
		await inside.wait(20);
		await self.execution(pB, 'sync', [r0]);
		await inside.wait(20);
		if (withDefect) winsOnce(r0);
		await self.execution(pA, 'sync', [r0]);
		admitted = defect.admit === undefined;
		return await self.final(inside, pB, []);
	});
	if (setting('SHOW')) sim.store.follow = sim.rowKeys('r0');
	const outcome = await sim.check();
	if (hide) {
		hideWritesBefore(sim, 'p0', forgetAt);
		return { outcome: show(sim, await rejudge(sim)), removedByA: 0, admitted };
	}
	return { outcome: show(sim, outcome), removedByA: 0, admitted };
}

describe('the judge, reviewed a sixth time: a creator whose process lost its contest before the Forget (contestedAcross)', () => {
	it('control: pA\'s later sync finds pB\'s claim (no defect): nothing created twice', async () => {
		const { outcome } = await lostBeforeForget(false);
		expect(outcome.refusals.created ?? 0).toBe(0);
		expect(outcome.twice).toEqual([]);
		expect(outcome.twiceForgetDuring).toEqual([]);
	});

	it('BREAK: pA, which lost r0\'s contest before the Forget, wins r0 after it with pB\'s claim there by a defect and creates it: created twice', async () => {
		const { outcome, admitted } = await lostBeforeForget(true);
		expect(admitted).toBe(true);
		expect(outcome.twice).toEqual(['r0']);
	});

	it('cause: the same, with pA\'s fresh claim write before the Forget hidden from the judge: created twice', async () => {
		const { outcome } = await lostBeforeForget(true, true);
		expect(outcome.twice).toEqual(['r0']);
	});
});
