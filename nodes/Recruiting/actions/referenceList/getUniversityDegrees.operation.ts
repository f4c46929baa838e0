import { listOperation } from '../common/listOperation';

/** GET universityDegrees list: one output item per entry. */
export const { description, execute } = listOperation('getUniversityDegrees', 'universityDegrees');
