import { singleOperationResource } from '../common/resource';
import * as add from './add.operation';

export { add };

export const { description, operations } = singleOperationResource(
	'candidateJob',
	{
		name: 'Add',
		value: 'add',
		action: 'Add a job to a candidate',
		description: 'Attach a job (employer, dates, title, job type, business area) to a candidate given by its slug',
	},
	add,
);
