/**
 * Trying to break memory/pace.ts `heldAhead` (rows prepared ahead that this process holds), through
 * n8n's engine against the sandbox. The notes of held rows that never reach `inTurn` (a failed
 * check, a Forget) leave only with the next row taken: while such rows are being done, the window
 * counts them as if they were still ahead, and new rows after them are claimed that far ahead.
 */
import type { DeduplicationItemTypes, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { MIN_AHEAD, Pace } from '../../nodes/Recruiting/memory/pace';
import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness, deduplicator } from '../helpers/harness';
import { upsertParameters } from '../helpers/upsert';
import { count, sampleUnsent, sheetRows as rows, tag, tagged, timed } from '../helpers/claimsAhead';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const ONE: INodeParameters = { options: { retryDelayMs: 1, concurrency: 1 } };

/** Every 20 ms: claims written to n8n's store since it started and not taken off yet (rows claimed and neither created nor let go). */
function sampleLive() {
	const live = new Set<string>();
	const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
	const remove = deduplicator.removeProcessed.bind(deduplicator);
	const spies = [
		jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			const result = await record(items, ...rest);
			for (const item of result.new) if (String(item).startsWith('claim:')) live.add(String(item));
			return result;
		}),
		jest.spyOn(deduplicator, 'removeProcessed').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			await remove(items, ...rest);
			for (const item of items) live.delete(String(item));
		}),
	];
	let max = 0;
	let running = true;
	const sampling = (async () => {
		for (; running; await sleep(20)) max = Math.max(max, live.size);
	})();
	return {
		max: () => max,
		stop: async () => {
			running = false;
			await sampling;
			for (const spy of spies) spy.mockRestore();
		},
	};
}

/** The execution's `heldAhead` each time the window is asked (the largest seen). */
function heldSeen(): { max: () => number; stop: () => void } {
	let max = 0;
	const original = Pace.prototype.ahead;
	const spy = jest.spyOn(Pace.prototype, 'ahead').mockImplementation(function (this: Pace, most: number, decisionMs: number) {
		max = Math.max(max, this.heldAhead);
		return original.call(this, most, decisionMs);
	});
	return { max: () => max, stop: () => spy.mockRestore() };
}

beforeEach(() => forgetProcessMemory());
afterEach(() => sandbox().setFaults({}));

/** Forget Each Input Row (Forget Now on), one row at a time: the most claims held at once for rows not known here. */
async function forgetRun(harness: Harness, items: IDataObject[]) {
	const live = sampleLive();
	const held = heldSeen();
	let result;
	try {
		result = await timed(harness, upsertParameters({ ...ONE, memoryAction: 'forget', confirmForget: true }), items);
	} finally {
		held.stop();
		await live.stop();
	}
	return { ...result, live: live.max(), heldAhead: held.max() };
}

describe('held rows that never reach their turn', () => {
	it('Forget Each Input Row (Forget Now), one row at a time: 60 rows this process holds before 110 it does not know claim no more of those ahead than the 110 alone (the held rows done no longer count)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('forget');
		const known = rows(60, `${prefix}k`);
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		expect((await timed(harness, upsertParameters(ONE), known)).actions).toEqual(Array(60).fill('created'));
		// Without held rows: the 110 unknown rows alone (the node's pace is the same: a forget is no sample).
		const alone = await forgetRun(harness, rows(110, `${prefix}a`));
		expect(count(alone.actions)).toEqual({ forgotten: 110 });
		const after = await forgetRun(harness, [...known, ...rows(110, `${prefix}b`)]);
		expect(count(after.actions)).toEqual({ forgotten: 170 });
		expect(after.live).toBeLessThanOrEqual(alone.live + 3);
	}, 90_000);
});

describe('mixed rows in one run', () => {
	it('one request at a time, 100 ms each: held rows (unchanged, a failing copy right before a good copy, repeated) among new rows (some repeated): every row has its outcome, none twice, and the new rows are claimed only as the pace needs', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('mixed');
		const known = rows(40, `${prefix}k`);
		sandbox().setFaults({ latencyMs: 100, seed: 7 });
		const withSlug = upsertParameters({ ...ONE, candidateSlug: '={{ $json.slug }}' });
		expect((await timed(harness, withSlug, known)).actions).toEqual(Array(40).fill('created'));
		const fresh = rows(80, `${prefix}n`);
		const items: IDataObject[] = [];
		for (let i = 0; i < 40; i++) {
			const row = known[i];
			if (i % 2 === 0) items.push({ ...row, slug: ['bad'] }, row);
			else items.push(row, row);
			items.push(fresh[2 * i], fresh[2 * i + 1]);
			if (i % 5 === 0) items.push(fresh[2 * i]);
		}
		const unsent = sampleUnsent(sandbox, `${prefix}n`);
		const held = heldSeen();
		let second;
		try {
			second = await timed(harness, withSlug, items);
		} finally {
			held.stop();
			await unsent.stop();
		}
		expect(second.actions).toHaveLength(items.length);
		const emails = sandbox()
			.candidates(ALICE.companyId)
			.map((c) => String(c.email))
			.filter((e) => e.startsWith(prefix));
		expect(emails).toHaveLength(120);
		expect(new Set(emails).size).toBe(120);
		expect(unsent.max()).toBeLessThanOrEqual(MIN_AHEAD + 3);
	}, 90_000);
});

describe('alias keys', () => {
	it('Match By phone, e-mail set too, one request at a time, 100 ms each: 60 held rows failing their checks (a slug that is not text), then 60 new rows: claims held for rows not created stay within two a row of the pace', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		const prefix = tag('phoneheld');
		const phone = (base: number) => (i: number) => ({ phone: `+49 30 ${base + i + tagged() * 1000}` });
		const known = rows(60, `${prefix}k`, phone(3_000_000));
		sandbox().setFaults({ latencyMs: 100, seed: 5 });
		const params = upsertParameters({ ...ONE, matchBy: 'phone', phone: '={{ $json.phone }}', candidateSlug: '={{ $json.slug }}' });
		expect((await timed(harness, params, known)).actions).toEqual(Array(60).fill('created'));
		const unsent = sampleUnsent(sandbox, `${prefix}n`, 2);
		let second;
		try {
			second = await timed(harness, params, [...known.map((row) => ({ ...row, slug: ['not', 'text'] })), ...rows(60, `${prefix}n`, phone(4_000_000))]);
		} finally {
			await unsent.stop();
		}
		expect(second.actions.slice(60)).toEqual(Array(60).fill('created'));
		expect(unsent.max()).toBeLessThanOrEqual(2 * (MIN_AHEAD + 3));
	}, 90_000);
});
