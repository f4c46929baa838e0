/**
 * A row's other key at an end (journal.ts `end`, `follow`; MEMSIM seed 95327 of "two people sharing a phone"). Matched by phone, a
 * row updates a candidate and is remembered under its e-mail too (journal.ts `keep` asks that key's claim). When the claim is there
 * at that moment because another process is contesting the e-mail as a new row (a run matched by e-mail, the row prepared ahead),
 * and that process never sends it, its end takes the claim off: the row's e-mail then reads as new, and a run matched by e-mail
 * creates the person again beside the candidate that holds the e-mail. The end of a run that sent the row now checks its other keys'
 * claims with its own, and writes back what is missing. Where the other process lets the claim go only after that check, the claim
 * stays off: the stated limit (docs/create-or-update.md, "What a switch does not cover"). Last, what an end could not check (its
 * call failed) goes to the end of an execution running then only (memory/visits.ts `carried`).
 */
import { claimOf, doneOf } from '../../nodes/Recruiting/memory/marks';
import { entries, hooked, Process, quick, setup } from '../sim/journalBreak';

/**
 * p1 (matched by e-mail) wins the e-mail's claim as a new row and never sends it; p0 (matched by phone) updates the candidate, keeps
 * the row under its e-mail while p1's claim is there, and writes its content under the phone. `p1EndsFirst`: p1's end (which takes
 * its unused claim off) runs before p0's end, else after it. Returns the e-mail's claim and race as they are after both ends.
 */
async function play(p1EndsFirst: boolean): Promise<string[]> {
	const { world, store, sleep } = setup(1, ['claim:phone']);
	const p0 = new Process('p0', world, store, quick);
	const p1 = new Process('p1', world, store, quick);
	await world.run(
		(async () => {
			const byEmail = p1.shared.journal.begin();
			expect(await p1.shared.journal.standing('email', byEmail)).toBe('mine');
			const byPhone = p0.shared.journal.begin();
			const journal = p0.shared.journal;
			expect(await journal.standing('phone', byPhone)).toBe('known');
			// The update went through: the row is remembered under its phone and its e-mail (way.ts `rememberOutcome`), its content written.
			journal.follow('phone', ['email'], byPhone);
			journal.keep('phone', byPhone);
			journal.keep('email', byPhone);
			journal.done('phone', 'c', undefined, byPhone);
			await sleep(100);
			expect(journal.answered('email')).toBe('known');
			if (p1EndsFirst) {
				await p1.shared.journal.end(byEmail);
				await journal.end(byPhone);
			} else {
				await journal.end(byPhone);
				await p1.shared.journal.end(byEmail);
			}
		})(),
	);
	return [...entries(store, 'claim:email'), ...entries(store, 'race:email')];
}

describe("a row's other key, kept while another process's contest held its claim", () => {
	it('the end of the run that sent the row writes the claim back when that contest let it go first', async () => {
		expect((await play(true)).sort()).toEqual([claimOf('email'), 'race:email'].sort());
	});

	it('the stated limit: let go after that end, the claim stays off (n8n\'s store cannot say whose a claim is)', async () => {
		expect(await play(false)).toEqual([]);
	});

	it('an end whose check failed leaves its rows to the end of an execution running then, not to one begun later (which would write back a row forgotten since)', async () => {
		const sim = setup(3, ['x']);
		let failing = 2;
		// A's end check (the row's claim, race and content pair in one call) is refused twice by n8n's store.
		const p0 = hooked(sim.world, sim.store, { record: (values) => (values.includes('race:r') && values.includes(doneOf('r', 'c')[0]) && failing-- > 0 ? 'before' : undefined) }).shared.journal;
		const p1 = new Process('p1', sim.world, sim.store, quick).shared.journal;
		const seen: Record<string, unknown> = {};
		await sim.world.run(
			(async () => {
				const a = p0.begin();
				expect(await p0.claim('r', a)).toBe(true);
				p0.keep('r', a);
				p0.done('r', 'c', undefined, a);
				seen.endA = await p0.end(a).then(
					() => 'ended',
					() => 'failed',
				);
				// The row is forgotten in another process (its candidate deleted); then p0 runs an execution over other rows.
				const forget = p1.begin();
				await p1.forget('r', ['c']);
				await p1.end(forget);
				const later = p0.begin();
				expect(await p0.claim('other', later)).toBe(true);
				p0.keep('other', later);
				await p0.end(later);
				seen.claims = entries(sim.store, 'claim:r');
			})(),
		);
		expect(seen).toEqual({ endA: 'failed', claims: [] });
	});
});
