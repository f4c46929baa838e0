/**
 * Session → Log Out: ends the session the credential is using (DELETE /v1/logout with its
 * token). It never logs in: with no session held there is nothing to end, and a 401 means the
 * session had already ended.
 *
 * - Email and Password: the stored session token stays in the credential but is dead; the next
 *   request that uses it (in any execution or worker sharing the credential) gets 401, and the
 *   transport logs in once again. Within this execution the token is forgotten right away.
 * - Access Token: the token itself is invalidated; the credential needs a new access token.
 * - API Key: refused. An API key is not a session (use API Key → Delete to revoke one).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { optionsCollection } from '../common/options';
import type { RunContext } from '../context';
import { authMode, oncePerRun } from './shared';

export const description: INodeProperties[] = [
	{
		displayName:
			'Logging out ends the session for every workflow using this credential: other workflows lose the session too. With Email and Password they log in again by themselves on their next request; an Access Token stops working and must be replaced. Not for API Key credentials.',
		name: 'logoutNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['session'], operation: ['logout'] } },
	},
	optionsCollection('session', 'logout'),
];

async function logOut(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const credentials = await run.session.getCredentials(this);
	const mode = authMode(credentials);
	if (mode === 'apiKey') {
		throw new NodeOperationError(
			this.getNode(),
			'Log Out does not apply to a Recruiting API credential with API Key authentication: an API key is not a login session',
			{
				itemIndex,
				description:
					'Logging out would leave the key valid. To revoke a key, use API Key → Delete with its ID, from a credential that uses Email and Password or an Access Token.',
			},
		);
	}
	const owner = run.session.session(credentials);
	const token = mode === 'emailPassword' ? owner.held : '';
	if (mode === 'emailPassword' && token === '') {
		return { loggedOut: false, message: 'No session was open, so there was nothing to log out' };
	}
	const response = await apiRequest.call(
		this,
		{ method: 'DELETE', path: '/v1/logout', itemIndex, auth: 'existing', accept: [401] },
		run.session,
	);
	// Forget the dead token for the rest of this execution: a later request logs in first.
	owner.forget(token);
	if (response.httpStatus === 401) {
		return { loggedOut: false, message: 'The session had already ended (the service answered 401), so there was nothing to log out' };
	}
	return { loggedOut: true, message: response.message ?? 'Logged out' };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	return await oncePerRun(run, 'logout', async () => await logOut.call(this, itemIndex, run));
}
