/**
 * The sandbox of the service (real HTTP on 127.0.0.1) for a test file, started and stopped by
 * jest's hooks, its seeded users (from the sandbox's seed), and credentials for the three
 * authentication modes. Shared by the service tests (test/service/).
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { DEFAULT_COMPANIES, startSandbox } from '../sandbox/server';
import type { Sandbox, SandboxCandidate, SandboxOptions } from '../sandbox/server';
import { stopEngineTimers } from './harness';

/** A seeded login of the sandbox and the company it belongs to. */
export interface SeededUser {
	email: string;
	password: string;
	companyId: number;
}

/** The first user of the seeded company at `index` (credential values taken from the seed, not written here). */
function seededUser(index: number): SeededUser {
	const company = DEFAULT_COMPANIES[index];
	const { email, password } = company.users[0];
	return { email, password, companyId: company.id };
}

/** Alice, company 1. */
export const ALICE = seededUser(0);
/** Bob, company 2. */
export const BOB = seededUser(1);

export interface UseSandboxSettings {
	/** Also reset the sandbox to its seed before every test (beforeEach). */
	resetEachTest?: boolean;
}

/**
 * Call at the top of a test file: starts one sandbox for the file (beforeAll), optionally resets
 * it before each test, and closes it afterwards (afterAll), also stopping n8n-core's timers.
 * Returns a getter, since the sandbox exists only once beforeAll ran.
 */
export function useSandbox(options: SandboxOptions = {}, { resetEachTest = false }: UseSandboxSettings = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	const current = (): Sandbox => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	if (resetEachTest) {
		beforeEach(async () => {
			await current().reset();
		});
	}
	afterAll(async () => {
		await sandbox?.close();
		stopEngineTimers();
	});
	return current;
}

/** An e-mail/password credential of `user` (no session token yet: n8n logs in first). */
export function emailCredential(
	sandbox: Sandbox,
	user: SeededUser = ALICE,
	extra: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'emailPassword', email: user.email, password: user.password, ...extra };
}

/** An access-token credential; by default with a session the sandbox issued for Alice without a login request. */
export function tokenCredential(sandbox: Sandbox, token: string = sandbox.issueToken(ALICE.email)): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'accessToken', accessToken: token };
}

/** An API-key credential sending `key` in `header`. */
export function keyCredential(sandbox: Sandbox, key: string, header = 'Authorization'): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'apiKey', apiKey: key, apiKeyHeader: header };
}

/** The candidate `slug` as the company stored it. */
export function storedCandidate(sandbox: Sandbox, slug: unknown, companyId = 1): SandboxCandidate {
	const found = sandbox.candidates(companyId).find((candidate) => candidate.slug === slug);
	if (!found) throw new Error(`candidate ${String(slug)} not stored for company ${companyId}`);
	return found;
}

/** The writes the sandbox received since request number `from` (method and path; reads and logins left out). */
/** A request the sandbox received, as a plan's `requests` lists one. */
export interface Logged {
	method: string;
	path: string;
	body: IDataObject;
}

/** Every request the sandbox received since `from`, the login aside. */
export const loggedSince = (sandbox: Sandbox, from: number): Logged[] =>
	sandbox.requests
		.slice(from)
		.filter((request) => request.path !== '/v1/login')
		.map((request) => ({ method: request.method, path: request.path, body: (request.body ?? {}) as IDataObject }));

/** The writes among them. */
export const writesOf = (logged: Logged[]) => logged.filter((request) => request.method !== 'GET' && request.method !== 'HEAD');

export function writesSince(sandbox: Sandbox, from: number): string[] {
	return sandbox.requests
		.slice(from)
		.filter((request) => request.method !== 'GET' && request.path !== '/v1/login')
		.map((request) => `${request.method} ${request.path}`);
}

/**
 * Ends the session of `email` at the sandbox's first 429 (another login of the user: on a sandbox that allows one session
 * per user, the node's session ends while its run is held). `endedAt()`: the length of the requests log at that moment
 * (-1 until then); `stop()` ends the watch (call it when the run ended).
 */
export function endSessionAtFirst429(sandbox: Sandbox, email: string): { endedAt: () => number; stop: () => Promise<void> } {
	let endedAt = -1;
	// At the first 429 itself (the window is spent and the run is held until its end), before its answer goes: a look
	// every 10 ms ended the session late on a busy machine, after requests of the next window had gone.
	const unsubscribe = sandbox.onAnswer((entry) => {
		if (endedAt >= 0 || entry.status !== 429) return;
		sandbox.issueToken(email);
		endedAt = sandbox.requests.indexOf(entry) + 1;
	});
	return {
		endedAt: () => endedAt,
		stop: async () => {
			unsubscribe();
		},
	};
}
