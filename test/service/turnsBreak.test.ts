/**
 * A review that tries to break the change of 2026-12-02 (memory/rows.ts `inTurn(key, work, others)`, registry.ts `inTurns`,
 * upsert.operation.ts passing a row's `aliases`): a row takes its turn in the n8n process under its main key AND its other keys
 * (its phone when matched by e-mail, its e-mail when matched by phone) at once, for Sync, Forget Each Input Row and Adopt Given
 * Slugs alike. As a user meets it: Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP,
 * overlapping executions of both Match By settings in one process, families sharing a landline, the same row twice in one input,
 * Stop Execution and errors while rows wait for their turns.
 *
 * The promises asserted (the change's own claims; docs/create-or-update.md, Match By and "What a switch does not cover";
 * docs/sync-memory.md; docs/errors-and-retries.md): no deadlock or stall (every execution ends and every item has an output); the
 * order of the calls kept under every key (an input's rows that share a key run in input order, and a Dry Run right before plans
 * what the run does); executions of both Match By settings in one process never create a row twice; after a stop or an error
 * nothing is stranded and the next run creates what was never sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { adoptBy, BY_EMAIL, BY_KEY, BY_PHONE, CANDIDATE, dry, FIELDS, forgetBy, withOptions } from '../helpers/matchBy';
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

/**
 * Another execution of the same workflow whose static data is its own copy (a cancelled execution: n8n saves none of it, and
 * the harness would save it over the one another execution saved meanwhile). Same workflow id and node: the same memory in the
 * process and the same n8n store.
 */
function twinOf(h: Harness): Harness {
	const twin = harness();
	(twin as unknown as { workflowId: string }).workflowId = h.workflowId;
	twin.staticData = JSON.parse(JSON.stringify(h.staticData)) as IDataObject;
	return twin;
}

/** A production execution (static data loaded and saved), On Error: Continue unless given. */
const sync = async (h: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), h, items, { fields: FIELDS, ...options });

/** n8n restarted: the process registry is gone, the workflow's saved static data and n8n's store stay. */
const restart = () => forgetProcessMemory();

/** Every execution must end: a stall fails with a message instead of jest's timeout. */
async function ends<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
	let done = false;
	const watched = work.finally(() => {
		done = true;
	});
	const watch = async (): Promise<T> => {
		for (let waited = 0; waited < ms && !done; waited += 100) await sleep(100);
		if (!done) throw new Error(`stalled: ${what} did not end within ${ms} ms`);
		return await watched;
	};
	return await Promise.race([watched, watch()]);
}

/** How many candidates Alice's company stores under an e-mail (any case). */
const storedUnder = (email: unknown) =>
	sandbox()
		.candidates(1)
		.filter((candidate) => String(candidate.email ?? '').toLowerCase() === String(email).toLowerCase()).length;

const candidateOf = (slug: unknown) =>
	sandbox()
		.candidates(1)
		.find((candidate) => candidate.slug === slug);

/** The e-mails of a sheet stored more than once. */
const twiceIn = (sheet: IDataObject[]) => [...new Set(sheet.map((row) => String(row.email)))].filter((email) => storedUnder(email) > 1);

/** The e-mails of a sheet not stored at all. */
const missingIn = (sheet: IDataObject[]) => [...new Set(sheet.map((row) => String(row.email)))].filter((email) => storedUnder(email) === 0);

/** Whether no creation under this e-mail between requests `from` and `to` can have made a candidate: none reached the service, or each was refused (4xx). */
const neverCreated = (from: number, to: number, email: unknown) =>
	sandbox()
		.requests.slice(from, to)
		.filter((request) => request.method === 'POST' && request.path === CANDIDATE && (request.body as IDataObject | undefined)?.email === email)
		.every((request) => request.status >= 400 && request.status < 500);

const mayExist = (output: IDataObject) => output.action === 'failed' && MAY_EXIST.test(String(output.error));

/** A row of the sheet: an ASCII e-mail and the phone given. */
const person = (tag: string, index: number, phone: string): IDataObject => ({ email: `tb.${tag}.${index}@example.test`, phone, first: `P${index}`, city: 'Bonn', skills: '', id: `tb-${tag}-${index}` });

const GOOD = ['created', 'updated', 'unchanged'];

/** A new row in any of the settings' outputs: how it ended (only "went through" actions expected without faults). */
const notThrough = (outputs: IDataObject[]) => outputs.filter((output) => !GOOD.includes(String(output.action))).map((output) => `${String(output.action)}: ${String(output.error ?? '')}`);

const by = (setting: INodeParameters, concurrency: number): INodeParameters => withOptions(setting, { concurrency });

// ---------------------------------------------------------------------------------------------
// 1. No deadlock, no stall: overlapping executions over the same rows in different orders
// ---------------------------------------------------------------------------------------------

describe('turns break: overlapping executions of both Match By settings end', () => {
	it('Email and Phone over the same 24 new rows at once, the Phone input reversed, concurrency 8: both end, 48 outputs all through, each candidate created once; then both settings find every row unchanged', async () => {
		const h = harness();
		const sheet = Array.from({ length: 24 }, (_, index) => person('rev', index, `+49 30 5561${100 + index}`));
		const from = sandbox().requests.length;
		const [byMail, byPhone] = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 8) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 8) })]), 100_000, 'the two executions');
		expect({
			outputs: [byMail.outputs.length, byPhone.outputs.length],
			notThrough: [...notThrough(byMail.outputs), ...notThrough(byPhone.outputs)],
			posts: creationEmails(sandbox(), from).length,
			twice: twiceIn(sheet),
			missing: missingIn(sheet),
		}).toEqual({ outputs: [24, 24], notThrough: [], posts: 24, twice: [], missing: [] });
		// Each row's slug is the same in both outputs (one candidate).
		const reversed = [...byPhone.outputs].reverse();
		expect(byMail.outputs.map((output) => output.slug)).toEqual(reversed.map((output) => output.slug));
		const again = await sync(h, sheet, { extra: BY_PHONE });
		const againMail = await sync(h, sheet, { extra: BY_EMAIL });
		expect({ phone: again.actions, mail: againMail.actions, writes: [...again.writes, ...againMail.writes] }).toEqual({
			phone: Array(24).fill('unchanged'),
			mail: Array(24).fill('unchanged'),
			writes: [],
		});
	}, 180_000);

	// Match Key is not covered by a switch (docs/create-or-update.md, Match By: Email to Phone or back): a Key execution that comes
	// after an Email one for a row creates it again, so only the ends, the outputs and "at most one creation besides the Key's" count.
	it('Email, Phone and Match Key executions over the same 12 new rows at once, each in another order (a Key row takes turns under the e-mail and the phone): all end with every output through; no row created by more than one Email/Phone execution', async () => {
		const h = harness();
		const sheet = Array.from({ length: 12 }, (_, index) => person('three', index, `+49 30 5561${200 + index}`));
		const shuffled = [5, 11, 0, 7, 2, 9, 4, 1, 10, 3, 8, 6].map((index) => sheet[index]);
		const from = sandbox().requests.length;
		const runs = await ends(
			Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 6) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 6) }), sync(h, shuffled, { extra: by(BY_KEY, 6) })]),
			100_000,
			'the three executions',
		);
		expect({
			outputs: runs.map((run) => run.outputs.length),
			notThrough: runs.flatMap((run) => notThrough(run.outputs)),
			moreThanTwice: sheet.filter((row) => storedUnder(row.email) > 2).map((row) => row.email),
			missing: missingIn(sheet),
		}).toEqual({ outputs: [12, 12, 12], notThrough: [], moreThanTwice: [], missing: [] });
		expect(creationEmails(sandbox(), from).length).toBeLessThanOrEqual(24);
	}, 180_000);

	// Under Match By Phone a family is one candidate (docs/create-or-update.md, "What a switch does not cover"): the Phone execution
	// here runs only the people with a phone of their own, who are in the Email sheets too.
	it('families: 20 people by Email sharing 4 landlines (5 each) and 4 with their own phones; two Email executions in opposite orders and one Phone execution of the 4 with own phones overlap, concurrency 10: all end, each person created once', async () => {
		const h = harness();
		const phones = ['+49 30 5562001', '+49 30 5562002', '+49 30 5562003', '+49 30 5562004'];
		const family = Array.from({ length: 20 }, (_, index) => person('fam', index, phones[index % 4]));
		const single = Array.from({ length: 4 }, (_, index) => person('famsingle', index, `+49 30 55620${50 + index}`));
		const sheet = [...family.slice(0, 10), ...single, ...family.slice(10)];
		const from = sandbox().requests.length;
		const runs = await ends(
			Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 10) }), sync(h, [...sheet].reverse(), { extra: by(BY_EMAIL, 10) }), sync(h, single, { extra: by(BY_PHONE, 10) })]),
			100_000,
			'the three executions',
		);
		expect({
			outputs: runs.map((run) => run.outputs.length),
			notThrough: runs.flatMap((run) => notThrough(run.outputs)),
			twice: twiceIn(sheet),
			missing: missingIn(sheet),
			posts: creationEmails(sandbox(), from).length,
		}).toEqual({ outputs: [24, 24, 4], notThrough: [], twice: [], missing: [], posts: 24 });
	}, 180_000);

	it('the same row three times in one input by Email (concurrency 8) while an execution by Phone has it twice, reversed: both end with every output, the row created once', async () => {
		const h = harness();
		const others = Array.from({ length: 6 }, (_, index) => person('dup', index, `+49 30 5562${100 + index}`));
		const row = person('dup', 99, '+49 30 5562199');
		const mail = [row, ...others.slice(0, 3), { ...row }, ...others.slice(3), { ...row }];
		const phone = [...others].reverse().concat([row]);
		phone.splice(2, 0, { ...row });
		const from = sandbox().requests.length;
		const [byMail, byPhone] = await ends(Promise.all([sync(h, mail, { extra: by(BY_EMAIL, 8) }), sync(h, phone, { extra: by(BY_PHONE, 8) })]), 100_000, 'the two executions');
		expect({ outputs: [byMail.outputs.length, byPhone.outputs.length], notThrough: [...notThrough(byMail.outputs), ...notThrough(byPhone.outputs)], twice: twiceIn([row, ...others]) }).toEqual({
			outputs: [mail.length, phone.length],
			notThrough: [],
			twice: [],
		});
		expect(creationEmails(sandbox(), from).sort()).toEqual([row, ...others].map((each) => String(each.email)).sort());
	}, 180_000);
});

// ---------------------------------------------------------------------------------------------
// 2. Order under every key
// ---------------------------------------------------------------------------------------------

describe('turns break: an input\'s rows that share a key run in input order', () => {
	it('by Email, concurrency 8: Anna (landline), Bert (the same landline), Anna again moved to Jena: created, created, updated, Anna in Jena; the Dry Run right before plans the same', async () => {
		const h = harness();
		const phone = '+49 30 5563001';
		const anna = { email: 'tb.order.anna@example.test', phone, first: 'Anna', city: 'Bonn', skills: '' };
		const bert = { email: 'tb.order.bert@example.test', phone, first: 'Bert', city: 'Bonn', skills: '' };
		const input = [anna, bert, { ...anna, city: 'Jena' }];
		const plan = await sync(h, input, { extra: dry(by(BY_EMAIL, 8)) });
		const real = await sync(h, input, { extra: by(BY_EMAIL, 8) });
		expect({ plan: plan.actions, real: real.actions }).toEqual({ plan: ['created', 'created', 'updated'], real: ['created', 'created', 'updated'] });
		expect(candidateOf(real.outputs[0].slug)?.city).toBe('Jena');
		expect(real.outputs[2].slug).toBe(real.outputs[0].slug);
		expect([storedUnder(anna.email), storedUnder(bert.email)]).toEqual([1, 1]);
	}, 60_000);

	it('by Phone, concurrency 8: two rows of one landline (one candidate under Match By Phone), Bonn then Jena: created, updated, the candidate in Jena; the Dry Run right before plans the same', async () => {
		const h = harness();
		const phone = '+49 30 5563002';
		const first = { email: 'tb.order2.a@example.test', phone, first: 'Ada', city: 'Bonn', skills: '' };
		const second = { email: 'tb.order2.a@example.test', phone: '+49 (30) 556-3002', first: 'Ada', city: 'Jena', skills: '' };
		const input = [first, second];
		const plan = await sync(h, input, { extra: dry(by(BY_PHONE, 8)) });
		const real = await sync(h, input, { extra: by(BY_PHONE, 8) });
		expect({ plan: plan.actions, real: real.actions }).toEqual({ plan: ['created', 'updated'], real: ['created', 'updated'] });
		expect(candidateOf(real.outputs[0].slug)?.city).toBe('Jena');
	}, 60_000);

	it('by Email, concurrency 10: ten rows of one family landline then each again with a new city: every second row updated, in order', async () => {
		const h = harness();
		const phone = '+49 30 5563003';
		const family = Array.from({ length: 10 }, (_, index) => person('ord3', index, phone));
		const input = [...family, ...family.map((row) => ({ ...row, city: 'Jena' }))];
		const plan = await sync(h, input, { extra: dry(by(BY_EMAIL, 10)) });
		const real = await sync(h, input, { extra: by(BY_EMAIL, 10) });
		const expected = [...Array(10).fill('created'), ...Array(10).fill('updated')];
		expect({ plan: plan.actions, real: real.actions }).toEqual({ plan: expected, real: expected });
		for (const output of real.outputs.slice(0, 10)) expect(candidateOf(output.slug)?.city).toBe('Jena');
	}, 90_000);
});

// ---------------------------------------------------------------------------------------------
// 3. Stops and errors while rows wait for their turns
// ---------------------------------------------------------------------------------------------

describe('turns break: stops and errors while rows wait for turns', () => {
	it('Stop Execution of an Email execution (2 requests a second) while a Phone execution (3 a second) works the same 12 rows reversed: both end, nothing created twice; then by Email every row never sent is created, none refused that never reached the service', async () => {
		const h = harness();
		const sheet = Array.from({ length: 12 }, (_, index) => person('stop', index, `+49 30 5564${100 + index}`));
		const stoppedOne = twinOf(h);
		const from = sandbox().requests.length;
		const [stopped, byPhone] = await ends(
			Promise.all([
				sync(stoppedOne, sheet, {
					extra: withOptions(BY_EMAIL, { concurrency: 6, requestsPerSecond: 2 }),
					onStart: (execution) => void until(() => creationEmails(sandbox(), from).length >= 5).then(() => execution.cancel()),
				}),
				sync(h, [...sheet].reverse(), { extra: withOptions(BY_PHONE, { concurrency: 6, requestsPerSecond: 3 }) }),
			]),
			100_000,
			'the stopped and the running execution',
		);
		expect(stopped.result.error).toBeDefined();
		expect({ phoneOutputs: byPhone.outputs.length, twice: twiceIn(sheet) }).toEqual({ phoneOutputs: 12, twice: [] });
		const mailFrom = sandbox().requests.length;
		const byMail = await sync(h, sheet, { extra: BY_EMAIL });
		const refused = byMail.outputs.flatMap((output, index) => (mayExist(output) ? [String(sheet[index].email)] : []));
		expect({
			refusedNeverSent: refused.filter((email) => neverCreated(from, mailFrom, email)),
			notCreated: byMail.outputs.flatMap((output, index) => (output.action === 'failed' && !mayExist(output) ? [`${String(sheet[index].email)}: ${String(output.error)}`] : [])),
			twice: twiceIn(sheet),
			missing: missingIn(sheet).filter((email) => !refused.includes(email)),
		}).toEqual({ refusedNeverSent: [], notCreated: [], twice: [], missing: [] });
	}, 180_000);

	it('On Error: Stop Workflow: an Email execution stops at a row the service refuses (422) while a Phone execution (On Error: Continue) works the same rows: both end, the Phone one with every output; fixed, by Email every row is created once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 10 }, (_, index) => person('halt', index, `+49 30 5564${200 + index}`));
		sheet[4] = { ...sheet[4], email: 'tb.hält.4@example.test' };
		const from = sandbox().requests.length;
		const [stopped, byPhone] = await ends(
			Promise.all([
				sync(h, sheet, { extra: withOptions(BY_EMAIL, { concurrency: 4, requestsPerSecond: 3 }), onError: 'stopWorkflow' }),
				sync(h, [...sheet].reverse(), { extra: withOptions(BY_PHONE, { concurrency: 4, requestsPerSecond: 3 }) }),
			]),
			100_000,
			'the two executions',
		);
		expect(String(stopped.result.error?.message ?? '')).toMatch(/422|valid e-mail/);
		expect(byPhone.outputs.length).toBe(10);
		const fixed = sheet.map((row, index) => (index === 4 ? { ...row, email: 'tb.haelt.4@example.test' } : row));
		const mailFrom = sandbox().requests.length;
		const byMail = await sync(h, fixed, { extra: BY_EMAIL });
		expect({
			refusedNeverCreated: byMail.outputs.flatMap((output, index) => (mayExist(output) && neverCreated(from, mailFrom, sheet[index].email) ? [fixed[index].email] : [])),
			twice: twiceIn(fixed),
			missing: missingIn(fixed),
		}).toEqual({ refusedNeverCreated: [], twice: [], missing: [] });
	}, 180_000);

	// A creation answered 500/503 (no Retry-After) is of unknown outcome (docs/errors-and-retries.md: "the item fails and says the record
	// may or may not exist"): held, refused "may already exist" afterwards. Judged by what reached the service.
	it('a service 500 or 503 on a third of the creations while Email and Phone executions overlap on 16 rows: both end with every output; then by Email and by Phone: no row twice, none refused but those whose creation got no clear answer, every other row stored once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 16 }, (_, index) => person('e500', index, `+49 30 5564${300 + index}`));
		sandbox().setFaults({ paths: [CANDIDATE], errorRate: 0.33, seed: 7 });
		const runs = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 5) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 5) })]), 100_000, 'the two executions');
		sandbox().setFaults({});
		expect(runs.map((run) => run.outputs.length)).toEqual([16, 16]);
		expect(twiceIn(sheet)).toEqual([]);
		// The rows whose creation got no clear answer in the overlap (their outputs say "may or may not have stored it"); the sandbox
		// logs a faulted request without its body, so its outputs tell them.
		const unknown = new Set([...runs[0].outputs.map((output, index) => ({ output, email: String(sheet[index].email) })), ...runs[1].outputs.map((output, index) => ({ output, email: String(sheet[15 - index].email) }))].filter(({ output }) => output.action === 'failed' && MAY_EXIST.test(String(output.error))).map(({ email }) => email));
		const byMail = await sync(h, sheet, { extra: BY_EMAIL });
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		const refused = [...new Set([...byMail.outputs, ...byPhone.outputs].flatMap((output, index) => (mayExist(output) ? [String(sheet[index % 16].email)] : [])))];
		expect({
			refusedNotUnknown: refused.filter((email) => !unknown.has(email)),
			otherFailures: [...byMail.outputs, ...byPhone.outputs].filter((output) => output.action === 'failed' && !mayExist(output)).map((output) => String(output.error)),
			twice: twiceIn(sheet),
			missingNotRefused: missingIn(sheet).filter((email) => !refused.includes(email)),
		}).toEqual({ refusedNotUnknown: [], otherFailures: [], twice: [], missingNotRefused: [] });
	}, 180_000);

	it('creations without an answer (a quarter dropped after the service stored them) while Email and Phone executions overlap on 16 rows: both end; no row twice; then by Email and by Phone only stored rows are refused, the others created once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 16 }, (_, index) => person('drop', index, `+49 30 5564${400 + index}`));
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 0.25, seed: 11 });
		const runs = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 5) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 5) })]), 100_000, 'the two executions');
		sandbox().setFaults({});
		expect(runs.map((run) => run.outputs.length)).toEqual([16, 16]);
		expect(twiceIn(sheet)).toEqual([]);
		const byMail = await sync(h, sheet, { extra: BY_EMAIL });
		const byPhone = await sync(h, sheet, { extra: BY_PHONE });
		const refusedNotStored = [...byMail.outputs, ...byPhone.outputs.map((output, index) => ({ ...output, email: sheet[index].email }))]
			.map((output, index) => ({ output, email: index < 16 ? sheet[index].email : sheet[index - 16].email }))
			.filter(({ output, email }) => mayExist(output) && storedUnder(email) === 0)
			.map(({ email }) => email);
		expect({ refusedNotStored, twice: twiceIn(sheet), missing: missingIn(sheet) }).toEqual({ refusedNotStored: [], twice: [], missing: [] });
	}, 180_000);

	// n8n marks a stopped execution canceled at once (its workflowExecuteAfter hook runs on the stop); the node's own promise, which the
	// harness awaits, ends when its rows do: a row waiting behind another execution's row waits for that row's requests (here a creation
	// and a profile update that hang 12 s each). Asserted: nothing sent by the stopped execution, the row once, found afterwards.
	it('a creation by Email that hangs 12 s: an execution by Phone over the same row waits for its turn and is stopped: it sends nothing, ends once the Email row is done; the row is created once and then found by Phone', async () => {
		const h = harness();
		const row = person('hang', 0, '+49 30 5564501');
		sandbox().setFaults({ paths: [CANDIDATE], hangPaths: [CANDIDATE], hangMs: 12_000 });
		const from = sandbox().requests.length;
		const byMail = sync(h, [row], { extra: BY_EMAIL });
		expect(await until(() => creationEmails(sandbox(), from).length >= 1, 20_000)).toBe(true);
		let cancelledAt = 0;
		const stoppedOne = twinOf(h);
		const phoneFrom = sandbox().requests.length;
		const byPhone = await ends(
			sync(stoppedOne, [row], {
				extra: BY_PHONE,
				onStart: (execution) =>
					void sleep(2_000).then(() => {
						cancelledAt = Date.now();
						execution.cancel();
					}),
			}),
			60_000,
			'the stopped Phone execution',
		);
		const stoppedEndedAfterMs = Date.now() - cancelledAt;
		const mail = await ends(byMail, 60_000, 'the Email execution');
		sandbox().setFaults({});
		// The Email execution's POST and PUT came before the Phone one was started or right after the POST's answer; none after the stop is a creation.
		expect({
			mail: mail.actions,
			stopped: byPhone.result.error !== undefined,
			posts: creationEmails(sandbox(), from).length,
			phoneWrites: byPhone.writes.filter((write) => String(write).startsWith('POST')).length,
			stored: storedUnder(row.email),
			requestsAfterPhoneStart: sandbox().requests.slice(phoneFrom).map((request) => `${request.method} ${request.path}`),
		}).toEqual({ mail: ['created'], stopped: true, posts: 1, phoneWrites: 0, stored: 1, requestsAfterPhoneStart: ['PUT /gin/v1/company/candidate'] });
		expect(stoppedEndedAfterMs).toBeLessThan(40_000);
		const again = await sync(h, [row], { extra: BY_PHONE });
		expect(again.actions).toEqual(['unchanged']);
	}, 120_000);
});

// ---------------------------------------------------------------------------------------------
// 4. Forget Each Input Row and Adopt Given Slugs overlapping syncs
// ---------------------------------------------------------------------------------------------

describe('turns break: Forget and Adopt take turns with syncs', () => {
	it('Forget Each Input Row by Email (Forget Now) overlaps a Sync by Phone and a Sync by Email of the same 12 known rows, in three orders: all end with every output; afterwards by Email then by Phone each row has one candidate in both outputs, none refused', async () => {
		const h = harness();
		const sheet = Array.from({ length: 12 }, (_, index) => person('fgt', index, `+49 30 5565${100 + index}`));
		expect((await sync(h, sheet, { extra: BY_EMAIL })).actions).toEqual(Array(12).fill('created'));
		const changed = sheet.map((row) => ({ ...row, city: 'Jena' }));
		const runs = await ends(
			Promise.all([
				sync(h, [...sheet].reverse(), { extra: forgetBy(BY_EMAIL) }),
				sync(h, changed, { extra: by(BY_PHONE, 6) }),
				sync(h, [...changed.slice(6), ...changed.slice(0, 6)], { extra: by(BY_EMAIL, 6) }),
			]),
			100_000,
			'the three executions',
		);
		expect(runs.map((run) => run.outputs.length)).toEqual([12, 12, 12]);
		expect(runs[0].actions).toEqual(Array(12).fill('forgotten'));
		expect([...notThrough(runs[1].outputs), ...notThrough(runs[2].outputs)]).toEqual([]);
		const byMail = await sync(h, changed, { extra: BY_EMAIL });
		const byPhone = await sync(h, changed, { extra: BY_PHONE });
		expect({ mail: notThrough(byMail.outputs), phone: byPhone.actions, sameSlugs: byPhone.outputs.map((output) => output.slug) }).toEqual({
			mail: [],
			phone: Array(12).fill('unchanged'),
			sameSlugs: byMail.outputs.map((output) => output.slug),
		});
		// Forget: "the next run creates it again": at most one creation per row besides the first.
		expect(sheet.filter((row) => storedUnder(row.email) > 2).map((row) => row.email)).toEqual([]);
	}, 180_000);

	it('rows created in a manual run by Email (not saved), n8n restarts; Adopt Given Slugs by Phone overlaps Syncs by Email and by Phone of the same rows: all end with every output, nothing created; afterwards by Phone and by Email nothing created, none refused', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => person('adp', index, `+49 30 5565${200 + index}`));
		const byHand = await sync(h, sheet, { manual: true, extra: withOptions(BY_EMAIL, { createInManualRuns: true }) });
		expect(byHand.actions).toEqual(Array(8).fill('created'));
		restart();
		const from = sandbox().requests.length;
		const withSlugs = sheet.map((row, index) => ({ ...row, slug: byHand.outputs[index].slug }));
		const runs = await ends(
			Promise.all([
				sync(h, withSlugs, { extra: adoptBy(by(BY_PHONE, 4)) }),
				sync(h, [...sheet].reverse(), { extra: by(BY_EMAIL, 4) }),
				sync(h, sheet, { extra: by(BY_PHONE, 4) }),
			]),
			100_000,
			'the three executions',
		);
		expect({ outputs: runs.map((run) => run.outputs.length), adopted: runs[0].actions, creations: creationEmails(sandbox(), from) }).toEqual({
			outputs: [8, 8, 8],
			adopted: Array(8).fill('adopted'),
			creations: [],
		});
		const once = await sync(h, sheet, { extra: BY_PHONE });
		const byMail = await sync(h, sheet, { extra: BY_EMAIL });
		expect({ phone: notThrough(once.outputs), mail: notThrough(byMail.outputs), creations: creationEmails(sandbox(), from), slugs: byMail.outputs.map((output) => output.slug) }).toEqual({
			phone: [],
			mail: [],
			creations: [],
			slugs: byHand.outputs.map((output) => output.slug),
		});
	}, 180_000);

	it('Adopt Given Slugs by Email of a family (3 people, one landline) overlaps a Sync by Email of the family with changes, concurrency 4: all end; each person keeps one candidate, updated with their own data', async () => {
		const h = harness();
		const phone = '+49 30 5565301';
		const family = [0, 1, 2].map((index) => person('adfam', index, phone));
		const byHand = await sync(h, family, { manual: true, extra: withOptions(BY_EMAIL, { createInManualRuns: true }) });
		expect(byHand.actions).toEqual(['created', 'created', 'created']);
		restart();
		const from = sandbox().requests.length;
		const withSlugs = family.map((row, index) => ({ ...row, slug: byHand.outputs[index].slug }));
		const moved = family.map((row, index) => ({ ...row, city: `Stadt${index}` }));
		const [adopted, synced] = await ends(Promise.all([sync(h, withSlugs, { extra: adoptBy(by(BY_EMAIL, 4)) }), sync(h, moved, { extra: by(BY_EMAIL, 4) })]), 100_000, 'the two executions');
		expect({ outputs: [adopted.outputs.length, synced.outputs.length], creations: creationEmails(sandbox(), from) }).toEqual({ outputs: [3, 3], creations: [] });
		const after = await sync(h, moved, { extra: BY_EMAIL });
		expect({ actions: after.actions.map((action) => GOOD.includes(action)), slugs: after.outputs.map((output) => output.slug) }).toEqual({
			actions: [true, true, true],
			slugs: byHand.outputs.map((output) => output.slug),
		});
		family.forEach((_, index) => expect(candidateOf(byHand.outputs[index].slug)?.city).toBe(`Stadt${index}`));
	}, 180_000);
});

// ---------------------------------------------------------------------------------------------
// 5. Speed sanity
// ---------------------------------------------------------------------------------------------

describe('turns break: large runs still finish', () => {
	it('200 new rows by Email, each with its own phone, concurrency 10: the run ends and creates 200', async () => {
		const h = harness();
		const sheet = Array.from({ length: 200 }, (_, index) => person('big', index, `+49 40 ${String(6_000_000 + index * 41)}`));
		const from = sandbox().requests.length;
		const run = await ends(sync(h, sheet, { extra: by(BY_EMAIL, 10) }), 200_000, 'the 200-row run');
		const created = creationEmails(sandbox(), from);
		expect({ created: run.actions.filter((action) => action === 'created').length, posts: created.length, distinct: new Set(created).size }).toEqual({ created: 200, posts: 200, distinct: 200 });
	}, 240_000);

	it('120 new rows by Email sharing one office switchboard phone, concurrency 10: the run ends and creates 120', async () => {
		const h = harness();
		const sheet = Array.from({ length: 120 }, (_, index) => person('office', index, '+49 40 6660000'));
		const from = sandbox().requests.length;
		const run = await ends(sync(h, sheet, { extra: by(BY_EMAIL, 10) }), 200_000, 'the 120-row run');
		const created = creationEmails(sandbox(), from);
		expect({ created: run.actions.filter((action) => action === 'created').length, posts: created.length, distinct: new Set(created).size }).toEqual({ created: 120, posts: 120, distinct: 120 });
	}, 240_000);
});

// ---------------------------------------------------------------------------------------------
// 6. More ways turns under several keys could go wrong
// ---------------------------------------------------------------------------------------------

describe('turns break: more', () => {
	it('concurrency 1 in both executions, crossing orders (Email A..H, Phone H..A): no deadlock, both end, each created once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => person('one', index, `+49 30 5566${100 + index}`));
		const from = sandbox().requests.length;
		const runs = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 1) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 1) })]), 100_000, 'the two executions');
		expect({ outputs: runs.map((run) => run.outputs.length), notThrough: runs.flatMap((run) => notThrough(run.outputs)), posts: creationEmails(sandbox(), from).length, twice: twiceIn(sheet) }).toEqual({
			outputs: [8, 8],
			notThrough: [],
			posts: 8,
			twice: [],
		});
	}, 180_000);

	it('a Dry Run by Phone right before overlapping runs by Email and by Phone plans every row created; the runs then create each row once and the Phone run\'s slugs are the Email run\'s', async () => {
		const h = harness();
		const sheet = Array.from({ length: 10 }, (_, index) => person('dryov', index, `+49 30 5566${200 + index}`));
		const plan = await sync(h, sheet, { extra: dry(BY_PHONE) });
		const from = sandbox().requests.length;
		const [byMail, byPhone] = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 5) }), sync(h, sheet, { extra: by(BY_PHONE, 5) })]), 100_000, 'the two executions');
		expect({ plan: plan.actions, posts: creationEmails(sandbox(), from).length, twice: twiceIn(sheet), slugs: byPhone.outputs.map((output) => output.slug) }).toEqual({
			plan: Array(10).fill('created'),
			posts: 10,
			twice: [],
			slugs: byMail.outputs.map((output) => output.slug),
		});
	}, 180_000);

	it('Retry On Fail: an Email execution whose first try fails at the login overlaps a Phone execution of the same rows: both end with every output, each created once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => person('rtry', index, `+49 30 5566${300 + index}`));
		sandbox().setFaults({ loginScript: [{ status: 401 }] });
		const from = sandbox().requests.length;
		const [tried, byPhone] = await ends(
			Promise.all([
				sync(h, sheet, { extra: by(BY_EMAIL, 4), onError: 'stopWorkflow', retryOnFail: { maxTries: 3, waitBetweenTries: 300 } }),
				sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 4), retryOnFail: { maxTries: 3, waitBetweenTries: 300 } }),
			]),
			100_000,
			'the two executions',
		);
		sandbox().setFaults({});
		expect({ outputs: [tried.outputs.length, byPhone.outputs.length], twice: twiceIn(sheet), missing: missingIn(sheet), posts: creationEmails(sandbox(), from).length }).toEqual({
			outputs: [8, 8],
			twice: [],
			missing: [],
			posts: 8,
		});
		const again = await sync(h, sheet, { extra: BY_PHONE });
		expect(again.actions).toEqual(Array(8).fill('unchanged'));
	}, 180_000);

	it('Stop Execution of an Email run while the first of a family (5 people, one landline) hangs in its creation and the other 4 wait behind it: the run ends; the next run creates the 4 never sent, none twice', async () => {
		const h = harness();
		const phone = '+49 30 5566401';
		const family = Array.from({ length: 5 }, (_, index) => person('stopfam', index, phone));
		const stoppedOne = twinOf(h);
		sandbox().setFaults({ paths: [CANDIDATE], hangPaths: [CANDIDATE], hangMs: 6_000 });
		const from = sandbox().requests.length;
		const stopped = await ends(
			sync(stoppedOne, family, {
				extra: by(BY_EMAIL, 5),
				onStart: (execution) => void until(() => creationEmails(sandbox(), from).length >= 1).then(async () => await sleep(500)).then(() => execution.cancel()),
			}),
			60_000,
			'the stopped execution',
		);
		// The hang of the first creation ends (the sandbox processes it), then the faults go.
		await sleep(7_000);
		sandbox().setFaults({});
		expect(stopped.result.error).toBeDefined();
		// One creation went out (the sandbox logs a request it held before processing without its body): the first's.
		expect(creationEmails(sandbox(), from).length).toBe(1);
		const next = await sync(h, family, { extra: BY_EMAIL });
		expect({
			rest: next.actions.slice(1),
			first: next.outputs[0].action === 'failed' ? MAY_EXIST.test(String(next.outputs[0].error)) : next.outputs[0].action,
			twice: twiceIn(family),
			missing: missingIn(family).filter((email) => email !== family[0].email),
		}).toEqual({ rest: ['created', 'created', 'created', 'created'], first: true, twice: [], missing: [] });
	}, 120_000);

	it('Match Key: two form submissions of one person (two ids, one e-mail and phone) and an Email execution of that person overlap: all end with every output', async () => {
		const h = harness();
		const base = person('keyov', 0, '+49 30 5566501');
		const submissions = [
			{ ...base, id: 'tb-keyov-a' },
			{ ...base, id: 'tb-keyov-b', city: 'Jena' },
		];
		const runs = await ends(Promise.all([sync(h, submissions, { extra: by(BY_KEY, 4) }), sync(h, [base], { extra: by(BY_EMAIL, 4) }), sync(h, [base], { extra: by(BY_PHONE, 4) })]), 100_000, 'the three executions');
		expect(runs.map((run) => run.outputs.length)).toEqual([2, 1, 1]);
		expect(runs.flatMap((run) => run.outputs.filter((output) => output.action === 'failed' && !MAY_EXIST.test(String(output.error))).map((output) => String(output.error)))).toEqual([]);
	}, 120_000);
});

describe('turns break: a Dry Run plans what the run does where the order of a family decides', () => {
	const heldFamily = async (tag: string, phone: string, order: (rows: { xaver: IDataObject; zoe: IDataObject; yara: IDataObject }) => IDataObject[]) => {
		const h = harness();
		const zoe = { email: `tb.${tag}.zoe@example.test`, phone: '', first: 'Zoe', city: 'Essen', skills: '' };
		const xaver = { email: `tb.${tag}.xaver@example.test`, phone, first: 'Xaver', city: 'Essen', skills: '' };
		const yara = { email: `tb.${tag}.yara@example.test`, phone, first: 'Yara', city: 'Essen', skills: '' };
		expect((await sync(h, [zoe], { extra: BY_EMAIL })).actions).toEqual(['created']);
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [xaver], { extra: BY_PHONE });
		sandbox().setFaults({});
		expect(String(held.outputs[0].error)).toMatch(MAY_EXIST);
		const input = order({ xaver, zoe: { ...zoe, phone }, yara });
		const plan = await sync(h, input, { extra: dry(by(BY_EMAIL, 4)) });
		const real = await sync(h, input, { extra: by(BY_EMAIL, 4) });
		return { plan: plan.actions, real: real.actions };
	};

	it('Xaver held by Phone; by Email Xaver, Zoe (known, now with the landline), Yara (new, the landline): the Dry Run right before plans the actions the run then has', async () => {
		const { plan, real } = await heldFamily('dfam1', '+49 30 5567001', ({ xaver, zoe, yara }) => [xaver, zoe, yara]);
		expect(plan).toEqual(real);
	}, 90_000);

	it('the same with Yara before Zoe: the Dry Run right before plans the actions the run then has', async () => {
		const { plan, real } = await heldFamily('dfam2', '+49 30 5567002', ({ xaver, zoe, yara }) => [xaver, yara, zoe]);
		expect(plan).toEqual(real);
	}, 90_000);
});

describe('turns break: records and updates of overlapping executions', () => {
	const skillsOf = (slug: unknown) => (candidateOf(slug)?.records.itSkills ?? []).map((skill) => `${skill.skill_name}:${skill.skill_level_id}`).sort();

	it('8 new rows with two IT skills each, by Email and by Phone at once: each candidate created once with each skill once', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => ({ ...person('rec', index, `+49 30 5568${100 + index}`), skills: 'SQL: 3, Python: 2' }));
		const [byMail, byPhone] = await ends(Promise.all([sync(h, sheet, { extra: by(BY_EMAIL, 4) }), sync(h, [...sheet].reverse(), { extra: by(BY_PHONE, 4) })]), 100_000, 'the two executions');
		expect({ notThrough: [...notThrough(byMail.outputs), ...notThrough(byPhone.outputs)], twice: twiceIn(sheet) }).toEqual({ notThrough: [], twice: [] });
		expect(byMail.outputs.map((output) => skillsOf(output.slug))).toEqual(Array(8).fill(['Python:2', 'SQL:3']));
	}, 120_000);

	it('8 known rows get a new IT skill, by Email and by Phone at once (the same sheet): each skill posted once; then both settings unchanged', async () => {
		const h = harness();
		const sheet = Array.from({ length: 8 }, (_, index) => person('rec2', index, `+49 30 5568${200 + index}`));
		const first = await sync(h, sheet, { extra: BY_EMAIL });
		expect(first.actions).toEqual(Array(8).fill('created'));
		const more = sheet.map((row) => ({ ...row, skills: 'Go: 4', city: 'Jena' }));
		const [byMail, byPhone] = await ends(Promise.all([sync(h, more, { extra: by(BY_EMAIL, 4) }), sync(h, [...more].reverse(), { extra: by(BY_PHONE, 4) })]), 100_000, 'the two executions');
		expect({ notThrough: [...notThrough(byMail.outputs), ...notThrough(byPhone.outputs)], skills: first.outputs.map((output) => skillsOf(output.slug)) }).toEqual({
			notThrough: [],
			skills: Array(8).fill(['Go:4']),
		});
		const again = await sync(h, more, { extra: BY_PHONE });
		const againMail = await sync(h, more, { extra: BY_EMAIL });
		expect({ phone: again.actions, mail: againMail.actions, writes: [...again.writes, ...againMail.writes] }).toEqual({ phone: Array(8).fill('unchanged'), mail: Array(8).fill('unchanged'), writes: [] });
	}, 120_000);
});

describe('turns break: Stop Workflow in a family', () => {
	it('On Error: Stop Workflow by Email: the first of a family (one landline) is refused 422 while the other 4 wait behind it: the error names row 1 only (no row said to fail that was only stopped); the next run, the e-mail fixed, creates all 5 once', async () => {
		const h = harness();
		const phone = '+49 30 5569001';
		const family = Array.from({ length: 5 }, (_, index) => person('sfam', index, phone));
		const broken = [{ ...family[0], email: 'tb.sfäm.0@example.test' }, ...family.slice(1)];
		const stopped = await sync(h, broken, { extra: by(BY_EMAIL, 5), onError: 'stopWorkflow' });
		const message = String(stopped.result.error?.message ?? '');
		expect(message).toMatch(/^Row 1 \(item index 0\)/);
		expect(message).not.toMatch(/more rows? fail/);
		const next = await sync(h, family, { extra: BY_EMAIL });
		expect({ actions: next.actions, twice: twiceIn(family), missing: missingIn(family) }).toEqual({ actions: Array(5).fill('created'), twice: [], missing: [] });
	}, 90_000);
});
