/**
 * An independent review trying to break how Candidate → Create or Update identifies a row
 * (README "Candidate Create or Update", docs/create-or-update.md, docs/sync-state.md), through
 * n8n's engine against the sandbox: the same person written several ways in one input and across
 * runs, Match By Email / Phone / Match Key and switching between them, Candidate Slug and Sync State
 * given by the row (stale, foreign, garbled, another node's), Dry Run against the real run that
 * follows, manual runs, Adopt Given Slugs, Forget Each Input Row, Continue On Fail and Retry On Fail.
 *
 * Each test asserts the promises: a new row becomes one new candidate, a known row gets only what
 * changed, an unchanged row sends nothing, nothing is created twice, one output item per input
 * item with its pairedItem and a truthful `action` and `error`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { syncRun, upsertParameters } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';
import { ALICE, BOB, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const OPTIONS = { retryDelayMs: 1, concurrency: 4 };
const MAY_EXIST = /may already exist/;

const sync = async (harness: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), harness, items, options);

/** An e-mail as the node compares it (case, spaces, invisible characters, Unicode composition ignored). */
const sameMail = (value: unknown) =>
	String(value ?? '')
		.normalize('NFC')
		.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, '')
		.toLowerCase();

/** How many candidates of Alice's company the sandbox stores under an e-mail, however it was written. */
const storedUnder = (email: string, companyId = 1) =>
	sandbox()
		.candidates(companyId)
		.filter((candidate) => sameMail(candidate.email) === sameMail(email)).length;

/** How many candidates the sandbox stores whose phone has these digits. */
const storedWithPhoneDigits = (digits: string) =>
	sandbox()
		.candidates(1)
		.filter((candidate) => String(candidate.phone ?? '').replace(/\D/g, '') === digits).length;

const count = (list: string[], entry: string) => list.filter((value) => value === entry).length;

const byPhone = (extra: INodeParameters = {}): INodeParameters => ({ matchBy: 'phone', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS, ...extra });
/** The parameters syncRun uses, for a run through the harness directly (a worker without static data). */
const syncParameters = (extra: INodeParameters = {}) => upsertParameters({ options: OPTIONS, ...extra }, { firstName: '={{ $json.first }}' });
const withState: INodeParameters = { candidateSlug: '={{ $json.slug }}', syncState: '={{ $json.syncState }}', options: OPTIONS };

/** Every output item is paired with the input item of its index, one per input item. */
function expectPaired(result: Awaited<ReturnType<typeof sync>>['result'], inputs: number) {
	expect(result.items).toHaveLength(inputs);
	expect(result.items.map((item) => item.pairedItem)).toEqual(Array.from({ length: inputs }, (_, index) => ({ item: index })));
}

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

describe('identity break: the same person written several ways', () => {
	it('one input, one e-mail in five forms (case, spaces, no-break space, zero-width space, a tab inside): one candidate, the others `unchanged` with its slug', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		// The sandbox takes ASCII e-mails only (422 otherwise), so the stored form is ASCII; Unicode composition is checked with Match Key below.
		const base = 'jose.idform@example.test';
		const forms = [base, ' JOSE.IDFORM@Example.TEST ', '\u00a0Jose.IdForm@example.test\u00a0', 'jose.id\u200bform@example.test', 'JOSE.idform@EXAMPLE.test\t'];
		const run = await sync(harness, forms.map((email) => ({ email, first: 'José', skills: 'SQL: 3' })));
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(storedUnder(base)).toBe(1);
		expect(run.actions).toEqual(['created', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
		expect(new Set(run.outputs.map((output) => output.slug)).size).toBe(1);
		expect(run.outputs.map((output) => output.error)).toEqual(Array(5).fill(''));
		expectPaired(run.result, 5);
	}, 60_000);

	it('across runs: the e-mail written in another case, with a zero-width space and spacing is `unchanged`, nothing sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const first = await sync(harness, [{ email: 'zoe.across@example.test', first: 'Zoë', skills: 'SQL: 3' }]);
		expect(first.actions).toEqual(['created']);
		const again = await sync(harness, [{ email: ' ZOE.\u200bACROSS@EXAMPLE.TEST\u00a0', first: 'Zoë', skills: 'SQL: 3' }]);
		expect(again.actions).toEqual(['unchanged']);
		expect(again.writes).toEqual([]);
		expect(again.outputs[0].slug).toBe(first.outputs[0].slug);
		expect(storedUnder('zoe.across@example.test')).toBe(1);
	}, 60_000);

	it('Match By Phone, one input: the same phone punctuated three ways is one candidate; the next run is `unchanged`', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items = ['+49 30 5550101', '49 (30) 555-0101', '+49/30/555.01.01'].map((phone) => ({ phone, first: 'Ph', skills: '' }));
		const run = await sync(harness, items, { extra: byPhone() });
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(run.actions).toEqual(['created', 'unchanged', 'unchanged']);
		expect(storedWithPhoneDigits('49305550101')).toBe(1);
		const again = await sync(harness, items.reverse(), { extra: byPhone() });
		expect(again.actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(again.writes).toEqual([]);
	}, 60_000);

	it('Match By Phone, one input: a German extension written with a hyphen ("030 5550202-17") and as "Durchwahl 17" has the same digits: one candidate ("only its digits count")', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items = ['030 5550202-17', '030 5550202 Durchwahl 17'].map((phone) => ({ phone, first: 'Ext', skills: '' }));
		const run = await sync(harness, items, { extra: byPhone() });
		expect(run.outputs.map((output) => output.error)).toEqual(['', '']);
		// docs/sync-state.md, "What counts as a change": "+49 30 1234 and 49 (30) 1234 are the same phone (only its digits count)".
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(run.actions).toEqual(['created', 'unchanged']);
	}, 60_000);

	it('Match Key: 7, "7" and " 7 " in one input with different e-mails are one candidate; the later rows update its e-mail, nothing is created twice; "Müller-1" composed and decomposed are one key', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const extra: INodeParameters = { matchBy: 'key', matchKey: '={{ $json.id }}', options: OPTIONS };
		const items = [
			{ id: 7, email: 'key7.a@example.test', first: 'K', skills: '' },
			{ id: '7', email: 'key7.b@example.test', first: 'K', skills: '' },
			{ id: ' 7 ', email: 'key7.b@example.test', first: 'K', skills: '' },
		];
		const run = await sync(harness, items, { extra });
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(run.actions).toEqual(['created', 'updated', 'unchanged']);
		expect(run.outputs[1].updatedFields).toEqual(['email']);
		expect(new Set(run.outputs.map((output) => output.slug)).size).toBe(1);
		expect(storedUnder('key7.a@example.test') + storedUnder('key7.b@example.test')).toBe(1);
		expectPaired(run.result, 3);
		const composed = 'Müller-1';
		const keyed = await sync(harness, [
			{ id: composed, email: 'keynfc@example.test', first: 'K', skills: '' },
			{ id: ` ${composed.normalize('NFD')}`, email: 'keynfc@example.test', first: 'K', skills: '' },
		], { extra });
		expect(keyed.actions).toEqual(['created', 'unchanged']);
		expect(storedUnder('keynfc@example.test')).toBe(1);
	}, 60_000);
});

describe('identity break: switching Match By, forgetting', () => {
	it('created by Email, then run by Phone in the same n8n (saved memory): `unchanged`, nothing created', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = [0, 1].map((index) => ({ email: `switch.${index}@example.test`, phone: `+49 30 55503${index}0`, first: 'S', skills: 'SQL: 3' }));
		expect((await sync(harness, sheet, { extra: { phone: '={{ $json.phone }}' } })).actions).toEqual(['created', 'created']);
		const again = await sync(harness, sheet, { extra: byPhone() });
		expect(again.actions).toEqual(['unchanged', 'unchanged']);
		expect(again.writes).toEqual([]);
	}, 60_000);

	it('created by Email, then run by Phone on a worker that knows no slug (no static data): refused "may already exist", nothing created (the documented limit of a switch); once a run that knows their slugs ran them by Phone, `unchanged` there too', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = [0, 1].map((index) => ({ email: `switchw.${index}@example.test`, phone: `+49 30 55504${index}0`, first: 'W', skills: 'SQL: 3' }));
		expect((await sync(harness, sheet, { extra: { phone: '={{ $json.phone }}' } })).actions).toEqual(['created', 'created']);
		// The same rows, unchanged, matched by e-mail on such a worker: `unchanged` (rowLife.test.ts shows it).
		forgetProcessMemory();
		const sameMatch = await harness.run({ parameters: syncParameters({ phone: '={{ $json.phone }}' }), items: sheet, loadStaticData: false, onError: 'continueRegularOutput' });
		expect(sameMatch.items.map((item) => item.json.action)).toEqual(['unchanged', 'unchanged']);
		forgetProcessMemory();
		const from = sandbox().requests.length;
		// docs/create-or-update.md: "after a switch such rows are refused as "may already exist" until a run that knows their slugs … has run them once".
		const worker = await harness.run({ parameters: syncParameters(byPhone()), items: sheet, loadStaticData: false, onError: 'continueRegularOutput' });
		expect(worker.items.map((item) => item.json.action)).toEqual(['failed', 'failed']);
		for (const item of worker.items) expect(String(item.json.error)).toMatch(MAY_EXIST);
		// A run that knows the slugs (the saved memory) by Phone: `unchanged`; after it, a worker without them finds them `unchanged` too.
		forgetProcessMemory();
		expect((await sync(harness, sheet, { extra: byPhone() })).actions).toEqual(['unchanged', 'unchanged']);
		forgetProcessMemory();
		const after = await harness.run({ parameters: syncParameters(byPhone()), items: sheet, loadStaticData: false, onError: 'continueRegularOutput' });
		expect(after.items.map((item) => item.json.action)).toEqual(['unchanged', 'unchanged']);
		expect(sandbox().requests.slice(from).filter((request) => request.method === 'POST' && request.path === CANDIDATE)).toHaveLength(0);
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 60_000);

	it('Forget Each Input Row (Forget Now) by Email, then Sync Rows by Phone: the forgotten row is created again, as the forget said ("the next Sync Rows run creates this row again")', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'forgetswitch@example.test', phone: '+49 30 5550505', first: 'F', skills: 'SQL: 3' };
		const created = await sync(harness, [row], { extra: { phone: '={{ $json.phone }}' } });
		expect(created.actions).toEqual(['created']);
		// The candidate was deleted in the service; the user forgets the row (Match By Email, as the node is set).
		const forgotten = await sync(harness, [row], { extra: { phone: '={{ $json.phone }}', memoryAction: 'forget', confirmForget: true } });
		expect(forgotten.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect(String(forgotten.outputs[0].message)).toMatch(/the next Sync Rows run creates this row again/);
		const next = await sync(harness, [row], { extra: byPhone() });
		expect(next.actions).toEqual(['created']);
		expect(next.outputs[0].slug).not.toBe(created.outputs[0].slug);
	}, 60_000);

	it('Forget Each Input Row on the row written in another case: without Forget Now nothing changes; with it the row (any spelling) is created once again, its twin in the same input `unchanged`', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'forgetcase@example.test', first: 'F', skills: 'SQL: 3' };
		const created = await sync(harness, [row]);
		const slug = created.outputs[0].slug;
		const shouted = { ...row, email: ' FORGETCASE@EXAMPLE.TEST ' };
		const asked = await sync(harness, [shouted], { extra: { memoryAction: 'forget' } });
		expect(asked.outputs[0]).toMatchObject({ action: 'wouldForget', slug });
		expect((await sync(harness, [row])).actions).toEqual(['unchanged']);
		const forgotten = await sync(harness, [shouted], { extra: { memoryAction: 'forget', confirmForget: true } });
		expect(forgotten.outputs[0]).toMatchObject({ action: 'forgotten', known: true, slug });
		const next = await sync(harness, [row, shouted]);
		expect(count(next.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(next.actions).toEqual(['created', 'unchanged']);
		expect(storedUnder(row.email)).toBe(2);
	}, 60_000);
});

describe('identity break: Candidate Slug and Sync State given by the row', () => {
	it("a row whose e-mail changed, given its slug and state: the candidate is updated, none created; the memory then knows the new e-mail", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const first = await sync(harness, [{ email: 'moved.old@example.test', first: 'M', skills: 'SQL: 3' }]);
		const { slug, syncState } = first.outputs[0];
		const moved = { email: 'moved.new@example.test', first: 'M', skills: 'SQL: 3', slug, syncState };
		const update = await sync(harness, [moved], { extra: withState });
		expect(update.actions).toEqual(['updated']);
		expect(update.writes).toEqual([`PUT ${CANDIDATE}`]);
		expect(update.outputs[0].slug).toBe(slug);
		const memoryOnly = await sync(harness, [{ email: 'moved.new@example.test', first: 'M', skills: 'SQL: 3' }]);
		expect(memoryOnly.actions).toEqual(['unchanged']);
		expect(memoryOnly.writes).toEqual([]);
		expect(storedUnder('moved.old@example.test') + storedUnder('moved.new@example.test')).toBe(1);
	}, 60_000);

	it("a state from another account (Bob's credential), a cut state, a state without its slug: each fails before anything is sent; the good rows beside them go on; one paired output per row", async () => {
		const alice = new Harness(emailCredential(sandbox(), ALICE));
		const made = await sync(alice, [0, 1].map((index) => ({ email: `foreign.${index}@example.test`, first: 'F', skills: 'SQL: 3' })));
		const [a, b] = made.outputs;
		const bob = new Harness(emailCredential(sandbox(), BOB));
		const items: IDataObject[] = [
			{ email: 'foreign.0@example.test', first: 'Changed', skills: 'SQL: 3', slug: a.slug, syncState: a.syncState },
			{ email: 'foreign.1@example.test', first: 'Changed', skills: 'SQL: 3', slug: b.slug, syncState: String(b.syncState).slice(0, -3) },
			{ email: 'foreign.2@example.test', first: 'F', skills: 'SQL: 3', slug: '', syncState: a.syncState },
			{ email: 'foreign.3@example.test', first: 'F', skills: 'SQL: 3', slug: '', syncState: '' },
		];
		const from = sandbox().requests.length;
		const run = await sync(bob, items, { extra: withState });
		expectPaired(run.result, 4);
		expect(run.actions).toEqual(['failed', 'failed', 'failed', 'created']);
		expect(String(run.outputs[0].error)).toMatch(/Sync State belongs to another account/);
		expect(String(run.outputs[1].error)).toMatch(/Sync State is not a state this node output/);
		expect(String(run.outputs[2].error)).toMatch(/Sync State needs the Candidate Slug/);
		expect(run.outputs.slice(0, 3).map((output) => output.email)).toEqual(items.slice(0, 3).map((item) => item.email));
		// Only the fourth row reached the service (its creation, profile and record).
		expect(sandbox().requests.slice(from).filter((request) => request.method !== 'GET' && request.path !== '/v1/login' && (request.body as IDataObject | undefined)?.email !== 'foreign.3@example.test' && (request.body as IDataObject | undefined)?.user_slug !== run.outputs[3].slug)).toEqual([]);
		expect(storedUnder('foreign.0@example.test', 2)).toBe(0);
		expect(storedUnder('foreign.3@example.test', 2)).toBe(1);
		expect(storedUnder('foreign.0@example.test', 1)).toBe(1);
	}, 60_000);

	it("another node's state (a fresh copy of the node, same account) is taken: `unchanged`, nothing sent; a stale state (two runs old) posts no record twice", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'stale@example.test', first: 'S', skills: 'SQL: 3' };
		const first = await sync(harness, [row]);
		const stale = { slug: first.outputs[0].slug, syncState: first.outputs[0].syncState };
		const grown = { ...row, skills: 'SQL: 3, Go: 2' };
		const second = await sync(harness, [grown]);
		expect(second.writes).toEqual([`POST ${CANDIDATE}/it-skill`]);
		const fresh = { slug: second.outputs[0].slug, syncState: second.outputs[0].syncState };
		// Another node with an empty memory, given the newest state.
		const copy = new Harness(emailCredential(sandbox(), ALICE));
		const other = await sync(copy, [{ ...grown, ...fresh }], { extra: withState });
		expect(other.actions).toEqual(['unchanged']);
		expect(other.writes).toEqual([]);
		// This node given the stale state: the Go record its memory knows it added is not posted again.
		const back = await sync(harness, [{ ...grown, ...stale }], { extra: withState });
		expect(count(back.writes, `POST ${CANDIDATE}/it-skill`)).toBe(0);
		expect(count(back.writes, `POST ${CANDIDATE}`)).toBe(0);
		const stored = sandbox()
			.candidates(1)
			.filter((candidate) => candidate.email === row.email);
		expect(stored).toHaveLength(1);
		expect(JSON.stringify(stored[0].records).match(/"Go"/g)).toHaveLength(1);
	}, 60_000);

	it('one input mixing a row given its slug and state with its twin (same e-mail, other case) from the memory: one candidate, the twin `unchanged`', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'mixed@example.test', first: 'Mx', skills: 'SQL: 3' };
		const first = await sync(harness, [row]);
		forgetProcessMemory();
		// A worker without the slug: the first row brings its state, the second (the same person) relies on the memory.
		const items = [
			{ ...row, first: 'Mx2', slug: first.outputs[0].slug, syncState: first.outputs[0].syncState },
			{ ...row, email: 'MIXED@example.test', first: 'Mx2', slug: '', syncState: '' },
		];
		const run = await harness.run({ parameters: syncParameters(withState), items, loadStaticData: false, onError: 'continueRegularOutput' });
		expect(run.items.map((item) => [item.json.action, item.json.slug])).toEqual([
			['updated', first.outputs[0].slug],
			['unchanged', first.outputs[0].slug],
		]);
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});

describe('identity break: Dry Run, manual runs, Adopt Given Slugs', () => {
	it('Dry Run plans exactly what the real run that follows does (twins in one input, a changed row, a new record, an unchanged row, a row without e-mail)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const known = [0, 1, 2].map((index) => ({ email: `plan.${index}@example.test`, first: 'P', skills: 'SQL: 3' }));
		await sync(harness, known);
		const items: IDataObject[] = [
			{ email: 'plan.new@example.test', first: 'N', skills: 'SQL: 3' },
			{ email: ' PLAN.NEW@example.test', first: 'N', skills: 'SQL: 3, Go: 2' },
			{ ...known[0], first: 'Changed' },
			{ ...known[1], skills: 'SQL: 3, Go: 2' },
			known[2],
			{ email: '', first: 'Nobody', skills: '' },
		];
		const plan = await sync(harness, items, { extra: { options: { ...OPTIONS, dryRun: true } } });
		expect(plan.writes).toEqual([]);
		const real = await sync(harness, items);
		expect(real.actions).toEqual(['created', 'updated', 'updated', 'updated', 'unchanged', 'failed']);
		expect(plan.actions).toEqual(real.actions);
		const planned = plan.outputs.flatMap((output) => ((output.requests as IDataObject[] | undefined) ?? []).map((request) => `${String(request.method)} ${String(request.path)}`));
		expect([...planned].sort()).toEqual([...real.writes].sort());
		expectPaired(plan.result, items.length);
		expectPaired(real.result, items.length);
	}, 60_000);

	it('a manual run without Create in Manual Runs holds both twins back (`notSent`, nothing sent); a manual Dry Run plans the same; the production run creates one candidate', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items = [
			{ email: 'hand@example.test', first: 'H', skills: 'SQL: 3' },
			{ email: 'Hand@Example.test ', first: 'H', skills: 'SQL: 3' },
		];
		const plan = await sync(harness, items, { manual: true, extra: { options: { ...OPTIONS, dryRun: true } } });
		const byHand = await sync(harness, items, { manual: true });
		expect(byHand.actions).toEqual(['notSent', 'notSent']);
		expect(byHand.writes).toEqual([]);
		expect(plan.actions).toEqual(byHand.actions);
		const live = await sync(harness, items);
		expect(live.actions).toEqual(['created', 'unchanged']);
		expect(storedUnder('hand@example.test')).toBe(1);
	}, 60_000);

	it('Create in Manual Runs with twins: the manual Dry Run plans what the manual run does; the production run after it is `unchanged`, nothing created twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items = [
			{ email: 'handcreate@example.test', first: 'H', skills: 'SQL: 3' },
			{ email: 'HANDCREATE@example.test', first: 'H', skills: 'SQL: 3' },
		];
		const options = { ...OPTIONS, createInManualRuns: true };
		const plan = await sync(harness, items, { manual: true, extra: { options: { ...options, dryRun: true } } });
		const byHand = await sync(harness, items, { manual: true, extra: { options } });
		expect(byHand.actions).toEqual(['created', 'unchanged']);
		expect(plan.actions).toEqual(byHand.actions);
		const live = await sync(harness, items);
		expect(live.actions).toEqual(['unchanged', 'unchanged']);
		expect(live.writes).toEqual([]);
		expect(storedUnder('handcreate@example.test')).toBe(1);
	}, 60_000);

	it('Adopt Given Slugs of a row written in another case than it was created with: the next Sync Rows run (original spelling) is `unchanged`, nothing created', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const other = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'adoptcase@example.test', first: 'A', skills: 'SQL: 3' };
		const made = await sync(other, [row]);
		const adopted = await sync(harness, [{ ...row, email: 'AdoptCase@Example.test', slug: made.outputs[0].slug }], {
			extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' },
		});
		expect(adopted.actions).toEqual(['adopted']);
		const next = await sync(harness, [row]);
		expect(count(next.writes, `POST ${CANDIDATE}`)).toBe(0);
		expect(next.outputs[0].slug).toBe(made.outputs[0].slug);
		expect(['unchanged', 'updated']).toContain(next.actions[0]);
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});

describe('identity break: unclear outcomes, Continue On Fail, Retry On Fail', () => {
	it("twins in one input whose first creation was stored but answered 502: the twin is refused (\"may already exist\"), not created; one stored; both outputs `failed`, paired", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [502] });
		const items = [
			{ email: 'twin502@example.test', first: 'T', skills: '' },
			{ email: 'TWIN502@example.test', first: 'T', skills: '' },
		];
		const run = await sync(harness, items);
		sandbox().setFaults({});
		expectPaired(run.result, 2);
		expect(run.actions).toEqual(['failed', 'failed']);
		expect(String(run.outputs[0].error)).toMatch(/502/);
		expect(String(run.outputs[1].error)).toMatch(MAY_EXIST);
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(1);
		expect(storedUnder('twin502@example.test')).toBe(1);
		const again = await sync(harness, items);
		expect(again.actions).toEqual(['failed', 'failed']);
		expect(count(again.writes, `POST ${CANDIDATE}`)).toBe(0);
	}, 60_000);

	it('Continue (using error output): every input item gives one item on one of the two outputs, paired with its index, the failed ones with `action: failed` and what they were matched by', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items: IDataObject[] = [
			{ email: 'errout.0@example.test', first: 'E', skills: '' },
			{ email: '', first: 'E', skills: '' },
			{ email: 'errout.0@example.test', first: 'E', skills: '', birthday: '31.02.1990' },
			{ email: 'ERROUT.0@example.test', first: 'E', skills: '' },
		];
		const result = await harness.run({
			parameters: upsertParameters({ options: OPTIONS }, { firstName: '={{ $json.first }}', birthday: '={{ $json.birthday }}' }),
			items,
			onError: 'continueErrorOutput',
		});
		const all = [...result.items, ...result.errorItems];
		expect(all).toHaveLength(4);
		expect(all.map((item) => (item.pairedItem as { item: number }).item).sort()).toEqual([0, 1, 2, 3]);
		// Good rows on the main output, failed rows on the error output (their error object says what the row was matched by).
		expect(result.items.map((item) => [(item.pairedItem as { item: number }).item, item.json.action])).toEqual([
			[0, 'created'],
			[3, 'unchanged'],
		]);
		expect(result.errorItems.map((item) => (item.pairedItem as { item: number }).item)).toEqual([1, 2]);
		expect(result.errorItems[0].json.error).toMatchObject({ action: 'failed', matchedBy: 'email', message: 'This row has no Email to match it by' });
		expect(result.errorItems[1].json.error).toMatchObject({ action: 'failed', matchedBy: 'email', email: 'errout.0@example.test' });
		expect(storedUnder('errout.0@example.test')).toBe(1);
	}, 60_000);

	it('Retry On Fail on, nothing fails: the rows this execution created say `created` (n8n runs the node again when the first item has an `error` field)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const items = [
			{ email: 'retry.0@example.test', first: 'R', skills: '' },
			{ email: 'retry.1@example.test', first: 'R', skills: 'SQL: 3' },
		];
		const run = await sync(harness, items, { onError: 'stopWorkflow', retryOnFail: { maxTries: 2, waitBetweenTries: 10 } });
		expect(run.result.error).toBeUndefined();
		expect(count(run.writes, `POST ${CANDIDATE}`)).toBe(2);
		for (const item of items) expect(storedUnder(item.email)).toBe(1);
		// README, What the output says: `created` … when everything went through; docs/sync-state.md: `unchanged` (nothing was to be sent).
		expect(run.actions).toEqual(['created', 'created']);
		expect(String(run.outputs[1].message)).toMatch(/^Created candidate/);
	}, 60_000);

	it('Retry On Fail on and the first row fails for good (On Error: Continue): n8n runs the node again; the rows the first try created or updated still say so, nothing is sent twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const known = { email: 'retryfail.known@example.test', first: 'K', skills: '' };
		await sync(harness, [known]);
		const items = [
			{ email: '', first: 'B', skills: '' },
			{ email: 'retryfail.new@example.test', first: 'N', skills: 'SQL: 3' },
			{ ...known, first: 'K2' },
		];
		const run = await sync(harness, items, { retryOnFail: { maxTries: 3, waitBetweenTries: 10 } });
		expect(run.writes.filter((write) => write === `POST ${CANDIDATE}`)).toHaveLength(1);
		expect(storedUnder('retryfail.new@example.test')).toBe(1);
		expect(run.actions).toEqual(['failed', 'created', 'updated']);
		expect(String(run.outputs[1].message)).toMatch(/earlier try of this execution/);
		expect(String(run.outputs[2].message)).toMatch(/earlier try of this execution/);
		// The next run: nothing to send, `unchanged`.
		const next = await sync(harness, items.slice(1));
		expect(next.actions).toEqual(['unchanged', 'unchanged']);
	}, 60_000);
});
