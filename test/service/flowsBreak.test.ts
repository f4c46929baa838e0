/**
 * An independent review of Candidate → Create or Update inside real n8n workflow shapes and node
 * settings, through n8n's real engine (n8n-core's WorkflowExecute) against the sandbox over HTTP:
 * the node inside a Loop Over Items (SplitInBatches v3, as n8n-nodes-base 2.41.1 ships it) so that
 * it runs several times in one execution, the same rows in two batches, Retry On Fail with
 * Stop Workflow / Continue / the error output, Execute Once, Always Output Data on the node
 * before it, two Create or Update nodes in a row (the second fed the first one's slug and
 * Sync State), and odd JSON in the rows.
 *
 * The harness (test/helpers/harness.ts) builds only "Input Items → Recruiting"; the workflows
 * here are built the same way (n8n-workflow's Workflow, n8n-core's WorkflowExecute, the harness's
 * credentials helper and n8n's deduplication service with the harness's in-memory store), with
 * more nodes.
 */
import type { IDataObject, INode, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Flow, actionsOf, flowParams, flowRows, input, loop, loopConnections, noOp, to } from '../helpers/flow';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { creationEmails, postsTo, storedUnder as storedIn, upsertParameters } from '../helpers/upsert';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const IT_SKILL = `${CANDIDATE}/it-skill`;
const OPTIONS = { retryDelayMs: 1, concurrency: 4 };
const ONE_AT_A_TIME = {
	retryDelayMs: 1,
	concurrencyMode: 'fixed',
	concurrency: 1,
};

// ---------------------------------------------------------------------------------------------
// What the sandbox received and stored
// ---------------------------------------------------------------------------------------------

const storedUnder = (email: string) => storedIn(sandbox(), email);

/** The e-mails of the creations (POST candidate) the sandbox received since request `from`. */
const creationsSince = (from: number) => creationEmails(sandbox(), from);

const postsSince = (from: number, path: string) => postsTo(sandbox(), from, path).length;

const pairedOf = (items: INodeExecutionData[]) => items.map((item) => (item.pairedItem as IPairedItemData | undefined)?.item);

const rows = flowRows;

const params = flowParams;

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

// ---------------------------------------------------------------------------------------------

describe('flows: the node inside Loop Over Items (runs 0, 1, 2 … of one execution)', () => {
	it('batch size 2 over 6 new rows: three runs, every row created once, each run one output per input item paired with it, the loop hands all 6 on', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(6, 'loop6', 'SQL: 3');
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				loop(2),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(result.error).toBeUndefined();
		expect(result.tasks('Recruiting')).toHaveLength(3);
		for (let runIndex = 0; runIndex < 3; runIndex++) {
			const out = result.items('Recruiting', runIndex);
			expect(actionsOf(out)).toEqual(['created', 'created']);
			expect(pairedOf(out)).toEqual([0, 1]);
			expect(out.map((item) => item.json.email)).toEqual([sheet[2 * runIndex].email, sheet[2 * runIndex + 1].email]);
			expect(result.items('Recruiting', runIndex, 1)).toEqual([]);
		}
		expect(creationsSince(from).sort()).toEqual(sheet.map((row) => String(row.email)).sort());
		expect(postsSince(from, IT_SKILL)).toBe(6);
		for (const row of sheet) expect(storedUnder(String(row.email))).toBe(1);
		expect(result.items('Done')).toHaveLength(6);
	}, 60_000);

	it('the same rows in two batches of one execution: each created once; in the later batch `unchanged`, nothing sent; a row changed in the later batch is `updated` with its field', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const [a, b] = rows(2, 'loopsame', 'SQL: 3');
		const sheet = [a, b, { ...a }, { ...b, city: 'Hamburg' }];
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				loop(2),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(result.error).toBeUndefined();
		expect(actionsOf(result.items('Recruiting', 0))).toEqual(['created', 'created']);
		const second = result.items('Recruiting', 1);
		expect(actionsOf(second)).toEqual(['unchanged', 'updated']);
		expect(second[1].json.updatedFields).toEqual(['city']);
		expect(second.map((item) => item.json.slug)).toEqual(result.items('Recruiting', 0).map((item) => item.json.slug));
		expect(pairedOf(second)).toEqual([0, 1]);
		expect(creationsSince(from).sort()).toEqual([String(a.email), String(b.email)].sort());
		expect(postsSince(from, IT_SKILL)).toBe(2);
		expect(storedUnder(String(a.email))).toBe(1);
		expect(storedUnder(String(b.email))).toBe(1);
	}, 60_000);

	it("Stop Workflow: batch 1 creates two candidates, batch 2 stops on a row the service refuses: the error lists the candidates this run of the node created; batch 1's are in its own output (the documented scope)", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [
			...rows(2, 'loopstop'),
			{
				email: 'jörg.loopstop@müller.de',
				first: 'J',
				city: 'Berlin',
				skills: '',
			},
			...rows(1, 'loopstop2'),
		];
		const result = await flow.run([input(sheet), loop(2), flow.recruiting('Recruiting', params({ options: ONE_AT_A_TIME })), noOp('Done'), noOp('Errors')], loopConnections());
		const firstBatch = result.items('Recruiting', 0);
		expect(actionsOf(firstBatch)).toEqual(['created', 'created']);
		expect(storedUnder('loopstop.0@example.test')).toBe(1);
		expect(result.error).toBeDefined();
		const text = `${result.error?.message ?? ''} ${(result.error as { description?: string } | undefined)?.description ?? ''}`;
		// docs/errors-and-retries.md: "Its description also lists every candidate this run of the node created … (in a loop, each
		// run of the node lists its own: an earlier run's candidates are in that run's output)".
		expect(text).toMatch(/Row 1 \(item index 0\)/);
		for (const item of firstBatch) expect(text).not.toContain(String(item.json.slug));
		for (const item of firstBatch) expect(typeof item.json.slug).toBe('string');
	}, 60_000);

	it("Retry On Fail (3 tries), On Error: Continue, in the loop: batch 2's first row fails for good, n8n reruns run 1; batch 2's new row says `created` (not `unchanged`), nothing created twice", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [...rows(2, 'loopretry'), { email: '', first: 'B', city: 'Berlin', skills: '' }, ...rows(1, 'loopretry2', 'SQL: 3')];
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				loop(2),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 10,
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(result.error).toBeUndefined();
		expect(actionsOf(result.items('Recruiting', 0))).toEqual(['created', 'created']);
		const second = result.items('Recruiting', 1);
		expect(actionsOf(second)).toEqual(['failed', 'created']);
		expect(pairedOf(second)).toEqual([0, 1]);
		const made = creationsSince(from);
		expect(made.length).toBe(new Set(made).size);
		expect(made).toHaveLength(3);
		expect(postsSince(from, IT_SKILL)).toBe(1);
		expect(storedUnder('loopretry2.0@example.test')).toBe(1);
	}, 60_000);

	it('error output in the loop: each failed row leaves on the error output of its run, paired with its input item of that batch, one item per input item across both outputs', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [...rows(1, 'looperr'), { email: 'not-an-email', first: 'X', city: 'Berlin', skills: '' }, { email: '', first: 'Y', city: 'Berlin', skills: '' }, ...rows(1, 'looperr2')];
		const result = await flow.run(
			[
				input(sheet),
				loop(2),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(result.error).toBeUndefined();
		const batches = [0, 1].map((runIndex) => ({
			ok: result.items('Recruiting', runIndex, 0),
			failed: result.items('Recruiting', runIndex, 1),
		}));
		expect(pairedOf(batches[0].ok)).toEqual([0]);
		expect(pairedOf(batches[0].failed)).toEqual([1]);
		expect(pairedOf(batches[1].failed)).toEqual([0]);
		expect(pairedOf(batches[1].ok)).toEqual([1]);
		expect(actionsOf([...batches[0].ok, ...batches[1].ok])).toEqual(['created', 'created']);
		// Each error item says what failed, for its own row (n8n's error output carries the input's fields and `error`).
		expect(batches[0].failed[0].json).toMatchObject({
			email: 'not-an-email',
			error: { action: 'failed', email: 'not-an-email' },
		});
		expect(batches[1].failed[0].json).toMatchObject({
			email: '',
			error: {
				action: 'failed',
				message: 'This row has no Email to match it by',
			},
		});
	}, 60_000);
});

describe('flows: Retry On Fail (n8n reruns the node when its first item has `error`)', () => {
	it('control, Stop Workflow without Retry On Fail: row 1 is created, row 2 refused by the service; the error lists the candidate this execution created', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [
			...rows(1, 'stopctl'),
			{
				email: 'jörg.stopctl@müller.de',
				first: 'J',
				city: 'Berlin',
				skills: '',
			},
		];
		const result = await flow.run([input(sheet), flow.recruiting('Recruiting', params({ options: ONE_AT_A_TIME }))], { 'Input Items': { main: [[to('Recruiting')]] } });
		expect(result.error).toBeDefined();
		const slug = sandbox()
			.candidates(1)
			.find((candidate) => candidate.email === 'stopctl.0@example.test')?.slug;
		expect(slug).toBeDefined();
		expect(String((result.error as { description?: string } | undefined)?.description ?? '')).toContain(`item 0: ${String(slug)}`);
	}, 60_000);

	it('Stop Workflow, Retry On Fail (2 tries): row 1 is created, row 2 refused by the service; the error after the last try still lists the candidate this execution created', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [
			...rows(1, 'retrystop'),
			{
				email: 'jörg.retrystop@müller.de',
				first: 'J',
				city: 'Berlin',
				skills: '',
			},
		];
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params({ options: ONE_AT_A_TIME }), {
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 10,
				}),
			],
			{ 'Input Items': { main: [[to('Recruiting')]] } },
		);
		expect(result.error).toBeDefined();
		expect(creationsSince(from).filter((email) => email === 'retrystop.0@example.test')).toHaveLength(1);
		const slug = sandbox()
			.candidates(1)
			.find((candidate) => candidate.email === 'retrystop.0@example.test')?.slug;
		expect(slug).toBeDefined();
		const description = String((result.error as { description?: string } | undefined)?.description ?? '');
		// docs/errors-and-retries.md: "Its description also lists every candidate created in this execution (item index and slug)".
		expect(description).toContain(String(slug));
	}, 60_000);

	it('Continue, Retry On Fail (3 tries): the first row fails for good; a known row whose city the first try updated still says `updated` with `updatedFields: [city]` and `profileUpdated: true`', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const known = rows(1, 'retryupd')[0];
		const nodes = (sheet: IDataObject[]) => [
			input(sheet),
			flow.recruiting('Recruiting', params(), {
				onError: 'continueRegularOutput',
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 10,
			}),
		];
		const wiring = { 'Input Items': { main: [[to('Recruiting')]] } };
		const first = await flow.run(nodes([known]), wiring);
		expect(actionsOf(first.items('Recruiting'))).toEqual(['created']);
		const from = sandbox().requests.length;
		const result = await flow.run(
			nodes([
				{ email: '', first: 'B', city: 'X', skills: '' },
				{ ...known, city: 'Hamburg' },
			]),
			wiring,
		);
		const puts = sandbox()
			.requests.slice(from)
			.filter((request) => request.method === 'PUT').length;
		expect(puts).toBe(1);
		const row = result.items('Recruiting')[1].json;
		expect(row.action).toBe('updated');
		// docs/sync-state.md: "`updatedFields` (only when a profile update of a known candidate went through) the profile fields that changed".
		expect({
			updatedFields: row.updatedFields,
			profileUpdated: row.profileUpdated,
		}).toEqual({ updatedFields: ['city'], profileUpdated: true });
	}, 60_000);

	it("Continue, Retry On Fail (3 tries): a new row the first try created says `created` in the output that goes on, and Import's field `created` agrees (true)", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [{ email: '', first: 'B', city: 'X', skills: '' }, ...rows(1, 'retrycreated', 'SQL: 3')];
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 10,
				}),
			],
			{ 'Input Items': { main: [[to('Recruiting')]] } },
		);
		expect(creationsSince(from)).toEqual(['retrycreated.0@example.test']);
		const row = result.items('Recruiting')[1].json;
		expect(row.action).toBe('created');
		// docs/operations.md, Import's output: `created`; an output that says action `created` and `created: false` contradicts itself.
		expect(row.created).toBe(true);
	}, 60_000);

	it('Continue, Retry On Fail (2 tries): the first row\'s candidate is created and its IT skill gets no answer (502): the output that goes on says `partly created`, not `failed` ("nothing did")', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(1, 'retrypartly', 'SQL: 3');
		sandbox().setFaults({
			paths: [IT_SKILL],
			afterWorkErrorRate: 1,
			afterWorkErrorStatuses: [502],
			seed: 1,
		});
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 10,
				}),
			],
			{ 'Input Items': { main: [[to('Recruiting')]] } },
		);
		sandbox().setFaults({});
		expect(creationsSince(from)).toEqual(['retrypartly.0@example.test']);
		expect(postsSince(from, IT_SKILL)).toBe(1);
		const row = result.items('Recruiting')[0].json;
		// docs/create-or-update.md: "`partly created` (the candidate was created, a record or its profile update was not) … or `failed` (nothing did …)".
		expect(row.action).toBe('partly created');
	}, 60_000);
});

describe('flows: Stop Workflow with Retry On Fail, then the fixed sheet', () => {
	it('the first row refused by the service in every try (3 tries, Stop Workflow, 4 at once): nothing created twice; the fixed sheet run next creates every row never sent, none refused, no record twice', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(12, 'stopfix', 'SQL: 3');
		const broken = sheet.map((row, index) => (index === 0 ? { ...row, email: 'jörg.stopfix@müller.de' } : row));
		const wiring = { 'Input Items': { main: [[to('Recruiting')]] } };
		const from = sandbox().requests.length;
		const stopped = await flow.run(
			[
				input(broken),
				flow.recruiting('Recruiting', params(), {
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 10,
				}),
			],
			wiring,
		);
		expect(stopped.error).toBeDefined();
		// The refused row is posted again by each try (the service refused it: nothing was created); every other e-mail at most once.
		const made = creationsSince(from).filter((email) => email !== 'jörg.stopfix@müller.de');
		expect(made.length).toBe(new Set(made).size);
		await sleep(1_500);
		const fixed = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueRegularOutput',
				}),
			],
			wiring,
		);
		const out = fixed.items('Recruiting');
		const wrong = out.map((item, index) => [index, item.json.action, String(item.json.error ?? '').slice(0, 80)]).filter(([, action]) => !['created', 'updated', 'unchanged'].includes(String(action)));
		// README: "After a stop or an outage, the next run creates the rows never sent; only creations that got no clear answer are held".
		expect(wrong).toEqual([]);
		for (const row of sheet) expect([row.email, storedUnder(String(row.email))]).toEqual([row.email, 1]);
		// Each candidate holds its IT skill once (a row cut off by the stop gets it from the fixed run, never twice).
		const skills = sheet.map((row) => [
			row.email,
			sandbox()
				.candidates(1)
				.find((candidate) => candidate.email === row.email)?.records.itSkills.length,
		]);
		expect(skills).toEqual(sheet.map((row) => [row.email, 1]));
	}, 60_000);
});

describe("flows: the execution's counts (custom data) under loops and Retry On Fail", () => {
	it("in a loop of 3 runs: the execution's custom data counts every row once (6 created)", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(6, 'countloop');
		const result = await flow.run(
			[
				input(sheet),
				loop(2),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Done'),
				noOp('Errors'),
			],
			loopConnections(),
		);
		expect(result.error).toBeUndefined();
		expect(result.run.data.resultData.metadata).toMatchObject({ created: '6' });
	}, 60_000);

	it("Continue, Retry On Fail (3 tries), 1 row failing for good first and 1 new row: the execution's custom data counts 1 created and 1 failed, not once per try", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [{ email: '', first: 'B', city: 'X', skills: '' }, ...rows(1, 'countretry')];
		const result = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 10,
				}),
			],
			{ 'Input Items': { main: [[to('Recruiting')]] } },
		);
		expect(actionsOf(result.items('Recruiting'))).toEqual(['failed', 'created']);
		// README "Refused and held rows": "A production run with failed … rows has their counts in the execution's custom
		// data"; src runSummary.ts: "the rows counted by what happened to them".
		expect(result.run.data.resultData.metadata).toEqual({
			created: '1',
			failed: '1',
		});
	}, 60_000);
});

describe('flows: other node settings and shapes', () => {
	it("Execute Once with 3 rows: one output item, paired with item 0, only the first row's candidate created", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'once');
		const from = sandbox().requests.length;
		const result = await flow.run([input(sheet), flow.recruiting('Recruiting', params(), { executeOnce: true })], { 'Input Items': { main: [[to('Recruiting')]] } });
		expect(result.error).toBeUndefined();
		const out = result.items('Recruiting');
		expect(actionsOf(out)).toEqual(['created']);
		expect(pairedOf(out)).toEqual([0]);
		expect(creationsSince(from)).toEqual(['once.0@example.test']);
	}, 60_000);

	it('Always Output Data on the node before it and no rows: the one empty item fails alone as an error item paired with item 0, nothing sent', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input([], { alwaysOutputData: true }),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Errors'),
			],
			{
				'Input Items': { main: [[to('Recruiting')]] },
				Recruiting: { main: [[], [to('Errors')]] },
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.items('Recruiting', 0, 0)).toEqual([]);
		const failed = result.items('Recruiting', 0, 1);
		expect(failed).toHaveLength(1);
		expect(pairedOf(failed)).toEqual([0]);
		expect(
			sandbox()
				.requests.slice(from)
				.filter((request) => request.method !== 'GET'),
		).toEqual([]);
	}, 60_000);

	it("two Create or Update nodes in a row, the second given the first one's slug and Sync State (the rows' names through `$('Input Items').item`): the second sends nothing, `unchanged`, paired", async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'twonodes', 'SQL: 3');
		const from = sandbox().requests.length;
		const second = upsertParameters(
			{
				options: OPTIONS,
				email: "={{ $('Input Items').item.json.email }}",
				itSkillList: "={{ $('Input Items').item.json.skills }}",
				candidateSlug: '={{ $json.slug }}',
				syncState: '={{ $json.syncState }}',
			},
			{
				firstName: "={{ $('Input Items').item.json.first }}",
				city: "={{ $('Input Items').item.json.city }}",
			},
		);
		const result = await flow.run([input(sheet), flow.recruiting('Recruiting', params()), flow.recruiting('Recruiting 2', second)], {
			'Input Items': { main: [[to('Recruiting')]] },
			Recruiting: { main: [[to('Recruiting 2')]] },
		});
		expect(result.error).toBeUndefined();
		expect(actionsOf(result.items('Recruiting'))).toEqual(['created', 'created', 'created']);
		const out = result.items('Recruiting 2');
		expect(actionsOf(out)).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(pairedOf(out)).toEqual([0, 1, 2]);
		expect(out.map((item) => item.json.slug)).toEqual(result.items('Recruiting').map((item) => item.json.slug));
		expect(creationsSince(from)).toHaveLength(3);
		expect(postsSince(from, IT_SKILL)).toBe(3);
	}, 60_000);

	it('odd JSON (an e-mail as a number, as an array, as an object): each such row fails alone as an error item naming the field and value, the good rows are created, one output per input', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet: IDataObject[] = [
			{ email: 12345, first: 'N', city: 'Berlin', skills: '' },
			{
				email: ['odd.arr@example.test'],
				first: 'A',
				city: 'Berlin',
				skills: '',
			},
			...rows(1, 'oddgood'),
			{
				email: { address: 'odd.obj@example.test' },
				first: 'O',
				city: 'Berlin',
				skills: '',
			},
		];
		const from = sandbox().requests.length;
		const result = await flow.run(
			[
				input(sheet),
				flow.recruiting('Recruiting', params(), {
					onError: 'continueErrorOutput',
				}),
				noOp('Errors'),
			],
			{
				'Input Items': { main: [[to('Recruiting')]] },
				Recruiting: { main: [[], [to('Errors')]] },
			},
		);
		expect(result.error).toBeUndefined();
		const ok = result.items('Recruiting', 0, 0);
		const failed = result.items('Recruiting', 0, 1);
		expect([...pairedOf(ok), ...pairedOf(failed)].sort()).toEqual([0, 1, 2, 3]);
		expect(ok.map((item) => [pairedOf([item])[0], item.json.action])).toContainEqual([2, 'created']);
		expect(storedUnder('oddgood.0@example.test')).toBe(1);
		// Nothing stored under a mangled e-mail ("12345", "[object Object]") and nothing created twice.
		const made = creationsSince(from);
		expect(made.length).toBe(new Set(made).size);
		expect(made.filter((email) => !email.includes('@'))).toEqual([]);
		// Each error item is its own row's, and names the field and the value it got.
		for (const item of failed) {
			const index = Number(pairedOf([item])[0]);
			expect(item.json.email).toEqual(sheet[index].email);
			expect(item.json.error).toMatchObject({
				action: 'failed',
				email: sheet[index].email,
			});
			expect(String((item.json.error as IDataObject).message)).toMatch(/"Email" must be/);
		}
	}, 60_000);

	it('a row with binary data and nested JSON: one output item paired with it, the candidate created once, the next execution `unchanged`', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const row = {
			email: 'bin.row@example.test',
			first: 'Bin',
			city: 'Köln',
			skills: 'SQL: 3',
			nested: { deep: [1, { x: 2 }] },
		};
		const binaryInput: INode = {
			...input([]),
			parameters: {
				items: JSON.stringify([
					{
						json: row,
						binary: {
							data: {
								data: Buffer.from('cv').toString('base64'),
								mimeType: 'application/pdf',
								fileName: 'cv.pdf',
							},
						},
					},
				]),
			},
		};
		const wiring = { 'Input Items': { main: [[to('Recruiting')]] } };
		const first = await flow.run([binaryInput, flow.recruiting('Recruiting', params())], wiring);
		expect(actionsOf(first.items('Recruiting'))).toEqual(['created']);
		expect(pairedOf(first.items('Recruiting'))).toEqual([0]);
		const from = sandbox().requests.length;
		const again = await flow.run([binaryInput, flow.recruiting('Recruiting', params())], wiring);
		expect(actionsOf(again.items('Recruiting'))).toEqual(['unchanged']);
		expect(
			sandbox()
				.requests.slice(from)
				.filter((request) => request.method !== 'GET' && request.path !== '/v1/login'),
		).toEqual([]);
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});
