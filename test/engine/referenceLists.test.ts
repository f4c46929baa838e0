import nock from 'nock';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';

const jobTypes = [
	{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
	{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
];

setUpNock();

describe('reference lists through the engine', () => {
	it('reads job types with an access token: exact request (without the credential: the description calls the lists "without any credential"), one item per entry', async () => {
		const harness = new Harness({ baseUrl: `${BASE}/`, authentication: 'accessToken', accessToken: 'tok-123456' });
		const scope = nock(BASE, { reqheaders: { accept: 'application/json' }, badheaders: ['authorization'] })
			.get('/v1/general/job-types')
			.reply(200, { message: 'ok', status: 200, data: jobTypes });
		const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes' } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(jobTypes);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		scope.done();
	});
});
