/**
 * Review of memory/pace.ts (rows prepared ahead follow the node's pace), by a helper that had not
 * seen it, through n8n's engine against the sandbox, with the engine's in-memory store. What it
 * found and what was done (docs/sync-memory.md, "Rows ahead follow the pace"):
 *   - every run started one decision late (25 rows until its first rows were done): a fast first run
 *     of 100–300 rows took 1.19–1.35 times as long. Now the node's pace is kept per process, so only
 *     the first run of a node in a process starts so (the speed: `npm run bench:sync`, docs/benchmarks.md);
 *   - known rows first, then new ones (rows appended to a sheet): the known rows (no request, about
 *     1 ms each) made the pace fast, and the new rows were claimed up to 100 ahead. Now the rows this
 *     process holds are prepared besides the pace and are no samples of it;
 *   - e-mail and phone both set: two claims a row; a service turning slow: the window follows;
 *     faults and repeated rows: nothing lost, nothing twice.
 */
import type { INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { INITIAL_AHEAD, MIN_AHEAD, Pace } from '../../nodes/Recruiting/memory/pace';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { count, sampleUnsent, sheetRows as rows, tag, tagged, timed } from '../helpers/claimsAhead';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import type { FaultConfig } from '../sandbox/types';

const sandbox = useSandbox();

const AUTO: INodeParameters = { options: { retryDelayMs: 1 } };
const FIXED10: INodeParameters = { options: { retryDelayMs: 1, concurrency: 10 } };
const ONE: INodeParameters = { options: { retryDelayMs: 1, concurrency: 1 } };

/** Changes the sandbox's faults at the given times (ms from now) while `work` runs. */
async function withSchedule<T>(plan: Array<[number, FaultConfig]>, work: () => Promise<T>): Promise<T> {
	const started = Date.now();
	let running = true;
	const changes = (async () => {
		for (const [at, faults] of plan) {
			while (running && Date.now() - started < at) await sleep(10);
			if (running) sandbox().setFaults(faults);
		}
	})();
	try {
		return await work();
	} finally {
		running = false;
		await changes;
	}
}

/** The windows the pace gave (ms since the start, rows), while it runs. */
function windows(): { seen: Array<{ at: number; window: number }>; stop: () => void } {
	const seen: Array<{ at: number; window: number }> = [];
	const original = Pace.prototype.ahead;
	const started = Date.now();
	const spy = jest.spyOn(Pace.prototype, 'ahead').mockImplementation(function (this: Pace, most: number, decisionMs: number) {
		const window = original.call(this, most, decisionMs);
		seen.push({ at: Date.now() - started, window });
		return window;
	});
	return { seen, stop: () => spy.mockRestore() };
}

beforeEach(() => forgetProcessMemory());
afterEach(() => sandbox().setFaults({}));

describe('the start of a run', () => {
	it('the first run of a node in a process prepares 25 rows before its first rows are done; the next run of the node starts from its pace (50 and more against a fast service)', async () => {
		sandbox().setFaults({ latencyMs: 5 });
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const first = windows();
		try {
			expect(count((await timed(harness, upsertParameters(FIXED10), rows(120, tag('start')))).actions)).toEqual({ created: 120 });
		} finally {
			first.stop();
		}
		expect(first.seen[0].window).toBe(INITIAL_AHEAD);
		// Then its pace against a fast service: far more (70–100 here).
		expect(Math.max(...first.seen.map(({ window }) => window))).toBeGreaterThanOrEqual(2 * INITIAL_AHEAD);
		const second = windows();
		try {
			expect(count((await timed(harness, upsertParameters(FIXED10), rows(120, tag('next')))).actions)).toEqual({ created: 120 });
		} finally {
			second.stop();
		}
		expect(second.seen[0].window).toBeGreaterThanOrEqual(2 * INITIAL_AHEAD);
	}, 60_000);
});

describe('claims held', () => {
	it('rows appended to a sheet: 60 known rows first, then 110 new ones, one request at a time, 100 ms each: the known rows are prepared besides, and the new ones are claimed only as the pace needs (up to 100 before)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('appended');
		const known = rows(60, `${prefix}k`);
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		expect((await timed(harness, upsertParameters(ONE), known)).actions).toEqual(Array(60).fill('created'));
		const unsent = sampleUnsent(sandbox, `${prefix}n`);
		let second;
		try {
			second = await timed(harness, upsertParameters(ONE), [...known, ...rows(110, `${prefix}n`)]);
		} finally {
			await unsent.stop();
		}
		expect(count(second.actions)).toEqual({ unchanged: 60, created: 110 });
		// paceAhead.test.ts's bound for the same pace when every row is new.
		expect(unsent.max()).toBeLessThanOrEqual(MIN_AHEAD + 3);
	}, 60_000);

	it('rows this process holds that fail their checks after their key was asked (a slug that is not text) do not widen the window: the new rows after them are claimed only as the pace needs', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('broken');
		const known = rows(60, `${prefix}k`);
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		const withSlug = upsertParameters({ ...ONE, candidateSlug: '={{ $json.slug }}' });
		expect((await timed(harness, withSlug, known)).actions).toEqual(Array(60).fill('created'));
		const unsent = sampleUnsent(sandbox, `${prefix}n`);
		let second;
		try {
			second = await timed(harness, withSlug, [...known.map((row) => ({ ...row, slug: ['not', 'text'] })), ...rows(110, `${prefix}n`)]);
		} finally {
			await unsent.stop();
		}
		expect(second.actions.slice(60)).toEqual(Array(110).fill('created'));
		expect(second.actions.slice(0, 60).every((action) => action !== 'created' && action !== 'unchanged')).toBe(true);
		// The same bound as for rows appended to a sheet (above): 60 more when each broken row's note stayed.
		expect(unsent.max()).toBeLessThanOrEqual(MIN_AHEAD + 3);
	}, 60_000);

	it('e-mail and phone both set, one request at a time, 100 ms each, 60 new rows: claims held for rows not created (two keys a row)', async () => {
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		const prefix = tag('phone');
		const unsent = sampleUnsent(sandbox, prefix, 2);
		let result;
		try {
			const params = upsertParameters({ ...ONE, phone: '={{ $json.phone }}' });
			result = await timed(new Harness(emailCredential(sandbox(), ALICE)), params, rows(60, prefix, (i) => ({ phone: `+49 40 ${2_000_000 + i + tagged() * 1000}` })));
		} finally {
			await unsent.stop();
		}
		const later = unsent.samples.filter(({ at }) => at > 5_000);
		expect(result.actions).toEqual(Array(60).fill('created'));
		expect(Math.max(...later.map(({ unsent }) => unsent))).toBeLessThanOrEqual(2 * (MIN_AHEAD + 3));
	}, 60_000);

	it('the service turns slow mid-run (2 ms, then 300 ms from 3 s), Auto: the window falls to about 13 within 6 s (claims already written drain)', async () => {
		const pace = windows();
		const prefix = tag('drop');
		const unsent = sampleUnsent(sandbox, prefix);
		let result;
		try {
			result = await withSchedule([[0, { latencyMs: 2 }], [3000, { latencyMs: 300 }]], async () => await timed(new Harness(emailCredential(sandbox(), ALICE)), upsertParameters(AUTO), rows(250, prefix)));
		} finally {
			await unsent.stop();
			pace.stop();
		}
		const held = (from: number, to: number) => Math.max(...unsent.samples.filter(({ at }) => at >= from && at < to).map(({ unsent }) => unsent));
		expect(result.actions).toEqual(Array(250).fill('created'));
		expect(Math.max(...pace.seen.filter(({ at }) => at > 9000).map(({ window }) => window))).toBeLessThanOrEqual(MIN_AHEAD + 3);
		// The claims written before the slowdown drain as their rows are sent.
		expect(held(9000, 11000)).toBeLessThan(held(3000, 5000));
	}, 60_000);
});

describe('nothing lost or stuck', () => {
	it('duplicates (every 7th row repeats the 7 before), 5 % 500/503 and 2 % creations dropped after work, fixed 10: every item has an output, no candidate twice', async () => {
		const prefix = tag('dup');
		sandbox().setFaults({ latencyMs: 5, errorRate: 0.05, afterWorkDropRate: 0.02, seed: 11 });
		const base = rows(150, prefix);
		const items = base.flatMap((row, i) => (i % 7 === 6 ? [row, ...base.slice(i - 6, i + 1)] : [row]));
		const result = await timed(new Harness(emailCredential(sandbox(), ALICE)), upsertParameters(FIXED10), items);
		expect(result.actions).toHaveLength(items.length);
		expect(result.actions.filter((a) => a === 'undefined')).toHaveLength(0);
		const emails = sandbox().candidates(ALICE.companyId).map((c) => String(c.email)).filter((e) => e.startsWith(prefix));
		expect(new Set(emails).size).toBe(emails.length);
	}, 60_000);
});
