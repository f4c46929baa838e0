/**
 * Fault injection: 1,000 candidates created against the sandbox while it answers 10% 5xx,
 * 5% 429 with Retry-After, drops 2% of connections and ends the session once mid-run; then
 * the created candidates are updated and get a job under the same faults. Every item is
 * accounted for, nothing is created twice by a retried POST, at most one login per expiry.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { emailCredential, useSandbox } from '../helpers/sandbox';
import type { FaultConfig } from '../sandbox/server';
import {
	CANDIDATE_PATH,
	candidateRows,
	createParameters,
	isSuccess,
	pairedIndexes,
	requestsTo,
	runNode,
} from '../helpers/bulk';

const sandbox = useSandbox();

const faults = (seed: number, expireAfter: number): FaultConfig => ({
	errorRate: 0.1,
	rateLimitRate: 0.05,
	// Retry-After: 0 means "again now": the transport honours it (waits 0 ms) instead of its backoff.
	retryAfterSeconds: 0,
	dropRate: 0.02,
	expireTokensAfterRequests: expireAfter,
	latencyJitterMs: 3,
	seed,
});

const requestOptions = { concurrency: 10, maxRetries: 3, retryDelayMs: 2 };

/** Every output item is one input item's: one per input, in order, failures with a node error naming that item. */
function expectAccountedFor(items: INodeExecutionData[], inputCount: number) {
	expect(items).toHaveLength(inputCount);
	expect(pairedIndexes(items)).toEqual(Array.from({ length: inputCount }, (_, index) => index));
	items.forEach((item, index) => {
		if (isSuccess(item)) return;
		expect(typeof item.json.error).toBe('string');
		expect(item.error instanceof NodeApiError || item.error instanceof NodeOperationError).toBe(true);
		expect((item.error as NodeApiError).context.itemIndex).toBe(index);
		expect(String(item.json.error)).not.toMatch(/Cannot read properties|is not a function|undefined/);
	});
}

function failureKinds(items: INodeExecutionData[]): Record<string, number> {
	const kinds: Record<string, number> = {};
	for (const item of items.filter((entry) => !isSuccess(entry))) {
		const text = String(item.json.error);
		const kind = /HTTP 500/.test(text)
			? '500'
			: /HTTP 503/.test(text)
				? '503'
				: /HTTP 429/.test(text)
					? '429'
					: /connection .* broke/.test(text)
						? 'drop'
						: text;
		kinds[kind] = (kinds[kind] ?? 0) + 1;
	}
	return kinds;
}

describe('1,000 items under injected faults', () => {
	it('create, then update and add a job: every item accounted for, no duplicate, one login per expiry', async () => {
		sandbox().setFaults(faults(42, 400));
		const harness = new Harness(emailCredential(sandbox()));
		const rows = candidateRows(1000, 'fault');

		// 1. Create 1,000 candidates.
		const created = await runNode(harness, createParameters(requestOptions), rows, { onError: 'continueRegularOutput' });
		expect(created.error).toBeUndefined();
		expectAccountedFor(created.items, 1000);
		const successes = created.items.filter(isSuccess);
		// POSTs the service may have processed (500, dropped) are not repeated: exactly the successes were stored.
		expect(sandbox().counts.candidatesCreated).toBe(successes.length);
		const stored = sandbox().candidates(1);
		expect(stored).toHaveLength(successes.length);
		expect(new Set(stored.map((candidate) => candidate.email)).size).toBe(stored.length);
		// Each success is the candidate stored for its row.
		const slugByEmail = new Map(stored.map((candidate) => [candidate.email, candidate.slug]));
		for (const item of successes) {
			const index = (item.pairedItem as { item: number }).item;
			expect(item.json.slug).toBe(slugByEmail.get(rows[index].email as string));
		}
		// The faults really happened, and 429/503 were retried away for most items.
		const counts = { ...sandbox().counts.faults };
		expect(counts.error500).toBeGreaterThan(20);
		expect(counts.error503).toBeGreaterThan(20);
		expect(counts.rateLimit).toBeGreaterThan(20);
		expect(counts.drop).toBeGreaterThan(5);
		expect(counts.tokenExpiry).toBe(1);
		const kinds = failureKinds(created.items);
		expect(Object.keys(kinds).sort()).toEqual(expect.arrayContaining(['500', 'drop']));
		expect(kinds['500'] + kinds.drop).toBe(1000 - successes.length - (kinds['503'] ?? 0) - (kinds['429'] ?? 0));
		expect(successes.length).toBeGreaterThan(850);
		expect(sandbox().counts.logins).toBeLessThanOrEqual(1 + counts.tokenExpiry);
		expect(harness.credentials.events.logins).toBe(sandbox().counts.logins);

		// 2. Update every created candidate (PUT: 502/504/drops may be retried too) and add a job to each (POST).
		const slugs: IDataObject[] = successes.map((item) => ({ slug: item.json.slug, city: `City ${String(item.json.email)}` }));
		sandbox().clearRequests();
		sandbox().setFaults(faults(7, 300));
		const loginsBefore = sandbox().counts.logins;
		const expiriesBefore = sandbox().counts.faults.tokenExpiry;
		const updated = await runNode(
			harness,
			{
				resource: 'candidate',
				operation: 'update',
				candidateSlug: '={{ $json.slug }}',
				updateFields: { city: '={{ $json.city }}' },
				// 17% of attempts meet a fault: with 3 retries about one item in a run would still
				// end on its 4th fault; with 6, seven faults in a row (p ≈ 4e-6 per item) do not happen.
				options: { ...requestOptions, maxRetries: 6 },
			},
			slugs,
			{ onError: 'continueRegularOutput' },
		);
		expectAccountedFor(updated.items, slugs.length);
		// Drops on a PUT are retried: only 5xx the retries could not clear remain.
		const updateKinds = failureKinds(updated.items);
		expect(updateKinds.drop ?? 0).toBe(0);
		const updatedOk = updated.items.filter(isSuccess);
		const byslug = new Map(sandbox().candidates(1).map((candidate) => [candidate.slug, candidate]));
		for (const item of updatedOk) {
			expect(byslug.get(item.json.slug as string)?.city).toBe(item.json.city);
		}

		const recordsBefore = sandbox().counts.recordsCreated;
		const jobs = await runNode(
			harness,
			{
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				companyName: 'Acme',
				startDate: '2020-01-15',
				additionalFields: { jobTypeId: 'Working student' },
				options: requestOptions,
			},
			slugs,
			{ onError: 'continueRegularOutput' },
		);
		expectAccountedFor(jobs.items, slugs.length);
		const jobsOk = jobs.items.filter(isSuccess);
		expect(sandbox().counts.recordsCreated - recordsBefore).toBe(jobsOk.length);
		const jobCount = sandbox().candidates(1).reduce((sum, candidate) => sum + candidate.records.jobs.length, 0);
		expect(jobCount).toBe(jobsOk.length);
		// One job-types list request for the whole execution (the name is resolved once), retried through faults if need be.
		expect(requestsTo(sandbox().requests, '/v1/general/job-types').filter((request) => request.status === 200)).toHaveLength(1);
		// The session ended once more during the update and job runs: one more login at most.
		expect(sandbox().counts.faults.tokenExpiry - expiriesBefore).toBe(1);
		expect(sandbox().counts.logins - loginsBefore).toBeLessThanOrEqual(1);
		expect(harness.credentials.events.logins).toBe(sandbox().counts.logins);
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH, 'PUT').length).toBeGreaterThanOrEqual(slugs.length);
	}, 180000);
});
