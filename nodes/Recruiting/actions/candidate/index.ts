import type { ResourceDefinition } from '../context';
import * as create from './create.operation';
import * as importOperation from './import.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';
import { withDryRun } from './upsert/dryRun';
import { keepingIdentity } from './upsert/refusals';

export const resource: ResourceDefinition = {
	option: {
		name: 'Candidate',
		value: 'candidate',
		description: 'Create, update or import a candidate',
	},
	defaultOperation: 'create',
	operations: [
		{
			option: {
				name: 'Create',
				value: 'create',
				action: 'Create a candidate',
				description: 'Add a candidate (or an employee) with an e-mail address and/or phone number; returns its slug',
			},
			module: create,
		},
		{
			option: {
				name: 'Update',
				value: 'update',
				action: 'Update a candidate',
				description: 'Change the profile of a candidate given by its slug: name, address, birthday, contact preferences',
			},
			module: update,
		},
		{
			option: {
				name: 'Import',
				value: 'import',
				action: 'Import a candidate with all records',
				description:
					'Create a candidate from one form or spreadsheet row with profile and all records. Creates a new candidate each time: for re-runs use Create or Update.',
			},
			module: importOperation,
		},
		{
			option: {
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update a candidate from a row',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
			},
			module: withDryRun(keepingIdentity(upsert)),
		},
	],
};
