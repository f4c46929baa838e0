/**
 * The pace a node run leaves for the next run against the same service (transport/pace.ts and
 * the controller's `pace` / `resume`): what is carried, what is not, for how long, how many, and
 * which runs share it (memory/keys.ts `paceScope`).
 */
import { paceScope } from '../../nodes/Recruiting/memory/keys';
import { AUTO_START, Controller } from '../../nodes/Recruiting/transport/controller';
import { MAX_PACES, PACE_TTL_MS, forgetPaces, keepPace, resumePace } from '../../nodes/Recruiting/transport/pace';

class Clock {
	t = 1_000_000;

	now = () => this.t;
}

const auto = (clock: Clock, maxConcurrency = 64, requestsPerSecond?: number) =>
	new Controller({ mode: 'auto', concurrency: 5, maxConcurrency, ...(requestsPerSecond ? { requestsPerSecond } : {}) }, clock.now);

/** Rounds of fast answers until the limit reaches `limit` (or stops growing). */
function grow(controller: Controller, clock: Clock, limit: number) {
	for (let rounds = 0; controller.limit < limit && rounds < 50; rounds++) {
		const startedAt = clock.t;
		clock.t += 50;
		const n = controller.limit;
		for (let i = 0; i < n; i++) controller.sent();
		for (let i = 0; i < n; i++) controller.record('ok', startedAt, 50);
	}
}

/** `n` accepted answers spread over the next second. */
function accepted(controller: Controller, clock: Clock, n: number) {
	for (let i = 0; i < n; i++) {
		clock.t += 1000 / n;
		controller.record('ok', clock.t - 20, 20);
	}
}

describe('a controller resumed from the pace of the run before', () => {
	it('starts at the limit the run before ended with, still in slow start if that one was', () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 20);
		const next = auto(clock);
		next.resume(first.pace()!);
		expect(next.limit).toBe(20);
		grow(next, clock, 21);
		// Slow start went on: 15 % more per round above 20.
		expect(next.limit).toBe(23);
	});

	it('keeps the learned send rate, and the answers of the last second count in its next throttle', () => {
		const clock = new Clock();
		const first = auto(clock);
		accepted(first, clock, 100);
		accepted(first, clock, 100);
		first.record('throttled', clock.t - 20, 20);
		expect(first.sendRate).toBeCloseTo(70, 5);
		accepted(first, clock, 100);
		const rate = first.sendRate!;
		const next = auto(clock);
		next.resume(first.pace()!);
		expect(next.sendRate).toBeCloseTo(rate, 5);
		// A 429 at once: the rate is taken of the 100 answers the service accepted in the last second (the run before's), not of none.
		clock.t += 1;
		next.record('throttled', clock.t - 20, 20);
		expect(next.sendRate).toBeGreaterThan(60);
	});

	it('issue 40: a run resumed after a pause reads its first second as a second, not over two (the pause sent nothing)', () => {
		const clock = new Clock();
		const first = auto(clock);
		for (let second = 0; second < 3; second++) accepted(first, clock, 40);
		clock.t += 1500;
		const next = auto(clock);
		next.resume(first.pace()!);
		accepted(next, clock, 40);
		next.record('throttled', clock.t - 20, 20);
		// 40 accepted in its last second: 0.7 × 40, not 0.7 × 20 (half of the last two seconds, half of them the pause).
		expect(next.sendRate).toBeCloseTo(28, 5);
	});

	it('a run that ended probing above the rate of its last throttle: the next starts at that rate, flat', () => {
		const clock = new Clock();
		const first = auto(clock);
		accepted(first, clock, 100);
		accepted(first, clock, 100);
		first.record('throttled', clock.t - 20, 20); // 70 per second, back to 95 along the curve
		for (let second = 0; second < 8; second++) accepted(first, clock, 100);
		expect(first.sendRate).toBeGreaterThan(95);
		const next = auto(clock);
		next.resume(first.pace()!);
		// The flat lies a margin under the rate of the throttle: 0.95 × 100.
		expect(next.sendRate).toBeCloseTo(95, 5);
		accepted(next, clock, 100);
		// On the flat of the curve: a second later still within 1 % of it.
		expect(next.sendRate).toBeLessThan(96);
	});

	it("never above the new run's Max Concurrency or Max Requests per Second", () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 64);
		accepted(first, clock, 100);
		first.record('throttled', clock.t - 20, 20);
		const next = auto(clock, 10, 5);
		next.resume(first.pace()!);
		expect(next.limit).toBe(10);
		expect(next.sendRate).toBe(5);
	});

	it('Fixed leaves no pace and takes none', () => {
		const clock = new Clock();
		const fixed = new Controller({ mode: 'fixed', concurrency: 3, maxConcurrency: 3 }, clock.now);
		expect(fixed.pace()).toBeUndefined();
		const first = auto(clock);
		grow(first, clock, 40);
		fixed.resume(first.pace()!);
		expect(fixed.limit).toBe(3);
	});
});

describe('the paces kept in the process (transport/pace.ts)', () => {
	afterEach(() => forgetPaces());

	it(`a run starts from the pace its service scope left; another scope starts at ${AUTO_START}`, () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 40);
		keepPace('scope-a', first, clock.t);
		const same = auto(clock);
		expect(resumePace('scope-a', same, clock.t)).toBe(true);
		expect(same.limit).toBe(first.limit);
		const other = auto(clock);
		expect(resumePace('scope-b', other, clock.t)).toBe(false);
		expect(other.limit).toBe(AUTO_START);
	});

	it(`is forgotten ${PACE_TTL_MS / 60000} minutes after it was left`, () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 40);
		keepPace('scope-a', first, clock.t);
		expect(resumePace('scope-a', auto(clock), clock.t + PACE_TTL_MS)).toBe(true);
		const late = auto(clock);
		expect(resumePace('scope-a', late, clock.t + PACE_TTL_MS + 1)).toBe(false);
		expect(late.limit).toBe(AUTO_START);
		// Gone for good, not only too old.
		expect(resumePace('scope-a', auto(clock), clock.t)).toBe(false);
	});

	it(`keeps at most ${MAX_PACES} scopes: the least recently used go`, () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 40);
		for (let i = 0; i < MAX_PACES; i++) keepPace(`scope-${i}`, first, clock.t);
		// scope-0 is used again: scope-1 is now the least recently used.
		expect(resumePace('scope-0', auto(clock), clock.t)).toBe(true);
		keepPace('scope-new', first, clock.t);
		expect(resumePace('scope-1', auto(clock), clock.t)).toBe(false);
		expect(resumePace('scope-0', auto(clock), clock.t)).toBe(true);
		expect(resumePace('scope-new', auto(clock), clock.t)).toBe(true);
		expect(resumePace(`scope-${MAX_PACES - 1}`, auto(clock), clock.t)).toBe(true);
	});

	it('a Fixed run leaves nothing', () => {
		const clock = new Clock();
		keepPace('scope-a', new Controller({ mode: 'fixed', concurrency: 3, maxConcurrency: 3 }, clock.now), clock.t);
		expect(resumePace('scope-a', auto(clock), clock.t)).toBe(false);
	});
});

describe('issue 32: only what the service showed is kept', () => {
	it('a run whose requests a rate held back (one on the wire at a time) leaves the limit it started with', () => {
		const clock = new Clock();
		const capped = auto(clock, 128, 2);
		for (let i = 0; i < 200; i++) {
			const startedAt = capped.sent();
			clock.t += 20;
			capped.record('ok', startedAt, 20, undefined, { method: 'POST' });
			clock.t += 480;
		}
		expect(capped.pace()!.limit).toBe(AUTO_START);
	});

	it('the idle latency is kept per method: an update slower than the creations before it is not a queue', () => {
		const clock = new Clock();
		const first = auto(clock);
		grow(first, clock, 20);
		expect(first.pace()!.idle).toEqual({ '': 50 });
		const next = auto(clock);
		next.resume(first.pace()!);
		for (let round = 0; round < 3; round++) {
			const startedAt = clock.t;
			clock.t += 300;
			const n = next.limit;
			for (let i = 0; i < n; i++) next.sent();
			for (let i = 0; i < n; i++) next.record('ok', startedAt, 300, undefined, { method: 'PUT' });
		}
		expect(next.limit).toBeGreaterThan(20);
		expect(next.pace()!.idle).toEqual({ '': 50, PUT: 300 });
	});
});

describe('paceScope: which runs share a pace', () => {
	const login = { baseUrl: 'https://api.example.com/', authentication: 'emailPassword', email: 'Ops@Example.com', password: 'secret-1' };

	it('the same service address, login and n8n credential: one scope, whatever the password or the way the address is written', () => {
		expect(paceScope({ ...login, password: 'rotated-2', baseUrl: 'api.example.com', email: ' ops@example.com ' }, 'c1')).toBe(paceScope(login, 'c1'));
	});

	it('another service, login, sign-in mode or n8n credential: another scope; no secret in it', () => {
		const base = paceScope(login, 'c1');
		expect(paceScope({ ...login, baseUrl: 'https://other.example.com' }, 'c1')).not.toBe(base);
		expect(paceScope({ ...login, email: 'hr@example.com' }, 'c1')).not.toBe(base);
		expect(paceScope({ baseUrl: login.baseUrl, authentication: 'apiKey', apiKey: 'key-1' }, 'c1')).not.toBe(base);
		expect(paceScope(login, 'c2')).not.toBe(base);
		expect(base).not.toContain('secret-1');
		expect(base).not.toContain('example');
	});
});
