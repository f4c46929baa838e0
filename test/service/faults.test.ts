/**
 * Transient service failures injected by the sandbox (503/500, dropped connections) during a
 * batch: with fast retries every valid row is stored exactly once, and what cannot be retried
 * safely (a 500 or a dropped connection on a creation) fails that row alone.
 */
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { Harness, outputs } from '../helpers/run';

const sandbox = useSandbox();

const rows = Array.from({ length: 12 }, (_, index) => ({ email: `fault${index}@example.test` }));
const create = (maxRetries: number) => ({
	resource: 'candidate',
	operation: 'create',
	email: '={{ $json.email }}',
	options: { retryDelayMs: 1, maxRetries, concurrency: 3 },
});

afterEach(() => sandbox().setFaults({}));

describe('injected faults on candidate creation', () => {
	it('500s and 503s without Retry-After on a creation are not repeated: each row stored at most once, the others say it may exist', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const before = sandbox().candidates(1).length;
		sandbox().setFaults({ errorRate: 0.4, seed: 7, paths: ['/gin/'] });
		const result = await harness.run({ parameters: create(10), items: rows, onError: 'continueRegularOutput' });
		const json = outputs(result);
		const failed = json.filter((entry) => entry.error !== undefined);
		// Neither a 500 nor a 503 without Retry-After proves that a POST was not processed: not repeated, those rows fail alone
		expect(failed.length).toBeGreaterThan(0);
		for (const entry of failed) expect(String(entry.error)).toMatch(/HTTP 500|HTTP 503.*may or may not have stored it/);
		expect(result.items.map((item) => item.pairedItem)).toEqual(rows.map((_, index) => ({ item: index })));
		const created = sandbox().candidates(1).slice(before);
		expect(created).toHaveLength(rows.length - failed.length);
		expect(new Set(created.map((candidate) => candidate.email)).size).toBe(created.length);
		expect(sandbox().counts.faults.error503).toBeGreaterThan(0);
		const okEmails = json.filter((entry) => !entry.error).map((entry) => entry.email);
		expect(created.map((candidate) => candidate.email).sort()).toEqual([...okEmails].sort());
	});

	it('reads survive dropped connections (retried)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		sandbox().setFaults({ dropRate: 0.5, seed: 3, paths: ['/v1/general/'] });
		for (let round = 0; round < 4; round++) {
			const result = await harness.run({ parameters: { resource: 'referenceList', operation: 'getJobTypes', options: { retryDelayMs: 1, maxRetries: 10 } } });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(12);
		}
		expect(sandbox().counts.faults.drop).toBeGreaterThan(0);
	});
});
