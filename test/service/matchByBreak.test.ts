/**
 * An independent review trying to break Candidate → Create or Update's Match By (Email, Phone, Match
 * Key) and its memory of which candidate each row became (docs/create-or-update.md, the Match By
 * paragraph; docs/sync-memory.md), through n8n's real engine against the sandbox over real HTTP:
 * switching Match By back and forth across executions, n8n restarts (a fresh process registry, the
 * saved static data kept) and queue workers (no static data), rows whose e-mail or phone changes,
 * a phone shared by two candidates, Forget and Adopt under one key and a run under the other, a
 * creation without an answer, manual runs and Dry Run plans after a switch.
 *
 * Each test asserts the promises: no candidate created twice, a refusal only for a row that may
 * exist, each refusal's message true, a dry run's plan equal to the real run that follows.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { adoptBy, BY_EMAIL, BY_KEY, BY_PHONE, CANDIDATE, dry, FIELDS, forgetBy } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { MAY_EXIST, creationEmails, syncRun, upsertParameters } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';

const sandbox = useSandbox();

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});
afterEach(() => sandbox().setFaults({}));

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

/** A production execution (static data loaded and saved), On Error: Continue. */
const sync = async (h: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), h, items, { fields: FIELDS, ...options });

/** n8n restarted: the process registry is gone, the workflow's saved static data and n8n's store stay. */
const restart = () => forgetProcessMemory();

/** A queue worker's execution (n8n 2.40+): no saved static data, this process's registry. */
async function onWorker(h: Harness, items: IDataObject[], extra: INodeParameters) {
	const from = sandbox().requests.length;
	const result = await h.run({ parameters: upsertParameters(extra, FIELDS), items, loadStaticData: false, onError: 'continueRegularOutput' });
	const outputs = result.items.map((item) => item.json);
	return { outputs, actions: outputs.map((json) => String(json.action ?? 'none')), creations: creationEmails(sandbox(), from) };
}

/** How many candidates Alice's company stores under an e-mail (any case). */
const storedUnder = (email: string) =>
	sandbox()
		.candidates(1)
		.filter((candidate) => String(candidate.email ?? '').toLowerCase() === email.toLowerCase()).length;

/** How many candidates Alice's company stores whose phone has these digits. */
const storedWithPhone = (phone: string) =>
	sandbox()
		.candidates(1)
		.filter((candidate) => String(candidate.phone ?? '').replace(/\D/g, '') === phone.replace(/\D/g, '')).length;

/** The stored candidate of a slug. */
const candidateOf = (slug: unknown) =>
	sandbox()
		.candidates(1)
		.find((candidate) => candidate.slug === slug);

const errors = (outputs: IDataObject[]) => outputs.map((output) => String(output.error ?? ''));

/** The writes (method and path) a dry run's output plans. */
const planned = (outputs: IDataObject[]) =>
	outputs.flatMap((output) => ((output.requests as IDataObject[] | undefined) ?? []).map((request) => `${String(request.method)} ${String(request.path)}`)).sort();

// ---------------------------------------------------------------------------------------------
// 1. Switching back and forth, across executions, restarts and workers
// ---------------------------------------------------------------------------------------------

describe('match by break: switching back and forth', () => {
	it('Email → (restart) Phone → (restart) Email → (restart) Phone, a change each time: one candidate, each change updated on it, the last run unchanged', async () => {
		const h = harness();
		const row = { email: 'mb.swing@example.test', phone: '+49 30 5558101', first: 'Swing', city: 'Berlin', skills: '' };
		const made = await sync(h, [row], { extra: BY_EMAIL });
		expect(made.actions).toEqual(['created']);
		const slug = made.outputs[0].slug;
		restart();
		const two = await sync(h, [{ ...row, city: 'Hamburg' }], { extra: BY_PHONE });
		restart();
		const three = await sync(h, [{ ...row, city: 'Köln' }], { extra: BY_EMAIL });
		restart();
		const four = await sync(h, [{ ...row, city: 'Köln' }], { extra: BY_PHONE });
		expect([two, three, four].map((run) => [run.actions[0], run.outputs[0].slug, run.outputs[0].error || undefined])).toEqual([
			['updated', slug, undefined],
			['updated', slug, undefined],
			['unchanged', slug, undefined],
		]);
		expect(four.writes).toEqual([]);
		expect({ byMail: storedUnder(row.email), city: candidateOf(slug)?.city }).toEqual({ byMail: 1, city: 'Köln' });
	}, 120_000);

	it('created by Phone (its e-mail given), then by Email in the same process, after a restart, and on a queue worker of the same process: unchanged each time, nothing sent', async () => {
		const h = harness();
		const sheet = [0, 1].map((index) => ({ email: `mb.p2e.${index}@example.test`, phone: `+49 30 55582${index}0`, first: 'P', city: 'Bonn', skills: 'SQL: 3' }));
		const made = await sync(h, sheet, { extra: BY_PHONE });
		expect(made.actions).toEqual(['created', 'created']);
		const same = await sync(h, sheet, { extra: BY_EMAIL });
		restart();
		const afterRestart = await sync(h, sheet, { extra: BY_EMAIL });
		const worker = await onWorker(h, sheet, BY_EMAIL);
		expect({ same: same.actions, afterRestart: afterRestart.actions, worker: worker.actions, writes: [...same.writes, ...afterRestart.writes], creations: worker.creations }).toEqual({
			same: ['unchanged', 'unchanged'],
			afterRestart: ['unchanged', 'unchanged'],
			worker: ['unchanged', 'unchanged'],
			writes: [],
			creations: [],
		});
		expect(afterRestart.outputs.map((output) => output.slug)).toEqual(made.outputs.map((output) => output.slug));
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 120_000);

	it('a queue worker creates rows by Email; its next execution by Phone, a row changed: updated on the same candidate ("a worker knows the slugs of the rows its own process has run")', async () => {
		const h = harness();
		const sheet = [0, 1].map((index) => ({ email: `mb.worker.${index}@example.test`, phone: `+49 30 55583${index}0`, first: 'W', city: 'Ulm', skills: '' }));
		const made = await onWorker(h, sheet, BY_EMAIL);
		expect(made.actions).toEqual(['created', 'created']);
		const next = await onWorker(h, [sheet[0], { ...sheet[1], city: 'Jena' }], BY_PHONE);
		expect({ actions: next.actions, errors: errors(next.outputs), slugs: next.outputs.map((output) => output.slug), creations: next.creations }).toEqual({
			actions: ['unchanged', 'updated'],
			errors: ['', ''],
			slugs: made.outputs.map((output) => output.slug),
			creations: [],
		});
	}, 120_000);

	it('Match Key (e-mail and phone given) → (restart) Email → (restart) Phone with a change: unchanged, then updated on the same candidate, nothing created', async () => {
		const h = harness();
		const row = { id: 'mb-key-1', email: 'mb.key@example.test', phone: '+49 30 5558401', first: 'Key', city: 'Kiel', skills: 'SQL: 3' };
		const made = await sync(h, [row], { extra: BY_KEY });
		expect(made.actions).toEqual(['created']);
		restart();
		const byMail = await sync(h, [row], { extra: BY_EMAIL });
		restart();
		const byPhone = await sync(h, [{ ...row, city: 'Lübeck' }], { extra: BY_PHONE });
		expect([byMail, byPhone].map((run) => [run.actions[0], run.outputs[0].slug, run.outputs[0].error || undefined])).toEqual([
			['unchanged', made.outputs[0].slug, undefined],
			['updated', made.outputs[0].slug, undefined],
		]);
		expect(storedUnder(row.email)).toBe(1);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 2. A row's e-mail or phone changes while matched by the other, then a switch
// ---------------------------------------------------------------------------------------------

describe('match by break: the other key changes, then a switch', () => {
	it('matched by Phone, the row\'s e-mail changes (updated); then Match By Email with the new e-mail, in the process and after a restart: its candidate, nothing created; the dry run plans what the run does', async () => {
		const h = harness();
		const row = { email: 'mb.mail.old@example.test', phone: '+49 30 5558501', first: 'Mover', city: 'Trier', skills: '' };
		const made = await sync(h, [row], { extra: BY_PHONE });
		expect(made.actions).toEqual(['created']);
		const moved = { ...row, email: 'mb.mail.new@example.test' };
		const update = await sync(h, [moved], { extra: BY_PHONE });
		expect([update.actions[0], update.outputs[0].slug]).toEqual(['updated', made.outputs[0].slug]);
		const plan = await sync(h, [moved], { extra: dry(BY_EMAIL) });
		const byMail = await sync(h, [moved], { extra: BY_EMAIL });
		restart();
		const afterRestart = await sync(h, [{ ...moved, city: 'Mainz' }], { extra: BY_EMAIL });
		expect({
			plan: plan.actions[0],
			byMail: [byMail.actions[0], byMail.outputs[0].slug],
			afterRestart: [afterRestart.actions[0], afterRestart.outputs[0].slug],
		}).toEqual({ plan: byMail.actions[0], byMail: ['unchanged', made.outputs[0].slug], afterRestart: ['updated', made.outputs[0].slug] });
		expect(storedUnder(row.email) + storedUnder(moved.email)).toBe(1);
	}, 120_000);

	it('matched by Email, the sheet gains a phone column, later the phone changes (each an update); then Match By Phone with the new phone after a restart: its candidate, nothing created', async () => {
		const h = harness();
		const row = { email: 'mb.phone.grow@example.test', phone: '', first: 'Grow', city: 'Gera', skills: '' };
		const made = await sync(h, [row], { extra: BY_EMAIL });
		expect(made.actions).toEqual(['created']);
		const withPhone = await sync(h, [{ ...row, phone: '+49 30 5558601' }], { extra: BY_EMAIL });
		const newPhone = { ...row, phone: '+49 30 5558699' };
		const changed = await sync(h, [newPhone], { extra: BY_EMAIL });
		expect([withPhone.actions[0], changed.actions[0]]).toEqual(['updated', 'updated']);
		restart();
		const byPhone = await sync(h, [newPhone], { extra: BY_PHONE });
		expect({ action: byPhone.actions[0], slug: byPhone.outputs[0].slug, error: byPhone.outputs[0].error || undefined, writes: byPhone.writes }).toEqual({
			action: 'unchanged',
			slug: made.outputs[0].slug,
			error: undefined,
			writes: [],
		});
		expect(storedUnder(row.email)).toBe(1);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 3. A phone shared by two candidates
// ---------------------------------------------------------------------------------------------

describe('match by break: a phone shared by two candidates', () => {
	// Open defect (docs/create-or-update.md, Match By): both rows keep their other key, the phone, under one slug (the last one created), so a
	// run by Phone takes the other person's candidate. Kept failing (`it.failing`) until the memory tells a shared phone from a switch.
	// Tried 2026-12-02 and not kept: matched by Phone, take the candidate the row's e-mail holds when it differs from the phone's.
	// This test then passed, but the simulation's "e-mails and phones corrected" scenario (MEMSIM_SCENARIO=9, 2,000 seeds) updated
	// another person's candidate 90 times: an e-mail passed on to another person is as wrong as a shared phone, and the memory cannot
	// tell which of the two it holds. Refusing the row when they differ would refuse such a person's row by Phone for good.
	it.failing('two rows (a family phone, two e-mails) created by Email; a run by Phone of the first row only must not turn the second candidate into the first (no e-mail written over another candidate\'s), nor create', async () => {
		const h = harness();
		const phone = '+49 30 5558701';
		const a = { email: 'mb.family.a@example.test', phone, first: 'Anna', city: 'Essen', skills: '' };
		const b = { email: 'mb.family.b@example.test', phone, first: 'Ben', city: 'Essen', skills: '' };
		const made = await sync(h, [a, b], { extra: BY_EMAIL });
		expect(made.actions).toEqual(['created', 'created']);
		const [slugA, slugB] = made.outputs.map((output) => output.slug);
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [a], { extra: BY_PHONE });
		expect(creationEmails(sandbox(), from)).toEqual([]);
		// Whatever the row is matched to, the two candidates keep their own e-mails and names.
		expect({ a: [candidateOf(slugA)?.email, candidateOf(slugA)?.first_name], b: [candidateOf(slugB)?.email, candidateOf(slugB)?.first_name] }).toEqual({
			a: [a.email, 'Anna'],
			b: [b.email, 'Ben'],
		});
		expect(byPhone.outputs[0].slug === slugA || MAY_EXIST.test(String(byPhone.outputs[0].error))).toBe(true);
		// Back to Email: each row its own candidate, unchanged.
		const back = await sync(h, [a, b], { extra: BY_EMAIL });
		expect({ actions: back.actions, slugs: back.outputs.map((output) => output.slug) }).toEqual({ actions: ['unchanged', 'unchanged'], slugs: [slugA, slugB] });
		expect(storedWithPhone(phone)).toBe(2);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 4. Forget and Adopt under one key, a run under the other
// ---------------------------------------------------------------------------------------------

describe('match by break: Forget and Adopt under one key, a run under the other', () => {
	it('created by Email; Forget Each Input Row by Phone (Forget Now, production); n8n restarts; Sync Rows by Email creates it again once, and a run by Phone then finds the new candidate', async () => {
		const h = harness();
		const row = { email: 'mb.forget.p@example.test', phone: '+49 30 5558801', first: 'Gone', city: 'Hof', skills: '' };
		const made = await sync(h, [row], { extra: BY_EMAIL });
		const forgot = await sync(h, [row], { extra: forgetBy(BY_PHONE) });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect(String(forgot.outputs[0].message)).toMatch(/the next Sync Rows run creates this row again/);
		restart();
		const from = sandbox().requests.length;
		const again = await sync(h, [row], { extra: BY_EMAIL });
		const byPhone = await sync(h, [row], { extra: BY_PHONE });
		expect({ again: again.actions[0], creations: creationEmails(sandbox(), from), byPhone: byPhone.actions[0], sameSlug: byPhone.outputs[0].slug === again.outputs[0].slug }).toEqual({
			again: 'created',
			creations: [row.email],
			byPhone: 'unchanged',
			sameSlug: true,
		});
		expect(again.outputs[0].slug).not.toBe(made.outputs[0].slug);
	}, 120_000);

	// Open, documented (docs/create-or-update.md, Match By): Forget in a process that does not know the row's slug or hold it forgets the
	// row under the key it is matched by only (its other key may be another person's); forget it with each Match By it was run with.
	it.failing('created by Phone (saved memory); Forget Each Input Row by Email on a queue worker ("for every process and the published workflow"); after a restart Sync Rows by Phone creates it again, not `unchanged` on the forgotten slug', async () => {
		const h = harness();
		const row = { email: 'mb.forget.w@example.test', phone: '+49 30 5558901', first: 'Gone', city: 'Hof', skills: '' };
		const made = await sync(h, [row], { extra: BY_PHONE });
		expect(made.actions).toEqual(['created']);
		restart();
		const forgot = await onWorker(h, [row], forgetBy(BY_EMAIL));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		restart();
		const from = sandbox().requests.length;
		const next = await sync(h, [row], { extra: BY_PHONE });
		expect({ action: next.actions[0], creations: creationEmails(sandbox(), from) }).toEqual({ action: 'created', creations: [row.email] });
		expect(next.outputs[0].slug).not.toBe(made.outputs[0].slug);
	}, 120_000);

	it('a candidate created by another workflow, adopted here by Phone (its e-mail given); Sync Rows by Email, in the process and after a restart: the adopted candidate, nothing created', async () => {
		const h = harness();
		const other = harness();
		const row = { email: 'mb.adopt@example.test', phone: '+49 30 5559001', first: 'Adopt', city: 'Fulda', skills: 'SQL: 3' };
		const made = await sync(other, [row], { extra: BY_EMAIL });
		const slug = made.outputs[0].slug;
		const adopted = await sync(h, [{ ...row, slug }], { extra: adoptBy(BY_PHONE) });
		expect(adopted.actions).toEqual(['adopted']);
		const from = sandbox().requests.length;
		const byMail = await sync(h, [row], { extra: BY_EMAIL });
		restart();
		const afterRestart = await sync(h, [{ ...row, city: 'Gotha' }], { extra: BY_EMAIL });
		expect({
			byMail: [byMail.outputs[0].slug, byMail.outputs[0].error || undefined],
			afterRestart: [afterRestart.actions[0], afterRestart.outputs[0].slug, afterRestart.outputs[0].error || undefined],
			creations: creationEmails(sandbox(), from),
		}).toEqual({ byMail: [slug, undefined], afterRestart: ['updated', slug, undefined], creations: [] });
		expect(['unchanged', 'updated']).toContain(byMail.actions[0]);
		expect(storedUnder(row.email)).toBe(1);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 5. A creation without an answer, then a switch
// ---------------------------------------------------------------------------------------------

describe('match by break: a creation without an answer, then a switch', () => {
	// Failed when written (both created again after the restart); a creation now reserves the row's other keys before it is sent
	// (memory/way.ts). The dry run after a restart cannot read n8n's store (docs/create-or-update.md, Dry Run): it plans `created` and says so.
	it('a row held by Phone (e-mail given) and a row held by Email (phone given), each stored and its answer dropped; n8n restarts; each run by its other key: the run refuses both "may already exist", creating neither again, and the dry run before it says it may', async () => {
		const h = harness();
		const heldByPhone = { email: 'mb.held.p@example.test', phone: '+49 30 5559101', first: 'Held', city: 'Wesel', skills: '' };
		const heldByMail = { email: 'mb.held.e@example.test', phone: '+49 30 5559102', first: 'Held', city: 'Wesel', skills: '' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = [await sync(h, [heldByPhone], { extra: BY_PHONE }), await sync(h, [heldByMail], { extra: BY_EMAIL })];
		sandbox().setFaults({});
		for (const run of held) expect(run.outputs[0].error).toMatch(MAY_EXIST);
		expect([storedUnder(heldByPhone.email), storedUnder(heldByMail.email)]).toEqual([1, 1]);
		restart();
		const from = sandbox().requests.length;
		const plans = [await sync(h, [heldByPhone], { extra: dry(BY_EMAIL) }), await sync(h, [heldByMail], { extra: dry(BY_PHONE) })];
		const runs = [await sync(h, [heldByPhone], { extra: BY_EMAIL }), await sync(h, [heldByMail], { extra: BY_PHONE })];
		// What the plan cannot know, it says: the row may have been sent by an earlier execution, and a real run then refuses it.
		for (const plan of plans) expect(JSON.stringify(plan.outputs[0])).toMatch(/cannot be read without writing/);
		// docs/create-or-update.md: "Where the slug is not known (… after a restart) … after a switch such rows are refused as "may already exist""; never created twice.
		expect({
			creations: creationEmails(sandbox(), from),
			actions: runs.map((run) => run.actions[0]),
			stored: [storedUnder(heldByPhone.email), storedUnder(heldByMail.email)],
		}).toEqual({ creations: [], actions: ['failed', 'failed'], stored: [1, 1] });
		for (const run of runs) expect(String(run.outputs[0].error)).toMatch(/may already exist/);
	}, 120_000);

	it('held by Email (its phone given) in this process: a run by Phone on a queue worker of the same process refuses it too, and once the executions ended nothing else is refused: a new row beside it is created', async () => {
		const h = harness();
		const row = { email: 'mb.heldw@example.test', phone: '+49 30 5559201', first: 'Held', city: 'Wesel', skills: '' };
		const fresh = { email: 'mb.heldw.new@example.test', phone: '+49 30 5559202', first: 'New', city: 'Wesel', skills: '' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [row], { extra: BY_EMAIL });
		sandbox().setFaults({});
		expect(held.outputs[0].error).toMatch(MAY_EXIST);
		const worker = await onWorker(h, [row, fresh], BY_PHONE);
		expect({ actions: worker.actions, creations: worker.creations }).toEqual({ actions: ['failed', 'created'], creations: [fresh.email] });
		expect(String(worker.outputs[0].error)).toMatch(MAY_EXIST);
		expect(storedUnder(row.email)).toBe(1);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 6. Dry Run and manual runs after a switch
// ---------------------------------------------------------------------------------------------

describe('match by break: Dry Run and manual runs after a switch', () => {
	it('created by Email; after a restart a Dry Run by Phone over a changed, an unchanged, a new row and a new record plans exactly what the real run by Phone then does', async () => {
		const h = harness();
		const known = [0, 1, 2].map((index) => ({ email: `mb.plan.${index}@example.test`, phone: `+49 30 55593${index}0`, first: 'Plan', city: 'Aue', skills: 'SQL: 3' }));
		expect((await sync(h, known, { extra: BY_EMAIL })).actions).toEqual(['created', 'created', 'created']);
		restart();
		const items = [
			{ ...known[0], city: 'Zwickau' },
			known[1],
			{ ...known[2], skills: 'SQL: 3, Go: 2' },
			{ email: 'mb.plan.new@example.test', phone: '+49 30 5559399', first: 'New', city: 'Aue', skills: 'SQL: 3' },
		];
		const plan = await sync(h, items, { extra: dry(BY_PHONE) });
		expect(plan.writes).toEqual([]);
		const real = await sync(h, items, { extra: BY_PHONE });
		expect(real.actions).toEqual(['updated', 'unchanged', 'updated', 'created']);
		expect({ actions: plan.actions, writes: planned(plan.outputs) }).toEqual({ actions: real.actions, writes: [...real.writes].sort() });
		for (const row of items) expect(storedUnder(row.email)).toBe(1);
	}, 120_000);

	it('a new row run by hand by Phone (held back, `notSent`), a manual Dry Run plans the same, production by Email creates it once, then production by Phone and by hand by Email are `unchanged`', async () => {
		const h = harness();
		const row = { email: 'mb.hand@example.test', phone: '+49 30 5559401', first: 'Hand', city: 'Suhl', skills: 'SQL: 3' };
		const plan = await sync(h, [row], { manual: true, extra: dry(BY_PHONE) });
		const byHand = await sync(h, [row], { manual: true, extra: BY_PHONE });
		expect({ plan: plan.actions, byHand: byHand.actions, writes: byHand.writes }).toEqual({ plan: ['notSent'], byHand: ['notSent'], writes: [] });
		const live = await sync(h, [row], { extra: BY_EMAIL });
		expect([live.actions[0], live.outputs[0].error || undefined]).toEqual(['created', undefined]);
		const byPhone = await sync(h, [row], { extra: BY_PHONE });
		restart();
		const handByMail = await sync(h, [row], { manual: true, extra: BY_EMAIL });
		expect({ byPhone: byPhone.actions[0], handByMail: handByMail.actions[0], writes: [...byPhone.writes, ...handByMail.writes] }).toEqual({
			byPhone: 'unchanged',
			handByMail: 'unchanged',
			writes: [],
		});
		expect(storedUnder(row.email)).toBe(1);
	}, 120_000);
});
