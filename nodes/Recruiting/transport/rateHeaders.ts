/**
 * The rate limit a service announces on its answers, read from the headers (nothing else here
 * knows these header names):
 * - `X-RateLimit-Limit` / `-Remaining` / `-Reset` (GitHub, Twitter and many others; no window is
 *   sent, `readRate` says none). The reset is seconds to wait or a Unix time: a value of
 *   1,000,000,000 or more is a Unix time in seconds (2001-09-09 on), 1,000,000,000,000 or more in
 *   milliseconds; less is seconds from now;
 * - the IETF httpapi draft: `RateLimit-Policy` (a list of policies, each with `q`, its quota, and
 *   `w`, its window in seconds; an earlier form is `40;w=1`) and `RateLimit` (per policy `r`, what
 *   remains, and `t`, seconds until the quota is whole again), Structured Fields (RFC 8941); and
 *   the draft's earlier `RateLimit-Limit` / `-Remaining` / `-Reset` (the reset always seconds).
 * Every policy is read (`readRates`; at most `MAX_POLICIES`, each with its name): a burst policy
 * and a daily one are both honoured (`quota.ts`). `readRate` names the one that binds first: a
 * spent one (nothing remains), else the one with the lowest quota per second.
 *
 * Values out of bounds are not read (never trusted into a stall): a quota of 1 to 1,000,000, a
 * window of more than 0 up to 86,400 s (a day), a remaining count of 0 up to the quota, a reset of
 * 0 to 86,400 s from now (a reset in the past is 0). A malformed field reads as absent.
 */
import type { IDataObject } from 'n8n-workflow';

/** What one answer announced: `limit` requests per `windowS` seconds (if said), `remaining` of them left, whole again in `resetS`. */
export interface Announced {
	/** The IETF policy's name ('' for the other styles and an unnamed policy). */
	policy?: string;
	limit: number;
	windowS?: number;
	remaining?: number;
	resetS?: number;
}

export const HEADER_BOUNDS = { maxLimit: 1_000_000, maxWindowS: 86_400, maxResetS: 86_400 } as const;

/** At most this many policies of one answer are read (the others are not: never an unbounded list). */
export const MAX_POLICIES = 8;

const UNIX_SECONDS = 1e9;
const UNIX_MS = 1e12;

function header(headers: IDataObject, name: string): string | undefined {
	const raw = headers[name];
	const value = Array.isArray(raw) ? raw[0] : raw;
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
}

/** A number of the whole text (a decimal), or undefined. */
function decimal(text: string | undefined): number | undefined {
	if (text === undefined || !/^\d{1,16}(\.\d{1,6})?$/.test(text)) return undefined;
	return Number(text);
}

const within = (value: number | undefined, low: number, high: number) => (value !== undefined && value >= low && value <= high ? value : undefined);

const quota = (value: number | undefined) => (value !== undefined && Number.isInteger(value) ? within(value, 1, HEADER_BOUNDS.maxLimit) : undefined);

const windowOf = (value: number | undefined) => (value !== undefined && value > 0 ? within(value, 0, HEADER_BOUNDS.maxWindowS) : undefined);

const resetOf = (seconds: number | undefined) => within(seconds === undefined ? undefined : Math.max(0, seconds), 0, HEADER_BOUNDS.maxResetS);

/** A reset as seconds from now: a Unix time (seconds or milliseconds) told apart from a number of seconds. */
export function resetSeconds(value: number | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	if (value >= UNIX_MS) return resetOf((value - now) / 1000);
	if (value >= UNIX_SECONDS) return resetOf(value - now / 1000);
	return resetOf(value);
}

function announced(limit: number | undefined, windowS: number | undefined, remaining: number | undefined, resetS: number | undefined): Announced | undefined {
	if (limit === undefined) return undefined;
	const left = remaining !== undefined && Number.isInteger(remaining) && remaining <= limit ? remaining : undefined;
	return { limit, ...(windowS === undefined ? {} : { windowS }), ...(left === undefined ? {} : { remaining: left }), ...(resetS === undefined ? {} : { resetS }) };
}

/** One member of a Structured Fields list: its item and its parameters (a malformed member: undefined). */
function members(text: string): Array<{ item: string; params: Map<string, string> }> | undefined {
	const parts: string[] = [];
	let quoted = false;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '\\' && quoted) i += 1;
		else if (c === '"') quoted = !quoted;
		else if (c === ',' && !quoted) {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	if (quoted) return undefined;
	parts.push(text.slice(start));
	const out: Array<{ item: string; params: Map<string, string> }> = [];
	for (const part of parts) {
		const [item, ...rest] = part.split(';').map((piece) => piece.trim());
		if (item === '' || !/^("[^"]*"|[A-Za-z*][\w:/.*-]*|\d{1,15}(\.\d{1,3})?)$/.test(item)) return undefined;
		const params = new Map<string, string>();
		for (const param of rest) {
			const match = /^([a-z*][a-z0-9_.*-]*)(?:=(.+))?$/.exec(param);
			if (!match) return undefined;
			params.set(match[1], (match[2] ?? '?1').replace(/^"|"$/g, ''));
		}
		out.push({ item: item.replace(/^"|"$/g, ''), params });
	}
	return out;
}

/** The IETF draft's `RateLimit-Policy` and `RateLimit`: every policy (its name, when it has one). */
function ietf(policyText: string, stateText: string | undefined): Announced[] {
	const policies = members(policyText);
	if (!policies) return [];
	const states = stateText === undefined ? [] : (members(stateText) ?? []);
	const out: Announced[] = [];
	for (const { item, params } of policies.slice(0, MAX_POLICIES)) {
		// `"name";q=40;w=1`, or the earlier `40;w=1` (the item is the quota).
		const named = params.has('q');
		const limit = quota(decimal(params.get('q') ?? item));
		const windowS = windowOf(decimal(params.get('w')));
		const state = states.find((entry) => entry.item === item) ?? (policies.length === 1 && states.length === 1 ? states[0] : undefined);
		const reading = announced(limit, windowS, decimal(state?.params.get('r')), resetOf(decimal(state?.params.get('t'))));
		if (reading) out.push(named ? { policy: item, ...reading } : reading);
	}
	return out;
}

/** Every policy an answer announced ([] when none, or none within bounds). */
export function readRates(headers: IDataObject | undefined, now: number): Announced[] {
	if (!headers) return [];
	const policy = header(headers, 'ratelimit-policy');
	if (policy !== undefined) {
		const readings = ietf(policy, header(headers, 'ratelimit'));
		if (readings.length > 0) return readings;
	}
	const draft = header(headers, 'ratelimit-limit');
	if (draft !== undefined) {
		const reading = announced(quota(decimal(draft.split(/[,;]/)[0].trim())), windowOf(decimal(/;\s*w=(\d+)/.exec(draft)?.[1])), decimal(header(headers, 'ratelimit-remaining')), resetOf(decimal(header(headers, 'ratelimit-reset'))));
		return reading ? [reading] : [];
	}
	const limit = header(headers, 'x-ratelimit-limit');
	if (limit === undefined) return [];
	const reading = announced(quota(decimal(limit.split(/[,;]/)[0].trim())), windowOf(decimal(/;\s*w=(\d+)/.exec(limit)?.[1])), decimal(header(headers, 'x-ratelimit-remaining')), resetSeconds(decimal(header(headers, 'x-ratelimit-reset')), now));
	return reading ? [reading] : [];
}

const perSecond = (reading: Announced) => reading.limit / (reading.windowS ?? 1);

/** The policy that binds first: a spent one (the longest reset of those), else the lowest quota per second; undefined when none. */
export function readRate(headers: IDataObject | undefined, now: number): Announced | undefined {
	const readings = readRates(headers, now);
	const spent = readings.filter((reading) => reading.remaining === 0);
	if (spent.length > 0) return spent.reduce((a, b) => ((b.resetS ?? 0) > (a.resetS ?? 0) ? b : a));
	return readings.reduce<Announced | undefined>((best, reading) => (!best || perSecond(reading) < perSecond(best) ? reading : best), undefined);
}
