// The sync memory's own cost (issue 25): `npm run bench:sync` prints it first; `-- --memory-only`
// prints only it. The memory of one node (nodes/Recruiting/memory/index.ts) is filled with
// `rows` rows as the sheet of bench:sync would leave them (a UUID slug, a profile print, two IT
// skills and one language per row) and saved as n8n saves static data (JSON of the workflow's
// whole static data). Then, each from that saved copy loaded into n8n-workflow's Workflow (its
// observable static data, as n8n loads it) and with the process's registry empty (as in another
// process, or after the registry dropped what the saved copy holds):
//   A. a run of 10 rows, each changed (one more IT skill), with `rows` remembered;
//   B. a re-run of the whole sheet with 10 rows changed.
// CPU (user + system) of everything the operation asks of the memory: open, keyOf, recall,
// remember per row, and repair at the end; the median of `repeat` tries. n8n's own load and save
// of the static data are shown apart (they are n8n's, whatever the node keeps there).
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuMs = (since) => {
	const used = process.cpuUsage(since);
	return (used.user + used.system) / 1000;
};

export async function measureMemory({ repoRoot, rows = 100_000, changed = 10, repeat = 3 }) {
	const require = createRequire(path.join(repoRoot, 'package.json'));
	const { Workflow } = require('n8n-workflow');
	const memoryModule = require(path.join(repoRoot, 'nodes', 'Recruiting', 'memory', 'index.ts'));
	const { forgetProcessMemory } = require(path.join(repoRoot, 'nodes', 'Recruiting', 'memory', 'registry.ts'));
	const { InMemoryDeduplicator } = require(path.join(repoRoot, 'test', 'helpers', 'deduplicator.ts'));
	const { CandidateMemory, profilePrint, recordPrint } = memoryModule;
	// The profile fields in the order Create or Update prints them (its PROFILE_ORDER).
	const { CANDIDATE_UPDATE_FIELDS, candidateWireName } = require(path.join(repoRoot, 'nodes', 'Recruiting', 'actions', 'shared', 'candidateProfile.ts'));
	const profileOrder = CANDIDATE_UPDATE_FIELDS.map(candidateWireName);

	const store = new InMemoryDeduplicator();
	const node = { id: 'bench-node', name: 'Sync', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { recruitingApi: { id: 'bench-credential', name: 'Recruiting' } } };
	const credentials = { baseUrl: 'http://127.0.0.1:9', authentication: 'emailPassword', email: 'bench@example.test', password: 'x' };
	const nodeTypes = { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) };
	const workflowOf = (staticData) => new Workflow({ id: 'bench-workflow', nodes: [], connections: {}, active: true, nodeTypes, staticData });
	// What the operation's context gives the memory (n8n-core's ExecuteContext has the same methods).
	const contextOf = (workflow) => {
		const nodeContext = {};
		const data = { workflow: { id: workflow.id }, node };
		return {
			getNode: () => node,
			getWorkflow: () => ({ id: workflow.id, name: 'bench', active: true }),
			getMode: () => 'webhook',
			getWorkflowStaticData: (type) => workflow.getStaticData(type, node),
			getContext: () => nodeContext,
			addExecutionHints: () => undefined,
			helpers: {
				checkProcessedAndRecord: async (items, scope, options) => await store.checkProcessedAndRecord(items, scope, data, options),
				removeProcessed: async (items, scope, options) => await store.removeProcessed(items, scope, data, options),
				clearAllProcessedItems: async (scope, options) => await store.clearAllProcessedItems(scope, data, options),
			},
		};
	};
	const emailOf = (index) => `row.${index}@example.test`;
	const entryOf = (index, slug, more = false) => ({
		s: slug,
		p: profilePrint({ first_name: `First${index}`, last_name: `Last${index}`, city: 'Berlin' }, profileOrder),
		r: [
			recordPrint('itSkill', { skill_name: 'SQL', skill_level_id: 3 }),
			recordPrint('itSkill', { skill_name: 'Python', skill_level_id: 2 }),
			recordPrint('language', { language_id: 26, language_level_id: 4 }),
			...(more ? [recordPrint('itSkill', { skill_name: 'Go', skill_level_id: 2 })] : []),
		],
	});

	// ---- the saved copy of `rows` rows
	const first = workflowOf({});
	const filling = await CandidateMemory.open(contextOf(first), credentials);
	const slugs = [];
	for (let index = 0; index < rows; index++) {
		slugs.push(randomUUID());
		filling.remember(filling.keyOf('email', emailOf(index)), entryOf(index, slugs[index]));
	}
	await filling.repair();
	// The copy as the next execution leaves it (the journal holds a claim per row; the copy itself stays as saved).
	const settled = workflowOf(JSON.parse(JSON.stringify(first.staticData)));
	forgetProcessMemory();
	await (await CandidateMemory.open(contextOf(settled), credentials)).repair();
	const saved = JSON.stringify(settled.staticData);
	const memoryBytes = Buffer.byteLength(JSON.stringify(settled.staticData.global.recruitingMemory));

	const changedRows = new Set(Array.from({ length: changed }, (_, k) => Math.floor((k * rows) / changed)));
	const run = async (indexes) => {
		forgetProcessMemory();
		let t0 = process.cpuUsage();
		const workflow = workflowOf(JSON.parse(saved));
		const loadMs = cpuMs(t0);
		t0 = process.cpuUsage();
		const memory = await CandidateMemory.open(contextOf(workflow), credentials);
		let sent = 0;
		for (const index of indexes) {
			const key = memory.keyOf('email', emailOf(index));
			const known = memory.recall(key);
			const entry = entryOf(index, known?.s ?? 'missing', changedRows.has(index));
			if (known?.s !== slugs[index]) throw new Error(`row ${index}: the memory lost its slug`);
			if (entry.r.some((print) => !known.r.includes(print)) || entry.p !== known.p) sent += 1;
			memory.remember(key, entry);
		}
		await memory.repair();
		const memoryMs = cpuMs(t0);
		t0 = process.cpuUsage();
		const changedStaticData = workflow.staticData.__dataChanged === true;
		const savedBytes = changedStaticData ? Buffer.byteLength(JSON.stringify(workflow.staticData)) : 0;
		const saveMs = cpuMs(t0);
		return { memoryMs, loadMs, saveMs, sent, changedStaticData, savedBytes };
	};
	const trials = async (indexes) => {
		const results = [];
		for (let k = 0; k < repeat; k++) results.push(await run(indexes));
		return { ...results[0], memoryMs: median(results.map((r) => r.memoryMs)), loadMs: median(results.map((r) => r.loadMs)), saveMs: median(results.map((r) => r.saveMs)) };
	};
	const tenRows = await trials([...changedRows]);
	const wholeSheet = await trials(Array.from({ length: rows }, (_, index) => index));
	forgetProcessMemory();
	return {
		rows,
		changed,
		bytesPerRow: Number((memoryBytes / rows).toFixed(1)),
		staticDataBytes: Buffer.byteLength(saved),
		tenRows,
		wholeSheet: { ...wholeSheet, usPerRow: Number(((wholeSheet.memoryMs * 1000) / rows).toFixed(2)) },
	};
}
