/**
 * Create or Update, issue 31 §3 (the defects an independent review reproduced) and issue 34's
 * output, through n8n's engine against nock where the wire answers must be exact (a creation in
 * flight while another row stops the run). Each defect test failed on the code before its fix.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { upsertParameters } from '../helpers/upsert';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const created = (slug: string) => ({ message: 'Created', status: '201', data: { slug } });
const ok = { message: 'Success', status: 200 };
const credential: ICredentialDataDecryptedObject = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'tok-sync-review' };

const upsert = (extra: INodeParameters = {}): INodeParameters =>
	upsertParameters({ options: { retryDelayMs: 1, maxRetries: 1, concurrency: 4 }, ...extra }, { city: '={{ $json.city }}' });

const outputs = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);

setUpNock();

describe('defect 1: a profile update cut off by Stop Workflow is not remembered as sent', () => {
	it('the row created while another row stopped the run gets its profile update next run', async () => {
		const harness = new Harness(credential);
		const rowA = { email: 'cut.a@example.test', city: 'Berlin' };
		const rowB = { email: 'cut.b@example.test', city: 'Berlin' };
		// A's creation is answered after B failed and stopped the run: A's update is then never sent.
		nock(BASE)
			.post(CANDIDATE, (body: IDataObject) => body.email === rowA.email)
			.delay(300)
			.reply(201, created('slug-cut-a'))
			.post(CANDIDATE, (body: IDataObject) => body.email === rowB.email)
			.delay(50)
			.reply(400, { message: 'invalid', status: 400 });
		const first = await harness.run({ parameters: upsert(), items: [rowA, rowB] });
		expect(first.error).toBeDefined();
		expect(String(first.error?.description)).toMatch(/slug-cut-a/);
		const puts: IDataObject[] = [];
		nock(BASE)
			.put(CANDIDATE, (body: IDataObject) => puts.push(body) > 0)
			.reply(200, ok);
		const second = await harness.run({ parameters: upsert(), items: [rowA], onError: 'continueRegularOutput' });
		expect(puts).toEqual([{ user_slug: 'slug-cut-a', email: rowA.email, city: 'Berlin' }]);
		expect(outputs(second)[0]).toMatchObject({ slug: 'slug-cut-a', action: 'updated', profileUpdated: true });
	});
});
