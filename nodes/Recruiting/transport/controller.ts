/**
 * How many items of a node run are in flight, and how fast requests start: one controller per
 * node run, owned by the run context. The router asks it for a slot before it starts an item
 * (`slot`), the transport asks it for a turn before each request (`turn`), says when it is sent
 * (`sent`) and how it was answered (`record`). Nothing else learns how it decides.
 *
 * `fixed`: the limit is the user's Concurrent Requests, always; nothing is learned.
 *
 * `auto` puts three concerns together, each in its own module:
 * - `law.ts`: the limit of requests in flight (slow start, AIMD on losses, Vegas on latency) and
 *   the run-wide hold after a round of 503s with Retry-After;
 * - `sendRate.ts`: the send rate learned from 429s (AWS adaptive retry, CUBIC growth);
 * - `rateHeaders.ts` and `quota.ts`: the quotas the service announces in its headers (every
 *   policy; in flight counts against what remains), paced to from the first answers.
 * A request's turn waits for the hold, then the learned rate, then a token of the quota; the
 * transport's own pacer (Max Requests per Second) comes after them, so nothing released at the end
 * of a hold or a wait starts faster than the cap. Max Requests per Second caps the learned rate
 * too. A 429 does not shrink the limit (the service limits a rate, not requests in flight), it
 * ends slow start.
 *
 * A run starts from the pace the last run against the same service left in this process
 * (`pace.ts`): the limit, whether slow start was on, the idle latency per kind of request, the
 * learned rate with the answers of the last two seconds, and the announced quota. What is kept is only
 * what the service showed: the limit grows only in rounds that used it (`law.ts`), so a run held
 * back by Max Requests per Second leaves no limit its service never saw. In queue mode every
 * execution has its own controller and each worker its own paces.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Decision, Signal } from './law';
import { ServiceClock } from './http';
import { Law, MAX_HOLD_MS } from './law';
import type { Waiter } from './pacer';
import { Pacer } from './pacer';
import type { KeptQuota } from './quota';
import { Quota } from './quota';
import { readRates } from './rateHeaders';
import type { LearnedRate } from './sendRate';
import { SendRate } from './sendRate';

export { AUTO_START, MAX_HOLD_MS } from './law';
export type { Decision, Signal } from './law';

export type ConcurrencyMode = 'auto' | 'fixed';

/** While the first request after a hold is out, the others look again this often, and wait for it at most this long (ms). */
const PROBE_STEP_MS = 50;
const PROBE_PATIENCE_MS = 5000;

/** At most this many send times are kept of the requests on the wire (more than Max Concurrency allows). */
const MAX_ON_WIRE = 1024;

/** What a node run learned of the service's pace, for the next run against it to start from (`pace.ts`). */
export interface Pace {
	limit: number;
	slowStart: boolean;
	/** The lowest round median latency seen per method (ms). */
	idle: Record<string, number>;
	/** The learned send rate, and how far along its CUBIC curve it was. */
	rate?: LearnedRate;
	/** When the answers of the last two seconds that were not throttled came (ms since 1970). */
	accepted: number[];
	/** The quota the service announced, and what was left of it. */
	quota?: KeptQuota;
}

export interface ControllerSettings {
	mode: ConcurrencyMode;
	/** `fixed`: the number of items in flight; `auto`: where the limit starts. */
	concurrency: number;
	/** `auto`: the highest limit. */
	maxConcurrency: number;
	/** Max Requests per Second (0: none): the learned rate never exceeds it. */
	requestsPerSecond?: number;
}

/** What an answer said beyond its signal: the method of its request and its headers. */
export interface AnswerDetails {
	method?: string;
	headers?: IDataObject;
}

export class Controller {
	private readonly law: Law;

	private readonly rate: SendRate;

	private readonly quota = new Quota();

	private readonly auto: boolean;

	private inFlight = 0;

	/** When each request on the wire was sent (`auto`), oldest first: those sent after an answered one are not in what its answer says remains. */
	private readonly wire: number[] = [];

	/** The router's waits for a slot. */
	private waiting: Array<() => void> = [];

	private closed = false;

	private readonly pacer = new Pacer(() => (this.rate.rate ? 1000 / this.rate.rate : 0));

	/** The bound of one wait (ms). */
	private maxHold = MAX_HOLD_MS;

	/** The service's clock, read from its answers' `Date`. */
	private readonly clock = new ServiceClock();

	/** Until when a quota spent beyond the bound holds the run. */
	private quotaHold = 0;

	/** A hold was set: the first request after it goes alone (`turn`). */
	private probeDue = false;

	/** When that first request took its turn; cleared by its answer (or any of a request sent since). */
	private probeSince?: number;

	/** The last round's decision (tests and the benchmark's timeline). */
	lastDecision?: Decision;

	constructor(
		readonly settings: ControllerSettings,
		private readonly now: () => number = Date.now,
	) {
		this.auto = settings.mode === 'auto';
		this.law = new Law(this.auto ? settings.maxConcurrency : settings.concurrency);
		if (!this.auto) this.law.current = settings.concurrency;
		this.rate = new SendRate(settings.requestsPerSecond ?? 0);
	}

	get limit(): number {
		return this.law.current;
	}

	/** The learned send rate per second, or undefined (none learned). */
	get sendRate(): number | undefined {
		return this.rate.rate;
	}

	/** The quota's rate per second the service announced (0: none). */
	get announcedRate(): number {
		return this.quota.perSecond;
	}

	/** What this run has learned, to start the next run against the same service from (`fixed`: nothing). */
	pace(): Pace | undefined {
		if (!this.auto) return undefined;
		const now = this.now();
		const { accepted, rate } = this.rate.kept(now);
		const quota = this.quota.kept();
		return {
			limit: this.law.current,
			slowStart: this.law.slowStart,
			idle: Object.fromEntries(this.law.idle),
			accepted,
			...(rate ? { rate } : {}),
			...(quota ? { quota } : {}),
		};
	}

	/** Starts from what an earlier run against the same service learned (before the first slot); `fixed` ignores it. */
	resume(pace: Pace): void {
		if (!this.auto) return;
		const now = this.now();
		this.law.current = Math.max(1, Math.min(this.settings.maxConcurrency, Math.floor(pace.limit)));
		this.law.slowStart = pace.slowStart;
		for (const [kind, ms] of Object.entries(pace.idle ?? {})) this.law.idle.set(kind, ms);
		this.rate.resume(pace.accepted, pace.rate, now);
		if (pace.quota) this.quota.resume(pace.quota, now);
		this.notify();
	}

	/**
	 * Waits until an item may start (fewer in flight than the limit) and takes the slot; answers
	 * `false` without a slot once the controller is closed. Give the slot back with `release`.
	 */
	async slot(): Promise<boolean> {
		while (!this.closed && this.inFlight >= this.law.current) await new Promise<void>((resolve) => this.waiting.push(resolve));
		if (this.closed) return false;
		this.inFlight += 1;
		return true;
	}

	release(): void {
		this.inFlight -= 1;
		this.notify();
	}

	/** Ends every wait for a slot (the run stops, or is cancelled). */
	close(): void {
		this.closed = true;
		this.notify();
	}

	private notify(): void {
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	/** The bound of one wait (the retry policy's: 30 s unless raised): no hold is longer. */
	set maxHoldMs(ms: number) {
		this.maxHold = ms;
		this.law.maxHoldMs = ms;
		this.rate.maxHoldMs = ms;
	}

	/**
	 * Waits for a request's turn: the hold (a Retry-After, a quota spent for longer than the bound),
	 * the probe after a hold, the learned rate, a token of the announced quota. A hold set meanwhile
	 * holds it too. Returns early when a wait ended early (the run is stopping).
	 */
	async turn(wait: Waiter): Promise<void> {
		// `fixed` learns nothing (`record`): no hold, no learned rate, no quota to wait for.
		if (!this.auto) return;
		for (;;) {
			const held = this.holdUntil() - this.now();
			if (held > 0 || this.probing()) {
				if (!(await this.waited(wait, held > 0 ? held : PROBE_STEP_MS))) return;
				continue;
			}
			// The first request after a hold goes alone: the others wait for its answer (issue 48: a
			// hold that ended before the service opened sent every waiting request into a 429).
			const look = this.probeDue;
			if (look) {
				this.probeDue = false;
				this.probeSince = this.now();
			}
			const hold = this.holdUntil();
			await this.pacer.turn(wait);
			if (this.holdUntil() > hold) continue;
			const due = this.quota.take(this.now(), this.maxHold, look);
			if (due === undefined) {
				this.hold(this.now() + this.maxHold);
				continue;
			}
			if (due > 0) await this.quotaWait(wait, due);
			return;
		}
	}

	/** Waits `ms`; whether the whole wait passed (not: the run is stopping). */
	private async waited(wait: Waiter, ms: number): Promise<boolean> {
		const until = this.now() + ms;
		await wait(ms);
		return this.now() >= until;
	}

	/** Whether the first request after a hold is still out (waited for at most `PROBE_PATIENCE_MS`). */
	private probing(): boolean {
		return this.probeSince !== undefined && this.now() - this.probeSince < PROBE_PATIENCE_MS;
	}

	/** Until when every request is held: the law's hold after 503s, the learned rate's on a closed window, a quota spent beyond the bound. */
	private holdUntil(): number {
		return Math.max(this.law.holdUntil, this.rate.holdUntil, this.quotaHold);
	}

	private hold(until: number): void {
		this.quotaHold = Math.max(this.quotaHold, until);
		this.probeDue = true;
	}

	/** A login n8n sends along with the request that needed it: it waits for its own turn of the announced quota and counts there as sent. */
	async loginAlong(wait: Waiter): Promise<void> {
		if (!this.auto) return;
		const due = this.quota.take(this.now(), this.maxHold) ?? 0;
		if (due > 0) await this.quotaWait(wait, due);
		this.quota.sent(this.now());
	}

	private async quotaWait(wait: Waiter, due: number): Promise<void> {
		try {
			await wait(due);
		} finally {
			this.quota.departed();
		}
	}

	/** A request goes on the wire now: answers when (give it back to `record`, or to `left` if it gets no signal). */
	sent(): number {
		const now = this.now();
		if (this.auto) {
			this.law.sent();
			this.quota.sent(now);
			this.wire.push(now);
			if (this.wire.length > MAX_ON_WIRE) this.wire.shift();
		}
		return now;
	}

	/** A request left the wire without telling anything of the service (cancelled, never sent); `startedAt`: when it was sent. */
	left(startedAt?: number): void {
		if (!this.auto) return;
		this.law.left();
		this.offWire(startedAt);
		this.probeAnswered(startedAt);
	}

	/**
	 * A request took its turn and was not sent after all (request.ts: its session was renewed while it waited): when it was
	 * the first request after a hold (nothing sent since the look began), the next request looks instead.
	 */
	notSent(): void {
		if (!this.auto || this.probeSince === undefined) return;
		const since = this.probeSince;
		if (this.wire.some((at) => at >= since)) return;
		this.probeSince = undefined;
		this.probeDue = true;
	}

	/** An answer (or none) of a request sent at `startedAt`: the probe after a hold is back when it was sent since; whether it was it. */
	private probeAnswered(startedAt: number | undefined): boolean {
		const probe = this.probeSince !== undefined && startedAt !== undefined && startedAt >= this.probeSince;
		if (probe) this.probeSince = undefined;
		return probe;
	}

	/** Takes the request sent at `startedAt` off the wire; answers how many still on it were sent after it (or in the same millisecond). */
	private offWire(startedAt: number | undefined): number {
		const index = startedAt === undefined ? -1 : this.wire.indexOf(startedAt);
		this.wire.splice(Math.max(0, index), 1);
		if (startedAt === undefined) return 0;
		let later = 0;
		for (let i = this.wire.length - 1; i >= 0 && this.wire[i] >= startedAt; i--) later += 1;
		return later;
	}

	/**
	 * How one answer went. `startedAt`: when its request was sent (`sent`); `latencyMs`: how long
	 * the answer took; `retryAfterMs`: the Retry-After of a 503 (the law's run-wide hold) or of a 429
	 * (the learned rate's hold on a closed window). Answers whether it was the first request after a
	 * hold (a 429 to it is the run's look at the service, not a retry of its own).
	 */
	record(signal: Signal, startedAt: number, latencyMs: number, retryAfterMs?: number, details: AnswerDetails = {}): boolean {
		if (!this.auto) return false;
		const now = this.now();
		const readings = readRates(details.headers, this.clock.read(details.headers, now));
		// Sent after this one, still on the wire: not counted in what this answer says remains; they will spend it.
		const later = this.offWire(startedAt);
		if (readings.length > 0) this.quota.heard(readings, later, startedAt, now);
		this.quota.answered(startedAt, now);
		this.law.left();
		const probe = this.probeAnswered(startedAt);
		// A look sent against the announced quota's word (it held the run past the bound) and refused says the quota was right: it teaches no rate, the quota holds on.
		const againstQuota = probe && this.quota.looked(signal === 'ok', now);
		const held = this.holdUntil();
		if (signal === 'throttled' && againstQuota) this.hold(now + this.maxHold);
		else if (signal === 'throttled') {
			this.law.slowStart = false;
			this.rate.throttled(startedAt, now, retryAfterMs);
		} else this.rate.accept(now);
		// A 429's Retry-After is the learned rate's (above), not the law's: the law holds only on 503s.
		const decision = this.law.answer({ signal, startedAt, latencyMs, retryAfterMs: signal === 'throttled' ? undefined : retryAfterMs, method: details.method }, now);
		// The look after a hold refused 503 with Retry-After: still closed, as a 429 says (a rate limit answered 503): held again, one request looks after it.
		if (probe && signal === 'overloaded' && retryAfterMs !== undefined) this.hold(now + Math.min(this.maxHold, Math.max(retryAfterMs, PROBE_STEP_MS)));
		if (this.holdUntil() > held) this.probeDue = true;
		if (decision !== undefined) this.lastDecision = decision;
		if (decision === 'grow') this.notify();
		return probe;
	}
}
