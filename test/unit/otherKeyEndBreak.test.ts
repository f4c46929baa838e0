/**
 * Trying to break the check of a row's other keys at an end (journal.ts `follow`, `others`, `end`) with the claims simulation
 * (test/sim/claims.ts: the real Journal over the model of n8n's store, simulated time; every call reads and writes within 1 s).
 * By a helper that had not seen the change. Keys: `email` is the row's key (matched by e-mail), `phone` its other key.
 *
 * What the docs promise that is tried here (docs/create-or-update.md, Memory Action; docs/sync-memory.md, "A row's life",
 * "Forget during a claim"): Forget Each Input Row removes the row's claim at once, for every process, and the next Sync Rows run
 * creates it again; the only stated exception is a sync that works on the row while it is forgotten (forget again once that sync
 * ended). An execution that never worked on the row is no such sync.
 *
 * Findings (each run against the code before the change too, journal.ts as committed, in a copy of the tree): the first two tests
 * fail with the change and pass before it. `others` (like `contents`) lives while any execution of the process runs, and every end
 * in that time checks the other keys of every content mark written, outside `dropped`: a phone forgotten in another process, or
 * forgotten here and then asked afresh by a run by hand, gets its claim back. The third and fifth fail before the change too (the
 * e-mail's claim comes back through `contents`); the change adds the phone to them.
 *
 * Fixed (memory/visits.ts): an end checks only what its own execution created, remembered or wrote the content of, and the
 * other keys of the rows it sent; a row released or forgotten in this process leaves every execution's list, other keys too.
 * All ten tests pass; the one on end calls expected one call where now none is made.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { claimOf, raceOf } from '../../nodes/Recruiting/memory/marks';
import type { Journal } from '../../nodes/Recruiting/memory/journal';
import { entries, Process, quick, room, setup } from '../sim/journalBreak';

type Sim = ReturnType<typeof setup>;

/** The row known under both keys (its e-mail and its phone), and two processes over n8n's store. */
const known = (seed: number) => {
	const { sim, journals } = room(seed, [claimOf('email'), claimOf('phone')]);
	return { sim, p0: journals[0], p1: journals[1] };
};

/** An execution that updates the row (known under both keys): as way.ts `throughMemory` and rows.ts `settled` call the journal. */
async function syncRow(journal: Journal, content: string): Promise<void> {
	const visit = journal.begin();
	expect(await journal.standing('email', visit)).toBe('known');
	journal.follow('email', ['phone'], visit);
	// The update went through: remembered under its key and its other key (rows.ts `remember` → `keep`), its content written.
	journal.keep('email', visit);
	journal.keep('phone', visit);
	journal.done('email', content, undefined, visit);
	await journal.end(visit);
}

/** A long execution of the same process over other rows (it creates `other`): begun, not ended. */
async function longExecution(journal: Journal): Promise<number> {
	const visit = journal.begin();
	expect(await journal.claim('other', visit)).toBe(true);
	journal.keep('other', visit);
	return visit;
}

/** Forget Each Input Row (Forget Now) of `keys` in a process: one execution. */
async function forgetIn(journal: Journal, keys: string[]): Promise<void> {
	const visit = journal.begin();
	for (const key of keys) await journal.forget(key);
	await journal.end(visit);
}

/** What a fresh process (a queue worker, or after a restart), asking later, answers for `key`: 'mine' is a new row, created by its run. */
async function freshAnswer(sim: Sim, key: string): Promise<string> {
	await sim.sleep(60_000);
	const journal = new Process('z0', sim.world, sim.store, quick).shared.journal;
	const visit = journal.begin();
	const answer = await journal.standing(key, visit);
	await journal.end(visit);
	return answer;
}

/** A process whose store calls are counted (`calls.records` while `calls.on`). */
function counted(sim: Sim): { process: Process; calls: { on: boolean; records: number; values: string[] } } {
	const process = new Process('p0', sim.world, sim.store, quick);
	const calls = { on: false, records: 0, values: [] as string[] };
	process.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			if (calls.on) {
				calls.records += 1;
				calls.values.push(...values.map(String));
			}
			return await sim.store.checkProcessedAndRecord(quick, 'p0', values);
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => await sim.store.removeProcessed(quick, 'p0', values),
		clearAllProcessedItems: async () => await sim.store.clearAllProcessedItems(quick, 'p0'),
	});
	return { process, calls };
}

describe("a row's other key checked at an end: trying to break it", () => {
	it('Forget Each Input Row by phone in another process, after the sync of the row ended: the row is new there (an end of an execution of the syncing process that never worked on the row writes no claim back)', async () => {
		const { sim, p0, p1 } = known(1);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				await syncRow(p0, 'c2');
				// The sync of the row ended. Its candidate is deleted in the service; a queue worker forgets the row by phone (Match By Phone).
				await forgetIn(p1, ['phone']);
				seen.afterForget = entries(sim.store, claimOf('phone'));
				// p0's long execution, which never worked on the row, ends.
				await p0.end(long);
				seen.afterEnd = entries(sim.store, claimOf('phone'));
				seen.fresh = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ afterForget: [], afterEnd: [], fresh: 'mine' });
	});

	it("Forget Each Input Row by phone in the syncing process, then a run by hand there that asks the phone (held back, nothing sent): the row stays forgotten (its end takes off the claim it took only by asking, and writes none back)", async () => {
		const { sim, p0 } = known(2);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				await syncRow(p0, 'c2');
				// Forgotten by phone here (the row given without its e-mail, or the phone remembered as another person's candidate).
				await forgetIn(p0, ['phone']);
				// A run by hand matched by phone: the row prepared ahead (its claim asked afresh: won), held back, never sent.
				const byHand = p0.begin();
				expect(await p0.standing('phone', byHand)).toBe('mine');
				await p0.end(byHand);
				seen.afterRunByHand = entries(sim.store, claimOf('phone'));
				await p0.end(long);
				seen.afterEnd = entries(sim.store, claimOf('phone'));
				seen.fresh = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ afterRunByHand: [], afterEnd: [], fresh: 'mine' });
	});

	it('Forget Each Input Row by e-mail and by phone in another process, after the sync of the row ended: the row is new there under either key (an unrelated execution of the syncing process writes no claim back)', async () => {
		const { sim, p0, p1 } = known(3);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				await syncRow(p0, 'c2');
				await forgetIn(p1, ['email', 'phone']);
				await p0.end(long);
				seen.claims = entries(sim.store, 'claim:').sort();
				seen.email = await freshAnswer(sim, 'email');
				seen.phone = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ claims: [claimOf('other')], email: 'mine', phone: 'mine' });
	});

	it('control: Forget Each Input Row by phone in another process once no execution of the syncing process runs: the row is new there', async () => {
		const { sim, p0, p1 } = known(4);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				await syncRow(p0, 'c2');
				await forgetIn(p1, ['phone']);
				// Another execution of p0 over other rows, after the Forget.
				await p0.end(await longExecution(p0));
				seen.claims = entries(sim.store, claimOf('phone'));
				seen.fresh = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ claims: [], fresh: 'mine' });
	});

	it('Forget All Rows in another process after the sync of the row ended: nothing of the row comes back with the end of an unrelated execution of the syncing process', async () => {
		const { sim, p0, p1 } = known(5);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				await syncRow(p0, 'c2');
				const visit = p1.begin();
				await p1.clear();
				await p1.end(visit);
				await p0.end(long);
				seen.claims = entries(sim.store, 'claim:').filter((value) => value !== claimOf('other'));
			})(),
		);
		expect(seen).toEqual({ claims: [] });
	});

	it("the change's promise, for a row created (not updated): another process's unused contest for the row's phone taken off before the creating run's end, the phone's claim is written back by that end", async () => {
		const { sim, journals: [p0, p1] } = room(6, []);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				// p1, matched by phone, wins the phone as a new row (prepared ahead) and never sends it.
				const byPhone = p1.begin();
				expect(await p1.standing('phone', byPhone)).toBe('mine');
				// p0, matched by e-mail, creates the row and keeps it under its phone while p1's claim is there.
				const byEmail = p0.begin();
				expect(await p0.claim('email', byEmail)).toBe(true);
				p0.follow('email', ['phone'], byEmail);
				p0.keep('email', byEmail);
				p0.keep('phone', byEmail);
				p0.done('email', 'c', undefined, byEmail);
				await sim.sleep(100);
				seen.phoneAnswer = p0.answered('phone');
				await p1.end(byPhone);
				await p0.end(byEmail);
				seen.claims = [...entries(sim.store, claimOf('phone')), ...entries(sim.store, raceOf('phone'))].sort();
				seen.fresh = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ phoneAnswer: 'known', claims: [claimOf('phone'), raceOf('phone')].sort(), fresh: 'known' });
	});

	it('a creation the service refused (released) is not held under its other key: the end writes no claim of the phone (the next run by phone creates the row)', async () => {
		const { sim, journals: [p0] } = room(7, [], 1);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				const visit = p0.begin();
				expect(await p0.claim('email', visit)).toBe(true);
				p0.follow('email', ['phone'], visit);
				await p0.release(['email']);
				await p0.end(visit);
				await p0.end(long);
				seen.claims = entries(sim.store, 'claim:').filter((value) => value !== claimOf('other'));
				seen.fresh = await freshAnswer(sim, 'phone');
			})(),
		);
		expect(seen).toEqual({ claims: [], fresh: 'mine' });
	});

	it('a re-run of unchanged rows (nothing sent, every claim there) makes no store call at its end, after a run that sent the row', async () => {
		const sim = setup(8, [claimOf('email'), claimOf('phone')]);
		const { process, calls } = counted(sim);
		const journal = process.shared.journal;
		await sim.world.run(
			(async () => {
				await syncRow(journal, 'c2');
				const visit = journal.begin();
				expect(await journal.standing('email', visit)).toBe('known');
				journal.keep('email', visit);
				journal.keep('phone', visit);
				await sim.sleep(100);
				calls.on = true;
				await journal.end(visit);
				calls.on = false;
			})(),
		);
		expect(calls.records).toBe(0);
	});

	it('a run that sends nothing while another execution of the process runs makes no end call (each end checks what its own execution sent; before visits.ts, one call for every row the process sent meanwhile)', async () => {
		const sim = setup(10, [claimOf('email'), claimOf('phone')]);
		const { process, calls } = counted(sim);
		const journal = process.shared.journal;
		await sim.world.run(
			(async () => {
				const long = await longExecution(journal);
				await syncRow(journal, 'c2');
				const visit = journal.begin();
				expect(await journal.standing('email', visit)).toBe('known');
				journal.keep('email', visit);
				await sim.sleep(100);
				calls.on = true;
				await journal.end(visit);
				calls.on = false;
				await journal.end(long);
			})(),
		);
		expect(calls.records).toBe(0);
	});

	it("no execution of the process runs: nothing of a sent row's other keys is kept in the process (others cleared)", async () => {
		const { sim, p0 } = known(9);
		let size = -1;
		await sim.world.run(
			(async () => {
				const long = await longExecution(p0);
				for (let round = 0; round < 3; round++) await syncRow(p0, `c${round}`);
				await p0.end(long);
				size = (p0 as unknown as { visits: { followed: Map<number, unknown> } }).visits.followed.size;
			})(),
		);
		expect(size).toBe(0);
	});
});
