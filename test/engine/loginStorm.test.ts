/**
 * Issue 40, review defect 2: a login storm on one refused request. One request that the service
 * always answers 401 (an Update of a candidate another account owns) while every other request
 * of the run succeeds with the session: before, each other item's success reset the count of
 * fruitless logins and the refused request logged in again after each one (21 logins for 40
 * items). Logins are now bounded per request: a request refused again after a fresh login fails
 * its item with the service's answer and the run goes on with the session it has.
 */
import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { sessionService } from '../helpers/transportLogin';

const BASE = 'https://recruiting.example.test';
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pass', 'word', '-40'].join('');

setUpNock();

describe('issue 40, review defect 2: one request the service keeps refusing', () => {
	it.each([1, 5])('40 updates, one of a slug the service always answers 401, %i in flight: one login for it at most, its item fails with the 401, the other 39 are done', async (concurrency) => {
		const service = sessionService(BASE, EMAIL, { refused: (slug) => slug === 'of-another-account' });
		const harness = new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD });
		const items = Array.from({ length: 40 }, (_, index) => ({ slug: index === 3 ? 'of-another-account' : `slug-${index}` }));
		const result = await harness.run({
			parameters: {
				resource: 'candidate',
				operation: 'update',
				candidateSlug: '={{ $json.slug }}',
				updateFields: { city: 'Berlin' },
				options: { retryDelayMs: 1, concurrencyMode: 'fixed', concurrency },
			},
			items,
			onError: 'continueRegularOutput',
		});
		service.done();
		expect(result.error).toBeUndefined();
		const failed = result.items.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 3 });
		expect(JSON.stringify(failed[0].json)).toContain('401');
		expect(result.items).toHaveLength(40);
		// The first login, and at most one more for the refused request (before: 21 for 40 items).
		expect(service.issued).toBeLessThanOrEqual(2);
	});
});
