#!/usr/bin/env node
// Lints the built JavaScript in dist/ with n8n's restricted-globals and restricted-imports
// rules, as n8n's community-package scanner does with the published package (it ignores
// eslint-disable comments, so this run does too).
import { ESLint } from 'eslint';
import { existsSync } from 'node:fs';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

if (!existsSync('dist')) {
	console.error('dist/ does not exist: run `npm run build` first.');
	process.exit(1);
}

const eslint = new ESLint({
	overrideConfigFile: true,
	allowInlineConfig: false,
	overrideConfig: [
		{
			files: ['dist/**/*.js'],
			languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022 },
			plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
			rules: {
				'@n8n/community-nodes/no-restricted-globals': 'error',
				'@n8n/community-nodes/no-restricted-imports': 'error',
				'@n8n/community-nodes/no-dangerous-functions': 'error',
				'no-console': 'error',
			},
		},
	],
});

const results = await eslint.lintFiles(['dist/**/*.js']);
const formatter = await eslint.loadFormatter('stylish');
const output = formatter.format(results);
const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
if (output) console.log(output);
console.log(`lint:dist: ${results.length} files, ${errors} errors`);
process.exit(errors > 0 ? 1 : 0);
