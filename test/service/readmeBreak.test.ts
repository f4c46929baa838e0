/**
 * README audit: promises of README.md that had no test, or a weak one, checked through n8n's
 * engine against the sandbox (real HTTP on 127.0.0.1). Each test quotes the sentence it checks.
 * `forgetProcessMemory()` models an n8n restart; `manual: true` a run from the editor.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { startSandbox } from '../sandbox/server';
import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, storedCandidate, tokenCredential, useSandbox, writesSince } from '../helpers/sandbox';
import { upsertParameters } from '../helpers/upsert';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const alice = () => new Harness(emailCredential(sandbox(), ALICE));
const storedUnder = (email: string) => sandbox().candidates(ALICE.companyId).filter((candidate) => candidate.email === email);
/** Every request since `from`, the login aside. */
const requestsSince = (from: number) =>
	sandbox()
		.requests.slice(from)
		.filter((request) => request.path !== '/v1/login')
		.map((request) => `${request.method} ${request.path}`);

beforeEach(() => forgetProcessMemory());

describe('README "Bulk runs and errors"', () => {
	// README: "Invalid input fails only that item. [...] a bad record (an impossible date, a name that matches nothing) is reported
	// as a failed record and the rest of the row is sent, or, with *Fail Item on Record Error*, fails the item (*Create or Update*:
	// before anything is sent)."
	it.each([
		['Import, an unknown language name', 'import', 'rb.invalid.1', { languages: 'Klingonisch: 3' }],
		['Import, an impossible date in a job', 'import', 'rb.invalid.2', { jobs: 'Acme GmbH | Developer | 2020-02-30' }],
		['Create or Update, an unknown language name', 'upsert', 'rb.invalid.3', { languages: 'Klingonisch: 3' }],
		['Create or Update, an unknown job type name', 'upsert', 'rb.invalid.4', { jobs: 'Acme GmbH | Developer | 2020-01-01 | | Astronaut' }],
	])('%s: only the bad row fails; with Fail Item on Record Error the item fails (Create or Update: nothing sent for it)', async (_name, operation, tag, records: IDataObject) => {
		const bad = `${tag}.bad@example.test`;
		const good = `${tag}.good@example.test`;
		const harness = alice();
		const from = sandbox().requests.length;
		const parameters = {
			resource: 'candidate',
			operation,
			email: '={{ $json.email }}',
			recordInput: 'lists',
			languageList: '={{ $json.languages }}',
			jobList: '={{ $json.jobs }}',
		};
		// By default the bad record is reported, the rest of its row is sent.
		const reported = await harness.run({
			parameters: { ...parameters, email: '={{ $json.email.replace("@", ".default@") }}', options: { retryDelayMs: 1, concurrency: 1 } },
			items: [{ email: bad, languages: records.languages ?? '', jobs: records.jobs ?? '' }],
			onError: 'continueRegularOutput',
		});
		const reportedOut = reported.items[0].json;
		expect(reportedOut.action).toBe('partly created');
		expect(String(reportedOut.error ?? '')).not.toBe('');
		expect(storedUnder(bad.replace('@', '.default@'))).toHaveLength(1);
		const result = await harness.run({
			parameters: { ...parameters, options: { retryDelayMs: 1, concurrency: 1, failOnRecordError: true } },
			items: [
				{ email: bad, languages: records.languages ?? '', jobs: records.jobs ?? '' },
				{ email: good, languages: '', jobs: '' },
			],
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		const [badOut, goodOut] = result.items.map((item) => item.json);
		// Only that item: the good row went through.
		expect(goodOut.error ?? '').toBe('');
		expect(storedUnder(good)).toHaveLength(1);
		// The bad row fails (an error item) ...
		expect(String(badOut.error ?? '')).not.toBe('');
		if (operation !== 'upsert') return;
		// ... Create or Update: before anything is sent, no candidate created for it, no request carrying it.
		const sentForBad = sandbox()
			.requests.slice(from)
			.filter((request) => request.method !== 'GET' && JSON.stringify(request.body ?? {}).includes(bad));
		expect(sentForBad).toEqual([]);
		expect(storedUnder(bad)).toHaveLength(0);
	});

	// README: "Each input item gives one output item, errors included (list operations: one item per entry; *Forget All Rows*: one item)."
	it.each([
		['Session → Log Out', { resource: 'session', operation: 'logout' }, false, 3],
		['Create or Update with Dry Run', upsertParameters({ options: { retryDelayMs: 1, dryRun: true } }), false, 3],
		['Create or Update, Forget All Rows with Forget Now', upsertParameters({ memoryAction: 'clearAll', confirmForget: true }), true, 1],
		['Create or Update, Forget Each Input Row with Forget Now', upsertParameters({ memoryAction: 'forget', confirmForget: true }), true, 3],
	])('%s: three input items give the output items the README says', async (_name, parameters, syncFirst, count) => {
		const harness = alice();
		const tag = `rb.count.${_name.replace(/\W/g, '')}`;
		const items = [0, 1, 2].map((index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3' }));
		if (syncFirst) await harness.run({ parameters: upsertParameters(), items, onError: 'continueRegularOutput' });
		const result = await harness.run({ parameters: parameters as INodeParameters, items, onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(count);
		if (count === 3) expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	// README: "*On Error → Stop Workflow* (the default) stops at the first failure. The error names the row
	// (`Row 3 (item index 2): …`) and lists the candidates created in this execution, so you can keep their slugs."
	it.each([
		['create', { resource: 'candidate', operation: 'create', email: '={{ $json.email }}', additionalFields: {} }],
		['import', { resource: 'candidate', operation: 'import', email: '={{ $json.email }}', recordInput: 'lists', itSkillList: 'SQL: 3' }],
		['upsert', upsertParameters({ options: { retryDelayMs: 1, concurrency: 1 } })],
	])('Candidate %s, row 3 without e-mail: "Row 3 (item index 2): …", the description lists the slugs of rows 1 and 2', async (operation, parameters) => {
		const harness = alice();
		const emails = [`rb.stop.${operation}.1@example.test`, `rb.stop.${operation}.2@example.test`, ''];
		const result = await harness.run({
			parameters: { ...(parameters as INodeParameters), options: { retryDelayMs: 1, concurrency: 1 } },
			items: emails.map((email, index) => ({ email, first: `F${index}`, skills: 'SQL: 3' })),
		});
		expect(result.error?.message).toMatch(/^Row 3 \(item index 2\): /);
		const slugs = emails.slice(0, 2).map((email) => storedUnder(email).map((candidate) => candidate.slug));
		expect(slugs.map((list) => list.length)).toEqual([1, 1]);
		const description = String(result.error?.description ?? '');
		for (const [slug] of slugs) expect(description).toContain(slug);
	});

	// README: "Tokens, passwords and API keys are redacted from messages and outputs, except where the secret is what you asked for."
	it('a password or access token that reaches an output or a message is redacted', async () => {
		const token = sandbox().issueToken(ALICE.email);
		const byToken = new Harness(tokenCredential(sandbox(), token));
		const created = await byToken.run({
			parameters: { resource: 'candidate', operation: 'create', email: 'rb.redact@example.test', additionalFields: { source: `via ${token}` }, options: { retryDelayMs: 1 } },
		});
		expect(created.error).toBeUndefined();
		expect(JSON.stringify(created.items)).not.toContain(token);
		const byPassword = alice();
		const failed = await byPassword.run({
			parameters: { resource: 'candidate', operation: 'create', email: ALICE.password, additionalFields: {}, options: { retryDelayMs: 1 } },
			onError: 'continueRegularOutput',
		});
		expect(String(failed.items[0].json.error ?? '')).not.toBe('');
		expect(JSON.stringify(failed.items)).not.toContain(ALICE.password);
	});
});

describe('README "Troubleshooting" messages', () => {
	// README: | `"Job Type": no job type is named "…". Closest: …` | Use a name offered, or pick from the dropdown. |
	it('an unknown job type on Candidate Job → Add', async () => {
		const harness = alice();
		const created = await harness.run({ parameters: { resource: 'candidate', operation: 'create', email: 'rb.jobtype@example.test', options: { retryDelayMs: 1 } } });
		const slug = String(created.items[0].json.slug);
		const from = sandbox().requests.length;
		const result = await harness.run({
			parameters: { resource: 'candidateJob', operation: 'add', candidateSlug: slug, companyName: 'Acme', startDate: '2020-01-01', additionalFields: { jobTypeId: 'Astronaut' }, options: { retryDelayMs: 1 } },
		});
		expect(result.error?.message).toMatch(/^"Job Type": no job type is named "Astronaut"\. Closest: \S/);
		expect(writesSince(sandbox(), from)).toEqual([]);
	});

	// README: | `Login failed: Invalid login or password (HTTP 401)` | Check Email and Password in the credential. |
	it('a wrong password', async () => {
		const wrong = `${ALICE.password}-not`;
		const harness = new Harness({ ...emailCredential(sandbox(), ALICE), password: wrong });
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'getAll' } });
		expect(result.error?.message).toContain('Login failed: Invalid login or password (HTTP 401)');
	});

	// README: | `Logged in, but found no session token …` | Set **Token Path** (the message lists the keys it saw). |
	it('a login answer without a token where the node looks', async () => {
		const box = await startSandbox({ tokenLocation: 'none' });
		try {
			const harness = new Harness(emailCredential(box));
			const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'getAll' } });
			expect(result.error?.message).toMatch(/^Logged in, but found no session token/);
			expect(`${result.error?.message ?? ''} ${result.error?.description ?? ''}`).toMatch(/first_name/);
		} finally {
			await box.close();
		}
	});
});

describe('README "Memory Action"', () => {
	// README: "Every choice but **Sync Rows** (the default) sends nothing"
	it.each([
		['Adopt Given Slugs', { memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' }],
		['Forget Each Input Row', { memoryAction: 'forget' }],
		['Forget Each Input Row (Forget Now)', { memoryAction: 'forget', confirmForget: true }],
		['Forget All Rows', { memoryAction: 'clearAll' }],
		['Forget All Rows (Forget Now)', { memoryAction: 'clearAll', confirmForget: true }],
	])('%s sends no request', async (name, extra) => {
		const harness = alice();
		const tag = `rb.sends.${name.replace(/\W/g, '')}`;
		const sheet = [0, 1].map((index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3' }));
		const first = await harness.run({ parameters: upsertParameters(), items: sheet, onError: 'continueRegularOutput' });
		const withSlugs = sheet.map((row, index) => ({ ...row, first: 'Changed', slug: first.items[index].json.slug }));
		const from = sandbox().requests.length;
		const result = await harness.run({ parameters: upsertParameters(extra), items: withSlugs, onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(requestsSince(from)).toEqual([]);
	});

	// README: "**Forget Each Input Row** and **Forget All Rows** (for candidates deleted in the service) only list what they
	// would forget until **Forget Now** is on."
	it.each([['forget'], ['clearAll']])('%s without Forget Now: the next Sync Rows run still knows the rows (updated, nothing created)', async (memoryAction) => {
		const harness = alice();
		const sheet = [0, 1].map((index) => ({ email: `rb.list.${memoryAction}.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3' }));
		await harness.run({ parameters: upsertParameters(), items: sheet, onError: 'continueRegularOutput' });
		await harness.run({ parameters: upsertParameters({ memoryAction }), items: sheet, onError: 'continueRegularOutput' });
		forgetProcessMemory();
		const from = sandbox().requests.length;
		const again = await harness.run({ parameters: upsertParameters(), items: sheet.map((row) => ({ ...row, first: 'Renamed' })), onError: 'continueRegularOutput' });
		expect(again.items.map((item) => item.json.action)).toEqual(['updated', 'updated']);
		expect(writesSince(sandbox(), from).filter((write) => write === `POST ${CANDIDATE}`)).toEqual([]);
		for (const row of sheet) expect(storedUnder(String(row.email))).toHaveLength(1);
	});
});

describe('README "A first workflow" (spreadsheet-sync.json\'s Create or Update node)', () => {
	/** The example's node: typeVersion 1.2, options {}, On Error: Continue, slug and state mapped from the row. */
	const exampleParameters = (options: INodeParameters = {}): INodeParameters => ({
		resource: 'candidate',
		operation: 'upsert',
		candidateSlug: '={{ $json.slug }}',
		email: '={{ $json.email }}',
		phone: '',
		additionalFields: { source: 'Spreadsheet sync', firstName: '={{ $json.first_name }}', lastName: '={{ $json.last_name }}', city: '={{ $json.city }}' },
		recordInput: 'lists',
		itSkillList: '={{ $json.it_skills }}',
		languageList: '={{ $json.languages }}',
		syncState: '={{ $json.syncState }}',
		options,
	});
	const sheet = [
		{ email: 'rb.mia@example.test', first_name: 'Mia', last_name: 'Schneider', city: 'Berlin', it_skills: 'Python: 4; SQL: 3', languages: 'German: 5; English: 4' },
		{ email: 'rb.noah@example.test', first_name: 'Noah', last_name: 'Becker', city: 'Hamburg', it_skills: 'TypeScript: 4; React: 3', languages: 'German: 5; English: 3' },
		{ email: 'rb.emma@example.test', first_name: 'Emma', last_name: 'Hoffmann', city: 'München', it_skills: 'Java: 3; Kotlin: 2', languages: 'German: 5; French: 2' },
	];

	// README: "Run it from **Preview the sync**: a *Dry Run* shows what would happen and writes nothing."
	// README: "The first run creates every row and writes the sheet back with `slug`, `syncState`, `action` and `error`.
	// The next run finds every row `unchanged` and sends nothing. A changed city comes back `updated`; a broken e-mail
	// `failed`, with the reason in `error`."
	it('preview, first run, re-run, a changed city and a broken e-mail', async () => {
		const harness = alice();
		const run = async (items: IDataObject[], options: INodeParameters = {}) => {
			const from = sandbox().requests.length;
			const result = await harness.run({ parameters: exampleParameters(options), items, onError: 'continueRegularOutput', typeVersion: 1.2 });
			expect(result.error).toBeUndefined();
			return { outputs: result.items.map((item) => item.json), writes: writesSince(sandbox(), from), requests: requestsSince(from) };
		};
		const preview = await run(sheet, { dryRun: true, planFrom: 'otherNodes' });
		expect(preview.writes).toEqual([]);
		expect(preview.outputs).toHaveLength(3);

		const first = await run(sheet);
		expect(first.outputs.map((json) => json.action)).toEqual(['created', 'created', 'created']);
		for (const json of first.outputs) {
			expect(json.slug).toEqual(expect.any(String));
			expect(json.syncState).toEqual(expect.any(String));
			expect(json.error ?? '').toBe('');
		}
		const written = sheet.map((row, index) => ({ ...row, slug: first.outputs[index].slug, syncState: first.outputs[index].syncState, action: first.outputs[index].action, error: '' }));

		forgetProcessMemory();
		const next = await run(written);
		expect(next.outputs.map((json) => json.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
		// "sends nothing" read as "writes nothing" here; the literal reading (no request at all) is the next test.
		expect(next.writes).toEqual([]);

		const edited = written.map((row, index) => ({
			...row,
			slug: next.outputs[index].slug ?? row.slug,
			syncState: next.outputs[index].syncState ?? row.syncState,
		}));
		edited[0] = { ...edited[0], city: 'Potsdam' };
		edited[1] = { ...edited[1], email: 'noah.becker(at)example' };
		const changed = await run(edited);
		expect(changed.outputs.map((json) => json.action)).toEqual(['updated', 'failed', 'unchanged']);
		expect(String(changed.outputs[1].error ?? '')).toMatch(/mail/i);
		expect(storedCandidate(sandbox(), first.outputs[0].slug).city).toBe('Potsdam');
	});
	// README: "The next run finds every row `unchanged` and writes nothing." (it may read the reference lists its names need)
	it('the re-run of an unchanged sheet (names in its language column) writes nothing', async () => {
		const harness = alice();
		const rows = sheet.map((row) => ({ ...row, email: row.email.replace('rb.', 'rb.literal.') }));
		const first = await harness.run({ parameters: exampleParameters(), items: rows, onError: 'continueRegularOutput', typeVersion: 1.2 });
		const written = rows.map((row, index) => ({ ...row, slug: first.items[index].json.slug, syncState: first.items[index].json.syncState }));
		const from = sandbox().requests.length;
		const next = await harness.run({ parameters: exampleParameters(), items: written, onError: 'continueRegularOutput', typeVersion: 1.2 });
		expect(next.items.map((item) => item.json.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(requestsSince(from).filter((request) => !request.startsWith('GET '))).toEqual([]);
	});
});

describe('README "Import: records as text" and dates', () => {
	// README: "With *Records Input: JSON or Text*, each kind of record is one text field, for example IT skills as
	// `TypeScript: 4, SQL: 3` and languages as `English: 4; Deutsch: 5`"
	it('the README\'s two examples are stored as written', async () => {
		const harness = alice();
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'import', email: 'rb.import.text@example.test', recordInput: 'lists', itSkillList: 'TypeScript: 4, SQL: 3', languageList: 'English: 4; Deutsch: 5', options: { retryDelayMs: 1 } },
		});
		expect(result.error).toBeUndefined();
		const records = storedCandidate(sandbox(), result.items[0].json.slug).records;
		expect(records.itSkills.map((skill) => [skill.skill_name, skill.skill_level_id])).toEqual([
			['TypeScript', 4],
			['SQL', 3],
		]);
		expect(records.languages.map((entry) => [entry.language_id, entry.language_level_id])).toEqual([
			[26, 4],
			[23, 5],
		]);
	});

	// README: "Dates may be `2024-03-05`, `05.03.2024`, an ISO date-time or a date from an expression."
	it.each([
		['a Luxon DateTime', '={{ [{ company: "Lux AG", start: DateTime.fromISO("2024-03-05") }] }}'],
		['a JavaScript Date', '={{ [{ company: "Lux AG", start: new Date(Date.UTC(2024, 2, 5, 12)) }] }}'],
	])('Import: a job\'s start date given in its JSON list as %s from an expression', async (_name, jobList) => {
		const harness = alice();
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'import', email: `rb.import.date.${_name.length}@example.test`, recordInput: 'lists', jobList, options: { retryDelayMs: 1 } },
			onError: 'continueRegularOutput',
		});
		const json = result.items[0].json;
		expect(json.error ?? '').toBe('');
		const jobs = storedCandidate(sandbox(), json.slug).records.jobs;
		expect(jobs.map((job) => [job.company_name, job.start_date])).toEqual([['Lux AG', '05-03-2024']]);
	});
});

describe('README "The node\'s memory, for everything else"', () => {
	// README: "**Overlapping runs** (form submissions a second apart) create each row once."
	it('two executions of the same row, the second starting while the first is creating it: one candidate', async () => {
		const harness = alice();
		const row = { email: 'rb.overlap@example.test', first: 'Ova', skills: 'SQL: 3' };
		sandbox().setFaults({ latencyMs: 800 });
		try {
			const first = harness.run({ parameters: upsertParameters(), items: [row], onError: 'continueRegularOutput' });
			await sleep(400);
			const second = harness.run({ parameters: upsertParameters(), items: [row], onError: 'continueRegularOutput' });
			await Promise.all([first, second]);
		} finally {
			sandbox().setFaults({});
		}
		expect(storedUnder(row.email)).toHaveLength(1);
	});
});

describe('README "Refused and held rows" (execution hint and custom data)', () => {
	// README: "A production run with failed, partly done, refused or held rows has their counts in the execution's custom data
	// [...]; with *On Error: Continue* it also shows an execution hint (under *Stop Workflow* the run's error names the row)"
	// (here: the default On Error, Stop Workflow, which stops at the failed row; n8n keeps no hint of a node that fails)
	it('Create or Update under Stop Workflow, two rows created, the third fails: the counts, and the error names the row', async () => {
		const harness = alice();
		const items = ['rb.hint.1@example.test', 'rb.hint.2@example.test', 'broken-address'].map((email) => ({ email, first: 'H', skills: 'SQL: 3' }));
		const result = await harness.run({ parameters: upsertParameters({ options: { retryDelayMs: 1, concurrency: 1 } }), items });
		expect(result.error?.message).toMatch(/^Row 3 \(item index 2\): /);
		const customData = result.run.data.resultData.metadata ?? {};
		expect(customData).toMatchObject({ failed: '1' });
	});
});

describe('README "Use with AI agents" (examples/agent-tools.json\'s Create_or_update_candidate)', () => {
	const toolParameters: INodeParameters = {
		resource: 'candidate',
		operation: 'upsert',
		email: "={{ $fromAI('email', 'The e-mail address of the candidate', 'string') }}",
		phone: "={{ $fromAI('phone', 'The phone number', 'string', '') }}",
		additionalFields: {
			source: 'AI agent (MCP)',
			firstName: "={{ $fromAI('first_name', 'The first name', 'string', '') }}",
			city: "={{ $fromAI('city', 'The city', 'string', '') }}",
			birthday: "={{ $fromAI('birthday', 'Date of birth', 'string', '') }}",
		},
		recordInput: 'lists',
		itSkillList: "={{ $fromAI('it_skills', 'IT skills', 'string', '') }}",
		languageList: "={{ $fromAI('languages', 'Languages', 'string', '') }}",
		options: { failOnRecordError: true, createInManualRuns: true },
	};
	const answer = (result: Awaited<ReturnType<Harness['run']>>) => result.run.data.resultData.runData.Recruiting?.[0]?.data?.ai_tool?.[0] ?? [];

	// README: "Filing a candidate answers its `slug` and `action`; the same call again answers `unchanged`.
	// Bad arguments answer an error naming the field."
	it('filing answers slug and action, the same call again unchanged; a bad birthday names the field', async () => {
		const harness = alice();
		const query = { email: 'rb.agent@example.test', first_name: 'Amira', city: 'Bonn', birthday: '03.11.1994', it_skills: 'TypeScript: 3, SQL: 2', languages: 'English: 4; German: 5' };
		const first = await harness.run({ parameters: toolParameters, items: [{ query }], asAgentTool: true, typeVersion: 1.2 });
		expect(answer(first)[0]?.json).toMatchObject({ slug: expect.any(String), action: 'created' });
		const from = sandbox().requests.length;
		const again = await harness.run({ parameters: toolParameters, items: [{ query }], asAgentTool: true, typeVersion: 1.2 });
		expect(answer(again)[0]?.json).toMatchObject({ slug: answer(first)[0]?.json.slug, action: 'unchanged' });
		expect(writesSince(sandbox(), from)).toEqual([]);
		const bad = await harness.run({ parameters: toolParameters, items: [{ query: { ...query, email: 'rb.agent2@example.test', birthday: '31.02.1994' } }], asAgentTool: true, typeVersion: 1.2 });
		const text = `${String(answer(bad)[0]?.json.error ?? '')} ${bad.error?.message ?? ''}`;
		expect(text).toMatch(/"Birthday"/);
		expect(storedUnder('rb.agent2@example.test')).toHaveLength(0);
	});
});
