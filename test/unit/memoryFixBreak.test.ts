/**
 * A review of the two node fixes of 18171f0: `MemoryRows.recall` no longer answers a row this process holds (its creation
 * went out from here without an answer) with the saved copy, unless this execution remembered it (memory/rows.ts); and the
 * dry run's `PlannedMemory.remember` settles holds only for a row learned anew (memory/index.ts).
 *
 * Each case is a scripted seed of the whole-memory simulation (test/helpers/judgeScript.ts `Scripted`, as in
 * test/unit/memoryJudgeBreak3.test.ts): simulated processes with their own registries, the node's real memory code
 * (`throughMemory`, `adoptThroughMemory`, `CandidateMemory.openIn` / `readOnlyIn`), the model of n8n's store and of the
 * service, and the simulation's judge (`check`). A BREAK asserts what the docs promise and fails on the code as it is; a PIN
 * passes and keeps what was found sound. On 592fbad: 3 BREAKs failed (1: two, 2: one), 2 PINs passed; all pass on the fixes
 * that followed (the saved copy of the moment a hold began is the one void; a row remembered while held ends the hold, in the
 * real run and in the plan alike).
 *
 * Run: npx jest --runInBand test/unit/memoryFixBreak.test.ts   (SHOW=1 prints each seed's verdict and row log)
 */
import type { MatchBy, MemoryHost } from '../../nodes/Recruiting/memory';
import { adoptThroughMemory, CandidateMemory } from '../../nodes/Recruiting/memory';
import type { Registry } from '../../nodes/Recruiting/memory/registry';
import type { Outcome } from '../sim/memory';
import { contentOf, CREDENTIALS } from '../sim/memory';
import { print, setting as hostSetting } from '../sim/host';
import type { Proc } from '../helpers/judgeScript';
import { force, planned, planNext, QUIET, Scripted, useDefects } from '../helpers/judgeScript';

const setting = hostSetting as (name: string) => string | undefined;

useDefects();


function show(outcome: Outcome, ...names: string[]): Outcome {
	if (!setting('SHOW')) return outcome;
	const brief = { twice: outcome.twice, wrong: outcome.wrong.map((wrong) => `${wrong.row} ${wrong.exec}: ${wrong.why} (${wrong.note})`), planCompared: outcome.planCompared, plan: outcome.planDiffers, events: outcome.events };
	print(`${JSON.stringify(brief)}\n${names.map((name) => `--- ${name}\n${outcome.log(name)}`).join('\n')}`);
	return outcome;
}

/**
 * p0 sends r0's creation without an answer (`unknown, stored`: the candidate exists, p0 holds r0). Then the user gives r0
 * its slug with Adopt Given Slugs: `adoptIn` 'p1' (another main process, which saves the adoption in the workflow's static
 * data), 'p0' (the holding process itself), or 'both' (p1 first, then p0 too, as the docs' "held until Adopt there" asks).
 * Then p0 syncs r0 (its content unchanged; a dry run right before it). Returns what p0's sync did with r0.
 */
async function heldThenAdopted(adoptIn: 'p1' | 'p0' | 'both'): Promise<{ outcome: Outcome; did: string; plan: string[] }> {
	let did = '';
	const sim = new Scripted(QUIET, async (self, inside) => {
		const [p0, p1, filler] = [inside.process('main'), inside.process('main'), inside.process('worker')];
		const r0 = self.row('r0');
		force(self, 'r0', 'unknown, stored');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		if (adoptIn !== 'p0') await self.execution(p1, 'adopt', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		if (adoptIn !== 'p1') await self.execution(p0, 'adopt', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		await planNext(self, inside, filler);
		did = (await self.execution(p0, 'sync', [r0])).get(r0)!;
		return await self.final(inside, p0, []);
	});
	const outcome = show(await sim.check(), 'r0');
	return { outcome, did, plan: planned(outcome) };
}

describe('1. fix 1 (MemoryRows.recall): a held row whose slug was adopted', () => {
	/**
	 * PIN (passes). Adopted in the holding process itself (nothing saved before): the adoption is learned anew
	 * (registry.ts `learn` clears `unanswered`), so the next sync of p0 updates the adopted candidate; the plan agrees.
	 */
	it('adopted in the process that holds it: the next sync updates the adopted candidate', async () => {
		const { did, plan } = await heldThenAdopted('p0');
		expect(did).toBe('updated');
		expect(plan).toEqual([]);
	});

	/**
	 * BREAK (fails). p0's creation of r0 got no answer (held in p0). The user adopts r0's slug in another main process p1
	 * (the documented way out: "Adopt Given Slugs … each row is remembered as that candidate"); n8n saves it in the
	 * workflow's static data. p0's next sync loads that saved copy, which holds the adopted slug, yet refuses r0 ("may
	 * already exist") forever (until p0 restarts or the row is adopted/forgotten in p0): the user did exactly what the
	 * refusal message asks and the row still does not sync. Before 18171f0 p0 updated the adopted candidate.
	 * Cause: nodes/Recruiting/memory/rows.ts:106, `if (this.held(key, true) && !this.own.has(key)) return undefined;`
	 * takes every saved copy of a row held here as "older" than the hold. It is not: a copy saved by another process
	 * after the hold (an Adopt there, or a creation after a Forget there) is newer. `shared.unanswered` is only cleared by
	 * a `learn` in this process (registry.ts:71-72) or a Forget here.
	 * Fix: remember with the hold what the saved copy held when the creation went out (e.g. `shared.sentUnanswered(key,
	 * this.store.raw(key))`, a Map instead of a Set) and void only that very copy in `recall`
	 * (`this.held(key, true) && this.store.raw(key) === heldOver && !own`), as `shared.forgotten` does for a Forget
	 * (rows.ts:107); a different saved copy is newer and counts (and settles the hold).
	 */
	it('BREAK: adopted in another process (saved): the holding process still refuses it', async () => {
		const { did } = await heldThenAdopted('p1');
		expect(did).toBe('updated');
	});

	/**
	 * BREAK (fails). As above, and the user then adopts r0 in p0 too (docs/sync-memory.md "A row's life": held "in this
	 * process as held until Adopt or Forget there"). p0's adoption remembers exactly what the saved copy already holds
	 * (`{ s, r: [] }`, as p1's adoption saved it), so `MemoryRows.remember` returns before `shared.learn`
	 * (rows.ts:212, `if (known === encoded && legacyKey === undefined) return;`): the hold in p0 is never settled. The
	 * adopt execution itself sees the row (`own`), the next sync of p0 does not and refuses r0 again: Adopt in the holding
	 * process no longer ends the hold. Before 18171f0 the lingering `unanswered` entry was harmless (recall answered the
	 * saved slug); the fix made it decisive.
	 * Cause: rows.ts:106 (the fix) together with rows.ts:211-212 (an unchanged remember settles no hold).
	 * Fix: in `remember`, settle the hold whenever this process holds the row (`if (this.shared.unanswered.has(key))
	 * this.shared.learn(key, { encoded })` before the early return), and the same in `PlannedMemory.remember` (index.ts:262:
	 * `learned ||= this.shared.unanswered.has(key)`), or the fix proposed above.
	 */
	it('BREAK: adopted in another process, then in the holding process too: still refused there', async () => {
		const { did } = await heldThenAdopted('both');
		expect(did).toBe('updated');
	});

	/**
	 * PIN (passes). Whatever the real run does after an adoption elsewhere, the dry run (its memory inherits `recall`) plans
	 * the same: plan and run agree (both refuse today; both would update after the fix).
	 */
	it('the dry run plans what the real run does after an adoption elsewhere', async () => {
		const { plan, outcome } = await heldThenAdopted('p1');
		expect(outcome.planCompared).toBeGreaterThan(0);
		expect(plan).toEqual([]);
	});
});

/** The simulation's private parts this file needs (plain properties at run time). */
interface Hosting {
	hostOf(proc: Proc): { host: MemoryHost };
	keysOf(memory: CandidateMemory, matchBy: MatchBy, row: Scripted['rows'][number]): { key: string; aliases: string[] };
}

/**
 * p0 holds r0 (creation without an answer, stored as r0-1); p1 adopts r0 (saved: `{ s: r0-1, r: [] }`). Then, in p0, an
 * Adopt Given Slugs input with r0 three times (a sheet with a duplicate row): r0-1, r0-1 again, and a mistyped slug last.
 * Made once by the dry run's memory (`readOnlyIn`) and once for real (`openIn`), through the node's `adoptThroughMemory`.
 */
async function adoptedThrice(): Promise<{ plan: string[]; real: string[] }> {
	const hows = { plan: [] as string[], real: [] as string[] };
	const sim = new Scripted(QUIET, async (self, inside) => {
		const hosting = self as unknown as Hosting;
		const [p0, p1] = [inside.process('main'), inside.process('main')];
		const r0 = self.row('r0');
		force(self, 'r0', 'unknown, stored');
		await self.execution(p0, 'sync', [r0]);
		await inside.wait(5_000);
		await self.execution(p1, 'adopt', [r0], { concurrency: 1 });
		await inside.wait(5_000);
		const slug = [...inside.bySlug.keys()][0];
		const content = contentOf(r0);
		const registry = (p0 as unknown as { registry: Registry }).registry;
		for (const which of ['plan', 'real'] as const) {
			const { host } = hosting.hostOf(p0);
			const memory = which === 'plan' ? CandidateMemory.readOnlyIn(registry, CREDENTIALS, host) : CandidateMemory.openIn(registry, CREDENTIALS, host);
			const { key, aliases } = hosting.keysOf(memory, 'key', r0);
			for (const given of [slug, slug, `${slug}-typo`]) {
				const adoption = await memory.inTurn(key, async () => await adoptThroughMemory(memory, { key, aliases, slug: given, content, profile: content, whole: [], records: [] }));
				hows[which].push(adoption.how);
			}
			await memory.repair();
		}
		return await self.final(inside, p0, []);
	});
	await sim.check();
	return hows;
}

describe('2. fix 2 (PlannedMemory.remember): a row given twice', () => {
	/**
	 * BREAK (fails). A dry run of Adopt Given Slugs in p0 (which holds r0) over an input that holds r0 three times plans the
	 * third adoption (another slug: a mistyped duplicate row) as `changed` (its records taken as added), while the real run
	 * takes it as `held` (its records of unknown outcome): the plan says something else than the run does, which
	 * docs/create-or-update.md (Dry Run: "each row is decided as a real run decides it … Nothing else differs") excludes.
	 * The first two adoptions remember exactly what the saved copy holds (`{ s, r: [] }`, p1's adoption); the real
	 * `remember` settles nothing for them (rows.ts:211-212: known === encoded and not learned in this process), the plan's
	 * settles the hold on the second, because the plan counts its own first remember as "learned".
	 * Cause: nodes/Recruiting/memory/index.ts:262, `const learned = this.planned.has(key) || …`: a row the plan remembered
	 * only as the saved copy holds it is not learned in the real run; `planned.has(key)` is not the real run's `learned`.
	 * Fix: keep in the plan what the real run would have learned (a `Set` of keys whose remember changed the row, or
	 * settled it: `known !== encoded || this.shared.learned.has(key) || plannedLearned.has(key)`), and test that instead of
	 * `planned.has(key)`. (Or make the real run settle a hold whenever it remembers the row: see 1's third test.)
	 */
	it('BREAK: the plan of an Adopt over a duplicate row differs from the real adoption', async () => {
		const { plan, real } = await adoptedThrice();
		// Since the fixes (2026-12-01): the first adoption ends p0's hold (Adopt in the holding process, as the docs say), so
		// the third, another slug, is taken as changed, and the plan says so too. Before: real ['held', 'known', 'held'].
		expect(real).toEqual(['known', 'known', 'changed']);
		expect(plan).toEqual(real);
	});
});
