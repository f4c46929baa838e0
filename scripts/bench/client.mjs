#!/usr/bin/env node
// One benchmark client in its own process (so that its CPU time and peak RSS are its own):
//   node scripts/bench/client.mjs --kind KIND --plan JSON [--profile DIR]
// KIND: undici | n8nHelper | node | nodeImport | httpNode | httpNodeBatched. The plan is a list of scenarios
// { name, url, rows, concurrency, warmup, warmupPhases?, phases?, countsUrl?, latencyMs }, run one
// after the other in this process; each gets its own warm-up (not measured: JIT, login, open
// connections; only the phases in warmupPhases if given), then its measured run (only `phases`
// if given). With `countsUrl` (a sandbox with --admin) it also prints the sandbox's requests and
// 429s of the measured run.
// Prints one JSON line per scenario: requests, failed, wallMs, cpuMs (process.cpuUsage over the
// measured run), peakRssMB (the process's maximum so far). With --profile, writes a V8 CPU
// profile of each measured run (not of the start-up or warm-up) to DIR/<kind>-<name>.cpuprofile.
// Remote (HTTPS) scenarios need the test authority in NODE_EXTRA_CA_CERTS (set by index.mjs).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { SEEDED_LOGIN } from '../../test/sandbox/index.mjs';
import { PHASES, importParametersOf, nodeParametersOf, requestOf, rowOf } from './workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const require = createRequire(path.join(repoRoot, 'package.json'));

const { values: args } = parseArgs({
	options: {
		kind: { type: 'string' },
		plan: { type: 'string' },
		profile: { type: 'string' },
	},
});
const plan = JSON.parse(args.plan ?? '[]');
// The sandbox's seeded demo login (test/sandbox/seed.json).
const login = SEEDED_LOGIN;

let tsRegistered = false;
function registerTs() {
	if (tsRegistered) return;
	tsRegistered = true;
	require('ts-node').register({
		transpileOnly: true,
		project: path.join(repoRoot, 'tsconfig.test.json'),
		compilerOptions: { module: 'commonjs' },
		// `../nodes/Recruiting/Recruiting.node` must load the .ts, not Recruiting.node.json beside it.
		preferTsExts: true,
	});
}

/** Runs `task(i)` for i in [0, count) with at most `limit` at once. */
async function pool(count, limit, task) {
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** The phases of a workload for a client that sends single requests (`send` returns the body). */
function phasesOver(send, concurrency) {
	return async (first, count, phases = PHASES) => {
		const slugs = new Array(count);
		for (const phase of phases) {
			await pool(count, concurrency, async (i) => {
				const body = await send(requestOf(phase, rowOf(first + i), slugs[i]));
				if (phase === 'create') slugs[i] = body?.data?.slug;
			});
		}
		return phases.length * count;
	};
}

// ---- raw undici: the same requests, the same concurrency, keep-alive connections, nothing else
async function undiciClient({ url, concurrency }) {
	const { Pool } = require('undici');
	const client = new Pool(url, { connections: concurrency, pipelining: 1 });
	let token = '';
	let failed = 0;
	const send = async (request) => {
		const response = await client.request({
			method: request.method,
			path: request.path,
			headers: {
				accept: 'application/json',
				'content-type': 'application/json',
				...(token ? { authorization: `Bearer ${token}` } : {}),
			},
			body: JSON.stringify(request.body),
		});
		const body = await response.body.json();
		if (response.statusCode >= 300) failed++;
		return body;
	};
	token = (await send({ method: 'POST', path: '/v1/login', body: { user: { login: login.email, password: login.password } } })).data.token;
	return { runRows: phasesOver(send, concurrency), failed: () => failed, close: () => client.close() };
}

// ---- n8n-core's httpRequest helper alone: what every n8n node's request costs ---------------
async function n8nHelperClient({ url, concurrency }) {
	const { httpRequest } = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js');
	let token = '';
	let failed = 0;
	const send = async (request) => {
		const response = await httpRequest({
			method: request.method,
			url: `${url}${request.path}`,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
		if (response.statusCode >= 300) failed++;
		return response.body;
	};
	token = (await send({ method: 'POST', path: '/v1/login', body: { user: { login: login.email, password: login.password } } })).data.token;
	return { runRows: phasesOver(send, concurrency), failed: () => failed, close: () => undefined };
}

// ---- the Recruiting node through n8n-core's engine (the test harness) -----------------------
let harnessModule;
async function nodeClient({ url, concurrency }) {
	registerTs();
	harnessModule ??= require(path.join(repoRoot, 'test', 'helpers', 'harness.ts'));
	const harness = new harnessModule.Harness({ baseUrl: url, authentication: 'emailPassword', email: login.email, password: login.password });
	let failed = 0;
	const runRows = async (first, count, phases = PHASES) => {
		let items = Array.from({ length: count }, (_, i) => rowOf(first + i));
		let requests = 0;
		for (const phase of phases) {
			const result = await harness.run({ parameters: nodeParametersOf(phase, concurrency), items, onError: 'continueRegularOutput' });
			if (result.error) throw new Error(`${phase}: ${result.error.message}`);
			failed += result.items.filter((item) => Boolean(item.json.error)).length;
			if (phase === 'create') items = result.items.map((item) => ({ slug: item.json.slug }));
			requests += count;
		}
		return requests;
	};
	return { runRows, failed: () => failed, close: () => undefined };
}

// ---- the Recruiting node's Candidate → Import: a row's five requests in one node run ----------
async function nodeImportClient({ url, concurrency }) {
	registerTs();
	harnessModule ??= require(path.join(repoRoot, 'test', 'helpers', 'harness.ts'));
	const harness = new harnessModule.Harness({ baseUrl: url, authentication: 'emailPassword', email: login.email, password: login.password });
	let failed = 0;
	const runRows = async (first, count) => {
		const items = Array.from({ length: count }, (_, i) => rowOf(first + i));
		const result = await harness.run({ parameters: importParametersOf(concurrency), items, onError: 'continueRegularOutput' });
		if (result.error) throw new Error(`import: ${result.error.message}`);
		failed += result.items.filter((item) => Boolean(item.json.error) || (item.json.summary && item.json.summary.failed > 0) || item.json.profileError).length;
		return count * PHASES.length;
	};
	return { runRows, failed: () => failed, close: () => undefined };
}

// ---- n8n's HTTP Request node (from the real n8n install) doing the candidate creations -----
// `batched`: its Batching option set to match the others' concurrency (see httpNode.mjs).
async function httpNodeClient({ url, concurrency, latencyMs }, batched) {
	const { runHttpRequestNode } = await import('./httpNode.mjs');
	registerTs();
	const { Pool } = require('undici');
	const client = new Pool(url);
	const response = await client.request({
		method: 'POST',
		path: '/v1/login',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ user: { login: login.email, password: login.password } }),
	});
	const token = (await response.body.json()).data.token;
	await client.close();
	let failed = 0;
	const runner = await runHttpRequestNode({ url, token, concurrency, batchIntervalMs: batched ? Math.max(1, latencyMs ?? 0) : 0 });
	// Creations only, as many requests as the others send for the same rows.
	const runRows = async (first, count) => {
		const items = Array.from({ length: count * PHASES.length }, (_, i) => rowOf(first * PHASES.length + i));
		const result = await runner.run(items);
		failed += result.failed;
		return items.length;
	};
	return { runRows, failed: () => failed, close: () => undefined };
}

const clients = {
	undici: undiciClient,
	n8nHelper: n8nHelperClient,
	node: nodeClient,
	nodeImport: nodeImportClient,
	httpNode: (scenario) => httpNodeClient(scenario, false),
	httpNodeBatched: (scenario) => httpNodeClient(scenario, true),
};
const make = clients[args.kind];
if (!make) {
	console.error(`unknown --kind ${args.kind}`);
	process.exit(2);
}

let profiler;
if (args.profile) {
	fs.mkdirSync(args.profile, { recursive: true });
	profiler = new Session();
	profiler.connect();
	await profiler.post('Profiler.enable');
	await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
}

/** What the sandbox answered so far (its admin counts): requests, and those answered 429 (a scenario's `countsUrl`). */
async function sandboxCounts(url) {
	const response = await fetch(`${url}/__sandbox/requests`);
	const { requests, counts } = await response.json();
	return { requests: requests.length, answered429: counts.faults.rateLimitPerSecond + counts.faults.rateLimit };
}

let offset = 0;
let exitCode = 0;
for (const scenario of plan) {
	try {
		const client = await make(scenario);
		if (scenario.warmup > 0) {
			await client.runRows(offset, scenario.warmup, scenario.warmupPhases);
			offset += scenario.warmup;
		}
		const failedBefore = client.failed();
		const countsBefore = scenario.countsUrl ? await sandboxCounts(scenario.countsUrl) : undefined;
		globalThis.gc?.();
		if (profiler) await profiler.post('Profiler.start');
		const cpu0 = process.cpuUsage();
		const t0 = performance.now();
		const requests = await client.runRows(offset, scenario.rows, scenario.phases);
		const wallMs = performance.now() - t0;
		const cpu = process.cpuUsage(cpu0);
		const countsAfter = countsBefore ? await sandboxCounts(scenario.countsUrl) : undefined;
		if (profiler) {
			const { profile } = await profiler.post('Profiler.stop');
			fs.writeFileSync(path.join(args.profile, `${args.kind}-${scenario.name}.cpuprofile`), JSON.stringify(profile));
		}
		offset += scenario.rows;
		await client.close();
		console.log(
			JSON.stringify({
				kind: args.kind,
				name: scenario.name,
				requests,
				failed: client.failed() - failedBefore,
				wallMs,
				cpuMs: (cpu.user + cpu.system) / 1000,
				peakRssMB: process.resourceUsage().maxRSS / 1024,
				...(countsAfter
					? { sandboxRequests: countsAfter.requests - countsBefore.requests, answered429: countsAfter.answered429 - countsBefore.answered429 }
					: {}),
			}),
		);
	} catch (error) {
		console.log(JSON.stringify({ kind: args.kind, name: scenario.name, error: String(error?.stack ?? error) }));
		exitCode = 1;
	}
}
if (harnessModule) harnessModule.stopEngineTimers();
process.exit(exitCode);
