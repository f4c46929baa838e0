/**
 * Issue 48: logins bounded per run, through n8n's engine against nock. Each failed on the code
 * before the fix:
 * - 8 of 40 updates are of another account's candidates (the service always answers them 401):
 *   each refused request's first 401 logged in again although the session had just served
 *   requests sent after it (9 logins for 8 refused rows). A 401 on a session that served a
 *   request sent after this one is the request's own answer: its item fails, nobody logs in.
 * - A login the service refuses for rate limiting (429) more often than Max Retries: it was final
 *   for the run and every later row failed with "Login failed: the service is rate limiting
 *   logins". It now waits and tries again within twice the bound of one wait.
 */
import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';
import { sessionService, updateParameters as update } from '../helpers/transportLogin';

const BASE = 'https://recruiting.example.test';
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pass', 'word', '-48'].join('');

setUpNock();

describe('issue 48: logins bounded per run', () => {
	it.each([1, 5])('40 updates, 8 of another account\'s candidates (always 401), %i in flight: those 8 fail with the 401, the other 32 are done, at most 2 logins (one at a time: 3)', async (concurrency) => {
		const service = sessionService(BASE, EMAIL, { refused: (slug) => slug.startsWith('other-') });
		const items = Array.from({ length: 40 }, (_, index) => ({ slug: index % 5 === 2 ? `other-${index}` : `slug-${index}` }));
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD }).run({ parameters: update(concurrency), items, onError: 'continueRegularOutput' });
		service.done();
		expect(result.error).toBeUndefined();
		const failed = result.items.filter((item) => item.json.error !== undefined);
		expect(failed.map((item) => item.pairedItem)).toEqual(items.flatMap((item, index) => (item.slug.startsWith('other-') ? [{ item: index }] : [])));
		for (const item of failed) expect(JSON.stringify(item.json)).toContain('401');
		// In flight together, the requests sent after a refused one tell that the session works: the first login and at most one more.
		// One at a time nothing tells it: two refused rows may log in once more each, then a lone 401 is the row's own (before: 9).
		expect(service.issued).toBeLessThanOrEqual(concurrency === 1 ? 3 : 2);
	});

	it('the session ends after 10 updates and the next 5 logins are answered 429 (Retry-After: 0): the login waits and tries again, every row is done', async () => {
		let refusedLogins = 0;
		const service = sessionService(BASE, EMAIL, {
			login: (issued) => {
				if (issued !== 1 || refusedLogins === 5) return undefined;
				refusedLogins += 1;
				return [429, { message: 'Too many logins', status: 429 }, { 'Retry-After': '0' }];
			},
			// The session ends after 10 updates (a token lifetime).
			afterServed: (served, self) => served === 10 && self.kill(),
		});
		const items = Array.from({ length: 32 }, (_, index) => ({ slug: `slug-${index}` }));
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD }).run({ parameters: update(1), items, onError: 'continueRegularOutput' });
		service.done();
		expect(result.error).toBeUndefined();
		expect(result.items.filter((item) => item.json.error !== undefined)).toEqual([]);
		expect(refusedLogins).toBe(5);
		expect(service.issued).toBe(2);
	});
});
