/**
 * Issue 47, item 3 ("trouble shows where n8n users look"), through n8n's engine against the
 * sandbox: a production execution of Import or Create or Update with failed, partly done, held or
 * refused rows gets an execution hint saying how many and what to do, and the node records its
 * counts in n8n's execution custom data (what the executions list filters on). A manual run gets
 * neither (the user sees its output). Also: the run's error descriptions carry no "\n\n".
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import type { RunOptions } from '../helpers/harness';
import { CREATE_IN_MANUAL_RUNS, upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const importRows: INodeParameters = {
	resource: 'candidate',
	operation: 'import',
	email: '={{ $json.email }}',
	additionalFields: {},
	recordInput: 'lists',
	jobList: '={{ $json.jobs }}',
	options: { retryDelayMs: 1 },
};
const GOOD_JOB = 'Globex AG | Dev | 2022-01-01';
const BAD_JOB = 'Acme GmbH | Dev | 2022-01-01 | 2021-01-01';

async function run(options: Omit<RunOptions, 'onError'> & { onError?: RunOptions['onError'] }) {
	const harness = new Harness(emailCredential(sandbox(), ALICE));
	const result = await harness.run({ onError: 'continueRegularOutput', ...options });
	const hints = (result.run.data.resultData.runData.Recruiting[0].hints ?? []).map((hint) => hint.message);
	return { result, hints, customData: result.run.data.resultData.metadata ?? {} };
}

beforeEach(() => forgetProcessMemory());

describe('issue 47, item 3: a production execution with trouble says so (execution hint, custom data)', () => {
	const mixed: IDataObject[] = [
		{ email: 'i47s.ok1@example.test', jobs: GOOD_JOB },
		{ email: 'i47s.ok2@example.test', jobs: GOOD_JOB },
		{ email: 'i47s.partly@example.test', jobs: `${GOOD_JOB}\n${BAD_JOB}` },
		{ email: '', jobs: GOOD_JOB },
	];

	it('Import under Continue: a hint with the counts and what to do, and the counts in custom data', async () => {
		const { hints, customData } = await run({ parameters: importRows, items: mixed });
		expect(customData).toEqual({ created: '2', partly: '1', failed: '1' });
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatch(/^Import: 2 of 4 rows did not fully go through \(1 partly done, 1 failed\)/);
		expect(hints[0]).toMatch(/"action"/);
		expect(hints[0]).toMatch(/Candidate Slug/);
	});

	it('a production execution where everything went through: counts, no hint', async () => {
		const { hints, customData } = await run({ parameters: importRows, items: mixed.slice(0, 2) });
		expect(customData).toEqual({ created: '2' });
		expect(hints).toEqual([]);
	});

	it('a manual run: no hint and no custom data (its output is in front of the user)', async () => {
		const { hints, customData } = await run({ parameters: importRows, items: mixed, manual: true });
		expect(customData).toEqual({});
		expect(hints).toEqual([]);
	});

	it('Create or Update: refused rows are counted as refused and the hint says to adopt their slugs', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = [0, 1, 2].map((index) => ({ email: `i47s.refused.${index}@example.test`, first: `F${index}`, skills: 'SQL: 3' }));
		const byHand = await harness.run({ parameters: upsertParameters(CREATE_IN_MANUAL_RUNS, { firstName: '={{ $json.first }}' }), items: sheet.slice(0, 2), manual: true, onError: 'continueRegularOutput' });
		expect(byHand.items.map((item) => item.json.action)).toEqual(['created', 'created']);
		forgetProcessMemory();
		// Changed since the run by hand (unchanged rows are known anywhere: issue 46): they need their slugs.
		const changed = sheet.map((row, index) => (index < 2 ? { ...row, first: `${row.first}-changed` } : row));
		const live = await harness.run({ parameters: upsertParameters({}, { firstName: '={{ $json.first }}' }), items: changed, onError: 'continueRegularOutput' });
		expect(live.items.map((item) => item.json.action)).toEqual(['failed', 'failed', 'created']);
		expect(live.run.data.resultData.metadata).toEqual({ created: '1', refused: '2' });
		const hints = (live.run.data.resultData.runData.Recruiting[0].hints ?? []).map((hint) => hint.message);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatch(/^Create or Update: 2 of 3 rows did not fully go through \(2 refused\)/);
		expect(hints[0]).toMatch(/Adopt Given Slugs/);
	});

	it('Create or Update: a creation that got no clear answer is counted as held, and the hint says so', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		// The service stores the candidate, then answers 503: the node cannot tell, holds the row and never sends it again by itself.
		sandbox().setFaults({ afterWorkErrorRate: 1, paths: ['/gin/v1/company/candidate'], seed: 3 });
		try {
			const live = await harness.run({ parameters: upsertParameters({ options: { retryDelayMs: 1 } }, { firstName: '={{ $json.first }}' }), items: [{ email: 'i47s.held@example.test', first: 'H', skills: 'SQL: 3' }], onError: 'continueRegularOutput' });
			expect(live.items.map((item) => item.json.action)).toEqual(['failed']);
			expect(live.run.data.resultData.metadata).toEqual({ held: '1' });
			const hints = (live.run.data.resultData.runData.Recruiting[0].hints ?? []).map((hint) => hint.message);
			expect(hints).toHaveLength(1);
			expect(hints[0]).toMatch(/^Create or Update: 1 of 1 row did not fully go through \(1 held \(outcome unknown or not sent\)\).*Held rows may or may not be in the service/);
		} finally {
			sandbox().setFaults({});
		}
	});

	it('Create or Update: rows that are all unchanged on a re-run are counted, with no hint', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const sheet = [{ email: 'i47s.same@example.test', first: 'S', skills: 'SQL: 3' }];
		await harness.run({ parameters: upsertParameters({}, { firstName: '={{ $json.first }}' }), items: sheet });
		const again = await harness.run({ parameters: upsertParameters({}, { firstName: '={{ $json.first }}' }), items: sheet });
		expect(again.items[0].json.action).toBe('unchanged');
		expect(again.run.data.resultData.metadata).toEqual({ unchanged: '1' });
		expect(again.run.data.resultData.runData.Recruiting[0].hints ?? []).toEqual([]);
	});
});

describe('issue 47, small: error descriptions carry no "\\n\\n" (shown literally in the editor)', () => {
	it('a stopped run naming the other failing rows joins its parts with spaces', async () => {
		const result = await run({ parameters: importRows, items: [{ email: '', jobs: '' }, { email: '', jobs: '' }], onError: 'stopWorkflow' });
		const parameters = upsertParameters({}, {});
		const stopped = await run({ parameters, items: [{ email: '' }, { email: '' }, { email: '' }], onError: 'stopWorkflow' });
		for (const { result: each } of [result, stopped]) {
			expect(each.error).toBeDefined();
			expect(String(each.error?.description ?? '')).not.toMatch(/\n/);
		}
		expect(String(stopped.result.error?.description)).toMatch(/Also failing/);
	});
});
