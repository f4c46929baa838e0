import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';
import * as create from './create.operation';
import * as update from './update.operation';

export { create, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['candidate'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a candidate',
				description: 'Add a candidate (or an employee) with an e-mail address and/or phone number; returns its slug',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a candidate',
				description: 'Change the profile of a candidate given by its slug: name, address, birthday, contact preferences',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];

export const operations: Record<string, OperationModule> = { create, update };
