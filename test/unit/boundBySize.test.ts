/**
 * The bound of the journal's timing assumption grows with the size of the node's list in n8n's store (memory/bound.ts):
 * a call of 1 s or longer is trusted below the bound of the list counted right after it, and every check waits at least
 * twice the bound of a list half as large again. Before (one bound of 1 s for every size), every new row was refused as
 * "too slow to be sure" once n8n's calls over 400,000 entries took 1.2–1.45 s (docs/sync-memory.md, "The journal at
 * 100,000 rows"). The whole memory with such lists: test/unit/memorySimulation.test.ts, the scenario "a list of
 * 100,000–600,000 entries".
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { MAX_TRUST_MS, MIN_WAIT_MS, trustMs, waitFloorMs } from '../../nodes/Recruiting/memory/bound';
import type { Clock } from '../../nodes/Recruiting/memory/clock';
import { StoreCalls } from '../../nodes/Recruiting/memory/storeCalls';
import { Process, Store, World } from '../sim/claims';
import { quick } from '../sim/journalBreak';

/** A process's store calls, each taking `takes` ms, over a list n8n counts as `entries` (undefined: the count fails). */
function calls(takes: number, entries: number | undefined) {
	const state = { wall: 1_800_000_000_000, passed: 0 };
	const clock: Clock = {
		now: () => state.wall,
		elapsed: () => state.passed,
		sleep: async (ms) => {
			[state.wall, state.passed] = [state.wall + ms, state.passed + ms];
			await Promise.resolve();
		},
		random: () => 0.5,
	};
	const counted: number[] = [];
	const store = new StoreCalls({ clock, inTurn: async (_key, work) => await work(), recentCallsMs: [] });
	store.helpers = {
		checkProcessedAndRecord: async () => {
			[state.wall, state.passed] = [state.wall + takes, state.passed + takes];
			return { new: [], processed: [] };
		},
		getProcessedDataCount: async () => {
			counted.push(state.passed);
			if (entries === undefined) throw new Error('connection lost');
			return entries;
		},
	};
	return { store, counted };
}

describe('the bound by the size of the list', () => {
	it('1 s up to 200,000 entries, 5 ms per 1,000 past them, 4 s at most; waits of twice the bound of a list half as large again once that is above 1 s', () => {
		expect([0, 200_000, 400_000, 600_000, 2_000_000].map(trustMs)).toEqual([MIN_WAIT_MS, 1_000, 2_000, 3_000, MAX_TRUST_MS]);
		expect([0, 100_000, 133_000, 400_000, 2_000_000].map(waitFloorMs)).toEqual([MIN_WAIT_MS, 1_000, 1_000, 6_000, 2 * MAX_TRUST_MS]);
		// A process waits longer than any process trusts a call over a list up to half as large again as it counted.
		for (const entries of [150_000, 300_000, 400_000, 800_000]) expect(waitFloorMs(entries)).toBeGreaterThan(trustMs(1.5 * entries));
	});

	it('a call of 1.5 s over 400,000 entries is trusted (before: too slow to be sure); the list is counted right after it', async () => {
		const { store, counted } = calls(1_500, 400_000);
		await store.recordTogether(['claim:a']);
		expect({ slow: store.slowCalls, entries: store.entries, counted }).toEqual({ slow: 0, entries: 400_000, counted: [1_500] });
	});

	it('a call of 1.5 s over 100,000 entries is not trusted, nor one of 4.5 s over 2,000,000, nor one whose count failed', async () => {
		for (const [takes, entries] of [
			[1_500, 100_000],
			[4_500, 2_000_000],
			[1_500, undefined],
		] as const) {
			const { store } = calls(takes, entries);
			await store.recordTogether(['claim:a']);
			expect({ takes, entries, slow: store.slowCalls, slowest: store.slowestMs }).toEqual({ takes, entries, slow: 1, slowest: takes });
		}
	});

	it('a quick call is not counted (a count costs a read of the whole list)', async () => {
		const { store, counted } = calls(300, 400_000);
		await store.recordTogether(['claim:a']);
		expect({ slow: store.slowCalls, counted }).toEqual({ slow: 0, counted: [] });
	});

	it.each([
		[100, 1_000],
		[400_000, 6_000],
	])('a new row contested over a list of %i entries: the check comes at least %i ms after the race landed, and the row is won', async (entries, wait) => {
		const world = new World(7);
		const store = new Store(world);
		world.store = store;
		[store.padding, store.list] = [entries, [Store.PAD]];
		const process = new Process('p0', world, store, quick);
		const times: Array<{ race: boolean; start: number; end: number }> = [];
		process.shared.journal.use({
			checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
				const start = world.now;
				const answer = await store.checkProcessedAndRecord(quick, 'p0', values);
				times.push({ race: values.map(String).includes('race:k'), start, end: world.now });
				return answer;
			},
			getProcessedDataCount: async () => store.size(),
		});
		const journal = process.shared.journal;
		let standing = '';
		await world.run(
			(async () => {
				const visit = journal.begin();
				standing = await journal.standing('k', visit, true);
			})(),
		);
		const [race, check] = times.filter((call) => call.race);
		expect({ standing, waited: check.start - race.end >= wait, shorter: check.start - race.end < wait + 1_000 }).toEqual({ standing: 'mine', waited: true, shorter: true });
	});
});
