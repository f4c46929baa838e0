import { singleOperationResource } from '../common/resource';
import * as add from './add.operation';

export { add };

export const { description, operations } = singleOperationResource(
	'candidateUniversity',
	{
		name: 'Add',
		value: 'add',
		action: 'Add a university record to a candidate',
		description: 'Attach a university record (dates, university, study programme, degree, grade) to a candidate given by its slug',
	},
	add,
);
