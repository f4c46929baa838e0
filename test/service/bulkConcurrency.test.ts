/**
 * Bounded concurrency through n8n's engine against the sandbox over real HTTP: output order and
 * pairing equal to a sequential run while completions reorder, continue on fail, the
 * requests-per-second cap, and a cancelled execution that stops sending.
 */
import { sleep } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { tokenCredential, useSandbox } from '../helpers/sandbox';
import {
	CANDIDATE_PATH,
	candidateRows,
	createParameters,
	isSuccess,
	pairedIndexes,
	requestsTo,
	runNode,
	withoutSlug,
} from '../helpers/bulk';

const sandbox = useSandbox({}, { resetEachTest: true });

describe('output order and pairing do not depend on concurrency', () => {
	it('concurrency 1, 5 and 20 give the same output, in input order, while the service finishes requests out of order', async () => {
		const items = candidateRows(60, 'order', 7);
		const outputs: Array<{ json: unknown[]; paired: unknown[] }> = [];
		const storedOrder: string[][] = [];
		for (const concurrency of [1, 5, 20]) {
			await sandbox().reset();
			sandbox().setFaults({ latencyMs: 1, latencyJitterMs: 25, seed: concurrency });
			const harness = new Harness(tokenCredential(sandbox()));
			const result = await runNode(harness, createParameters({ concurrency, retryDelayMs: 1 }), items, {
				onError: 'continueRegularOutput',
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(items.length);
			outputs.push({ json: withoutSlug(result.items), paired: pairedIndexes(result.items) });
			storedOrder.push(sandbox().candidates(1).map((candidate) => candidate.email ?? ''));

			// Every success carries the slug of the candidate the service stored for that row.
			const slugByEmail = new Map(sandbox().candidates(1).map((candidate) => [candidate.email, candidate.slug]));
			result.items.forEach((item, index) => {
				if (items[index].email === '') {
					expect(item.json.error).toBe('"Email" or "Phone" is required: give at least one of them');
				} else {
					expect(isSuccess(item)).toBe(true);
					expect(item.json.slug).toBe(slugByEmail.get(items[index].email as string));
				}
			});
		}
		const expectedPaired = items.map((_, index) => index);
		for (const output of outputs) {
			expect(output.paired).toEqual(expectedPaired);
			expect(output.json).toEqual(outputs[0].json);
		}
		expect(outputs[0].json[0]).toEqual({ email: 'order-0@bulk.test', source: 'order-0' });
		const validEmails = items.filter((item) => item.email !== '').map((item) => item.email);
		// Sequential: stored in input order. Concurrent with jitter: the service finished them in another order.
		expect(storedOrder[0]).toEqual(validEmails);
		expect(storedOrder[2]).not.toEqual(validEmails);
		expect([...storedOrder[2]].sort()).toEqual([...validEmails].sort());
	});

	it('at most `concurrency` requests are in flight at once', async () => {
		sandbox().setFaults({ latencyMs: 30, seed: 3 });
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(40, 'inflight');
		const result = await runNode(harness, createParameters({ concurrency: 4 }), items);
		expect(result.items).toHaveLength(40);
		// With 30 ms per request and 4 in flight, arrivals come in waves of at most 4 within a few ms.
		const arrivals = requestsTo(sandbox().requests, CANDIDATE_PATH).map((request) => request.at);
		let maxInWindow = 0;
		for (let i = 0; i < arrivals.length; i++) {
			const inWindow = arrivals.filter((at) => at >= arrivals[i] && at < arrivals[i] + 20).length;
			maxInWindow = Math.max(maxInWindow, inWindow);
		}
		expect(maxInWindow).toBeLessThanOrEqual(4);
		expect(maxInWindow).toBeGreaterThanOrEqual(3);
	});

	it('without continue on fail the run stops with the first failing item by index, whatever the completion order', async () => {
		sandbox().setFaults({ latencyMs: 1, latencyJitterMs: 20, seed: 11 });
		const harness = new Harness(tokenCredential(sandbox()));
		// Items 12 and 30 are invalid; item 12 is the first by index.
		const items = candidateRows(40, 'stop');
		items[12] = { email: 'not-an-email', phone: '', source: 'x' };
		items[30] = { email: '', phone: '', source: 'y' };
		const result = await runNode(harness, createParameters({ concurrency: 10 }), items);
		expect(result.error).toBeDefined();
		expect(result.error?.message).toMatch(/email/i);
		expect((result.error as unknown as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(12);
		// Items after the failure are not all sent: the pool stops taking new items.
		expect(requestsTo(sandbox().requests, CANDIDATE_PATH).length).toBeLessThan(40);
	});
});

describe('continue on fail under concurrency', () => {
	it('a mix of service errors, validation errors and successes: one item per input, paired, in order', async () => {
		sandbox().setFaults({ latencyJitterMs: 15, errorRate: 0.3, seed: 5, paths: [CANDIDATE_PATH] });
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(80, 'mixed', 9);
		const result = await runNode(harness, createParameters({ concurrency: 8, maxRetries: 0 }), items, {
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(items.length);
		expect(pairedIndexes(result.items)).toEqual(items.map((_, index) => index));
		const successes = result.items.filter(isSuccess);
		const serviceFailures = result.items.filter((item) => /HTTP 50[03]/.test(String(item.json.error)));
		expect(serviceFailures.length).toBeGreaterThan(5);
		expect(successes.length + serviceFailures.length + items.filter((item) => item.email === '').length).toBe(items.length);
		// Each success is the row it is paired with.
		for (const item of successes) {
			const index = (item.pairedItem as { item: number }).item;
			expect(item.json.email).toBe(items[index].email);
		}
		expect(sandbox().counts.candidatesCreated).toBe(successes.length);
	});

	it('with the error output, successes and failures are split and each keeps its pairing', async () => {
		sandbox().setFaults({ latencyJitterMs: 10, seed: 6 });
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(30, 'split', 5);
		const result = await runNode(harness, createParameters({ concurrency: 6 }), items, { onError: 'continueErrorOutput' });
		const invalid = items.map((item, index) => (item.email === '' ? index : -1)).filter((index) => index >= 0);
		expect(pairedIndexes(result.errorItems)).toEqual(invalid);
		expect(pairedIndexes(result.items)).toEqual(items.map((_, index) => index).filter((index) => !invalid.includes(index)));
	});
});

describe('requests-per-second cap', () => {
	it('holds on the sandbox\'s arrival times, with concurrency well above the cap', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(30, 'rate');
		const rate = 40;
		const result = await runNode(harness, createParameters({ concurrency: 20, requestsPerSecond: rate }), items);
		expect(result.items).toHaveLength(30);
		const arrivals = requestsTo(sandbox().requests, CANDIDATE_PATH).map((request) => request.at).sort((a, b) => a - b);
		expect(arrivals).toHaveLength(30);
		// 30 requests at 40/s: starts are 25 ms apart, so the first and the last are ≥ 29 × 25 ms apart (5% tolerance).
		expect(arrivals[arrivals.length - 1] - arrivals[0]).toBeGreaterThanOrEqual(29 * (1000 / rate) * 0.95);
		// No 250 ms or 500 ms window holds more than its share of the rate, plus two for timer and
		// network jitter (a request that starts late lets the next one arrive a few ms after it).
		for (const windowMs of [250, 500]) {
			for (const start of arrivals) {
				const inWindow = arrivals.filter((at) => at >= start && at < start + windowMs).length;
				expect(inWindow).toBeLessThanOrEqual((rate * windowMs) / 1000 + 2);
			}
		}
	});

	it('without a cap the same run is much faster (the cap, not the sandbox, set the pace)', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(30, 'free');
		await runNode(harness, createParameters({ concurrency: 20 }), items);
		const arrivals = requestsTo(sandbox().requests, CANDIDATE_PATH).map((request) => request.at);
		// Faster than a cap of 40/s would ever allow (29 intervals of 25 ms).
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(29 * 25 * 0.95);
	});
});

describe('cancellation', () => {
	it('a cancelled execution stops sending promptly', async () => {
		sandbox().setFaults({ latencyMs: 20, seed: 9 });
		const harness = new Harness(tokenCredential(sandbox()));
		const items = candidateRows(300, 'cancel');
		let sentAtCancel = -1;
		const started = Date.now();
		const result = await runNode(harness, createParameters({ concurrency: 5 }), items, {
			onStart: (execution) => {
				void (async () => {
					while (sandbox().requests.length < 15 && Date.now() - started < 10000) await sleep(2);
					sentAtCancel = sandbox().requests.length;
					execution.cancel();
				})();
			},
		});
		await sleep(200);
		expect(sentAtCancel).toBeGreaterThanOrEqual(15);
		// At most the requests already in flight (concurrency) plus a few more reached the service.
		expect(sandbox().requests.length).toBeLessThanOrEqual(sentAtCancel + 10);
		expect(sandbox().requests.length).toBeLessThan(items.length / 5);
		expect(result.items.length).toBeLessThan(items.length);
	});
});
