import type { ResourceDefinition } from '../context';
import * as login from './login.operation';
import * as logout from './logout.operation';

export const resource: ResourceDefinition = {
	option: {
		name: 'Session',
		value: 'session',
		description: 'Log in or out with the credential',
	},
	defaultOperation: 'login',
	operations: [
		{
			option: {
				name: 'Log In',
				value: 'login',
				action: 'Log in',
				description: 'Log in with the credential\'s e-mail and password (only with Email and Password) and return the user profile without secrets',
			},
			module: login,
		},
		{
			option: {
				name: 'Log Out',
				value: 'logout',
				action: 'Log out',
				description: 'End the credential\'s session (for every workflow that uses the credential)',
			},
			module: logout,
		},
	],
};
