import { listOperation } from '../common/listOperation';

/** GET businessAreas list: one output item per entry. */
export const { description, execute } = listOperation('getBusinessAreas', 'businessAreas');
