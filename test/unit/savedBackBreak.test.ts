/**
 * A review of property 4's `savedBack` excuse (test/sim/memory.ts `comparePlan`, commits 3855874 and a858152): a row planned
 * otherwise than `created` that the run created counts under the stated limit when an execution that began before the row's
 * last Forget ended (not the forgetting one) saved the static data after that Forget began, the last save before the plan
 * holds one of the row's keys, and no creation of the row went out since the Forget (`heldAgain`). The stated case
 * (docs/create-or-update.md, "Options → Dry Run", "One limit"; docs/sync-memory.md "two stated limits where the real run"):
 * a row forgotten while another execution ran, whose end saved the row's old slug again; the plan reads that slug, the real
 * run finds the row's claim gone and creates it.
 *
 * As memoryJudgeBreak7.test.ts: scripted seeds judged by the simulation's own `check`, a defect injected into the dry run's
 * memory or the real run's (`defect`) where a test says so. Every script is matched by Match Key, with main processes p0
 * (the Forget All Rows, the dry run and its run), p1 (creates r0), p2 (updates r0 after the sheet changed it: the saved copy
 * then holds r0 with another print than p1 learned), a worker p3 and a worker filler (empty syncs until the next execution
 * is one a dry run precedes). "Y" is a sync of r1 only (never r0) whose request the service holds 30 s, so that it spans
 * the Forget All Rows when it starts before it.
 *
 * BREAKs are plain `it`s that failed on a858152 (each says what a correct judge reports); the others confirm the excuse or are
 * controls. Written by a helper that had not seen the change; all pass since the excuse was tied to what the plan did (the
 * slug it recalled, held by a save after the Forget, of a deleted candidate; the run found the claim gone): see each test.
 *
 * Run: nice -n 19 npx jest --runInBand test/unit/savedBackBreak.test.ts   (SHOW=1 prints each script's verdict, executions, saves and row logs)
 */
import type { Outcome } from '../sim/memory';
import { Simulation } from '../sim/memory';
import type { NodeStore } from '../../nodes/Recruiting/memory/store';
import { print, setting as hostSetting } from '../sim/host';
import type { Exec, Inside, Proc, Row } from '../helpers/judgeScript';
import { clearDefect, defect, planned, planNext, QUIET, rowsJudged, Scripted, useDefects } from '../helpers/judgeScript';

const setting = hostSetting as (name: string) => string | undefined;

useDefects();

type Save = { exec: Exec; at: number; rows: NodeStore };

/** The simulation's private parts this review reads (TypeScript `private` only). */
interface Internals {
	execs: Exec[];
	saves: Save[];
	planSlugs: Map<string, string | undefined>;
	planStoreStops: Record<string, number>;
	bySlug: Map<string, { deletedAt?: number }>;
	comparePlan: (exec: Exec, planAt: number, plans: Map<Row, string>, outcomes: Map<Row, string>) => void;
}

const SAVED_BACK = '(its old slug saved again after the Forget)';

/** SHOW=1: the verdict, the executions, the saves and the rows' logs. */
function show(sim: Simulation, outcome: Outcome, ...names: string[]): Outcome {
	if (!setting('SHOW')) return outcome;
	const inside = sim as unknown as Internals;
	const execs = inside.execs.map((exec) => `${exec.id} ${exec.start.toFixed(0)}–${(exec.end ?? exec.died ?? NaN).toFixed(0)}`);
	const saves = inside.saves.map((save) => `${save.exec.id}@${save.at.toFixed(0)}`);
	const brief = { wrong: rowsJudged(outcome), planCompared: outcome.planCompared, plan: outcome.planDiffers, stops: outcome.planStoreStops, execs, saves };
	print(`${JSON.stringify(brief)}\n${names.map((name) => `--- ${name}\n${outcome.log(name)}`).join('\n')}`);
	return outcome;
}

/** The service holds the requests of `proc`'s executions `ms` before it takes them (a slow service). */
function slowIn(sim: Scripted, inside: Inside, proc: Proc, ms: number): void {
	const original = inside.create;
	inside.create = async function (row: Row, exec: unknown, content: string, key?: string) {
		if ((exec as Exec).proc === proc) await inside.wait(ms);
		return await original.call(sim, row, exec, content, key);
	};
}

/** `proc` is killed right before its next request goes out: nothing is sent, the claim its ask won stays in n8n's store. */
function killBeforeSend(sim: Scripted, inside: Inside, proc: Proc): void {
	const original = inside.create;
	inside.create = async function (row: Row, exec: unknown, content: string, key?: string) {
		if ((exec as Exec).proc === proc) {
			proc.kill();
			return await new Promise(() => undefined);
		}
		return await original.call(sim, row, exec, content, key);
	};
}

interface Script {
	/**
	 * Y, the sync of r1 held 30 s: in p1 or p0 started 0.1 s before p2's update (so before the Forget All Rows, ending after
	 * it); `fresh`: in a main process of its own that never knew r0, started before p1 created r0 (its copy never held r0);
	 * `after`: in p1, started 2 s after the Forget All Rows ended; `none`: no Y.
	 */
	y: 'p1' | 'p0' | 'fresh' | 'after' | 'none';
	/** With `y: 'fresh'`: p1 runs a sync of r1 after Y ended (its end writes what p1 learned of r0 into the static data). */
	p1After?: boolean;
	/** The Forget All Rows by hand (n8n saves nothing of it); false: in production (its cleared static data is saved). */
	manual: boolean;
	/** After Y: the worker p3 takes r0, wins its claim and is killed right before its creation goes out. */
	claimant?: boolean;
	/** The real run only (a defect): recalls nothing of r0 and is admitted to create it, as for a row it won afresh. */
	runDefect?: boolean;
	/** The dry run only (a defect): recalls nothing of r0 and takes it as held in this process (p0 holds nothing of it). */
	planHeld?: boolean;
}

interface Played {
	outcome: Outcome;
	did: Record<string, string>;
	/** What the judge reported for the dry run before p0's sync of r0 (the compared execution), as `row: planned → did`. */
	reported: string[];
	/** The plan → deed pairs it excused as the saved-back limit. */
	savedBack: string[];
	/** The slug the dry run recalled for r0. */
	planSlug?: string;
	/** Each save of the static data: the execution and the slugs it saved for r0. */
	saves: string[];
}

async function play(script: Script): Promise<Played> {
	const did: Record<string, string> = {};
	let compared = '';
	const sim = new Scripted({ ...QUIET, processes: [6, 6], rows: 2 }, async (self, inside) => {
		const [p0, p1, p2, p3, filler]: Proc[] = [inside.process('main'), inside.process('main'), inside.process('main'), inside.process('worker'), inside.process('worker')];
		const [r0, r1]: Row[] = [self.row('r0'), self.row('r1')];
		let y: Promise<Map<Row, string>> | undefined;
		const yProc = script.y === 'p0' ? p0 : script.y === 'fresh' ? inside.process('main') : p1;
		const startY = () => {
			slowIn(self, inside, yProc, 30_000);
			return self.execution(yProc, 'sync', [r1]);
		};
		if (script.y === 'fresh') {
			y = startY();
			await inside.wait(100);
		}
		did.create = (await self.execution(p1, 'sync', [r0])).get(r0)!;
		await inside.wait(10_000);
		if (script.y === 'p1' || script.y === 'p0') {
			y = startY();
			await inside.wait(100);
		}
		// The sheet changes r0; p2 updates it: the saved copy holds r0 with its new print (p1 learned the first one).
		r0.version += 1;
		did.update = (await self.execution(p2, 'sync', [r0])).get(r0)!;
		await inside.wait(2_000);
		await self.execution(p0, 'clear', [], { concurrency: 1, manual: script.manual });
		await inside.wait(2_000);
		if (script.y === 'after') y = startY();
		if (y) did.y = (await y).get(r1)!;
		await inside.wait(5_000);
		if (script.p1After) did.p1After = (await self.execution(p1, 'sync', [r1])).get(r1)!;
		if (script.claimant) {
			killBeforeSend(self, inside, p3);
			await self.execution(p3, 'sync', [r0]);
			did.claimant = p3.dead ? 'killed before its creation went out' : 'alive';
			await inside.wait(5_000);
		}
		await planNext(self, inside, filler);
		if (script.runDefect) {
			defect.recall = (key, remembered, plan) => (!plan && key === r0.key ? undefined : remembered);
			defect.admit = (key, _content, plan) => (!plan && key === r0.key ? 'create' : undefined);
		}
		if (script.planHeld) {
			defect.recall = (key, remembered, plan) => (plan && key === r0.key ? undefined : remembered);
			defect.held = (key, plan) => (plan && key === r0.key ? true : undefined);
		}
		compared = `${p0.name}.e${inside.nextId + 1}`;
		const outcomes = await self.execution(p0, 'sync', [r0]);
		clearDefect();
		did.run = outcomes.get(r0)!;
		return outcomes;
	});
	const outcome = show(sim, await sim.check(), 'r0', 'r1');
	const reported = outcome.planDiffers.filter((diff) => diff.exec === compared).map((diff) => `${diff.row}: ${diff.planned} → ${diff.did}`);
	const savedBack = Object.keys(outcome.planStoreStops).filter((kind) => kind.includes(SAVED_BACK));
	const inside = sim as unknown as Internals;
	const r0 = sim.rows.find((row) => row.name === 'r0')!;
	const saves = inside.saves.map((save) => `${save.exec.id}: ${slugsIn(save.rows, r0.keys).join(', ') || 'no slug of r0'}`);
	return { outcome, did, reported, savedBack, planSlug: inside.planSlugs.get(`${compared}|r0`), saves };
}

describe('1. the stated case: excused (confirms the excuse)', () => {
	/**
	 * Y runs in p1 across a Forget All Rows by hand in p0 and saves, after it, the copy it loaded before p2's update: r0's old
	 * slug with p1's print (not the one p0 had when it forgot r0, so p0's memory does not take it as the copy it forgot). The
	 * dry run in p0 recalls that slug and plans `updated`; the run finds r0's claim gone and creates it. The stated limit.
	 */
	it('Y in another process saved the old slug after a Forget All Rows by hand: `updated → created`, excused', async () => {
		const { did, reported, savedBack, planSlug, saves } = await play({ y: 'p1', manual: true });
		expect(did).toMatchObject({ create: 'created', update: 'updated', y: 'created', run: 'created' });
		expect(planSlug).toBe('r0-1');
		// p1's creation, p2's update, then Y's save after the Forget with r0's old slug (the copy the plan read).
		expect(saves.slice(0, 3)).toEqual(['p1.e1: r0-1', 'p2.e3: r0-1', 'p1.e2: r0-1']);
		expect(reported).toEqual([]);
		expect(savedBack).toEqual([`updated → created ${SAVED_BACK}`]);
	});

	/** The same with the Forget All Rows in production (its cleared copy saved, then Y's end saved the old slug over it). */
	it('the same after a Forget All Rows in production: excused', async () => {
		const { did, reported, savedBack } = await play({ y: 'p1', manual: false });
		expect(did.run).toBe('created');
		expect(reported).toEqual([]);
		expect(savedBack).toEqual([`updated → created ${SAVED_BACK}`]);
	});

	/** Y in p0, the forgetting process itself (another execution than the Forget): the same stated case, excused. */
	it('Y in the forgetting process itself: excused', async () => {
		const { did, reported, savedBack } = await play({ y: 'p0', manual: true });
		expect(did.run).toBe('created');
		expect(reported).toEqual([]);
		expect(savedBack).toEqual([`updated → created ${SAVED_BACK}`]);
	});

	/** Control: without Y nothing saves the old slug again; p0's memory takes the saved copy as the one it forgot: planned `created`, as done. */
	it('control: no Y: planned `created`, created', async () => {
		const { did, reported, savedBack, planSlug } = await play({ y: 'none', manual: true });
		expect(did.run).toBe('created');
		expect(planSlug).toBeUndefined();
		expect(reported).toEqual([]);
		expect(savedBack).toEqual([]);
	});

	/**
	 * The two seeds the excuse was added for (boundSimBreak.test.ts variant 13, the twelfth scenario's knobs), read from outside:
	 * each row excused there was planned with a slug that a save of an execution that ran during the Forget holds, that the
	 * save the plan read holds, and whose candidate the user deleted. (611013's saving execution, p0.e4, is of the forgetting
	 * process itself.)
	 */
	it('seeds 610378 and 611013: each row excused is the stated case', async () => {
		const BASE = { processes: [2, 4] as [number, number], worker: 0.4, executions: [1, 3] as [number, number], rows: 16, noAnswer: 0.03, refused: 0.03, changed: 0.3, manual: 0.1 };
		const BIG = { ...BASE, entries: [100_000, 600_000] as [number, number], stop: 0.2, kill: 0.3, forget: 0.4, adopt: 0.4, stall: 0.01, forgetAll: 0.5, later: 0.6 };
		const found = await survey(BIG, [610378, 611013]);
		expect(found.length).toBeGreaterThan(0);
		expect(found.filter((line) => line.includes('NOT'))).toEqual([]);
	}, 60_000);
});

describe('2. a claim in n8n\'s store that is not gone: the excuse hides a run that takes it over', () => {
	/**
	 * Control. After the stated case of 1 (Y saved r0's old slug), the worker p3 takes r0: its ask finds r0's claim gone and
	 * wins it afresh, it is admitted to create r0, and is killed right before the request goes out (nothing sent: `heldAgain`
	 * is false). Its claim stays (a killed process's claim is never taken over). p0's dry run recalls the old slug: `updated`.
	 * The memory's own run finds r0's claim there (another's), does not void the slug, and its update fails (the candidate was
	 * deleted): what the plan planned. The claim is there: nothing may create r0 now.
	 */
	it('control: the memory\'s own run does not create r0 (its update of the deleted candidate fails): as planned', async () => {
		const { did, reported } = await play({ y: 'p1', manual: true, claimant: true });
		expect(did).toMatchObject({ claimant: 'killed before its creation went out', run: 'update failed' });
		expect(reported).toEqual([]);
	});

	/**
	 * BREAK. The same, with a defect in the real run only: it takes r0 as a row it won afresh (recalls nothing, is admitted to
	 * create it) although p3's claim is in n8n's store, and creates r0. The plan said `updated`. The stated limit is a run that
	 * "finds its claim gone": here the claim is there, so this is no such case, and a correct judge reports `updated →
	 * created`. Judged on a858152: excused as "its slug saved again by an execution that ran during the Forget": FAILED there.
	 * Passes since the excuse asks that the run found the row's claim gone (its process wrote it afresh after the plan).
	 * Cause: `savedBack` (like `heldAgain`) asks only whether a creation was *sent* since the Forget; a claim won since
	 * (an ask, an admission, a creation stopped before it went out in a process killed then) is not read. Fix: also require
	 * that no other process claimed the row since the Forget and still held the claim when the run decided it (`store.
	 * claimsWritten` for `claim:<key>` after the Forget's end with no removal of it after, as `contestedAcross` reads them),
	 * or that the run itself wrote the claim afresh (found it gone) before it created the row.
	 */
	it('BREAK: the run (a defect) takes over p3\'s claim and creates r0: must be reported, is excused as saved back', async () => {
		const { did, reported, savedBack } = await play({ y: 'p1', manual: true, claimant: true, runDefect: true });
		expect(did).toMatchObject({ claimant: 'killed before its creation went out', run: 'created' });
		expect(savedBack).toEqual([]);
		expect(reported).toEqual(['r0: updated → created']);
	});
});

describe('3. any plan but `created`: the excuse hides a plan that is not "as this process knew it"', () => {
	/**
	 * Control. No Y. A defect in the dry run only: it recalls nothing of r0 and takes it as held in p0 (p0 holds nothing of r0:
	 * the Forget All Rows let every hold go). Planned `held`; the run creates r0. Reported.
	 */
	it('control: no Y: the plan defect (`held`) is reported', async () => {
		const { did, reported } = await play({ y: 'none', manual: true, planHeld: true });
		expect(did.run).toBe('created');
		expect(reported).toEqual(['r0: held → created']);
	});

	/**
	 * BREAK. The same plan defect, with Y of 1 (the old slug saved back). The stated case is a plan made with the saved-back
	 * slug (`updated` or `unchanged`, "as this process knew it"); this plan took no slug (it recalled nothing) and refused r0
	 * as held for nothing. A correct judge reports `held → created`. Judged on a858152: excused as saved back: FAILED there.
	 * Passes since the excuse asks for a plan of `updated` or `unchanged` with the slug a save after the Forget held.
	 * Cause: `limit` takes `did === 'created' && planned !== 'created'` for `savedBack` as for the older limits; `savedBack` does
	 * not ask what the plan did with the saved-back slug. Fix: for `savedBack`, require `planned` in `updated`/`unchanged` and
	 * the slug the dry run recalled (`planSlugs`) to be the one that saving execution saved (and a candidate the Forget deleted).
	 */
	it('BREAK: with Y, the plan defect (`held`) must still be reported, is excused as saved back', async () => {
		const { did, reported, savedBack } = await play({ y: 'p1', manual: true, planHeld: true });
		expect(did.run).toBe('created');
		expect(savedBack).toEqual([]);
		expect(reported).toEqual(['r0: held → created']);
	});
});

describe('4. the old slug saved back by an execution that started after the Forget', () => {
	/**
	 * NEEDED, NOT APPLIED (or an unstated limit). The Forget All Rows runs while no execution of the node runs, as the docs
	 * advise. 2 s after it ended, Y runs in p1, the process that created r0 and learned its slug with the first print (p2's
	 * update saved another). Y never takes r0; its end writes every row p1 learned into its static data where it differs
	 * (rows.ts `repair`), r0's old slug among them, and n8n saves it. p0's dry run recalls that slug (`updated`); the run finds
	 * r0's claim gone and creates it: the very mechanism of the stated case (the old slug saved again after the Forget, the
	 * plan reads it, the run finds the claim gone), but no execution ran during the Forget, so `savedBack` (the saving
	 * execution must have begun before the Forget ended) does not apply, and no stated limit covers it. Reported: `updated →
	 * created`. FAILED on a858152 (by hand and in production alike).
	 * Either the excuse and the docs name the real condition (a save after the Forget that holds the slug the plan recalled,
	 * from a process's memory that had learned it: "run Forget All Rows while no execution of the node runs" does not prevent
	 * it), or the node must not write back a row learned before a Forget All Rows of another process (a defect in `repair`).
	 * DECIDED 2026-12-02 (after a858152): the stated limit, named as it is. A process cannot tell that another process forgot a row
	 * (docs/sync-memory.md, "Forget, then created again elsewhere": it keeps the old slug); its end writing back what it learned is
	 * how every row it created reaches the static data. The excuse now asks that a save after the Forget hold the very slug the plan
	 * recalled, and that the run found the row's claim gone; docs/create-or-update.md states the case. Both tests pass.
	 */
	it('NEEDED: Forget All Rows by hand while nothing runs; p1\'s next execution saves the old slug: the plan differs, must be excused or stated', async () => {
		const { did, outcome, savedBack, planSlug } = await play({ y: 'after', manual: true });
		expect(did).toMatchObject({ y: 'created', run: 'created' });
		expect(planSlug).toBe('r0-1');
		expect(savedBack).toEqual([`updated → created ${SAVED_BACK}`]);
		expect(planned(outcome)).toEqual([]);
	});

	it('NEEDED: the same after a Forget All Rows in production', async () => {
		const { did, outcome, planSlug } = await play({ y: 'after', manual: false });
		expect(did.run).toBe('created');
		expect(planSlug).toBe('r0-1');
		expect(planned(outcome)).toEqual([]);
	});

	/**
	 * BREAK (the excuse's two conditions are not one). As the previous test (p1's execution after the Forget saves r0's old
	 * slug, the plan recalls it, the run creates r0), and besides, Y, a sync of r1 in a process that never knew r0, started
	 * before r0 was created and ended after the Forget: its save holds no slug of r0. `savedBack` asks that *some* execution
	 * that began before the Forget ended saved after it, and that the *last* save before the plan holds one of the row's keys;
	 * not that they are the same save, nor that it held the slug the plan recalled. So the verdict on r0 changes with an
	 * unrelated execution of another row: reported without Y (previous test), excused with it. A correct judge gives both the
	 * same verdict. FAILED on a858152 (reported without Y, excused with it); passes since the excuse is tied to the slug the plan
	 * recalled (both excused, the previous test's decision).
	 * Fix: tie the excuse to the slug the plan recalled: a save after the Forget began, by an execution that began before it
	 * ended, holding under one of the row's keys that very slug (decoded, not a key found in the JSON), of a candidate the
	 * Forget deleted; whatever the verdict on the previous test, this one follows it.
	 */
	it('BREAK: an unrelated execution across the Forget turns the same mismatch from reported into excused', async () => {
		const without = await play({ y: 'after', manual: true });
		const unrelated = await play({ y: 'fresh', p1After: true, manual: true });
		expect(unrelated.did).toMatchObject({ y: 'created', p1After: 'unchanged', run: 'created' });
		expect(unrelated.planSlug).toBe('r0-1');
		// Y (p5.e1) saved after the Forget, without r0; p1's execution after it saved r0's old slug (the copy the plan read).
		expect(unrelated.saves.slice(2, 4)).toEqual(['p5.e1: no slug of r0', 'p1.e5: r0-1']);
		expect(without.reported).toEqual([]);
		expect(unrelated.reported).toEqual(without.reported);
	});
});

/** The slugs a saved copy's rows hold under any of the keys given. */
function slugsIn(rows: NodeStore, keys: string[]): string[] {
	return keys.flatMap((key) => rows.get(key)?.s ?? []);
}

/**
 * Seeds of a scenario, each `comparePlan` watched from outside: for a dry run where the judge excused a row as saved back,
 * each row planned otherwise than `created` that the run created (or sent), with whether the slug the plan recalled is held
 * by a save of an execution that ran during the row's last Forget, whether its candidate was deleted, and whether the save
 * the plan read holds it ("NOT" where not).
 */
async function survey(knobs: ConstructorParameters<typeof Simulation>[1], seeds: number[]): Promise<string[]> {
	const found: string[] = [];
	for (const seed of seeds) {
		const sim = new Simulation(seed, knobs);
		const inside = sim as unknown as Internals;
		const original = (Simulation.prototype as unknown as Internals).comparePlan;
		inside.comparePlan = function (exec, planAt, plans, outcomes) {
			const before = { ...inside.planStoreStops };
			original.call(sim, exec, planAt, plans, outcomes);
			const grew = Object.keys(inside.planStoreStops).some((kind) => kind.includes(SAVED_BACK) && inside.planStoreStops[kind] !== before[kind]);
			if (!grew) return;
			for (const [row, plan] of plans) {
				const did = outcomes.get(row);
				if (plan === 'created' || !['created', 'unknown', 'refused by the service', 'cancelled'].includes(did ?? '')) continue;
				const slug = inside.planSlugs.get(`${exec.id}|${row.name}`);
				const forget = row.forgets.reduce<(typeof row.forgets)[number] | undefined>((last, one) => (one.at <= planAt && (last === undefined || (one.until ?? Infinity) >= (last.until ?? Infinity)) ? one : last), undefined);
				if (!forget) continue;
				const end = forget.until ?? forget.by?.end ?? forget.at;
				const saves = inside.saves.filter((save) => save.at <= planAt);
				const last = saves[saves.length - 1];
				const during = saves.filter((save) => save.at >= forget.at && save.exec.start <= end && save.exec !== forget.by);
				const stale = slug !== undefined && during.some((save) => slugsIn(save.rows, row.keys).includes(slug));
				const deleted = slug !== undefined && inside.bySlug.get(slug)?.deletedAt !== undefined;
				const readIt = exec.proc.kind === 'main' && last !== undefined && slug !== undefined && slugsIn(last.rows, row.keys).includes(slug);
				found.push(
					`seed ${seed} ${row.name} ${exec.id}: planned ${plan} (slug ${slug}), did ${did}; the slug ${stale ? 'in' : 'NOT in'} a save of an execution that ran during the Forget (${during.map((save) => save.exec.id).join(', ')}); ${deleted ? 'deleted' : 'NOT deleted'}; ${readIt ? 'in the save the plan read' : 'NOT in the save the plan read'}`,
				);
			}
		};
		show(sim, await sim.check());
	}
	if (setting('SHOW')) print(found.join('\n'));
	return found;
}
