/**
 * Candidate → Create or Update against the sandbox over real HTTP, through n8n's engine, with the
 * workflow's static data kept between executions as n8n keeps it for an active workflow (and not
 * for a manual one), and n8n's deduplication helpers on the harness's in-memory store.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { CREATE_IN_MANUAL_RUNS, upsertParameters } from '../helpers/upsert';
import { ALICE, BOB, emailCredential, useSandbox, writesSince } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra);

function rows(count: number, from = 0, tag = 'row'): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		email: `${tag}.${from + index}@example.test`,
		first: `First${from + index}`,
		city: 'Berlin',
		skills: 'SQL: 3',
	}));
}

const count = (list: string[], entry: string) => list.filter((value) => value === entry).length;

async function runRows(harness: Harness, items: IDataObject[], extra: INodeParameters = {}, manual = false) {
	const from = sandbox().requests.length;
	const result = await harness.run({ parameters: upsert(extra), items, manual, onError: 'continueRegularOutput' });
	return { result, outputs: result.items.map((item) => item.json), writes: writesSince(sandbox(), from), requests: sandbox().requests.length - from };
}

describe('candidate.upsert: the issue\'s proof over 1,000 rows', () => {
	let harness: Harness;
	beforeAll(() => {
		harness = new Harness(emailCredential(sandbox(), ALICE));
	});
	const sheet = rows(1000);

	it('first run: 1,000 creations, each with its profile update and skill; all "created"', async () => {
		const { outputs, writes } = await runRows(harness, sheet);
		expect(outputs.every((json) => json.action === 'created' && typeof json.slug === 'string')).toBe(true);
		expect(count(writes, `POST ${CANDIDATE}`)).toBe(1000);
		expect(count(writes, `PUT ${CANDIDATE}`)).toBe(1000);
		expect(count(writes, `POST ${CANDIDATE}/it-skill`)).toBe(1000);
	}, 120_000);

	it('the same rows again: 0 service requests, every item "unchanged" with its slug', async () => {
		const before = sandbox().candidates(1).length;
		const { outputs, requests } = await runRows(harness, sheet);
		expect(requests).toBe(0);
		expect(outputs.every((json) => json.action === 'unchanged')).toBe(true);
		expect(new Set(outputs.map((json) => json.slug)).size).toBe(1000);
		expect(sandbox().candidates(1).length).toBe(before);
	}, 60_000);

	it('10 rows with a changed city: exactly 10 updates, nothing else', async () => {
		const changed = sheet.map((row, index) => (index % 100 === 0 ? { ...row, city: 'Hamburg' } : row));
		const { outputs, writes } = await runRows(harness, changed);
		expect(writes).toEqual(Array(10).fill(`PUT ${CANDIDATE}`));
		expect(outputs.filter((json) => json.action === 'updated')).toHaveLength(10);
		expect(outputs.filter((json) => json.action === 'unchanged')).toHaveLength(990);
		sheet.splice(0, sheet.length, ...changed);
	}, 60_000);

	it('5 rows with one more skill: exactly 5 record posts', async () => {
		const more = sheet.map((row, index) => (index % 200 === 7 ? { ...row, skills: 'SQL: 3, Go: 2' } : row));
		const { outputs, writes } = await runRows(harness, more);
		expect(writes).toEqual(Array(5).fill(`POST ${CANDIDATE}/it-skill`));
		const updated = outputs.filter((json) => json.action === 'updated');
		expect(updated).toHaveLength(5);
		expect(updated[0].summary).toMatchObject({ records: 1, added: 1, unchanged: 1 });
		sheet.splice(0, sheet.length, ...more);
	}, 60_000);

	it('20 new rows: 20 creations, the 1,000 known rows send nothing', async () => {
		const { outputs, writes } = await runRows(harness, [...sheet, ...rows(20, 1000)]);
		expect(count(writes, `POST ${CANDIDATE}`)).toBe(20);
		expect(outputs.filter((json) => json.action === 'created')).toHaveLength(20);
		expect(outputs.filter((json) => json.action === 'unchanged')).toHaveLength(1000);
	}, 60_000);

	it('the memory holds no e-mail, name or city in clear', () => {
		const stored = JSON.stringify(harness.staticData);
		expect(stored).not.toMatch(/example\.test|First\d|Berlin|Hamburg/);
	});

	it('Forget This Row: that row is created again on the next run, the others are not', async () => {
		const forgotten = await runRows(harness, [sheet[3]], { memoryAction: 'forget', confirmForget: true });
		expect(forgotten.outputs).toMatchObject([{ action: 'forgotten', known: true, email: sheet[3].email }]);
		expect(forgotten.requests).toBe(0);
		const { writes } = await runRows(harness, sheet.slice(0, 10));
		expect(count(writes, `POST ${CANDIDATE}`)).toBe(1);
	}, 60_000);

	it('Forget All Rows: every row is created again', async () => {
		const cleared = await runRows(harness, [{}, {}], { memoryAction: 'clearAll', confirmForget: true });
		// One output item however many rows came in (issue 39).
		expect(cleared.outputs).toHaveLength(1);
		expect(cleared.outputs[0]).toMatchObject({ action: 'cleared', forgotten: 1020 });
		// It sends nothing to the service (README, Memory Action).
		expect(cleared.requests).toBe(0);
		const { writes } = await runRows(harness, sheet.slice(0, 5));
		expect(count(writes, `POST ${CANDIDATE}`)).toBe(5);
	}, 60_000);
});

describe('candidate.upsert: creations are never repeated', () => {
	it('a manual execution creates; n8n restarted before the next run: unchanged rows are `unchanged`, a changed one stops until its slug is given, nothing is created twice', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(3, 0, 'manual');
		const first = await runRows(harness, sheet, CREATE_IN_MANUAL_RUNS, true);
		expect(first.outputs.every((json) => json.action === 'created')).toBe(true);
		// A restart empties the process's memory; n8n saved no static data for the manual run: only the journal knows.
		forgetProcessMemory();
		const second = await runRows(harness, sheet);
		expect(second.writes).toEqual([]);
		expect(second.outputs.map((json) => json.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
		const changed = await runRows(harness, [{ ...sheet[0], city: 'Elsewhere' }]);
		expect(count(changed.writes, `POST ${CANDIDATE}`)).toBe(0);
		expect(String(changed.outputs[0].error)).toMatch(/may already exist/);
		// Giving the slug once remembers it; afterwards the row is known.
		const slug = first.outputs[0].slug as string;
		await runRows(harness, [sheet[0]], { candidateSlug: slug });
		const third = await runRows(harness, [sheet[0]]);
		expect(third.outputs[0]).toMatchObject({ slug, action: 'unchanged' });
	}, 60_000);

	it('two rows with the same e-mail in one run (case and spaces differ): one candidate', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = rows(1, 0, 'twice')[0];
		const { outputs, writes } = await runRows(harness, [row, { ...row, email: ` ${String(row.email).toUpperCase()} ` }, row]);
		expect(count(writes, `POST ${CANDIDATE}`)).toBe(1);
		// The second row's e-mail is written otherwise, which the match treats as equal: no change (issue 25, defect 8).
		expect(outputs[1]).toMatchObject({ slug: outputs[0].slug, action: 'unchanged' });
		expect(outputs[2]).toMatchObject({ slug: outputs[0].slug });
	}, 60_000);

	it('a creation answered 500 (here before any work, which the node cannot know): outcome unknown, not created again (issue 32, defect 5)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = rows(1, 0, 'refused500');
		sandbox().setFaults({ paths: [CANDIDATE], errorRate: 1, seed: 1 });
		const first = await runRows(harness, row);
		sandbox().setFaults({});
		expect(first.outputs[0].error).toContain('HTTP 500');
		const again = await runRows(harness, row);
		expect(again.outputs[0].error).toMatch(/may already exist/);
	}, 60_000);

	it('a creation stored by the service but answered 502 (outcome unknown): never created again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = rows(1, 0, 'stored502');
		sandbox().setFaults({ paths: [CANDIDATE], afterWorkErrorRate: 1, afterWorkErrorStatuses: [502] });
		const first = await runRows(harness, row);
		sandbox().setFaults({});
		expect(first.outputs[0].error).toContain('HTTP 502');
		const again = await runRows(harness, row);
		expect(again.outputs[0].error).toMatch(/may already exist/);
		const stored = sandbox()
			.candidates(1)
			.filter((candidate) => candidate.email === row[0].email);
		expect(stored).toHaveLength(1);
	}, 60_000);

	it('matched by key or phone; another account does not reuse this one\'s slugs', async () => {
		const alice = new Harness(emailCredential(sandbox(), ALICE));
		const byKey = { matchBy: 'key', matchKey: '={{ $json.id }}' };
		const sheet: IDataObject[] = rows(2, 0, 'keyed').map((row, index) => ({ ...row, id: `R${index}` }));
		await runRows(alice, sheet, byKey);
		const changedMail = sheet.map((row) => ({ ...row, email: `new.${String(row.email)}` }));
		const again = await runRows(alice, changedMail, byKey);
		expect(count(again.writes, `POST ${CANDIDATE}`)).toBe(0);
		expect(count(again.writes, `PUT ${CANDIDATE}`)).toBe(2);
		// The same node's memory with Bob's credential (another account): his own candidates.
		alice.setCredential(emailCredential(sandbox(), BOB));
		const bob = await runRows(alice, changedMail, byKey);
		expect(count(bob.writes, `POST ${CANDIDATE}`)).toBe(2);
	}, 60_000);

	it('a row without the value it is matched by fails before anything is sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const { outputs, requests } = await runRows(harness, [{ email: '', phone: '+49 30 1' }]);
		expect(outputs[0].error).toMatch(/no Email to match it by/);
		expect(requests).toBe(0);
	});
});

describe('candidate.upsert: overlapping executions (n8n saves the static data of the one that ends last)', () => {
	it('over different rows: whichever saves last saves both executions\' rows; a re-run sends nothing', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const a = rows(20, 0, 'overlapA');
		const b = rows(20, 0, 'overlapB');
		await Promise.all([harness.run({ parameters: upsert(), items: a }), harness.run({ parameters: upsert(), items: b })]);
		// A restart: what is left is what n8n saved (the copy of the execution that ended last).
		forgetProcessMemory();
		const again = await runRows(harness, [...a, ...b]);
		expect(again.writes).toEqual([]);
		expect(again.outputs.filter((json) => json.action === 'unchanged')).toHaveLength(40);
		for (const row of [...a, ...b]) expect(sandbox().candidates(1).filter((candidate) => candidate.email === row.email)).toHaveLength(1);
	}, 60_000);

	it('over the same rows: each candidate created once; the other execution refuses the rows it did not create', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(20, 0, 'overlapSame');
		const results = await Promise.all([1, 2].map(async () => await harness.run({ parameters: upsert(), items: sheet, onError: 'continueRegularOutput' })));
		for (const row of sheet) expect(sandbox().candidates(1).filter((candidate) => candidate.email === row.email)).toHaveLength(1);
		const created = results.flatMap((result) => result.items.filter((item) => item.json.action === 'created'));
		expect(created).toHaveLength(20);
	}, 60_000);

	it('a run that changes nothing leaves the static data as it was (n8n then does not save it over another execution)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = rows(5, 0, 'readonly');
		await runRows(harness, sheet);
		// The next run removes the journal's claims of the saved rows (a change, once).
		await runRows(harness, sheet);
		const saved = JSON.stringify(harness.staticData);
		await runRows(harness, sheet);
		expect(JSON.stringify(harness.staticData)).toBe(saved);
	}, 60_000);
});

describe('candidate.upsert: a language name that matches nothing (issue 27, item 4)', () => {
	const klingon = (tag: string): IDataObject[] => [{ email: `${tag}@example.test`, first: 'Worf', city: 'Berlin', skills: 'SQL: 3', languages: 'Klingon: 3' }];
	const withLanguages = (options: IDataObject = {}): INodeParameters => ({
		languageList: '={{ $json.languages }}',
		options: { retryDelayMs: 1, concurrency: 10, ...options },
	});
	const stored = (email: unknown) => sandbox().candidates(1).filter((candidate) => candidate.email === email);

	it('Fail Item on Record Error: the item fails naming the record, the value and the closest languages; nothing is sent', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = klingon('klingon.fail');
		const { result, outputs, writes } = await runRows(harness, sheet, withLanguages({ failOnRecordError: true }));
		expect(outputs[0].error).toMatch(/^language 1 \("Klingon"\): "Language": no language is named "Klingon"\. Closest: "[^"]+" \(ID \d+\)/);
		// The row keeps its identity (issue 47, trap 9): the error's description is beside its partial result.
		expect(outputs[0]).toMatchObject({ action: 'failed', matchedBy: 'email', email: sheet[0].email });
		expect(String(outputs[0].errorDescription)).toContain('Nothing was sent');
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(writes).toEqual([]);
		expect(stored(sheet[0].email)).toEqual([]);
		// Nothing was created or claimed: the row with a language that exists is created on the next run.
		const fixed = await runRows(harness, [{ ...sheet[0], languages: 'English: 3' }], withLanguages({ failOnRecordError: true }));
		expect(fixed.outputs[0]).toMatchObject({ action: 'created', summary: { added: 2, failed: 0 } });
		expect(stored(sheet[0].email)).toHaveLength(1);
	}, 60_000);

	it('without the option: the candidate is created and the language reported failed (as Import does); the next run sends nothing and reports it again', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = klingon('klingon.report');
		const { outputs, writes } = await runRows(harness, sheet, withLanguages());
		expect(outputs[0]).toMatchObject({ action: 'partly created', summary: { records: 2, added: 1, failed: 1 } });
		expect(outputs[0].message).toMatch(/Failed: language 1 \("Klingon"\): "Language": no language is named "Klingon"\. Closest: /);
		expect(count(writes, `POST ${CANDIDATE}/language`)).toBe(0);
		expect(stored(sheet[0].email)).toHaveLength(1);
		const again = await runRows(harness, sheet, withLanguages());
		expect(again.writes).toEqual([]);
		expect(again.outputs[0]).toMatchObject({ slug: outputs[0].slug, action: 'failed', summary: { failed: 1 } });
	}, 60_000);
});
