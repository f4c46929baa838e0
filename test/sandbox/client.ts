/**
 * A small HTTP client for the sandbox's own tests (global fetch on 127.0.0.1), the documented
 * demo logins and the answers the tests compare with. Shared by the sandbox's test files.
 */
import { sleep } from 'n8n-workflow';

import { DEFAULT_COMPANIES } from './server';
import type { Sandbox } from './server';

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	json: any;
}

export interface CallOptions {
	body?: unknown;
	/** Sent as is (no JSON encoding). */
	raw?: string;
	token?: string;
	headers?: Record<string, string>;
	/** Give up (the call rejects) after this many milliseconds. */
	timeoutMs?: number;
	/** Give up (the call rejects) when this signal aborts. */
	signal?: AbortSignal;
}

export async function call(sandbox: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
	const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
	if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
	let body: string | undefined;
	if (options.raw !== undefined) body = options.raw;
	else if (options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
	const signal = options.timeoutMs === undefined ? options.signal : AbortSignal.timeout(options.timeoutMs);
	const response = await fetch(`${sandbox.url}${path}`, { method, headers, body, signal });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

/**
 * Sends a request and gives up on it once `ready()` holds (by default: once the sandbox has
 * logged it), for held requests; resolves when the call has failed.
 */
export async function callAndGiveUp(
	sandbox: Sandbox,
	method: string,
	path: string,
	options: CallOptions = {},
	ready?: () => boolean,
): Promise<void> {
	const logged = sandbox.requests.length;
	const isReady = ready ?? (() => sandbox.requests.length > logged);
	const abort = new AbortController();
	const pending = call(sandbox, method, path, { ...options, signal: abort.signal });
	for (let i = 0; i < 500 && !isReady(); i++) await sleep(10);
	abort.abort();
	await expect(pending).rejects.toThrow();
}

/** The seeded login of the company at `index` (from seed.json, the one place it is written), as a login body. */
const seededLogin = (index: number) => {
	const { email, password } = DEFAULT_COMPANIES[index].users[0];
	return { login: email, password };
};
export const ALICE = seededLogin(0);
export const BOB = seededLogin(1);
export const NOT_AUTHORIZED = { message: 'Not authorized', status: 401 };

export async function login(sandbox: Sandbox, user: { login: string; password: string }): Promise<string> {
	const reply = await call(sandbox, 'POST', '/v1/login', { body: { user } });
	expect(reply.status).toBe(200);
	return reply.json.data.token as string;
}

export async function createCandidate(sandbox: Sandbox, token: string, body: unknown = { email: 'jane@example.test' }): Promise<string> {
	const reply = await call(sandbox, 'POST', '/gin/v1/company/candidate', { token, body });
	expect(reply.status).toBe(201);
	return reply.json.data.slug as string;
}
