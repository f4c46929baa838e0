import { listOperation } from '../common/listOperation';

/** GET languageSkills list: one output item per entry. */
export const { description, execute } = listOperation('getLanguageSkills', 'languageSkills');
