#!/usr/bin/env node
// A spreadsheet sync through Candidate → Create or Update: `npm run bench:sync` (docs/benchmarks.md,
// "A sync of 10,000 rows"). Per cell (sandbox latency × Concurrent Requests):
//   1. a fresh sandbox in its own process (127.0.0.1, --latency), counting every request it receives;
//   2. first run: the whole sheet (default 10,000 rows: e-mail, first and last name, city, two IT
//      skills and one language as compact text) in ONE execution of the node through n8n-core's
//      engine (the test harness), non-manual, so the workflow's static data is kept as n8n keeps it;
//   3. re-run: the same sheet with 1 % of the rows changed (half a new city → a profile update,
//      half one more IT skill → one record), in a second execution with the kept memory.
// Reports per run the requests the sandbox received (by method and path), wall time, rows by
// action; checks (and exits 1 otherwise) that the first run created exactly one candidate per row
// with its profile and records, and that the re-run sent exactly the writes the changes need, no
// creation, with every other row `unchanged`. Before the cells, the memory's own cost
// (scripts/bench/syncMemory.mjs): bytes per remembered row in the static data, and the CPU a run
// spends in the memory with 100,000 rows remembered (checked: at most 72 bytes per row, at most
// 100 ms for a run that changes 10 rows). Last line: `SYNC {json}`.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { SEEDED_LOGIN } from '../../test/sandbox/index.mjs';
import { measureMemory } from './syncMemory.mjs';
import { printTable } from './table.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const require = createRequire(path.join(repoRoot, 'package.json'));

const USAGE = `Usage: npm run bench:sync -- [options]
  --rows N              rows of the sheet (default 10000)
  --latency LIST        sandbox latencies per request in ms (default 20,200)
  --concurrency LIST    the node's Concurrent Requests (default 5,20)
  --changed FRACTION    share of rows changed for the re-run (default 0.01; half a new city, half one more IT skill)
  --memory-rows N       rows remembered when the memory's own CPU is measured (default 100000)
  --memory-only         measure only the memory's own cost (no sandbox, a few seconds)
  -h, --help            show this help
Every latency × concurrency pair is one cell: a fresh sandbox, the first run, the re-run.
At 10,000 rows (5 requests per new row) a cell's first run takes at least rows × 5 × latency ÷ concurrency
(200 ms, 5: 33 minutes; 51 measured on a shared 2-core machine); --rows 200 checks the script in under a minute.
Exits 1 when a check fails; the last line is SYNC {json}.`;

let args;
try {
	({ values: args } = parseArgs({
		options: {
			rows: { type: 'string', default: '10000' },
			latency: { type: 'string', default: '20,200' },
			concurrency: { type: 'string', default: '5,20' },
			changed: { type: 'string', default: '0.01' },
			'memory-rows': { type: 'string', default: '100000' },
			'memory-only': { type: 'boolean', default: false },
			'serve-sandbox': { type: 'string' },
			help: { type: 'boolean', short: 'h', default: false },
		},
		strict: true,
	}));
} catch (error) {
	console.error(`${error.message}\n\n${USAGE}`);
	process.exit(2);
}
if (args.help) {
	console.log(USAGE);
	process.exit(0);
}

const CANDIDATE = '/gin/v1/company/candidate';
const LOGIN = 'POST /v1/login';
const LANGUAGE_LIST = 'GET /v1/general/language-skills';

// ---- the sandbox's own process (forked by this script with --serve-sandbox MS) ----------------
// Answers {type: 'summary', from} with what it received since request number `from`.
if (args['serve-sandbox'] !== undefined) {
	const { startSandbox } = await import('../../test/sandbox/index.mjs');
	const latencyMs = Number(args['serve-sandbox']);
	const sandbox = await startSandbox({ faults: latencyMs > 0 ? { latencyMs } : undefined });
	process.on('message', (message) => {
		if (message?.type === 'summary') {
			const slice = sandbox.requests.slice(message.from);
			const byRoute = {};
			const byStatus = {};
			for (const request of slice) {
				const route = `${request.method} ${request.path}`;
				byRoute[route] = (byRoute[route] ?? 0) + 1;
				byStatus[request.status] = (byStatus[request.status] ?? 0) + 1;
			}
			// Arrival times at each tenth of the run's requests: does the rate fall as the memory grows?
			const tenths = slice.length >= 10 ? Array.from({ length: 11 }, (_, k) => slice[Math.min(slice.length - 1, Math.round((k * (slice.length - 1)) / 10))].at) : [];
			process.send({
				type: 'summary',
				next: sandbox.requests.length,
				total: slice.length,
				byRoute,
				byStatus,
				tenths,
				candidates: sandbox.candidates(SEEDED_LOGIN.companyId).length,
			});
		} else if (message?.type === 'stop') {
			void sandbox.close().then(() => process.exit(0));
		}
	});
	process.send({ type: 'ready', url: sandbox.url });
	await new Promise(() => undefined);
}

// ---- the sheet ---------------------------------------------------------------------------------
const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Elif', 'Felix', 'Greta', 'Hamza', 'Ines', 'Jonas', 'Katarzyna', 'Luca', 'Mia', 'Noah', 'Olga', 'Paul'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Yılmaz', 'Kowalski', 'Nguyen', 'Rossi'];
const CITIES = ['Berlin', 'Hamburg', 'München', 'Köln', 'Frankfurt am Main', 'Stuttgart', 'Düsseldorf', 'Leipzig', 'Dresden', 'Hannover'];
const SKILLS = ['TypeScript', 'SQL', 'Python', 'Java', 'Kubernetes', 'React', 'C#', 'PostgreSQL', 'Terraform', 'Excel'];
const LANGUAGES = ['English: 4', 'German: 5', 'French: 3', 'Spanish: 2', 'English: 5'];
/** The IT skill a changed row gains: in no row's first two. */
const NEW_SKILL = 'Go: 2';

const ascii = (name) => name.toLowerCase().replace(/ü/g, 'ue').replace(/ı/g, 'i');

/** Row i of the sheet, as a spreadsheet node would give it. */
function rowOf(index) {
	const first = FIRST[index % FIRST.length];
	const last = LAST[Math.floor(index / FIRST.length) % LAST.length];
	const skillA = SKILLS[index % SKILLS.length];
	const skillB = SKILLS[(index + 3) % SKILLS.length];
	return {
		// Addresses as companies hand them out: ASCII (Müller → mueller).
		email: `${ascii(first)}.${ascii(last)}.${index}@example.test`,
		first_name: first,
		last_name: last,
		city: CITIES[index % CITIES.length],
		it_skills: `${skillA}: ${1 + (index % 4)}, ${skillB}: ${1 + ((index + 1) % 4)}`,
		languages: LANGUAGES[index % LANGUAGES.length],
	};
}

/** The sheet again with `share` of its rows changed, spread evenly: even ones a new city, odd ones one more IT skill. */
function changedSheet(sheet, share) {
	const count = Math.max(2, Math.round(sheet.length * share));
	const step = sheet.length / count;
	const city = new Set();
	const skill = new Set();
	for (let k = 0; k < count; k++) (k % 2 === 0 ? city : skill).add(Math.floor(k * step));
	const rows = sheet.map((row, index) => {
		if (city.has(index)) return { ...row, city: `${row.city} (moved)` };
		if (skill.has(index)) return { ...row, it_skills: `${row.it_skills}, ${NEW_SKILL}` };
		return row;
	});
	return { rows, city, skill };
}

/** The node as a workflow maps a sheet onto it: every value by expression from the row. */
const upsertParameters = (concurrency) => ({
	resource: 'candidate',
	operation: 'upsert',
	email: '={{ $json.email }}',
	additionalFields: { firstName: '={{ $json.first_name }}', lastName: '={{ $json.last_name }}', city: '={{ $json.city }}' },
	recordInput: 'lists',
	itSkillList: '={{ $json.it_skills }}',
	languageList: '={{ $json.languages }}',
	options: { concurrency },
});

// ---- the cells -----------------------------------------------------------------------------------
const list = (text) => text.split(',').filter(Boolean).map(Number);
const rowCount = Number(args.rows);
const share = Number(args.changed);
const latencies = list(args.latency);
const concurrencies = list(args.concurrency);
if (!Number.isInteger(rowCount) || rowCount < 10 || !(share > 0 && share < 1) || latencies.some((v) => !(v >= 0)) || concurrencies.some((v) => !(v >= 1))) {
	console.error(`invalid options\n\n${USAGE}`);
	process.exit(2);
}

function startSandboxProcess(latencyMs) {
	const child = fork(fileURLToPath(import.meta.url), ['--serve-sandbox', String(latencyMs)], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const pending = [];
	child.on('message', (message) => pending.shift()?.(message));
	const next = () => new Promise((resolve) => pending.push(resolve));
	const ready = next();
	return ready.then(({ url }) => ({
		url,
		summary: (from) => {
			const answer = next();
			child.send({ type: 'summary', from });
			return answer;
		},
		stop: () =>
			new Promise((resolve) => {
				child.once('exit', resolve);
				child.send({ type: 'stop' });
			}),
	}));
}

let harnessModule;
const journal = { calls: 0, values: 0, ms: 0 };
function loadHarness() {
	if (harnessModule) return harnessModule;
	require('ts-node').register({
		transpileOnly: true,
		project: path.join(repoRoot, 'tsconfig.test.json'),
		compilerOptions: { module: 'commonjs' },
		// `../nodes/Recruiting/Recruiting.node` must load the .ts, not Recruiting.node.json beside it.
		preferTsExts: true,
	});
	harnessModule = require(path.join(repoRoot, 'test', 'helpers', 'harness.ts'));
	// What the node asks of n8n's deduplication store (the creation journal): calls, values passed, time inside.
	const store = harnessModule.deduplicator;
	for (const name of ['checkProcessedAndRecord', 'removeProcessed']) {
		const original = store[name].bind(store);
		store[name] = async (items, ...rest) => {
			const t0 = performance.now();
			try {
				return await original(items, ...rest);
			} finally {
				journal.calls += 1;
				journal.values += items.length;
				journal.ms += performance.now() - t0;
			}
		};
	}
	return harnessModule;
}

const failures = [];
function check(cell, condition, text) {
	const line = `${condition ? 'ok  ' : 'FAIL'} ${cell}: ${text}`;
	console.log(line);
	if (!condition) failures.push(line);
}

const writesOf = (byRoute) => Object.entries(byRoute).filter(([route]) => !route.startsWith('GET ') && route !== LOGIN);
const countOf = (byRoute, route) => byRoute[route] ?? 0;

async function runOnce(harness, sandbox, rows, concurrency, from) {
	const journal0 = { ...journal };
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const result = await harness.run({ parameters: upsertParameters(concurrency), items: rows, onError: 'continueRegularOutput' });
	const wallMs = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	const seen = await sandbox.summary(from);
	const outputs = result.items.map((item) => item.json);
	const actions = {};
	for (const json of outputs) {
		// Create or Update's rows carry `error` always (empty when everything went through).
		const action = json.error ? 'error' : String(json.action);
		actions[action] = (actions[action] ?? 0) + 1;
	}
	const store = { calls: journal.calls - journal0.calls, values: journal.values - journal0.values, ms: Math.round(journal.ms - journal0.ms) };
	return { result, outputs, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, seen, actions, store };
}

// n8n-core writes an instance key into its user folder: a throw-away one, not the user's ~/.n8n.
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-sync-'));
process.env.N8N_USER_FOLDER ??= userFolder;
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

// ---- the memory's own cost ------------------------------------------------------------------------
const MEMORY_BYTES_PER_ROW = 72;
const MEMORY_CPU_MS = 100;
const memoryRows = Number(args['memory-rows']);
if (!Number.isInteger(memoryRows) || memoryRows < 10) {
	console.error(`invalid --memory-rows\n\n${USAGE}`);
	process.exit(2);
}
loadHarness();
const memory = await measureMemory({ repoRoot, rows: memoryRows, changed: 10 });
console.log(`\nThe sync memory with ${memoryRows} rows remembered (UUID slug, profile, 2 IT skills, 1 language per row), CPU of the node's memory calls (median of 3):`);
printTable(
	['run', 'memory CPU', 'rows sending', 'static data saved', "n8n's load / save of the static data (CPU)"],
	[
		['10 rows, each changed', `${memory.tenRows.memoryMs.toFixed(1)} ms`, memory.tenRows.sent, memory.tenRows.changedStaticData ? `${(memory.tenRows.savedBytes / 1e6).toFixed(2)} MB` : 'no', `${memory.tenRows.loadMs.toFixed(0)} / ${memory.tenRows.saveMs.toFixed(0)} ms`],
		[`${memoryRows} rows, 10 changed`, `${memory.wholeSheet.memoryMs.toFixed(0)} ms (${memory.wholeSheet.usPerRow} µs a row, with the 4 prints a row the operation asks)`, memory.wholeSheet.sent, memory.wholeSheet.changedStaticData ? `${(memory.wholeSheet.savedBytes / 1e6).toFixed(2)} MB` : 'no', `${memory.wholeSheet.loadMs.toFixed(0)} / ${memory.wholeSheet.saveMs.toFixed(0)} ms`],
	],
);
console.log(`  the node's memory in the static data: ${memory.bytesPerRow} bytes per row (${(memory.staticDataBytes / 1e6).toFixed(2)} MB in all)`);
check('memory', memory.bytesPerRow <= MEMORY_BYTES_PER_ROW, `${memory.bytesPerRow} bytes per remembered row in the static data (at most ${MEMORY_BYTES_PER_ROW})`);
check('memory', memory.tenRows.memoryMs <= MEMORY_CPU_MS, `a run that changes 10 rows, ${memoryRows} remembered: ${memory.tenRows.memoryMs.toFixed(1)} ms CPU in the memory (at most ${MEMORY_CPU_MS})`);
check('memory', memory.tenRows.sent === 10 && memory.wholeSheet.sent === 10, `exactly the 10 changed rows have something to send (${memory.tenRows.sent}, ${memory.wholeSheet.sent})`);
if (args['memory-only']) {
	console.log(`\n${failures.length === 0 ? 'Every check passed.' : `${failures.length} checks FAILED:\n${failures.join('\n')}`}`);
	console.log(`SYNC ${JSON.stringify({ memory, failures: failures.length, cells: [] })}`);
	process.exit(failures.length === 0 ? 0 : 1);
}

const cells = [];
const started = performance.now();
const loadAtStart = os.loadavg();
console.log(
	`Sync of ${rowCount} rows through Candidate → Create or Update (first run, then a re-run with ${(share * 100).toFixed(1)} % changed); ` +
		`${os.cpus().length} cores (nproc), load ${loadAtStart.map((v) => v.toFixed(2)).join(' ')}, Node ${process.version}`,
);

for (const latencyMs of latencies) {
	for (const concurrency of concurrencies) {
		const cell = `${latencyMs} ms, c${concurrency}`;
		const sandbox = await startSandboxProcess(latencyMs);
		const { Harness } = loadHarness();
		const harness = new Harness({ baseUrl: sandbox.url, authentication: 'emailPassword', email: SEEDED_LOGIN.email, password: SEEDED_LOGIN.password });
		const sheet = Array.from({ length: rowCount }, (_, index) => rowOf(index));
		const before = await sandbox.summary(0);

		process.stderr.write(`  ${cell}: first run of ${rowCount} rows … `);
		const first = await runOnce(harness, sandbox, sheet, concurrency, before.next);
		process.stderr.write(`${(first.wallMs / 1000).toFixed(1)} s; re-run … `);
		const { rows: again, city, skill } = changedSheet(sheet, share);
		const second = await runOnce(harness, sandbox, again, concurrency, first.seen.next);
		process.stderr.write(`${(second.wallMs / 1000).toFixed(1)} s\n`);
		const load = os.loadavg();
		await sandbox.stop();

		// ---- checks: first run
		const f = first.seen.byRoute;
		const records = rowCount * 3;
		check(cell, !first.result.error, `first run: the execution succeeded${first.result.error ? ` (${first.result.error.message})` : ''}`);
		check(cell, first.outputs.length === rowCount, `first run: ${first.outputs.length} output items for ${rowCount} rows`);
		check(cell, first.actions.created === rowCount, `first run: ${first.actions.created ?? 0} rows "created" (of ${rowCount}; ${JSON.stringify(first.actions)})`);
		check(cell, new Set(first.outputs.map((json) => json.slug)).size === rowCount, 'first run: every row has its own slug');
		check(cell, first.seen.candidates - before.candidates === rowCount, `first run: the service holds ${first.seen.candidates - before.candidates} new candidates`);
		check(cell, countOf(f, `POST ${CANDIDATE}`) === rowCount, `first run: ${countOf(f, `POST ${CANDIDATE}`)} creations sent`);
		check(cell, countOf(f, `PUT ${CANDIDATE}`) === rowCount, `first run: ${countOf(f, `PUT ${CANDIDATE}`)} profile updates sent`);
		check(
			cell,
			countOf(f, `POST ${CANDIDATE}/it-skill`) === 2 * rowCount && countOf(f, `POST ${CANDIDATE}/language`) === rowCount,
			`first run: ${countOf(f, `POST ${CANDIDATE}/it-skill`) + countOf(f, `POST ${CANDIDATE}/language`)} records sent (${records} expected: 2 IT skills and 1 language per row)`,
		);
		check(cell, writesOf(f).length === 4, `first run: no other write (${writesOf(f).map(([route, n]) => `${route} ${n}`).join(', ')})`);
		check(cell, Object.keys(first.seen.byStatus).every((status) => Number(status) < 300), `first run: every answer 2xx (${JSON.stringify(first.seen.byStatus)})`);

		// ---- checks: re-run
		const s = second.seen.byRoute;
		const changed = city.size + skill.size;
		check(cell, !second.result.error, `re-run: the execution succeeded${second.result.error ? ` (${second.result.error.message})` : ''}`);
		check(cell, countOf(s, `POST ${CANDIDATE}`) === 0 && second.seen.candidates === first.seen.candidates, `re-run: no creation (${countOf(s, `POST ${CANDIDATE}`)} sent; the service holds ${second.seen.candidates - first.seen.candidates} more)`);
		check(cell, countOf(s, `PUT ${CANDIDATE}`) === city.size, `re-run: ${countOf(s, `PUT ${CANDIDATE}`)} profile updates for ${city.size} rows with a new city`);
		check(cell, countOf(s, `POST ${CANDIDATE}/it-skill`) === skill.size, `re-run: ${countOf(s, `POST ${CANDIDATE}/it-skill`)} IT skill records for ${skill.size} rows with one more skill`);
		check(cell, writesOf(s).length === (city.size > 0) + (skill.size > 0), `re-run: no other write (${writesOf(s).map(([route, n]) => `${route} ${n}`).join(', ')})`);
		// The languages are compared as the IDs sent (names resolved first): the execution reads the language list once.
		const reads = countOf(s, LANGUAGE_LIST);
		check(
			cell,
			reads <= 1 && second.seen.total === changed + reads,
			`re-run: ${second.seen.total} requests in all for ${changed} changed rows (${reads} read of the language list, no login: the unchanged rows sent nothing)`,
		);
		check(cell, countOf(s, LOGIN) === 0, `re-run: ${countOf(s, LOGIN)} logins (the session stored by the first run is used)`);
		check(cell, Object.keys(second.seen.byStatus).every((status) => Number(status) < 300), `re-run: every answer 2xx (${JSON.stringify(second.seen.byStatus)})`);
		const updatedRows = new Set(second.outputs.flatMap((json, index) => (json.action === 'updated' ? [index] : [])));
		check(
			cell,
			updatedRows.size === changed && [...city, ...skill].every((index) => updatedRows.has(index)),
			`re-run: exactly the ${changed} changed rows "updated" (${updatedRows.size})`,
		);
		check(cell, second.actions.unchanged === rowCount - changed, `re-run: ${second.actions.unchanged ?? 0} rows "unchanged" (of ${rowCount - changed} not changed; ${JSON.stringify(second.actions)})`);
		check(cell, second.outputs.every((json, index) => json.slug === first.outputs[index].slug), 're-run: every row kept its slug');

		cells.push({
			latencyMs,
			concurrency,
			rows: rowCount,
			changedRows: changed,
			loadavg: load.map((v) => Number(v.toFixed(2))),
			first: { requests: first.seen.total, byRoute: f, wallS: Number((first.wallMs / 1000).toFixed(1)), cpuS: Number((first.cpuMs / 1000).toFixed(1)), actions: first.actions, deduplicationStore: first.store, arrivalTenthsMs: first.seen.tenths.map((at) => at - first.seen.tenths[0]) },
			rerun: { requests: second.seen.total, byRoute: s, wallS: Number((second.wallMs / 1000).toFixed(2)), cpuS: Number((second.cpuMs / 1000).toFixed(2)), actions: second.actions, deduplicationStore: second.store },
		});
	}
}
if (harnessModule) harnessModule.stopEngineTimers();
fs.rmSync(userFolder, { recursive: true, force: true });

// ---- report --------------------------------------------------------------------------------------
const routes = (byRoute) =>
	Object.entries(byRoute)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([route, n]) => `${n} ${route.replace(CANDIDATE, 'candidate')}`)
		.join(', ');
const actionsText = (actions) => ['created', 'updated', 'unchanged', 'error'].filter((a) => actions[a]).map((a) => `${actions[a]} ${a}`).join(', ');
const duration = (s) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s} s`);

console.log(`\nSync of ${rowCount} rows (new row: create + profile update + 2 IT skills + 1 language):`);
printTable(
	['latency', 'Concurrent Requests', 'run', 'requests', 'wall time', 'rows'],
	cells.flatMap((c) => [
		[`${c.latencyMs} ms`, c.concurrency, 'first run', c.first.requests, duration(c.first.wallS), actionsText(c.first.actions)],
		[`${c.latencyMs} ms`, c.concurrency, `re-run, ${c.changedRows} rows changed`, c.rerun.requests, duration(c.rerun.wallS), actionsText(c.rerun.actions)],
	]),
);
console.log('\nRequests by method and path:');
for (const c of cells) {
	console.log(`  ${c.latencyMs} ms, c${c.concurrency}, first run: ${routes(c.first.byRoute)}`);
	console.log(`  ${c.latencyMs} ms, c${c.concurrency}, re-run:    ${routes(c.rerun.byRoute)}`);
}
console.log('\nFirst run, requests per second by tenth of its requests (a falling rate would mean the memory slows each row):');
for (const c of cells) {
	const t = c.first.arrivalTenthsMs;
	const perTenth = t.slice(1).map((at, k) => (c.first.requests / 10 / ((at - t[k]) / 1000)).toFixed(0));
	console.log(`  ${c.latencyMs} ms, c${c.concurrency}: ${perTenth.join(' ')}`);
}
console.log("\nn8n's deduplication store (the creation journal; in-memory here, n8n's database in n8n), per run: calls, values passed, time inside:");
for (const c of cells) {
	const text = (d) => `${d.calls} calls, ${d.values} values, ${d.ms} ms`;
	console.log(`  ${c.latencyMs} ms, c${c.concurrency}: first run ${text(c.first.deduplicationStore)}; re-run ${text(c.rerun.deduplicationStore)}`);
}
console.log(`\n${failures.length === 0 ? 'Every check passed.' : `${failures.length} checks FAILED:\n${failures.join('\n')}`}`);
console.log(`SYNC ${JSON.stringify({ rows: rowCount, changed: share, seconds: Math.round((performance.now() - started) / 1000), failures: failures.length, memory, cells })}`);
process.exit(failures.length === 0 ? 0 : 1);
