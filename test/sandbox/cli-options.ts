/**
 * The command line of `cli.mjs` turned into sandbox options: checked and converted here (in
 * TypeScript, so that jest can test it); `cli.mjs` parses the flags and reads the files.
 */
import { LIMITER_KINDS, parsePolicies } from './limiter';
import type { LimiterKind } from './limiter';
import { PROFILE_NAMES, PROFILES, isProfile } from './profiles';
import type { FaultConfig, RateLimitHeaderStyle, SandboxOptions, TokenLocation } from './types';
import { RATE_LIMIT_HEADER_STYLES } from './types';

/** Flag values as `node:util` parseArgs gives them (names without the leading dashes). */
export type CliFlags = Record<string, string | boolean | undefined>;

export interface CliSettings {
	port: number;
	host: string;
	admin: boolean;
	/** As given; `cli.mjs` resolves and reads them. */
	dataFile?: string;
	seedFile?: string;
	/** Everything but companies, initialState and onStateChange (file matters of `cli.mjs`). */
	options: Pick<SandboxOptions, 'tokenLocation' | 'tokenLifetimeMs' | 'singleSessionPerUser' | 'faults'>;
}

function integerFlag(flags: CliFlags, name: string): number | undefined {
	const value = flags[name];
	if (value === undefined) return undefined;
	const number = Number(value);
	if (typeof value !== 'string' || value.trim() === '' || !Number.isInteger(number) || number < 0) {
		throw new Error(`--${name} must be a non-negative integer`);
	}
	return number;
}

function tokenLifetimeMs(flags: CliFlags): number | undefined {
	const ms = integerFlag(flags, 'token-lifetime');
	const seconds = integerFlag(flags, 'token-lifetime-seconds');
	if (ms !== undefined && seconds !== undefined) {
		throw new Error('give --token-lifetime (ms) or --token-lifetime-seconds, not both');
	}
	return seconds === undefined ? ms : seconds * 1000;
}

/** Checks the flags; throws an Error whose message says what is wrong. */
export function settingsFromFlags(flags: CliFlags, tokenLocations: readonly TokenLocation[]): CliSettings {
	const tokenLocation = flags['token-location'];
	if (tokenLocation !== undefined && !tokenLocations.includes(tokenLocation as TokenLocation)) {
		throw new Error(`--token-location must be one of ${tokenLocations.join(', ')}`);
	}
	const text = (name: string): string | undefined => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
	return {
		port: integerFlag(flags, 'port') ?? 0,
		host: text('host') ?? '127.0.0.1',
		admin: flags.admin === true,
		dataFile: text('data'),
		seedFile: text('seed-file'),
		options: {
			tokenLocation: tokenLocation as TokenLocation | undefined,
			tokenLifetimeMs: tokenLifetimeMs(flags),
			singleSessionPerUser: flags['single-session'] === true,
			faults: faultsFromFlags(flags),
		},
	};
}

/** `--profile` (a service profile), then `--latency`, `--capacity`, `--rate-limit` (per `--rate-window` seconds), `--unavailable-rate` over it. */
function faultsFromFlags(flags: CliFlags): FaultConfig | undefined {
	const profile = flags.profile;
	if (profile !== undefined && !isProfile(profile)) throw new Error(`--profile must be one of ${PROFILE_NAMES.join(', ')}`);
	const faults: FaultConfig = profile ? { ...PROFILES[profile] } : {};
	const latencyMs = integerFlag(flags, 'latency');
	if (latencyMs !== undefined) faults.latencyMs = latencyMs;
	const capacity = integerFlag(flags, 'capacity');
	if (capacity !== undefined) faults.capacity = capacity;
	const perSecond = integerFlag(flags, 'rate-limit');
	if (perSecond !== undefined) faults.rateLimitPerSecond = perSecond;
	const windowS = integerFlag(flags, 'rate-window');
	if (windowS !== undefined) {
		if (windowS < 1 || windowS > 86_400) throw new Error('--rate-window must be a number of seconds from 1 to 86400');
		faults.rateLimitWindowS = windowS;
	}
	const headers = flags['rate-limit-headers'];
	if (headers !== undefined) {
		if (typeof headers !== 'string' || !(RATE_LIMIT_HEADER_STYLES as readonly string[]).includes(headers)) {
			throw new Error(`--rate-limit-headers must be one of ${RATE_LIMIT_HEADER_STYLES.join(', ')}`);
		}
		faults.rateLimitHeaders = headers as RateLimitHeaderStyle;
	}
	const limiter = flags['rate-limiter'];
	if (limiter !== undefined) {
		if (typeof limiter !== 'string' || !(LIMITER_KINDS as readonly string[]).includes(limiter)) {
			throw new Error(`--rate-limiter must be one of ${LIMITER_KINDS.join(', ')}`);
		}
		faults.rateLimiter = limiter as LimiterKind;
	}
	const policies = flags['rate-policies'];
	if (typeof policies === 'string') faults.rateLimitPolicies = parsePolicies(policies);
	const unavailable = flags['unavailable-rate'];
	if (unavailable !== undefined) {
		const fraction = Number(unavailable);
		if (typeof unavailable !== 'string' || unavailable.trim() === '' || !(fraction >= 0 && fraction <= 1)) {
			throw new Error('--unavailable-rate must be a fraction between 0 and 1');
		}
		faults.unavailableRate = fraction;
	}
	const seed = integerFlag(flags, 'seed');
	if (seed !== undefined) faults.seed = seed;
	return Object.values(faults).some((value) => value !== undefined && value !== 0) ? faults : undefined;
}
