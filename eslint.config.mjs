import { config } from '@n8n/node-cli/eslint';

// `.cache/` holds the scripts' scratch copies (packed package snapshots while `npm run queue` or
// the e2e tests run, n8n logs): not the project's code; `dist/` is linted by `npm run lint`'s second step.
export default [{ ignores: ['.cache/'] }, ...config];
