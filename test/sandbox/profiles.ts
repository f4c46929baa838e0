/**
 * Service profiles (issue 26): how a real service may behave under load, each reproducible from
 * the command line (`npm run sandbox -- --profile NAME`) and used by the benchmark.
 *
 * - `fast`: 50 ms per request, no limit;
 * - `capacity`: 50 ms per request, at most 16 served at once, the others wait (latency grows with
 *   load: 32 in flight take 100 ms each, 64 take 200 ms);
 * - `rate-limited`: 50 ms, at most 100 requests per second (a bucket of 100), 429 with
 *   Retry-After beyond;
 * - `flaky`: 50 ms, 2 % of requests answered 503 with Retry-After: 1 (seeded: the same requests
 *   fail in every run);
 * - `rate-limited-headers`: `rate-limited` whose every answer announces the bucket in
 *   X-RateLimit-* headers (`--rate-limit-headers x|x-unix|ietf|ietf-draft` picks the style).
 */
import type { FaultConfig } from './types';

export const PROFILES = {
	fast: { latencyMs: 50 },
	capacity: { latencyMs: 50, capacity: 16 },
	'rate-limited': { latencyMs: 50, rateLimitPerSecond: 100 },
	flaky: { latencyMs: 50, unavailableRate: 0.02, retryAfterOn503: 1, seed: 26 },
	'rate-limited-headers': { latencyMs: 50, rateLimitPerSecond: 100, rateLimitHeaders: 'x' },
} satisfies Record<string, FaultConfig>;

export type ProfileName = keyof typeof PROFILES;

export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

export function isProfile(name: unknown): name is ProfileName {
	return typeof name === 'string' && Object.prototype.hasOwnProperty.call(PROFILES, name);
}
