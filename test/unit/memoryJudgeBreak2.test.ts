/**
 * A second review of the whole-memory simulation's judge (test/sim/memory.ts `Simulation.check`, `refused`, `syncRow`'s
 * steps, `holds`, `forgotDuringSync`, `killedClaimant`), after the fixes of 7496206 (the first review:
 * test/unit/memoryJudgeBreak.test.ts). Looked for: exemptions that still let a real defect of the memory pass (a row
 * created twice, a row lost with a false message, a false `unchanged`/`same`), and places where the judge now reports what
 * is no defect.
 *
 * Each finding is shown on a scripted seed, as the first review did: a `Simulation` whose `play` is a short script (the
 * same machinery: simulated processes with their own registries, `execution` with the node's `throughMemory`, the model of
 * n8n's store, the service, and `check`'s judge), with a defect injected into the memory (`MemoryRows.prototype` spied on:
 * `admit`, `recall`, `held`) where the script needs one. A BREAK asserts what a correct judge must report and fails on the
 * judge as it was; each has a control (the same script where the exemption does not apply, judged as expected) or a pin.
 * The 11 BREAKs failed on the judge of 7496206 (2026-12-01) and pass on its fixes (docs/sync-memory.md, "The judge,
 * reviewed"): each "Cause" below names the code as it was.
 *
 * Run: npx jest --runInBand test/unit/memoryJudgeBreak2.test.ts   (SHOW=1 prints each seed's verdict and row log)
 */
import type { Knobs, Outcome } from '../sim/memory';
import { contentOf, Simulation } from '../sim/memory';
import { print, setting as hostSetting } from '../sim/host';

const setting = hostSetting as (name: string) => string | undefined;

import type { Exec, Inside } from '../helpers/judgeScript';
import { clearDefect, defect, force, QUIET, rowsJudged, Scripted, useDefects } from '../helpers/judgeScript';

useDefects();

/** Rows with an e-mail and a phone; Match By set by the script (`matchBySwitch`), the final run's the one before. */
const SWITCH: Knobs = { ...QUIET, switchMatchBy: 0, correct: 0 };

/** SHOW=1: the verdict and the rows' logs. */
function show(outcome: Outcome, ...names: string[]): Outcome {
	if (!setting('SHOW')) return outcome;
	const brief = { twice: outcome.twice, forgetDuring: outcome.twiceForgetDuring, switch: outcome.twiceMatchBySwitch, heldSwitch: outcome.twiceHeldSwitch, killedSwitch: outcome.twiceKilledSwitch, wrong: outcome.wrong.map((wrong) => `${wrong.row} ${wrong.exec}: ${wrong.why} (${wrong.note})`), heldAtEnd: outcome.heldAtEnd, stranded: outcome.strandedByKill, plan: outcome.planDiffers, events: outcome.events };
	print(`${JSON.stringify(brief)}\n${names.map((name) => `--- ${name}\n${outcome.log(name)}`).join('\n')}`);
	return outcome;
}

/** The execution `execution` just started (it is pushed before its first await). */
const latest = (sim: Simulation): Exec => sim.execs[sim.execs.length - 1];

async function until(inside: Inside, done: () => boolean): Promise<void> {
	while (!done()) await inside.wait(5);
}

/**
 * p0's e1 takes [r0, r1] one at a time: r0 created (`first: created`) or refused by the service (`refused`: its claim
 * released at once), then r1, whose creation gets no answer for a second or so; while e1 waits on r1, p1 forgets r0 (the
 * user deleted its candidate). `again`: p1 forgets r0 again once e1 ended (docs/sync-memory.md "Forget during a claim":
 * "forget it again once that sync ended"). Then a fresh worker creates r0 (nothing there: a true creation), and a later
 * execution (`creator`: of p0, or of another fresh worker) creates it again (the injected defect: nothing recalled, the
 * row admitted for creation although its claim is the worker's).
 */
async function thirdCreation(first: 'created' | 'refused', again: boolean, creator: 'p0' | 'other'): Promise<Outcome> {
	const sim = new Scripted({ ...QUIET, rows: 2 }, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const [r0, r1] = [self.row('r0'), self.row('r1')];
		if (first === 'refused') force(self, 'r0', 'refused');
		force(self, 'r1', 'unknown, stored');
		const running = self.execution(p0, 'sync', [r0, r1], { concurrency: 1, ahead: 1 });
		const e1 = latest(self);
		await until(inside, () => e1.decided.has(r0));
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await running;
		await inside.wait(5_000);
		if (again) await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		const p2 = inside.process('worker');
		await self.execution(p2, 'sync', [r0]);
		await inside.wait(5_000);
		defect.recall = (key, remembered) => (key === r0.key ? undefined : remembered);
		defect.admit = (key) => (key === r0.key ? 'create' : undefined);
		await self.execution(creator === 'p0' ? p0 : inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, p2);
	});
	return show(await sim.check(), 'r0');
}

describe('1. a double "after a Forget during the claim": the exemption is still by process and by any Forget ever', () => {
	it('control: the third creation from a process that never worked on r0 during a Forget counts as created twice', async () => {
		const outcome = await thirdCreation('refused', false, 'other');
		expect(outcome.twice).toEqual(['r0']);
		expect(outcome.twiceForgetDuring).toEqual([]);
	});

	/**
	 * BREAK (fails). p0's e1 had finished with r0 (the service refused its creation, and the claim was released at once:
	 * a later run creates the row, pinned in 4) before the Forget began; e1 merely still ran, waiting on r1. After the
	 * Forget a worker creates r0; later p0 creates it again (injected defect). The stated case (docs/sync-memory.md "Forget
	 * during a claim": "the forget removes the claim the creating execution is about to check") cannot be: p0 was about
	 * to check nothing of r0 when the Forget ran. The judge files the double under `twiceForgetDuring`.
	 * Cause: test/sim/memory.ts:1172-1173 `involved` takes any execution of the sending process whose run overlapped the
	 * Forget, whether or not it still had the row undecided (`exec.decided`).
	 * Fix: count an execution as working on the row during the Forget only while the row was undecided in it:
	 * `other.start <= (forget.until ?? Infinity) && (other.decided.get(row) ?? until(other)) >= forget.at` (with `decided`
	 * per row of the view), and keep the in-flight clause.
	 */
	it('a process whose execution had finished with the row before the Forget began: its later creation must count as created twice', async () => {
		const outcome = await thirdCreation('refused', false, 'p0');
		expect(outcome.twiceForgetDuring).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});

	/**
	 * BREAK (fails). The stated case happened (p0's e1 created r0, a Forget ran while e1 still worked), and the user then did
	 * what the docs say: "forget it again once that sync ended". After that second, clean Forget a worker creates r0 (a
	 * true creation) and p0 later creates it again (injected defect): a double that nothing stated explains. The judge
	 * still exempts it, by the first Forget.
	 * Cause: test/sim/memory.ts:1177 `forgetExempt` takes any Forget begun before the double (`row.forgets.some(forget.at <=
	 * double.at …)`), so a later Forget during which nothing ran does not end the exemption.
	 * Fix: judge each send of the double against the last Forget of the row begun before that send (`send.at`), not any
	 * earlier one; with the fix of the previous test, neither creation here is exempt.
	 */
	it('the row forgotten again once that sync ended, as the docs say: a double after that must count as created twice', async () => {
		const outcome = await thirdCreation('created', true, 'p0');
		expect(outcome.twiceForgetDuring).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});
});

/** p0's e1 creates r0 and works on r1 while p1 forgets r0 (the stated case); `again`: forgotten again once e1 ended; a worker's sync of r0 (`same` injected: `inject`), then the final run in a fresh worker. */
async function forgotDuringThenSame(inject: boolean, again: boolean): Promise<Outcome> {
	const sim = new Scripted({ ...QUIET, rows: 2 }, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const [r0, r1] = [self.row('r0'), self.row('r1')];
		force(self, 'r1', 'unknown, stored');
		const running = self.execution(p0, 'sync', [r0, r1], { concurrency: 1, ahead: 1 });
		const e1 = latest(self);
		await until(inside, () => e1.decided.has(r0));
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await running;
		await inside.wait(5_000);
		if (again) await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		if (inject) defect.admit = (key) => (key === r0.key ? 'same' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, inside.process('worker'));
	});
	return show(await sim.check(), 'r0');
}

/** p0 creates r0 and ends; the user deletes its candidate and forgets it, in p1 (and in p2 at the same moment: `twoForgets`); a worker's sync answers `same` (`inject`). */
async function sameAfterForgets(inject: boolean, twoForgets: boolean): Promise<Outcome> {
	const sim = new Scripted({ ...QUIET, processes: [3, 3] }, async (self, inside) => {
		const [p0, p1, p2] = [inside.process('main'), inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		await Promise.all([self.execution(p1, 'forget', [r0], { concurrency: 1 }), twoForgets ? self.execution(p2, 'forget', [r0], { concurrency: 1 }) : undefined]);
		await inside.wait(5_000);
		if (inject) defect.admit = (key) => (key === r0.key ? 'same' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, inside.process('worker'));
	});
	return show(await sim.check(), 'r0');
}

describe('2. `same` for a deleted candidate\'s content "after a Forget during a sync": any overlap ever, with anything', () => {
	it('control: `same` after a Forget while nothing ran is reported (property 3)', async () => {
		const outcome = await sameAfterForgets(true, false);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});

	it('pin: without the defect, the row forgotten again once the sync ended is created again, and `same` after it is true', async () => {
		const outcome = await forgotDuringThenSame(false, true);
		expect(rowsJudged(outcome)).toEqual([]);
		expect(outcome.created).toBe(2);
	});

	/**
	 * BREAK (fails). The stated write-back (a sync running during a Forget writes the content pair again at its end) was
	 * undone by the remedy the docs give: the user forgot r0 again once that sync ended (the pin above: the memory then
	 * creates it again). A `same` after that second Forget (injected) is false: no candidate, nothing written back since.
	 * The judge counts it as the stated case.
	 * Cause: test/sim/memory.ts:483-489 `forgotDuringSync` asks whether any Forget of the row ever overlapped an execution,
	 * and :672 uses it for every later `same`, whatever Forget came after.
	 * Fix: ask it of the row's last Forget only (the one whose `until` is `row.lastForget`), or of the Forgets after which
	 * no other Forget ran with nothing working on the row.
	 */
	it('`same` after the row was forgotten again once the sync ended must be reported', async () => {
		const outcome = await forgotDuringThenSame(true, true);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});

	/**
	 * BREAK (fails). No sync ran during either Forget: the user forgot r0 in two processes at the same moment (two Forget
	 * executions overlapping). A `same` after that (injected) is false, as in the control; the judge takes the other Forget
	 * execution for "a sync that works on the row" and exempts it.
	 * Cause: test/sim/memory.ts:487 counts every execution in `row.touches` but the Forget's own (`other !== forget.by`),
	 * Forget and Adopt executions included; only a sync (or final) run writes a content pair back at its end. The same
	 * filter in `involved` (:1173) lets a Forget or Adopt execution make its process "involved" in a double.
	 * Fix: count only `other.kind === 'sync' || other.kind === 'final'` there (and in `involved`).
	 */
	it('two Forget executions overlapping (no sync running): `same` after them must be reported', async () => {
		const outcome = await sameAfterForgets(true, true);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, same']);
	});
});

describe('3. wrong the other way: the stated write-back of "Forget during a claim" is reported as a lost row', () => {
	/**
	 * BREAK (fails), no defect injected: the memory as it is. A Forget of r0 while p0's e1 still works on it; e1's end writes
	 * r0's content pair back (stated: docs/sync-memory.md "Forget during a claim", "a later run without the slug then answers
	 * the row `unchanged` although its candidate was deleted … The whole-memory simulation counts both apart"). The `same`
	 * step does count it apart (event "unchanged by a content of a deleted candidate, after a Forget during a sync of the
	 * row"), but the end check then reports the same answer of the final run as property 3, "no candidate at the end; the
	 * final run answered same": the stated case counted among false reasons and lost rows.
	 * Cause: test/sim/memory.ts:1142-1145 takes only `held`/`known` (and the service's refusals) as a true end without a
	 * candidate; a final `same` the same step exempted (:672-673) falls to `lost`.
	 * Fix: remember the rows whose `same` was counted as the stated case (a set filled at :673) and count a final `same` of
	 * such a row apart (an event, or a column of its own), as the step does.
	 */
	it('the memory as it is, the stated case only: nothing must be reported as false', async () => {
		const outcome = await forgotDuringThenSame(false, false);
		expect(outcome.events['unchanged by a content of a deleted candidate, after a Forget during a sync of the row']).toBe(2);
		expect(rowsJudged(outcome)).toEqual([]);
	});
});

/** p0's e1 takes [r0, r1]: r0's creation refused by the service (claim released), r1's unanswered; `kill`: p0 killed while e1 waits on r1. The final run, in a fresh worker, refuses r0 "may already exist" (`inject`). */
async function killedAfterRelease(inject: boolean, kill: boolean): Promise<Outcome> {
	const sim = new Scripted({ ...QUIET, rows: 2 }, async (self, inside) => {
		const p0 = inside.process('main');
		const [r0, r1] = [self.row('r0'), self.row('r1')];
		force(self, 'r0', 'refused');
		force(self, 'r1', 'unknown, stored');
		const running = self.execution(p0, 'sync', [r0, r1], { concurrency: 1, ahead: 1 });
		const e1 = latest(self);
		await until(inside, () => e1.decided.has(r0) && r1.sends.length > 0);
		await inside.wait(100);
		if (kill) p0.kill();
		await Promise.race([running, inside.wait(10_000)]);
		await inside.wait(10_000);
		if (inject) defect.admit = (key) => (key === r0.key ? 'known' : undefined);
		return await self.final(inside, inside.process('worker'));
	});
	return show(await sim.check(), 'r0', 'r1');
}

describe('4. "a claim of a killed process": a row the killed execution had already let go', () => {
	it('pin: without the defect the final run creates r0: the killed process left no claim of it', async () => {
		const outcome = await killedAfterRelease(false, true);
		expect(outcome.created).toBe(2);
		expect(rowsJudged(outcome)).toEqual([]);
	});

	it('control: not killed, the final run\'s "may already exist" for r0 is reported', async () => {
		const outcome = await killedAfterRelease(true, false);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, known']);
	});

	/**
	 * BREAK (fails). p0's e1 sent r0, the service refused it, and the memory released r0's claim then and there (the pin);
	 * p0 was killed a moment later while e1 waited on r1. The final run refuses r0 "may already exist" (injected): r0 is
	 * lost with a false message. The judge files it as a claim of a killed process and counts it "held at the end (true)".
	 * Cause: test/sim/memory.ts:417-423 `killedClaimant` asks only whether an execution that touched the row died while it
	 * ran (after the last Forget), not whether it still held the row's claim when it died; refused() returns at :622-624
	 * and check() counts the `known` at :1142.
	 * Fix: count the killed execution only when the row was undecided in it when it died (`exec.decided.get(row)` undefined
	 * or after `died`), or when its decision left a claim (a creation of unknown outcome: a send of it with fate `unknown`).
	 */
	it('a row the killed execution had released before it died: a false "may already exist" must be reported', async () => {
		const outcome = await killedAfterRelease(true, true);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, known']);
		// r1's creation was stored (its candidate exists): no row is held at the end, r0 is not counted as held.
		expect(outcome.heldAtEnd).toBe(0);
	});
});

/** Match By e-mail, then phone from 1 ms: p0 (e-mail) creates r0 and works on r1 while p1 (phone) takes r0 (refused: known); a minute after, a worker (phone) creates r0 again (`inject`). */
async function switchedLongBefore(inject: boolean): Promise<Outcome> {
	const sim = new Scripted({ ...SWITCH, rows: 2 }, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'phone', at: 1 };
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const [r0, r1] = [self.row('r0'), self.row('r1')];
		force(self, 'r1', 'unknown, stored');
		const running = self.execution(p0, 'sync', [r0, r1], { concurrency: 1, ahead: 1 });
		const e1 = latest(self);
		await until(inside, () => e1.decided.has(r0));
		await inside.wait(50);
		await self.execution(p1, 'sync', [r0]);
		await running;
		await inside.wait(60_000);
		if (inject) defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, p0, []);
	});
	return show(await sim.check(), 'r0');
}

/** Match By e-mail until 30 s, phone after: p0 (e-mail) creates r0, its execution ends; `kill`: p0 killed 10 s after; at 60 s a worker (phone) creates r0 again (injected). */
async function killedLongAfter(kill: boolean): Promise<Outcome> {
	const sim = new Scripted(SWITCH, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'phone', at: 30_000 };
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(10_000);
		if (kill) p0.kill();
		await inside.wait(50_000);
		defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, p1, []);
	});
	return show(await sim.check(), 'r0');
}

/** Match By e-mail until 5 s, phone after: p0 (e-mail) sends r0 without an answer (stored); at 15 s the user deletes it and forgets the row (by phone); p2 (phone) creates it; a worker (phone) creates it again (`inject`). */
async function heldLongBefore(inject: boolean): Promise<Outcome> {
	const sim = new Scripted({ ...SWITCH, processes: [3, 3] }, async (self, inside) => {
		inside.matchBySwitch = { before: 'email', after: 'phone', at: 5_000 };
		const [p0, p1, p2] = [inside.process('main'), inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		force(self, 'r0', 'unknown, stored');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(10_000);
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		await inside.wait(30_000);
		await self.execution(p2, 'sync', [r0]);
		await inside.wait(5_000);
		if (inject) defect.admit = (key) => (r0.keys.includes(key) ? 'create' : undefined);
		await self.execution(inside.process('worker'), 'sync', [r0]);
		clearDefect();
		return await self.final(inside, p2, []);
	});
	return show(await sim.check(), 'r0');
}

describe('5. the Match By exemptions (`switchDuring`, `killedSwitch`, `heldSwitch`) are judged per row, not per double', () => {
	it('control: without the defect, the later worker refuses r0 and nothing is created twice', async () => {
		const outcome = await switchedLongBefore(false);
		expect([outcome.twice, outcome.twiceMatchBySwitch]).toEqual([[], []]);
	});

	/**
	 * BREAK (fails). Two executions of different Match By overlapped on r0 at the start (p1's refused it: no double then).
	 * A minute after both ended, a worker matched by phone creates r0 again (injected) while p0's candidate lives. The stated
	 * case (docs/create-or-update.md: executions of both settings working on the row at once each create it) is not this
	 * double: its creations are p0's and a worker's that ran alone. Filed under `twiceMatchBySwitch`.
	 * Cause: test/sim/memory.ts:1151-1154 `switchDuring` asks whether any two executions that ever touched the row ran at
	 * once with different Match By; nothing ties it to the double's creations.
	 * Fix: judge it per double, as `forgetExempt` is: exempt a double only when the executions of two of its `sends` had
	 * different Match By and overlapped in time.
	 */
	it('an overlap of both settings long before: a double made after must count as created twice', async () => {
		const outcome = await switchedLongBefore(true);
		expect(outcome.twiceMatchBySwitch).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});

	it('control: not killed, r0 created again by phone after its creation by e-mail counts as created twice', async () => {
		const outcome = await killedLongAfter(false);
		expect(outcome.twice).toEqual(['r0']);
	});

	/**
	 * BREAK (fails). p0 created r0 by e-mail, got its answer, its execution ended and wrote everything (the other key's
	 * claim included); p0 was killed 10 s later, idle. After the switch a worker creates r0 by phone (injected). The stated
	 * case (Outcome `twiceKilledSwitch`: "a process killed after it sent it, before the claims of the row's other keys … reached
	 * n8n's store") cannot be: p0 died long after its end. Filed under `twiceKilledSwitch`.
	 * Cause: test/sim/memory.ts:1160-1163 `killedSwitch` asks only `first.exec.proc.diedAt !== undefined` (killed at any time,
	 * even hours later), not whether the sending execution died while it ran (`first.exec.died`).
	 * Fix: require `first.exec.died !== undefined` (killed during the sending execution, so before its end wrote the other
	 * keys' claims), and judge it per double (the first send one of the double's `sends`).
	 */
	it('a process killed long after its execution ended: a later creation under the other key must count as created twice', async () => {
		const outcome = await killedLongAfter(true);
		expect(outcome.twiceKilledSwitch).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});

	/**
	 * BREAK (fails). p0's creation of r0 by e-mail went without an answer (stored); the user deleted that candidate and
	 * forgot the row; after the switch p2 created r0 by phone (a true creation: nothing lived); then a worker created it
	 * again by phone (injected). The double is p2's and the worker's, both by phone; the held creation is not part of it
	 * (its candidate was deleted before either). Filed under `twiceHeldSwitch`.
	 * Cause: test/sim/memory.ts:1155-1159 `heldSwitch` looks for any held stored send and any later stored send of the
	 * other Match By in another process, among all the row's sends; neither has to be one of the double's.
	 * Fix: judge it per double: the held send must be the one that stored a live candidate of the double
	 * (`double.sends.slice(1)`), and the later one the double's own send (`double.sends[0]`).
	 */
	it('a held creation whose candidate the user deleted: a double of two later creations by phone must count as created twice', async () => {
		const outcome = await heldLongBefore(true);
		expect(outcome.twiceHeldSwitch).toEqual([]);
		expect(outcome.twice).toEqual(['r0']);
	});
});

/** p0 sends r0 without an answer (not stored); p0 itself then forgets r0 (a Forget in its process: the hold goes); 5 s after p0 syncs r0 (`inject`: refused held). */
async function heldAfterOwnForget(inject: boolean): Promise<Outcome> {
	const sim = new Scripted(QUIET, async (self, inside) => {
		const p0 = inside.process('main');
		const r0 = self.row('r0');
		force(self, 'r0', 'unknown, not stored');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		await self.execution(p0, 'forget', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		if (inject) defect.held = (key) => (key === r0.key ? true : undefined);
		await self.execution(p0, 'sync', [r0]);
		clearDefect();
		return await self.final(inside, p0);
	});
	return show(await sim.check(), 'r0');
}

describe('6. `held` is judged against every creation of the process, before its own Forget too', () => {
	it('pin: without the defect, p0 creates r0 after its own Forget (the hold went with it)', async () => {
		const outcome = await heldAfterOwnForget(false);
		expect(outcome.refusals.held).toBeUndefined();
		expect(outcome.created).toBe(1);
	});

	/**
	 * BREAK (fails). p0 sent r0 without an answer, then forgot r0 itself (docs/sync-memory.md "A row's life": held "in this
	 * process … until Adopt or Forget there"; the pin shows the memory creates it then). 5 s later p0 refuses r0 as `held`
	 * (injected): a false reason. The judge finds p0's unanswered creation from before the Forget and reports nothing (and
	 * the refusal came too soon after the Forget for property 2).
	 * Cause: test/sim/memory.ts:631 looks at `row.sends` (every send ever), not at the sends since this process last forgot or
	 * adopted the row; comparePlan (`forgotHere`, `sentHere`) already makes that cut for the plan.
	 * Fix: take only sends of this process after its last Forget or Adopt of the row (`forget.by.proc === exec.proc`,
	 * `row.adopts` of it), as comparePlan does.
	 */
	it('refused held after this process forgot the row: must be reported', async () => {
		const outcome = await heldAfterOwnForget(true);
		expect(rowsJudged(outcome)).toEqual(['r0: property 3, held']);
	});
});

/** p0 creates r0 (its slug learned); p1 deletes and forgets it, nothing running; p0's next sync of r0 (`inject`: it recalls the deleted candidate's slug and content). */
async function staleSlug(inject: boolean): Promise<{ outcome: Outcome; sync: string }> {
	let sync = '';
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		await self.execution(p0, 'sync', [r0]);
		const old = { s: r0.candidates[0].slug, p: contentOf(r0), r: [] };
		await inside.wait(5_000);
		await self.execution(p1, 'forget', [r0], { concurrency: 1 });
		// An execution with no row: p0's sync below is not one a dry run precedes (every third execution), so its plan is not compared.
		await self.execution(p1, 'sync', []);
		await inside.wait(5_000);
		if (inject) defect.recall = (key, remembered) => (key === r0.key ? (remembered ?? old) : remembered);
		const done = await self.execution(p0, 'sync', [r0]);
		sync = `${latest(self).id}: ${done.get(r0)}`;
		clearDefect();
		return await self.final(inside, p0);
	});
	return { outcome: show(await sim.check(), 'r0'), sync };
}

describe('7. `unchanged` with a deleted candidate\'s slug is always "the stated stale slug"', () => {
	it('pin: without the defect, p0 creates r0 again after the Forget (nobody else did)', async () => {
		const { outcome, sync } = await staleSlug(false);
		expect(sync).toMatch(/: created$/);
		expect(rowsJudged(outcome)).toEqual([]);
	});

	/**
	 * BREAK (fails). p0 learned r0's slug; the user deleted the candidate and forgot r0 while nothing ran; nobody created it
	 * again. p0's next sync answers `unchanged` with the deleted candidate's slug (injected: the memory keeps the slug the
	 * journal no longer backs; the pin shows it creates the row). That answer is false: the row has no candidate. The judge
	 * counts it as "the stated stale slug after a Forget" (docs/sync-memory.md "Forget, then created again elsewhere"),
	 * whose condition, a creation elsewhere after the Forget (the claim there again), is not met; here only the downstream
	 * end of the row is reported, against the final run, not the false answer.
	 * Cause: test/sim/memory.ts:660-661, `syncRow`'s `unchanged` step, exempts any slug whose candidate was deleted.
	 * Fix: count it apart only when a live candidate of the row's identity was stored after that candidate's deletion
	 * (created again elsewhere); otherwise push a property 3 `same` wrong for that execution.
	 */
	it('`unchanged` with the deleted candidate\'s slug, the row not created again anywhere: that answer must be reported', async () => {
		const { outcome, sync } = await staleSlug(true);
		expect(sync).toMatch(/: unchanged$/);
		const execution = sync.split(':')[0];
		expect(outcome.wrong.filter((wrong) => wrong.exec === execution).map((wrong) => `${wrong.row}: property ${wrong.property}, ${wrong.why}`)).toEqual(['r0: property 3, same']);
	});
});

/** Matched by phone throughout; r1 has r0's phone (one person by phone). p0 sends r0 without an answer (`stored` or not); the final run (a fresh worker) meets the phone's claim. */
async function sharedPhoneHeld(fate: 'unknown, stored' | 'unknown, not stored'): Promise<Outcome> {
	const sim = new Scripted({ ...SWITCH, rows: 2, sharePhone: 1 }, async (self, inside) => {
		inside.matchBySwitch = { before: 'phone', after: 'phone', at: Infinity };
		const p0 = inside.process('main');
		force(self, 'r0', fate);
		await self.execution(p0, 'sync', [self.row('r0')]);
		await inside.wait(60_000);
		return await self.final(inside, inside.process('worker'));
	});
	return show(await sim.check(), 'r0', 'r1');
}

describe('8. sound: a refusal judged on the row\'s person under the execution\'s Match By (`identity`)', () => {
	/**
	 * PIN (passes). Matched by phone, r0 and r1 are one person (one phone, one key). r0's creation went without an answer and
	 * nothing was stored: both rows end refused "may already exist" by the final run, which is true (a creation of that
	 * person went without an answer; the memory cannot know it was not stored). The judge, reading r1's refusal through
	 * `identity('phone', r1)` = [r0, r1], finds r0's unanswered send and counts both as held at the end, reporting nothing.
	 */
	it('two rows, one phone, matched by phone: the other row refused after the first one\'s unanswered creation is true', async () => {
		const outcome = await sharedPhoneHeld('unknown, not stored');
		expect(rowsJudged(outcome)).toEqual([]);
		expect(outcome.heldAtEnd).toBe(2);
	});
});
