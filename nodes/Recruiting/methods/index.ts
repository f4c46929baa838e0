import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';

export { listSearch, loadOptions };
