import { singleOperationResource } from '../common/resource';
import * as add from './add.operation';

export { add };

export const { description, operations } = singleOperationResource(
	'candidateAdditionalInfo',
	{
		name: 'Add',
		value: 'add',
		action: 'Add additional information to a candidate',
		description: 'Attach an additional-information entry (title, description, dates) to a candidate given by its slug',
	},
	add,
);
