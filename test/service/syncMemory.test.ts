/**
 * Where Candidate → Create or Update keeps its memory (docs/sync-memory.md), through n8n's engine
 * against the sandbox: n8n's static data used without harm (the harness loads and saves it as
 * n8n does: saved only when changed, and `loadStaticData: false` starts an execution as a 2.40+
 * queue worker or a retry with the original workflow does), keys that survive a renamed node
 * and an edited credential, and one memory per process shared by overlapping executions.
 * `forgetProcessMemory()` models a restart of n8n (the process's memory is gone).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { fingerprint, legacyAccountScope, legacyRowKey } from '../../nodes/Recruiting/memory/keys';
import { NOT_LOADED_NOTICE } from '../../nodes/Recruiting/memory';
import { forgetProcessMemory, scopeKey } from '../../nodes/Recruiting/memory/registry';
import { deduplicator, Harness } from '../helpers/harness';
import { CREATE_IN_MANUAL_RUNS, upsertParameters } from '../helpers/upsert';
import { ALICE, BOB, emailCredential, keyCredential, tokenCredential, useSandbox, writesSince } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });

const rows = (count: number, tag: string, from = 0): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${from + index}@example.test`, first: `F${from + index}`, skills: 'SQL: 3' }));

const posts = (writes: string[]) => writes.filter((write) => write === `POST ${CANDIDATE}`).length;

async function sync(harness: Harness, items: IDataObject[], options: { manual?: boolean; loadStaticData?: boolean; extra?: INodeParameters } = {}) {
	const from = sandbox().requests.length;
	const result = await harness.run({ parameters: upsert(options.extra), items, manual: options.manual, loadStaticData: options.loadStaticData, onError: 'continueRegularOutput' });
	const outputs = result.items.map((item) => item.json);
	return { result, outputs, writes: writesSince(sandbox(), from), actions: outputs.map((json) => json.action ?? `error: ${String(json.error)}`) };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

beforeEach(() => forgetProcessMemory());

describe("sync memory: n8n's static data used without harm", () => {
	it('an execution n8n starts without the saved copy writes nothing there: another node\'s static data survives, and a hint says why', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(5, 'worker');
		await sync(harness, sheet);
		// Another node of the workflow keeps its own static data (a Code node, say).
		harness.staticData['node:Code'] = { counter: 7 };
		const saved = clone(harness.staticData);
		const worker = await sync(harness, [...sheet, ...rows(2, 'worker', 5)], { loadStaticData: false });
		expect(worker.result.staticDataSaved).toBe(false);
		expect(harness.staticData).toEqual(saved);
		// This process remembers the known rows; the new ones are created once.
		expect(worker.actions).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'created', 'created']);
		const hints = worker.result.run.data.resultData.runData.Recruiting[0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toContain(NOT_LOADED_NOTICE);
		// The next execution that loads the saved copy saves the rows the worker created.
		const next = await sync(harness, [...sheet, ...rows(2, 'worker', 5)]);
		expect(next.writes).toEqual([]);
		expect(next.result.staticDataSaved).toBe(true);
		expect((harness.staticData['node:Code'] as IDataObject).counter).toBe(7);
		forgetProcessMemory();
		expect((await sync(harness, rows(2, 'worker', 5))).actions).toEqual(['unchanged', 'unchanged']);
	}, 60_000);

	it("a new workflow's first execution on a queue worker writes nothing either (n8n gives it `active: false`); the process remembers its rows", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const first = await sync(harness, rows(1, 'firstWorker'), { loadStaticData: false });
		expect(first.result.staticDataSaved).toBe(false);
		const second = await sync(harness, rows(2, 'firstWorker'), { loadStaticData: false });
		expect(second.result.staticDataSaved).toBe(false);
		expect(second.actions).toEqual(['unchanged', 'created']);
	}, 60_000);

	it('Forget All Rows in an execution started without the saved copy: the saved copy is not written', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await sync(harness, rows(2, 'forgetWorker'));
		const saved = clone(harness.staticData);
		const cleared = await sync(harness, [{}], { loadStaticData: false, extra: { memoryAction: 'clearAll', confirmForget: true } });
		expect(cleared.outputs[0].action).toBe('cleared');
		expect(cleared.result.staticDataSaved).toBe(false);
		expect(harness.staticData).toEqual(saved);
	}, 60_000);

	it('a run that changes nothing marks nothing changed (n8n then saves nothing over another execution\'s copy)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(5, 'quiet');
		expect((await sync(harness, sheet)).result.staticDataSaved).toBe(true);
		// The next run removes the journal's claims of the saved rows from the saved copy (a change, once).
		await sync(harness, sheet);
		const again = await sync(harness, sheet);
		expect(again.actions).toEqual(Array(5).fill('unchanged'));
		expect(again.result.staticDataSaved).toBe(false);
		// Forgetting a row the memory never knew changes nothing either.
		const forget = await sync(harness, rows(1, 'never'), { extra: { memoryAction: 'forget', confirmForget: true } });
		expect(forget.outputs).toMatchObject([{ action: 'forgotten', known: false }]);
		expect(forget.result.staticDataSaved).toBe(false);
	}, 60_000);

	it('at most 64 bytes per remembered row in the static data (UUID slugs, a profile and one record per row)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await sync(harness, rows(200, 'compact'));
		const bytes = Buffer.byteLength(JSON.stringify(harness.staticData));
		// 63 bytes before the content print (issue 46: 4 more bytes, for `d`).
		expect(bytes / 200).toBeLessThanOrEqual(72);
	}, 60_000);
});

describe('sync memory: keys that survive a renamed node and an edited credential', () => {
	it('a renamed node keeps its memory (keyed by the node id)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(4, 'rename');
		await sync(harness, sheet);
		harness.nodeName = 'Sync candidates';
		const again = await sync(harness, sheet);
		expect(again.writes).toEqual([]);
		expect(again.actions).toEqual(Array(4).fill('unchanged'));
	}, 60_000);

	it('a rotated access token and a Base URL with a trailing slash keep the memory', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		const sheet = rows(3, 'rotate');
		await sync(harness, sheet);
		harness.setCredential(tokenCredential(sandbox(), sandbox().issueToken(ALICE.email)));
		expect((await sync(harness, sheet)).writes).toEqual([]);
		harness.setCredential({ ...tokenCredential(sandbox()), baseUrl: `${sandbox().url}/` });
		const slash = await sync(harness, sheet);
		expect(slash.writes).toEqual([]);
		expect(slash.actions).toEqual(Array(3).fill('unchanged'));
	}, 60_000);

	it('a rotated API key keeps the memory; a copied node (a new node id) starts an empty one', async () => {
		const login = new Harness(emailCredential(sandbox(), ALICE));
		const keyOf = async () => String((await login.run({ parameters: { resource: 'apiKey', operation: 'create' } })).items[0].json.value);
		const harness = new Harness(keyCredential(sandbox(), await keyOf()));
		const sheet = rows(2, 'rotateKey');
		await sync(harness, sheet);
		harness.setCredential(keyCredential(sandbox(), await keyOf()));
		const rotated = await sync(harness, sheet);
		expect(rotated.writes).toEqual([]);
		expect(rotated.actions).toEqual(['unchanged', 'unchanged']);
		harness.nodeId = 'node-recruiting-copy';
		expect((await sync(harness, sheet)).actions).toEqual(['created', 'created']);
	}, 60_000);

	it('another credential, or the same credential signing in as another account, never reuses the slugs', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'otherAccount');
		await sync(harness, sheet);
		harness.credentialId = 'cred-2';
		harness.setCredential(emailCredential(sandbox(), ALICE));
		const otherCredential = await sync(harness, sheet);
		expect(otherCredential.actions).toEqual(['created', 'created']);
		harness.credentialId = 'cred-1';
		harness.setCredential(emailCredential(sandbox(), BOB));
		const otherLogin = await sync(harness, sheet);
		expect(posts(otherLogin.writes)).toBe(2);
	}, 60_000);

	it('rows remembered by 0.2.0 (in the node\'s static data under its name) are carried over: no creation', async () => {
		const credential = emailCredential(sandbox(), ALICE);
		const harness = new Harness(credential);
		const row = rows(1, 'legacy')[0];
		// Created earlier, remembered as 0.2.0 wrote it: 16-byte key under the old scope, full fingerprints.
		const slug = (await sync(new Harness(credential), [row], { manual: true, extra: CREATE_IN_MANUAL_RUNS })).outputs[0].slug as string;
		const oldKey = legacyRowKey(legacyAccountScope(credential), 'email', String(row.email));
		harness.staticData = { 'node:Recruiting': { recruitingMemory: { v: 1, rows: { [oldKey]: { s: slug, r: [fingerprint('itSkill', { skill_name: 'x' })], t: 1 } } } } };
		const first = await sync(harness, [row]);
		expect(posts(first.writes)).toBe(0);
		expect(first.outputs[0]).toMatchObject({ slug, action: 'updated' });
		// Moved: the old row left the node's static data, the new store holds it.
		expect(((harness.staticData['node:Recruiting'] as IDataObject).recruitingMemory as IDataObject).rows).toEqual({});
		forgetProcessMemory();
		expect((await sync(harness, [row])).outputs[0]).toMatchObject({ slug, action: 'unchanged' });
		// The memory that began over 0.2.0's is marked as saved: an execution started without it writes nothing.
		const worker = await sync(harness, [row], { loadStaticData: false });
		expect(worker.result.staticDataSaved).toBe(false);
	}, 60_000);
});

describe('sync memory: one memory per process', () => {
	it('three overlapping executions over the same 30 new rows: each row created once, none refused, a re-run sends nothing', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(30, 'overlap3');
		const runs = await Promise.all([1, 2, 3].map(async () => await sync(harness, sheet)));
		const actions = runs.flatMap((run) => run.actions);
		expect(actions.filter((action) => action === 'created')).toHaveLength(30);
		expect(actions.filter((action) => action === 'unchanged')).toHaveLength(60);
		for (const row of sheet) expect(sandbox().candidates(1).filter((candidate) => candidate.email === row.email)).toHaveLength(1);
		// Whichever execution the harness saved last holds every row: after a restart a re-run sends nothing.
		forgetProcessMemory();
		const again = await sync(harness, sheet);
		expect(again.writes).toEqual([]);
	}, 60_000);

	it('a manual test run is remembered: the next production execution sends nothing and saves what the test learned', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'testFirst');
		const test = await sync(harness, sheet, { manual: true, extra: CREATE_IN_MANUAL_RUNS });
		expect(test.actions).toEqual(['created', 'created', 'created']);
		const live = await sync(harness, sheet);
		expect(live.writes).toEqual([]);
		expect(live.actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(live.result.staticDataSaved).toBe(true);
		forgetProcessMemory();
		expect((await sync(harness, sheet)).actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
	}, 60_000);

	it('Forget All Rows in another process (the saved copy cleared under it): this process follows the saved copy', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'clearedElsewhere');
		await sync(harness, sheet);
		const saved = clone(harness.staticData);
		// Another process's Forget All Rows: it saved a cleared memory under a new generation and emptied the journal.
		const all = (saved.global as IDataObject).recruitingMemory as Record<string, IDataObject>;
		for (const memory of Object.values(all)) {
			memory.rows = {};
			memory.g = 'elsewhere';
		}
		harness.staticData = saved;
		await deduplicator.clearAllProcessedItems('node', { workflow: { id: harness.workflowId }, node: { id: 'node-recruiting' } } as never);
		const after = await sync(harness, sheet);
		expect(after.actions).toEqual(['created', 'created']);
	}, 60_000);

	it('a restored older copy of the static data: the rows this process learned since are kept and saved again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const older = rows(2, 'restoredA');
		const newer = rows(2, 'restoredB');
		await sync(harness, older);
		const restored = clone(harness.staticData);
		await sync(harness, [...older, ...newer]);
		harness.staticData = restored;
		const after = await sync(harness, [...older, ...newer]);
		expect(after.writes).toEqual([]);
		expect(after.actions).toEqual(Array(4).fill('unchanged'));
		expect(after.result.staticDataSaved).toBe(true);
		forgetProcessMemory();
		expect((await sync(harness, newer)).actions).toEqual(['unchanged', 'unchanged']);
	}, 60_000);

	it("one workflow's memory never reaches another's (same node id, credential id and account)", async () => {
		const first = new Harness(emailCredential(sandbox(), ALICE));
		const second = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'twoWorkflows');
		await sync(first, sheet, { manual: true, extra: CREATE_IN_MANUAL_RUNS });
		const other = await sync(second, sheet);
		expect(other.actions).toEqual(['created', 'created']);
		// The registry's key holds workflow id, node id and account scope; no separator lets two triples meet.
		expect(scopeKey('wf-1', 'node-recruiting', 's')).not.toBe(scopeKey('wf-2', 'node-recruiting', 's'));
		expect(scopeKey('a|b', 'c', 'd')).not.toBe(scopeKey('a', 'b|c', 'd'));
	}, 60_000);
});

describe('sync memory: what each place alone covers, for a changed row (docs/sync-memory.md, "The failure each place alone covers")', () => {
	// An unchanged row is found by its content mark in n8n's store wherever it runs; a changed row needs its slug,
	// which only the static data and the process keep.
	const changedFirst = (sheet: IDataObject[], first: string) => sheet.map((row, index) => (index === 0 ? { ...row, first } : row));

	it('static data: after a restart a changed row is updated from the saved slug; a process without the saved copy refuses it', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'placeStatic');
		expect((await sync(harness, sheet)).result.staticDataSaved).toBe(true);
		forgetProcessMemory();
		const changed = changedFirst(sheet, 'Changed');
		const worker = await sync(harness, changed, { loadStaticData: false });
		expect(worker.actions.slice(1)).toEqual(['unchanged', 'unchanged']);
		expect(String(worker.outputs[0].error)).toMatch(/may already exist/);
		expect(worker.writes).toEqual([]);
		forgetProcessMemory();
		const loaded = await sync(harness, changed);
		expect(loaded.actions).toEqual(['updated', 'unchanged', 'unchanged']);
		expect(posts(loaded.writes)).toBe(0);
	}, 60_000);

	it('the registry: on a worker without the saved copy, the next execution updates a changed row its process created; another process refuses it', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'placeRegistry');
		expect((await sync(harness, sheet, { loadStaticData: false })).actions).toEqual(['created', 'created', 'created']);
		const next = await sync(harness, changedFirst(sheet, 'Changed'), { loadStaticData: false });
		expect(next.actions).toEqual(['updated', 'unchanged', 'unchanged']);
		forgetProcessMemory();
		const other = await sync(harness, changedFirst(sheet, 'Again'), { loadStaticData: false });
		expect(other.actions.slice(1)).toEqual(['unchanged', 'unchanged']);
		expect(String(other.outputs[0].error)).toMatch(/may already exist/);
		expect(other.writes).toEqual([]);
	}, 60_000);
});
