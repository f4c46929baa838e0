/**
 * Issue 39, traps 4 and 7, against the sandbox over real HTTP through n8n's engine: Create or
 * Update's `action` tells what really happened (a row that only partly went through is not
 * `unchanged` or plain `created`), its `error` leads the row, and the output says which profile
 * fields an update changed and when a changed record was added as a second one. Each failed on
 * the code before issue 39.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox, writesSince } from '../helpers/sandbox';

const sandbox = useSandbox();
const CANDIDATE = '/gin/v1/company/candidate';

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters({ languageList: '={{ $json.languages }}', ...extra });

async function runRows(harness: Harness, items: IDataObject[], extra: INodeParameters = {}) {
	const from = sandbox().requests.length;
	const result = await harness.run({ parameters: upsert(extra), items, onError: 'continueRegularOutput' });
	return { result, outputs: result.items.map((item) => item.json), writes: writesSince(sandbox(), from) };
}

const stored = (email: unknown) => sandbox().candidates(1).filter((candidate) => candidate.email === email);

describe('issue 39 trap 4: action tells the truth, the error leads the row', () => {
	it('a wrong password with On Error → Continue: a changed known row is "failed" (not "unchanged"), a new row "failed" with its identity', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const known = { email: 'wrong.password@example.test', first: 'Ada', city: 'Berlin', skills: 'SQL: 3' };
		expect((await runRows(harness, [known])).outputs[0].action).toBe('created');
		harness.setCredential(emailCredential(sandbox(), ALICE, { password: 'not-the-password' }));
		const { outputs, writes } = await runRows(harness, [{ ...known, city: 'Hamburg' }, { email: 'new.row@example.test', city: 'Bonn' }]);
		expect(writes).toEqual([]);
		const [changed, fresh] = outputs;
		expect(Object.keys(changed).slice(0, 4)).toEqual(['action', 'matchedBy', 'email', 'error']);
		expect(changed).toMatchObject({ action: 'failed', matchedBy: 'email', email: known.email, profileUpdated: false });
		expect(changed.error).toMatch(/^profile update: .*(401|Login failed)/);
		expect(changed.message).toMatch(/^Not updated: candidate /);
		// The new row failed as a whole: its error item keeps the row's identity and says "failed".
		expect(fresh).toMatchObject({ action: 'failed', matchedBy: 'email', email: 'new.row@example.test' });
		expect(String(fresh.error)).toMatch(/401|Login failed/);
		// With the right password the change is sent: it was never remembered as sent.
		harness.setCredential(emailCredential(sandbox(), ALICE));
		const again = await runRows(harness, [{ ...known, city: 'Hamburg' }]);
		// The failed update left no print of what the service holds: the fields the update carries are listed.
		expect(again.outputs[0]).toMatchObject({ action: 'updated', error: '', updatedFields: ['email', 'firstName', 'city'] });
	}, 60_000);

	it('a typo\'d language on a new row: "partly created", the error in the fourth column', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'typo.language@example.test', city: 'Berlin', skills: 'SQL: 3', languages: 'Englsh: 4' };
		const { outputs } = await runRows(harness, [row]);
		expect(Object.keys(outputs[0]).slice(0, 4)).toEqual(['action', 'matchedBy', 'email', 'error']);
		expect(outputs[0]).toMatchObject({ action: 'partly created', created: true, summary: { records: 2, added: 1, failed: 1 } });
		expect(outputs[0].error).toMatch(/^language 1 \("Englsh"\): "Language": no language is named "Englsh"\. Closest: "English \/ Englisch" \(ID 26\)/);
		expect(outputs[0].message).toMatch(/^Created candidate [^,]+, not everything went through: /);
		expect(stored(row.email)).toHaveLength(1);
	}, 60_000);
});

describe('issue 39 trap 7: a changed record is added as a second one, and the output says so', () => {
	it('German level 2 → 3: the service holds German twice, and the row says it was added as a second record', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const row = { email: 'german.level@example.test', first: 'Ada', city: 'Berlin', languages: 'German: 2' };
		const first = await runRows(harness, [row]);
		expect(first.outputs[0].action).toBe('created');
		const { outputs, writes } = await runRows(harness, [{ ...row, city: 'Hamburg', languages: 'German: 3' }]);
		expect(writes).toEqual([`PUT ${CANDIDATE}`, `POST ${CANDIDATE}/language`]);
		expect(outputs[0]).toMatchObject({ action: 'updated', error: '', updatedFields: ['city'], secondRecords: ['language "German" level 2 → 3'] });
		expect(outputs[0].message).toMatch(/^Updated candidate [^:]+: profile updated \(City\), 1 of 1 new record added/);
		expect(outputs[0].message).toContain(
			'language "German" level 2 → 3 was added as a second record: the service cannot change or remove records, the one sent before stays',
		);
		expect(stored(row.email)[0].records.languages).toHaveLength(2);
		// A new language beside the others is no second record.
		const added = await runRows(harness, [{ ...row, city: 'Hamburg', languages: 'German: 3; English: 4' }]);
		expect(added.outputs[0]).toMatchObject({ action: 'updated' });
		expect(added.outputs[0]).not.toHaveProperty('secondRecords');
	}, 60_000);
});
