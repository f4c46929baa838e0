/**
 * Issue 47, trap 8, through n8n's engine against the sandbox: Candidate → Import speaks like
 * Create or Update. Every row leads with `action` (created, partly created, updated, partly
 * updated, unchanged, failed) and `error` (what did not go through); under "Continue (using error
 * output)" a row with a failed record goes to the error output, keeping its slug and records.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ImportBench } from '../helpers/importBench';

const bench = new ImportBench();

const row = (email: string, jobs: string): IDataObject => ({ email, jobs });
const importRows: INodeParameters = {
	email: '={{ $json.email }}',
	additionalFields: { firstName: 'Ada' },
	recordInput: 'lists',
	jobList: '={{ $json.jobs }}',
};
const GOOD_JOB = 'Globex AG | Dev | 2022-01-01';
const BAD_JOB = 'Acme GmbH | Dev | 2022-01-01 | 2021-01-01';

describe('issue 47, trap 8: Import has action and error columns', () => {
	it('a row that went through leads with action "created" and an empty error; a row with a failed record with "partly created" and the failure', async () => {
		const result = await bench.run(importRows, { items: [row('i47.ok@example.test', GOOD_JOB), row('i47.partly@example.test', `${GOOD_JOB}\n${BAD_JOB}`)] });
		expect(result.error).toBeUndefined();
		const [ok, partly] = result.items.map((item) => item.json);
		expect(Object.keys(ok).slice(0, 3)).toEqual(['action', 'error', 'slug']);
		expect(ok).toMatchObject({ action: 'created', error: '', created: true, summary: { records: 1, added: 1, failed: 0 } });
		expect(partly).toMatchObject({ action: 'partly created', created: true, summary: { records: 2, added: 1, failed: 1 } });
		expect(partly.error).toBe('job 2 ("Acme GmbH"): "End Date" must not be before the start date (start 01-01-2022, end 01-01-2021)');
	});

	it('with a given slug: "updated", "partly updated", and "failed" when nothing went through', async () => {
		const first = await bench.run(importRows, { items: [row('i47.slug@example.test', '')] });
		const slug = first.items[0].json.slug as string;
		const withSlug = { ...importRows, candidateSlug: '={{ $json.slug }}' };
		const result = await bench.run(withSlug, {
			items: [
				{ ...row('i47.slug@example.test', GOOD_JOB), slug },
				{ ...row('i47.slug@example.test', `${GOOD_JOB}\n${BAD_JOB}`), slug },
				{ ...row('i47.slug@example.test', BAD_JOB), slug: 'no-such-candidate' },
			],
		});
		expect(result.items.map((item) => item.json.action)).toEqual(['updated', 'partly updated', 'failed']);
		expect(result.items[2].json.error).toMatch(/^profile update: .*Candidate not found.*; job 1 \("Acme GmbH"\): "End Date"/);
	});

	it('a row that fails as a whole (no e-mail nor phone) says "failed" too', async () => {
		const result = await bench.run(importRows, { items: [row('', GOOD_JOB)], onError: 'continueRegularOutput' });
		expect(result.items[0].json).toMatchObject({ action: 'failed', error: '"Email" or "Phone" is required: give at least one of them' });
	});
});

describe('issue 47, trap 8: under "Continue (using error output)" a row with a failed record is on the error output', () => {
	it('the good row on the success output, the bad one on the error output with its slug, records and action', async () => {
		const result = await bench.run(importRows, {
			onError: 'continueErrorOutput',
			items: [row('i47.branch.ok@example.test', GOOD_JOB), row('i47.branch.bad@example.test', `${GOOD_JOB}\n${BAD_JOB}`)],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.action, item.json.email ?? item.pairedItem])).toEqual([['created', { item: 0 }]]);
		expect(result.errorItems).toHaveLength(1);
		const [bad] = result.errorItems;
		expect(bad.pairedItem).toEqual({ item: 1 });
		const error = bad.json.error as IDataObject;
		expect(error).toMatchObject({ action: 'partly created', created: true, summary: { records: 2, added: 1, failed: 1 } });
		expect(error.message).toMatch(/^Import incomplete: job 2 \("Acme GmbH"\): "End Date" must not be before the start date/);
		expect(error.errorDescription).toContain(`is kept (slug ${error.slug as string})`);
		expect((error.records as IDataObject[]).map((record) => record.ok)).toEqual([true, false]);
		// The candidate and its good job are in the service: the error item is where to find its slug.
		expect(bench.stored(error.slug).records.jobs.map((job) => job.company_name)).toEqual(['Globex AG']);
	});

	it('a row that fails as a whole goes there too, with action "failed"', async () => {
		const result = await bench.run(importRows, { onError: 'continueErrorOutput', items: [row('', GOOD_JOB)] });
		expect(result.items).toEqual([]);
		expect(result.errorItems[0].json.error).toMatchObject({ action: 'failed', message: '"Email" or "Phone" is required: give at least one of them' });
	});

	it('Stop Workflow (the default): a row with a failed record does not stop the run, as before', async () => {
		const result = await bench.run(importRows, { items: [row('i47.stop@example.test', `${GOOD_JOB}\n${BAD_JOB}`)] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.action).toBe('partly created');
	});
});
