// What `npm publish` would ship: `npm pack --dry-run` of the built work tree lists only dist/,
// examples/ (every example workflow and its sample sheet: a user who installed from the registry
// finds them in the installed package), README.md, LICENSE and package.json, and the packed package.json is publishable (no made-up
// repository or author, n8n's fields, no runtime dependencies). The e2e tests then load this
// tarball in the pinned n8n (scripts/n8n/stack.mjs → packPackage).
//
//   npm run build && npm run test:release
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

function dryRun() {
	if (!fs.existsSync(path.join(repoRoot, 'dist', 'nodes'))) throw new Error('dist/ is missing: run npm run build first');
	const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	return JSON.parse(out)[0];
}

test('npm pack ships only dist/, examples/, README.md, LICENSE and package.json', () => {
	const packed = dryRun();
	const files = packed.files.map((file) => file.path).sort();
	const outside = files.filter((file) => !file.startsWith('dist/') && !file.startsWith('examples/'));
	assert.deepEqual(outside, ['LICENSE', 'README.md', 'package.json']);
	// every example of the repository, and its sample sheet, nothing else from examples/
	const examples = fs.readdirSync(path.join(repoRoot, 'examples')).map((file) => `examples/${file}`).sort();
	assert.ok(examples.includes('examples/spreadsheet-sync.json') && examples.includes('examples/candidates.csv'));
	assert.deepEqual(files.filter((file) => file.startsWith('examples/')), examples);
	// dist/ holds the compiled node and credential with their icons and codex, and no tests or sources
	for (const needed of [
		'dist/nodes/Recruiting/Recruiting.node.js',
		'dist/nodes/Recruiting/Recruiting.node.json',
		'dist/credentials/RecruitingApi.credentials.js',
		...pkg.n8n.nodes,
		...pkg.n8n.credentials,
	]) {
		assert.ok(files.includes(needed), `${needed} is not in the package`);
	}
	assert.deepEqual(files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts')), []);
	assert.deepEqual(files.filter((file) => /(^|\/)(test|sandbox|scripts)\//.test(file) || /^dist\/.*examples\//.test(file)), []);
	assert.equal(packed.name, 'n8n-nodes-recruiting');
	assert.equal(packed.version, pkg.version);
	// 200 kB until issues 46–48 (the memory in five files, the transport's holds and logins): about 201 kB then;
	// 225.2 kB at stop 66 (the holds' look and the shared logins); about half of it is dist/'s source maps and
	// type declarations, which n8n's starter builds ship too.
	assert.ok(packed.size < 240_000, `the tarball is ${packed.size} bytes`);
});

test('package.json is publishable: n8n fields, no runtime dependencies, no made-up organisation', () => {
	assert.ok(pkg.keywords.includes('n8n-community-node-package'));
	assert.equal(pkg.license, 'MIT');
	assert.deepEqual(pkg.files, ['dist', 'examples']);
	assert.equal(pkg.dependencies, undefined);
	assert.equal(pkg.n8n.strict, true);
	// repository and the author are filled in before the first publish (README → Releasing): the
	// author is a marked placeholder (n8n's lint requires the field), on a reserved domain
	for (const field of ['repository', 'bugs']) assert.equal(pkg[field], undefined, `${field} is set`);
	assert.match(pkg.author.name, /^TODO: fill in before the first publish/);
	assert.match(pkg.author.email, /@example\.invalid$/);
	assert.equal(pkg.homepage, 'https://www.npmjs.com/package/n8n-nodes-recruiting');
	assert.doesNotMatch(JSON.stringify(pkg), /n8n-nodes-recruiting\.dev|github\.com\/n8n-nodes-recruiting/);
	assert.equal(pkg.publishConfig?.provenance, true);
	assert.equal(pkg.publishConfig?.access, 'public');
});

test('the version is the one CHANGELOG.md releases', () => {
	const changelog = fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
	const released = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog);
	assert.ok(released, 'CHANGELOG.md has no released version');
	assert.equal(released[1], pkg.version);
});
