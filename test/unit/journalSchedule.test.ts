/**
 * The journal's calls over a slow store (a list of 100,000 remembered rows: about 0.6 s a call), in
 * the claims simulation (test/sim/claims.ts: the real Journal, n8n's store as a model, simulated
 * time): what goes in one call, how many calls a run makes, and a check answered by a second
 * attempt. `npm run bench:journal -- --trace` shows the same calls in real n8n on PostgreSQL.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { Store } from '../sim/claims';
import type { Profile } from '../sim/claims';
import { failingCheck, Process, World } from '../sim/journalBreak';
import { largeList as large, rows } from '../sim/scenarioRunner';



/**
 * One execution as the router runs it (actions/router.ts, lookahead.ts): rows prepared one per
 * turn up to the journal's `ahead` past the rows taken, each asked in the background; four in
 * flight, each claimed, then created (80 ms at the service), then kept.
 */
async function execution(world: World, process: Process, keys: string[], prepareMs = 1): Promise<{ firstCreation: number; end: number; longestPause: number }> {
	const journal = process.shared.journal;
	const sleep = async (ms: number) => await new Promise<void>((resolve) => world.at(ms, resolve));
	const visit = journal.begin();
	let [next, prepared, done, firstCreation, lastCreation, longestPause] = [0, 0, false, -1, -1, 0];
	const preparer = (async () => {
		while (!done && prepared < keys.length) {
			if (prepared < next + journal.ahead) journal.standing(keys[prepared++], visit, true).catch(() => undefined);
			await sleep(prepareMs);
		}
	})();
	await Promise.all(
		Array.from({ length: 4 }, async () => {
			while (next < keys.length) {
				const key = keys[next++];
				if (!(await journal.claim(key, visit))) continue;
				if (firstCreation < 0) firstCreation = world.now;
				// Between two creations after the second row (the first row is a batch of its own: the next waits for theirs).
				else if (lastCreation > firstCreation) longestPause = Math.max(longestPause, world.now - lastCreation);
				lastCreation = world.now;
				await sleep(80);
				journal.keep(key, visit);
			}
		}),
	);
	done = true;
	await preparer;
	await journal.end(visit);
	return { firstCreation, end: world.now, longestPause };
}

/** A process whose store calls are recorded (the values of each call, in order). */
function recorded(world: World, store: Store, profile: Profile): { process: Process; calls: string[][] } {
	const process = new Process('p0', world, store, profile);
	const calls: string[][] = [];
	process.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			calls.push(values.map(String));
			return await store.checkProcessedAndRecord(profile, 'p0', values);
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => await store.removeProcessed(profile, 'p0', values),
	});
	return { process, calls };
}

/** 1,000 new rows over a list of 1,000 others whose calls take 0.5–0.7 s, rows prepared `prepareMs` apart. */
async function largeRun(seed: number, prepareMs: number) {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	store.list = rows(1_000, 'x');
	const { process, calls } = recorded(world, store, large(world));
	// The store answered fast in the execution before (a small list): the first call shows it is slow.
	process.shared.recentCallsMs.push(25);
	return { store, calls, ...(await world.run(execution(world, process, rows(1_000), prepareMs), 5_000_000)) };
}

describe('the journal over a slow store: its calls', () => {
	it('1,000 new rows over calls of 0.5–0.7 s: every row created once, a batch\'s races in the same call as the next batch\'s claims, 15 calls at most', async () => {
		for (const seed of [1, 2, 3]) {
			const { store, calls, firstCreation, end } = await largeRun(seed, 1);
			const claimed = new Set((store.list ?? []).filter((value) => value.startsWith('claim:')));

			const shared = calls.filter((values) => values.some((value) => value.startsWith('race:')) && values.some((value) => value.startsWith('claim:') && !values.includes(value.replace('claim:', 'race:'))));
			expect({ seed, claims: claimed.size, sharedCalls: shared.length > 0, calls: calls.length <= 15 }).toEqual({ seed, claims: 1_000, sharedCalls: true, calls: true });
			// Now 14–15 calls (13 before waiting rows rode with every call), the first creation at 4.2–4.6 s, the run 28.0–28.6 s
			// (seeds 1–3). Before calls were shared (a batch's races awaited before the next claims, a check just after a call's
			// start waiting for the next): seed 1 made 19 calls, its first creation at 5.5 s, the run 30.8 s.
			expect(end).toBeLessThan(29_500);
			expect(firstCreation).toBeLessThan(5_000);
		}
	});

	it('rows prepared more slowly than a batch fills (10 ms a row): no creation catches up with rows still waiting for their batch', async () => {
		for (const seed of [1, 2, 3]) {
			const { end, longestPause } = await largeRun(seed, 10);
			// Now pauses of 0.1–0.2 s at most after the second row, the run 28.1–28.6 s. Before (rows waited for half the rows
			// ahead, unless a creation awaited one): pauses of 2.6–2.8 s, the run 30.5–31.2 s.
			expect({ seed, stalled: longestPause >= 1_000, slow: end >= 29_500 }).toEqual({ seed, stalled: false, slow: false });
		}
	});

	it('a creation that awaits a row already contested starts no call for the rows still waiting for their batch: they go with a call that goes anyway', async () => {
		const world = new World(7);
		const store = new Store(world);
		world.store = store;
		store.list = [];
		const { process, calls } = recorded(world, store, large(world));
		// Slow calls already: rows prepared ahead wait for a batch of half the rows ahead.
		process.shared.recentCallsMs.push(600);
		const journal = process.shared.journal;
		const visit = journal.begin();
		const run = (async () => {
			for (const key of rows(10)) journal.standing(key, visit, true).catch(() => undefined);
			// Row r0's creation awaits it: the ten are asked now.
			const first = journal.standing('r0', visit);
			await new Promise<void>((resolve) => world.at(100, resolve));
			for (const key of rows(10, 's')) journal.standing(key, visit, true).catch(() => undefined);
			// r5 is contested already: awaiting it starts nothing more; the s rows' claims ride with the r rows' next call.
			const answers = await Promise.all([first, journal.standing('r5', visit)]);
			await journal.end(visit);
			const withClaims = calls.filter((values) => values.some((value) => value.startsWith('claim:s')));
			return {
				answers,
				alone: withClaims.filter((values) => values.every((value) => value.startsWith('claim:s'))).length,
				riding: withClaims.some((values) => values.includes('race:r0')),
			};
		})();
		expect(await world.run(run)).toEqual({ answers: ['mine', 'mine'], alone: 0, riding: true });
	});

	it('a check whose call failed and was made again is not trusted: the row fails, it is never won on the token the failed attempt wrote', async () => {
		// The third call (the check) writes, then fails: n8n's answer is lost, the write stays.
		const { world, store, journal } = failingCheck(3, 'after', []);
		// Another process's write dropped this process's race and token meanwhile: the true answer of the check is "not mine yet".
		const visit = journal.begin();
		const run = (async () => {
			const answer = journal.standing('a', visit).then(
				(standing) => standing,
				(error: Error) => `failed: ${error.message}`,
			);
			await new Promise<void>((resolve) => world.at(200, resolve));
			store.list = store.list!.filter((value) => !value.startsWith('race:') && !value.startsWith('own:'));
			const standing = await answer;
			await journal.end(visit);
			return standing;
		})();
		const standing = await world.run(run);
		expect(standing).toMatch(/^failed: A call to n8n's deduplication store failed/);
	});
});

describe('the journal after Forget All Rows', () => {
	it('its calls are timed afresh: the timings of the list it removed no longer make it wait long or ask in batches', async () => {
		const world = new World(5);
		const store = new Store(world);
		world.store = store;
		store.list = rows(10, 'x');
		const process = new Process('p0', world, store, { toRead: () => 5, gap: () => 20, back: () => 5 });
		const journal = process.shared.journal;
		// The last calls were those of a list of 100,000 rows.
		process.shared.recentCallsMs.push(650, 700, 620);
		expect(journal.ahead).toBeGreaterThan(100);
		await world.run(journal.clear());
		expect({ ahead: journal.ahead, timings: process.shared.recentCallsMs.length }).toEqual({ ahead: 100, timings: 0 });
	});
});

describe('a row released while another execution of the process asks it', () => {
	// A guard (it passed before this change too): the re-run's claim call waits in the process's line of store calls
	// (`inTurn`) behind the stopped run's removal, so it never finds the claim being taken off.
	it('an execution that starts while a stopped one takes its unsent claims off waits for that, and creates the row (it is not "known")', async () => {
		const world = new World(9);
		const store = new Store(world);
		world.store = store;
		store.list = [];
		// A large list: the removal is a call of 0.5–0.7 s.
		const { process } = recorded(world, store, large(world));
		const journal = process.shared.journal;
		const run = (async () => {
			// The stopped run: rows prepared ahead, won, never sent; its end takes their claims off.
			const stopped = journal.begin();
			const answers = await Promise.all(['a', 'b'].map(async (key) => await journal.standing(key, stopped)));
			const ending = journal.end(stopped);
			// The re-run starts at once (n8n shows the stopped run as ended before its end is through).
			await new Promise<void>((resolve) => world.at(1, resolve));
			const rerun = journal.begin();
			const again = await Promise.all(['a', 'b'].map(async (key) => await journal.standing(key, rerun)));
			await ending;
			await journal.end(rerun);
			return { answers, again };
		})();
		expect(await world.run(run)).toEqual({ answers: ['mine', 'mine'], again: ['mine', 'mine'] });
	});
});
