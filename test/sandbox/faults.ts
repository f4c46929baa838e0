/**
 * Fault injection of the sandbox: latency, hangs, pre-work and after-work errors and drops, 429,
 * injected 401s, token expiry, per-session request limits and the scripted login answers.
 * The server asks `decide` once per request and acts on the decision; this file holds no HTTP.
 */
import { randomInt } from 'crypto';

import { Limiter } from './limiter';
import type { RatePolicy } from './limiter';
import type { AfterWorkStatus, FaultConfig, FaultName, LoginScriptEntry } from './types';

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** What happens to a request instead of (or after) its normal processing. */
export type FaultOutcome =
	| { kind: 'none' }
	/** Socket destroyed before processing. */
	| { kind: 'drop'; fault: FaultName }
	/** Answered `status` before processing (`retryAfter`: the header's value, if any). */
	| { kind: 'status'; status: number; retryAfter?: string; fault: FaultName }
	/** Answered 401 and its session token dies, if it authenticates with a session token. */
	| { kind: 'unauthorized' }
	/** Processed, then answered `status` instead of the real answer. */
	| { kind: 'afterWorkError'; status: AfterWorkStatus }
	/** Processed, then the socket is destroyed. */
	| { kind: 'afterWorkDrop' }
	/** Processed, then answered its status without `data`. */
	| { kind: 'afterWorkNoData' };

export interface FaultDecision {
	latencyMs: number;
	/** Hold the request this long, before processing or (afterWork) after it. */
	hang?: { ms: number; afterWork: boolean };
	outcome: FaultOutcome;
}

const NONE: FaultOutcome = { kind: 'none' };
const DEFAULT_AFTER_WORK_STATUSES: AfterWorkStatus[] = [503];
/** Mixed into the seed of the session-limit PRNG, so that limits do not shift the request faults. */
const SESSION_STREAM = 0x5e55_1011;

const rate = (value: number | undefined): number =>
	typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
const nonNegative = (value: number | undefined): number =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
const atLeastOne = (value: number): number => Math.max(1, Math.floor(Number.isFinite(value) ? value : 1));
const matches = (path: string, prefixes: string[] | undefined): boolean =>
	!prefixes || prefixes.length === 0 || prefixes.some((prefix) => path.startsWith(prefix));

/** The outcome a `loginScript` entry asks for. */
function scriptedOutcome(entry: LoginScriptEntry): FaultOutcome {
	if ('drop' in entry && entry.drop) return { kind: 'drop', fault: 'loginScript' };
	if ('status' in entry) {
		const outcome: FaultOutcome = { kind: 'status', status: entry.status, fault: 'loginScript' };
		if (entry.retryAfter !== undefined) outcome.retryAfter = String(entry.retryAfter);
		return outcome;
	}
	return NONE;
}

export class FaultInjector {
	private config: FaultConfig = {};

	private random: () => number = mulberry32(0);

	/** Separate stream for per-session request limits. */
	private sessionRandom: () => number = mulberry32(0);

	private authenticatedRequests = 0;

	private expiryArmed = false;

	/** Requests counted and limit drawn, per session number, under the current configuration. */
	private sessionUse = new Map<number, { used: number; limit: number }>();

	private loginScript: LoginScriptEntry[] = [];

	/** `rateLimitPerSecond` / `rateLimitPolicies`, counted as `rateLimiter` says (none: no limit). */
	private limiter?: Limiter;

	/** `capacity`: requests being served, and the ones waiting for a place (in arrival order). */
	private serving = 0;

	private queue: Array<() => void> = [];

	constructor(config: FaultConfig = {}) {
		this.set(config);
	}

	/** Replaces the configuration and restarts the PRNGs, the counters and the login script. */
	set(config: FaultConfig): void {
		this.config = structuredClone(config);
		const seed = config.seed ?? randomInt(0, 2 ** 32);
		this.random = mulberry32(seed);
		this.sessionRandom = mulberry32(seed ^ SESSION_STREAM);
		this.authenticatedRequests = 0;
		this.expiryArmed = nonNegative(config.expireTokensAfterRequests) > 0;
		this.sessionUse.clear();
		this.loginScript = [...(config.loginScript ?? [])];
		const policies: RatePolicy[] = [
			...(nonNegative(config.rateLimitPerSecond) > 0 ? [{ name: 'default', limit: Math.floor(nonNegative(config.rateLimitPerSecond)), windowS: Math.max(1, Math.floor(nonNegative(config.rateLimitWindowS ?? 1))) }] : []),
			...(config.rateLimitPolicies ?? []),
		];
		this.limiter = policies.length > 0 ? new Limiter(config.rateLimiter ?? 'bucket', policies) : undefined;
	}

	/** Whether `capacity` bounds the requests served at once. */
	get capped(): boolean {
		return nonNegative(this.config.capacity) > 0;
	}

	/**
	 * `rateLimitPerSecond` / `rateLimitPolicies`: counts the request and answers undefined, or,
	 * when a policy is spent, the Retry-After value (whole seconds until it has room, at least 1).
	 */
	overRate(now = Date.now()): string | undefined {
		return this.limiter?.take(now);
	}

	/** `rateLimitHeaders`: the headers announcing the policies after the last `overRate`, in the configured style. */
	rateHeaders(now = Date.now()): Record<string, string> | undefined {
		const style = this.config.rateLimitHeaders;
		return this.limiter && style !== undefined ? this.limiter.headers(style, now) : undefined;
	}

	/** Serves one request for `ms` (`wait` sleeps), at most `capacity` at once; true when it had to wait for a place. */
	async serve(ms: number, wait: (ms: number) => Promise<void>): Promise<boolean> {
		const capacity = nonNegative(this.config.capacity);
		let waited = false;
		if (capacity > 0) {
			while (this.serving >= capacity) {
				waited = true;
				await new Promise<void>((resolve) => this.queue.push(resolve));
			}
			this.serving += 1;
		}
		try {
			if (ms > 0) await wait(ms);
		} finally {
			if (capacity > 0) {
				this.serving -= 1;
				this.queue.shift()?.();
			}
		}
		return waited;
	}

	get(): FaultConfig {
		return structuredClone(this.config);
	}

	applies(path: string): boolean {
		return matches(path, this.config.paths);
	}

	/** Decides latency, hang and outcome of one request on `path`, before processing. */
	decide(path: string, isLogin = false): FaultDecision {
		const scripted = isLogin ? this.loginScript.shift() : undefined;
		if (!this.applies(path)) return { latencyMs: 0, outcome: scripted ? scriptedOutcome(scripted) : NONE };
		const latencyMs = this.latency();
		const outcome = scripted ? scriptedOutcome(scripted) : this.randomOutcome();
		const hang = this.hang(path);
		return hang ? { latencyMs, hang, outcome } : { latencyMs, outcome };
	}

	private latency(): number {
		const jitter = nonNegative(this.config.latencyJitterMs);
		return Math.round(nonNegative(this.config.latencyMs) + (jitter > 0 ? this.random() * jitter : 0));
	}

	/** One draw splits [0, 1) into the rates in this order; the order keeps old seeds' sequences. */
	private randomOutcome(): FaultOutcome {
		const { config } = this;
		const bands: Array<[number, () => FaultOutcome]> = [
			[rate(config.dropRate), () => ({ kind: 'drop', fault: 'drop' })],
			[rate(config.errorRate), () => this.preWorkError()],
			[rate(config.unavailableRate), () => this.unavailable()],
			[rate(config.rateLimitRate), () => this.rateLimit()],
			[rate(config.unauthorizedRate), () => ({ kind: 'unauthorized' })],
			[rate(config.afterWorkErrorRate), () => ({ kind: 'afterWorkError', status: this.afterWorkStatus() })],
			[rate(config.afterWorkDropRate), () => ({ kind: 'afterWorkDrop' })],
			[rate(config.afterWorkNoDataRate), () => ({ kind: 'afterWorkNoData' })],
		];
		if (bands.every(([width]) => width === 0)) return NONE;
		const draw = this.random();
		let upper = 0;
		for (const [width, outcome] of bands) {
			upper += width;
			if (draw < upper) return outcome();
		}
		return NONE;
	}

	private preWorkError(): FaultOutcome {
		if (this.random() < 0.5) return { kind: 'status', status: 500, fault: 'error500' };
		return this.unavailable();
	}

	private unavailable(): FaultOutcome {
		const outcome: FaultOutcome = { kind: 'status', status: 503, fault: 'error503' };
		const seconds = this.config.retryAfterOn503;
		if (typeof seconds === 'number' && seconds >= 0) outcome.retryAfter = String(Math.ceil(seconds));
		return outcome;
	}

	private rateLimit(): FaultOutcome {
		const seconds = this.config.retryAfterSeconds;
		const value = typeof seconds === 'number' && seconds >= 0 ? Math.ceil(seconds) : 1;
		return { kind: 'status', status: 429, retryAfter: String(value), fault: 'rateLimit' };
	}

	private afterWorkStatus(): AfterWorkStatus {
		const list = this.config.afterWorkErrorStatuses;
		const statuses = list && list.length > 0 ? list : DEFAULT_AFTER_WORK_STATUSES;
		return statuses.length === 1 ? statuses[0] : statuses[Math.floor(this.random() * statuses.length)];
	}

	private hang(path: string): FaultDecision['hang'] {
		const { hangMs, hangPaths, hangRate, hangAfterWork } = this.config;
		const ms = nonNegative(hangMs);
		if (ms === 0 || !matches(path, hangPaths)) return undefined;
		const fraction = hangRate === undefined ? (hangPaths?.length ? 1 : 0) : rate(hangRate);
		if (fraction === 0 || (fraction < 1 && this.random() >= fraction)) return undefined;
		return { ms: Math.round(ms), afterWork: hangAfterWork === true };
	}

	/**
	 * Counts one authenticated request on `path`; true when this request is the N-th and all
	 * live session tokens are to die now.
	 */
	countAuthenticated(path: string): boolean {
		if (!this.expiryArmed || !this.applies(path)) return false;
		this.authenticatedRequests += 1;
		if (this.authenticatedRequests < nonNegative(this.config.expireTokensAfterRequests)) return false;
		this.authenticatedRequests = 0;
		this.expiryArmed = this.config.repeat === true;
		return true;
	}

	/**
	 * Counts one request on `path` authenticated by session `number`; true when it was that
	 * session's last one under `sessionRequestLimit` (its token is to die now).
	 */
	countSessionRequest(number: number, path: string): boolean {
		const { sessionRequestLimit } = this.config;
		if (sessionRequestLimit === undefined || !this.applies(path)) return false;
		let use = this.sessionUse.get(number);
		if (!use) {
			use = { used: 0, limit: this.drawSessionLimit(sessionRequestLimit) };
			this.sessionUse.set(number, use);
		}
		use.used += 1;
		return use.used >= use.limit;
	}

	private drawSessionLimit(limit: NonNullable<FaultConfig['sessionRequestLimit']>): number {
		if (typeof limit === 'number') return atLeastOne(limit);
		const low = atLeastOne(Math.min(limit.min, limit.max));
		const high = Math.max(low, atLeastOne(Math.max(limit.min, limit.max)));
		return low + Math.floor(this.sessionRandom() * (high - low + 1));
	}
}
