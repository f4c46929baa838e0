/**
 * The control law of Concurrency Mode Auto (transport/law.ts) as tables: a sequence of rounds of
 * answers in, the decision and the limit after each round out, on a clock of the test's own (the
 * law draws no random numbers: the same answers give the same decisions).
 */
import type { Decision, Signal } from '../../nodes/Recruiting/transport/law';
import { Law, MAX_HOLD_MS } from '../../nodes/Recruiting/transport/law';

interface Round {
	/** Latency of the successful answers (ms). */
	ms?: number;
	/** How many answers are `signal` (the rest succeed). */
	lost?: number;
	signal?: Signal;
	/** A Retry-After on the lost answers (503s). */
	retryAfterMs?: number;
	/** Most requests on the wire at once in the round (default: the limit, all of it used). */
	wire?: number;
	method?: string;
}

/** Plays the rounds; answers [decision, limit] after each. */
function play(rounds: Round[], law = new Law(128), clock = { t: 0 }): Array<[Decision | undefined, number]> {
	const out: Array<[Decision | undefined, number]> = [];
	for (const round of rounds) {
		const n = law.current;
		const wire = round.wire ?? n;
		const startedAt = clock.t;
		clock.t += round.ms ?? 50;
		let decision: Decision | undefined;
		// `wire` requests go out together; each answer lets the next one out.
		for (let i = 0; i < Math.min(wire, n); i++) law.sent();
		for (let i = 0; i < n; i++) {
			const lost = i < (round.lost ?? 0);
			const signal: Signal = lost ? (round.signal ?? 'overloaded') : 'ok';
			decision = law.answer({ signal, startedAt, latencyMs: round.ms ?? 50, retryAfterMs: lost ? round.retryAfterMs : undefined, method: round.method ?? 'POST' }, clock.t) ?? decision;
			law.left();
			if (i + wire < n) law.sent();
		}
		out.push([decision, law.current]);
	}
	return out;
}

const fast = (count: number, extra: Round = {}): Round[] => Array.from({ length: count }, () => ({ ms: 50, ...extra }));

const table: Array<[string, Round[], Array<[Decision | undefined, number]>]> = [
	['slow start: from 10, doubles to 20, then 15 % more per round', fast(5), [['grow', 20], ['grow', 23], ['grow', 26], ['grow', 30], ['grow', 35]]],
	[
		'rounds a rate held back (at most 4 of 10 on the wire) do not grow it; one that used half does',
		[...fast(3, { wire: 4 }), { ms: 50, wire: 5 }],
		[['idle', 10], ['idle', 10], ['idle', 10], ['grow', 20]],
	],
	['more than a tenth of 20 lost halves it and ends slow start', [...fast(1), { ms: 50, lost: 3 }, ...fast(2)], [['grow', 20], ['halve', 10], ['grow', 11], ['grow', 12]]],
	['two losses in a round of 10 are not a tenth of 20', [{ ms: 50, lost: 2 }], [['grow', 20]]],
	['a round that all fails halves at once', [{ ms: 50, lost: 10, signal: 'dropped' }], [['halve', 5]]],
	['a lone 503 with Retry-After is not counted; two are', [...fast(1), { ms: 50, lost: 1, retryAfterMs: 1000 }, { ms: 50, lost: 3, retryAfterMs: 1000 }], [['grow', 20], ['grow', 23], ['halve', 11]]],
	[
		'in slow start one slow round holds, the second in a row ends slow start and takes one off',
		[...fast(1), { ms: 200 }, { ms: 200 }, { ms: 50 }],
		[['grow', 20], ['hold', 20], ['shrink', 19], ['grow', 20]],
	],
	['429s are not losses: the limit is not about a rate', [{ ms: 50, lost: 10, signal: 'throttled' }], [['grow', 20]]],
	[
		'latency alone never takes it below 5 (version 1\'s default), though it starts at 10',
		[{ ms: 50 }, ...fast(18, { ms: 300 })],
		[['grow', 20], ['hold', 20], ...Array.from({ length: 15 }, (_, i): [Decision, number] => ['shrink', 19 - i]), ['hold', 5], ['hold', 5]],
	],
	[
		'a slower kind of request is judged by its own idle latency, not the faster one\'s',
		[...fast(2, { ms: 5, method: 'POST' }), ...fast(3, { ms: 150, method: 'PUT' })],
		[['grow', 20], ['grow', 23], ['grow', 26], ['grow', 30], ['grow', 35]],
	],
];

describe('the control law, answer by answer', () => {
	it.each(table)('%s', (_name, rounds, expected) => {
		expect(play(rounds)).toEqual(expected);
	});

	it('never above Max Concurrency', () => {
		expect(play(fast(6), new Law(28)).map(([, limit]) => limit)).toEqual([20, 23, 26, 28, 28, 28]);
	});

	it('answers to requests sent before a halving are not counted', () => {
		const law = new Law(128);
		play(fast(1), law);
		play([{ ms: 50, lost: 20 }], law);
		expect(law.current).toBe(10);
		for (let i = 0; i < 20; i++) expect(law.answer({ signal: 'overloaded', startedAt: 0, latencyMs: 50 }, 1000)).toBeUndefined();
		expect(law.current).toBe(10);
	});

	it('a halving on 503s with Retry-After holds the run until then, at most 30 s', () => {
		const clock = { t: 0 };
		const law = new Law(128);
		play([{ ms: 50, lost: 10, retryAfterMs: 2000 }], law, clock);
		expect(law.holdUntil).toBe(clock.t + 2000);
		play([{ ms: 50, lost: 5, retryAfterMs: 3_600_000 }], law, clock);
		expect(law.holdUntil).toBe(clock.t + MAX_HOLD_MS);
	});
});
