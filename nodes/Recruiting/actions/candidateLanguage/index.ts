import { singleOperationResource } from '../common/resource';
import * as add from './add.operation';

export { add };

export const { description, operations } = singleOperationResource(
	'candidateLanguage',
	{
		name: 'Add',
		value: 'add',
		action: 'Add a language to a candidate',
		description: 'Attach a language skill with its level to a candidate given by its slug',
	},
	add,
);
