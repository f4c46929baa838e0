#!/usr/bin/env node
// npm run queue — the node in n8n's queue mode, under overlapping load, from a fresh clone:
//   1. installs Debian's postgresql and redis-server when missing (apt-get), builds the package,
//      installs the pinned n8n (first run only, cached like the demo's);
//   2. for comparison, one regular n8n (SQLite) runs the load once;
//   3. starts PostgreSQL and Redis on 127.0.0.1 in temporary directories, n8n main with
//      EXECUTIONS_MODE=queue and two `n8n worker` processes sharing the encryption key, the
//      package loaded in all three, the sandbox as the service;
//   4. the load: the spreadsheet import workflow (scripts/queue/queue-import.json) behind a
//      webhook, called 8 times at once with 250 rows each (2,000 candidates, each created, its
//      profile updated, a language and an IT skill added), in several service and credential
//      situations (a valid stored session, none, sessions that expire, and a service that keeps
//      one session per user with a short session lifetime);
//   5. checks what must hold against the sandbox's state and n8n's execution records, prints a
//      table, and stops everything it started (also on Ctrl-C and on failure).
//
// Options: --executions N (8), --rows N (250 per execution), --workers N (2), --concurrency N
// (executions per worker, 4), --latency MS (sandbox latency per request, default 20),
// --lifetime S (session lifetime in the single-session runs, default 15), --only a,b (scenario
// keys, see SCENARIOS; `regular-single` runs only when named), --repeat N (each selected scenario N
// times on the same stack, a Create or Update scenario with rows of its own each time: ranges of
// figures over runs without restarting the stack), --no-build.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { build, packPackage } from './stack.mjs';
import { ensureN8n, logDir, repoRoot } from './install.mjs';
import { SANDBOX_LOGIN, startSandbox } from './sandbox.mjs';
import { checkLoad, executionsByWorker, runLoad } from '../queue/load.mjs';
import { findModuleState } from '../queue/module-state.mjs';
import { ensureSystemPackages } from '../queue/services.mjs';
import { setCredential, startQueueStack, startRegularStack } from '../queue/stacks.mjs';
import { installSyncWorkflow, runSyncScenario } from '../queue/sync.mjs';

const { values: opts } = parseArgs({
	options: {
		executions: { type: 'string', default: '8' },
		rows: { type: 'string', default: '250' },
		workers: { type: 'string', default: '2' },
		concurrency: { type: 'string', default: '4' },
		latency: { type: 'string', default: '20' },
		lifetime: { type: 'string', default: '15' },
		only: { type: 'string' },
		repeat: { type: 'string', default: '1' },
		'no-build': { type: 'boolean', default: false },
	},
});
const EXECUTIONS = Number(opts.executions);
const ROWS = Number(opts.rows);
const WORKERS = Number(opts.workers);
const CONCURRENCY = Number(opts.concurrency);
const LATENCY_MS = Number(opts.latency);
const LIFETIME_S = Number(opts.lifetime);
const REPEAT = Math.max(1, Number(opts.repeat) || 1);

/**
 * The runs. `service`: 'normal' (sessions live until logout), 'expiring' (sessions expire after
 * --lifetime seconds) or 'single' (a new login also ends the user's earlier sessions; sessions
 * expire after --lifetime seconds). `start`: the credential's stored session token when the
 * load starts: 'valid' (a live session) or 'empty'.
 */
const SCENARIOS = [
	{ key: 'regular', stack: 'regular', service: 'normal', start: 'empty' },
	{ key: 'regular-single', stack: 'regular', service: 'single', start: 'empty', optional: true },
	{ key: 'queue-valid', stack: 'queue', service: 'normal', start: 'valid' },
	{ key: 'queue-empty', stack: 'queue', service: 'normal', start: 'empty' },
	{ key: 'queue-expiry', stack: 'queue', service: 'expiring', start: 'valid' },
	{ key: 'queue-single', stack: 'queue', service: 'single', start: 'empty' },
	// Create or Update (scripts/queue/sync.mjs); sync-kill last: it kills a worker of the stack.
	{ key: 'sync-rerun', stack: 'queue', service: 'normal', start: 'empty', sync: true },
	{ key: 'sync-overlap', stack: 'queue', service: 'normal', start: 'empty', sync: true },
	{ key: 'sync-state', stack: 'queue', service: 'normal', start: 'empty', sync: true },
	{ key: 'sync-keeper', stack: 'queue', service: 'normal', start: 'empty', sync: true },
	{ key: 'sync-kill', stack: 'queue', service: 'normal', start: 'empty', sync: true },
];
const selected = opts.only ? SCENARIOS.filter((s) => opts.only.split(',').includes(s.key)) : SCENARIOS.filter((s) => !s.optional);
if (!selected.length) throw new Error(`--only: none of ${SCENARIOS.map((s) => s.key).join(', ')}`);

const t0 = Date.now();
const log = (m) => console.log(m);
const secs = (ms) => (ms / 1000).toFixed(1);

// Everything started is stopped in reverse order: at the end, on failure and on Ctrl-C.
const running = [];
const untrack = (fn) => {
	const i = running.indexOf(fn);
	if (i >= 0) running.splice(i, 1);
};
async function stopAll() {
	while (running.length) {
		const fn = running.pop();
		try {
			await fn();
		} catch (err) {
			log(`[queue] stop: ${err.message}`);
		}
	}
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.once(signal, async () => {
		interrupted = true;
		log(`\n[queue] ${signal}: stopping everything ...`);
		await stopAll();
		process.exit(130);
	});
}

/** A session token sealed the way the node stores it (via the built package), for the 'valid' start. */
function sealedToken(credentialData, token) {
	const require = createRequire(path.join(repoRoot, 'package.json'));
	const dir = path.join(repoRoot, 'dist', 'nodes', 'Recruiting', 'transport');
	for (const file of ['token.js', 'login.js']) {
		if (!fs.existsSync(path.join(dir, file))) continue;
		const mod = require(path.join(dir, file));
		if (typeof mod.sealSessionToken === 'function') return mod.sealSessionToken(credentialData, token);
	}
	return token; // a bare token is what an older node stored
}

/** Sandbox options of a service mode. */
function sandboxOptions(service) {
	const base = { faults: LATENCY_MS > 0 ? { latencyMs: LATENCY_MS } : undefined };
	if (service === 'single') return { ...base, singleSessionPerUser: true, tokenLifetimeMs: LIFETIME_S * 1000 };
	if (service === 'expiring') return { ...base, tokenLifetimeMs: LIFETIME_S * 1000 };
	return base;
}

/** How many logins a run may need, and why. */
function loginBound(scenario, wallMs) {
	if (scenario.start === 'valid' && scenario.service === 'normal') {
		return { exact: 0, why: 'the credential starts with a valid stored session' };
	}
	if (scenario.service === 'normal') {
		return { max: EXECUTIONS, why: `empty credential: at most one per overlapping execution (${EXECUTIONS})` };
	}
	// Sessions expire: every expiry can make each running execution log in once. A run of W seconds
	// sees at most 1 + ⌊W / lifetime⌋ session lifetimes (the first one starts with the run: an empty
	// credential or the valid session).
	const waves = 1 + Math.floor(wallMs / (LIFETIME_S * 1000));
	if (scenario.service !== 'single') {
		return {
			max: EXECUTIONS * waves,
			why: `sessions, ${LIFETIME_S}s lifetime: ≤ one per execution per session lifetime (${EXECUTIONS} × ${waves})`,
		};
	}
	// One session per user: a login ends every other execution's session. Those executions read the
	// credential again (a few times, a short random wait apart, when their session ended before it
	// served anything) and take up the newest stored session instead of logging in. n8n stores the
	// logins of overlapping executions in whatever order they finish, so an execution can still read
	// a session that has just been ended and log in once more: at most twice per execution per lifetime.
	return {
		max: 2 * EXECUTIONS * waves,
		why: `single session, ${LIFETIME_S}s lifetime: ≤ two per execution per session lifetime (2 × ${EXECUTIONS} × ${waves})`,
	};
}

/** A Create or Update scenario (scripts/queue/sync.mjs) on the queue stack. */
async function runSync(scenario, stack, repetition = 0) {
	const sandbox = await startSandbox(sandboxOptions(scenario.service));
	const closeSandbox = () => sandbox.close();
	running.push(closeSandbox);
	await setCredential(stack, sandbox.url, '');
	stack.syncWorkflow ??= await installSyncWorkflow(stack.rest);
	log(`[queue] ${scenario.key}${repetition ? ` (repetition ${repetition + 1})` : ''}: Create or Update, ${EXECUTIONS} × ${ROWS} rows on main + ${stack.workers.length} workers ...`);
	const loginsBefore = sandbox.counts.logins;
	const result = await runSyncScenario(scenario.key, { stack, sandbox, workflowId: stack.syncWorkflow.id, executions: EXECUTIONS, rows: ROWS, log, repetition });
	for (const c of result.checks) log(`   ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
	log(`   ${result.note}`);
	untrack(closeSandbox);
	await sandbox.close();
	return {
		scenario,
		setup: `main + ${stack.workers.length} workers`,
		wallMs: result.wallMs,
		rowsPerMin: result.rows / (result.wallMs / 60_000),
		logins: sandbox.counts.logins - loginsBefore,
		perWorker: '-',
		checks: result.checks,
		note: result.note,
		duplicates: result.duplicates,
	};
}

async function runScenario(scenario, stack, repetition) {
	if (scenario.sync) return await runSync(scenario, stack, repetition);
	const sandbox = await startSandbox(sandboxOptions(scenario.service));
	const closeSandbox = () => sandbox.close();
	running.push(closeSandbox);
	let token = '';
	if (scenario.start === 'valid') {
		const data = { baseUrl: sandbox.url, email: SANDBOX_LOGIN.email, password: SANDBOX_LOGIN.password, tokenPath: '' };
		token = sealedToken(data, sandbox.issueToken(SANDBOX_LOGIN.email));
	}
	await setCredential(stack, sandbox.url, token);
	const loginsBefore = sandbox.counts.logins;
	const loginAttemptsBefore = sandbox.counts.loginAttempts ?? 0;
	log(`[queue] ${scenario.key}: ${EXECUTIONS} × ${ROWS} rows on ${stack.kind === 'queue' ? `main + ${stack.workers.length} workers` : 'one regular instance'} (service: ${scenario.service}, credential: ${scenario.start}) ...`);
	const result = await runLoad({ n8nUrl: stack.main.url, rest: stack.rest, workflowId: stack.workflow.id, executions: EXECUTIONS, rows: ROWS, run: scenario.key, log });
	if (interrupted) throw new Error('interrupted'); // the executions ended because everything is stopping
	const workers = stack.kind === 'queue' ? executionsByWorker(stack.workers) : null;
	const logins = sandbox.counts.logins - loginsBefore;
	const checks = checkLoad({ sandbox, result, executions: EXECUTIONS, rows: ROWS, run: scenario.key, logins, loginBound: loginBound(scenario, result.wallMs), workers });
	const ids = new Set(result.executions.map((e) => String(e.id)));
	const perWorker = workers ? Object.values(workers).map((list) => list.filter((id) => ids.has(id)).length).join(' + ') : '-';
	const row = {
		scenario,
		setup: stack.kind === 'queue' ? `main + ${stack.workers.length} workers` : 'regular',
		wallMs: result.wallMs,
		rowsPerMin: (EXECUTIONS * ROWS) / (result.wallMs / 60_000),
		logins,
		loginAttempts: (sandbox.counts.loginAttempts ?? logins) - loginAttemptsBefore,
		requests: sandbox.requests.length,
		perWorker,
		checks,
	};
	for (const c of checks) log(`   ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
	// The session story of the run (logins, and requests answered 401), for a look when a check fails.
	const authFile = path.join(logDir, `queue-${scenario.key}-sessions.json`);
	const authEvents = sandbox.requests
		.filter((r) => r.path.endsWith('/login') || r.status === 401)
		.map((r) => ({ ms: r.at - result.startedAt, method: r.method, path: r.path, status: r.status, session: r.session, newSession: r.newSession }));
	fs.writeFileSync(authFile, JSON.stringify(authEvents, null, 1));
	if (!checks.every((c) => c.ok)) log(`   logins and 401s of this run: ${path.relative(process.cwd(), authFile)}`);
	log(`   wall ${secs(row.wallMs)}s, ${Math.round(row.rowsPerMin)} rows/min, ${row.logins} logins (${row.loginAttempts} attempts), ${row.requests} requests`);
	untrack(closeSandbox);
	await sandbox.close();
	return row;
}

function table(rows) {
	const head = ['scenario', 'n8n', 'service', 'credential at start', 'wall time', 'rows/min', 'logins', 'executions per worker', 'checks'];
	const body = rows.map((r) => [
		r.scenario.key,
		r.setup,
		r.scenario.sync ? 'normal (Create or Update)' : { single: `single session, ${LIFETIME_S}s lifetime`, expiring: `${LIFETIME_S}s session lifetime`, normal: 'normal' }[r.scenario.service],
		r.scenario.start === 'valid' ? 'valid session' : 'empty',
		`${secs(r.wallMs)} s`,
		String(Math.round(r.rowsPerMin)),
		String(r.logins),
		r.perWorker,
		r.checks.every((c) => c.ok) ? 'all pass' : `${r.checks.filter((c) => !c.ok).length} FAIL`,
	]);
	const lines = [head, head.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`);
	return lines.join('\n');
}

let failed = false;
const rows = [];
try {
	await ensureSystemPackages({ log });
	await ensureN8n({ line: '2', log });
	if (!opts['no-build']) await build({ log });
	const pkg = packPackage(); // what users install: the npm pack tarball, unpacked
	running.push(pkg.remove);

	const moduleState = findModuleState();
	const stateCheck = {
		name: `no module-level state in the node or the credential (${moduleState.files} files)`,
		ok: moduleState.findings.length === 0,
		detail: moduleState.findings.length ? moduleState.findings.map((f) => `${f.file}:${f.line} ${f.why}: ${f.text}`).join('; ') : 'none found',
	};
	log(`[queue] ${stateCheck.ok ? 'ok  ' : 'FAIL'} ${stateCheck.name}: ${stateCheck.detail}`);
	for (const a of moduleState.allowed) log(`[queue]      allowed: ${a.file}:${a.line} ${a.why}`);
	if (!stateCheck.ok) failed = true;

	for (const kind of ['regular', 'queue']) {
		const scenarios = selected.filter((s) => s.stack === kind);
		if (!scenarios.length) continue;
		// the credential's Base URL is set per scenario, when its sandbox runs
		const common = { packageDir: pkg.dir, sandboxUrl: 'http://127.0.0.1:9', log, registry: running };
		const stack = kind === 'queue'
			? await startQueueStack({ ...common, workers: WORKERS, concurrency: CONCURRENCY })
			: await startRegularStack(common);
		for (const scenario of scenarios) {
			for (let repetition = 0; repetition < REPEAT; repetition++) {
				const row = await runScenario(scenario, stack, repetition);
				rows.push(row);
				if (!row.checks.every((c) => c.ok)) failed = true;
			}
		}
		await stack.stop();
	}

	log(`\nQueue-mode load: ${EXECUTIONS} overlapping executions × ${ROWS} rows = ${EXECUTIONS * ROWS} candidates per run, ` +
		`sandbox latency ${LATENCY_MS} ms per request, node defaults (5 concurrent requests per node)\n`);
	log(table(rows));
	for (const r of rows.filter((row) => row.note)) log(`- ${r.scenario.key}: ${r.note}`);
	log(`\nModule-level state: ${stateCheck.ok ? 'none' : stateCheck.detail}` +
		(moduleState.allowed.length ? ` (weak caches tied to one node run or a load-time constant: ${moduleState.allowed.map((a) => `${a.file}:${a.line}`).join(', ')})` : ''));
	log(`npm run queue ${failed ? 'FAILED' : 'passed'} in ${secs(Date.now() - t0)}s.`);
} catch (err) {
	failed = true;
	if (!interrupted) console.error(`[queue] failed after ${secs(Date.now() - t0)}s: ${err.stack ?? err.message}`);
	if (rows.length) log(`\n${table(rows)}`);
} finally {
	await stopAll();
}
process.exitCode = failed ? 1 : 0;
