/**
 * Shared by the integration tests: a sandbox of the service started per test file (real HTTP on
 * 127.0.0.1), the seeded users, credentials for the three authentication modes, and small
 * helpers over the harness (n8n-core's WorkflowExecute).
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../helpers/harness';
import { Harness, stopEngineTimers } from '../helpers/harness';
import type { Sandbox, SandboxOptions } from '../sandbox/server';
import { startSandbox } from '../sandbox/server';

/** The sandbox's seeded logins (secrets built from parts, as the sandbox itself does). */
const seeded = (name: string, n: number): string => [name, 'password', String(n)].join('-');
export const ALICE = { email: 'alice@acme.test', pass: seeded('alice', 1), companyId: 1 };
export const BOB = { email: 'bob@globex.test', pass: seeded('bob', 2), companyId: 2 };
export type User = typeof ALICE;

/** Fast retries: the sandbox answers at once, so nothing needs to wait a second. */
export const FAST = { retryDelayMs: 1 };

/**
 * Starts one sandbox for the test file (beforeAll) and closes it afterwards (afterAll), also
 * stopping n8n-core's timers. Returns a getter, since the sandbox exists only once beforeAll ran.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	afterAll(async () => {
		await sandbox?.close();
		stopEngineTimers();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

export function emailCredential(sandbox: Sandbox, user: User = ALICE, extra: IDataObject = {}): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'emailPassword', email: user.email, password: user.pass, ...extra };
}

export function tokenCredential(sandbox: Sandbox, token: string): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'accessToken', accessToken: token };
}

export function keyCredential(sandbox: Sandbox, key: string, header = 'Authorization'): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'apiKey', apiKey: key, apiKeyHeader: header };
}

/** The json of every output item. */
export const outputs = (result: RunResult): IDataObject[] => result.items.map((item) => item.json);

/** Runs one node execution and expects it not to have stopped on an error. */
export async function runOk(harness: Harness, parameters: INodeParameters, items?: IDataObject[]): Promise<RunResult> {
	const result = await harness.run({ parameters: { options: FAST, ...parameters }, items });
	if (result.error) throw new Error(`the run failed: ${result.error.message}`);
	return result;
}

/** Creates a candidate through the node and returns its slug. */
export async function createCandidate(harness: Harness, fields: IDataObject = {}): Promise<string> {
	const result = await runOk(harness, {
		resource: 'candidate',
		operation: 'create',
		email: 'candidate@example.test',
		additionalFields: {},
		...fields,
	});
	const slug = result.items[0]?.json.slug;
	if (typeof slug !== 'string') throw new Error('no slug');
	return slug;
}

export { Harness };
