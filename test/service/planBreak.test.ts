/**
 * An independent review trying to break one promise of Candidate → Create or Update (docs/create-or-update.md,
 * "Options → Dry Run"; docs/sync-memory.md, "A row's life" and "A dry run touches nothing shared"): a Dry Run's
 * plan equals what the real run right after it does, row by row (its `action`, what it reports, and the writes
 * it lists in `requests`), and a dry run changes nothing (the real run after it does what it would have done
 * without it). Each test runs the same input and the same memory as a dry run, then as the real run, through
 * n8n's engine against the sandbox over real HTTP, and compares the two.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NEW_SLUG } from '../../nodes/Recruiting/actions/candidate/upsert/dryRun';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Flow, input, to } from '../helpers/flow';
import { Harness, deduplicator } from '../helpers/harness';
import type { RunOptions } from '../helpers/harness';
import type { Logged } from '../helpers/sandbox';
import { ALICE, emailCredential, loggedSince, useSandbox, writesOf } from '../helpers/sandbox';
import { upsertParameters } from '../helpers/upsert';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';
const OPTIONS = { retryDelayMs: 1, concurrency: 4 };
const DRY = { options: { dryRun: true } };
const MAY_EXIST = /may already exist/;

beforeEach(() => {
	forgetProcessMemory();
	sandbox().setFaults({});
});

afterEach(() => sandbox().setFaults({}));

const parameters = (extra: INodeParameters = {}): INodeParameters =>
	upsertParameters(
		{ languageList: '={{ $json.languages }}', ...extra, options: { ...OPTIONS, ...(extra.options as IDataObject | undefined) } },
		{ firstName: '={{ $json.first }}', city: '={{ $json.city }}', birthday: '={{ $json.birthday }}' },
	);

interface Ran {
	outputs: IDataObject[];
	logged: Logged[];
	journalWrites: number;
	staticChanged: boolean;
	staticDataSaved: boolean;
}

async function run(harness: Harness, items: IDataObject[], extra: INodeParameters = {}, settings: Pick<RunOptions, 'manual' | 'retryOnFail'> = {}): Promise<Ran> {
	const from = sandbox().requests.length;
	const writesBefore = deduplicator.writes;
	const staticBefore = JSON.stringify(harness.staticData);
	const result = await harness.run({ parameters: parameters(extra), items, onError: 'continueRegularOutput', ...settings });
	return {
		outputs: result.items.map((item) => item.json),
		logged: loggedSince(sandbox(), from),
		journalWrites: deduplicator.writes - writesBefore,
		staticChanged: JSON.stringify(harness.staticData) !== staticBefore,
		staticDataSaved: result.staticDataSaved,
	};
}

const asText = (request: Logged) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`;

/** What a row's output says a run did (or would do), the new candidate's slug aside. */
const decision = (json: IDataObject) => ({
	action: json.action,
	error: typeof json.error === 'string' ? json.error.replace(/^Dry run: nothing was sent or remembered\. /, '') : json.error,
	known: json.known,
	updatedFields: json.updatedFields,
	notCleared: json.notCleared,
	outcomeUnknown: json.outcomeUnknown,
	secondRecords: json.secondRecords,
	wouldSend: json.wouldSend,
});

/**
 * The promise: the dry run sent no write and remembered nothing, each row's planned decision is the real run's,
 * and the writes the real run sent are exactly the planned ones (a planned new candidate's `(new)` replaced by
 * the slug the real run got for that row).
 */
function expectPlanIsRun(dry: Ran, real: Ran): void {
	expect(writesOf(dry.logged)).toEqual([]);
	expect([dry.journalWrites, dry.staticChanged, dry.staticDataSaved]).toEqual([0, false, false]);
	expect(dry.outputs.every((json) => json.dryRun === true)).toBe(true);
	expect(real.outputs.map(decision)).toEqual(dry.outputs.map(decision));
	const slugOf = (index: number) => (dry.outputs[index].slug === NEW_SLUG ? real.outputs[index].slug : dry.outputs[index].slug);
	const planned = dry.outputs.flatMap((json, index) =>
		((json.requests as Logged[] | undefined) ?? []).map((request) =>
			asText({ ...request, body: request.body.user_slug === NEW_SLUG ? { ...request.body, user_slug: slugOf(index) as string } : request.body }),
		),
	);
	expect(writesOf(real.logged).map(asText).sort()).toEqual(planned.sort());
}

const credential = () => emailCredential(sandbox(), ALICE);

describe('plan break: rows new, known and changed', () => {
	it('Match By Email: unchanged, city changed, one skill more, skills reordered, a new row, the new row twice more (the second time with one more skill), an e-mail in another case', async () => {
		const harness = new Harness(credential());
		const known = [
			{ email: 'pb.same@example.test', first: 'Ada', city: 'Berlin', skills: 'SQL: 3, Go: 2' },
			{ email: 'pb.moved@example.test', first: 'Bob', city: 'Berlin', skills: 'SQL: 3' },
			{ email: 'pb.skill@example.test', first: 'Cy', city: 'Berlin', skills: 'SQL: 3' },
		];
		await run(harness, known);
		const sheet = [
			{ ...known[0], skills: 'Go: 2, SQL: 3' },
			{ ...known[1], city: 'Hamburg' },
			{ ...known[2], skills: 'SQL: 3, Rust: 4' },
			{ email: 'pb.new@example.test', first: 'Dee', city: 'Köln', skills: 'Rust: 4', languages: 'English: 4' },
			{ email: 'PB.NEW@example.test', first: 'Dee', city: 'Köln', skills: 'Rust: 4', languages: 'Englisch: 4' },
			{ email: 'pb.new@example.test', first: 'Dee', city: 'Köln', skills: 'Rust: 4, C: 1', languages: 'English: 4' },
			{ ...known[0], email: ' PB.Same@Example.test ' },
		];
		const dry = await run(harness, sheet, DRY);
		const real = await run(harness, sheet);
		expect(real.outputs.map((json) => json.action)).toEqual(['unchanged', 'updated', 'updated', 'created', 'unchanged', 'updated', 'unchanged']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('a dry run changes nothing: the real run after it does exactly what the same real run does in a twin workflow that had no dry run', async () => {
		const withDry = new Harness(credential());
		const without = new Harness(credential());
		const known = [{ email: 'pb.twin.known@example.test', first: 'Eli', city: 'Ulm', skills: 'SQL: 3' }];
		const sheet = [{ ...known[0], city: 'Jena', skills: 'SQL: 3, Go: 1' }, { email: 'pb.twin.new@example.test', first: 'Fox', city: 'Gera', skills: 'C: 2' }, { email: 'pb.twin.new@example.test', first: 'Fox', city: 'Gera', skills: 'C: 2' }];
		await run(withDry, known);
		await run(without, known);
		await run(withDry, sheet, DRY);
		await run(withDry, sheet, { memoryAction: 'forget', ...DRY, confirmForget: true });
		await run(withDry, sheet, { memoryAction: 'clearAll', ...DRY, confirmForget: true });
		const after = await run(withDry, sheet);
		const alone = await run(without, sheet);
		const shape = (ran: Ran) => writesOf(ran.logged).map((request) => `${request.method} ${request.path} ${JSON.stringify({ ...request.body, user_slug: request.body.user_slug === undefined ? undefined : 'slug' })}`);
		expect(after.outputs.map(decision)).toEqual(alone.outputs.map(decision));
		expect(shape(after).sort()).toEqual(shape(alone).sort());
		// And again: both are unchanged now.
		expect((await run(withDry, sheet)).outputs.map((json) => json.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	}, 60_000);

	it('Match By Phone: a known row found by its digits written otherwise, a changed one, a new one given twice (formatted two ways)', async () => {
		const harness = new Harness(credential());
		const byPhone = { matchBy: 'phone', phone: '={{ $json.phone }}' };
		const known = [
			{ phone: '+49 30 5550101', email: 'pb.p1@example.test', first: 'Gil', city: 'Bonn', skills: 'SQL: 3' },
			{ phone: '+49 30 5550102', email: 'pb.p2@example.test', first: 'Hal', city: 'Bonn', skills: 'SQL: 3' },
		];
		await run(harness, known, byPhone);
		const sheet = [
			{ ...known[0], phone: '49 (30) 555-0101' },
			{ ...known[1], first: 'Hank' },
			{ phone: '+49 30 5550103', email: 'pb.p3@example.test', first: 'Ivy', city: 'Bonn', skills: 'Go: 2' },
			{ phone: '49 (30) 555-0103', email: 'pb.p3@example.test', first: 'Ivy', city: 'Trier', skills: 'Go: 2' },
		];
		const dry = await run(harness, sheet, { ...byPhone, ...DRY });
		const real = await run(harness, sheet, byPhone);
		expect(real.outputs.map((json) => json.action)).toEqual(['unchanged', 'updated', 'created', 'updated']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('Match By Key: a record removed from the row (nothing to send), a language written by its German name and by its ID, a profile field emptied (notCleared)', async () => {
		const harness = new Harness(credential());
		const byKey = { matchBy: 'key', matchKey: '={{ $json.id }}' };
		const known = [
			{ id: 'k1', email: 'pb.k1@example.test', first: 'Jo', city: 'Kiel', skills: 'SQL: 3, Go: 2', languages: 'English: 4' },
			{ id: 'k2', email: 'pb.k2@example.test', first: 'Kai', city: 'Kiel', skills: 'SQL: 3' },
		];
		await run(harness, known, byKey);
		const sheet = [
			{ ...known[0], skills: 'Go: 2', languages: 'Englisch: 4' },
			{ ...known[1], city: '' },
			{ ...known[1], city: '', languages: 'German: 3' },
		];
		const dry = await run(harness, sheet, { ...byKey, ...DRY });
		const real = await run(harness, sheet, byKey);
		expect(real.outputs.map((json) => json.action)).toEqual(['unchanged', 'unchanged', 'updated']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('a language level changed (a second record), a name that matches nothing, a birthday that does not exist, a row without its e-mail', async () => {
		const harness = new Harness(credential());
		const known = [{ email: 'pb.lvl@example.test', first: 'Lia', city: 'Ulm', languages: 'German: 2' }];
		await run(harness, known);
		const sheet = [
			{ ...known[0], languages: 'German: 3' },
			{ email: 'pb.badname@example.test', first: 'Max', city: 'Ulm', languages: 'Klingonish: 3' },
			{ email: 'pb.badday@example.test', first: 'Ned', city: 'Ulm', birthday: '31.02.1990' },
			{ first: 'Nobody', city: 'Ulm' },
		];
		const dry = await run(harness, sheet, DRY);
		const real = await run(harness, sheet);
		expect(real.outputs.map((json) => json.action)).toEqual(['updated', 'partly created', 'failed', 'failed']);
		expectPlanIsRun(dry, real);
		// With Fail Item on Record Error the unknown name fails its row before anything is sent, in both.
		const strict = { options: { failOnRecordError: true } };
		const row = [{ email: 'pb.badname2@example.test', first: 'Ole', city: 'Ulm', languages: 'Klingonish: 3' }];
		const dryStrict = await run(harness, row, { options: { failOnRecordError: true, dryRun: true } });
		const realStrict = await run(harness, row, strict);
		expect(realStrict.outputs[0].action).toBe('failed');
		expectPlanIsRun(dryStrict, realStrict);
	}, 60_000);
});

describe('plan break: the exact way (Candidate Slug and Sync State)', () => {
	const withState = { candidateSlug: '={{ $json.slug }}', syncState: '={{ $json.syncState }}' };

	it('rows carrying slug and state: unchanged, changed city, one more skill, a state given twice in one input; in a workflow whose memory is empty', async () => {
		const harness = new Harness(credential());
		const first = await run(harness, [
			{ email: 'pb.s1@example.test', first: 'Pia', city: 'Aue', skills: 'SQL: 3' },
			{ email: 'pb.s2@example.test', first: 'Quin', city: 'Aue', skills: 'SQL: 3' },
		]);
		const carried = first.outputs.map((json) => ({ email: json.email, slug: json.slug, syncState: json.syncState }));
		const sheet = [
			{ ...carried[0], first: 'Pia', city: 'Aue', skills: 'SQL: 3' },
			{ ...carried[1], first: 'Quin', city: 'Zeitz', skills: 'SQL: 3, Go: 2' },
			{ ...carried[1], first: 'Quin', city: 'Zeitz', skills: 'SQL: 3, Go: 2' },
		];
		// Another workflow (another memory) with the rows' state only.
		const elsewhere = new Harness(credential());
		const dry = await run(elsewhere, sheet, { ...withState, ...DRY });
		const real = await run(elsewhere, sheet, withState);
		expect(real.outputs.slice(0, 2).map((json) => json.action)).toEqual(['unchanged', 'updated']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('a garbled state, a state with another candidate\'s slug, a state without a slug: refused alike, nothing planned, nothing sent', async () => {
		const harness = new Harness(credential());
		const first = await run(harness, [
			{ email: 'pb.g1@example.test', first: 'Ray', city: 'Aue' },
			{ email: 'pb.g2@example.test', first: 'Sam', city: 'Aue' },
		]);
		const [a, b] = first.outputs;
		const sheet = [
			{ email: a.email, first: 'Ray', city: 'Gera', slug: a.slug, syncState: `${String(a.syncState).slice(0, -3)}xyz` },
			{ email: a.email, first: 'Ray', city: 'Gera', slug: b.slug, syncState: a.syncState },
			{ email: b.email, first: 'Sam', city: 'Gera', slug: '', syncState: b.syncState },
		];
		const dry = await run(harness, sheet, { ...withState, ...DRY });
		const real = await run(harness, sheet, withState);
		expect(real.outputs.map((json) => json.action)).toEqual(['failed', 'failed', 'failed']);
		expect(writesOf(real.logged)).toEqual([]);
		expectPlanIsRun(dry, real);
	}, 60_000);
});

describe('plan break: Memory Action, then a dry run and the real run', () => {
	const rowsOf = (tag: string) => [
		{ email: `pb.${tag}.1@example.test`, first: 'Tom', city: 'Hof', skills: 'SQL: 3' },
		{ email: `pb.${tag}.2@example.test`, first: 'Uma', city: 'Hof', skills: 'SQL: 3' },
	];

	it('Forget Each Input Row with Forget Now (production), then: both rows planned and created again; without Forget Now nothing changes', async () => {
		const harness = new Harness(credential());
		const rows = rowsOf('fgt');
		await run(harness, rows);
		await run(harness, rows.slice(0, 1), { memoryAction: 'forget' });
		await run(harness, rows.slice(1), { memoryAction: 'forget', confirmForget: true });
		const dry = await run(harness, rows, DRY);
		const real = await run(harness, rows);
		expect(real.outputs.map((json) => json.action)).toEqual(['unchanged', 'created']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('Forget All Rows with Forget Now, then a dry run and the real run: every row planned and created again', async () => {
		const harness = new Harness(credential());
		const rows = rowsOf('clr');
		await run(harness, rows);
		await run(harness, rows, { memoryAction: 'clearAll', confirmForget: true });
		const dry = await run(harness, rows, DRY);
		const real = await run(harness, rows);
		expect(real.outputs.map((json) => json.action)).toEqual(['created', 'created']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('Forget Each Input Row with Forget Now run by hand, then n8n restarts: a documented limit: the dry run plans from the saved memory (unchanged), the live run creates the row again', async () => {
		const harness = new Harness(credential());
		const rows = rowsOf('fgtman');
		await run(harness, rows);
		const forgot = await run(harness, rows.slice(0, 1), { memoryAction: 'forget', confirmForget: true }, { manual: true });
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		// n8n restarts: the process forgets; the saved memory (a manual run is never saved) still holds the row, its claim is gone.
		forgetProcessMemory();
		const dry = await run(harness, rows, DRY);
		const real = await run(harness, rows);
		// docs: a forget counts "for every process and the published workflow": the live run creates the row again.
		expect(real.outputs.map((json) => json.action)).toEqual(['created', 'unchanged']);
		// docs/sync-memory.md ("A dry run touches nothing shared"): only n8n's store knows the row was let go, and a dry run cannot read it.
		expect(dry.outputs.map((json) => json.action)).toEqual(['unchanged', 'unchanged']);
	}, 60_000);

	it('Adopt Given Slugs of rows another workflow created (a production run), then a dry run and the real run of the rows, one of them changed', async () => {
		const harness = new Harness(credential());
		const rows = rowsOf('adp');
		const created = await run(new Harness(credential()), rows);
		const slugged = rows.map((row, index) => ({ ...row, slug: created.outputs[index].slug }));
		const adopted = await run(harness, slugged, { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' });
		expect(adopted.outputs.map((json) => json.action)).toEqual(['adopted', 'adopted']);
		const changed = [{ ...rows[0], city: 'Suhl', skills: 'SQL: 3, Go: 2' }, rows[1]];
		const dry = await run(harness, changed, DRY);
		const real = await run(harness, changed);
		// docs: records taken as added, the profile sent once by the next run.
		expect(real.outputs.map((json) => json.action)).toEqual(['updated', 'updated']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('Adopt Given Slugs by hand (a row another workflow created), then a dry run and the production run in the same n8n process: both go on with the adopted candidate', async () => {
		const harness = new Harness(credential());
		const rows = rowsOf('adphand');
		const created = await run(new Harness(credential()), rows.slice(0, 1));
		const byHand = await run(harness, [{ ...rows[0], slug: created.outputs[0].slug }], { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' }, { manual: true });
		expect(byHand.outputs[0]).toMatchObject({ action: 'adopted', slug: created.outputs[0].slug });
		const dry = await run(harness, rows.slice(0, 1), DRY);
		const real = await run(harness, rows.slice(0, 1));
		// docs (create-or-update.md, Adopt Given Slugs): "Adopted by hand, the next production execution in the same n8n process saves the rows";
		// its records were taken as added and its profile is sent by the next run.
		expect(real.outputs[0]).toMatchObject({ action: 'updated', slug: created.outputs[0].slug });
		expectPlanIsRun(dry, real);
	}, 60_000);
});

describe('plan break: manual runs', () => {
	it('a dry run by hand plans the run by hand: new rows notSent, a known row\'s profile update sent, a known row with a new record notSent', async () => {
		const harness = new Harness(credential());
		const known = [
			{ email: 'pb.m1@example.test', first: 'Vic', city: 'Gotha', skills: 'SQL: 3' },
			{ email: 'pb.m2@example.test', first: 'Wes', city: 'Gotha', skills: 'SQL: 3' },
		];
		await run(harness, known);
		const sheet = [{ ...known[0], city: 'Erfurt' }, { ...known[1], skills: 'SQL: 3, Go: 2' }, { email: 'pb.m3@example.test', first: 'Xan', city: 'Gotha', skills: 'C: 1' }];
		const dry = await run(harness, sheet, DRY, { manual: true });
		const real = await run(harness, sheet, {}, { manual: true });
		expect(real.outputs.map((json) => json.action)).toEqual(['updated', 'notSent', 'notSent']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('Create in Manual Runs: the dry run by hand plans the creations the run by hand sends, and the production dry run after it plans what the live run does', async () => {
		const harness = new Harness(credential());
		const sheet = [
			{ email: 'pb.cm1@example.test', first: 'Yul', city: 'Gotha', skills: 'SQL: 3' },
			{ email: 'pb.cm1@example.test', first: 'Yul', city: 'Gotha', skills: 'SQL: 3, Go: 2' },
		];
		const create = { options: { createInManualRuns: true } };
		const dry = await run(harness, sheet, { options: { createInManualRuns: true, dryRun: true } }, { manual: true });
		const real = await run(harness, sheet, create, { manual: true });
		expect(real.outputs.map((json) => json.action)).toEqual(['created', 'updated']);
		expectPlanIsRun(dry, real);
		const changed = [{ ...sheet[1], city: 'Sonneberg' }];
		const dryLive = await run(harness, changed, DRY);
		const live = await run(harness, changed);
		expect(live.outputs[0].action).toBe('updated');
		expectPlanIsRun(dryLive, live);
	}, 60_000);
});

describe('plan break: answers lost at the service', () => {
	it('a record whose post got no answer (outcomeUnknown): held back in plan and run; with Send Unknown-Outcome Records Again, planned and posted once more', async () => {
		const harness = new Harness(credential());
		const row = { email: 'pb.unk@example.test', first: 'Zed', city: 'Lahr', skills: 'SQL: 3' };
		await run(harness, [row]);
		sandbox().setFaults({ paths: [`${CANDIDATE}/it-skill`], afterWorkErrorRate: 1, afterWorkErrorStatuses: [503] });
		const lost = await run(harness, [{ ...row, skills: 'SQL: 3, Go: 2' }]);
		sandbox().setFaults({});
		expect(lost.outputs[0].action).toBe('failed');
		const again = [{ ...row, skills: 'SQL: 3, Go: 2' }];
		const dry = await run(harness, again, DRY);
		const real = await run(harness, again);
		expect(real.outputs[0].action).toBe('failed');
		expect(real.outputs[0].outcomeUnknown).toHaveLength(1);
		expectPlanIsRun(dry, real);
		const resend = { options: { resendUnknownRecords: true } };
		const dryResend = await run(harness, again, { options: { resendUnknownRecords: true, dryRun: true } });
		const realResend = await run(harness, again, resend);
		expect(realResend.outputs[0].action).toBe('updated');
		expectPlanIsRun(dryResend, realResend);
	}, 60_000);

	it('a row whose creation got no answer (stored, answered 503) is held: the dry run plans what the real run then does with it', async () => {
		const harness = new Harness(credential());
		const row = { email: 'pb.held@example.test', first: 'Abe', city: 'Hof' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [503] });
		const first = await run(harness, [row]);
		sandbox().setFaults({});
		expect(first.outputs[0].action).toBe('failed');
		const dry = await run(harness, [row], DRY);
		const real = await run(harness, [row]);
		expect(String(real.outputs[0].error)).toMatch(MAY_EXIST);
		expect(writesOf(real.logged)).toEqual([]);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('a held row (creation answered 503), then Forget Each Input Row with Forget Now: the dry run says what the real forget does (the held row is let go)', async () => {
		const harness = new Harness(credential());
		const row = { email: 'pb.heldfgt@example.test', first: 'Bea', city: 'Hof' };
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [503] });
		await run(harness, [row]);
		sandbox().setFaults({});
		const forget = { memoryAction: 'forget', confirmForget: true };
		const dry = await run(harness, [row], { ...forget, ...DRY });
		const real = await run(harness, [row], forget);
		expect(real.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect(dry.outputs[0]).toMatchObject({ action: 'forgotten', known: real.outputs[0].known });
		// And the row is created again by the next run, as both said.
		const next = await run(harness, [row]);
		expect(next.outputs[0].action).toBe('created');
	}, 60_000);
});

describe('plan break: node settings and workflows', () => {
	it('Retry On Fail with the first row failing (n8n runs the node again): the dry run plans what the real run\'s tries do together', async () => {
		const harness = new Harness(credential());
		const known = [{ email: 'pb.rt1@example.test', first: 'Cal', city: 'Hof', skills: 'SQL: 3' }];
		await run(harness, known);
		const sheet = [
			{ email: 'pb.rt0@example.test', first: 'Dan', city: 'Hof', birthday: '31.02.1990' },
			{ ...known[0], city: 'Plauen' },
			{ email: 'pb.rt2@example.test', first: 'Eve', city: 'Hof', skills: 'Go: 2' },
		];
		const retry = { retryOnFail: { maxTries: 2, waitBetweenTries: 0 } };
		const dry = await run(harness, sheet, DRY, retry);
		const real = await run(harness, sheet, {}, retry);
		expect(real.outputs.map((json) => json.action)).toEqual(['failed', 'updated', 'created']);
		expectPlanIsRun(dry, real);
	}, 60_000);

	it('two Create or Update nodes in one workflow (a Dry Run node, then the node that applies, same rows): the plan node plans what the apply node does in the same execution', async () => {
		const flow = new Flow(credential());
		const rows = [
			{ email: 'pb.two1@example.test', first: 'Fay', city: 'Hof', skills: 'SQL: 3' },
			{ email: 'pb.two2@example.test', first: 'Gus', city: 'Hof', skills: 'SQL: 3' },
		];
		const params = (extra: INodeParameters) => parameters(extra);
		const nodes = (sheet: IDataObject[]) => [
			input(sheet),
			{ ...flow.recruiting('Plan', params({ options: { dryRun: true, planFrom: 'otherNodes' } })), position: [400, -200] as [number, number] },
			flow.recruiting('Apply', params({})),
		];
		const connections = { 'Input Items': { main: [[to('Plan'), to('Apply')]] } };
		await flow.run(nodes(rows), connections);
		const changed = [{ ...rows[0], city: 'Gera' }, rows[1], { email: 'pb.two3@example.test', first: 'Hep', city: 'Hof', skills: 'C: 1' }];
		const from = sandbox().requests.length;
		const second = await flow.run(nodes(changed), connections);
		const plan = second.items('Plan').map((item) => item.json);
		const applied = second.items('Apply').map((item) => item.json);
		expect(applied.map((json) => json.action)).toEqual(['updated', 'unchanged', 'created']);
		expect(plan.map((json) => json.action)).toEqual(applied.map((json) => json.action));
		const planned = plan.flatMap((json, index) => (json.requests as Logged[]).map((request) => asText({ ...request, body: request.body.user_slug === NEW_SLUG ? { ...request.body, user_slug: applied[index].slug as string } : request.body })));
		expect(writesOf(loggedSince(sandbox(), from)).map(asText).sort()).toEqual(planned.sort());
	}, 60_000);
});
