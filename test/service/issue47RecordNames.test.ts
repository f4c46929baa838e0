/**
 * Issue 47, trap 9, through n8n's engine against the sandbox: a Create or Update row that fails
 * for an unknown language, job type or degree with Fail Item on Record Error on keeps
 * `action: failed`, `matchedBy` and its e-mail in its error item, as a row with an impossible
 * birthday in the same run does (the README: every row leads with them).
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const parameters = upsertParameters(
	{
		languageList: '={{ $json.languages }}',
		jobList: '={{ $json.jobs }}',
		universityList: '={{ $json.studies }}',
		options: { retryDelayMs: 1, failOnRecordError: true },
	},
	{ firstName: '={{ $json.first }}', birthday: '={{ $json.birthday }}' },
);
const rows: IDataObject[] = [
	{ email: 'i47n.birthday@example.test', first: 'B', birthday: '1990-02-31', skills: '', languages: '', jobs: '', studies: '' },
	{ email: 'i47n.language@example.test', first: 'L', birthday: '', skills: '', languages: 'Klingon: 3', jobs: '', studies: '' },
	{ email: 'i47n.jobtype@example.test', first: 'J', birthday: '', skills: '', languages: '', jobs: 'Acme | Dev | 2020-01-01 | | Astronaut', studies: '' },
	{ email: 'i47n.degree@example.test', first: 'D', birthday: '', skills: '', languages: '', jobs: '', studies: 'TU | CS | 2016-10-01 | | Wizard' },
];

beforeEach(() => forgetProcessMemory());

describe('issue 47, trap 9: a row failing on a name keeps action, matchedBy and its e-mail', () => {
	it('regular output (Continue): every failing row leads with action failed, matchedBy and email', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const created = sandbox().counts.candidatesCreated;
		const result = await harness.run({ parameters, items: rows, onError: 'continueRegularOutput' });
		expect(result.items.map((item) => [item.json.action, item.json.matchedBy, item.json.email])).toEqual(rows.map((row) => ['failed', 'email', row.email]));
		expect(String(result.items[1].json.error)).toMatch(/no language is named "Klingon"/);
		expect(String(result.items[2].json.error)).toMatch(/Astronaut/);
		expect(String(result.items[3].json.error)).toMatch(/Wizard/);
		expect(sandbox().counts.candidatesCreated).toBe(created);
	});

	it('error output: the same fields inside the error', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const result = await harness.run({ parameters, items: rows.slice(1, 2), onError: 'continueErrorOutput' });
		expect(result.errorItems[0].json.error).toMatchObject({ action: 'failed', matchedBy: 'email', email: 'i47n.language@example.test' });
	});
});
