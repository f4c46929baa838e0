/**
 * Reading the rate limit a service announces (transport/rateHeaders.ts), header style by header
 * style, and what is not trusted: a table of answers' headers and what they announce.
 */
import type { IDataObject } from 'n8n-workflow';

import { HEADER_BOUNDS, MAX_POLICIES, readRate, readRates, resetSeconds } from '../../nodes/Recruiting/transport/rateHeaders';

/** 2026-11-26 00:00:00 UTC. */
const NOW = Date.UTC(2026, 10, 26);
const unix = NOW / 1000;

const table: Array<[string, IDataObject, ReturnType<typeof readRate>]> = [
	['no headers', {}, undefined],
	['X-RateLimit, the reset in seconds', { 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '1' }, { limit: 40, remaining: 12, resetS: 1 }],
	['X-RateLimit, the reset as a Unix time', { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': String(unix + 3600) }, { limit: 5000, remaining: 4999, resetS: 3600 }],
	['X-RateLimit, the reset as a Unix time in milliseconds', { 'x-ratelimit-limit': '10', 'x-ratelimit-reset': String(NOW + 2500) }, { limit: 10, resetS: 2.5 }],
	['X-RateLimit, a reset in the past', { 'x-ratelimit-limit': '10', 'x-ratelimit-reset': String(unix - 5) }, { limit: 10, resetS: 0 }],
	['X-RateLimit with a window in the draft form', { 'x-ratelimit-limit': '100, 100;w=60', 'x-ratelimit-remaining': '3' }, { limit: 100, windowS: 60, remaining: 3 }],
	['X-RateLimit, numbers as numbers', { 'x-ratelimit-limit': 40, 'x-ratelimit-remaining': 0 }, { limit: 40, remaining: 0 }],
	['IETF RateLimit-Policy and RateLimit', { 'ratelimit-policy': '"default";q=40;w=1', ratelimit: '"default";r=7;t=1' }, { policy: 'default', limit: 40, windowS: 1, remaining: 7, resetS: 1 }],
	[
		'IETF, two policies, none spent: the lowest quota per second binds first, its own remaining',
		{ 'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400', ratelimit: '"burst";r=50;t=30, "daily";r=998;t=86000' },
		{ policy: 'daily', limit: 1000, windowS: 86400, remaining: 998, resetS: 86000 },
	],
	[
		'IETF, the draft\'s example with the burst policy spent: the spent one binds first (issue 40)',
		{ 'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400', ratelimit: '"burst";r=0;t=30, "daily";r=900;t=86000' },
		{ policy: 'burst', limit: 100, windowS: 60, remaining: 0, resetS: 30 },
	],
	['IETF, the earlier policy form 40;w=1 (a malformed RateLimit beside it: the quota alone)', { 'ratelimit-policy': '40;w=1', ratelimit: 'r=3;t=1' }, { limit: 40, windowS: 1 }],
	['IETF, the earlier policy form with the earlier fields', { 'ratelimit-policy': '40;w=1', 'ratelimit-limit': '40', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' }, { limit: 40, windowS: 1 }],
	['the earlier IETF draft fields alone', { 'ratelimit-limit': '40', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' }, { limit: 40, remaining: 3, resetS: 1 }],
	['malformed: a limit that is not a number', { 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '3' }, undefined],
	['malformed: a negative remaining is not read', { 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '-1' }, { limit: 40 }],
	['absurd: a limit of 0', { 'x-ratelimit-limit': '0' }, undefined],
	['absurd: a limit over a million', { 'x-ratelimit-limit': '5000000' }, undefined],
	['absurd: remaining above the limit', { 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '400' }, { limit: 40 }],
	['absurd: a reset a year away', { 'x-ratelimit-limit': '40', 'x-ratelimit-reset': String(unix + 365 * 86400) }, { limit: 40 }],
	['absurd: a window of two days', { 'ratelimit-policy': '"p";q=40;w=172800' }, { policy: 'p', limit: 40 }],
	['malformed: an unterminated string in the policy', { 'ratelimit-policy': '"default;q=40;w=1' }, undefined],
	['malformed: a fractional quota', { 'ratelimit-policy': '"p";q=2.5;w=1' }, undefined],
];

describe('the rate limit an answer announces', () => {
	it.each(table)('%s', (_name, headers, expected) => {
		expect(readRate(headers, NOW)).toEqual(expected);
	});

	it('every policy is read, each with its name and its own state (at most 8)', () => {
		const headers = { 'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400', ratelimit: '"daily";r=900;t=86000, "burst";r=0;t=30' };
		expect(readRates(headers, NOW)).toEqual([
			{ policy: 'burst', limit: 100, windowS: 60, remaining: 0, resetS: 30 },
			{ policy: 'daily', limit: 1000, windowS: 86400, remaining: 900, resetS: 86000 },
		]);
		const many = Array.from({ length: 12 }, (_, i) => `"p${i}";q=${i + 1};w=1`).join(', ');
		expect(readRates({ 'ratelimit-policy': many }, NOW)).toHaveLength(MAX_POLICIES);
		expect(readRates({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '3' }, NOW)).toEqual([{ limit: 40, remaining: 3 }]);
	});

	it('a reset of 1,000,000,000 or more is a Unix time; less is seconds from now', () => {
		expect(resetSeconds(999_999_999, NOW)).toBeUndefined(); // 31 years of seconds: out of bounds
		expect(resetSeconds(HEADER_BOUNDS.maxResetS, NOW)).toBe(HEADER_BOUNDS.maxResetS);
		expect(resetSeconds(unix + 60, NOW)).toBe(60);
		expect(resetSeconds(NOW + 60_000, NOW)).toBe(60);
	});
});
