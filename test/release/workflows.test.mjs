// The GitHub Actions workflows, checked with GitHub's own workflow parser
// (scripts/validate-workflows.mjs): ours pass, and the validator does catch a broken file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(repoRoot, 'scripts', 'validate-workflows.mjs');

function validate(...files) {
	try {
		return { code: 0, out: execFileSync(process.execPath, [script, ...files], { encoding: 'utf8' }) };
	} catch (error) {
		return { code: error.status, out: String(error.stdout) };
	}
}

test('publish.yml and ci.yml are valid workflows that do what the project needs', () => {
	const { code, out } = validate();
	assert.equal(code, 0, out);
	assert.match(out, /ok {3}\.github\/workflows\/ci\.yml/);
	assert.match(out, /ok {3}\.github\/workflows\/publish\.yml/);
});

test('the validator reports schema errors, bad expressions, a publish without provenance and a script package.json does not have', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workflows-'));
	try {
		const broken = path.join(dir, 'broken.yml');
		fs.writeFileSync(broken, 'on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        wiht: {}\n      - run: echo ${{ github.nope( }}\n');
		const publish = path.join(dir, 'publish.yml');
		fs.writeFileSync(publish, "on:\n  push:\n    tags: ['v*.*.*']\njobs:\n  p:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n      - run: npm run test:pack\n      - run: npm publish\n");
		const { code, out } = validate(broken, publish);
		assert.equal(code, 1);
		assert.match(out, /Unexpected value 'wiht'/);
		assert.match(out, /Unexpected symbol: '\('/);
		assert.match(out, /id-token: write/);
		assert.match(out, /npm publish --provenance/);
		assert.match(out, /runs `npm run test:pack`, which package\.json does not have/);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
