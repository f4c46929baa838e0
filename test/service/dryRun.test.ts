/**
 * Candidate → Create or Update with Dry Run (issue 33) against the sandbox over real HTTP, through
 * n8n's engine: the dry run sends only reads for created, updated, unchanged and refused rows (the
 * sandbox's log), its planned writes are the ones the real run then sends, it remembers nothing
 * (static data, n8n's deduplication store, the process's memory: the real run after it does what
 * it would have done without it), and every output item is paired with its row.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ALSO_KNOWN, NEW_SLUG, NOT_CHECKED } from '../../nodes/Recruiting/actions/candidate/upsert/dryRun';
import { accountScope } from '../../nodes/Recruiting/memory/keys';
import { forgetProcessMemory, peekSharedMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness, deduplicator } from '../helpers/harness';
import type { Logged } from '../helpers/sandbox';
import { ALICE, emailCredential, loggedSince, useSandbox } from '../helpers/sandbox';
import { upsertParameters } from '../helpers/upsert';

/** A row refused before anything was planned (its error item: `action: failed` without a slug), else its action. */
const labelOf = (json: IDataObject) => (json.action === 'failed' && json.slug === undefined ? 'refused' : json.action);

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const parameters = (extra: INodeParameters = {}): INodeParameters =>
	upsertParameters(
		{ languageList: '={{ $json.languages }}', ...extra, options: { retryDelayMs: 1, concurrency: 5, ...(extra.options as IDataObject | undefined) } },
		{ firstName: '={{ $json.first }}', city: '={{ $json.city }}', birthday: '={{ $json.birthday }}' },
	);
const DRY = { options: { dryRun: true } };


async function run(harness: Harness, items: IDataObject[], extra: INodeParameters = {}, manual = false) {
	const from = sandbox().requests.length;
	const writesBefore = deduplicator.writes;
	const staticBefore = JSON.stringify(harness.staticData);
	const result = await harness.run({ parameters: parameters(extra), items, manual, onError: 'continueRegularOutput' });
	return {
		result,
		outputs: result.items.map((item) => item.json),
		logged: loggedSince(sandbox(), from),
		journalWrites: deduplicator.writes - writesBefore,
		staticChanged: JSON.stringify(harness.staticData) !== staticBefore,
	};
}

const asText = (request: Logged) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`;

/** The writes an output item planned, its new candidate's placeholder replaced by the slug the real run got. */
const plannedWrites = (planned: IDataObject, slug: unknown) =>
	(planned.requests as Logged[]).map((request) =>
		asText({ ...request, body: request.body.user_slug === NEW_SLUG ? { ...request.body, user_slug: slug as string } : request.body }),
	);

describe('candidate.upsert with Dry Run', () => {
	const harness = new Harness();
	const known = [
		{ email: 'dry.same@example.test', first: 'Ada', city: 'Berlin', skills: 'SQL: 3' },
		{ email: 'dry.moved@example.test', first: 'Bob', city: 'Berlin', skills: 'SQL: 3' },
		{ email: 'dry.skilled@example.test', first: 'Cy', city: 'Berlin', skills: 'SQL: 3' },
	];
	// Unchanged, updated (city), updated (one more skill), created (a language by its name), refused (a birthday that does not exist), the created row again.
	const sheet: IDataObject[] = [
		known[0],
		{ ...known[1], city: 'Hamburg' },
		{ ...known[2], skills: 'SQL: 3, Go: 2' },
		{ email: 'dry.new@example.test', first: 'Dee', city: 'Köln', skills: 'Rust: 4', languages: 'English: 4' },
		{ email: 'dry.refused@example.test', first: 'Eve', city: 'Bonn', birthday: '31.02.1990' },
		{ email: ' DRY.NEW@example.test ', first: 'Dee', city: 'Köln', skills: 'Rust: 4', languages: 'Englisch: 4' },
	];
	let dry: Awaited<ReturnType<typeof run>>;

	beforeAll(async () => {
		harness.setCredential(emailCredential(sandbox(), ALICE));
		const first = await run(harness, known);
		expect(first.outputs.map((json) => json.action)).toEqual(['created', 'created', 'created']);
		dry = await run(harness, sheet, DRY);
	}, 60_000);

	it('decides every row as a real run: each output item is a plan (dryRun: true, the action a real run takes), paired with its row', () => {
		expect(dry.outputs.map((json) => [json.dryRun, labelOf(json)])).toEqual([
			[true, 'unchanged'],
			[true, 'updated'],
			[true, 'updated'],
			[true, 'created'],
			[true, 'refused'],
			[true, 'unchanged'],
		]);
		expect(dry.result.items.map((item) => item.pairedItem)).toEqual(sheet.map((_, item) => ({ item })));
		expect(String(dry.outputs[4].error)).toMatch(/Birthday/);
		expect(dry.outputs[3]).toMatchObject({ slug: NEW_SLUG, created: true, notChecked: NOT_CHECKED });
		expect(dry.outputs[3].message).toMatch(/^Dry run: nothing was sent or remembered\. A real run: Created candidate \(new\)/);
		expect(dry.outputs.every((json) => json.syncState === undefined)).toBe(true);
	});

	it('sends no write: the sandbox received only reads (the language list, to resolve "English")', () => {
		expect(dry.logged.map((request) => request.method)).not.toHaveLength(0);
		expect(dry.logged.filter((request) => request.method !== 'GET')).toEqual([]);
	});

	it('lists the writes a real run sends: the unchanged rows none, the others method, path and body with names resolved to IDs', () => {
		const [same, moved, skilled, created, refused, again] = dry.outputs;
		expect(same.requests).toEqual([]);
		expect(again.requests).toEqual([]);
		expect(refused.requests).toEqual([]);
		expect(moved.requests).toEqual([{ method: 'PUT', path: CANDIDATE, body: { user_slug: moved.slug, email: known[1].email, first_name: 'Bob', city: 'Hamburg' } }]);
		expect(skilled.requests).toEqual([{ method: 'POST', path: `${CANDIDATE}/it-skill`, body: { skill_name: 'Go', skill_level_id: 2, user_slug: skilled.slug } }]);
		const writes = (created.requests as Logged[]).map((request) => `${request.method} ${request.path}`);
		expect(writes).toEqual([`POST ${CANDIDATE}`, `PUT ${CANDIDATE}`, `POST ${CANDIDATE}/it-skill`, `POST ${CANDIDATE}/language`]);
		const language = (created.requests as Logged[])[3].body;
		expect(typeof language.language_id).toBe('number');
		expect(language.user_slug).toBe(NEW_SLUG);
	});

	it('remembers nothing: no static data saved, no claim in n8n\'s deduplication store', () => {
		expect(dry.result.staticDataSaved).toBe(false);
		expect(dry.staticChanged).toBe(false);
		expect(dry.journalWrites).toBe(0);
	});

	it('the real run after it sends exactly the planned writes and decides the same for every row', async () => {
		const real = await run(harness, sheet);
		expect(real.outputs.map((json) => labelOf(json))).toEqual(dry.outputs.map((json) => labelOf(json)));
		const slugOf = (index: number) => (dry.outputs[index].slug === NEW_SLUG ? real.outputs[index].slug : dry.outputs[index].slug);
		const planned = dry.outputs.flatMap((json, index) => plannedWrites(json, slugOf(index)));
		const sent = real.logged.filter((request) => request.method !== 'GET').map(asText);
		expect([...sent].sort()).toEqual([...planned].sort());
		// Once more, dry: everything is known now, nothing to send.
		const after = await run(harness, sheet, DRY);
		expect(after.outputs.map((json) => labelOf(json))).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'refused', 'unchanged']);
		expect(after.logged.filter((request) => request.method !== 'GET')).toEqual([]);
	}, 60_000);
});

describe('candidate.upsert with Dry Run: what it cannot know', () => {
	it('a row a real run refuses as "may already exist" (an unsaved manual run claimed it): planned as a creation it could not check; the real run still refuses it', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'dry.claimed@example.test', first: 'Fay', city: 'Berlin', skills: 'SQL: 3' };
		const manual = await run(harness, [row], { options: { createInManualRuns: true } }, true);
		expect(manual.outputs[0].action).toBe('created');
		// n8n restarted: the process forgot; the manual run's memory was never saved; only the claim remains.
		forgetProcessMemory();
		// Changed since (unchanged, the row is known anywhere: issue 46).
		const changed = { ...row, city: 'Hamburg' };
		const dry = await run(harness, [changed], DRY);
		expect(dry.outputs[0]).toMatchObject({ dryRun: true, action: 'created', notChecked: NOT_CHECKED });
		expect(dry.logged.filter((request) => request.method !== 'GET')).toEqual([]);
		expect(dry.journalWrites).toBe(0);
		const real = await run(harness, [changed]);
		expect(String(real.outputs[0].error)).toMatch(/may already exist/);
		expect(real.logged.filter((request) => request.method !== 'GET')).toEqual([]);
	}, 60_000);

	it('issue 38: a dry run hands nothing to the process\'s memory of the node (a real execution beside it still claims)', async () => {
		const credential = emailCredential(sandbox(), ALICE);
		const harness = new Harness(credential);
		await run(harness, [{ email: 'dry.beside.live@example.test', first: 'Liv' }]);
		const shared = peekSharedMemory(harness.workflowId, harness.nodeId, accountScope(credential, harness.credentialId));
		expect(shared?.journal.available).toBe(true);
		const dry = await run(harness, [{ email: 'dry.beside.live2@example.test', first: 'Lou' }], DRY);
		expect(dry.journalWrites).toBe(0);
		// The journal the real executions of this process share still has n8n's store, and no execution is counted as running.
		expect([shared?.journal.available, shared?.running]).toEqual([true, 0]);
		expect(peekSharedMemory(harness.workflowId, harness.nodeId, accountScope(credential, harness.credentialId))).toBe(shared);
	}, 60_000);

	it('issue 38: a plan says what this node\'s real run does: a row only another node knows is planned as created, and says so', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'dry.other@example.test', first: 'Ida', city: 'Berlin', skills: 'SQL: 3' };
		const filed = await run(harness, [row]);
		Object.assign(harness, { nodeId: 'node-sheet', nodeName: 'Sheet' });
		const planned = await run(harness, [row], DRY);
		expect(planned.outputs[0]).toMatchObject({ dryRun: true, action: 'created', slug: NEW_SLUG, alsoKnownBy: filed.outputs[0].slug, warning: ALSO_KNOWN });
		const real = await run(harness, [row]);
		// The real run of this node does what the plan said (the service holds the candidate twice: why the plan warns).
		expect(real.outputs[0].action).toBe('created');
		Object.assign(harness, { nodeId: 'node-recruiting', nodeName: 'Recruiting' });
	}, 60_000);

	it('a node kept for previews beside the node that applies (Plan From: Other Create or Update Nodes) plans from that node\'s memory', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'dry.beside@example.test', first: 'Hal', city: 'Berlin', skills: 'SQL: 3' };
		const filed = await run(harness, [row]);
		const preview = () => Object.assign(harness, { nodeId: 'node-preview', nodeName: 'Preview' });
		const apply = () => Object.assign(harness, { nodeId: 'node-recruiting', nodeName: 'Recruiting' });
		preview();
		const planned = await run(harness, [row, { ...row, city: 'Ulm' }, { ...row, email: 'dry.beside.new@example.test' }], { options: { dryRun: true, planFrom: 'otherNodes' } });
		expect(planned.outputs.map((json) => [json.action, json.slug])).toEqual([
			['unchanged', filed.outputs[0].slug],
			['updated', filed.outputs[0].slug],
			['created', NEW_SLUG],
		]);
		expect(planned.outputs.slice(0, 2).map((json) => json.plannedFrom)).toEqual(['otherNode', 'otherNode']);
		expect([planned.staticChanged, planned.journalWrites]).toEqual([false, 0]);
		apply();
		const applied = await run(harness, [{ ...row, city: 'Ulm' }]);
		expect(applied.outputs[0].action).toBe('updated');
		expect(applied.logged.map(asText)).toEqual(plannedWrites(planned.outputs[1], undefined));
	}, 60_000);

	it('a manual test run with Dry Run on: the same plan, nothing sent; Forget This Row and Forget All Rows forget nothing (Forget All Rows: one item, as in a real run)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'dry.manual@example.test', first: 'Gus', city: 'Berlin', skills: 'SQL: 3' };
		await run(harness, [row]);
		const manual = await run(harness, [{ ...row, city: 'Essen' }], DRY, true);
		expect(manual.outputs[0]).toMatchObject({ dryRun: true, action: 'updated' });
		expect(manual.logged.filter((request) => request.method !== 'GET')).toEqual([]);
		const forget = await run(harness, [row], { memoryAction: 'forget', confirmForget: true, ...DRY });
		expect(forget.outputs[0]).toMatchObject({ dryRun: true, action: 'forgotten', known: true });
		// Two input rows: one output item, as the real Forget All Rows gives.
		const clear = await run(harness, [row, { ...row, email: 'dry.manual.2@example.test' }], { memoryAction: 'clearAll', confirmForget: true, ...DRY });
		expect(clear.outputs).toHaveLength(1);
		expect(clear.outputs[0]).toMatchObject({ dryRun: true, action: 'cleared' });
		expect([forget.staticChanged, clear.staticChanged, forget.journalWrites + clear.journalWrites]).toEqual([false, false, 0]);
		const real = await run(harness, [row]);
		expect(real.outputs[0].action).toBe('unchanged');
	}, 60_000);
});
