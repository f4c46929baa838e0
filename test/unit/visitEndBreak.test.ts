/**
 * Trying to break the per-execution end check (memory/visits.ts, journal.ts `end`: each end checks only what its own execution
 * created, remembered or wrote the content of, and the other keys of the rows it sent) with the claims simulation
 * (test/sim/claims.ts: the real Journal over the model of n8n's store, simulated time). By a helper that had not seen the change.
 * Every store call here writes within 1 s of its read (the timing assumption holds): a "lost update" is a call of another process
 * (a queue worker asking its own rows) that read before a write of p0 and wrote 200 ms after its read.
 *
 * Promises tried (docs/sync-memory.md, "A row's life", its event table: "the rows this execution created, adopted or
 * remembered, the content pairs it wrote, and the other keys of the rows it sent are checked after the wait and written again if
 * a write dropped them"; "known, slug not here": `unchanged` when its content is the one last sent in full).
 *
 * Findings (each run too on the code before the change, journal.ts, rows.ts and index.ts as committed, in a copy of the tree):
 * - New with the change (pass before it): an end takes the content pairs it checks from the process-wide `contents` map, and the
 *   end of the process's last running execution clears that map (`if (this.visits.size === 0) this.contents.clear()`) while an
 *   earlier end may not have read it yet (that end left the visits at its start, then waits for its rows' answers: rows ahead
 *   of a stopped run, or a new phone asked as kept). That earlier end then checks its rows' claims but not their pairs, and no
 *   other end checks them now: a pair a lost update dropped stays dropped (both "ends in another order" tests; with the clear
 *   taken out, both pass). Also new: an end whose check call fails leaves its pairs to no later end.
 * - There before: an end reads `contents` once, before its wait; a content replaced (or voided) meanwhile by another execution of
 *   the process is written back with the old pair. The 95327 fix reaches a row's other keys only when its key is on the
 *   execution's list (created, a content pair written, or kept not known): not a row sent in part, nor an adopted row's own key.
 *   `contents` grows while the process is never idle.
 *
 * Fixed after this review (all pass; its two growth tests are one since): memory/visits.ts keeps the content pairs (`pairs`) while a running or ending
 * execution lists the row, and each end reads a row's pair when it checks it; an end's list takes the rows it sent or adopted
 * (`follow`) with their other keys, whatever its key's answer was; what an end could not check goes to the next end (`carried`).
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import { claimOf, doneOf } from '../../nodes/Recruiting/memory/marks';
import type { Profile } from '../sim/claims';
import { entries, hooked, later, Process, quick, room, setup } from '../sim/journalBreak';

type Sim = ReturnType<typeof setup>;

/** A call of another process that reads at once and writes `gapMs` later (a lost update for whatever lands meanwhile). */
function lostUpdate(sim: Sim, gapMs = 200): Promise<unknown> {
	const profile: Profile = { toRead: () => 1, gap: () => gapMs, back: () => 5 };
	return sim.store.checkProcessedAndRecord(profile, 'w9', ['claim:unrelated' as DeduplicationItemTypes]);
}

const pairOf = (key: string, print: string) => [...doneOf(key, print)].sort();

/**
 * Execution A of p0 creates r with content c while execution B of p0 runs beside it (other rows, nothing sent); a worker's call
 * that read before A's content pair writes after it (the pair dropped). A was stopped: the rows it prepared ahead are still
 * being decided (their contest takes the wait) when its end begins. B ends while A's end waits for them, or after A's end.
 */
async function droppedPair(seed: number, order: 'B ends while A waits' | 'B ends after A'): Promise<Record<string, unknown>> {
	const sim = setup(seed, ['x']);
	const p0 = new Process('p0', sim.world, sim.store, quick).shared.journal;
	const seen: Record<string, unknown> = {};
	await sim.world.run(
		(async () => {
			const a = p0.begin();
			const b = p0.begin();
			expect(await p0.claim('r', a)).toBe(true);
			p0.keep('r', a);
			const dropping = lostUpdate(sim);
			p0.done('r', 'c', undefined, a);
			await dropping;
			seen.afterLostUpdate = entries(sim.store, 'done').sort();
			void p0.standing('ahead', a, true).catch(() => undefined);
			await sim.sleep(10);
			if (order === 'B ends while A waits') {
				const endA = p0.end(a);
				await sim.sleep(10);
				await p0.end(b);
				await endA;
			} else {
				await p0.end(a);
				await p0.end(b);
			}
			seen.afterEnds = entries(sim.store, 'done').sort();
			seen.claim = entries(sim.store, claimOf('r'));
			seen.later = await later(sim.world, sim.store, sim.sleep, 'r', 'c');
		})(),
	);
	return seen;
}

describe("an execution's end checks only its own rows (visits.ts): trying to break it", () => {
	it("ends in another order: the content pair an execution wrote, dropped by a lost update, is written back at an end when another execution of the process reaches its check first (a process without the slug then answers the row unchanged)", async () => {
		expect(await droppedPair(11, 'B ends while A waits')).toEqual({ afterLostUpdate: [], afterEnds: pairOf('r', 'c'), claim: [claimOf('r')], later: 'same' });
	});

	it("ends in another order, no stop: a row created with a new phone (its other key asked as kept, a contest of a wait) and its content pair dropped by a lost update; another execution of the process ends while the creating one's end waits for that answer: the pair is written back (the row is unchanged for a process without the slug)", async () => {
		const { sim, journals: [p0] } = room(17, ['x'], 1);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const a = p0.begin();
				const b = p0.begin();
				// A's last row: created by e-mail, remembered under its (new) phone too (way.ts follow, then remember → keep).
				expect(await p0.claim('email', a)).toBe(true);
				p0.follow('email', ['phone'], a);
				p0.keep('email', a);
				p0.keep('phone', a);
				const dropping = lostUpdate(sim);
				p0.done('email', 'c', undefined, a);
				await dropping;
				seen.afterLostUpdate = entries(sim.store, 'done').sort();
				const endA = p0.end(a);
				await sim.sleep(10);
				await p0.end(b);
				await endA;
				seen.afterEnds = entries(sim.store, 'done').sort();
				seen.claims = entries(sim.store, 'claim:')
					.filter((value) => value !== 'claim:unrelated')
					.sort();
				seen.later = await later(sim.world, sim.store, sim.sleep, 'email', 'c');
			})(),
		);
		expect(seen).toEqual({ afterLostUpdate: [], afterEnds: pairOf('email', 'c'), claims: [claimOf('email'), claimOf('phone')].sort(), later: 'same' });
	});

	it('control: the same, B ending after A: A\'s end writes its dropped content pair back (the row is unchanged for a process without the slug)', async () => {
		expect(await droppedPair(12, 'B ends after A')).toEqual({ afterLostUpdate: [], afterEnds: pairOf('r', 'c'), claim: [claimOf('r')], later: 'same' });
	});

	it("an execution whose end's check fails (n8n's store refuses the call twice) while another execution of the process runs: the content pair it wrote, dropped by a lost update, is written back at that other execution's end (as before visits.ts), and the row is unchanged for a process without the slug", async () => {
		const sim = setup(13, ['x']);
		let failing = 2;
		const process = hooked(sim.world, sim.store, {
			// A's end check: the row's claim, race and content pair in one call.
			record: (values) => (values.includes('race:r') && values.includes(doneOf('r', 'c')[0]) && failing-- > 0 ? 'before' : undefined),
		});
		const p0 = process.shared.journal;
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const b = p0.begin();
				expect(await p0.claim('other', b)).toBe(true);
				p0.keep('other', b);
				const a = p0.begin();
				expect(await p0.claim('r', a)).toBe(true);
				p0.keep('r', a);
				const dropping = lostUpdate(sim);
				p0.done('r', 'c', undefined, a);
				await dropping;
				seen.afterLostUpdate = entries(sim.store, 'done').sort();
				seen.endA = await p0.end(a).then(
					() => 'ended',
					() => 'failed',
				);
				await p0.end(b);
				seen.afterEnds = entries(sim.store, 'done').sort();
				seen.later = await later(sim.world, sim.store, sim.sleep, 'r', 'c');
			})(),
		);
		expect(seen).toEqual({ afterLostUpdate: [], endA: 'failed', afterEnds: pairOf('r', 'c'), later: 'same' });
	});

	it("a content replaced while an earlier execution's end waits: that end does not write the old content's pair back (a process without the slug given the old content does not answer unchanged; the new one is unchanged)", async () => {
		const { sim, journals: [p0] } = room(14, ['x'], 1);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				// Execution A creates r with content c1 and ends.
				const a = p0.begin();
				expect(await p0.claim('r', a)).toBe(true);
				p0.keep('r', a);
				p0.done('r', 'c1', undefined, a);
				await sim.sleep(100);
				// Execution B of the process has r too (its row in line, in turn after A's): the row stays the process's.
				const b = p0.begin();
				expect(await p0.standing('r', b)).toBe('mine');
				const endA = p0.end(a);
				await sim.sleep(200);
				// While A's end waits for its check, B sends r again with content c2 (the sheet changed) and writes its pair.
				p0.keep('r', b);
				p0.done('r', 'c2', 'c1', b);
				await endA;
				await p0.end(b);
				seen.pairs = entries(sim.store, 'done').sort();
				seen.oldContent = await later(sim.world, sim.store, sim.sleep, 'r', 'c1');
				seen.newContent = await later(sim.world, sim.store, sim.sleep, 'r', 'c2');
			})(),
		);
		expect(seen).toEqual({ pairs: pairOf('r', 'c2'), oldContent: 'known', newContent: 'same' });
	});

	it("the change's promise for a row sent in part (an update with a record that failed: no content pair): another process's unused contest for the row's e-mail taken off before the sending run's end, that end writes the e-mail's claim back", async () => {
		const { sim, journals: [p0, p1] } = room(15, [claimOf('phone'), ...doneOf('phone', 'c0')]);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				// p1, matched by e-mail, wins the e-mail as a new row (prepared ahead) and never sends it.
				const byEmail = p1.begin();
				expect(await p1.standing('email', byEmail)).toBe('mine');
				// p0, matched by phone, updates the candidate; one record fails: no content (rows.ts settled: done with undefined).
				const byPhone = p0.begin();
				expect(await p0.standing('phone', byPhone)).toBe('known');
				p0.follow('phone', ['email'], byPhone);
				p0.keep('phone', byPhone);
				p0.keep('email', byPhone);
				p0.done('phone', undefined, 'c0', byPhone);
				await sim.sleep(300);
				seen.emailAnswer = p0.answered('email');
				await p1.end(byEmail);
				await p0.end(byPhone);
				seen.claims = entries(sim.store, claimOf('email'));
			})(),
		);
		expect(seen).toEqual({ emailAnswer: 'known', claims: [claimOf('email')] });
	});

	it('Adopt Given Slugs while another process\'s stopped run held the row as new (prepared ahead, never sent): once that run took its unused claim off before the adopting run\'s end, that end writes the claim back (the adopted row is not created again)', async () => {
		const { sim, journals: [p0, p1] } = room(16, ['x']);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const stopped = p1.begin();
				expect(await p1.standing('r', stopped)).toBe('mine');
				// Adopt Given Slugs of r in p0 (way.ts adoptThroughMemory: follow, then remember → keep; its content changed since).
				const adopt = p0.begin();
				p0.follow('r', [], adopt);
				p0.keep('r', adopt);
				await sim.sleep(100);
				seen.answer = p0.answered('r');
				await p1.end(stopped);
				await p0.end(adopt);
				seen.claims = entries(sim.store, claimOf('r'));
				await sim.sleep(60_000);
				const fresh = new Process('z0', sim.world, sim.store, quick).shared.journal;
				const visit = fresh.begin();
				seen.fresh = await fresh.standing('r', visit);
				await fresh.end(visit);
			})(),
		);
		expect(seen).toEqual({ answer: 'known', claims: [claimOf('r')], fresh: 'known' });
	});

	it('no unbounded growth: in a process whose executions always overlap (none idle), the per-execution lists and the content pairs of visits.ts hold only the rows of running executions', async () => {
		const { sim, journals: [p0] } = room(18, ['x'], 1);
		// (Before this review's fixes the pairs were `contents` of journal.ts, kept until the process was idle.)
		const inside = p0 as unknown as { visits: { rows: Map<number, Set<string>>; followed: Map<number, Map<string, unknown>>; pairs: Map<string, unknown> } };
		const sizes = (lists: Iterable<{ size: number }>) => [...lists].reduce((sum, list) => sum + list.size, 0);
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				let running = p0.begin();
				for (let round = 0; round < 20; round++) {
					// The next execution starts before the last one ends; each creates one row of its own.
					const next = p0.begin();
					expect(await p0.claim(`r${round}`, running)).toBe(true);
					p0.follow(`r${round}`, [`phone${round}`], running);
					p0.keep(`r${round}`, running);
					p0.done(`r${round}`, 'c', undefined, running);
					await p0.end(running);
					running = next;
				}
				seen.lists = sizes(inside.visits.rows.values());
				seen.followed = sizes(inside.visits.followed.values());
				seen.pairs = inside.visits.pairs.size;
				await p0.end(running);
			})(),
		);
		expect(seen).toEqual({ lists: 0, followed: 0, pairs: 0 });
	});
});
