/**
 * A resource with a single operation (Candidate Job, University, IT Skill, Language, Additional
 * Info: each only "Add"): its "Operation" selector with that one option, then the operation's
 * parameters, and its operations map for the router.
 *
 * The multi-operation resources keep their selector as a literal in their index.ts, where n8n's
 * lint rules check the options (sorted, unique, action present and sentence-cased); here those
 * rules do not see the option, so `action` is required by the type instead.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';

export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

export function singleOperationResource(
	resource: string,
	operation: OperationOption,
	module: OperationModule,
): { description: INodeProperties[]; operations: Record<string, OperationModule> } {
	const { value } = operation;
	return {
		description: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [resource] } },
				options: [operation],
				default: value,
			},
			...module.description,
		],
		operations: { [value]: module },
	};
}
