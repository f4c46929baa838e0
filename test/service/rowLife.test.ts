/**
 * Issue 46: a memory that cannot lose a row, through n8n's engine against the sandbox. Each test
 * is a defect found on 0.2.x (it failed there) and the row's life that fixes it
 * (docs/sync-memory.md, "A row's life"):
 *   - executions of one process that start while another ends keep what they claimed;
 *   - a creation of unknown outcome is held for every execution of the process, not only its own;
 *   - a stopped run leaves no claim of a row it never sent;
 *   - a dry run after Forget Each Input Row by hand plans what the real run does;
 *   - Adopt Given Slugs over a known row keeps what was not sent as not sent.
 */
import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep as delay } from 'n8n-workflow';

import { askingOf, minuteAt } from '../../nodes/Recruiting/memory/marks';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { deduplicator, Harness } from '../helpers/harness';
import { creationsSent as creationsSince, storedUnder as storedIn, syncRun, upsertParameters } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });

const rows = (count: number, tag: string, skills = 'SQL: 3'): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills }));

const sync = async (harness: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), harness, items, options);

/** How many candidates the sandbox stores under an e-mail. */
const storedUnder = (email: unknown) => storedIn(sandbox(), email);

/** The e-mails of every creation the sandbox received since request `from`. */
const creationsSent = (from: number) => creationsSince(sandbox(), from);

beforeEach(() => forgetProcessMemory());

describe("issue 46: a row's life in one process", () => {
	it.each([250, 700, 1100])('single-row executions started %i ms apart (a form): each row created once, none refused', async (gap) => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const runs: Array<ReturnType<typeof sync>> = [];
		for (const row of rows(6, `form${gap}`)) {
			runs.push(sync(harness, [row]));
			await delay(gap);
		}
		const results = await Promise.all(runs);
		expect(results.map((run) => run.actions[0])).toEqual(Array(6).fill('created'));
		for (const row of rows(6, `form${gap}`)) expect(storedUnder(row.email)).toBe(1);
	}, 60_000);

	it('a creation stored but answered 503, sent again while a longer execution of the node runs: held, not created twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const known = rows(1, 'longRun');
		await sync(harness, known);
		// The long execution: a known row whose new record hangs at the service for 3 s.
		sandbox().setFaults({ hangMs: 3_000, hangPaths: [`${CANDIDATE}/it-skill`] });
		const long = sync(harness, known.map((row) => ({ ...row, skills: 'SQL: 3, Go: 2' })));
		await delay(300);
		const row = rows(1, 'stored503', '');
		sandbox().setFaults({ hangMs: 3_000, hangPaths: [`${CANDIDATE}/it-skill`], paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [503] });
		const first = await sync(harness, row);
		expect(first.outputs[0].action).toBe('failed');
		sandbox().setFaults({ hangMs: 3_000, hangPaths: [`${CANDIDATE}/it-skill`] });
		// The person sends the row again while the long execution still runs.
		const again = await sync(harness, row);
		expect(again.writes).toEqual([]);
		expect(String(again.outputs[0].error)).toMatch(/may already exist/);
		expect(storedUnder(row[0].email)).toBe(1);
		sandbox().setFaults({});
		await long;
	}, 60_000);

	it('Stop Execution in the middle of a run: the next run creates every row never sent, holds at most the creations in flight at the stop, and creates nothing twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(120, 'stopped', '');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 40 });
		const stopped = await sync(harness, sheet, { extra: { options: { retryDelayMs: 1, concurrency: 4 } }, onStart: (execution) => void delay(1_500).then(() => execution.cancel()) });
		// Whatever the stopped run still does in the background (its end) finishes before the re-run.
		await delay(2_500);
		sandbox().setFaults({});
		const sentBefore = creationsSent(from);
		expect(sentBefore.size).toBeGreaterThan(0);
		expect(sentBefore.size).toBeLessThan(sheet.length);
		expect(stopped.result.error).toBeDefined();
		const rerun = await sync(harness, sheet);
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		// Only a creation that was in flight at the stop may be held (at most the run's concurrency): the
		// cancellation cut it off after it left, so the node cannot know whether it reached the service.
		expect(refused.length).toBeLessThanOrEqual(4);
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist/);
		const held = new Set(refused.map((output) => output.email));
		for (const row of sheet) expect(storedUnder(row.email)).toBe(held.has(row.email) && !sentBefore.has(row.email) ? 0 : 1);
	}, 90_000);

	it('a service outage in the middle of a run (for a second, every creation answered 500 or 503 or its connection dropped): the next run refuses exactly the rows whose creation got no clear answer, creates every other, nothing twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(120, 'outage', '');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 40 });
		const outage = (async () => {
			await delay(1_500);
			sandbox().setFaults({ latencyMs: 40, paths: [CANDIDATE], errorRate: 0.5, dropRate: 0.5, seed: 3 });
			await delay(1_000);
			sandbox().setFaults({ latencyMs: 40 });
		})();
		const first = await sync(harness, sheet, { extra: { options: { retryDelayMs: 1, concurrency: 4 } } });
		await outage;
		sandbox().setFaults({});
		// The service answered these creations 500 or 503, or dropped them (status 0), before any work (its log has no body for them: the rows are named by the run's outputs).
		const unclear = sandbox().requests.slice(from).filter((request) => request.method === 'POST' && request.path === CANDIDATE && (request.status >= 500 || request.status === 0)).length;
		const unanswered = new Set(first.outputs.filter((output) => output.action === 'failed').map((output) => output.email));
		// The outage fell in the middle of the run: some creations before it, some in it, the rest after it.
		expect(unanswered.size).toBeGreaterThan(0);
		expect(unanswered.size).toBe(unclear);
		expect(first.actions.filter((action) => action === 'created').length).toBeGreaterThan(unanswered.size);
		const rerun = await sync(harness, sheet);
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist/);
		expect(new Set(refused.map((output) => output.email))).toEqual(unanswered);
		for (const row of sheet) expect(storedUnder(row.email)).toBe(unanswered.has(row.email) ? 0 : 1);
		// A row whose profile update fell in the outage (the same path, PUT) was partly created: the re-run sends that update.
		const before = new Map(first.outputs.map((output) => [output.email, output.action]));
		const expected = (email: IDataObject[string]) => (unanswered.has(email) ? 'failed' : before.get(email) === 'partly created' ? 'updated' : before.get(email) === 'created' ? 'unchanged' : 'created');
		expect(rerun.outputs.map((output) => output.action)).toEqual(rerun.outputs.map((output) => expected(output.email)));
	}, 90_000);

	it('a run stopped by an error (On Error: Stop Workflow, a row without its e-mail): the next run creates every row never sent, nothing twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(120, 'stoppedByError', '');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 40 });
		const broken = sheet.map((row, index) => (index === 40 ? { ...row, email: '' } : row));
		const stopped = await harness.run({ parameters: upsert({ options: { concurrency: 4 } }), items: broken });
		expect(stopped.error).toBeDefined();
		await delay(2_500);
		sandbox().setFaults({});
		const created = creationsSent(from);
		// The run stopped at row 41 while rows after it were prepared (and so claimed) ahead. The rows before it that were
		// still in flight (at most the concurrency, 4) may not have sent their creation yet: a stopping run sends none.
		expect(created.size).toBeGreaterThanOrEqual(40 - 4);
		expect(created.size).toBeLessThan(sheet.length - 20);
		const rerun = await sync(harness, sheet);
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		// At most the creations in flight when the error stopped the run (its concurrency) are held.
		expect(refused.length).toBeLessThanOrEqual(4);
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist/);
		expect(rerun.actions.filter((action) => action === 'created').length).toBeGreaterThanOrEqual(sheet.length - created.size - 4);
		const held = new Set(refused.map((output) => output.email));
		for (const row of sheet) expect(storedUnder(row.email)).toBe(held.has(row.email) && !created.has(row.email) ? 0 : 1);
	}, 90_000);
});

describe('issue 46: known, unchanged rows are `unchanged` wherever they run', () => {
	it('a queue worker that knows none of the slugs (no static data, another process): unchanged rows are `unchanged`, none refused, nothing sent; a changed row needs its slug', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(20, 'rerunWorker');
		expect((await sync(harness, sheet)).actions).toEqual(Array(20).fill('created'));
		// Another process (a restart, or a queue worker of n8n 2.40+, which starts without static data).
		forgetProcessMemory();
		const worker = await harness.run({ parameters: upsert(), items: sheet, loadStaticData: false, onError: 'continueRegularOutput' });
		expect(worker.items.map((item) => item.json.action)).toEqual(Array(20).fill('unchanged'));
		forgetProcessMemory();
		const changed = await harness.run({ parameters: upsert(), items: [{ ...sheet[0], first: 'Changed' }, ...sheet.slice(1)], loadStaticData: false, onError: 'continueRegularOutput' });
		expect(String(changed.items[0].json.error)).toMatch(/may already exist/);
		expect(changed.items.slice(1).map((item) => item.json.action)).toEqual(Array(19).fill('unchanged'));
		for (const row of sheet) expect(storedUnder(row.email)).toBe(1);
	}, 60_000);

	it('a changed row sent in full: the content it had before no longer counts as sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'contentMoves');
		await sync(harness, [row]);
		await sync(harness, [{ ...row, first: 'Second' }]);
		forgetProcessMemory();
		// A process without the slug: the first content is not the candidate's any more (reverting needs the slug).
		const back = await harness.run({ parameters: upsert(), items: [row], loadStaticData: false, onError: 'continueRegularOutput' });
		expect(String(back.items[0].json.error)).toMatch(/may already exist/);
		forgetProcessMemory();
		const same = await harness.run({ parameters: upsert(), items: [{ ...row, first: 'Second' }], loadStaticData: false, onError: 'continueRegularOutput' });
		expect(same.items[0].json.action).toBe('unchanged');
	}, 60_000);
});

describe("issue 46: a row another execution is reading (its asking mark in n8n's store)", () => {
	type Call = [DeduplicationItemTypes[], DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions];

	/** Creates one row, then forgets the process: returns the row, its journal key and how to reach the node's list in n8n's store. */
	const createdElsewhere = async (harness: Harness, tag: string) => {
		const spy = jest.spyOn(deduplicator, 'checkProcessedAndRecord');
		const [row] = rows(1, tag);
		let calls: Call[] = [];
		try {
			expect((await sync(harness, [row])).actions).toEqual(['created']);
			calls = [...spy.mock.calls] as Call[];
		} finally {
			spy.mockRestore();
		}
		const claim = calls.flatMap(([items]) => items.map(String)).find((value) => value.startsWith('claim:'))!;
		const [, scope, context, options] = calls[0];
		forgetProcessMemory(); // a queue worker that knows none of the slugs
		return {
			row,
			/** Another execution's ask of the row, begun in the given minute: its mark. */
			mark: async (minute: number) => await deduplicator.checkProcessedAndRecord([askingOf(claim.slice('claim:'.length), minute)], scope, context, options),
			unmark: async (minute: number) => await deduplicator.removeProcessed([askingOf(claim.slice('claim:'.length), minute)], scope, context),
			asks: (values: string[]) => values.filter((value) => value.startsWith('asking:')).length,
		};
	};

	const worker = async (harness: Harness, row: IDataObject) => await harness.run({ parameters: upsert(), items: [row], loadStaticData: false, onError: 'continueRegularOutput' });

	it("another execution's mark on the row: refused as busy, asked once (asked again soon, another reader's passing writes could be taken for the row's content); a run two minutes or more after the mark's minute is `unchanged`", async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const { row, mark, unmark, asks } = await createdElsewhere(harness, 'busyStays');
		const minute = minuteAt(Date.now());
		await mark(minute);
		const spy = jest.spyOn(deduplicator, 'checkProcessedAndRecord');
		const busy = await worker(harness, row);
		const seen = spy.mock.calls.flatMap(([items]) => items.map(String));
		spy.mockRestore();
		expect(String(busy.items[0].json.error)).toMatch(/Another execution of this node was deciding this row/);
		expect(String(busy.items[0].json.errorDescription)).toMatch(/Nothing was sent here.*a run two minutes or more later decides it/);
		// One ask, with the marks of this minute and the last.
		expect(asks(seen)).toBe(2);
		// Two minutes later (the mark is of the minute before the last): it no longer counts.
		await unmark(minute);
		await mark(minuteAt(Date.now()) - 2);
		forgetProcessMemory();
		const later = await worker(harness, row);
		expect(later.items.map((item) => item.json.action ?? item.json.error)).toEqual(['unchanged']);
		expect(storedUnder(row.email)).toBe(1);
	}, 60_000);
});

describe('issue 47: a manual run is one story', () => {
	it('Dry Run by hand plans what the run by hand does: `notSent` for new rows, as the run by hand answers', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'handStory');
		const plan = await sync(harness, sheet, { manual: true, extra: { options: { retryDelayMs: 1, dryRun: true } } });
		const real = await sync(harness, sheet, { manual: true });
		expect(plan.actions).toEqual(['notSent', 'notSent', 'notSent']);
		expect(real.actions).toEqual(plan.actions);
		expect(real.writes).toEqual([]);
		// Live, the published workflow creates them.
		expect((await sync(harness, sheet)).actions).toEqual(['created', 'created', 'created']);
	}, 60_000);
});

describe('issue 47: a forget asks before it acts', () => {
	it('Forget Each Input Row and Forget All Rows without Forget Now: nothing is forgotten, the output says what would be', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'askFirst');
		await sync(harness, sheet);
		const each = await sync(harness, sheet, { manual: true, extra: { memoryAction: 'forget' } });
		expect(each.actions).toEqual(['wouldForget', 'wouldForget']);
		expect(String(each.outputs[0].message)).toMatch(/Nothing forgotten \(Forget Now is off\).*the published workflow's too/);
		const all = await sync(harness, sheet, { manual: true, extra: { memoryAction: 'clearAll' } });
		expect(all.actions).toEqual(['wouldClear']);
		expect(all.outputs[0]).toMatchObject({ remembered: 2 });
		const live = await sync(harness, sheet);
		expect(live.actions).toEqual(['unchanged', 'unchanged']);
		expect(live.writes).toEqual([]);
	}, 60_000);
});

describe('issue 46: the preview and the memory actions agree with the real run', () => {
	it('Dry Run after Forget Each Input Row by hand plans `created`, as the live run then does', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'forgotByHand');
		await sync(harness, sheet);
		const forgotten = await sync(harness, sheet.slice(0, 1), { manual: true, extra: { memoryAction: 'forget', confirmForget: true } });
		expect(forgotten.actions).toEqual(['forgotten']);
		// The preview a live execution makes (a dry run by hand plans what a run by hand does: `notSent`).
		const plan = await sync(harness, sheet, { extra: { options: { retryDelayMs: 1, dryRun: true } } });
		const real = await sync(harness, sheet);
		expect(plan.actions).toEqual(['created', 'unchanged']);
		expect(real.actions).toEqual(['created', 'unchanged']);
	}, 60_000);

	it('Adopt Given Slugs over a known row whose records got no answer: they are marked as added (issue 47), the next run is `unchanged` and posts nothing', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(1, 'adoptKnown', 'SQL: 3, Go: 2');
		sandbox().setFaults({ paths: [`${CANDIDATE}/it-skill`], errorRate: 1, seed: 3 });
		const first = await sync(harness, sheet);
		sandbox().setFaults({});
		expect(first.actions).toEqual(['partly created']);
		expect(first.outputs[0].summary).toMatchObject({ failed: 2 });
		const slug = first.outputs[0].slug as string;
		const adopted = await sync(harness, [{ ...sheet[0], slug }], { extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		expect(adopted.actions).toEqual(['adopted']);
		const next = await sync(harness, sheet);
		expect(String(first.outputs[0].message)).toMatch(/Adopt Given Slugs/);
		expect(String(adopted.outputs[0].message)).toMatch(/2 records of unknown outcome marked as added/);
		expect(next.actions).toEqual(['unchanged']);
		expect(next.outputs[0].summary).toMatchObject({ unchanged: 2 });
		expect(next.writes).toEqual([]);
	}, 60_000);

	it('Adopt Given Slugs over a known row whose record the service refused: that record is not marked, the next run sends it', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'adoptRefused', 'SQL: 3');
		const first = await sync(harness, [row]);
		const slug = first.outputs[0].slug as string;
		// A record the row lists that never reached the service (not known as sent, nor of unknown outcome).
		const withMore = { ...row, skills: 'SQL: 3, Go: 2', slug };
		await sync(harness, [withMore], { extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		const next = await sync(harness, [withMore]);
		expect(next.actions).toEqual(['updated']);
		expect(next.writes).toEqual([`POST ${CANDIDATE}/it-skill`]);
	}, 60_000);

	it('Adopt Given Slugs of rows created by another workflow: records taken as added, the profile sent once by the next run (its content is not known to this node), nothing created or posted twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 'adoptFresh');
		const other = new Harness(emailCredential(sandbox(), ALICE));
		const created = await sync(other, sheet);
		const withSlugs = sheet.map((row, index) => ({ ...row, slug: created.outputs[index].slug }));
		const adopted = await sync(harness, withSlugs, { extra: { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' } });
		expect(String(adopted.outputs[0].message)).toMatch(/its profile sent by the next run/);
		const next = await sync(harness, sheet);
		expect(next.actions).toEqual(['updated', 'updated', 'updated']);
		expect(next.writes).toEqual(Array(3).fill(`PUT ${CANDIDATE}`));
		expect((await sync(harness, sheet)).actions).toEqual(['unchanged', 'unchanged', 'unchanged']);
	}, 60_000);
});
