import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';
import * as add from './add.operation';

export { add };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['candidateLanguage'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Add a language to a candidate',
				description: 'Attach a language skill with its level to a candidate given by its slug',
			},
		],
		default: 'add',
	},
	...add.description,
];

export const operations: Record<string, OperationModule> = { add };
