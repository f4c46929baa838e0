/**
 * A review that tries to break the change of 3fe03c8 and c965459 (memory/way.ts `throughMemory`, `forgetWithTwins`; a row's
 * other keys, its "aliases", asked only when the row is kept under them and reserved before a new row's creation is sent, never
 * let go), as a user meets it: Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP, with
 * restarts (a fresh process registry, the saved static data kept) and switches of Match By between runs. Eight of its twelve
 * tests failed on that change (rows never created refused for good under their other key; a person sharing a held phone
 * refused): the other keys are now held only after a creation without an answer (`holdUnder`), and Forget without a slug lets
 * them go. Two stay open (`it.failing`, below); two more passed once a row took its turn under its other keys too (memory/rows.ts
 * `inTurn`, 2026-12-02).
 *
 * The promises asserted (docs/create-or-update.md, Match By; docs/sync-memory.md; docs/errors-and-retries.md): no candidate
 * created twice; a row never created is not refused once the executions that worked on it ended (unless the docs say why and
 * name a way out); each message true; a Dry Run plans what the real run then does, but for what its `notChecked` says.
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { adoptBy, BY_EMAIL, BY_PHONE, CANDIDATE, dry, FIELDS, forgetBy, withOptions } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { MAY_EXIST, creationEmails, syncRun, until } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';

const sandbox = useSandbox();

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});
afterEach(() => sandbox().setFaults({}));

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

/** A production execution (static data loaded and saved), On Error: Continue unless given. */
const sync = async (h: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), h, items, { fields: FIELDS, ...options });

/** n8n restarted: the process registry is gone, the workflow's saved static data and n8n's store stay. */
const restart = () => forgetProcessMemory();

/** How many candidates Alice's company stores under an e-mail (any case). */
const storedUnder = (email: unknown) =>
	sandbox()
		.candidates(1)
		.filter((candidate) => String(candidate.email ?? '').toLowerCase() === String(email).toLowerCase()).length;

/** The indexes of the input rows a run refused as "may already exist" (an output is paired with its input row: under Match By Phone it names the phone only). */
const refusedRows = (outputs: IDataObject[]) => outputs.flatMap((output, index) => (output.action === 'failed' && /may already exist/.test(String(output.error)) ? [index] : []));

/** The e-mails of the input rows a run refused as "may already exist". */
const refusedIn = (outputs: IDataObject[], sheet: IDataObject[]) => refusedRows(outputs).map((index) => String(sheet[index].email));

/** Whether no creation under this e-mail between requests `from` and `to` can have made a candidate: none reached the service, or each was refused (4xx). */
const neverCreated = (from: number, to: number, email: unknown) =>
	sandbox()
		.requests.slice(from, to)
		.filter((request) => request.method === 'POST' && request.path === CANDIDATE && (request.body as IDataObject | undefined)?.email === email)
		.every((request) => request.status >= 400 && request.status < 500);

/** A row of the sheet: an ASCII e-mail (the sandbox refuses any other with 422) and a phone of its own. */
const person = (tag: string, index: number, phone: string): IDataObject => ({ email: `ab.${tag}.${index}@example.test`, phone, first: `P${index}`, city: 'Bonn', skills: '' });

// ---------------------------------------------------------------------------------------------
// 1. A creation the service refuses, then a run by the other Match By
// ---------------------------------------------------------------------------------------------

describe('alias break: a creation the service refused, then a switch', () => {
	it('the service refuses a row\'s creation (422: its e-mail has an umlaut); the e-mail fixed and Match By switched to Phone: the row is created once, and the dry run before plans that', async () => {
		const h = harness();
		const row = { email: 'jürgen.ab1@example.test', phone: '+49 30 5557101', first: 'Jürgen', city: 'Bonn', skills: '' };
		const refused = await sync(h, [row], { extra: BY_EMAIL });
		expect(refused.actions).toEqual(['failed']);
		expect(String(refused.outputs[0].error)).toMatch(/422/);
		expect(String(refused.outputs[0].error)).not.toMatch(MAY_EXIST);
		expect(storedUnder(row.email)).toBe(0);
		const fixed = { ...row, email: 'juergen.ab1@example.test' };
		const plan = await sync(h, [fixed], { extra: dry(BY_PHONE) });
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [fixed], { extra: BY_PHONE });
		// Nothing of this row exists in the service: nothing may be refused as "may already exist" (and its message would be false).
		expect({ plan: plan.actions[0], action: byPhone.actions[0], error: byPhone.outputs[0].error || undefined, creations: creationEmails(sandbox(), from) }).toEqual({
			plan: 'created',
			action: 'created',
			error: undefined,
			creations: [fixed.email],
		});
		expect(storedUnder(fixed.email)).toBe(1);
	}, 60_000);

	it('a refused creation (422), then Forget Each Input Row by Email with Forget Now ("forgets both"), then Sync Rows by Phone with the e-mail fixed: the row is created once', async () => {
		const h = harness();
		const row = { email: 'jörg.ab2@example.test', phone: '+49 30 5557102', first: 'Jörg', city: 'Bonn', skills: '' };
		const refused = await sync(h, [row], { extra: BY_EMAIL });
		expect(String(refused.outputs[0].error)).toMatch(/422/);
		const forgot = await sync(h, [row], { extra: forgetBy(BY_EMAIL) });
		expect(forgot.actions).toEqual(['forgotten']);
		const fixed = { ...row, email: 'joerg.ab2@example.test' };
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [fixed], { extra: BY_PHONE });
		expect({ forgot: forgot.outputs[0].message, action: byPhone.actions[0], error: byPhone.outputs[0].error || undefined, creations: creationEmails(sandbox(), from) }).toEqual({
			forgot: forgot.outputs[0].message,
			action: 'created',
			error: undefined,
			creations: [fixed.email],
		});
	}, 60_000);

	it('the first run fails at the login (a wrong password: nothing sent); the password fixed and Match By switched to Phone: every row created once, none refused, as the dry run before it plans', async () => {
		const h = new Harness(emailCredential(sandbox(), { ...ALICE, password: `${ALICE.password}-wrong` }));
		const sheet = [0, 1, 2, 3, 4, 5].map((index) => person('pw', index, `+49 30 55572${index}0`));
		const first = await sync(h, sheet, { extra: BY_EMAIL });
		expect(first.actions).toEqual(Array(6).fill('failed'));
		expect(creationEmails(sandbox(), 0).filter((email) => String(email).startsWith('ab.pw.'))).toEqual([]);
		h.setCredential(emailCredential(sandbox(), ALICE));
		const plan = await sync(h, sheet, { extra: dry(BY_PHONE) });
		const from = sandbox().requests.length;
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		expect({ plan: plan.actions, actions: byPhone.actions, refused: refusedIn(byPhone.outputs, sheet), creations: creationEmails(sandbox(), from).length }).toEqual({
			plan: Array(6).fill('created'),
			actions: Array(6).fill('created'),
			refused: [],
			creations: 6,
		});
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. Stops, Retry On Fail
// ---------------------------------------------------------------------------------------------

describe('alias break: stops and retries, then a switch', () => {
	it('Stop Execution while creations wait for Max Requests per Second; then Match By Phone: every row whose creation never reached the service is created (only creations sent are held), none twice', async () => {
		const h = harness();
		const sheet = Array.from({ length: 12 }, (_, index) => person('stop', index, `+49 30 5557${300 + index}`));
		const from = sandbox().requests.length;
		const saved = JSON.parse(JSON.stringify(h.staticData)) as IDataObject;
		const stopped = await sync(h, sheet, {
			extra: withOptions(BY_EMAIL, { concurrency: 6, requestsPerSecond: 2 }),
			onStart: (execution) => void until(() => creationEmails(sandbox(), from).length >= 2).then(() => execution.cancel()),
		});
		// n8n saves no static data of a stopped execution (docs/sync-memory.md, "What survives what").
		h.staticData = saved;
		expect(stopped.result.error).toBeDefined();
		const phoneFrom = sandbox().requests.length;
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		// docs/sync-memory.md, "What survives what": "Stop Execution, then a run: the rows never sent are created; a creation that got no answer is refused".
		expect({
			refusedNeverSent: refusedIn(byPhone.outputs, sheet).filter((email) => neverCreated(from, phoneFrom, email)),
			twice: sheet.filter((row) => storedUnder(row.email) > 1).map((row) => row.email),
		}).toEqual({ refusedNeverSent: [], twice: [] });
		const refused = refusedIn(byPhone.outputs, sheet);
		expect(creationEmails(sandbox(), phoneFrom).sort()).toEqual(sheet.map((row) => String(row.email)).filter((email) => neverCreated(from, phoneFrom, email) && !refused.includes(email)).sort());
	}, 90_000);

	it('On Error: Stop Workflow (the default); one row refused by the service (422) stops the run while the rows behind it wait for Max Requests per Second; the row fixed, Match By Phone: every row never created is created', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => person('halt', index, `+49 30 5557${400 + index}`));
		sheet[1] = { ...sheet[1], email: 'ab.hält.1@example.test' };
		const from = sandbox().requests.length;
		const stopped = await sync(h, sheet, { extra: withOptions(BY_EMAIL, { concurrency: 5, requestsPerSecond: 2 }), onError: 'stopWorkflow' });
		expect(String(stopped.result.error?.message ?? '')).toMatch(/422|valid e-mail/);
		const fixedSheet = sheet.map((row, index) => (index === 1 ? { ...row, email: 'ab.haelt.1@example.test' } : row));
		const phoneFrom = sandbox().requests.length;
		const byPhone = await sync(h, fixedSheet, { extra: BY_PHONE });
		// Judged by the e-mail each row's creation was sent with in the stopped run (row 1's was refused 422).
		expect({
			refusedNeverCreated: refusedRows(byPhone.outputs)
				.filter((index) => neverCreated(from, phoneFrom, sheet[index].email))
				.map((index) => fixedSheet[index].email),
			twice: fixedSheet.filter((row) => storedUnder(row.email) > 1).map((row) => row.email),
		}).toEqual({ refusedNeverCreated: [], twice: [] });
		for (const row of fixedSheet) expect(storedUnder(row.email)).toBe(1);
	}, 90_000);

	it('Retry On Fail: the first try fails at the login (every row admitted, nothing sent), the second creates every row by Email; after a restart Match By Phone: every row `unchanged`, nothing sent', async () => {
		const h = harness();
		const sheet = [0, 1, 2, 3, 4].map((index) => person('retry', index, `+49 30 55575${index}0`));
		sandbox().setFaults({ loginScript: [{ status: 401 }] });
		const tried = await sync(h, sheet, { extra: BY_EMAIL, onError: 'stopWorkflow', retryOnFail: { maxTries: 2, waitBetweenTries: 10 } });
		sandbox().setFaults({});
		expect(tried.actions).toEqual(Array(5).fill('created'));
		restart();
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		expect({ actions: byPhone.actions, writes: byPhone.writes, slugs: byPhone.outputs.map((output) => output.slug) }).toEqual({
			actions: Array(5).fill('unchanged'),
			writes: [],
			slugs: tried.outputs.map((output) => output.slug),
		});
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 90_000);
});

// ---------------------------------------------------------------------------------------------
// 3. A creation without an answer: a shared phone, Forget and Adopt after a restart
// ---------------------------------------------------------------------------------------------

describe('alias break: a creation without an answer', () => {
	// Passes since a row takes its turn under its other keys too (memory/rows.ts `inTurn`, 2026-12-02): Zoe's row, before Yara's in the
	// input, remembers her candidate under the landline, which ends Xaver's hold there, as when the rows come one run after another.
	// With Yara first she is refused as held (the next test): a new row that shares the phone of a row held in this process is refused
	// as held there too (docs/create-or-update.md, "What a switch does not cover": the memory cannot tell the same person from another).
	it('a family landline: Zoe is known by Email; Xaver\'s creation by Phone gets no answer (held); back to Match By Email with the landline in every row: Xaver refused, Zoe updated on her candidate, Yara (new, the same landline) created', async () => {
		const h = harness();
		const phone = '+49 30 5557601';
		const zoe = { email: 'ab.family.zoe@example.test', phone: '', first: 'Zoe', city: 'Essen', skills: '' };
		const xaver = { email: 'ab.family.xaver@example.test', phone, first: 'Xaver', city: 'Essen', skills: '' };
		const yara = { email: 'ab.family.yara@example.test', phone, first: 'Yara', city: 'Essen', skills: '' };
		const known = await sync(h, [zoe], { extra: BY_EMAIL });
		expect(known.actions).toEqual(['created']);
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [xaver], { extra: BY_PHONE });
		sandbox().setFaults({});
		expect(String(held.outputs[0].error)).toMatch(MAY_EXIST);
		const from = sandbox().requests.length;
		const byMail = await sync(h, [xaver, { ...zoe, phone }, yara], { extra: BY_EMAIL });
		// docs/create-or-update.md, Match By: a held row "is refused as held under the other key too": Xaver's row, not the others sharing his phone.
		expect({
			actions: byMail.actions,
			zoe: [byMail.outputs[1].slug, byMail.outputs[1].error || undefined],
			yara: byMail.outputs[2].error || undefined,
			creations: creationEmails(sandbox(), from),
		}).toEqual({ actions: ['failed', 'updated', 'created'], zoe: [known.outputs[0].slug, undefined], yara: undefined, creations: [yara.email] });
		expect(String(byMail.outputs[0].error)).toMatch(MAY_EXIST);
		expect([storedUnder(xaver.email), storedUnder(zoe.email), storedUnder(yara.email)]).toEqual([1, 1, 1]);
	}, 60_000);

	it.failing('open (stated): the same with Yara before Zoe in the input: Yara (new, the same landline) is created, not refused as held', async () => {
		const h = harness();
		const phone = '+49 30 5557602';
		const zoe = { email: 'ab.family2.zoe@example.test', phone: '', first: 'Zoe', city: 'Essen', skills: '' };
		const xaver = { email: 'ab.family2.xaver@example.test', phone, first: 'Xaver', city: 'Essen', skills: '' };
		const yara = { email: 'ab.family2.yara@example.test', phone, first: 'Yara', city: 'Essen', skills: '' };
		expect((await sync(h, [zoe], { extra: BY_EMAIL })).actions).toEqual(['created']);
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [xaver], { extra: BY_PHONE });
		sandbox().setFaults({});
		expect(String(held.outputs[0].error)).toMatch(MAY_EXIST);
		const from = sandbox().requests.length;
		const byMail = await sync(h, [xaver, yara, { ...zoe, phone }], { extra: BY_EMAIL });
		expect({ actions: byMail.actions, creations: creationEmails(sandbox(), from) }).toEqual({ actions: ['failed', 'created', 'updated'], creations: [yara.email] });
	}, 60_000);

	// Open, documented (docs/create-or-update.md, Match By): Forget in a process that does not know the row's slug or hold it forgets the
	// row under the key it is matched by only (its other key may be another person's); forget it with each Match By it was run with.
	it.failing('a creation by Email whose connection broke before the service stored it (held); n8n restarts; the user finds no candidate and forgets the row by Email (Forget Now); Match By Phone then creates it once', async () => {
		const h = harness();
		const row = { email: 'ab.lost@example.test', phone: '+49 30 5557701', first: 'Lost', city: 'Hof', skills: '' };
		sandbox().setFaults({ paths: [CANDIDATE], dropRate: 1, seed: 1 });
		const held = await sync(h, [row], { extra: BY_EMAIL });
		sandbox().setFaults({});
		expect(String(held.outputs[0].error)).toMatch(MAY_EXIST);
		expect(storedUnder(row.email)).toBe(0);
		restart();
		const forgot = await sync(h, [row], { extra: forgetBy(BY_EMAIL) });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect(String(forgot.outputs[0].message)).toMatch(/the next Sync Rows run creates this row again/);
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [row], { extra: BY_PHONE });
		expect({ action: byPhone.actions[0], error: byPhone.outputs[0].error || undefined, creations: creationEmails(sandbox(), from) }).toEqual({
			action: 'created',
			error: undefined,
			creations: [row.email],
		});
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);

	it('a creation by Email stored, its answer lost (held); n8n restarts; Adopt Given Slugs by Email with its slug; after another restart Match By Phone with a change: updated on that candidate, nothing created', async () => {
		const h = harness();
		const row = { email: 'ab.adopt@example.test', phone: '+49 30 5557801', first: 'Ada', city: 'Ulm', skills: 'SQL: 3' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [row], { extra: BY_EMAIL });
		sandbox().setFaults({});
		expect(String(held.outputs[0].error)).toMatch(MAY_EXIST);
		const slug = sandbox()
			.candidates(1)
			.find((candidate) => candidate.email === row.email)?.slug;
		expect(slug).toBeDefined();
		restart();
		const adopted = await sync(h, [{ ...row, slug }], { extra: adoptBy(BY_EMAIL) });
		expect(adopted.actions).toEqual(['adopted']);
		restart();
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [{ ...row, city: 'Jena' }], { extra: BY_PHONE });
		expect({ action: byPhone.actions[0], slug: byPhone.outputs[0].slug, error: byPhone.outputs[0].error || undefined, creations: creationEmails(sandbox(), from) }).toEqual({
			action: 'updated',
			slug,
			error: undefined,
			creations: [],
		});
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. A large first run, manual runs
// ---------------------------------------------------------------------------------------------

describe('alias break: a large first run and manual runs', () => {
	it('200 new rows by Email (every 25th without a phone): each created once; a run by Phone in the same process and one after a restart: every row with a phone `unchanged`, none refused, nothing sent', async () => {
		const h = harness();
		const sheet = Array.from({ length: 200 }, (_, index) => person('big', index, index % 25 === 7 ? '' : `+49 40 ${String(5_000_000 + index * 37)}`));
		const from = sandbox().requests.length;
		const first = await sync(h, sheet, { extra: withOptions(BY_EMAIL, { concurrency: 10 }) });
		const created = creationEmails(sandbox(), from);
		expect({ created: first.actions.filter((action) => action === 'created').length, posts: created.length, distinct: new Set(created).size }).toEqual({ created: 200, posts: 200, distinct: 200 });
		const withPhone = sheet.map((row) => row.phone !== '');
		const expected = withPhone.map((has) => (has ? 'unchanged' : 'failed'));
		const same = await sync(h, sheet, { extra: withOptions(BY_PHONE, { concurrency: 10 }) });
		restart();
		const after = await sync(h, sheet, { extra: withOptions(BY_PHONE, { concurrency: 10 }) });
		expect({
			same: same.actions,
			after: after.actions,
			refused: [...refusedIn(same.outputs, sheet), ...refusedIn(after.outputs, sheet)],
			writes: [...same.writes, ...after.writes],
		}).toEqual({ same: expected, after: expected, refused: [], writes: [] });
		expect(after.outputs.map((output) => output.slug ?? null)).toEqual(first.outputs.map((output, index) => (withPhone[index] ? output.slug : null)));
		for (const output of after.outputs.filter((_, index) => !withPhone[index])) expect(String(output.error)).toMatch(/no Phone to match it by/);
	}, 240_000);

	it('a manual run with Create in Manual Runs by Email; n8n restarts; by Phone the rows are refused ("may already exist", as documented); Adopt Given Slugs by Phone with the manual run\'s slugs: then by Phone and by Email `unchanged`, nothing created twice', async () => {
		const h = harness();
		const sheet = [0, 1, 2].map((index) => person('hand', index, `+49 30 55579${index}0`));
		const byHand = await sync(h, sheet, { manual: true, extra: withOptions(BY_EMAIL, { createInManualRuns: true }) });
		expect(byHand.actions).toEqual(['created', 'created', 'created']);
		restart();
		const from = sandbox().requests.length;
		// docs/create-or-update.md, Match By: after a restart "n8n's store holds a row's content under the key it was matched by only: after a switch such rows are refused".
		const refused = await sync(h, sheet, { extra: BY_PHONE });
		expect(refusedIn(refused.outputs, sheet)).toEqual(sheet.map((row) => row.email));
		const adopted = await sync(
			h,
			sheet.map((row, index) => ({ ...row, slug: byHand.outputs[index].slug })),
			{ extra: adoptBy(BY_PHONE) },
		);
		expect(adopted.actions).toEqual(['adopted', 'adopted', 'adopted']);
		// The adopted row's content mark is under its e-mail only: its profile may be sent once (Adopt: "its profile is sent once by the next run").
		const once = await sync(h, sheet, { extra: BY_PHONE });
		for (const action of once.actions) expect(['unchanged', 'updated']).toContain(action);
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		restart();
		const byMail = await sync(h, sheet, { extra: BY_EMAIL });
		expect({ byPhone: byPhone.actions, byMail: byMail.actions, creations: creationEmails(sandbox(), from), slugs: byMail.outputs.map((output) => output.slug) }).toEqual({
			byPhone: ['unchanged', 'unchanged', 'unchanged'],
			byMail: ['unchanged', 'unchanged', 'unchanged'],
			creations: [],
			slugs: byHand.outputs.map((output) => output.slug),
		});
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 90_000);

	// Executions of both Match By settings working on the same new rows at once in one n8n process take turns per row under both keys
	// (memory/rows.ts `inTurn`, 2026-12-02): before, each claimed it under its own key and all 16 rows were created twice. In two
	// processes (queue workers) it stays open (docs/create-or-update.md, "What a switch does not cover").
	it('the switch is published while the last run by Email is still under way: an execution by Phone overlaps it in the same n8n process over the same new rows: each candidate created once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 16 }, (_, index) => person('overlap', index, `+49 30 5558${100 + index}`));
		const from = sandbox().requests.length;
		const [byMail, byPhone] = await Promise.all([sync(h, sheet, { extra: BY_EMAIL }), sync(h, sheet, { extra: BY_PHONE })]);
		const posts = creationEmails(sandbox(), from);
		// docs/create-or-update.md, The memory: "Executions that overlap in one n8n process take turns per row: each row is created once".
		expect({ posts: posts.length, twice: sheet.filter((row) => storedUnder(row.email) > 1).map((row) => row.email) }).toEqual({ posts: 16, twice: [] });
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
		expect(byMail.actions.length + byPhone.actions.length).toBe(32);
	}, 90_000);
});
