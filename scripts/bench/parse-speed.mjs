#!/usr/bin/env node
// How long Candidate → Import takes to read a large IT-skill or language cell (compact text),
// and to resolve every language name of it against a language list of the service's size:
//   node scripts/bench/parse-speed.mjs [--sizes 79,341,1024] [--runs 3]
// Sizes in KB (`--kinds itSkill,language` limits the cells). Prints the best of `runs` per size,
// wall-clock and CPU: parse ms (parseList) and, for languages, resolve ms (resolveListId for
// every entry, the list cached as in one execution). Both run on n8n's event loop, so these are
// the times it is blocked. Not a test: the figures depend on the machine.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const { values: args } = parseArgs({
	options: {
		sizes: { type: 'string', default: '79,341,1024' },
		runs: { type: 'string', default: '3' },
		kinds: { type: 'string', default: 'itSkill,language' },
	},
});

require('ts-node').register({
	transpileOnly: true,
	project: path.join(repoRoot, 'tsconfig.test.json'),
	compilerOptions: { module: 'commonjs' },
	preferTsExts: true,
});
const { parseList } = require(path.join(repoRoot, 'nodes/Recruiting/actions/candidate/import/lists.ts'));
const { RECORD_KINDS } = require(path.join(repoRoot, 'nodes/Recruiting/actions/candidate/import/records.ts'));
const { resolveListId } = require(path.join(repoRoot, 'nodes/Recruiting/actions/common/resolve.ts'));
const { LANGUAGE_NAME_GROUPS } = require(path.join(repoRoot, 'nodes/Recruiting/actions/common/languageNames.ts'));

const kindOf = (type) => RECORD_KINDS.find((kind) => kind.type === type);

/** Entries `entry(0)`, `entry(1)`, ... up to `bytes` characters, cut after the last whole entry. */
function cell(bytes, entry) {
	const parts = [];
	let length = 0;
	for (let index = 0; length < bytes; index++) {
		const part = entry(index);
		parts.push(part);
		length += part.length;
	}
	return parts.join('').slice(0, bytes).replace(/[,;\s]*[^,;\n]*$/, '');
}

const skills = ['TypeScript', 'SQL', 'Python', 'Kubernetes', 'React Native', 'C++', 'Go'];
const itSkillCell = (bytes) => cell(bytes, (i) => `${skills[i % skills.length]} ${i}: ${(i % 4) + 1}${i % 3 === 0 ? '\n' : ', '}`);
// The list's own names, German names and other spellings, as spreadsheets carry them.
const typed = ['English', 'Deutsch', 'französisch', 'Spanish', 'Luxemburgisch', 'maori', 'Italienisch', 'Chinese'];
const languageCell = (bytes) => cell(bytes, (i) => `${typed[i % typed.length]}: ${(i % 5) + 1}${i % 2 === 0 ? '; ' : '\n'}`);

// A language list of the service's size (one entry per language group, ~100), English names.
const languageList = [
	{ id: 26, value: 'English' },
	{ id: 23, value: 'German' },
	{ id: 35, value: 'French' },
	{ id: 28, value: 'Spanish' },
	{ id: 53, value: 'Italian' },
	{ id: 72, value: 'Māori' },
	{ id: 139, value: 'Luxemburgisch' },
	...LANGUAGE_NAME_GROUPS.map((group, index) => ({ id: 1000 + index, value: group[0] })),
].filter((entry, index, all) => all.findIndex((other) => other.value === entry.value) === index);

const fakeContext = { getNode: () => ({ name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1, parameters: {} }) };
const onceResults = new Map();
const fakeRun = {
	references: { get: async () => languageList },
	once: (key, work) => {
		if (!onceResults.has(key)) onceResults.set(key, work());
		return onceResults.get(key);
	},
};

/** Best of `runs`: wall-clock ms and CPU ms of this process (the latter is steadier on a busy machine). */
async function best(runs, work) {
	let wall = Infinity;
	let cpu = Infinity;
	let result;
	for (let run = 0; run < runs; run++) {
		const start = process.hrtime.bigint();
		const startCpu = process.cpuUsage();
		result = await work();
		const used = process.cpuUsage(startCpu);
		wall = Math.min(wall, Number(process.hrtime.bigint() - start) / 1e6);
		cpu = Math.min(cpu, (used.user + used.system) / 1000);
	}
	return { ms: `${wall.toFixed(1)} (cpu ${cpu.toFixed(1)})`, result };
}

const runs = Number(args.runs);
const kinds = args.kinds.split(',');
const rows = [];
for (const kb of args.sizes.split(',').map(Number)) {
	const bytes = kb * 1024;
	if (kinds.includes('itSkill')) {
		const skillText = itSkillCell(bytes);
		const skill = await best(runs, () => parseList(kindOf('itSkill'), skillText));
		rows.push({ cell: 'IT skills', KB: kb, entries: skill.result.length, 'parse ms': skill.ms, 'resolve ms': '' });
	}
	if (kinds.includes('language')) {
		const languageText = languageCell(bytes);
		const language = await best(runs, () => parseList(kindOf('language'), languageText));
		const names = language.result.map((entry) => entry.values.languageId);
		const resolve = await best(runs, async () => {
			onceResults.clear(); // each run is a new execution
			for (const name of names) {
				await resolveListId(fakeContext, fakeRun, 0, 'languageSkills', name, { label: 'Language', entryLabel: 'language' });
			}
		});
		rows.push({ cell: 'languages', KB: kb, entries: language.result.length, 'parse ms': language.ms, 'resolve ms': resolve.ms });
	}
}
console.table(rows);
