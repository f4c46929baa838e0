/**
 * An independent review of Candidate → Create or Update under interruptions in one n8n instance:
 * Stop Execution at different moments (logging in, a creation in flight, records in flight),
 * service faults on creations and records, the way out each refusal names, overlapping
 * executions, a manual run beside a production run, and restarts. Each test asserts what the
 * sandbox stored (candidates per e-mail, records per candidate) and what the outputs say.
 *
 * A restart after a stopped execution: n8n 2.41.1 does not save the static data of a cancelled
 * execution (n8n-core workflow-execute: on cancel `workflowExecuteAfter` runs with the run data
 * only, and `processSuccessExecution` runs it again only `if (!this.isCancelled)`; the server's
 * hook saves `newStaticData` only when it is given). The harness saves it all the same, so the
 * tests that restart after a stop put back the copy saved before the stopped execution
 * (`keepingStaticData`), as n8n keeps it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { creationEmails, syncRun, until } from '../helpers/upsert';
import type { SyncRun } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const IT_SKILL = `${CANDIDATE}/it-skill`;
const LANGUAGE = `${CANDIDATE}/language`;

const rows = (count: number, tag: string, skills = 'SQL: 3, Go: 2'): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills }));

const sync = async (harness: Harness, items: IDataObject[], options: SyncRun = {}) => await syncRun(sandbox(), harness, items, options);

/** An output's `error` ('' when everything went through, or when the output leaves it out). */
const errorOf = (output: IDataObject | undefined): string => String(output?.error ?? '');

/** An output's action and error, to compare. */
const outcome = (output: IDataObject | undefined) => ({ action: output?.action, error: errorOf(output) });

/** The candidates the sandbox stores under an e-mail. */
const storedOf = (email: unknown) => sandbox().candidates(1).filter((candidate) => candidate.email === email);

/** The IT skills of the one candidate stored under an e-mail, sorted ("SQL:3"). */
const skillsOf = (email: unknown): string[] =>
	storedOf(email)
		.flatMap((candidate) => candidate.records.itSkills.map((skill) => `${skill.skill_name}:${skill.skill_level_id}`))
		.sort();

const creationsSince = (from: number) => creationEmails(sandbox(), from);

/** Requests on `path` (POST) that arrived since `from`. */
const postsSince = (from: number, path: string) => sandbox().requests.slice(from).filter((request) => request.method === 'POST' && request.path === path);

/** Waits until `ready()` or `ms` passed. */

/**
 * Runs an execution that is cancelled (Stop Execution) once `when()` holds, and keeps the static
 * data as n8n keeps it for a cancelled execution (not saved): see the file's comment.
 */
async function stopped(harness: Harness, items: IDataObject[], when: () => boolean, options: SyncRun = {}) {
	const saved = JSON.parse(JSON.stringify(harness.staticData)) as IDataObject;
	let cancelledAt = -1;
	const result = await sync(harness, items, {
		...options,
		onStart: (execution) =>
			void until(when).then(() => {
				cancelledAt = sandbox().requests.length;
				execution.cancel();
			}),
	});
	harness.staticData = saved;
	return { ...result, cancelledAt };
}

const adopt = (extra: INodeParameters = {}): INodeParameters => ({ memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}', ...extra });
const forgetNow: INodeParameters = { memoryAction: 'forget', confirmForget: true };
const fixed = (concurrency: number, more: IDataObject = {}): INodeParameters => ({ options: { retryDelayMs: 1, concurrency, ...more } });

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

describe('Stop Execution at different moments, then a re-run', () => {
	it('stopped while logging in (the login hangs): the re-run creates every row, none refused, each once with its records once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(12, 'stopLogin');
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 8_000, hangPaths: ['/v1/login'] });
		const first = await stopped(harness, sheet, () => sandbox().requests.slice(from).some((request) => request.path === '/v1/login'), { extra: fixed(3) });
		sandbox().setFaults({});
		expect(first.result.error).toBeDefined();
		// No creation reached the service: the login never answered before the stop.
		expect(creationsSince(from)).toEqual([]);
		expect(String(first.result.error?.description ?? '')).not.toMatch(/Creations under way when it stopped/);
		const rerun = await sync(harness, sheet);
		expect(rerun.actions).toEqual(Array(12).fill('created'));
		for (const row of sheet) {
			expect(storedOf(row.email)).toHaveLength(1);
			expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		}
	}, 60_000);

	it('stopped in the middle of a run and re-run at once (before the stopped execution ended): every row never sent is created, only creations in flight are held, nothing twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(60, 'stopAtOnce', 'SQL: 3');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 40 });
		let cancelled = false;
		const first = sync(harness, sheet, {
			extra: fixed(4),
			onStart: (execution) =>
				void until(() => creationsSince(from).length >= 10).then(() => {
					cancelled = true;
					execution.cancel();
				}),
		});
		await until(() => cancelled);
		// The person clicks Stop and runs the workflow again right away, while the stopped execution ends.
		const rerun = await sync(harness, sheet);
		await first;
		sandbox().setFaults({});
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		// A creation in flight at the stop is held ("may already exist"); a record's post in flight then is held as of unknown outcome.
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist|got no answer: it may have been added/);
		// Only creations in flight at the stop (at most the run's concurrency) may be held.
		expect(refused.length).toBeLessThanOrEqual(4);
		// A held row was sent (its creation may or may not be stored); every other row is stored exactly once.
		const held = new Set(refused.map((output) => output.email));
		for (const row of sheet) expect(storedOf(row.email).length).toBe(held.has(row.email) ? Math.min(storedOf(row.email).length, 1) : 1);
	}, 60_000);

	it('stopped while a creation is in flight and the service stored it: the re-run refuses exactly that row ("may already exist"), creates the others once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(4, 'stopInFlightStored');
		const from = sandbox().requests.length;
		// Every request on the candidate paths is held 6 s after the service did its work (the creation is stored).
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [CANDIDATE], hangAfterWork: true });
		await stopped(harness, sheet, () => creationsSince(from).length >= 1, { extra: fixed(3) });
		sandbox().setFaults({});
		const inFlight = new Set(creationsSince(from));
		expect(inFlight.size).toBeGreaterThanOrEqual(1);
		const rerun = await sync(harness, sheet);
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		expect(new Set(refused.map((output) => output.email))).toEqual(inFlight);
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist/);
		for (const row of sheet) expect(storedOf(row.email)).toHaveLength(1);
		for (const row of sheet.filter((candidate) => !inFlight.has(String(candidate.email)))) expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);

	it('a creation in flight at the stop and stored by the service: the way out the refusal names (Adopt Given Slugs with its slug; its records of unknown outcome, then sent by Send Unknown-Outcome Records Again) ends with the candidate once and all its records once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'stopAdopt');
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [CANDIDATE], hangAfterWork: true });
		await stopped(harness, sheet, () => creationsSince(from).length >= 1, { extra: fixed(3) });
		sandbox().setFaults({});
		const [held] = creationsSince(from);
		const index = sheet.findIndex((row) => row.email === held);
		const rerun = await sync(harness, sheet);
		expect(rerun.outputs[index]).toMatchObject({ action: 'failed' });
		expect(String(rerun.outputs[index].errorDescription)).toMatch(/Adopt Given Slugs/);
		// The person looks the candidate up in the service and gives the row its slug.
		const adopted = await sync(harness, [{ ...sheet[index], slug: storedOf(held)[0].slug }], { extra: adopt() });
		expect(adopted.actions).toEqual(['adopted']);
		// The node cannot know whether the adopted candidate holds the records (its own creation got no answer; the candidate may
		// come from elsewhere): they are of unknown outcome, listed, and sent by the way out that says its risk.
		expect(String(adopted.outputs[0].message)).toMatch(/2 records of unknown outcome/);
		const next = await sync(harness, sheet);
		expect(String(next.outputs[index].action)).toMatch(/^(failed|partly updated)$/);
		expect(next.outputs[index].outcomeUnknown).toHaveLength(2);
		expect(skillsOf(held)).toEqual([]);
		const resent = await sync(harness, sheet, { extra: fixed(3, { resendUnknownRecords: true }) });
		expect(resent.outputs.map(errorOf)).toEqual(['', '']);
		const last = await sync(harness, sheet);
		expect(last.actions).toEqual(['unchanged', 'unchanged']);
		for (const row of sheet) {
			expect(storedOf(row.email)).toHaveLength(1);
			// The stopped run never got the held row's slug, so it never posted its records: they must still be sent.
			expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		}
	}, 60_000);

	it('a creation in flight at the stop that the service never processed: the way out (Forget Each Input Row, Forget Now) then Sync Rows creates it once with its records once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'stopForget');
		const from = sandbox().requests.length;
		// Held before the work: a request the client leaves is never processed.
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [CANDIDATE] });
		await stopped(harness, sheet, () => sandbox().requests.slice(from).some((request) => request.method === 'POST' && request.path === CANDIDATE), { extra: fixed(3) });
		sandbox().setFaults({});
		for (const row of sheet) expect(storedOf(row.email)).toHaveLength(0);
		const rerun = await sync(harness, sheet);
		const refused = rerun.outputs.filter((output) => output.action === 'failed');
		expect(refused).toHaveLength(1);
		expect(String(refused[0].error)).toMatch(/may already exist/);
		expect(String(refused[0].errorDescription)).toMatch(/Forget Each Input Row with Forget Now/);
		const gone = sheet.filter((row) => row.email === refused[0].email);
		const forgotten = await sync(harness, gone, { extra: forgetNow });
		expect(forgotten.actions).toEqual(['forgotten']);
		const next = await sync(harness, sheet);
		expect(outcome(next.outputs.find((output) => output.email === refused[0].email))).toEqual({ action: 'created', error: '' });
		for (const row of sheet) {
			expect(storedOf(row.email)).toHaveLength(1);
			expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		}
	}, 60_000);

	it('stopped while a record is in flight (not processed): the re-run sends the records never sent, holds the one in flight; Send Unknown-Outcome Records Again adds it once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'stopRecord', 'SQL: 3, Go: 2, Rust: 1');
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [IT_SKILL] });
		const first = await stopped(harness, [row], () => postsSince(from, IT_SKILL).length >= 1, { extra: fixed(1) });
		sandbox().setFaults({});
		expect(first.result.error).toBeDefined();
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual([]);
		const rerun = await sync(harness, [row]);
		// SQL was in flight (its outcome unknown); Go and Rust were never sent.
		expect(rerun.outputs[0].outcomeUnknown).toEqual([expect.stringMatching(/SQL/)]);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'Rust:1']);
		const resent = await sync(harness, [row], { extra: fixed(1, { resendUnknownRecords: true }) });
		expect(errorOf(resent.outputs[0])).toBe('');
		const last = await sync(harness, [row]);
		expect(last.actions).toEqual(['unchanged']);
		expect(last.writes).toEqual([]);
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'Rust:1', 'SQL:3']);
	}, 60_000);

	it('stopped while a record is in flight and the service stored it: Adopt Given Slugs (the way out) marks it added; every record once, the next run unchanged', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'stopRecordStored', 'SQL: 3, Go: 2');
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [IT_SKILL], hangAfterWork: true });
		await stopped(harness, [row], () => postsSince(from, IT_SKILL).length >= 1, { extra: fixed(1) });
		sandbox().setFaults({});
		expect(skillsOf(row.email)).toEqual(['SQL:3']);
		const rerun = await sync(harness, [row]);
		expect(String(rerun.outputs[0].error)).toMatch(/Adopt Given Slugs/);
		const slug = storedOf(row.email)[0].slug;
		const adopted = await sync(harness, [{ ...row, slug }], { extra: adopt() });
		expect(adopted.actions).toEqual(['adopted']);
		const last = await sync(harness, [row]);
		expect(last.actions).toEqual(['unchanged']);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);
});

describe('a stop, then n8n restarts (the static data as n8n keeps it for a cancelled execution)', () => {
	it('rows the stopped execution created in full, then n8n restarts: unchanged ones are `unchanged`, a changed one is updated or refused with a way out that works (Adopt with the slug the stopped execution\'s error lists)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(6, 'stopRestart', 'SQL: 3');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 150 });
		// One row at a time: stopped when the third row's creation arrives (rows 1 and 2 went through in full).
		const first = await stopped(harness, sheet, () => creationsSince(from).length >= 3, { extra: fixed(1) });
		sandbox().setFaults({});
		expect(creationsSince(from).slice(0, 2)).toEqual([sheet[0].email, sheet[1].email]);
		forgetProcessMemory(); // n8n restarts
		const changed = [{ ...sheet[0], first: 'Changed' }, ...sheet.slice(1)];
		const rerun = await sync(harness, changed);
		// Row 3's creation was in flight at the stop: held ("may already exist"), stored at most once.
		expect(storedOf(sheet[2].email).length).toBeLessThanOrEqual(1);
		if (rerun.actions[2] === 'failed') expect(String(rerun.outputs[2].error)).toMatch(/may already exist/);
		for (const row of [sheet[0], sheet[1], ...sheet.slice(3)]) expect(storedOf(row.email)).toHaveLength(1);
		expect(outcome(rerun.outputs[1])).toEqual({ action: 'unchanged', error: '' });
		expect(rerun.actions.slice(3)).toEqual(['created', 'created', 'created']);
		if (rerun.actions[0] === 'failed') {
			expect(String(rerun.outputs[0].error)).toMatch(/may already exist/);
			// The stopped execution's error lists the slugs it created (item index: slug).
			const listed = new RegExp(`item 0: ([0-9a-f-]{36})`).exec(String(first.result.error?.description ?? ''));
			expect(listed?.[1]).toBe(storedOf(sheet[0].email)[0].slug);
			await sync(harness, [{ ...changed[0], slug: listed?.[1] }], { extra: adopt() });
			const after = await sync(harness, changed);
			expect(outcome(after.outputs[0])).toEqual({ action: 'updated', error: '' });
		}
		expect(storedOf(sheet[0].email)[0].first_name).toBe('Changed');
		expect(skillsOf(sheet[0].email)).toEqual(['SQL:3']);
		expect(skillsOf(sheet[1].email)).toEqual(['SQL:3']);
	}, 60_000);

	it('a row stopped between its records, n8n restarted: Adopt Given Slugs takes its records as added and says so (the documented trade-off: the node cannot know which went out), nothing is posted twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'stopBetween', 'SQL: 3, Go: 2, Rust: 1');
		const from = sandbox().requests.length;
		sandbox().setFaults({ hangMs: 6_000, hangPaths: [IT_SKILL], hangAfterWork: true });
		await stopped(harness, [row], () => postsSince(from, IT_SKILL).length >= 1, { extra: fixed(1) });
		sandbox().setFaults({});
		expect(skillsOf(row.email)).toEqual(['SQL:3']);
		forgetProcessMemory(); // n8n restarts
		const rerun = await sync(harness, [row]);
		// Without its slug the row is refused; the message names Adopt Given Slugs.
		expect(rerun.actions).toEqual(['failed']);
		expect(String(rerun.outputs[0].errorDescription ?? rerun.outputs[0].error)).toMatch(/Adopt Given Slugs/);
		const slug = storedOf(row.email)[0].slug;
		// docs/create-or-update.md: for a row the node did not know, "its records are taken as added" (posting them again could add them twice).
		const adopted = await sync(harness, [{ ...row, slug }], { extra: adopt() });
		expect(String(adopted.outputs[0].message)).toMatch(/3 records of the row taken as added/);
		await sync(harness, [row]);
		await sync(harness, [row]);
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual(['SQL:3']);
	}, 60_000);
});

describe('stopped during the end of the run', () => {
	it('every row went through, then Stop while the execution ends: the re-run is `unchanged` and sends nothing; after a restart too', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(5, 'stopAtEnd', 'SQL: 3');
		const from = sandbox().requests.length;
		const answered = () => postsSince(from, IT_SKILL).filter((request) => request.status >= 200 && request.status < 300).length >= 5;
		// The service has answered when the sandbox logs it, the node a moment later: the stop comes 300 ms after, inside the end's
		// wait of at least 1 s. Stopped at once, a record's answer could still be on its way (held: "failed", as a stop mid-run; a
		// full npm test under load met it once).
		let answeredAt: number | undefined;
		const ending = () => (answeredAt ??= answered() ? Date.now() : undefined) !== undefined && Date.now() - answeredAt >= 300;
		await stopped(harness, sheet, ending, { extra: fixed(5) });
		expect(creationsSince(from)).toHaveLength(5);
		const rerun = await sync(harness, sheet);
		expect(rerun.actions).toEqual(Array(5).fill('unchanged'));
		expect(rerun.writes).toEqual([]);
		forgetProcessMemory(); // n8n restarts (the stopped execution's static data was not saved)
		const later = await sync(harness, sheet);
		expect(later.actions).toEqual(Array(5).fill('unchanged'));
		expect(later.writes).toEqual([]);
		for (const row of sheet) {
			expect(storedOf(row.email)).toHaveLength(1);
			expect(skillsOf(row.email)).toEqual(['SQL:3']);
		}
	}, 60_000);
});

describe('service faults on a creation, then the way out its message names', () => {
	it('a creation answered 503 before any work (not stored): refused "may already exist"; Forget Each Input Row (Forget Now) then Sync Rows creates it once with its records', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'create503');
		sandbox().setFaults({ paths: [CANDIDATE], unavailableRate: 1 });
		const first = await sync(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'failed' });
		expect(storedOf(row.email)).toHaveLength(0);
		const again = await sync(harness, [row]);
		expect(String(again.outputs[0].error)).toMatch(/may already exist/);
		expect(again.writes).toEqual([]);
		expect((await sync(harness, [row], { extra: forgetNow })).actions).toEqual(['forgotten']);
		const next = await sync(harness, [row]);
		expect(outcome(next.outputs[0])).toEqual({ action: 'created', error: '' });
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		expect((await sync(harness, [row])).writes).toEqual([]);
	}, 60_000);

	it('a creation stored by the service but answered 502: the way out (Adopt Given Slugs with its slug, then Send Unknown-Outcome Records Again) ends with the candidate once and all its records once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'create502');
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [502] });
		const first = await sync(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'failed' });
		expect(storedOf(row.email)).toHaveLength(1);
		const again = await sync(harness, [row]);
		expect(String(again.outputs[0].errorDescription)).toMatch(/Adopt Given Slugs/);
		const adopted = await sync(harness, [{ ...row, slug: storedOf(row.email)[0].slug }], { extra: adopt() });
		expect(adopted.actions).toEqual(['adopted']);
		expect((await sync(harness, [row])).outputs[0].outcomeUnknown).toHaveLength(2);
		await sync(harness, [row], { extra: fixed(1, { resendUnknownRecords: true }) });
		const last = await sync(harness, [row]);
		expect(last.actions).toEqual(['unchanged']);
		expect(storedOf(row.email)).toHaveLength(1);
		// The creation got no slug back, so no record of the row was ever posted.
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);

	it('a creation that timed out (stored, answered after the Request Timeout): held, never created twice, and its message says it may exist', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'createTimeout', 'SQL: 3');
		sandbox().setFaults({ hangMs: 3_000, hangPaths: [CANDIDATE], hangAfterWork: true });
		const first = await sync(harness, sheet.slice(0, 1), { extra: fixed(2, { timeout: 1_000 }) });
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'failed' });
		expect(String(first.outputs[0].error)).toMatch(/may|unknown|not know/i);
		const again = await sync(harness, sheet);
		expect(again.outputs[0]).toMatchObject({ action: 'failed' });
		expect(String(again.outputs[0].error)).toMatch(/may already exist/);
		expect(outcome(again.outputs[1])).toEqual({ action: 'created', error: '' });
		forgetProcessMemory(); // and after a restart
		const later = await sync(harness, sheet);
		expect(String(later.outputs[0].error)).toMatch(/may already exist/);
		expect(later.outputs[1]).toMatchObject({ action: 'unchanged' });
		for (const row of sheet) expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);

	it('a creation answered 429 (not processed): sent again in the same run, created once with its records, nothing held', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'create429');
		sandbox().setFaults({ paths: [CANDIDATE], rateLimitRate: 1, retryAfterSeconds: 1 });
		const running = sync(harness, [row]);
		await sleep(1_800);
		sandbox().setFaults({});
		const first = await running;
		expect(outcome(first.outputs[0])).toEqual({ action: 'created', error: '' });
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
	}, 60_000);
});

describe('Stop while a record waits for a new session', () => {
	it('a record refused 401 (session ended, not processed), stopped while the node logs in again: the re-run posts it, it is not held as of unknown outcome', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		// A first run logs in and keeps the session in the credential.
		await sync(harness, rows(1, 'sessionWarm', 'SQL: 3'));
		const [row] = rows(1, 'stopRelogin', 'SQL: 3');
		const from = sandbox().requests.length;
		sandbox().setFaults({ paths: [IT_SKILL, '/v1/login'], unauthorizedRate: 1, hangMs: 8_000, hangPaths: ['/v1/login'] });
		await stopped(harness, [row], () => sandbox().requests.slice(from).some((request) => request.path === '/v1/login'), { extra: fixed(1) });
		sandbox().setFaults({});
		// The skill's only post was answered 401 before any work: the service never stored it.
		expect(postsSince(from, IT_SKILL).length).toBeGreaterThan(0);
		expect(postsSince(from, IT_SKILL).every((request) => request.status === 401)).toBe(true);
		expect(skillsOf(row.email)).toEqual([]);
		const rerun = await sync(harness, [row]);
		expect(rerun.outputs[0].outcomeUnknown).toBeUndefined();
		expect(errorOf(rerun.outputs[0])).toBe('');
		expect(storedOf(row.email)).toHaveLength(1);
		expect(skillsOf(row.email)).toEqual(['SQL:3']);
	}, 60_000);
});

describe('Stop while a creation waits out a rate limit', () => {
	it('a creation answered 429 (not processed), stopped during its Retry-After wait: the re-run creates it (it never reached the service), not "may already exist"', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(2, 'stopIn429', 'SQL: 3');
		const from = sandbox().requests.length;
		sandbox().setFaults({ paths: [CANDIDATE], rateLimitRate: 1, retryAfterSeconds: 10 });
		// Stopped half a second after the 429 came back (the answer has been read: the node is in its wait).
		const first = await stopped(harness, sheet, () => postsSince(from, CANDIDATE).some((request) => request.status === 429 && request.at < Date.now() - 500), { extra: fixed(2) });
		sandbox().setFaults({});
		expect(first.result.error).toBeDefined();
		// Every creation the stopped run sent was answered 429: none was processed.
		expect(postsSince(from, CANDIDATE).length).toBeGreaterThan(0);
		expect(postsSince(from, CANDIDATE).every((request) => request.status === 429)).toBe(true);
		expect(String(first.result.error?.description ?? '')).not.toMatch(/Creations under way when it stopped/);
		const rerun = await sync(harness, sheet);
		expect(rerun.outputs.map((output) => [output.action, errorOf(output)])).toEqual([
			['created', ''],
			['created', ''],
		]);
		for (const row of sheet) expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);
});

describe('records: a failed record, then the way out', () => {
	it('a record answered 500 before any work (not stored): held as outcomeUnknown; Send Unknown-Outcome Records Again adds it once; with the option off again nothing is sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const [row] = rows(1, 'record500');
		sandbox().setFaults({ paths: [IT_SKILL], errorRate: 1, seed: 1 });
		const first = await sync(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0]).toMatchObject({ action: 'partly created' });
		expect(skillsOf(row.email)).toEqual([]);
		const held = await sync(harness, [row]);
		expect(held.writes).toEqual([]);
		expect(held.outputs[0].outcomeUnknown).toHaveLength(2);
		expect(String(held.outputs[0].message)).toMatch(/Send Unknown-Outcome Records Again/);
		const resent = await sync(harness, [row], { extra: fixed(1, { resendUnknownRecords: true }) });
		expect(outcome(resent.outputs[0])).toEqual({ action: 'updated', error: '' });
		const last = await sync(harness, [row]);
		expect(last.actions).toEqual(['unchanged']);
		expect(last.writes).toEqual([]);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);

	it('a record that failed (a language name that matches nothing), fixed in the row: only that record is sent, the others not again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row: IDataObject = { ...rows(1, 'recordFixed')[0], languages: 'Klingon: 3, German: 2' };
		const withLanguages: INodeParameters = { languageList: '={{ $json.languages }}' };
		const first = await sync(harness, [row], { extra: withLanguages });
		expect(first.outputs[0]).toMatchObject({ action: 'partly created' });
		const fixedRow = { ...row, languages: 'English: 3, German: 2' };
		const second = await sync(harness, [fixedRow], { extra: withLanguages });
		expect(second.writes).toEqual([`POST ${LANGUAGE}`]);
		expect(outcome(second.outputs[0])).toEqual({ action: 'updated', error: '' });
		const languages = storedOf(row.email)[0].records.languages.map((language) => `${language.language_id}:${language.language_level_id}`).sort();
		expect(languages).toEqual(['23:2', '26:3']);
		expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		expect((await sync(harness, [fixedRow], { extra: withLanguages })).writes).toEqual([]);
	}, 60_000);
});

describe('overlapping executions and a manual run in one n8n process', () => {
	it('two executions with partly overlapping rows, started 300 ms apart: each row created once, none refused, every record once; a re-run sends nothing', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const all = rows(40, 'overlapPart');
		sandbox().setFaults({ latencyMs: 20 });
		const a = sync(harness, all.slice(0, 25));
		await sleep(300);
		const b = sync(harness, all.slice(15));
		const [ra, rb] = await Promise.all([a, b]);
		sandbox().setFaults({});
		expect([...ra.outputs, ...rb.outputs].filter((output) => errorOf(output) !== '').map(errorOf)).toEqual([]);
		for (const row of all) {
			expect(storedOf(row.email)).toHaveLength(1);
			expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		}
		const again = await sync(harness, all);
		expect(again.writes).toEqual([]);
		expect(again.actions).toEqual(Array(40).fill('unchanged'));
	}, 60_000);

	it('a manual run over the same new rows while a production run creates them: nothing created by hand, nothing refused in production, each row once', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(20, 'manualBeside');
		sandbox().setFaults({ latencyMs: 30 });
		const production = sync(harness, sheet);
		await sleep(400);
		const manual = await sync(harness, sheet, { manual: true });
		const live = await production;
		sandbox().setFaults({});
		expect(live.outputs.filter((output) => output.action !== 'created').map((output) => String(output.error))).toEqual([]);
		expect(manual.outputs.every((output) => ['notSent', 'unchanged', 'updated'].includes(String(output.action)))).toBe(true);
		for (const row of sheet) {
			expect(storedOf(row.email)).toHaveLength(1);
			expect(skillsOf(row.email)).toEqual(['Go:2', 'SQL:3']);
		}
		const again = await sync(harness, sheet);
		expect(again.writes).toEqual([]);
	}, 60_000);

	it('one of two overlapping executions over the same rows is stopped: the other creates every row the stopped one never sent, nothing twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(40, 'overlapStop', 'SQL: 3');
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 40 });
		const a = sync(harness, sheet, { extra: fixed(4), onStart: (execution) => void until(() => creationsSince(from).length >= 6).then(() => execution.cancel()) });
		await sleep(200);
		const b = sync(harness, sheet, { extra: fixed(4) });
		const [, rb] = await Promise.all([a, b]);
		sandbox().setFaults({});
		const refused = rb.outputs.filter((output) => output.action === 'failed');
		for (const output of refused) expect(String(output.error)).toMatch(/may already exist/);
		// Only the stopped execution's creations in flight at the stop may be held.
		expect(refused.length).toBeLessThanOrEqual(4);
		const held = new Set(refused.map((output) => output.email));
		for (const row of sheet) expect(storedOf(row.email).length).toBe(held.has(row.email) ? Math.min(storedOf(row.email).length, 1) : 1);
	}, 60_000);
});
