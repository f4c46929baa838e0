import { listOperation } from '../common/listOperation';

/** GET jobTypes list: one output item per entry. */
export const { description, execute } = listOperation('getJobTypes', 'jobTypes');
