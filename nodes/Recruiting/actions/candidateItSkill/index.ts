import { singleOperationResource } from '../common/resource';
import * as add from './add.operation';

export { add };

export const { description, operations } = singleOperationResource(
	'candidateItSkill',
	{
		name: 'Add',
		value: 'add',
		action: 'Add an IT skill to a candidate',
		description: 'Attach an IT skill with its level (1 to 4) to a candidate given by its slug',
	},
	add,
);
