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
import nock from 'nock';

import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const EMAIL = 'recruiter@example.test';
const PASSWORD = ['pass', 'word', '-48'].join('');

setUpNock();

const update = (concurrency: number) => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: '={{ $json.slug }}',
	updateFields: { city: 'Berlin' },
	options: { retryDelayMs: 1, concurrencyMode: 'fixed', concurrency },
});

describe('issue 48: logins bounded per run', () => {
	it.each([1, 5])('40 updates, 8 of another account\'s candidates (always 401), %i in flight: those 8 fail with the 401, the other 32 are done, at most 2 logins', async (concurrency) => {
		let issued = 0;
		const live = new Set<string>();
		const scope = nock(BASE)
			.persist()
			.post('/v1/login')
			.reply(() => {
				issued += 1;
				const token = `tok-${issued}`;
				live.add(token);
				return [200, { message: 'Signed in', status: 200, data: { id: 7, email: EMAIL, token } }];
			})
			.put(CANDIDATE)
			.reply(function (_uri, body) {
				const token = String(this.req.headers.authorization).replace(/^Bearer /, '');
				if (!live.has(token) || String((body as { user_slug?: string }).user_slug).startsWith('other-')) return [401, { message: 'Not authorized', status: 401 }];
				return [200, { message: 'Updated', status: 200 }];
			});
		const items = Array.from({ length: 40 }, (_, index) => ({ slug: index % 5 === 2 ? `other-${index}` : `slug-${index}` }));
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD }).run({ parameters: update(concurrency), items, onError: 'continueRegularOutput' });
		scope.persist(false);
		expect(result.error).toBeUndefined();
		const failed = result.items.filter((item) => item.json.error !== undefined);
		expect(failed.map((item) => item.pairedItem)).toEqual(items.flatMap((item, index) => (item.slug.startsWith('other-') ? [{ item: index }] : [])));
		for (const item of failed) expect(JSON.stringify(item.json)).toContain('401');
		// In flight together, the others sent after a refused one tell that the session works: the first login and at most one more.
		// One at a time nothing tells it: each refused row may log in once more, at most six logins in the run (before: 9).
		expect(issued).toBeLessThanOrEqual(concurrency === 1 ? 6 : 2);
	});

	it('the session ends after 10 updates and the next 5 logins are answered 429 (Retry-After: 0): the login waits and tries again, every row is done', async () => {
		let issued = 0;
		let refusedLogins = 0;
		let served = 0;
		const live = new Set<string>();
		const scope = nock(BASE)
			.persist()
			.post('/v1/login')
			.reply(() => {
				if (issued === 1 && refusedLogins < 5) {
					refusedLogins += 1;
					return [429, { message: 'Too many logins', status: 429 }, { 'Retry-After': '0' }];
				}
				issued += 1;
				const token = `tok-${issued}`;
				live.add(token);
				return [200, { message: 'Signed in', status: 200, data: { id: 7, email: EMAIL, token } }];
			})
			.put(CANDIDATE)
			.reply(function () {
				const token = String(this.req.headers.authorization).replace(/^Bearer /, '');
				if (!live.has(token)) return [401, { message: 'Not authorized', status: 401 }];
				served += 1;
				// The session ends after 10 updates (a token lifetime).
				if (served === 10) live.clear();
				return [200, { message: 'Updated', status: 200 }];
			});
		const items = Array.from({ length: 32 }, (_, index) => ({ slug: `slug-${index}` }));
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: EMAIL, password: PASSWORD }).run({ parameters: update(1), items, onError: 'continueRegularOutput' });
		scope.persist(false);
		expect(result.error).toBeUndefined();
		expect(result.items.filter((item) => item.json.error !== undefined)).toEqual([]);
		expect(refusedLogins).toBe(5);
		expect(issued).toBe(2);
	});
});
