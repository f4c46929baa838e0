/**
 * Rows prepared ahead while n8n's store is slow (calls of `LAZY_FROM_MS`, 300 ms, and more: rows are asked in batches).
 * A row prepared ahead is claimed in the store, and a worker killed in the middle of a run leaves those claims: the rows are
 * refused ("may already exist") and never created (docs/sync-memory.md). Until 2026-12-02 an execution then prepared the
 * most the store allowed (`Contest.ahead`: about 385 rows at 350 ms a call, up to 2,000), whatever its pace: on a busy
 * machine a killed worker left 760 rows never created (`npm run queue`, sync-kill). Now it prepares its pace's rows and a
 * batch (contest.ts `window`), through n8n's engine against the sandbox, with the engine's in-memory store made slow.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Contest } from '../../nodes/Recruiting/memory/contest';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { count, sampleUnsent, sheetRows as rows, tag, timed } from '../helpers/claimsAhead';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { print } from '../sim/host';

const sandbox = useSandbox();

const ONE: INodeParameters = { options: { retryDelayMs: 1, concurrency: 1 } };

/** The windows the journal gave while `work` ran (rows, and the most it allowed then). */
async function windows<T>(work: () => Promise<T>): Promise<{ result: T; seen: Array<{ window: number; most: number; lazy: boolean }> }> {
	const seen: Array<{ window: number; most: number; lazy: boolean }> = [];
	const original = Contest.prototype.window;
	const spy = jest.spyOn(Contest.prototype, 'window').mockImplementation(function (this: Contest, paced: number, held: number) {
		const window = original.call(this, paced, held);
		seen.push({ window, most: this.ahead, lazy: this.lazy });
		return window;
	});
	try {
		return { result: await work(), seen };
	} finally {
		spy.mockRestore();
	}
}

beforeEach(() => forgetProcessMemory());
afterEach(() => sandbox().setFaults({}));

describe('rows prepared ahead while the store is slow (asked in batches)', () => {
	it('200 new rows, one at a time at 60 ms a request, the store 350 ms a call: the rows claimed and not created stay within the pace\'s rows and a batch, far below the most the store allows', async () => {
		sandbox().setFaults({ latencyMs: 60 });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('lazy');
		const unsent = sampleUnsent(sandbox, prefix, 1, 350);
		let run;
		try {
			run = await windows(async () => await timed(harness, upsertParameters(ONE), rows(200, prefix)));
		} finally {
			await unsent.stop();
		}
		expect(count(run.result.actions)).toEqual({ created: 200 });
		const lazy = run.seen.filter((seen) => seen.lazy);
		expect(lazy.length).toBeGreaterThan(0);
		const widest = Math.max(...lazy.map(({ window }) => window));
		const most = Math.min(...lazy.map(({ most }) => most));
		// The most here is 385 (8 calls of 350 ms and the wait); the window about 34 (the pace's 25 and a batch of 9). Rows
		// claimed and not created, 2026-12-02 (the line printed below, `npx jest test/service/lazyAhead.test.ts`): at most 34–37
		// in three runs, against 188–193 before the change (the execution prepared the most: every row); the run took
		// 30.8–31.2 s, against 30.7–30.9 s.
		print(`lazyAhead: at most ${unsent.max()} rows claimed and not created, widest window ${widest}, most ${most}, ${run.result.ms} ms`);
		expect(most).toBeGreaterThan(300);
		expect(widest).toBeLessThan(most / 2);
		// Claims held for rows not created: the window, the row in flight, and rows prepared while the window was wider.
		expect(unsent.max()).toBeLessThanOrEqual(widest + 5);
	}, 120_000);
});
