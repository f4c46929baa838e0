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
		displayOptions: { show: { resource: ['candidateItSkill'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Add an IT skill to a candidate',
				description: 'Attach an IT skill with its level (1 to 4) to a candidate given by its slug',
			},
		],
		default: 'add',
	},
	...add.description,
];

export const operations: Record<string, OperationModule> = { add };
