/**
 * What the Session operations share: the credential's authentication mode, and running an
 * operation once per node run.
 *
 * Login and Log Out take no per-item parameters, so sending them once per input item would only
 * repeat the same call (and, for Log Out, make later items log in again just to log out). They
 * run once per node run; every input item gets that one result (kept in the execution's
 * RunContext, so nothing is held between executions).
 */
import type { IDataObject } from 'n8n-workflow';

import type { AuthMode } from '../../transport/auth';
import type { RunContext } from '../context';

export { authMode } from '../../transport/auth';

export const MODE_NAMES: Record<AuthMode, string> = {
	emailPassword: 'Email and Password',
	accessToken: 'Access Token',
	apiKey: 'API Key',
};

/** Runs `work` once per node run and operation; later items of the same run share (a copy of) its result. */
export async function oncePerRun(run: RunContext, operation: string, work: () => Promise<IDataObject>): Promise<IDataObject> {
	return { ...(await run.once(`session:${operation}`, work)) };
}
