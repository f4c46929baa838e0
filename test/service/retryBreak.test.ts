/**
 * An independent review trying to break Candidate → Create or Update under n8n's node setting
 * Retry On Fail (n8n reruns the node, same execution, same node context and `$runIndex`, when the
 * first item of its first output has an `error` field): the final output (`action`, `slug`,
 * `created`, no `error` on rows that went through), a stop's error (the candidates earlier tries
 * created) and the execution's custom data (counts per action, a rerun counted once), through
 * n8n's real engine against the sandbox.
 *
 * Several tests change a row between tries with an expression that reads the clock (`$now`): try 1
 * runs before a deadline, n8n's wait between tries (5 s, n8n's longest) puts try 2 after it.
 */
import type { IDataObject, IRun } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Flow, actionsOf, flowParams, flowRows, input, loop, loopConnections, noOp, to } from '../helpers/flow';
import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { creationEmails, postsTo, storedUnder as storedIn, syncRun, until, upsertParameters } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';

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


const rows = flowRows;

const params = flowParams;

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

// ---------------------------------------------------------------------------------------------
// Simple runs (Input Items → Recruiting) and the clock-driven change between tries
// ---------------------------------------------------------------------------------------------

const sync = async (harness: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), harness, items, options);

/** Try 1 runs well before the deadline; n8n waits this long before try 2, which runs after it. */
const WAIT = 5_000;
const deadline = () => Date.now() + 3_000;
// The deadline leaves try 1 three seconds (on a busy machine, a whole try before it); the wait puts try 2 two seconds past it.
/** `before` until the deadline, then `after` (an expression, without its `={{ }}`). */
const clock = (at: number, before: string, after: string) => `={{ $now.toMillis() < ${at} ? ${before} : ${after} }}`;
/** An expression that throws after the deadline (a node that does not exist). */
const THROWS = "$('No Such Node').item.json.city";

const BAD = { email: '', email2: '', first: 'B', city: 'X', skills: '' };
const slugOf = (email: string) =>
	sandbox()
		.candidates(1)
		.find((candidate) => candidate.email === email)?.slug;
const skillsOf = (email: string) =>
	sandbox()
		.candidates(1)
		.find((candidate) => candidate.email === email)?.records.itSkills ?? [];
const descriptionOf = (error: unknown) => `${(error as { message?: string } | undefined)?.message ?? ''} ${(error as { description?: string } | undefined)?.description ?? ''}`;
const metadataOf = (run: IRun) => run.data.resultData.metadata;

describe('retry break: a row the last try could not read (expression) after an earlier try created it', () => {
	it('Continue, 2 tries: row 2 is created in try 1; in try 2 its City expression fails: the output that goes on must say what the execution did to it (created, with its slug), not a bare error item', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const at = deadline();
		const run = await sync(
			harness,
			[
				BAD,
				{
					email: 'bomb.cont@example.test',
					first: 'B',
					city: 'Berlin',
					skills: '',
				},
			],
			{
				extra: { options: OPTIONS },
				fields: {
					firstName: '={{ $json.first }}',
					city: clock(at, '$json.city', THROWS),
				},
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		// Precondition: try 1 created it (once), try 2 ran after the deadline.
		expect(creationEmails(sandbox(), from)).toEqual(['bomb.cont@example.test']);
		expect(Date.now()).toBeGreaterThan(at);
		const slug = slugOf('bomb.cont@example.test');
		const row = run.outputs[1];
		// docs/create-or-update.md: "`failed` (nothing did …)"; docs/errors-and-retries.md: "a row an earlier try created … says
		// `created` … in the last try's output (…; `partly created` when the last try left a record of it unsent)".
		expect({ action: row.action, slug: row.slug }).toEqual({
			action: expect.stringMatching(/^(created|partly created)$/),
			slug,
		});
	}, 60_000);

	it("Continue, 2 tries, same shape: the execution's custom data counts the row once, as the last try says it (partly created; the count try 1 wrote shows 0, as n8n cannot remove a key)", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const at = deadline();
		const run = await sync(
			harness,
			[
				BAD,
				{
					email: 'bomb.count@example.test',
					first: 'B',
					city: 'Berlin',
					skills: '',
				},
			],
			{
				extra: { options: OPTIONS },
				fields: {
					firstName: '={{ $json.first }}',
					city: clock(at, '$json.city', THROWS),
				},
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		expect(storedUnder('bomb.count@example.test')).toBe(1);
		const metadata = metadataOf(run.result.run) ?? {};
		// runSummary.ts: "what an earlier try of the same run recorded is taken back: a count it had and the rerun has not shows 0,
		// since custom data keys cannot be removed".
		expect(metadata).toMatchObject({ partly: '1', failed: '1', created: '0' });
	}, 60_000);

	it("Stop Workflow, 2 tries, one at a time: row 1 is created in try 1 and row 2 refused; in try 2 row 1's City expression fails: the stop's error still lists the candidate this execution created", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const at = deadline();
		const run = await sync(
			harness,
			[
				{
					email: 'bomb.stop@example.test',
					first: 'B',
					city: 'Berlin',
					skills: '',
				},
				{
					email: 'jörg.bombstop@müller.de',
					first: 'J',
					city: 'Berlin',
					skills: '',
				},
			],
			{
				extra: { options: ONE_AT_A_TIME },
				fields: {
					firstName: '={{ $json.first }}',
					city: clock(at, '$json.city', THROWS),
				},
				onError: 'stopWorkflow',
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		expect(creationEmails(sandbox(), from).filter((email) => email === 'bomb.stop@example.test')).toHaveLength(1);
		expect(run.result.error).toBeDefined();
		const slug = slugOf('bomb.stop@example.test');
		expect(slug).toBeDefined();
		// docs/errors-and-retries.md: "Its description also lists every candidate this run of the node created (item index and slug;
		// under *Retry On Fail*, its earlier tries' too …)".
		expect(descriptionOf(run.result.error)).toContain(String(slug));
	}, 60_000);
});

describe('retry break: a stop after a partial run', () => {
	it("Stop Workflow, 2 tries, one at a time: row 1 is created and its IT skill refused (429) in every try, row 2 refused by the service: the stop's error after the last try lists row 1's candidate", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({
			paths: [IT_SKILL],
			rateLimitRate: 1,
			retryAfterSeconds: 0,
			seed: 1,
		});
		const from = sandbox().requests.length;
		const run = await sync(
			harness,
			[
				{
					email: 'stop.partly@example.test',
					first: 'P',
					city: 'Berlin',
					skills: 'SQL: 3',
				},
				{
					email: 'jörg.stoppartly@müller.de',
					first: 'J',
					city: 'Berlin',
					skills: '',
				},
			],
			{
				extra: { options: { ...ONE_AT_A_TIME, maxRetries: 0 } },
				onError: 'stopWorkflow',
				retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
			},
		);
		sandbox().setFaults({});
		expect(creationEmails(sandbox(), from).filter((email) => email === 'stop.partly@example.test')).toHaveLength(1);
		expect(run.result.error).toBeDefined();
		const slug = slugOf('stop.partly@example.test');
		expect(slug).toBeDefined();
		// docs/errors-and-retries.md: "Its description also lists every candidate this run of the node created (item index and slug;
		// under *Retry On Fail*, its earlier tries' too …)".
		expect(descriptionOf(run.result.error)).toContain(String(slug));
	}, 60_000);
});

describe("retry break: the execution's counts", () => {
	it("Continue, 2 tries: the first row's IT skill is refused with 429 in try 1 only (partly created), try 2 adds it: the row says `created`, no `error`, and custom data counts it once ({ created: 1 }; the partly try 1 counted shows 0)", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({
			paths: [IT_SKILL],
			rateLimitRate: 1,
			retryAfterSeconds: 0,
			seed: 1,
		});
		const from = sandbox().requests.length;
		const running = sync(
			harness,
			[
				{
					email: 'partly.zero@example.test',
					first: 'P',
					city: 'Berlin',
					skills: 'SQL: 3',
				},
			],
			{
				extra: { options: { ...ONE_AT_A_TIME, maxRetries: 0 } },
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		expect(await until(() => postsSince(from, IT_SKILL) >= 1)).toBe(true);
		sandbox().setFaults({});
		const run = await running;
		expect(creationEmails(sandbox(), from)).toEqual(['partly.zero@example.test']);
		expect(skillsOf('partly.zero@example.test')).toHaveLength(1);
		expect(run.outputs[0].action).toBe('created');
		expect('error' in run.outputs[0]).toBe(false);
		// docs/errors-and-retries.md: "the execution's custom data counts each row once, not once per try";
		// runSummary.ts: a count an earlier try had and the rerun has not shows 0 (custom data keys cannot be removed).
		expect(metadataOf(run.result.run)).toEqual({ created: '1', partly: '0' });
	}, 60_000);

	it('two Create or Update nodes in one workflow, both Retry On Fail (3 tries), Continue, each with a failing first row and a new row: custom data { created: 2, failed: 2 }', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [
			BAD,
			{
				email: 'two.a@example.test',
				email2: 'two.b@example.test',
				first: 'T',
				city: 'Berlin',
				skills: '',
			},
		];
		const second = upsertParameters(
			{
				options: OPTIONS,
				email: "={{ $('Input Items').item.json.email2 }}",
				itSkillList: '',
			},
			{
				firstName: "={{ $('Input Items').item.json.first }}",
				city: "={{ $('Input Items').item.json.city }}",
			},
		);
		const retry = {
			onError: 'continueRegularOutput' as const,
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 10,
		};
		const from = sandbox().requests.length;
		const result = await flow.run([input(sheet), flow.recruiting('Recruiting', params(), retry), flow.recruiting('Recruiting 2', second, retry)], {
			'Input Items': { main: [[to('Recruiting')]] },
			Recruiting: { main: [[to('Recruiting 2')]] },
		});
		expect(actionsOf(result.items('Recruiting'))).toEqual(['failed', 'created']);
		expect(actionsOf(result.items('Recruiting 2'))).toEqual(['failed', 'created']);
		expect(creationsSince(from).sort()).toEqual(['two.a@example.test', 'two.b@example.test']);
		expect(result.run.data.resultData.metadata).toEqual({
			created: '2',
			failed: '2',
		});
	}, 60_000);

	it('Loop Over Items (batch 2), each run retried (3 tries, Continue) on its failing first row: every row created once, each run says [failed, created], custom data { created: 2, failed: 2 }', async () => {
		const flow = new Flow(emailCredential(sandbox(), ALICE));
		const sheet = [BAD, ...rows(1, 'loopcount1', 'SQL: 3'), { ...BAD, first: 'C' }, ...rows(1, 'loopcount2', 'SQL: 3')];
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
		expect(actionsOf(result.items('Recruiting', 0))).toEqual(['failed', 'created']);
		expect(actionsOf(result.items('Recruiting', 1))).toEqual(['failed', 'created']);
		expect(creationsSince(from).sort()).toEqual(['loopcount1.0@example.test', 'loopcount2.0@example.test']);
		expect(postsSince(from, IT_SKILL)).toBe(2);
		expect(result.run.data.resultData.metadata).toEqual({
			created: '2',
			failed: '2',
		});
	}, 60_000);
});

describe('retry break: the same row twice, Dry Run, a manual run', () => {
	it('Continue, 3 tries: the same new row twice in one input (the second with one more IT skill): [failed, created, updated], one creation, each skill once, custom data counts each row once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const row = {
			email: 'twice.retry@example.test',
			first: 'T',
			city: 'Berlin',
			skills: 'SQL: 3',
		};
		const run = await sync(harness, [BAD, row, { ...row, skills: 'SQL: 3, Java: 2' }], {
			extra: { options: OPTIONS },
			retryOnFail: { maxTries: 3, waitBetweenTries: 10 },
		});
		expect(run.actions).toEqual(['failed', 'created', 'updated']);
		expect(creationEmails(sandbox(), from)).toEqual(['twice.retry@example.test']);
		expect(postsSince(from, IT_SKILL)).toBe(2);
		expect(skillsOf('twice.retry@example.test')).toHaveLength(2);
		expect(run.outputs.slice(1).map((output) => 'error' in output)).toEqual([false, false]);
		expect(metadataOf(run.result.run)).toEqual({
			created: '1',
			updated: '1',
			failed: '1',
		});
	}, 60_000);

	it('Dry Run with Retry On Fail (2 tries, Continue): nothing written or remembered, the new row planned `created` (dryRun) with no `error` field, nothing counted; the real run after it creates it once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const row = {
			email: 'dry.retry@example.test',
			first: 'D',
			city: 'Berlin',
			skills: 'SQL: 3',
		};
		const plan = await sync(harness, [BAD, row], {
			extra: { options: { ...OPTIONS, dryRun: true } },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		expect(plan.writes).toEqual([]);
		expect(plan.outputs[1]).toMatchObject({ dryRun: true, action: 'created' });
		expect('error' in plan.outputs[1]).toBe(false);
		expect(metadataOf(plan.result.run)).toBeUndefined();
		const real = await sync(harness, [BAD, row], {
			extra: { options: OPTIONS },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		expect(real.actions).toEqual(['failed', 'created']);
		expect(creationEmails(sandbox(), from)).toEqual(['dry.retry@example.test']);
	}, 60_000);

	it('a manual run with Create in Manual Runs and Retry On Fail (2 tries, Continue): the new row says `created`, no `error`, created once, nothing counted', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const run = await sync(
			harness,
			[
				BAD,
				{
					email: 'manual.retry@example.test',
					first: 'M',
					city: 'Berlin',
					skills: 'SQL: 3',
				},
			],
			{
				manual: true,
				extra: { options: { ...OPTIONS, createInManualRuns: true } },
				retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
			},
		);
		expect(run.actions).toEqual(['failed', 'created']);
		expect('error' in run.outputs[1]).toBe(false);
		expect(creationEmails(sandbox(), from)).toEqual(['manual.retry@example.test']);
		expect(postsSince(from, IT_SKILL)).toBe(1);
		expect(metadataOf(run.result.run)).toBeUndefined();
	}, 60_000);
});

describe('retry break: a row an expression changes between tries (same item JSON, another row)', () => {
	it("Continue, 2 tries: the E-mail expression gives row 2 another e-mail after try 1 (a new person): that person is created, not answered with the first person's slug", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const at = deadline();
		const run = await sync(
			harness,
			[
				BAD,
				{
					email: 'swap.a@example.test',
					email2: 'swap.b@example.test',
					first: 'S',
					city: 'Berlin',
					skills: '',
				},
			],
			{
				extra: {
					options: OPTIONS,
					email: clock(at, '$json.email', '$json.email2'),
				},
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		expect(creationEmails(sandbox(), from)).toContain('swap.a@example.test');
		const row = run.outputs[1];
		// docs/create-or-update.md: "A new row (its key never seen): imported as by Import, then remembered. `action: created`."
		expect(storedUnder('swap.b@example.test')).toBe(1);
		expect(row.slug).not.toBe(slugOf('swap.a@example.test'));
	}, 60_000);

	it('Continue, 2 tries: the IT skill list of a row created in try 1 is "SQL: 3", after it "Java: 2": the new skill is added, not skipped as "added by an earlier try"', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const at = deadline();
		const run = await sync(
			harness,
			[
				BAD,
				{
					email: 'swapskill@example.test',
					first: 'S',
					city: 'Berlin',
					skills: 'SQL: 3',
					skills2: 'Java: 2',
				},
			],
			{
				extra: {
					options: OPTIONS,
					itSkillList: clock(at, '$json.skills', '$json.skills2'),
				},
				retryOnFail: { maxTries: 2, waitBetweenTries: WAIT },
			},
		);
		expect(storedUnder('swapskill@example.test')).toBe(1);
		// docs/create-or-update.md: "A known row: … only the records not sent before are added."
		expect(JSON.stringify(skillsOf('swapskill@example.test'))).toContain('Java');
		expect(String(run.outputs[1].message ?? '')).not.toContain('not sent again');
	}, 60_000);
});
