/**
 * An independent review of commit 765fc45 (Create or Update): Retry On Fail and the empty `error`,
 * the phone key of digits only, Forget Each Input Row of both keys, a request stopped during its
 * login, and Adopt Given Slugs after a creation that got no answer. Each test runs the node through
 * n8n's engine against the sandbox and asserts what the sandbox stored.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { creationEmails, syncRun, until } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const MAY_EXIST = /may already exist/;

const sync = async (harness: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), harness, items, options);

const storedOf = (email: unknown) => sandbox().candidates(1).filter((candidate) => candidate.email === email);

/** The IT skills of the candidate `slug`, sorted ("SQL:3"). */
const skillsOfSlug = (slug: unknown): string[] =>
	sandbox()
		.candidates(1)
		.filter((candidate) => candidate.slug === slug)
		.flatMap((candidate) => candidate.records.itSkills.map((skill) => `${skill.skill_name}:${skill.skill_level_id}`))
		.sort();

const creationsSince = (from: number) => creationEmails(sandbox(), from);


const adopt = (extra: INodeParameters = {}): INodeParameters => ({ memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}', ...extra });
const forgetNow: INodeParameters = { memoryAction: 'forget', confirmForget: true };
const withPhone: INodeParameters = { phone: '={{ $json.phone }}', options: { retryDelayMs: 1, concurrency: 1 } };
const byPhone: INodeParameters = { matchBy: 'phone', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: { retryDelayMs: 1, concurrency: 1 } };

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

describe('item 5: Adopt Given Slugs after a creation that got no answer here', () => {
	it('the candidate exists, created with its records by another workflow; this node\'s creation answered 503 (not stored) is held; Adopt of that candidate, then Sync Rows: no record posted twice', async () => {
		const row = { email: 'otherwf.adopt@example.test', first: 'O', skills: 'SQL: 3, Go: 2' };
		// Another workflow (another Create or Update node, same account) created the candidate with its records.
		const other = new Harness(emailCredential(sandbox(), ALICE));
		const made = await sync(other, [row]);
		expect(made.actions).toEqual(['created']);
		const slug = made.outputs[0].slug;
		expect(skillsOfSlug(slug)).toEqual(['Go:2', 'SQL:3']);
		// This workflow's node syncs the same sheet: its creation is answered 503 before any work (nothing stored).
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({ paths: [CANDIDATE], unavailableRate: 1 });
		const first = await sync(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'failed' });
		expect(storedOf(row.email)).toHaveLength(1);
		const again = await sync(harness, [row]);
		expect(String(again.outputs[0].error)).toMatch(MAY_EXIST);
		// The way out the refusal names: the candidate exists, give the row its slug and Adopt Given Slugs once.
		const adopted = await sync(harness, [{ ...row, slug }], { extra: adopt() });
		expect(adopted.actions).toEqual(['adopted']);
		await sync(harness, [row]);
		// docs/create-or-update.md: "(changed since, or created by another workflow) its records are taken as added … Nothing is created or posted twice".
		expect(skillsOfSlug(slug)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);

	it('a row this node created with its records, forgotten by Forget Each Input Row, then its new creation answered 503 (not stored); Adopt of the candidate that still exists, then Sync Rows: no record posted twice', async () => {
		const row = { email: 'forgot.adopt@example.test', first: 'F', skills: 'SQL: 3, Go: 2' };
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const made = await sync(harness, [row]);
		const slug = made.outputs[0].slug;
		expect(skillsOfSlug(slug)).toEqual(['Go:2', 'SQL:3']);
		expect((await sync(harness, [row], { extra: forgetNow })).actions).toEqual(['forgotten']);
		sandbox().setFaults({ paths: [CANDIDATE], unavailableRate: 1 });
		const first = await sync(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'failed' });
		expect(storedOf(row.email)).toHaveLength(1);
		expect(String((await sync(harness, [row])).outputs[0].error)).toMatch(MAY_EXIST);
		// The candidate was not deleted after all: the person adopts it (README: "The candidate exists: give the rows their slugs and run Adopt Given Slugs once").
		expect((await sync(harness, [{ ...row, slug }], { extra: adopt() })).actions).toEqual(['adopted']);
		await sync(harness, [row]);
		expect(storedOf(row.email)).toHaveLength(1);
		// "Nothing is created or posted twice" (docs/create-or-update.md, Adopt Given Slugs).
		expect(skillsOfSlug(slug)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);

	it('a creation stored but answered 502 (held), then Adopt with its slug: its records are of unknown outcome (listed, nothing posted); Send Unknown-Outcome Records Again posts them once; the run after is `unchanged`', async () => {
		const row = { email: 'held502.adopt@example.test', first: 'H', skills: 'SQL: 3, Go: 2' };
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [502] });
		await sync(harness, [row]);
		sandbox().setFaults({});
		const [stored] = storedOf(row.email);
		const adopted = await sync(harness, [{ ...row, slug: stored.slug }], { extra: adopt() });
		expect(adopted.actions).toEqual(['adopted']);
		expect(String(adopted.outputs[0].message)).toMatch(/2 records of unknown outcome/);
		const listed = await sync(harness, [row]);
		expect(listed.outputs[0].outcomeUnknown).toHaveLength(2);
		expect(skillsOfSlug(stored.slug)).toEqual([]);
		await sync(harness, [row], { extra: { options: { retryDelayMs: 1, resendUnknownRecords: true } } });
		const last = await sync(harness, [row]);
		expect(last.actions).toEqual(['unchanged']);
		expect(skillsOfSlug(stored.slug)).toEqual(['Go:2', 'SQL:3']);
		expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);

	it('the same, adopted twice: the second Adopt marks the records of unknown outcome as added and says so (its documented way out when the candidate holds them)', async () => {
		const row = { email: 'held502.twice@example.test', first: 'H', skills: 'SQL: 3, Go: 2' };
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [502] });
		await sync(harness, [row]);
		sandbox().setFaults({});
		const [stored] = storedOf(row.email);
		await sync(harness, [{ ...row, slug: stored.slug }], { extra: adopt() });
		const again = await sync(harness, [{ ...row, slug: stored.slug }], { extra: adopt() });
		expect(String(again.outputs[0].message)).toMatch(/2 records of unknown outcome marked as added/);
		// The profile is sent once (the creation's answer never came), no record.
		expect((await sync(harness, [row])).actions).toEqual(['updated']);
		expect((await sync(harness, [row])).actions).toEqual(['unchanged']);
		expect(skillsOfSlug(stored.slug)).toEqual([]);
	}, 60_000);
});

describe('item 4: a stop during the login', () => {
	it('under Max Requests per Second (the login goes with a carrier never sent), stopped while the login hangs: the re-run creates every row once, none refused', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = Array.from({ length: 4 }, (_, index) => ({ email: `capstop.${index}@example.test`, first: 'C', skills: 'SQL: 3' }));
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 4_000, hangPaths: ['/v1/login'] });
		const saved = JSON.parse(JSON.stringify(harness.staticData)) as IDataObject;
		const extra: INodeParameters = { options: { retryDelayMs: 1, concurrency: 2, requestsPerSecond: 5 } };
		const first = await sync(harness, sheet, {
			extra,
			onStart: (execution) => void until(() => sandbox().requests.slice(from).some((request) => request.path === '/v1/login')).then(() => execution.cancel()),
		});
		harness.staticData = saved;
		sandbox().setFaults({});
		expect(first.result.error ?? first.outputs.find((output) => output.action === 'failed')).toBeDefined();
		expect(creationsSince(from)).toEqual([]);
		const rerun = await sync(harness, sheet, { extra });
		expect(rerun.actions).toEqual(Array(4).fill('created'));
		for (const row of sheet) expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);
});

describe('item 3: Forget Each Input Row of both keys', () => {
	it('two rows share a phone (Match By Email: two candidates); forgetting the first keeps the phone copy of the second: the second run by Phone is `unchanged`, nothing created', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = [
			{ email: 'sharephone.a@example.test', phone: '+49 30 5559090', first: 'A', skills: 'SQL: 3' },
			{ email: 'sharephone.b@example.test', phone: '+49 30 5559090', first: 'B', skills: 'SQL: 3' },
		];
		const made = await sync(harness, sheet, { extra: withPhone });
		expect(made.actions).toEqual(['created', 'created']);
		const forgotten = await sync(harness, [sheet[0]], { extra: { ...withPhone, ...forgetNow } });
		expect(forgotten.outputs[0]).toMatchObject({ action: 'forgotten', slug: made.outputs[0].slug });
		const from = sandbox().requests.length;
		const second = await sync(harness, [sheet[1]], { extra: byPhone });
		expect(second.actions).toEqual(['unchanged']);
		expect(second.outputs[0].slug).toBe(made.outputs[1].slug);
		expect(creationsSince(from)).toEqual([]);
	}, 60_000);

	it('Forget Each Input Row with Match By Phone forgets the e-mail copy: the next Sync Rows by Email creates the row again (as the forget says), once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'forgetboth@example.test', phone: '030 5557070', first: 'B', skills: 'SQL: 3' };
		const made = await sync(harness, [row], { extra: withPhone });
		expect(made.actions).toEqual(['created']);
		const forgotten = await sync(harness, [row], { extra: { ...byPhone, ...forgetNow } });
		expect(forgotten.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		const next = await sync(harness, [row], { extra: withPhone });
		expect(next.actions).toEqual(['created']);
		expect(storedOf(row.email)).toHaveLength(2);
	}, 60_000);
});

describe('item 1: Retry On Fail', () => {
	it('Retry On Fail on, Forget All Rows and Adopt: their outputs carry no `error` field, so n8n runs the node once (the adopted row is not adopted twice)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'retry.adopt@example.test', first: 'R', skills: 'SQL: 3' };
		const made = await sync(harness, [row]);
		const adopted = await sync(harness, [{ ...row, slug: made.outputs[0].slug }], { extra: adopt(), retryOnFail: { maxTries: 3 } });
		expect(adopted.actions).toEqual(['adopted']);
		expect('error' in adopted.outputs[0]).toBe(false);
		const cleared = await sync(harness, [row], { extra: { memoryAction: 'clearAll', confirmForget: true }, retryOnFail: { maxTries: 3 } });
		expect(cleared.actions).toEqual(['cleared']);
		expect('error' in cleared.outputs[0]).toBe(false);
	}, 60_000);
});
