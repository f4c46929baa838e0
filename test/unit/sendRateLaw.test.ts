/**
 * Issue 40: Concurrency Mode Auto against a service that announces nothing, in a deterministic
 * simulation: jest's fake clock (Date.now, and n8n's `sleep`), no real timer. The whole
 * controller (law.ts, sendRate.ts, quota.ts) runs as the transport drives it: each item waits for
 * a slot, each attempt for its turn; the service (the sandbox's own limiters, test/sandbox/limiter.ts)
 * counts a request 1 ms after it is sent and answers 20 ms later, a 429 with Retry-After in whole
 * seconds, which the request waits before it is sent again. On a loaded machine each leg takes up
 * to 30 ms longer: the jittered cases draw each leg's extra from a generator seeded by the case
 * (the same draws in every run). A first run starts with nothing
 * learned; the next run starts from the pace the first left (`Controller.resume`), as the next
 * execution in the same process does. The law, per limiter and start within the second:
 * first run ≤ 5 % answered 429 and ≤ 1.5× the ideal time; next run ≤ 1 % and ≤ 1.2×.
 */
import { sleep } from 'n8n-workflow';

import { Controller } from '../../nodes/Recruiting/transport/controller';
import type { Pace } from '../../nodes/Recruiting/transport/controller';
import { DEFAULT_MAX_CONCURRENCY } from '../../nodes/Recruiting/actions/shared/options';
import { AUTO_START } from '../../nodes/Recruiting/transport/law';
import { mulberry32 } from '../sandbox/faults';
import { LIMITER_KINDS, Limiter } from '../sandbox/limiter';
import type { LimiterKind } from '../sandbox/limiter';
import { print } from '../sim/host';

/** 2026-11-27 00:00:00 UTC: the clock starts here plus a phase. */
const EPOCH = Date.UTC(2026, 10, 27);
const PER_SECOND = 40;
const ITEMS = 600;
const IDEAL_MS = (ITEMS / PER_SECOND) * 1000;

interface Run {
	sent: number;
	answered429: number;
	elapsedMs: number;
	pace?: Pace;
}

async function oneRun(limiter: Limiter, jitterMs: number, draw: () => number, resumeFrom?: Pace): Promise<Run> {
	const controller = new Controller({ mode: 'auto', concurrency: AUTO_START, maxConcurrency: DEFAULT_MAX_CONCURRENCY });
	if (resumeFrom) controller.resume(resumeFrom);
	const run: Run = { sent: 0, answered429: 0, elapsedMs: 0 };
	const start = Date.now();
	const wait = async (ms: number) => await sleep(ms);
	const item = async () => {
		if (!(await controller.slot())) return;
		try {
			for (;;) {
				await controller.turn(wait);
				const startedAt = controller.sent();
				run.sent += 1;
				await sleep(1 + Math.floor(draw() * jitterMs));
				const retryAfter = limiter.take(Date.now());
				await sleep(20 + Math.floor(draw() * jitterMs));
				const retryAfterMs = retryAfter === undefined ? undefined : Number(retryAfter) * 1000;
				controller.record(retryAfter === undefined ? 'ok' : 'throttled', startedAt, Date.now() - startedAt, retryAfterMs, { method: 'POST', headers: {} });
				if (retryAfter === undefined) return;
				run.answered429 += 1;
				await sleep(Number(retryAfter) * 1000);
			}
		} finally {
			controller.release();
		}
	};
	const all = Promise.all(Array.from({ length: ITEMS }, item));
	await jest.runAllTimersAsync();
	await all;
	run.elapsedMs = Date.now() - start;
	run.pace = controller.pace();
	return run;
}

const table: Array<[LimiterKind, number, number]> = [];
for (const kind of LIMITER_KINDS) for (const jitterMs of [0, 30]) for (const phaseMs of [0, 123, 337, 555, 780, 990]) table.push([kind, phaseMs, jitterMs]);

describe('issue 40: Auto without rate-limit headers, each limiter (simulated clock)', () => {
	afterEach(() => jest.useRealTimers());

	it.each(table)('%s, starting %i ms into a second, each leg up to %i ms slower: first run ≤ 5 %% answered 429 and ≤ 1.5× the ideal; next run ≤ 1 %% and ≤ 1.2×', async (kind, phaseMs, jitterMs) => {
		jest.useFakeTimers({ now: EPOCH + phaseMs });
		const limiter = new Limiter(kind, [{ name: 'default', limit: PER_SECOND, windowS: 1 }]);
		const draw = mulberry32(phaseMs + 1);
		const first = await oneRun(limiter, jitterMs, draw);
		const next = await oneRun(limiter, jitterMs, draw, first.pace);
		print(
			`${kind} phase ${phaseMs} jitter ${jitterMs}: first ${((100 * first.answered429) / first.sent).toFixed(2)} % ${(first.elapsedMs / IDEAL_MS).toFixed(2)}x; next ${((100 * next.answered429) / next.sent).toFixed(2)} % ${(next.elapsedMs / IDEAL_MS).toFixed(2)}x`,
		);
		expect(first.answered429 / first.sent).toBeLessThanOrEqual(0.05);
		expect(first.elapsedMs / IDEAL_MS).toBeLessThanOrEqual(1.5);
		expect(next.answered429 / next.sent).toBeLessThanOrEqual(0.01);
		expect(next.elapsedMs / IDEAL_MS).toBeLessThanOrEqual(1.2);
	});
});
