import type { ResourceDefinition } from '../context';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as getAll from './getAll.operation';

export const resource: ResourceDefinition = {
	option: {
		name: 'API Key',
		value: 'apiKey',
		description: 'Company API integrations: list, create and delete API keys (their values are secrets)',
	},
	defaultOperation: 'getAll',
	operations: [
		{
			option: {
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many API keys',
				description:
					'List the company\'s API keys, one item per key with its ID and value. The values are secrets: anyone who has one can use the API as the company.',
			},
			module: getAll,
		},
		{
			option: {
				name: 'Create',
				value: 'create',
				action: 'Create an API key',
				description:
					'Create a new API key for the company and return its ID and value. The value is a secret: it grants access to the company\'s data, so store it like a password.',
			},
			module: create,
		},
		{
			option: {
				name: 'Delete',
				value: 'delete',
				action: 'Delete an API key',
				description:
					'Delete the API key with the given ID (from Get Many); programs using that key lose access. Returns deleted: true and the ID.',
			},
			module: deleteOperation,
		},
	],
};
