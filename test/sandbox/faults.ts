/** Fault injection of the sandbox: latency, 500/503, 429, dropped connections, token expiry. */
import { randomInt } from 'crypto';

import type { FaultConfig } from './types';

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

export type FaultOutcome =
	| { kind: 'none' }
	| { kind: 'drop' }
	| { kind: 'error'; status: 500 | 503 }
	| { kind: 'rateLimit'; retryAfterSeconds: number };

export interface FaultDecision {
	latencyMs: number;
	outcome: FaultOutcome;
}

const NO_FAULT: FaultDecision = { latencyMs: 0, outcome: { kind: 'none' } };

const rate = (value: number | undefined): number =>
	typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
const nonNegative = (value: number | undefined): number =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

export class FaultInjector {
	private config: FaultConfig = {};

	private random: () => number = mulberry32(0);

	private authenticatedRequests = 0;

	private expiryArmed = false;

	constructor(config: FaultConfig = {}) {
		this.set(config);
	}

	set(config: FaultConfig): void {
		this.config = structuredClone(config);
		this.random = mulberry32(config.seed ?? randomInt(0, 2 ** 32));
		this.authenticatedRequests = 0;
		this.expiryArmed = nonNegative(config.expireTokensAfterRequests) > 0;
	}

	get(): FaultConfig {
		return structuredClone(this.config);
	}

	applies(path: string): boolean {
		const { paths } = this.config;
		return !paths || paths.length === 0 || paths.some((prefix) => path.startsWith(prefix));
	}

	/** Decides the latency and the fault (if any) of one request on `path`, before processing. */
	decide(path: string): FaultDecision {
		if (!this.applies(path)) return NO_FAULT;
		const { config } = this;
		const jitter = nonNegative(config.latencyJitterMs);
		const latencyMs = nonNegative(config.latencyMs) + (jitter > 0 ? this.random() * jitter : 0);
		const dropRate = rate(config.dropRate);
		const errorRate = rate(config.errorRate);
		const rateLimitRate = rate(config.rateLimitRate);
		let outcome: FaultOutcome = { kind: 'none' };
		if (dropRate + errorRate + rateLimitRate > 0) {
			const draw = this.random();
			if (draw < dropRate) {
				outcome = { kind: 'drop' };
			} else if (draw < dropRate + errorRate) {
				outcome = { kind: 'error', status: this.random() < 0.5 ? 500 : 503 };
			} else if (draw < dropRate + errorRate + rateLimitRate) {
				const seconds = config.retryAfterSeconds;
				outcome = {
					kind: 'rateLimit',
					retryAfterSeconds: typeof seconds === 'number' && seconds >= 0 ? Math.ceil(seconds) : 1,
				};
			}
		}
		return { latencyMs: Math.round(latencyMs), outcome };
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
}
