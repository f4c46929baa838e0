// Validates .github/workflows/*.yml against GitHub's own workflow schema with
// @actions/workflow-parser (the parser behind GitHub's Actions language service), since nothing
// here can reach GitHub. Also checks what this project's workflows must do: publish with
// provenance (id-token: write, npm publish --provenance) on a version tag, run .ci/run on pull
// requests, and name only scripts package.json has (`npm run <name>`). Exits 1 with every
// problem listed.
//
//   node scripts/validate-workflows.mjs [file ...]
import fs from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The parser imports its JSON schema without an import attribute (it targets bundlers), which
// Node refuses; this hook adds `type: 'json'` to JSON imports.
const JSON_IMPORTS = `export async function load(url, context, next) {
	if (url.endsWith('.json')) return next(url, { ...context, importAttributes: { type: 'json' } });
	return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(JSON_IMPORTS)}`);
const { NoOperationTraceWriter, convertWorkflowTemplate, parseWorkflow } = await import('@actions/workflow-parser');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(repoRoot, '.github', 'workflows');

/** Schema errors of one workflow file, and its converted template. */
export async function validateWorkflow(file) {
	const content = fs.readFileSync(file, 'utf8');
	const trace = new NoOperationTraceWriter();
	const parsed = parseWorkflow({ name: path.basename(file), content }, trace);
	const errors = parsed.context.errors.getErrors().map((error) => error.message);
	let template;
	if (parsed.value && errors.length === 0) {
		template = await convertWorkflowTemplate(parsed.context, parsed.value);
		errors.push(...(template.errors ?? []).map((error) => error.Message ?? String(error)));
	}
	return { errors, template, content };
}

/** What the project's two workflows must contain (beyond being valid). */
function projectRules(name, template, content) {
	const problems = [];
	const steps = (template?.jobs ?? []).flatMap((job) => job.steps ?? []);
	const runs = steps.map((step) => String(step.run ?? '')).join('\n');
	if (name === 'publish.yml') {
		if (!/tags:\s*\[?'?v\*/.test(content)) problems.push('publish.yml must run on version tags (v*.*.*)');
		if (!/id-token:\s*write/.test(content)) problems.push('publish.yml needs permissions id-token: write (npm provenance)');
		if (!/npm publish --provenance/.test(runs)) problems.push('publish.yml must run npm publish --provenance');
		if (!/npm test/.test(runs)) problems.push('publish.yml must run the tests before publishing');
	}
	// A step that runs a script package.json does not have fails only on GitHub (publish.yml once ran `npm run test:pack`).
	const scripts = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts ?? {};
	for (const [, script] of runs.matchAll(/\bnpm run(?:-script)? +([\w:.-]+)/g)) if (!(script in scripts)) problems.push(`${name} runs \`npm run ${script}\`, which package.json does not have`);
	if (name === 'ci.yml') {
		if (!/pull_request/.test(content)) problems.push('ci.yml must run on pull requests');
		if (!/\.ci\/run/.test(runs)) problems.push('ci.yml must run .ci/run');
	}
	return problems;
}

async function main(files) {
	let failed = 0;
	for (const file of files) {
		const { errors, template, content } = await validateWorkflow(file);
		const problems = [...errors, ...projectRules(path.basename(file), template, content)];
		const rel = path.relative(repoRoot, file);
		if (problems.length === 0) {
			console.log(`ok   ${rel} (${template.jobs.length} job(s), ${template.jobs.flatMap((job) => job.steps ?? []).length} steps)`);
		} else {
			failed++;
			console.log(`FAIL ${rel}`);
			for (const problem of problems) console.log(`     ${problem}`);
		}
	}
	return failed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	const files = args.length > 0 ? args.map((file) => path.resolve(file)) : fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f));
	if (files.length === 0) {
		console.log('no workflow files in .github/workflows');
		process.exit(1);
	}
	process.exit((await main(files)) > 0 ? 1 : 0);
}
