import * as loadOptions from './loadOptions';

export { loadOptions };
