/**
 * The rows one execution prepared ahead and this process holds (memory/pace.ts `heldAhead`): they
 * are prepared besides the pace, so a note that never left would widen the window for good.
 */
import { systemClock } from '../../nodes/Recruiting/memory/clock';
import { Pace, PaceSamples } from '../../nodes/Recruiting/memory/pace';

const clock = systemClock;

describe('rows prepared ahead that this process holds', () => {
	it('leave the count when taken, and with the first row taken after them when they never are (they failed their checks)', () => {
		const pace = new Pace(clock, new PaceSamples());
		pace.prepare('a', true);
		pace.prepare('b', true);
		pace.prepare('c', false);
		pace.prepare('d', true);
		expect(pace.heldAhead).toBe(3);
		pace.took('a', false);
		expect(pace.heldAhead).toBe(2);
		// b failed its checks (never taken): it leaves with c.
		pace.took('c', true);
		expect(pace.heldAhead).toBe(1);
		pace.took('d', false);
		expect(pace.heldAhead).toBe(0);
	});

	it('a row taken that was not prepared (an alias, a row prepared when taken) changes nothing; a row prepared twice counts once', () => {
		const pace = new Pace(clock, new PaceSamples());
		pace.prepare('a', true);
		pace.prepare('a', true);
		pace.prepare('b', false);
		expect(pace.heldAhead).toBe(1);
		pace.took('x', true);
		expect(pace.heldAhead).toBe(1);
		pace.took('b', true);
		expect(pace.heldAhead).toBe(0);
	});
});
