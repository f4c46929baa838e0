/**
 * Issue 39, traps 1–3, through n8n's engine against the sandbox: no natural action creates a
 * candidate twice (Forget says what it does, refused rows are adopted in bulk), a mode that syncs
 * nothing says so in every production execution, and a manual run never leaves a row stuck.
 * `forgetProcessMemory()` models an n8n restart; `manual: true` a run from the editor (n8n never
 * saves its static data).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MANUAL_ADOPT_HINT, MANUAL_HOLD_HINT } from '../../nodes/Recruiting/actions/candidate/upsert/memoryActions';
import { MANUAL_RUN_HINT } from '../../nodes/Recruiting/actions/candidate/upsert.operation';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { CREATE_IN_MANUAL_RUNS, upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox, writesSince } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });
const rows = (count: number, tag: string): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3, Go: 2' }));
const stored = (email: string) => sandbox().candidates(ALICE.companyId).filter((candidate) => candidate.email === email).length;

async function sync(harness: Harness, items: IDataObject[], options: { manual?: boolean; extra?: INodeParameters } = {}) {
	const from = sandbox().requests.length;
	const result = await harness.run({ parameters: upsert(options.extra), items, manual: options.manual, onError: 'continueRegularOutput' });
	const outputs = result.items.map((item) => item.json);
	const hints = (result.run.data.resultData.runData.Recruiting[0].hints ?? []).map((hint) => hint.message);
	const actions = outputs.map((json) => (!json.error ? json.action : /may already exist/.test(String(json.error)) ? 'refused' : `error: ${String(json.error)}`));
	return { result, outputs, hints, actions, writes: writesSince(sandbox(), from) };
}

beforeEach(() => forgetProcessMemory());

describe('trap 1: Forget says what it does; refused rows are adopted in bulk, never created twice', () => {
	it('Forget Each Input Row: each output keeps its e-mail and slug and says the candidate exists and will be created again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(4, 'i39forget');
		const first = await sync(harness, sheet);
		const forgot = await sync(harness, sheet, { extra: { memoryAction: 'forget', confirmForget: true } });
		expect(forgot.writes).toEqual([]);
		expect(forgot.outputs.map((json) => [json.action, json.email, json.slug])).toEqual(first.outputs.map((json) => ['forgotten', json.email, json.slug]));
		for (const json of forgot.outputs) expect(json.message).toMatch(/still exists in the service.*creates this row again \(a duplicate.*the published workflow's too/);
	});

	it('Forget All Rows with four input rows: one output item, the count, and what the next run does', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(4, 'i39clear');
		await sync(harness, sheet);
		const cleared = await sync(harness, sheet, { extra: { memoryAction: 'clearAll', confirmForget: true } });
		expect(cleared.outputs).toHaveLength(1);
		expect(cleared.outputs[0]).toMatchObject({ action: 'cleared', forgotten: 4 });
		expect(cleared.outputs[0].message).toMatch(/candidates still exist in the service/);
	});

	it('rows created by hand, n8n restarted, refused live: adopting the slugs of the hand run\'s output (a sheet mapping slug) creates nothing and posts no record again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(4, 'i39adopt');
		const byHand = await sync(harness, sheet, { manual: true, extra: CREATE_IN_MANUAL_RUNS });
		expect(byHand.actions).toEqual(['created', 'created', 'created', 'created']);
		forgetProcessMemory();
		// Unchanged, they are known anywhere (issue 46: n8n's store holds that they were sent with this content).
		expect((await sync(harness, sheet)).actions).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
		// Changed, they need their slugs.
		const refused = await sync(harness, sheet.map((row) => ({ ...row, first: `${String(row.first)}-changed` })));
		expect(refused.actions).toEqual(['refused', 'refused', 'refused', 'refused']);
		expect(refused.writes).toEqual([]);
		expect(String(refused.outputs[0].errorDescription)).toMatch(/Adopt Given Slugs/);
		expect(refused.outputs.map((json) => json.email)).toEqual(sheet.map((row) => row.email));

		// The sheet gets the hand run's slugs (as the spreadsheet example writes them back) and maps them to Candidate Slug.
		const withSlugs = sheet.map((row, index) => ({ ...row, slug: byHand.outputs[index].slug }));
		const adopted = await sync(harness, withSlugs, { extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		expect(adopted.actions).toEqual(['adopted', 'adopted', 'adopted', 'adopted']);
		expect(adopted.writes).toEqual([]);
		expect(adopted.outputs.map((json) => json.slug)).toEqual(withSlugs.map((row) => row.slug));

		forgetProcessMemory();
		const live = await sync(harness, withSlugs, { extra: { candidateSlug: '={{ $json.slug }}' } });
		expect(live.writes.filter((write) => write === `POST ${CANDIDATE}`)).toEqual([]);
		expect(live.writes.filter((write) => write.startsWith('POST'))).toEqual([]);
		// Issue 47: adopted rows are taken as their candidates hold them: nothing changed, nothing sent.
		expect(live.actions).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
		for (const row of sheet) expect(stored(String(row.email))).toBe(1);
		const again = await sync(harness, withSlugs, { extra: { candidateSlug: '={{ $json.slug }}' } });
		expect(again.writes).toEqual([]);
		expect(again.actions).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
	});

	it('Adopt by hand: the next production run in the same process saves the adopted rows (they hold after a restart)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'i39adopthand');
		const byHand = await sync(harness, sheet, { manual: true, extra: CREATE_IN_MANUAL_RUNS });
		forgetProcessMemory();
		const withSlugs = sheet.map((row, index) => ({ ...row, slug: byHand.outputs[index].slug }));
		const adopted = await sync(harness, withSlugs, { manual: true, extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		expect(adopted.actions).toEqual(['adopted', 'adopted']);
		expect(adopted.hints).toContain(MANUAL_ADOPT_HINT);
		expect((await sync(harness, sheet)).actions).toEqual(['unchanged', 'unchanged']);
		forgetProcessMemory();
		const afterRestart = await sync(harness, sheet);
		expect(afterRestart.actions).toEqual(['unchanged', 'unchanged']);
		expect(afterRestart.writes).toEqual([]);
	});
});

describe('trap 2: a mode that syncs nothing says so in every production execution', () => {
	it.each([
		['forget', { memoryAction: 'forget', confirmForget: true }, /Forget Each Input Row/],
		['clearAll', { memoryAction: 'clearAll', confirmForget: true }, /Forget All Rows/],
		['dry run', { options: { retryDelayMs: 1, dryRun: true } }, /Dry Run is on/],
	])('%s in a production execution: an execution hint, and forget items carry a warning', async (_name, extra, pattern) => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const run = await sync(harness, rows(2, `i39mode${_name.replace(/\W/g, '')}`), { extra });
		expect(run.hints.some((hint) => pattern.test(hint) && /every execution of the active workflow/.test(hint))).toBe(true);
		if (_name !== 'dry run') for (const json of run.outputs) expect(json.warning).toMatch(pattern);
		else for (const json of run.outputs) expect(json.dryRun).toBe(true);
	});

	it('Sync Rows in a production execution: no mode hint, no warning', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const run = await sync(harness, rows(1, 'i39modenone'));
		expect(run.hints).toEqual([]);
		expect(run.outputs[0].warning).toBeUndefined();
	});
});

describe('trap 3: a manual run never leaves a row stuck', () => {
	it('new rows run by hand are not created (notSent, nothing written); after a restart production creates each once, none refused', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'i39hand');
		const byHand = await sync(harness, sheet, { manual: true });
		expect(byHand.actions).toEqual(['notSent', 'notSent', 'notSent']);
		expect(byHand.writes).toEqual([]);
		expect(byHand.outputs[0].wouldSend).toEqual(['the candidate (created)', expect.stringMatching(/SQL/), expect.stringMatching(/Go/)]);
		expect(byHand.hints).toEqual([MANUAL_HOLD_HINT]);
		forgetProcessMemory();
		const live = await sync(harness, sheet);
		expect(live.actions).toEqual(['created', 'created', 'created']);
		for (const row of sheet) expect(stored(String(row.email))).toBe(1);
	});

	it('a known row by hand: its new record is held back, a profile-only change is sent; the next production run adds the record once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row, other] = rows(2, 'i39handknown');
		await sync(harness, [row, other]);
		const changed = [{ ...row, skills: 'SQL: 3, Go: 2, Rust: 1' }, { ...other, first: 'Renamed' }];
		const byHand = await sync(harness, changed, { manual: true });
		expect(byHand.actions).toEqual(['notSent', 'updated']);
		expect(byHand.writes).toEqual([expect.stringMatching(/^PUT /)]);
		forgetProcessMemory();
		const live = await sync(harness, changed);
		expect(live.writes.filter((write) => write.startsWith('POST'))).toHaveLength(1);
		expect(live.actions[0]).toBe('updated');
	});

	it('Options → Create in Manual Runs: the manual run creates, and says what n8n does not keep', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const byHand = await sync(harness, rows(1, 'i39handon'), { manual: true, extra: CREATE_IN_MANUAL_RUNS });
		expect(byHand.actions).toEqual(['created']);
		expect(byHand.hints).toEqual([MANUAL_RUN_HINT]);
	});
});
