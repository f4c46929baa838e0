/**
 * Review 3 of the day's change (Retry On Fail: a creation or record sent without an answer is not sent again; the router
 * leaves out an empty `error` under Retry On Fail; a Dry Run plans held rows as held and a dry Forget of one as known).
 * Through n8n's real engine against the sandbox over real HTTP (its `afterWorkNoDataRate` fault: a creation stored and
 * answered 201 without the new candidate's slug).
 */

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { FAST } from '../helpers/run';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { MAY_EXIST, SLUGLESS, creationEmails, postsTo, storedUnder, syncRun } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const IT_SKILL = `${CANDIDATE}/it-skill`;
const OPTIONS = { retryDelayMs: 1, concurrency: 4 };

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});
afterEach(() => sandbox().setFaults({}));

const harness = () => new Harness(emailCredential(sandbox(), ALICE));
const sync = async (h: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), h, items, options);
const candidatePosts = (from: number) => postsTo(sandbox(), from, CANDIDATE).length;


// ---------------------------------------------------------------------------------------------
// 2. Retry On Fail: a creation sent without a clear answer is sent at most once
// ---------------------------------------------------------------------------------------------

describe('today break 3: Retry On Fail and a creation answered 201 without its slug', () => {
	it('Candidate → Create, Retry On Fail (2 tries): the service stores the candidate and answers 201 without data.slug ("may have been created"); the second try must not create it again', async () => {
		sandbox().setFaults(SLUGLESS);
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const result = await h.run({
			parameters: { resource: 'candidate', operation: 'create', email: 'tb3.noslug.create@example.test', additionalFields: {}, options: FAST },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		expect(result.error?.message ?? '').toMatch(/may have been created|may or may not have stored it/);
		// The node says the candidate may exist and "never create it again blindly": one creation, one candidate.
		expect({ posts: candidatePosts(from), stored: storedUnder(sandbox(), 'tb3.noslug.create@example.test') }).toEqual({ posts: 1, stored: 1 });
	}, 60_000);

	it('Candidate → Import, Retry On Fail (2 tries): the same 201 without a slug; the second try must not create the candidate again', async () => {
		sandbox().setFaults(SLUGLESS);
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		await h.run({
			parameters: { resource: 'candidate', operation: 'import', recordInput: 'lists', email: 'tb3.noslug.import@example.test', additionalFields: { firstName: 'No' }, itSkillList: 'SQL: 3', options: FAST },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
		});
		expect({ posts: candidatePosts(from), stored: storedUnder(sandbox(), 'tb3.noslug.import@example.test') }).toEqual({ posts: 1, stored: 1 });
	}, 60_000);

	it('Create or Update, Retry On Fail (2 tries), the same 201 without a slug: held, one creation, and a later execution refuses the row too', async () => {
		sandbox().setFaults(SLUGLESS);
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const from = sandbox().requests.length;
		const row = { email: 'tb3.noslug.upsert@example.test', first: 'Up', skills: '' };
		const first = await sync(h, [row], { retryOnFail: { maxTries: 2, waitBetweenTries: 10 } });
		const again = await sync(h, [row]);
		expect(first.outputs[0].error).toMatch(MAY_EXIST);
		expect(again.outputs[0].error).toMatch(MAY_EXIST);
		expect(candidatePosts(from)).toBe(1);
	}, 60_000);
});

describe('today break 3: Retry On Fail and Create or Update records of unknown outcome', () => {
	it('a known row whose IT skill is stored and its answer dropped, Retry On Fail (2 tries) with Send Unknown-Outcome Records Again on: the skill is posted once, and the row says its outcome is unknown', async () => {
		const h = harness();
		const row = { email: 'tb3.resend@example.test', first: 'Re', skills: '' };
		const made = await sync(h, [row]);
		expect(made.actions).toEqual(['created']);
		sandbox().setFaults({ paths: [IT_SKILL], afterWorkDropRate: 1, seed: 1 });
		const from = sandbox().requests.length;
		const run = await sync(h, [{ ...row, skills: 'SQL: 3' }], {
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
			extra: { options: { ...OPTIONS, resendUnknownRecords: true } },
		});
		sandbox().setFaults({});
		expect(postsTo(sandbox(), from, IT_SKILL)).toHaveLength(1);
		expect(JSON.stringify(run.outputs[0])).toMatch(/outcomeUnknown|may or may not have stored it/);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. Held rows, their aliases, and the Dry Run
// ---------------------------------------------------------------------------------------------

const BY_PHONE: INodeParameters = { matchBy: 'phone', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS };
const WITH_PHONE: INodeParameters = { phone: '={{ $json.phone }}', options: OPTIONS };

/** Run 1 (Match By Email, the row's phone given too): its creation is stored and the answer dropped; the row is held. */
async function heldRow(h: Harness, email: string, phone: string) {
	const row = { email, phone, first: 'Held', skills: '' };
	sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
	const run = await sync(h, [row], { extra: WITH_PHONE });
	sandbox().setFaults({});
	expect(run.outputs[0].error).toMatch(MAY_EXIST);
	expect(storedUnder(sandbox(), email)).toBe(1);
	return row;
}

describe('today break 3: held rows', () => {
	it('a row held after its creation got no answer (Match By Email, with its phone): the same process run with Match By Phone must not create it again', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb3.held.alias@example.test', '+49 30 5550301');
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [row], { extra: BY_PHONE });
		// The memory keeps a row under its phone too "so that a run with another Match By finds its candidate instead of creating it again".
		expect({ action: byPhone.actions[0], creations: creationEmails(sandbox(), from), stored: storedUnder(sandbox(), row.email) }).toEqual({
			action: 'failed',
			creations: [],
			stored: 1,
		});
	}, 60_000);

	it('a held row: two dry runs in a row plan it refused as "may already exist", as the real run after them does, and neither sends anything', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb3.held.dry@example.test', '+49 30 5550302');
		const from = sandbox().requests.length;
		const dry1 = await sync(h, [row], { extra: { ...WITH_PHONE, options: { ...OPTIONS, dryRun: true } } });
		const dry2 = await sync(h, [row], { extra: { ...WITH_PHONE, options: { ...OPTIONS, dryRun: true } } });
		const real = await sync(h, [row], { extra: WITH_PHONE });
		expect(creationEmails(sandbox(), from)).toEqual([]);
		for (const run of [dry1, dry2, real]) expect(String(run.outputs[0].error)).toMatch(MAY_EXIST);
		expect([dry1.actions[0], dry2.actions[0]]).toEqual([real.actions[0], real.actions[0]]);
	}, 60_000);

	it('a held row given twice to Forget Each Input Row (Forget Now): the dry plan (known, then not known) equals the real run, and the Sync Rows run after the real forget creates it', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb3.held.forget@example.test', '+49 30 5550303');
		const extra = (dry: boolean): INodeParameters => ({ ...WITH_PHONE, memoryAction: 'forget', confirmForget: true, options: { ...OPTIONS, concurrency: 1, dryRun: dry } });
		const dry = await sync(h, [row, row], { extra: extra(true) });
		const real = await sync(h, [row, row], { extra: extra(false) });
		const shape = (run: typeof dry) => run.outputs.map((output) => ({ action: output.action, known: output.known }));
		expect(shape(dry)).toEqual(shape(real));
		expect(shape(real)).toEqual([
			{ action: 'forgotten', known: true },
			{ action: 'forgotten', known: false },
		]);
		const from = sandbox().requests.length;
		const after = await sync(h, [row], { extra: WITH_PHONE });
		expect({ action: after.actions[0], creations: creationEmails(sandbox(), from) }).toEqual({ action: 'created', creations: [row.email] });
	}, 60_000);

	it('a held row adopted: a dry Adopt says what the real Adopt says (its records of unknown outcome), and sends nothing', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb3.held.adopt@example.test', '+49 30 5550304');
		const [stored] = sandbox()
			.candidates(1)
			.filter((candidate) => candidate.email === row.email);
		const items = [{ ...row, skills: 'SQL: 3', slug: stored.slug }];
		const extra = (dry: boolean): INodeParameters => ({ ...WITH_PHONE, memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}', options: { ...OPTIONS, dryRun: dry } });
		const from = sandbox().requests.length;
		const dry = await sync(h, items, { extra: extra(true) });
		const real = await sync(h, items, { extra: extra(false) });
		expect(sandbox().requests.slice(from).filter((request) => request.method !== 'GET' && request.path !== '/v1/login')).toEqual([]);
		expect(dry.outputs[0].action).toBe('adopted');
		expect(String(dry.outputs[0].message)).toContain(String(real.outputs[0].message));
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. The router under Retry On Fail: no empty `error`, and only that
// ---------------------------------------------------------------------------------------------

describe('today break 3: the router leaves out an empty error under Retry On Fail', () => {
	it('Create or Update Dry Run, Retry On Fail, On Error Continue: the planned rows carry no `error`, the invalid row keeps its message, and n8n ran the node once', async () => {
		const h = harness();
		const from = sandbox().requests.length;
		const run = await sync(
			h,
			[
				{ email: 'tb3.router.ok@example.test', first: 'Ok', skills: '' },
				{ email: 'not an e-mail', first: 'Bad', skills: '' },
			],
			{ retryOnFail: { maxTries: 3, waitBetweenTries: 10 }, extra: { options: { ...OPTIONS, dryRun: true } } },
		);
		expect('error' in run.outputs[0]).toBe(false);
		expect(run.outputs[0]).toMatchObject({ dryRun: true, action: 'created' });
		expect(String(run.outputs[1].error)).not.toBe('');
		expect(run.result.run.data.resultData.runData.Recruiting).toHaveLength(1);
		expect(creationEmails(sandbox(), from)).toEqual([]);
	}, 60_000);

	it('Import with Retry On Fail whose first row has a record that fails for good: the row keeps its non-empty `error`, so n8n runs the node again, and the candidate is created once', async () => {
		const h = harness();
		const from = sandbox().requests.length;
		const result = await h.run({
			parameters: { resource: 'candidate', operation: 'import', recordInput: 'lists', email: 'tb3.router.import@example.test', additionalFields: {}, itSkillList: 'SQL: 99', options: FAST },
			retryOnFail: { maxTries: 2, waitBetweenTries: 10 },
			onError: 'continueRegularOutput',
		});
		const [row] = result.items.map((item) => item.json);
		expect(typeof row.error === 'string' && row.error !== '').toBe(true);
		expect(candidatePosts(from)).toBe(1);
	}, 60_000);
});
