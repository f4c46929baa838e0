/**
 * The command line of `cli.mjs` turned into sandbox options: checked and converted here (in
 * TypeScript, so that jest can test it); `cli.mjs` parses the flags and reads the files.
 */
import type { SandboxOptions, TokenLocation } from './types';

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
	const latencyMs = integerFlag(flags, 'latency');
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
			faults: latencyMs ? { latencyMs } : undefined,
		},
	};
}
