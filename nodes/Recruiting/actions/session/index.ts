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
				description: 'Log in with the credential\'s e-mail and password (only with Email and Password) and return the user profile without secrets',
			},
			{
				name: 'Log Out',
				value: 'logout',
				action: 'Log out',
				description: 'End the credential\'s session; other workflows using the credential lose the session too',
			},
		],
		default: 'login',
	},
	...login.description,
	...logout.description,
];

export const operations: Record<string, OperationModule> = { login, logout };
