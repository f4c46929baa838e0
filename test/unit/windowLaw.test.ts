/**
 * Issue 48: Concurrency Mode Auto against windows of any length, on a simulated clock, through the
 * real transport (`test/helpers/transportSim.ts`: `apiRequest` with its retries, the controller,
 * the router's slots) and the sandbox's own limiters. Every case prints its figures and the seed
 * it drew its jitter from; each is bounded in its 429 share and its time over the ideal.
 */
import { simulateRun } from '../helpers/transportSim';
import type { SimOptions, SimRun, SimService } from '../helpers/transportSim';
import { print } from '../sim/host';

/** 2026-11-27 00:00:00 UTC plus a phase: where the clock starts. */
const EPOCH = Date.UTC(2026, 10, 27);

async function runCase(label: string, service: SimService, options: SimOptions, phaseMs = 0): Promise<SimRun> {
	jest.useFakeTimers({ now: EPOCH + phaseMs });
	const run = await simulateRun(service, options);
	print(
		`${label} (seed ${options.seed}): ${run.sent} sent, ${run.answered429} answered 429 (${((100 * run.answered429) / run.sent).toFixed(2)} %), ${run.failed} failed, ${(run.elapsedMs / 1000).toFixed(1)} s, longest silence ${(run.longestSilenceMs / 1000).toFixed(1)} s (asked ${(run.longestAskedMs / 1000).toFixed(0)} s)`,
	);
	return run;
}

afterEach(() => jest.useRealTimers());

describe('issue 48: a per-minute quota (1,200 per 60 s, a fixed window, Retry-After to its end)', () => {
	it('3,000 creations without headers: waited out once at each window end, ≤ 1.2× the ideal, no silence longer than the longest Retry-After', async () => {
		const run = await runCase('fixed 1200/60 s, no headers', { kind: 'fixed', policies: [{ name: 'default', limit: 1200, windowS: 60 }] }, { items: 3000, seed: 48 }, 5_000);
		expect(run.failed).toBe(0);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * 150_000);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(run.longestAskedMs + 1_000);
	});
});

const HEADER_STYLES = ['x', 'x-unix', 'ietf', 'ietf-draft'] as const;

describe('issue 48: per-minute and per-hour windows, with and without headers', () => {
	const minute = [{ name: 'default', limit: 1200, windowS: 60 }];
	const cases: Array<[string, SimService, number, number]> = [];
	for (const kind of ['fixed', 'sliding'] as const) {
		cases.push([`${kind} 1200/60 s, no headers`, { kind, policies: minute }, 0.1, 1.2]);
		for (const style of HEADER_STYLES) cases.push([`${kind} 1200/60 s, headers ${style}`, { kind, policies: minute, style }, 0.01, 1.2]);
	}
	it.each(cases)('%s: 3,000 creations, 429 share and time over the ideal bounded, no silence beyond the longest Retry-After', async (label, service, share, overIdeal) => {
		const run = await runCase(label, service, { items: 3000, seed: 4801, jitterMs: 10 }, 17_000);
		expect(run.failed).toBe(0);
		expect(run.answered429 / run.sent).toBeLessThanOrEqual(share);
		expect(run.elapsedMs).toBeLessThanOrEqual(overIdeal * 150_000);
		// Nothing waits past the window's end (what the service asked, in a Retry-After or its reset).
		expect(run.longestSilenceMs).toBeLessThanOrEqual(60_000 + 1_000);
	});

	it.each(['fixed', 'sliding'] as const)('%s 500 per hour, the bound raised to an hour: 1,200 creations in three windows, each waited out once at its end', async (kind) => {
		const run = await runCase(`${kind} 500/3600 s, no headers, bound 1 h`, { kind, policies: [{ name: 'default', limit: 500, windowS: 3600 }] }, { items: 1200, seed: 4802, maxDelayMs: 3_600_000 }, 60_000);
		expect(run.failed).toBe(0);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * (1200 / 500) * 3_600_000);
		expect(run.answered429 / run.sent).toBeLessThanOrEqual(0.2);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(run.longestAskedMs + 1_000);
	});

	it('500 per hour with the documented bound (30 s): every wait ≤ 30 s, one request looks each time, none fails', async () => {
		const run = await runCase('fixed 500/3600 s, no headers, bound 30 s', { kind: 'fixed', policies: [{ name: 'default', limit: 500, windowS: 3600 }] }, { items: 700, seed: 4803 }, 3_000_000);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(31_000);
		expect(run.failed).toBe(0);
	});

	// X-RateLimit names one policy at a time (the one with the fewest left): the quota seen jumps between 40 and 1,200.
	it.each([
		['x', 0.05],
		['ietf', 0.01],
	] as const)('several policies at once (40 per second and 1,200 per minute), headers %s: ≤ %d answered 429, ≤ 1.2× the ideal', async (style, share) => {
		const policies = [
			{ name: 'second', limit: 40, windowS: 1 },
			{ name: 'minute', limit: 1200, windowS: 60 },
		];
		const run = await runCase(`fixed 40/1 s + 1200/60 s, headers ${style}`, { kind: 'fixed', policies, style }, { items: 3000, seed: 4804, jitterMs: 10 }, 17_000);
		expect(run.failed).toBe(0);
		expect(run.answered429 / run.sent).toBeLessThanOrEqual(share);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * 150_000);
	});
});

describe('issue 48: one-second windows with a service clock ahead or behind, and each form of Retry-After', () => {
	const cases: Array<[string, SimService]> = [];
	for (const skewMs of [-5000, -2000, 0, 2000, 5000]) for (const kind of ['fixed', 'sliding'] as const) cases.push([`${kind} 40/1 s, headers x-unix, clock ${skewMs} ms`, { kind, policies: [{ name: 'default', limit: 40, windowS: 1 }], style: 'x-unix', skewMs }]);
	it.each(cases)('%s: first and next run ≤ 1 %% answered 429 and ≤ 1.2× the ideal', async (label, service) => {
		jest.useFakeTimers({ now: EPOCH + 337 });
		const state = {};
		const first = await simulateRun(service, { items: 600, seed: 4805, jitterMs: 10 }, state);
		const next = await simulateRun(service, { items: 600, seed: 4806, jitterMs: 10, resumeFrom: first.pace }, state);
		print(`${label} (seeds 4805, 4806): first ${first.answered429} 429 ${(first.elapsedMs / 15_000).toFixed(2)}x; next ${next.answered429} 429 ${(next.elapsedMs / 15_000).toFixed(2)}x`);
		for (const run of [first, next]) {
			expect(run.answered429 / run.sent).toBeLessThanOrEqual(0.01);
			expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * 15_000);
		}
	});

	const forms: Array<[string, SimService]> = [];
	for (const retryAfter of ['seconds', 'date', 'zero'] as const) {
		for (const skewMs of [-5000, 0, 5000]) forms.push([`fixed 40/1 s, no headers, Retry-After ${retryAfter}, clock ${skewMs} ms`, { kind: 'fixed', policies: [{ name: 'default', limit: 40, windowS: 1 }], retryAfter, skewMs }]);
		forms.push([`fixed 200/10 s, no headers, Retry-After ${retryAfter}`, { kind: 'fixed', policies: [{ name: 'default', limit: 200, windowS: 10 }], retryAfter }]);
	}
	it.each(forms)('%s: none fails, ≤ 1.5× the ideal, no silence beyond the longest wait asked (at least a second)', async (label, service) => {
		const run = await runCase(label, service, { items: 600, seed: 4807, jitterMs: 10 }, 337);
		const ideal = (600 / service.policies[0].limit) * service.policies[0].windowS * 1000;
		expect(run.failed).toBe(0);
		expect(run.elapsedMs).toBeLessThanOrEqual(1.5 * ideal);
		// `Retry-After: 0` from a service still closed says no wait: the run holds a second, then twice as long each time (at most twice the window).
		const asked = service.retryAfter === 'zero' ? 2 * service.policies[0].windowS * 1000 : Math.max(1_000, run.longestAskedMs);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(asked + 1_000);
	});
});

describe('issue 48: a sliding second whose reset is given in whole seconds, never below 1', () => {
	it.each(['x', 'ietf'] as const)('headers %s, 600 creations under 40 per second, first and next run: ≤ 1 %% answered 429, ≤ 1.2× the ideal', async (style) => {
		jest.useFakeTimers({ now: EPOCH + 337 });
		const service: SimService = { kind: 'sliding', policies: [{ name: 'default', limit: 40, windowS: 1 }], style, resetAtLeast1: true };
		const state = {};
		const first = await simulateRun(service, { items: 600, seed: 4809, jitterMs: 10 }, state);
		const next = await simulateRun(service, { items: 600, seed: 4810, jitterMs: 10, resumeFrom: first.pace }, state);
		print(`sliding 40/1 s, headers ${style}, reset ≥ 1 s (seeds 4809, 4810): first ${first.answered429} 429 ${(first.elapsedMs / 15_000).toFixed(2)}x; next ${next.answered429} 429 ${(next.elapsedMs / 15_000).toFixed(2)}x`);
		for (const run of [first, next]) {
			expect(run.answered429 / run.sent).toBeLessThanOrEqual(0.01);
			expect(run.elapsedMs).toBeLessThanOrEqual(1.2 * 15_000);
		}
	});
});

describe('issue 48: a 503 in maintenance with Retry-After: 3600', () => {
	it('12 creations, maintenance for 45 s: nothing is held past the 30 s bound, every creation is made', async () => {
		const run = await runCase('503 Retry-After 3600 for 45 s', { kind: 'bucket', policies: [{ name: 'default', limit: 1000, windowS: 1 }], maintenanceMs: 45_000, maintenanceRetryS: 3600 }, { items: 12, seed: 4808 });
		expect(run.failed).toBe(0);
		expect(run.longestSilenceMs).toBeLessThanOrEqual(30_500);
	});
});
