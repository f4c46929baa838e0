/**
 * What the Session operations share: the credential's authentication mode, and running an
 * operation once per node run.
 *
 * Login and Log Out take no per-item parameters, so sending them once per input item would only
 * repeat the same call (and, for Log Out, make later items log in again just to log out). They
 * run once per node run; every input item gets that one result. The memo is keyed by the run's
 * RunContext in a WeakMap, so it lives exactly as long as that execution and holds nothing
 * between executions.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { RunContext } from '../context';

export type AuthMode = 'emailPassword' | 'accessToken' | 'apiKey';

export const MODE_NAMES: Record<AuthMode, string> = {
	emailPassword: 'Email and Password',
	accessToken: 'Access Token',
	apiKey: 'API Key',
};

export function authMode(credentials: ICredentialDataDecryptedObject): AuthMode {
	const mode = credentials.authentication;
	return mode === 'accessToken' || mode === 'apiKey' ? mode : 'emailPassword';
}

const memo = new WeakMap<RunContext, Map<string, Promise<IDataObject>>>();

/** Runs `work` once per node run and operation; later items of the same run share its result. */
export async function oncePerRun(run: RunContext, operation: string, work: () => Promise<IDataObject>): Promise<IDataObject> {
	let results = memo.get(run);
	if (!results) {
		results = new Map();
		memo.set(run, results);
	}
	let pending = results.get(operation);
	if (!pending) {
		pending = work();
		results.set(operation, pending);
	}
	return { ...(await pending) };
}
