/**
 * Concurrency Mode Auto on jest's fake clock: the real transport (`apiRequest` with its retries,
 * the run's controller, the router's slots) against a service given as a function of the time
 * and the request's number. Used by the reviews of 2026-11-30 (`test/unit/autoBreak4.test.ts`,
 * `test/unit/todayBreak2.test.ts`).
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../nodes/Recruiting/actions/shared/options';
import { Controller } from '../../nodes/Recruiting/transport/controller';
import { AUTO_START } from '../../nodes/Recruiting/transport/law';
import { print } from '../sim/host';
import { SimTransport, createAll, simContext } from './transportSim';

export { SimTransport, credentials } from './transportSim';

/** 2026-11-27 00:00:00 UTC: where the clock starts. */
export const EPOCH = Date.UTC(2026, 10, 27);

export interface Answer {
	statusCode: number;
	headers?: IDataObject;
	body?: unknown;
}

export interface Service {
	/** The answer to the request arriving at `now` (ms since 1970 on the node's clock). */
	answer: (now: number) => Answer;
	/** How long the answer takes after the request arrived (ms). */
	latencyMs?: (now: number) => number;
}

export interface Run {
	/** The failed requests\' messages. */
	errors: string[];
	sent: number;
	answered429: number;
	failed: number;
	done: number;
	elapsedMs: number;
	/** The longest time nothing was sent, after the first send (ms). */
	longestSilenceMs: number;
	/** The most requests on the wire at once. */
	peakInFlight: number;
	/** Sends per second of simulated time (index: the second since the start). */
	perSecond: number[];
	/** In flight at each send (the second since the start → the most seen that second). */
	inFlightBySecond: number[];
	finished: boolean;
	limit: number;
	sendRate?: number;
}

export const created = (headers: IDataObject = {}): Answer => ({ statusCode: 201, body: { message: 'Created', status: 201, data: { slug: 's' } }, headers });
export const tooMany = (headers: IDataObject = {}): Answer => ({ statusCode: 429, body: { message: 'Too Many Requests', status: 429 }, headers });

export async function simulate(service: Service, items: number, opts: { deadlineMs: number; requestsPerSecond?: number; maxRetries?: number } = { deadlineMs: 3_600_000 }): Promise<Run> {
	const start = Date.now();
	const run: Run = { sent: 0, answered429: 0, failed: 0, done: 0, elapsedMs: 0, longestSilenceMs: 0, peakInFlight: 0, perSecond: [], inFlightBySecond: [], finished: false, limit: 0, errors: [] };
	let lastSend = Number.NaN;
	let onWire = 0;
	const context = simContext(async () => {
		const now = Date.now();
		if (!Number.isNaN(lastSend)) run.longestSilenceMs = Math.max(run.longestSilenceMs, now - lastSend);
		lastSend = now;
		run.sent += 1;
		onWire += 1;
		run.peakInFlight = Math.max(run.peakInFlight, onWire);
		const second = Math.floor((now - start) / 1000);
		run.perSecond[second] = (run.perSecond[second] ?? 0) + 1;
		run.inFlightBySecond[second] = Math.max(run.inFlightBySecond[second] ?? 0, onWire);
		await sleep(1);
		const arrived = Date.now();
		const answered = service.answer(arrived);
		if (answered.statusCode === 429) run.answered429 += 1;
		await sleep(service.latencyMs?.(arrived) ?? 20);
		onWire -= 1;
		return { statusCode: answered.statusCode, body: answered.body ?? {}, headers: { date: new Date(Date.now()).toUTCString(), ...(answered.headers ?? {}) } };
	});
	const controller = new Controller({ mode: 'auto', concurrency: AUTO_START, maxConcurrency: DEFAULT_MAX_CONCURRENCY, requestsPerSecond: opts.requestsPerSecond ?? 0 });
	const transport = new SimTransport({ maxRetries: opts.maxRetries ?? 3, initialDelayMs: 1000, maxDelayMs: 30_000 }, opts.requestsPerSecond ?? 0, 60_000, controller);
	let finished = false;
	const told = {
		done: () => (run.done += 1),
		failed: (error: unknown) => {
			run.failed += 1;
			run.errors.push(error instanceof Error ? error.message : String(error));
		},
	};
	const all = createAll(items, context, transport, controller, told).then(() => (finished = true));
	while (!finished && Date.now() - start < opts.deadlineMs) await jest.advanceTimersByTimeAsync(250);
	run.finished = finished;
	run.elapsedMs = Date.now() - start;
	if (!finished && !Number.isNaN(lastSend)) run.longestSilenceMs = Math.max(run.longestSilenceMs, Date.now() - lastSend);
	run.limit = controller.limit;
	run.sendRate = controller.sendRate;
	if (!finished) {
		controller.close();
		transport.stop();
		await jest.runAllTimersAsync();
	}
	await all;
	return run;
}

export function figures(label: string, run: Run, idealMs?: number): string {
	const line = `${label}: ${run.sent} sent, ${run.answered429} answered 429, ${run.done} done, ${run.failed} failed${run.finished ? '' : ' (those still waiting, stopped at the deadline)'}, ${run.finished ? '' : 'NOT FINISHED after '}${(run.elapsedMs / 1000).toFixed(1)} s${idealMs ? ` (${(run.elapsedMs / idealMs).toFixed(2)} x the ideal ${(idealMs / 1000).toFixed(0)} s)` : ''}, longest silence ${(run.longestSilenceMs / 1000).toFixed(1)} s, peak in flight ${run.peakInFlight}, limit at end ${run.limit}, learned rate ${run.sendRate?.toFixed(2) ?? 'none'}`;
	print(line);
	return line;
}

afterEach(() => jest.useRealTimers());
