/**
 * A review of the whole-memory simulation's judge (test/sim/memory.ts `Simulation.check`, `refused`, `stored`, `syncRow`)
 * and of the bounds test/unit/memorySimulation.test.ts asserts on it: where a real defect of the memory (a row created
 * twice, a row lost, a false `unchanged`) passes unnoticed, or where an exemption hides more than the case it states.
 *
 * Each finding is shown on a scripted seed: a `Simulation` whose `play` is replaced by a short script (the same
 * machinery: simulated processes with their own registries, `execution` with the node's `throughMemory`, the model of
 * n8n's store, the service, and `check`'s judge), with a deliberate defect injected into the memory's behaviour
 * (`MemoryRows.prototype` spied on: `admit`, `recall`, `held`, `unclaim`) where the script needs one. Each break test
 * asserted what a correct judge must report and failed on the judge as it was (9 of 16, 2026-12-01); each has a control
 * or pin that shows the same machinery is judged as expected where the exemption does not apply. The judge's fixes are in
 * test/sim/memory.ts (docs/sync-memory.md, "The judge, reviewed"); every test here passes on it.
 *
 * Run: npx jest --runInBand test/unit/memoryJudgeBreak.test.ts
 */
import type { Knobs, Outcome } from '../sim/memory';
import { contentOf, Simulation } from '../sim/memory';

import type { Row } from '../helpers/judgeScript';
import { defect, force, QUIET, rowsJudged, Scripted, useDefects } from '../helpers/judgeScript';

useDefects();


/** A row created in p0, p0 killed after its execution ended, the row forgotten, refused in the final run (`refuse`: by the injected defect). */
async function killedLongAfter(kill: boolean): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('worker')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		if (kill) p0.kill();
		await inside.wait(5_000);
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		defect.admit = (key) => (r0.keys.includes(key) ? 'known' : undefined);
		return await self.final(inside, p1);
	});
	return { sim, outcome: await sim.check() };
}

/** r0 created in p0 (a Forget of it while that execution works on it: `forgetEarly`), then, minutes after, a final run in a fresh worker whose memory (the injected defect) contests and wins the row although its claim is there. */
async function createdAgainLate(forgetEarly: boolean): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		const first = self.execution(p0, 'sync', [r0]);
		if (forgetEarly) {
			await inside.wait(1);
			await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		}
		await first;
		// A later sync makes sure the row has its candidate (the early Forget may have let the first one go).
		await inside.wait(60_000);
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(60_000);
		const worker = inside.process('worker');
		defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		return await self.final(inside, worker);
	});
	return { sim, outcome: await sim.check() };
}

/**
 * A Forget of r0 while p0 sends its creation, which the service refuses (no candidate from it); a minute after, p2 (no
 * execution during the Forget) creates r0; minutes after, a fresh worker whose memory (the injected defect) contests and
 * wins the row although its claim is there creates it again. Neither creation comes from an execution (or its process)
 * that worked on the row during the Forget.
 */
async function createdTwiceAfterAForget(): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted({ ...QUIET, processes: [3, 3] }, async (self, inside) => {
		const [p0, p1, p2] = [inside.process('main'), inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		force(self, 'r0', 'refused');
		const first = self.execution(p0, 'sync', [r0]);
		await inside.wait(1);
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await first;
		await inside.wait(60_000);
		await self.execution(p2, 'sync', [r0]);
		await inside.wait(60_000);
		const worker = inside.process('worker');
		defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		return await self.final(inside, worker);
	});
	return { sim, outcome: await sim.check() };
}

/** r0 sent by e-mail in p0 without an answer (stored), then, after Match By was switched, sent again by phone in the same process (`same`) or another (the stated case). */
async function heldThenSwitched(sameProcess: boolean): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted({ ...QUIET, switchMatchBy: 0, correct: 0 }, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'phone', at: 30_000 };
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		force(self, 'r0', 'unknown, stored');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(60_000);
		// The defect: this process forgets that it holds the row under its other key (no `held`), and contests it afresh.
		defect.held = (key) => (r0.keys.includes(key) ? false : undefined);
		defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		await self.execution(sameProcess ? p0 : p1, 'sync', [r0]);
		delete defect.held;
		delete defect.admit;
		return await self.final(inside, p1, []);
	});
	return { sim, outcome: await sim.check() };
}

/** Matched by e-mail throughout: r0 created in p0; the final run (a fresh worker) refuses r1 "may already exist" (the injected defect). `share`: r1 has r0's phone (two people, one phone). */
async function otherPersonRefused(share: boolean): Promise<{ sim: Scripted; outcome: Outcome }> {
	const knobs: Knobs = { ...QUIET, rows: 2, switchMatchBy: 0, correct: 0, ...(share ? { sharePhone: 1 } : {}) };
	const sim = new Scripted(knobs, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'email', at: Infinity };
		const p0 = inside.process('main');
		const [r0, r1] = [self.row('r0'), self.row('r1')];
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(60_000);
		defect.admit = (key) => (key === r1.keys[1] ? 'known' : undefined);
		return await self.final(inside, inside.process('worker'));
	});
	return { sim, outcome: await sim.check() };
}

/** Matched by e-mail throughout: r0 created in p0, then its e-mail corrected in the sheet (r0.1: another person by e-mail, r0's phone); the final run refuses r0.1 "may already exist" (the injected defect). */
async function correctedRefused(): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted({ ...QUIET, switchMatchBy: 0, correct: 0 }, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'email', at: Infinity };
		const p0 = inside.process('main');
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(10_000);
		// As `corrections` does it (test/sim/memory.ts): the corrected row is a row of its own, both marked `corrected`.
		const RowLog = r0.constructor as new (name: string, phone?: string, email?: string) => Row;
		const fixed = new RowLog('r0.1', r0.phone, 'r0.1@example.com');
		fixed.version = r0.version;
		[r0.corrected, fixed.corrected] = [true, true];
		self.rows.push(fixed);
		self.sheet = self.sheet.map((one) => (one === r0 ? fixed : one));
		await inside.wait(60_000);
		defect.admit = (key) => (key === fixed.keys[1] ? 'known' : undefined);
		return await self.final(inside, inside.process('worker'));
	});
	return { sim, outcome: await sim.check() };
}

/**
 * r0 created in p0 with r0@v0, then changed in the sheet (r0@v1), and the final run's answer for it. `no slug`: a fresh
 * worker answers it `same` (the injected defect); `slug`: the final run in p0 recalls its slug with the content print of
 * the sheet's content (the injected defect: a print kept for a content never sent).
 */
async function changedRow(stale: 'slug' | 'no slug'): Promise<{ outcome: Outcome; final: string | undefined }> {
	let final: Map<Row, string> | undefined;
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('worker')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		r0.version += 1;
		await inside.wait(60_000);
		if (stale === 'slug') defect.recall = (key, remembered) => (key === r0.key && remembered ? { ...remembered, p: contentOf(r0) } : remembered);
		else defect.admit = (key, content) => (key === r0.key && content === contentOf(r0) ? 'same' : undefined);
		final = await self.final(inside, stale === 'slug' ? p0 : p1);
		return final;
	});
	const outcome = await sim.check();
	return { outcome, final: final?.get(sim.row('r0')) };
}

/** r0 created in p0, then the user deletes its candidate and forgets it (p1); a sync in a fresh worker answers `same` (the injected defect, `after`), and the final run (no defect) creates it. */
async function sameAfterForget(after: boolean): Promise<{ sim: Scripted; outcome: Outcome }> {
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		if (after) await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		else r0.version += 1;
		await inside.wait(5_000);
		defect.admit = (key) => (key === r0.key ? 'same' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		delete defect.admit;
		await inside.wait(60_000);
		return await self.final(inside, inside.process('worker'));
	});
	return { sim, outcome: await sim.check() };
}

/** The first scenario of test/unit/memorySimulation.test.ts (its `BASE`: no fault but answers lost and creations refused now and then). */
const FIRST: Knobs = { processes: [2, 4], worker: 0.4, executions: [1, 3], rows: 16, noAnswer: 0.03, refused: 0.03, changed: 0.3, manual: 0.1 };

/** What test/unit/memorySimulation.test.ts asserts on the first scenario's seeds (its `runScenario` and `check`): the seeds that fail it, and why. */
function firstScenarioVerdict(outcomes: Outcome[]): string[] {
	const failures: string[] = [];
	let rows = 0;
	let refusedWrongly = 0;
	let falseSame = 0;
	let falseReason = 0;
	for (const outcome of outcomes) {
		rows += outcome.rows;
		if (outcome.twice.length > 0) failures.push(`created twice: ${outcome.twice.join(', ')}`);
		if (outcome.wrongPerson.length > 0) failures.push(`another person's candidate: ${outcome.wrongPerson.join(', ')}`);
		if (outcome.planDiffers.length > 0) failures.push(`planned otherwise: ${outcome.planDiffers.map((diff) => diff.row).join(', ')}`);
		refusedWrongly += outcome.wrong.filter((wrong) => wrong.property === 2).length;
		falseSame += outcome.wrong.filter((wrong) => wrong.why === 'same').length;
		falseReason += outcome.wrong.filter((wrong) => wrong.property === 3 && wrong.why !== 'same').length;
	}
	if (refusedWrongly > 0) failures.push(`refused wrongly: ${refusedWrongly}`);
	if (falseSame > Math.ceil(rows / 500)) failures.push(`unchanged by a content never sent: ${falseSame}`);
	if (falseReason > Math.ceil(rows / 50)) failures.push(`refused for a false reason or lost: ${falseReason}`);
	return failures;
}

async function firstScenario(seeds: number, withDefect: boolean): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	for (let seed = 10_000; seed < 10_000 + seeds; seed++) {
		const sim = new Simulation(seed, FIRST);
		for (const name of Object.keys(defect) as Array<keyof typeof defect>) delete defect[name];
		if (withDefect) defect.unclaim = () => true;
		outcomes.push(await sim.check());
	}
	return outcomes;
}

describe('1. "a claim of a killed process": the exemption takes in every row a killed process ever touched', () => {
	it('control: a row forgotten, then refused "may already exist" by the final run with nothing behind it, is reported (property 2)', async () => {
		const { outcome } = await killedLongAfter(false);
		expect(rowsJudged(outcome)).toEqual(['r0: property 2, known']);
		expect(outcome.heldAtEnd).toBe(0);
	});

	/**
	 * BREAK (fails). p0 created r0 and its execution ended; 5 s later p0 was killed (holding no claim of r0: it had created
	 * it); then the user deleted r0's candidate and forgot it; the final run, minutes later, refuses r0 "may already exist"
	 * (the injected defect: nothing is behind the refusal, the row is lost). The judge reports nothing and counts r0 as
	 * "held at the end (true)" and as a claim of a killed process.
	 * Cause: test/sim/memory.ts:407 `killedClaimant` is true for any execution that touched the row whose process is dead
	 * now (`exec.proc.dead`), whether it died while working on the row or long after its execution ended, and before or
	 * after a Forget that removed every claim; refused() (:591) then returns before properties 2 and 3, and check()
	 * (:1100) counts any final outcome of a row in `strandedByKill` as held (true), not only `held`/`known`.
	 * Fix: count only executions that died while running (`exec.died !== undefined`, or `proc.diedAt` before `exec.end`)
	 * and that touched the row since its last forget (`exec.start >= row.lastForget`); at the end take only a `held` or
	 * `known` outcome of such a row as held.
	 */
	it('a process killed after its execution ended, and the row forgotten since: a false refusal at the end must still be reported', async () => {
		const { outcome } = await killedLongAfter(true);
		// The same refusal as the control's, with the same sends and forget: only the later kill of p0 differs.
		expect(rowsJudged(outcome)).toEqual(['r0: property 2, known']);
		expect(outcome.heldAtEnd).toBe(0);
	});
});

describe('2. "a Forget during the claim": the exemption of a row created twice has no end in time', () => {
	it('control: the final run creating r0 again while its candidate lives is counted created twice', async () => {
		const { outcome } = await createdAgainLate(false);
		expect(outcome.twice).toEqual(['r0']);
	});

	/**
	 * PIN. A Forget of r0 ran while p0's first execution worked on it and created it; minutes after, the final run in a fresh
	 * worker creates it again (here by the injected defect). The judge cannot tell this from the stated case, "that execution
	 * and a later one both create it" (docs/sync-memory.md "Forget during a claim"): the Forget takes off what p0's
	 * creation wrote, so a later execution, however late, finds nothing (seed 40151 of "Forget and Adopt": created again 170 s
	 * after). A time bound was tried and dropped for that reason (2026-12-01: 1 to 9 rows per scenario at 300 seeds moved
	 * out of the stated case with a bound of 5 s to 2 minutes after p0's execution, each the stated case).
	 */
	it('pin: a double of the creation made during that Forget and a later one is the stated case, however late', async () => {
		const { outcome } = await createdAgainLate(true);
		expect(outcome.twiceForgetDuring).toEqual(['r0']);
		expect(outcome.twice).toEqual([]);
	});

	/**
	 * BREAK (failed on the judge before 2026-12-01). A Forget ran while p0 worked on r0 (its creation refused by the service),
	 * then two creations came from processes that had no execution on the row during the Forget. The judge filed the double
	 * under "after a Forget during the claims": `forgetDuring` asked whether any forget of the row ever overlapped any
	 * execution. Fixed: each double is judged on its own, exempt only when one of its creations was sent by a process one of
	 * whose executions worked on the row during a Forget of it, or was in flight when the Forget began.
	 */
	it('a double of two creations from processes that had no execution on the row during the Forget counts as created twice', async () => {
		const { outcome } = await createdTwiceAfterAForget();
		expect(outcome.twiceForgetDuring).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});
});

describe('3. "held under one Match By, then created under the other elsewhere": the exemption does not ask "elsewhere"', () => {
	it('pin: sent again by phone in another process after its creation by e-mail went without an answer is the stated case', async () => {
		const { outcome } = await heldThenSwitched(false);
		expect(outcome.twiceHeldSwitch).toEqual(['r0']);
		expect(outcome.twice).toEqual([]);
	});

	/**
	 * BREAK (fails). p0 sent r0's creation matched by e-mail and got no answer (the service stored it); after Match By was
	 * switched, p0 itself (which holds the row under its phone key: `holdUnder`, docs/sync-memory.md "A row's life") sends
	 * it again by phone (the injected defect: the hold forgotten) and creates it twice. The stated case (Outcome
	 * `twiceHeldSwitch`, docs/create-or-update.md) is another process or a restart; the judge exempts this one too.
	 * Cause: test/sim/memory.ts:1119-1122 `heldSwitch` compares the two sends' Match By only, never their processes.
	 * Fix: require `later.exec.proc !== held.exec.proc` (a restart is a new process in the simulation).
	 */
	it('sent again under the other key by the very process that holds it: must count as created twice', async () => {
		const { outcome } = await heldThenSwitched(true);
		expect(outcome.twiceHeldSwitch).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});
});

describe('4. a refusal is judged against every row sharing an e-mail or a phone, whatever the Match By', () => {
	it('control: matched by e-mail, r1 never sent and refused "may already exist" by the final run is reported (property 2)', async () => {
		const { outcome } = await otherPersonRefused(false);
		expect(rowsJudged(outcome)).toEqual(['r1: property 2, known']);
	});

	/**
	 * BREAK (fails). Matched by e-mail, r0 and r1 are two people who share a phone (the judge's own `identity`). Only r0 was
	 * created; the final run refuses r1, never sent, "may already exist" (the injected defect). r1 ends without a candidate,
	 * yet the judge reports nothing and counts it "held at the end (true)".
	 * Cause: test/sim/memory.ts:448-449 `near` joins every row sharing the e-mail or the phone under any Match By, so
	 * refused() (:595, :603) finds r0's send and r0's live candidate and takes them as r1's; check() (:1100) then counts the
	 * outcome `known` as held (true).
	 * Fix: judge "may already exist" and property 2 against the row's identity under the execution's Match By
	 * (`identity(exec.matchBy, row)`, plus only the holds recorded under the row's own other key), keeping `near` for `held`.
	 */
	it('two people sharing a phone, matched by e-mail: the one never sent, refused at the end, must be reported', async () => {
		const { outcome } = await otherPersonRefused(true);
		expect(rowsJudged(outcome)).toEqual(['r1: property 2, known']);
		expect(outcome.heldAtEnd).toBe(0);
	});

	/**
	 * BREAK (fails). The same through the tenth scenario's corrections: matched by e-mail, r0's e-mail is corrected (r0.1:
	 * another person, the node's rule and the judge's `identity`), r0.1 keeps r0's phone. The final run refuses r0.1 "may
	 * already exist" (the injected defect); it never gets a candidate, and the judge counts it held (true).
	 * Cause: as above, `near` (:449) widened by `row.corrected` to every row sharing either identifier.
	 */
	it('an e-mail corrected, matched by e-mail: the new person refused at the end must be reported', async () => {
		const { outcome } = await correctedRefused();
		expect(rowsJudged(outcome)).toEqual(['r0.1: property 2, known']);
		expect(outcome.heldAtEnd).toBe(0);
	});
});

describe('5. `unchanged` with the row\'s slug is never judged', () => {
	it('control: `same` (unchanged without the slug) with a content that never reached the service is reported', async () => {
		const { outcome } = await changedRow('no slug');
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});

	/**
	 * BREAK (fails). r0 was created with r0@v0, then changed in the sheet (r0@v1). The final run in the process that created
	 * it recalls the slug with the content print of the sheet's content (the injected defect: a print kept for a content
	 * never sent) and answers `unchanged`: the change never reaches the service. The judge reports nothing.
	 * Cause: test/sim/memory.ts:626-629, `syncRow`'s `unchanged` step, checks nothing (the `same` step at :633 does), and
	 * check() skips every row with a live candidate (:1096) without asking what it holds.
	 * Fix: keep on each candidate the content it last received (set in `stored()` and the update step, :659) and push a
	 * property 3 `same` wrong when `unchanged` answers a content that the slug's candidate does not hold.
	 */
	it('a changed row answered `unchanged` through its slug must be reported', async () => {
		const { outcome, final } = await changedRow('slug');
		expect(final).toBe('unchanged');
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});
});

describe('6. `same` is judged against every content that ever reached the service, deleted candidates included', () => {
	it('control: `same` for a content never sent is reported', async () => {
		const { outcome } = await sameAfterForget(false);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});

	/**
	 * BREAK (fails). r0 was created with r0@v0; the user deleted its candidate and forgot the row; a sync then answers r0
	 * `unchanged` without its slug (`same`: the injected defect, as a content pair brought back by a lost write would, the
	 * residual of docs/sync-memory.md "Reading without writing"). Nothing exists at the service, yet the judge reports
	 * nothing (the final run creates the row). This is the very count npm test bounds in its first scenario (falseSame).
	 * Cause: test/sim/memory.ts:633 tests `row.reached.has(content)`, and `reached` (:555, :659) is never emptied when a
	 * candidate is deleted (Forget, Forget All Rows).
	 * Fix: test the content against the row identity's live candidates (the content each holds, as in 5), or empty
	 * `reached` where the candidates are deleted.
	 */
	it('`same` after the user deleted the candidate and forgot the row must be reported', async () => {
		const { outcome } = await sameAfterForget(true);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});
});

describe('7. npm test asserts nothing on rows lost at the end or refused for a false reason (property 3)', () => {
	/**
	 * BREAK (fails). The first scenario's knobs and seeds 10000-10039 (memorySimulation.test.ts seeds them so), with a
	 * defect injected: `unclaim` does nothing, so a row whose creation the service refused keeps its claim and is refused
	 * "may already exist" for good. The rows left without a candidate double (15 → 30 in 640), the judge records 28 false
	 * "may already exist" (5 without the defect), and every bound npm test asserts still passes.
	 * Cause: test/unit/memorySimulation.test.ts:139 counts property 3 (`falseReason`, the final check's `lost`) and never
	 * asserts it; :185 asserts property 2 only, :190 only the `same` answers; no scenario fails on a row lost. The stated
	 * limit "Forget, then created again elsewhere" (docs/sync-memory.md) is not encoded in the judge at all: it is this
	 * absence of a bound, which hides every lost row, not only that limit's.
	 * Fix: bound property 3 in the first scenario as property 2 and `same` are bounded (40 seeds give 5 in 640 rows now:
	 * e.g. at most one in 100 rows), and fail every scenario on a row whose final answer is `lost` outside a stated case
	 * recognised by the judge (the stale slug after a Forget and a creation elsewhere, checked from the sends).
	 */
	it('a defect that leaves every service-refused row unclaimed for good must fail the first scenario', async () => {
		const clean = await firstScenario(40, false);
		const broken = await firstScenario(40, true);
		const withoutCandidate = (outcomes: Outcome[]) => outcomes.reduce((sum, outcome) => sum + outcome.rows - outcome.created, 0);
		const falseKnown = (outcomes: Outcome[]) => outcomes.flatMap((outcome) => outcome.wrong).filter((wrong) => wrong.property === 3 && wrong.why === 'known').length;
		// The defect is there to see: twice the rows without a candidate, five times the false "may already exist".
		expect(withoutCandidate(broken)).toBeGreaterThanOrEqual(2 * withoutCandidate(clean));
		expect(falseKnown(broken)).toBeGreaterThan(4 * falseKnown(clean));
		expect(firstScenarioVerdict(clean)).toEqual([]);
		// What npm test's bounds say of the broken memory: a correct judge fails it.
		expect(firstScenarioVerdict(broken)).not.toEqual([]);
	});

	/**
	 * PIN, on the memory as it is: seed 110001 of the eleventh scenario (Forget All Rows; seed 110009 until the journal counted
	 * the list for its waits, 2026-12-02, which moved the seeds' calls; 110030 and 110004 before). Its final run refuses r8
	 * "may already exist" with no candidate, no creation of it without an answer and nothing running: r8 is lost, with a false
	 * message. The trace (MEMSIM_SEED=110001 MEMSIM_SCENARIO=10 MEMSIM_TRACE=r8 npx jest test/unit/memorySimulation.test.ts):
	 * p1's creation was refused by the service and p1 took the row's claim and race off (read at 154.389 s, written at
	 * 154.398 s), while executions of p2, p3 and p0 asked r8 at that moment (their asks write the claim: 154.371, 154.470,
	 * 154.486 s); from then on every execution finds the claim and no creation. (At 110009 a removal of another row's marks
	 * that had read the list before the release wrote the claim back: the same residual.)
	 * That is the residual docs/sync-memory.md states ("Refused wrongly": a write that read before a release brings the
	 * released claim back); the claim is a value every process writes alike, so no process can take it off a second time
	 * without taking another's claim. The judge reports it (property 3), npm test bounds it in the first scenario (at most
	 * one row in 50) and the table counts it; not a failure of this scenario.
	 */
	it('pin: seed 110001 of "Forget All Rows": the row a write re-claimed after its release is reported, a false "may already exist"', async () => {
		const knobs: Knobs = { ...FIRST, forgetAll: 1, forget: 0.4, adopt: 0.4, stop: 0.15, kill: 0.2, later: 0.8 };
		const outcome = await new Simulation(110_001, knobs).check();
		const lost = outcome.wrong.filter((wrong) => wrong.property === 3 && wrong.exec.endsWith('(final)'));
		expect(lost.map((wrong) => `${wrong.row}: ${wrong.why}`)).toEqual(['r8: known']);
		expect(outcome.twice).toEqual([]);
	});
});

describe('8. exemption (a): a final creation the service refused or left unanswered', () => {
	/**
	 * PIN (passes): sound. The exemption keys on the outcomes `refused by the service` and `unknown`, which only the send step
	 * of `syncRow` gives (test/sim/memory.ts:645-646): a row the final run did not send (refused by the memory, answered
	 * `same`, `unchanged`, an update that failed) is judged as before. Here r0's final creation is refused by the service
	 * (not counted, an event), r1 is refused "may already exist" with nothing behind it (reported, property 2).
	 */
	it('exempts the creation the final run sent, and nothing the memory refused', async () => {
		const sim = new Scripted({ ...QUIET, rows: 2 }, async (self, inside) => {
			const worker = inside.process('worker');
			force(self, 'r0', 'refused');
			defect.admit = (key) => (key === self.row('r1').key ? 'known' : undefined);
			return await self.final(inside, worker);
		});
		const outcome = await sim.check();
		expect(rowsJudged(outcome)).toEqual(['r1: property 2, known']);
		expect(outcome.events['final creation refused or unanswered by the service']).toBe(1);
		expect(outcome.heldAtEnd).toBe(0);
	});
});
