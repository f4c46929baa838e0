/**
 * The transport's waits (transport/pacer.ts) are durations: they are read from the time that
 * passes, not the wall clock. A wall clock set back during a wait (an NTP step, or by hand) made
 * the wait, and Max Requests per Second's next turn, last that much longer: a step of a minute
 * stalled the run for a minute. Jest's fake clock moves the wall clock (`setSystemTime`) without
 * moving the time that passes (`performance.now`), as such a step does.
 */
import { Pacer, cancellableWait } from '../../nodes/Recruiting/transport/pacer';

const STEP_BACK_MS = 60_000;

beforeEach(() => jest.useFakeTimers({ now: 1_800_000_000_000 }));
afterEach(() => jest.useRealTimers());

/** Whether `promise` has settled once `ms` of time passed, with the wall clock set back at the start. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let settled = false;
	void promise.then(() => (settled = true));
	jest.setSystemTime(Date.now() - STEP_BACK_MS);
	await jest.advanceTimersByTimeAsync(ms);
	return settled;
}

describe('a wall clock set back during a wait', () => {
	it('a wait of 1 s ends after about 1 s (before: after 61 s)', async () => {
		const wait = cancellableWait(() => false);
		expect(await settledWithin(wait(1_000), 1_100)).toBe(true);
	});

	it('Max Requests per Second: the next turn comes one interval after the last start (before: a minute later)', async () => {
		const pacer = new Pacer(1_000);
		const wait = cancellableWait(() => false);
		await pacer.turn(wait);
		expect(await settledWithin(pacer.turn(wait), 1_100)).toBe(true);
	});

	it('the turn still waits its interval', async () => {
		const pacer = new Pacer(1_000);
		const wait = cancellableWait(() => false);
		await pacer.turn(wait);
		let settled = false;
		void pacer.turn(wait).then(() => (settled = true));
		await jest.advanceTimersByTimeAsync(900);
		expect(settled).toBe(false);
		await jest.advanceTimersByTimeAsync(200);
		expect(settled).toBe(true);
	});
});
