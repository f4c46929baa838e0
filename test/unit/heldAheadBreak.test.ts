/**
 * memory/pace.ts `heldAhead`, the rows one execution prepared ahead that this process holds: they
 * are prepared besides the pace, so a note that never left would widen the window for good. It
 * never goes below 0, it is always the number of held rows noted, and once every row prepared was
 * taken (in order, out of order by a few, repeated) it is 0.
 */
import { systemClock } from '../../nodes/Recruiting/memory/clock';
import { Pace, PaceSamples } from '../../nodes/Recruiting/memory/pace';

/** A small deterministic generator (the same sequences every run). */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

describe('Pace.heldAhead', () => {
	it('random rows (repeated keys, held or not, some failing their checks, taken in order or a little out of order): never below 0, always the held notes, and 0 once every row is taken', () => {
		for (let seed = 1; seed <= 300; seed++) {
			const next = random(seed);
			const pace = new Pace(systemClock, new PaceSamples());
			const length = 5 + Math.floor(next() * 60);
			const rows = Array.from({ length }, () => ({ key: `k${Math.floor(next() * 12)}`, held: next() < 0.5, fails: next() < 0.2 }));
			// The model: the notes in the order prepared (a key prepared again moves to the end).
			const notes = new Map<string, boolean>();
			const check = () => {
				expect(pace.heldAhead).toBeGreaterThanOrEqual(0);
				expect(pace.heldAhead).toBe([...notes.values()].filter(Boolean).length);
			};
			let prepared = 0;
			let taken = 0;
			while (taken < length) {
				if (prepared < length && (prepared === taken || next() < 0.6)) {
					const row = rows[prepared++];
					pace.prepare(row.key, row.held);
					notes.delete(row.key);
					notes.set(row.key, row.held);
				} else {
					// Now and then the next two rows reach their turn in swapped order (concurrency).
					const order = taken + 1 < prepared && next() < 0.2 ? [taken + 1, taken] : [taken];
					for (const index of order) {
						const row = rows[index];
						if (row.fails) continue;
						pace.took(row.key, !row.held);
						if (notes.has(row.key)) {
							for (const key of [...notes.keys()]) {
								notes.delete(key);
								if (key === row.key) break;
							}
						}
					}
					taken += order.length;
				}
				check();
			}
			const last = [...rows].reverse().find((row) => !row.fails);
			// Every row after the last one taken failed: those notes are all that may stay.
			const trailing = rows.slice(rows.lastIndexOf(last!) + 1);
			if (last === undefined || trailing.length === 0) expect(pace.heldAhead).toBe(0);
		}
	});

	it('notes leave when their rows are taken, and with the first row taken after them when they never are (they failed their checks); a row taken that was not prepared changes nothing', () => {
		const pace = new Pace(systemClock, new PaceSamples());
		pace.prepare('a', true);
		pace.prepare('b', true);
		pace.prepare('c', false);
		pace.prepare('d', true);
		expect(pace.heldAhead).toBe(3);
		pace.took('a', false);
		expect(pace.heldAhead).toBe(2);
		pace.took('x', true);
		expect(pace.heldAhead).toBe(2);
		// b failed its checks (never taken): it leaves with c.
		pace.took('c', true);
		expect(pace.heldAhead).toBe(1);
		pace.passed('d'); // forgotten
		expect(pace.heldAhead).toBe(0);
	});

	it('a held row prepared twice (its copy further down) is taken once per copy: the count never goes below 0 and ends at 0', () => {
		const pace = new Pace(systemClock, new PaceSamples());
		pace.prepare('a', true);
		pace.prepare('b', true);
		pace.prepare('a', true);
		expect(pace.heldAhead).toBe(2);
		pace.took('a', false);
		pace.took('b', false);
		pace.took('a', false);
		expect(pace.heldAhead).toBe(0);
		pace.took('a', false);
		pace.took('zz', true);
		expect(pace.heldAhead).toBe(0);
	});

	it('a held row whose copy failed its checks right before it: its note leaves with the good copy', () => {
		const pace = new Pace(systemClock, new PaceSamples());
		pace.prepare('h', true); // the failing copy (never taken)
		pace.prepare('h', true); // the good copy
		pace.prepare('n', false);
		expect(pace.heldAhead).toBe(1);
		pace.took('h', false);
		expect(pace.heldAhead).toBe(0);
		pace.took('n', true);
		expect(pace.heldAhead).toBe(0);
	});
});
