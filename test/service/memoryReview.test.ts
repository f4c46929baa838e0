/**
 * The memory defects an independent review reproduced (issue 31, section 3: 5, 6, 7, 8, 9, 11)
 * and the node's first execution on a queue worker (section 2), through n8n's engine against the
 * sandbox. `forgetProcessMemory()` models another n8n process (or a restart); `loadStaticData:
 * false` an execution of a 2.40+ queue worker (empty static data, `getWorkflow().active` false:
 * the harness builds it as scaling/job-processor does); `manual: true` a run from the editor
 * (n8n never saves its static data).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { deduplicator, Harness } from '../helpers/harness';
import { CREATE_IN_MANUAL_RUNS, upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox, writesSince } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });

const rows = (count: number, tag: string, from = 0): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${from + index}@example.test`, first: `F${from + index}`, skills: 'SQL: 3' }));

interface SyncOptions {
	manual?: boolean;
	loadStaticData?: boolean;
	extra?: INodeParameters;
}

async function sync(harness: Harness, items: IDataObject[], options: SyncOptions = {}) {
	const from = sandbox().requests.length;
	const result = await harness.run({ parameters: upsert(options.extra), items, manual: options.manual, loadStaticData: options.loadStaticData, onError: 'continueRegularOutput' });
	const outputs = result.items.map((item) => item.json);
	const writes = writesSince(sandbox(), from);
	return { result, outputs, writes, actions: outputs.map((json) => (!json.error ? json.action : /may already exist/.test(String(json.error)) ? 'refused' : `error: ${String(json.error)}`)) };
}

const forgetAll = async (harness: Harness, options: SyncOptions = {}) => await sync(harness, [{}], { ...options, extra: { memoryAction: 'clearAll', confirmForget: true } });
const forgetRow = async (harness: Harness, row: IDataObject, options: SyncOptions = {}) => await sync(harness, [row], { ...options, extra: { memoryAction: 'forget', confirmForget: true } });
const stored = (email: string) => sandbox().candidates(ALICE.companyId).filter((candidate) => candidate.email === email).length;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Resolves once the sandbox holds a candidate with `email` (polled). */
async function created(email: string): Promise<void> {
	for (let tries = 0; tries < 400 && stored(email) === 0; tries++) await sleep(5);
}

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

describe('defect 5: a row with more than 64 records', () => {
	it('70 IT skills: the re-run sends nothing (the kept prints do not rotate)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const skills = Array.from({ length: 70 }, (_, index) => `Skill${index}: 3`).join(', ');
		const row = { email: 'many.records@example.test', first: 'Many', skills };
		const first = await sync(harness, [row]);
		expect(first.actions).toEqual(['created']);
		for (let run = 0; run < 2; run++) {
			const again = await sync(harness, [row]);
			expect(again.writes).toEqual([]);
			expect(again.actions).toEqual(['unchanged']);
		}
	}, 60_000);
});

describe('defect 6: Forget All Rows run by hand', () => {
	it('the next production run creates the forgotten rows again (the forget is not undone by the saved copy)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'handForgetAll');
		await sync(harness, sheet);
		const cleared = await forgetAll(harness, { manual: true });
		expect(cleared.outputs[0].action).toBe('cleared');
		const live = await sync(harness, sheet);
		expect(live.actions).toEqual(['created', 'created', 'created']);
		forgetProcessMemory();
		const other = await sync(harness, sheet);
		expect(other.actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
	}, 60_000);

	it('in another process too (the process that ran it restarted)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'handForgetAllRestart');
		await sync(harness, sheet);
		await forgetAll(harness, { manual: true });
		forgetProcessMemory();
		expect((await sync(harness, sheet)).actions).toEqual(['created', 'created']);
	}, 60_000);
});

describe("defect 7: Forget All Rows and an overlapping execution's save", () => {
	it('an execution that loaded the rows before the forget and saves after it does not bring them back', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const known = rows(3, 'overlapForgetKnown');
		await sync(harness, known);
		sandbox().setFaults({ latencyMs: 30 });
		// A long execution over the known rows and new ones; Forget All Rows runs (and is saved) while it runs.
		const long = sync(harness, [...known, ...rows(12, 'overlapForgetNew')]);
		await created('overlapForgetNew.0@example.test');
		await forgetAll(harness);
		const longRun = await long;
		expect(longRun.result.staticDataSaved).toBe(true);
		sandbox().setFaults({});
		forgetProcessMemory();
		const after = await sync(harness, known);
		expect(after.actions).toEqual(['created', 'created', 'created']);
	}, 60_000);
});

describe('defect 8 and section 2: nothing written to the static data on a queue worker', () => {
	it("the node's first execution on a worker writes nothing: another node's saved static data survives", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		harness.staticData = { 'node:Code': { counter: 7 } };
		const saved = clone(harness.staticData);
		const worker = await sync(harness, rows(2, 'firstOnWorker'), { loadStaticData: false });
		expect(worker.actions).toEqual(['created', 'created']);
		expect(worker.result.staticDataSaved).toBe(false);
		expect(harness.staticData).toEqual(saved);
	}, 60_000);

	it('after Forget All Rows (by hand), the next execution on a worker writes nothing either', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await sync(harness, rows(2, 'forgetThenWorker'));
		harness.staticData['node:Code'] = { counter: 7 };
		await forgetAll(harness, { manual: true });
		const saved = clone(harness.staticData);
		forgetProcessMemory();
		const worker = await sync(harness, rows(2, 'forgetThenWorker', 2), { loadStaticData: false });
		expect(worker.result.staticDataSaved).toBe(false);
		expect(harness.staticData).toEqual(saved);
	}, 60_000);

	it('after Forget All Rows on a worker, the next execution on a worker writes nothing', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await sync(harness, rows(2, 'workerForget'));
		harness.staticData['node:Code'] = { counter: 7 };
		const saved = clone(harness.staticData);
		forgetProcessMemory();
		expect((await forgetAll(harness, { loadStaticData: false })).result.staticDataSaved).toBe(false);
		forgetProcessMemory();
		const worker = await sync(harness, rows(2, 'workerForget', 2), { loadStaticData: false });
		expect(worker.result.staticDataSaved).toBe(false);
		expect(harness.staticData).toEqual(saved);
	}, 60_000);
});

describe('issue 38: Forget All Rows on a queue worker', () => {
	it('says what it forgot where (the worker remembers none of the rows itself, n8n\'s store held their entries), and the next run creates them again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		await sync(harness, rows(3, 'workerCount'));
		forgetProcessMemory();
		// Issue 47: the preview (Forget Now off) says the same and changes nothing.
		const preview = await sync(harness, [{}], { loadStaticData: false, extra: { memoryAction: 'clearAll' } });
		expect(preview.outputs[0]).toMatchObject({ action: 'wouldClear', remembered: 0 });
		const cleared = await forgetAll(harness, { loadStaticData: false });
		expect(cleared.outputs[0]).toMatchObject({ action: 'cleared', forgotten: 0, storeEntries: (preview.outputs[0] as IDataObject).storeEntries });
		expect(Number(cleared.outputs[0].storeEntries)).toBeGreaterThanOrEqual(6);
		forgetProcessMemory();
		const again = await sync(harness, rows(3, 'workerCount'), { loadStaticData: false });
		expect(again.actions).toEqual(['created', 'created', 'created']);
	}, 60_000);
});

describe('defect 9: Forget This Row while the execution that creates the row still runs', () => {
	it('the claim does not come back: the next run creates the row again, it is not refused', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(12, 'forgetWhileRunning');
		sandbox().setFaults({ latencyMs: 30 });
		const running = sync(harness, sheet);
		await created(sheet[0].email as string);
		const forgot = await forgetRow(harness, sheet[0], { manual: true });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten' });
		await running;
		sandbox().setFaults({});
		const next = await sync(harness, [sheet[0]]);
		expect(next.actions).toEqual(['created']);
		forgetProcessMemory();
		const elsewhere = await sync(harness, sheet);
		expect(elsewhere.actions).toEqual(Array(12).fill('unchanged'));
	}, 60_000);
});

describe('defect 11: a refused row has a way out', () => {
	it('rows tested by hand, n8n restarted: refused; Forget This Row releases the claim and says so; the next run creates the row', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'refusedWayOut');
		expect((await sync(harness, sheet, { manual: true, extra: CREATE_IN_MANUAL_RUNS })).actions).toEqual(['created', 'created']);
		forgetProcessMemory();
		// Changed since the hand run (unchanged rows are known anywhere: issue 46): they need their slugs.
		const changed = sheet.map((row) => ({ ...row, first: `${String(row.first)}-changed` }));
		expect((await sync(harness, changed)).actions).toEqual(['refused', 'refused']);
		const forgot = await forgetRow(harness, sheet[0]);
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true, email: sheet[0].email });
		const next = await sync(harness, changed);
		expect(next.actions).toEqual(['created', 'refused']);
		expect(next.writes.filter((write) => write === `POST ${CANDIDATE}`)).toHaveLength(1);
	}, 60_000);
});

describe('an update from the memory of earlier 0.2.x (a `v: 2` copy whose claims were taken off the journal)', () => {
	it('its rows are trusted (not created again), their claims written, and the copy then counts as `v: 3`', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'fromV2');
		await sync(harness, sheet);
		// The copy as 0.2.x left it: version 2, a generation, and no claims for the saved rows.
		const all = (harness.staticData.global as IDataObject).recruitingMemory as Record<string, IDataObject>;
		for (const memory of Object.values(all)) Object.assign(memory, { v: 2, g: 'old', n: 0 });
		await deduplicator.clearAllProcessedItems('node', { workflow: { id: harness.workflowId }, node: { id: harness.nodeId } } as never);
		forgetProcessMemory();
		const first = await sync(harness, sheet);
		expect(first.actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(first.writes).toEqual([]);
		expect(Object.values((harness.staticData.global as IDataObject).recruitingMemory as Record<string, IDataObject>)[0].v).toBe(3);
		forgetProcessMemory();
		expect((await sync(harness, sheet)).actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
	}, 60_000);
});
