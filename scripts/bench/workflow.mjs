#!/usr/bin/env node
// Workflow-level comparison in a real n8n (issue 20): the spreadsheet row of the benchmark's
// workload (workload.mjs: create, update, one job, one IT skill, one additional information)
// done by ONE Recruiting node (Candidate → Import) against the same work hand-wired as a user
// would build it: an HTTP Request node that logs in, then five HTTP Request nodes in a chain,
// each mapping its fields with expressions, the token from the login node by expression.
//
//   npm run bench:workflow -- [--rows 1000] [--latency 50] [--variants ...] [--profile DIR]
//
// It builds and packs the package (as the e2e tests do), starts the sandbox (in this process,
// with the given latency) and the pinned n8n with the packed package, imports one workflow per
// variant behind a webhook, and runs each: an unmeasured warm-up execution, then the measured
// one. Both kinds of workflow get their rows the same way (Webhook → "Rows" Code node), so that
// part costs the same. Measured per variant:
//   rows per minute  rows ÷ (stoppedAt − startedAt) of n8n's own execution record;
//   CPU per row      utime+stime (+ reaped children) from /proc of every process in n8n's
//                    process group (the main process and its task runners), before the webhook
//                    call and after n8n recorded the execution as finished, ÷ rows; the
//                    sandbox runs in this process and is not counted.
// Every run is checked: the execution succeeded, the sandbox stored every row's candidate with
// its city and exactly one job, IT skill and additional information, and received exactly one
// request of each of the five kinds per row; otherwise the script fails.
// If a target is missed (or with --profile), one more execution of each variant runs under
// V8's CPU profiler (attached to n8n's main process through the inspector), and the script
// prints where n8n's CPU per row goes (self time per part, top functions).
// Prints a table, MET/MISSED for the targets, and a last line `WORKFLOW {json}`.

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cpuByPart } from './profile.mjs';
import { requestOf } from './workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

const USAGE = `Usage: npm run bench:workflow -- [options]

Runs the workload's row (create, update, job, IT skill, additional information) in a real n8n
(the pinned line; N8N_LINE=1 for 1.x), once through one Recruiting node (Candidate → Import) and
once through a hand-wired chain of HTTP Request nodes, against the sandbox at --latency ms.

  --rows N             rows per measured execution (default 1000)
  --warmup N           rows of the unmeasured warm-up execution of each variant (default 100)
  --repeat N           measured executions per variant, in rounds over the variants (default 1);
                       the table gives the median (and the range)
  --latency MS         the sandbox's latency per request (default 50)
  --variants LIST      default import-auto,import-c5,import-c20,chain,chain-batched
                         import-auto    one Recruiting node version 1.1, Candidate → Import, its defaults
                                        (Concurrency Mode Auto)
                         import-auto-maxN  the same with Max Concurrency N
                         import-cN      one Recruiting node version 1, Candidate → Import, Concurrent Requests N
                         chain          login + 5 HTTP Request nodes, n8n's defaults (no batching)
                         chain-batched  the same with Batching (see --chain-batch)
  --chain-batch S:MS   Items per Batch and Batch Interval of chain-batched (default 20:50)
  --profile DIR        profile one more execution of each variant (V8 CPU profile of n8n's main
                       process) and write the .cpuprofile files to DIR; without it, profiles are
                       taken only when a target is missed (into .cache/workflow-profiles/)
  --no-profile         never profile
  --no-build           use dist/ as it is (default: npm run build first)
  --n8n-env KEY=VALUE  an environment variable for n8n (repeatable), e.g.
                       N8N_EXPRESSION_ENGINE=legacy to see the cost of 2.x's isolated expressions
  --summarise DIR      only print the summary of the .cpuprofile files in DIR (per row: --rows)
  -h, --help           this help

Last line: WORKFLOW {json}.`;

let args;
try {
	({ values: args } = parseArgs({
		options: {
			rows: { type: 'string', default: '1000' },
			warmup: { type: 'string', default: '100' },
			repeat: { type: 'string', default: '1' },
			latency: { type: 'string', default: '50' },
			variants: { type: 'string', default: 'import-auto,import-c5,import-c20,chain,chain-batched' },
			'chain-batch': { type: 'string', default: '20:50' },
			profile: { type: 'string' },
			'no-profile': { type: 'boolean', default: false },
			'no-build': { type: 'boolean', default: false },
			summarise: { type: 'string' },
			'n8n-env': { type: 'string', multiple: true, default: [] },
			help: { type: 'boolean', short: 'h', default: false },
		},
		strict: true,
	}));
} catch (err) {
	console.error(`${err.message}\n\n${USAGE}`);
	process.exit(2);
}
if (args.help) {
	console.log(USAGE);
	process.exit(0);
}

const ROWS = Number(args.rows);
const WARMUP = Number(args.warmup);
const REPEAT = Number(args.repeat);
const LATENCY = Number(args.latency);
const [BATCH_SIZE, BATCH_INTERVAL] = args['chain-batch'].split(':').map(Number);
const VARIANTS = args.variants.split(',').filter(Boolean);
for (const [name, value] of Object.entries({ rows: ROWS, warmup: WARMUP, repeat: REPEAT, latency: LATENCY, 'chain-batch size': BATCH_SIZE, 'chain-batch interval': BATCH_INTERVAL })) {
	if (!Number.isInteger(value) || value < 0) {
		console.error(`--${name} must be a whole number ≥ 0\n\n${USAGE}`);
		process.exit(2);
	}
}
if (ROWS < 1 || REPEAT < 1) {
	console.error(`--rows and --repeat must be at least 1\n\n${USAGE}`);
	process.exit(2);
}
for (const v of VARIANTS) {
	if (!/^(import-auto(-max\d+)?|import-c\d+|chain|chain-batched)$/.test(v)) {
		console.error(`unknown variant "${v}"\n\n${USAGE}`);
		process.exit(2);
	}
}

const log = (m) => console.log(m);
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

// ---- the workflows ------------------------------------------------------------------------

const uuid = () => randomUUID();

/** Webhook → Rows: the same in every variant. The caller POSTs { run, rows }. */
function rowSource(webhookPath) {
	const webhook = {
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		id: uuid(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: uuid(),
	};
	// The row's fields are the values of workload.mjs's requests, as a spreadsheet would carry them.
	const rows = {
		parameters: {
			jsCode: [
				"const { run = 'r', rows = 1 } = $('Webhook').first().json.body ?? {};",
				'const out = [];',
				'for (let n = 1; n <= rows; n++) {',
				'  out.push({ json: { row: n, email: `wf.${run}.r${n}@bench.test`, source: "bench", city: "Berlin", company: "Acme", startDate: "15-01-2020", skill: "TypeScript", skillLevel: 3, title: "Note" } });',
				'}',
				'return out;',
			].join('\n'),
		},
		id: uuid(),
		name: 'Rows',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [440, 0],
	};
	return { webhook, rows };
}

const main = (node) => ({ main: [[{ node, type: 'main', index: 0 }]] });

/** A: one Recruiting node, Candidate → Import, every field mapped from the row by expression. */
function importWorkflow(name, webhookPath, concurrency) {
	const { webhook, rows } = rowSource(webhookPath);
	const importNode = {
		parameters: {
			resource: 'candidate',
			operation: 'import',
			email: '={{ $json.email }}',
			additionalFields: { source: '={{ $json.source }}', city: '={{ $json.city }}' },
			recordInput: 'fields',
			jobs: { job: [{ companyName: '={{ $json.company }}', startDate: '={{ $json.startDate }}' }] },
			itSkills: { itSkill: [{ skillName: '={{ $json.skill }}', skillLevel: '={{ $json.skillLevel }}' }] },
			additionalInfo: { entry: [{ title: '={{ $json.title }}' }] },
			// Version 1.1 at its defaults is Concurrency Mode Auto ('auto-maxN': with Max Concurrency N); version 1 at its defaults a fixed 5.
			options: String(concurrency).startsWith('auto-max') ? { maxConcurrency: Number(concurrency.slice('auto-max'.length)) } : concurrency === 'auto' || concurrency === 5 ? {} : { concurrency },
		},
		id: uuid(),
		name: 'Import candidate',
		type: 'n8n-nodes-recruiting.recruiting',
		typeVersion: String(concurrency).startsWith('auto') ? 1.1 : 1,
		position: [660, 0],
		credentials: { recruitingApi: { name: 'Recruiting account' } },
	};
	return {
		name,
		nodes: [webhook, rows, importNode],
		connections: { Webhook: main('Rows'), Rows: main('Import candidate') },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * B: the chain a user wires: Log in (POST /v1/login), then Create → Update → Add job → Add IT
 * skill → Add additional info, each an HTTP Request node with its body fields mapped by
 * expression from the row (and the slug from the creation's answer), the token by expression
 * from the login node. n8n's defaults otherwise; `batching` only for chain-batched.
 */
function chainWorkflow(name, webhookPath, { baseUrl, login, httpVersion, batching }) {
	const { webhook, rows } = rowSource(webhookPath);
	const options = batching ? { batching: { batch: { batchSize: batching.size, batchInterval: batching.intervalMs } } } : {};
	const auth = { name: 'Authorization', value: "={{ 'Bearer ' + $('Log in').first().json.data.token }}" };
	const slug = "={{ $('Create candidate').item.json.data.slug }}";
	const row = (field) => `={{ $('Rows').item.json.${field} }}`;
	let x = 660;
	const http = (nodeName, method, route, body) => ({
		parameters: {
			method,
			url: `${baseUrl}${route}`,
			sendHeaders: true,
			headerParameters: { parameters: [auth] },
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: { parameters: body.map(([n, value]) => ({ name: n, value })) },
			options,
		},
		id: uuid(),
		name: nodeName,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: httpVersion,
		position: [(x += 220), 0],
	});
	const loginNode = {
		parameters: {
			method: 'POST',
			url: `${baseUrl}/v1/login`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: JSON.stringify({ user: { login: login.email, password: login.password } }),
			options: {},
		},
		id: uuid(),
		name: 'Log in',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: httpVersion,
		position: [220, 0],
	};
	const chain = [
		http('Create candidate', 'POST', '/gin/v1/company/candidate', [
			['email', '={{ $json.email }}'],
			['source', '={{ $json.source }}'],
		]),
		http('Update candidate', 'PUT', '/gin/v1/company/candidate', [
			['user_slug', '={{ $json.data.slug }}'],
			['city', row('city')],
		]),
		http('Add job', 'POST', '/gin/v1/company/candidate/job', [
			['user_slug', slug],
			['company_name', row('company')],
			['start_date', row('startDate')],
		]),
		http('Add IT skill', 'POST', '/gin/v1/company/candidate/it-skill', [
			['user_slug', slug],
			['skill_name', row('skill')],
			['skill_level_id', row('skillLevel')],
		]),
		http('Add additional info', 'POST', '/gin/v1/company/candidate/additional-information', [
			['user_slug', slug],
			['title', row('title')],
		]),
	];
	const connections = { Webhook: main('Log in'), 'Log in': main('Rows'), Rows: main(chain[0].name) };
	for (let i = 0; i + 1 < chain.length; i++) connections[chain[i].name] = main(chain[i + 1].name);
	return { name, nodes: [webhook, loginNode, rows, ...chain], connections, settings: { executionOrder: 'v1' } };
}

// ---- measuring ----------------------------------------------------------------------------

/** CPU ms of every process in n8n's process group: the main process (with reaped children) and the others (task runners). */
function groupCpu(pgid) {
	let mainTicks = 0;
	let otherTicks = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue;
		}
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[2]) !== pgid) continue;
		const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
		if (Number(entry) === pgid) mainTicks += ticks;
		else otherTicks += ticks;
	}
	const ms = (ticks) => (ticks * 1000) / CLK_TCK;
	return { main: ms(mainTicks), others: ms(otherTicks), total: ms(mainTicks + otherTicks) };
}

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The five request kinds of a row, as workload.mjs defines them: "METHOD path". */
const ROW_REQUESTS = ['create', 'update', 'job', 'itSkill', 'additionalInfo'].map((phase) => {
	const r = requestOf(phase, { email: 'x', source: 'x' }, 'x');
	return `${r.method} ${r.path}`;
});

/**
 * n8n's executions of a workflow (newest first). Tried again for up to 2 minutes on a network
 * error (a poll a few seconds apart can meet n8n closing the idle keep-alive connection just
 * then: "fetch failed") and on 503: while a node sends a thousand requests at once, n8n's event
 * loop is so busy that its own database health check times out, and its REST API answers
 * "503 Database is not ready!" until the check passes again. `refused` counts those answers.
 */
async function executionsOf(rest, workflowId, refused = { count: 0 }) {
	const deadline = Date.now() + 120_000;
	for (;;) {
		try {
			const list = await rest.listExecutions({ workflowId, limit: 20 });
			return list.results ?? list;
		} catch (err) {
			if ((err.status !== undefined && err.status !== 503) || Date.now() > deadline) throw err;
			if (err.status === 503) refused.count++;
			await sleep(1000);
		}
	}
}

/**
 * One execution of a workflow with `rows` rows: POSTs the webhook, waits until n8n records the
 * execution as finished, reads the CPU of n8n's processes before and after. While the rows are
 * under way it watches the sandbox (in this process: free for n8n), asking n8n only every 3 s,
 * so that polling n8n's REST API adds almost nothing to the CPU measured.
 */
async function runOnce({ stack, workflow, rows, run, profiler }) {
	const { rest, n8n, sandbox } = stack;
	const known = new Set((await executionsOf(rest, workflow.id)).map((e) => String(e.id)));
	sandbox.clearRequests();
	const writes = () => sandbox.requests.reduce((n, r) => n + (r.method !== 'GET' && r.path !== '/v1/login' ? 1 : 0), 0);
	await sleep(300);
	if (profiler) await profiler.start();
	const load = loadavg();
	const cpu0 = groupCpu(n8n.pid);
	const t0 = Date.now();
	const res = await fetch(`${n8n.url}/webhook/${workflow.webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ run, rows }),
	});
	if (!res.ok) throw new Error(`webhook of ${workflow.name} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
	await res.text();
	let execution;
	const refused = { count: 0 };
	let lastAsked = Date.now();
	const deadline = t0 + 30 * 60_000;
	for (;;) {
		const allSent = writes() >= rows * ROW_REQUESTS.length;
		if (allSent || Date.now() - lastAsked > 3000) {
			lastAsked = Date.now();
			const fresh = (await executionsOf(rest, workflow.id, refused)).filter((e) => !known.has(String(e.id)));
			const done = fresh.find((e) => !['new', 'running', 'waiting'].includes(e.status) && e.stoppedAt);
			if (done) {
				execution = done;
				break;
			}
		}
		if (Date.now() > deadline) throw new Error(`${workflow.name}: no finished execution after 30 minutes`);
		await sleep(allSent ? 100 : 250);
	}
	const cpu1 = groupCpu(n8n.pid);
	const wallMs = Date.now() - t0;
	const profile = profiler ? await profiler.stop() : undefined;
	const durationMs = Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt);
	let full;
	for (let attempt = 1; !full; attempt++) {
		try {
			full = await rest.getExecution(execution.id);
		} catch (err) {
			if ((err.status !== undefined && err.status !== 503) || attempt >= 60) throw err;
			await sleep(1000);
		}
	}
	return {
		executionId: execution.id,
		status: full.status,
		error: full.error?.message,
		lastNode: full.lastNodeExecuted,
		durationMs,
		wallMs,
		cpuMs: { main: cpu1.main - cpu0.main, others: cpu1.others - cpu0.others, total: cpu1.total - cpu0.total },
		refused503: refused.count,
		load,
		requests: [...sandbox.requests],
		profile,
	};
}

/** What must hold after a run; throws with every failed check. */
function checkRun({ sandbox, companyId, run, rows, result, variant }) {
	const problems = [];
	if (result.status !== 'success') problems.push(`execution #${result.executionId} ${result.status} at "${result.lastNode}": ${result.error ?? '?'}`);
	const prefix = `wf.${run}.r`;
	const stored = sandbox.candidates(companyId).filter((c) => typeof c.email === 'string' && c.email.startsWith(prefix));
	const byEmail = new Map(stored.map((c) => [c.email, c]));
	let missing = 0;
	let incomplete = 0;
	const examples = [];
	for (let n = 1; n <= rows; n++) {
		const c = byEmail.get(`${prefix}${n}@bench.test`);
		if (!c) {
			missing++;
			continue;
		}
		const r = c.records ?? {};
		// the values of workload.mjs's bodies, stored as sent
		const ok =
			c.city === 'Berlin' &&
			c.source === 'bench' &&
			r.jobs?.length === 1 &&
			r.jobs[0].company_name === 'Acme' &&
			r.jobs[0].start_date === '15-01-2020' &&
			r.itSkills?.length === 1 &&
			r.itSkills[0].skill_name === 'TypeScript' &&
			Number(r.itSkills[0].skill_level_id) === 3 &&
			r.additionalInfo?.length === 1 &&
			r.additionalInfo[0].title === 'Note';
		if (!ok) {
			incomplete++;
			if (examples.length < 3) examples.push(`${c.email}: city ${c.city}, source ${c.source}, records ${JSON.stringify(r)}`);
		}
	}
	if (stored.length !== rows || missing) problems.push(`${stored.length} candidates stored for ${rows} rows (${missing} missing)`);
	if (incomplete) problems.push(`${incomplete} candidates incomplete, e.g. ${examples.join('; ')}`);
	const byKind = {};
	let failedRequests = 0;
	for (const r of result.requests) {
		const key = `${r.method} ${r.path}`;
		byKind[key] = (byKind[key] ?? 0) + 1;
		if (r.status >= 400) failedRequests++;
	}
	for (const kind of ROW_REQUESTS) if (byKind[kind] !== rows) problems.push(`${byKind[kind] ?? 0} × ${kind} for ${rows} rows`);
	const logins = byKind['POST /v1/login'] ?? 0;
	if (failedRequests) problems.push(`${failedRequests} requests answered ≥ 400`);
	const other = Object.entries(byKind).filter(([k]) => !ROW_REQUESTS.includes(k) && k !== 'POST /v1/login');
	if (other.length) problems.push(`other requests: ${other.map(([k, n]) => `${n} × ${k}`).join(', ')}`);
	if (problems.length) throw new Error(`${variant} (run ${run}) failed its checks:\n  - ${problems.join('\n  - ')}`);
	return { logins, requests: result.requests.length };
}

// ---- the profiler: V8's, attached to n8n's main process through the inspector ----------------

async function attachProfiler(pid, inspectPort) {
	const { WebSocket } = await import('undici');
	process.kill(pid, 'SIGUSR1'); // opens the inspector on --inspect-port (NODE_OPTIONS)
	let target;
	for (let i = 0; i < 50 && !target; i++) {
		await sleep(200);
		try {
			const list = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
			target = list[0]?.webSocketDebuggerUrl;
		} catch {}
	}
	if (!target) throw new Error(`n8n's inspector did not open on port ${inspectPort}`);
	const ws = new WebSocket(target);
	await new Promise((resolve, reject) => {
		ws.addEventListener('open', resolve, { once: true });
		ws.addEventListener('error', () => reject(new Error('could not connect to n8n\'s inspector')), { once: true });
	});
	let nextId = 1;
	const pending = new Map();
	ws.addEventListener('message', (event) => {
		const msg = JSON.parse(String(event.data));
		if (msg.id && pending.has(msg.id)) {
			const { resolve, reject } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) reject(new Error(`${msg.error.message}`));
			else resolve(msg.result);
		}
	});
	const send = (method, params = {}) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			pending.set(id, { resolve, reject });
			ws.send(JSON.stringify({ id, method, params }));
		});
	await send('Profiler.enable');
	await send('Profiler.setSamplingInterval', { interval: 1000 });
	return {
		start: () => send('Profiler.start'),
		stop: async () => (await send('Profiler.stop')).profile,
		close: () => ws.close(),
	};
}

/** Parts of n8n's CPU, first match wins (a function's script URL). */
const N8N_PARTS = [
	// the packed package n8n loads (scripts/n8n/stack.mjs: .cache/package-snapshots/<run>/package/)
	{ part: 'Recruiting node (this package)', test: (url) => /package-snapshots\/[^/]+\/package\//.test(url) },
	{ part: 'n8n-nodes-base (HTTP Request, Code, Webhook nodes)', test: (url) => /node_modules\/n8n-nodes-base\//.test(url) },
	{ part: 'expression engine (n8n-workflow, @n8n/expression-runtime on isolated-vm, @n8n/tournament, luxon)', test: (url) => /node_modules\/(n8n-workflow|@n8n\/tournament|@n8n\/expression-runtime|isolated-vm|luxon|esprima-next|recast|ast-types|jmespath)\//.test(url) },
	{ part: 'n8n-core (engine, request helper)', test: (url) => /node_modules\/n8n-core\//.test(url) },
	{ part: 'HTTP stack (axios, follow-redirects, form-data, Node http/net)', test: (url) => /node_modules\/(axios|follow-redirects|proxy-from-env|form-data)\//.test(url) || url.startsWith('node:') },
	{ part: 'zod', test: (url) => /node_modules\/zod\//.test(url) },
	{ part: 'n8n server, execution saving, database (n8n, @n8n/*, typeorm, sqlite3, flatted)', test: (url) => /node_modules\/(n8n|@n8n\/[^/]+|typeorm|sqlite3|flatted|express|@sentry\/[^/]+)\//.test(url) },
];

/**
 * Where a profile's time goes, per row. The samples' time deltas are wall time (on a busy
 * machine a sample also covers the time the process waited for a core), so with `measuredMsPerRow`
 * (the main process's CPU per row of that execution, from /proc) every figure is scaled to it:
 * the parts' shares of the samples, applied to the CPU measured.
 */
function summariseProfile(file, rows, measuredMsPerRow) {
	const parts = cpuByPart(file, N8N_PARTS);
	const total = Object.values(parts).reduce((a, b) => a + b, 0);
	const scale = measuredMsPerRow ? (measuredMsPerRow * rows) / total : 1;
	const byPart = Object.entries(parts)
		.map(([part, ms]) => ({ part, msPerRow: (ms * scale) / rows, share: ms / total }))
		.sort((a, b) => b.msPerRow - a.msPerRow);
	// top functions by self time
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const self = new Map();
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	profile.samples.forEach((id, i) => {
		const { functionName, url, lineNumber } = byId.get(id).callFrame;
		if (['(idle)', '(program)', '(root)'].includes(functionName)) return;
		const short = url ? url.replace(/^.*node_modules\//, '').replace(/^.*package-snapshots\/[^/]+\/package\//, 'n8n-nodes-recruiting/') : '';
		const key = `${functionName || '(anonymous)'}${short ? ` ${short}:${lineNumber + 1}` : ''}`;
		self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
	});
	const top = [...self.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, 12)
		.map(([fn, ms]) => ({ fn, msPerRow: (ms * scale) / rows, share: ms / total }));
	return { sampledMsPerRow: total / rows, scaled: scale !== 1, totalMsPerRow: (total * scale) / rows, byPart, top };
}

function printProfile(variant, summary) {
	const lpad = (s, n) => String(s).padStart(n);
	for (const p of summary.byPart) log(`  ${lpad(p.msPerRow.toFixed(3), 7)} ms/row ${lpad((p.share * 100).toFixed(0), 3)}%  ${p.part}`);
	log('  top functions (self time, ms/row; a native function under its own name):');
	for (const f of summary.top) log(`  ${lpad(f.msPerRow.toFixed(3), 7)} ms/row ${lpad((f.share * 100).toFixed(0), 3)}%  ${f.fn}`);
}

if (args.summarise) {
	for (const file of fs.readdirSync(args.summarise).filter((f) => f.endsWith('.cpuprofile')).sort()) {
		const summary = summariseProfile(path.join(args.summarise, file), ROWS);
		log(`${file}: sampled ${summary.sampledMsPerRow.toFixed(2)} ms/row (${ROWS} rows; sampled time is wall time while the process ran JavaScript, not CPU time)`);
		printProfile(file, summary);
	}
	process.exit(0);
}

// ---- main ---------------------------------------------------------------------------------

const { startStack } = await import('../n8n/stack.mjs');
const { freePort } = await import('../n8n/server.mjs');
const { SANDBOX_LOGIN } = await import('../n8n/sandbox.mjs');
const { n8nPaths } = await import('../n8n/install.mjs');

/** The HTTP Request node's newest version in the pinned n8n (what a user adding it gets). */
function httpRequestVersion() {
	const file = path.join(n8nPaths().dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	const text = fs.readFileSync(file, 'utf8');
	const match = /defaultVersion:\s*([\d.]+)/.exec(text);
	return match ? Number(match[1]) : 4.2;
}

const n8nEnv = {};
for (const pair of args['n8n-env']) {
	const at = pair.indexOf('=');
	if (at < 1) {
		console.error(`--n8n-env takes KEY=VALUE, not "${pair}"`);
		process.exit(2);
	}
	n8nEnv[pair.slice(0, at)] = pair.slice(at + 1);
}
const inspectPort = await freePort();
const wantProfile = !args['no-profile'];
const started = Date.now();
log(`[workflow] ${ROWS} rows per run, warm-up ${WARMUP}, sandbox latency ${LATENCY} ms; variants ${VARIANTS.join(', ')}; load ${loadavg()}${Object.keys(n8nEnv).length ? `; n8n env ${JSON.stringify(n8nEnv)}` : ''}`);
const stack = await startStack({
	doBuild: !args['no-build'],
	log,
	sandboxOptions: { faults: LATENCY ? { latencyMs: LATENCY } : undefined },
	// the inspector opens only when the profiler is attached (SIGUSR1); until then the port is unused
	n8nOptions: { env: { ...n8nEnv, ...(wantProfile ? { NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectPort}` } : {}) } },
});
let failed = false;
const results = [];
try {
	const { rest, sandbox, n8n } = stack;
	const httpVersion = httpRequestVersion();
	log(`[workflow] n8n ${n8n.version} (pid ${n8n.pid}), HTTP Request node version ${httpVersion}`);
	const workflows = {};
	for (const variant of VARIANTS) {
		const webhookPath = `wf-bench-${variant}-${Date.now().toString(36)}`;
		const definition = variant.startsWith('import-')
			? importWorkflow(`Bench: ${variant}`, webhookPath, variant.startsWith('import-auto') ? variant.slice('import-'.length) : Number(variant.slice('import-c'.length)))
			: chainWorkflow(`Bench: ${variant}`, webhookPath, {
					baseUrl: sandbox.url,
					login: SANDBOX_LOGIN,
					httpVersion,
					batching: variant === 'chain-batched' ? { size: BATCH_SIZE, intervalMs: BATCH_INTERVAL } : undefined,
				});
		const wf = await rest.importWorkflow(definition);
		await rest.activateWorkflow(wf.id);
		workflows[variant] = { ...wf, webhookPath };
	}
	await sleep(1000);
	// idle CPU of n8n (timers, its own housekeeping), for reference
	const idle0 = groupCpu(n8n.pid);
	await sleep(10_000);
	const idleMsPerS = (groupCpu(n8n.pid).total - idle0.total) / 10;
	log(`[workflow] n8n idle: ${idleMsPerS.toFixed(1)} ms CPU per second`);

	let runNo = 0;
	const runId = (label) => `${Date.now().toString(36)}${(runNo++).toString(36)}${label}`;
	const failures = [];
	const runs = [];
	for (let round = 1; round <= Math.max(1, REPEAT); round++) {
		for (const variant of VARIANTS) {
			if (failures.some((f) => f.variant === variant)) continue;
			try {
				await measure(variant, round);
			} catch (err) {
				// one failed variant does not hide the others' figures; the script still fails at the end
				failures.push({ variant, error: err.message });
				log(`[workflow] ${variant}: FAILED: ${err.message}`);
			}
		}
	}
	const median = (values) => {
		const sorted = [...values].sort((a, b) => a - b);
		const mid = Math.floor(sorted.length / 2);
		return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	};
	for (const variant of VARIANTS) {
		const mine = runs.filter((r) => r.variant === variant);
		if (!mine.length || failures.some((f) => f.variant === variant)) continue;
		const pick = (key) => median(mine.map((r) => r[key]));
		const range = (key) => [Math.min(...mine.map((r) => r[key])), Math.max(...mine.map((r) => r[key]))];
		results.push({
			variant,
			rows: ROWS,
			executions: mine.length,
			durationS: pick('durationS'),
			rowsPerMinute: pick('rowsPerMinute'),
			cpuMsPerRow: pick('cpuMsPerRow'),
			cpuMainMsPerRow: pick('cpuMainMsPerRow'),
			cpuRunnersMsPerRow: pick('cpuRunnersMsPerRow'),
			rowsPerMinuteRange: range('rowsPerMinute'),
			cpuMsPerRowRange: range('cpuMsPerRow'),
			logins: mine[0].logins,
			refused503: mine.reduce((n, r) => n + r.refused503, 0),
			load: mine.map((r) => r.load.split(' ')[0]).join(', '),
		});
	}
	async function measure(variant, round) {
		const workflow = workflows[variant];
		if (WARMUP > 0 && round === 1) {
			const run = runId('w');
			const warm = await runOnce({ stack, workflow, rows: WARMUP, run });
			checkRun({ sandbox, companyId: SANDBOX_LOGIN.companyId, run, rows: WARMUP, result: warm, variant: `${variant} warm-up` });
			log(`[workflow] ${variant}: warm-up ${WARMUP} rows in ${(warm.durationMs / 1000).toFixed(1)}s`);
		}
		const run = runId('m');
		const result = await runOnce({ stack, workflow, rows: ROWS, run });
		const checked = checkRun({ sandbox, companyId: SANDBOX_LOGIN.companyId, run, rows: ROWS, result, variant });
		const row = {
			variant,
			rows: ROWS,
			durationS: result.durationMs / 1000,
			rowsPerMinute: ROWS / (result.durationMs / 60_000),
			cpuMsPerRow: result.cpuMs.total / ROWS,
			cpuMainMsPerRow: result.cpuMs.main / ROWS,
			cpuRunnersMsPerRow: result.cpuMs.others / ROWS,
			logins: checked.logins,
			requests: checked.requests,
			refused503: result.refused503,
			load: result.load,
			executionId: result.executionId,
		};
		runs.push(row);
		log(`[workflow] ${variant}${REPEAT > 1 ? ` (${round}/${REPEAT})` : ''}: ${ROWS} rows in ${row.durationS.toFixed(1)}s = ${row.rowsPerMinute.toFixed(0)} rows/min, n8n CPU ${row.cpuMsPerRow.toFixed(2)} ms/row (main ${row.cpuMainMsPerRow.toFixed(2)}, runners ${row.cpuRunnersMsPerRow.toFixed(2)}), ${checked.logins} login(s), load ${row.load}${row.refused503 ? `; n8n's REST API answered "503 Database is not ready" to ${row.refused503} poll(s) meanwhile` : ''}; checks ok`);
	}

	// ---- table and targets
	const pad = (s, n) => String(s).padEnd(n);
	const lpad = (s, n) => String(s).padStart(n);
	log('');
	log(`n8n ${n8n.version}${Object.keys(n8nEnv).length ? ` (${Object.entries(n8nEnv).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''}, sandbox latency ${LATENCY} ms, ${ROWS} rows per execution (5 requests per row), after a warm-up of ${WARMUP} rows`);
	if (REPEAT > 1) log(`median of ${REPEAT} executions per variant (range in brackets); load: the 1-minute load average at the start of each`);
	log(`${pad('variant', 16)}${lpad('time s', 8)}${lpad('rows/min', 10)}${REPEAT > 1 ? pad(' (range)', 14) : ''}${lpad('CPU ms/row', 12)}${REPEAT > 1 ? pad(' (range)', 14) : ''}${lpad('main', 8)}${lpad('runners', 9)}${lpad('logins', 8)}  load`);
	const span = (range, digits) => (REPEAT > 1 ? pad(` (${range.map((v) => v.toFixed(digits)).join('–')})`, 14) : '');
	for (const r of results) {
		log(`${pad(r.variant, 16)}${lpad(r.durationS.toFixed(1), 8)}${lpad(r.rowsPerMinute.toFixed(0), 10)}${span(r.rowsPerMinuteRange, 0)}${lpad(r.cpuMsPerRow.toFixed(2), 12)}${span(r.cpuMsPerRowRange, 1)}${lpad(r.cpuMainMsPerRow.toFixed(2), 8)}${lpad(r.cpuRunnersMsPerRow.toFixed(2), 9)}${lpad(r.logins, 8)}  ${r.load}`);
	}
	for (const f of failures) log(`${pad(f.variant, 16)}FAILED: ${f.error.split('\n').join(' ')}`);
	log(`(n8n idle: ${idleMsPerS.toFixed(1)} ms CPU per second, included above)`);
	if (failures.length) failed = true;
	log('');
	const targets = [];
	for (const a of results.filter((r) => r.variant.startsWith('import-'))) {
		for (const b of results.filter((r) => r.variant.startsWith('chain'))) {
			const speed = a.rowsPerMinute / b.rowsPerMinute;
			const cpu = a.cpuMsPerRow / b.cpuMsPerRow;
			targets.push({ import: a.variant, chain: b.variant, rowsPerMinuteRatio: speed, cpuPerRowRatio: cpu, speedMet: speed >= 2, cpuMet: cpu < 1 });
		}
	}
	// Both at their defaults: a new Recruiting node (version 1.1, Auto) when measured, else version 1's fixed 5.
	const primary = targets.find((t) => t.import === 'import-auto' && t.chain === 'chain') ?? targets.find((t) => t.import === 'import-c5' && t.chain === 'chain');
	for (const t of targets) {
		const mark = t === primary ? '  (the targets: both at their defaults)' : '';
		log(`${t.import} vs ${t.chain}: rows/min ${t.rowsPerMinuteRatio.toFixed(2)}× (target ≥ 2×: ${t.speedMet ? 'MET' : 'MISSED'}); CPU/row ${t.cpuPerRowRatio.toFixed(2)}× (target < 1×: ${t.cpuMet ? 'MET' : 'MISSED'})${mark}`);
	}

	// ---- profiles
	const missed = targets.some((t) => !t.speedMet || !t.cpuMet);
	let profiles;
	if (wantProfile && (args.profile || missed)) {
		const dir = path.resolve(args.profile ?? path.join(repoRoot, '.cache', 'workflow-profiles', new Date().toISOString().replace(/[:.]/g, '-')));
		fs.mkdirSync(dir, { recursive: true });
		log('');
		log(`Profiles (V8 sampling profiler on n8n's main process, one more execution of ${ROWS} rows per variant; the profiler's own cost raises every figure; task runners not profiled): ${path.relative(process.cwd(), dir) || dir}`);
		const profiler = await attachProfiler(n8n.pid, inspectPort);
		profiles = {};
		try {
			for (const variant of results.map((r) => r.variant)) {
				const run = runId('p');
				const result = await runOnce({ stack, workflow: workflows[variant], rows: ROWS, run, profiler });
				checkRun({ sandbox, companyId: SANDBOX_LOGIN.companyId, run, rows: ROWS, result, variant: `${variant} profiled` });
				const file = path.join(dir, `${variant}.cpuprofile`);
				fs.writeFileSync(file, JSON.stringify(result.profile));
				const summary = summariseProfile(file, ROWS, result.cpuMs.main / ROWS);
				profiles[variant] = { ...summary, measuredCpuMsPerRow: result.cpuMs.total / ROWS, measuredMainMsPerRow: result.cpuMs.main / ROWS, durationS: result.durationMs / 1000 };
				log('');
				log(`${variant}: n8n's main process ${(result.cpuMs.main / ROWS).toFixed(2)} ms CPU/row under the profiler (task runners ${(result.cpuMs.others / ROWS).toFixed(2)}), split by the samples' shares (sampled wall time ${summary.sampledMsPerRow.toFixed(2)} ms/row):`);
				printProfile(variant, summary);
			}
		} finally {
			profiler.close();
		}
	}

	const json = {
		n8n: n8n.version,
		n8nEnv: Object.keys(n8nEnv).length ? n8nEnv : undefined,
		rows: ROWS,
		warmupRows: WARMUP,
		repeat: REPEAT,
		latencyMs: LATENCY,
		chainBatch: { itemsPerBatch: BATCH_SIZE, batchIntervalMs: BATCH_INTERVAL },
		cpus: os.cpus().length,
		idleCpuMsPerS: Number(idleMsPerS.toFixed(1)),
		variants: Object.fromEntries(
			results.map((r) => [
				r.variant,
				{
					executions: r.executions,
					rowsPerMinute: Math.round(r.rowsPerMinute),
					rowsPerMinuteRange: r.rowsPerMinuteRange.map(Math.round),
					cpuMsPerRow: Number(r.cpuMsPerRow.toFixed(3)),
					cpuMsPerRowRange: r.cpuMsPerRowRange.map((v) => Number(v.toFixed(3))),
					cpuMainMsPerRow: Number(r.cpuMainMsPerRow.toFixed(3)),
					cpuRunnersMsPerRow: Number(r.cpuRunnersMsPerRow.toFixed(3)),
					durationS: Number(r.durationS.toFixed(2)),
					logins: r.logins,
					refused503: r.refused503,
					load: r.load,
				},
			]),
		),
		targets: targets.map((t) => ({ ...t, rowsPerMinuteRatio: Number(t.rowsPerMinuteRatio.toFixed(3)), cpuPerRowRatio: Number(t.cpuPerRowRatio.toFixed(3)) })),
		primary: primary ? { speed: primary.speedMet ? 'MET' : 'MISSED', cpu: primary.cpuMet ? 'MET' : 'MISSED' } : undefined,
		profiles: profiles
			? Object.fromEntries(Object.entries(profiles).map(([v, p]) => [v, { mainCpuMsPerRow: Number(p.measuredMainMsPerRow.toFixed(3)), byPart: Object.fromEntries(p.byPart.map((x) => [x.part, Number(x.msPerRow.toFixed(3))])) }]))
			: undefined,
		failures: failures.length ? failures : undefined,
		wallS: Math.round((Date.now() - started) / 1000),
	};
	log('');
	log(`WORKFLOW ${JSON.stringify(json)}`);
} catch (err) {
	failed = true;
	console.error(`[workflow] FAILED: ${err.stack ?? err.message}`);
	console.error(`--- tail of the n8n log ---\n${stack.n8n.logTail(40)}`);
} finally {
	await stack.stop();
}
process.exit(failed ? 1 : 0);
