/**
 * Review 4 of the day's change (24bb4e4, then 4219f42: a creation whose other key this process holds is refused; Forget
 * lets a held row go under both keys): a held row under its alias keys (upsert.operation.ts), the
 * journal's `unused` claim leaves out rows held (`unknown`), re-learning an unchanged row re-stamps it (rows.ts
 * `remember`), and a creation answered without its slug is sent at most once under Retry On Fail (requests.ts).
 * Through n8n's real engine against the sandbox over real HTTP (the last tests over the memory's own classes).
 */

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { CandidateMemory, MAX_ENTRIES } from '../../nodes/Recruiting/memory';
import type { MemoryHost } from '../../nodes/Recruiting/memory';
import { accountScope } from '../../nodes/Recruiting/memory/keys';
import { forgetProcessMemory, Registry } from '../../nodes/Recruiting/memory/registry';
import type { StoreHelpers } from '../../nodes/Recruiting/memory/storeCalls';
import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { MAY_EXIST, SLUGLESS, creationEmails, storedUnder, syncRun } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const OPTIONS = { retryDelayMs: 1, concurrency: 4 };

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});
afterEach(() => sandbox().setFaults({}));

const harness = () => new Harness(emailCredential(sandbox(), ALICE));
const sync = async (h: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), h, items, options);

const BY_EMAIL: INodeParameters = { phone: '={{ $json.phone }}', options: OPTIONS };
const BY_PHONE: INodeParameters = { matchBy: 'phone', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS };
const forgetBy = (by: INodeParameters): INodeParameters => ({ ...by, memoryAction: 'forget', confirmForget: true, options: { ...OPTIONS, concurrency: 1 } });

/** Run 1 (Match By Email, the row's phone given too): its creation is stored and the answer dropped; the row is held (under its phone too). */
async function heldRow(h: Harness, email: string, phone: string, first = 'Held') {
	const row = { email, phone, first, skills: '' };
	sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
	const run = await sync(h, [row], { extra: BY_EMAIL });
	sandbox().setFaults({});
	expect(run.outputs[0].error).toMatch(MAY_EXIST);
	expect(storedUnder(sandbox(), email)).toBe(1);
	return row;
}

/** The PUTs (updates) of a candidate the sandbox received since request `from`, by the slug they name. */
const updatesOf = (from: number, slug: string) =>
	sandbox()
		.requests.slice(from)
		.filter((request) => request.method === 'PUT' && request.path === CANDIDATE && (request.body as IDataObject | undefined)?.user_slug === slug);

// ---------------------------------------------------------------------------------------------
// 1. Forget Each Input Row lets a held row go: under both of its keys now that it is held under both
// ---------------------------------------------------------------------------------------------

describe('today break 4: a held row forgotten is let go under both keys', () => {
	it('held (Match By Email, with its phone), then Forget Each Input Row (Match By Email, Forget Now): a Sync Rows run with Match By Phone creates it (the forget says "the next Sync Rows run creates this row again")', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb4.forget.email@example.test', '+49 30 5550401');
		const forgot = await sync(h, [row], { extra: forgetBy(BY_EMAIL) });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [row], { extra: BY_PHONE });
		expect({ action: byPhone.actions[0], error: byPhone.outputs[0].error || undefined, creations: creationEmails(sandbox(), from) }).toEqual({
			action: 'created',
			error: undefined,
			creations: [row.email],
		});
	}, 60_000);

	it('held (Match By Email, with its phone), then Forget Each Input Row with Match By Phone (its e-mail given): a Sync Rows run with Match By Email creates it', async () => {
		const h = harness();
		const row = await heldRow(h, 'tb4.forget.phone@example.test', '+49 30 5550402');
		const forgot = await sync(h, [row], { extra: forgetBy(BY_PHONE) });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		const from = sandbox().requests.length;
		const byEmail = await sync(h, [row], { extra: BY_EMAIL });
		expect({ action: byEmail.actions[0], creations: creationEmails(sandbox(), from) }).toEqual({ action: 'created', creations: [row.email] });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. A phone shared by two candidates; recall of a phone claimed again by a held row
// ---------------------------------------------------------------------------------------------

describe('today break 4: a phone shared by two candidates', () => {
	it('candidate B created (its phone P remembered), B forgotten by hand, n8n restarts, then row A (other e-mail, same phone P) is held: a Match By Phone run of A must not update B (a slug the memory forgot)', async () => {
		const h = harness();
		const phone = '+49 30 5550403';
		const b = { email: 'tb4.stale.b@example.test', phone, first: 'Bee', skills: '' };
		const made = await sync(h, [b], { extra: BY_EMAIL });
		expect(made.actions).toEqual(['created']);
		const slugB = String(made.outputs[0].slug);
		// Forgotten by hand (a manual execution: n8n does not save its static data), the claims of B's e-mail and phone leave the store.
		const forgot = await syncRun(sandbox(), h, [b], { extra: forgetBy(BY_EMAIL), manual: true });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		forgetProcessMemory();
		// Row A, another person with the same phone: its creation's answer is dropped (held under its e-mail and under P).
		const a = await heldRow(h, 'tb4.stale.a@example.test', phone, 'Ay');
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [a], { extra: BY_PHONE });
		// Before the change P was released at the end of A's run; now its claim stays, so `wonAfresh` no longer voids the saved (forgotten) slug.
		expect({ slug: byPhone.outputs[0].slug, updatesOfB: updatesOf(from, slugB).length }).toEqual({ slug: undefined, updatesOfB: 0 });
		expect(String(byPhone.outputs[0].error)).toMatch(MAY_EXIST);
	}, 60_000);

	it('row A (e-mail a, phone P) held, then row B (e-mail b, the same phone P) Match By Email: B is created, not refused, and a Match By Phone run of B after a restart finds B (not A, nothing created)', async () => {
		const h = harness();
		const phone = '+49 30 5550404';
		const a = await heldRow(h, 'tb4.shared.a@example.test', phone, 'Ay');
		const b = { email: 'tb4.shared.b@example.test', phone, first: 'Bee', skills: '' };
		const made = await sync(h, [b], { extra: BY_EMAIL });
		expect(made.actions).toEqual(['created']);
		forgetProcessMemory();
		const from = sandbox().requests.length;
		const byPhone = await sync(h, [b], { extra: BY_PHONE });
		const again = await sync(h, [a, b], { extra: BY_EMAIL });
		expect({ byPhone: byPhone.actions[0], slug: byPhone.outputs[0].slug, creations: creationEmails(sandbox(), from) }).toEqual({
			byPhone: 'unchanged',
			slug: made.outputs[0].slug,
			creations: [],
		});
		expect(again.actions).toEqual(['failed', 'unchanged']);
	}, 60_000);

	it('Match By Match Key, e-mail and phone given: a held row, then another row (other key and e-mail, same phone) is created, the held row adopted (by key), and a Match By Email run finds each its own candidate, creating nothing', async () => {
		const h = harness();
		const byKey: INodeParameters = { matchBy: 'key', matchKey: '={{ $json.id }}', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS };
		const phone = '+49 30 5550405';
		const one = { id: 'tb4-key-1', email: 'tb4.key.one@example.test', phone, first: 'One', skills: '' };
		const two = { id: 'tb4-key-2', email: 'tb4.key.two@example.test', phone, first: 'Two', skills: '' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 });
		const held = await sync(h, [one], { extra: byKey });
		sandbox().setFaults({});
		expect(held.outputs[0].error).toMatch(MAY_EXIST);
		const from = sandbox().requests.length;
		const other = await sync(h, [two], { extra: byKey });
		expect(other.actions).toEqual(['created']);
		const [stored] = sandbox()
			.candidates(1)
			.filter((candidate) => candidate.email === one.email);
		const adopted = await sync(h, [{ ...one, slug: stored.slug }], { extra: { ...byKey, memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		expect(adopted.actions).toEqual(['adopted']);
		const after = await sync(h, [one, two], { extra: BY_EMAIL });
		expect({ errors: after.outputs.map((output) => output.error || undefined), slugs: after.outputs.map((output) => output.slug), creations: creationEmails(sandbox(), from) }).toEqual({
			errors: [undefined, undefined],
			slugs: [stored.slug, other.outputs[0].slug],
			creations: [two.email],
		});
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. Retry On Fail and a creation answered without its slug (requests.ts createCandidate in RetryMemory.sendOnce)
// ---------------------------------------------------------------------------------------------


describe('today break 4: Retry On Fail and an answer without a slug', () => {
	it('Create or Update (Match By Email, with its phone), Retry On Fail (3 tries), every creation answered 201 without a slug: one creation; then Match By Phone in the same process creates nothing', async () => {
		sandbox().setFaults(SLUGLESS);
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'tb4.noslug.upsert@example.test', phone: '+49 30 5550406', first: 'No', skills: '' };
		const from = sandbox().requests.length;
		const first = await sync(h, [row], { extra: BY_EMAIL, retryOnFail: { maxTries: 3, waitBetweenTries: 10 } });
		const byPhone = await sync(h, [row], { extra: BY_PHONE, retryOnFail: { maxTries: 3, waitBetweenTries: 10 } });
		expect(first.outputs[0].error).toMatch(MAY_EXIST);
		expect(byPhone.outputs[0].error).toMatch(MAY_EXIST);
		expect(creationEmails(sandbox(), from)).toEqual([row.email]);
	}, 60_000);

	it('Candidate → Create, two items, Retry On Fail (3 tries), every creation answered 201 without a slug, On Error Continue: each candidate created once, each item says it may have been created', async () => {
		sandbox().setFaults(SLUGLESS);
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const emails = ['tb4.noslug.create1@example.test', 'tb4.noslug.create2@example.test'];
		const from = sandbox().requests.length;
		const result = await h.run({
			parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', additionalFields: {}, options: { retryDelayMs: 1 } },
			items: emails.map((email) => ({ email })),
			retryOnFail: { maxTries: 3, waitBetweenTries: 10 },
			onError: 'continueRegularOutput',
		});
		expect(creationEmails(sandbox(), from).sort()).toEqual(emails);
		for (const item of result.items) expect(String(item.json.error)).toMatch(MAY_EXIST);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. remember: an unchanged row re-stamped (rows.ts remember, registry.ts Shared.learn)
// ---------------------------------------------------------------------------------------------

const CREDENTIALS: ICredentialDataDecryptedObject = { authentication: 'accessToken', baseUrl: 'https://service.example', accessToken: 'token' };

/** An execution without n8n's deduplication store (the journal is off) and with the static data given. */
const hostOf = (staticData: IDataObject, writable: boolean): MemoryHost => ({
	workflowId: 'wf-tb4',
	nodeId: 'node',
	credentialId: 'cred',
	staticData,
	nodeStaticData: {},
	nodeContext: {},
	helpers: {} as StoreHelpers,
	writable,
});

describe('today break 4: remember re-learns an unchanged row', () => {
	it('20,000 unchanged rows remembered again: fast (well under a second), nothing noted, the learned map keeps its size, and what a writable execution saves is the same', async () => {
		const registry = new Registry();
		const worker = CandidateMemory.openIn(registry, CREDENTIALS, hostOf({}, false));
		const keys = Array.from({ length: 20_000 }, (_, index) => worker.keyOf('email', `tb4.perf.${index}@example.test`));
		const t0 = Date.now();
		for (const [index, key] of keys.entries()) worker.remember(key, { s: `slug-${index}`, p: 'p', r: ['r1'] });
		const firstMs = Date.now() - t0;
		const host = hostOf({}, false);
		const again = CandidateMemory.openIn(registry, CREDENTIALS, host);
		const t1 = Date.now();
		for (const [index, key] of keys.entries()) again.remember(key, { s: `slug-${index}`, p: 'p', r: ['r1'] });
		const againMs = Date.now() - t1;
		// The same pass without the re-stamp (the code before 24bb4e4 returned there): `learn` of the process's Shared made a no-op.
		const shared = registry.peek('wf-tb4', 'node', accountScope(CREDENTIALS, 'cred'))!;
		const restamp = shared.learn.bind(shared);
		shared.learn = () => undefined;
		const old = CandidateMemory.openIn(registry, CREDENTIALS, hostOf({}, false));
		const t2 = Date.now();
		for (const [index, key] of keys.entries()) old.remember(key, { s: `slug-${index}`, p: 'p', r: ['r1'] });
		const withoutMs = Date.now() - t2;
		shared.learn = restamp;
		await old.repair();
		// eslint-disable-next-line no-console
		console.log(`remember 20,000 rows: first ${firstMs.toFixed(1)} ms, unchanged again ${againMs.toFixed(1)} ms, unchanged without the re-stamp ${withoutMs.toFixed(1)} ms`);
		expect(againMs).toBeLessThan(1_000);
		expect(Object.keys(host.nodeContext.recruitingMemoryNotebook as IDataObject)).toHaveLength(0);
		const saved: IDataObject = {};
		const writer = CandidateMemory.openIn(registry, CREDENTIALS, hostOf(saved, true));
		for (const key of keys.slice(0, 10)) expect(writer.recall(key)?.s).toMatch(/^slug-/);
		await again.repair();
		await worker.repair();
		await writer.repair();
		const reader = CandidateMemory.openIn(new Registry(), CREDENTIALS, hostOf(JSON.parse(JSON.stringify(saved)) as IDataObject, true));
		expect(keys.map((key, index) => reader.recall(key)?.s === `slug-${index}`).every(Boolean)).toBe(true);
	}, 60_000);

	it('the 100,000-row bound: a row remembered again unchanged is learned anew, so the oldest other row goes first, and the bound holds', () => {
		const registry = new Registry();
		const memory = CandidateMemory.openIn(registry, CREDENTIALS, hostOf({}, false));
		const keys = Array.from({ length: MAX_ENTRIES }, (_, index) => memory.keyOf('email', `tb4.bound.${index}@example.test`));
		for (const key of keys) memory.remember(key, { s: 'slug', p: 'p' });
		memory.remember(keys[0], { s: 'slug', p: 'p' });
		const extra = memory.keyOf('email', 'tb4.bound.extra@example.test');
		memory.remember(extra, { s: 'slug-extra', p: 'p' });
		const learned = registry.peek('wf-tb4', 'node', accountScope(CREDENTIALS, 'cred'))!.learned;
		expect({ size: learned.size, first: learned.has(keys[0]), second: learned.has(keys[1]), extra: learned.has(extra) }).toEqual({ size: MAX_ENTRIES, first: true, second: false, extra: true });
	}, 60_000);
});
