import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';
import * as login from './login.operation';
import * as logout from './logout.operation';

export { login, logout };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Log In',
				value: 'login',
				action: 'Log in',
				description:
					'Log in with the e-mail and password stored in the credential and return the user profile, with tokens and passwords removed. Only for credentials using Email and Password. Runs once per node run. The node already logs in by itself when needed.',
			},
			{
				name: 'Log Out',
				value: 'logout',
				action: 'Log out',
				description:
					'End the session the credential is using. Other workflows sharing the credential lose it too: with Email and Password they log in again on their next request; an Access Token becomes invalid and must be replaced. Not for API Key credentials. Runs once per node run.',
			},
		],
		default: 'login',
	},
	...login.description,
	...logout.description,
];

export const operations: Record<string, OperationModule> = { login, logout };
