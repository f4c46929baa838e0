import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';
import * as create from './create.operation';
import * as importOperation from './import.operation';
import * as update from './update.operation';

export { create, importOperation, update };

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
				name: 'Import',
				value: 'import',
				action: 'Import a candidate with all records',
				description:
					'Create a candidate from one form or spreadsheet row with profile and all records. Cannot detect duplicates: keep the slug for re-runs.',
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
	...importOperation.description,
];

export const operations: Record<string, OperationModule> = { create, import: importOperation, update };
