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
 * Of several policies the one with the lowest quota per second counts.
 *
 * Values out of bounds are not read (never trusted into a stall): a quota of 1 to 1,000,000, a
 * window of more than 0 up to 86,400 s (a day), a remaining count of 0 up to the quota, a reset of
 * 0 to 86,400 s from now (a reset in the past is 0). A malformed field reads as absent.
 */
import type { IDataObject } from 'n8n-workflow';

/** What one answer announced: `limit` requests per `windowS` seconds (if said), `remaining` of them left, whole again in `resetS`. */
export interface Announced {
	limit: number;
	windowS?: number;
	remaining?: number;
	resetS?: number;
}

export const HEADER_BOUNDS = { maxLimit: 1_000_000, maxWindowS: 86_400, maxResetS: 86_400 } as const;

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

/** The IETF draft's `RateLimit-Policy` and `RateLimit`: the policy with the lowest quota per second. */
function ietf(policyText: string, stateText: string | undefined): Announced | undefined {
	const policies = members(policyText);
	if (!policies) return undefined;
	const states = stateText === undefined ? [] : (members(stateText) ?? []);
	let best: Announced | undefined;
	for (const { item, params } of policies) {
		// `"name";q=40;w=1`, or the earlier `40;w=1` (the item is the quota).
		const limit = quota(decimal(params.get('q') ?? item));
		const windowS = windowOf(decimal(params.get('w')));
		const state = states.find((entry) => entry.item === item) ?? (policies.length === 1 && states.length === 1 ? states[0] : undefined);
		const reading = announced(limit, windowS, decimal(state?.params.get('r')), resetOf(decimal(state?.params.get('t'))));
		if (reading && (!best || reading.limit / (reading.windowS ?? 1) < best.limit / (best.windowS ?? 1))) best = reading;
	}
	return best;
}

/** The rate limit an answer announced, or undefined (no such headers, or none within bounds). */
export function readRate(headers: IDataObject | undefined, now: number): Announced | undefined {
	if (!headers) return undefined;
	const policy = header(headers, 'ratelimit-policy');
	if (policy !== undefined) {
		const reading = ietf(policy, header(headers, 'ratelimit'));
		if (reading) return reading;
	}
	const draft = header(headers, 'ratelimit-limit');
	if (draft !== undefined) {
		return announced(quota(decimal(draft.split(/[,;]/)[0].trim())), windowOf(decimal(/;\s*w=(\d+)/.exec(draft)?.[1])), decimal(header(headers, 'ratelimit-remaining')), resetOf(decimal(header(headers, 'ratelimit-reset'))));
	}
	const limit = header(headers, 'x-ratelimit-limit');
	if (limit === undefined) return undefined;
	return announced(quota(decimal(limit.split(/[,;]/)[0].trim())), windowOf(decimal(/;\s*w=(\d+)/.exec(limit)?.[1])), decimal(header(headers, 'x-ratelimit-remaining')), resetSeconds(decimal(header(headers, 'x-ratelimit-reset')), now));
}
