#!/usr/bin/env node
// One benchmark client in its own process (so that its CPU time and peak RSS are its own):
//   node scripts/bench/client.mjs --kind node|undici|httpNode --url URL --rows N --concurrency C [--warmup N]
// Runs a warm-up (not measured), then the workload, and prints one JSON line with the result.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { PHASES, nodeParametersOf, requestOf, rowOf } from './workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const require = createRequire(path.join(repoRoot, 'package.json'));

const { values: args } = parseArgs({
	options: {
		kind: { type: 'string' },
		url: { type: 'string' },
		rows: { type: 'string', default: '1000' },
		concurrency: { type: 'string', default: '20' },
		warmup: { type: 'string', default: '100' },
		email: { type: 'string', default: 'alice@acme.test' },
	},
});
const rows = Number(args.rows);
const concurrency = Number(args.concurrency);
const warmupRows = Number(args.warmup);
// The sandbox's seeded demo login (documented in test/sandbox/README.md).
const login = { email: args.email, password: ['alice', 'password', '1'].join('-') };

function registerTs() {
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

// ---- (b) raw undici: the same requests, the same concurrency, nothing else ------------------
async function undiciClient() {
	const { Pool } = require('undici');
	const client = new Pool(args.url, { connections: concurrency, pipelining: 1 });
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
	const loginBody = await send({ method: 'POST', path: '/v1/login', body: { user: { login: login.email, password: login.password } } });
	token = loginBody.data.token;
	const runRows = async (first, count) => {
		const slugs = new Array(count);
		for (const phase of PHASES) {
			await pool(count, concurrency, async (i) => {
				const body = await send(requestOf(phase, rowOf(first + i), slugs[i]));
				if (phase === 'create') slugs[i] = body?.data?.slug;
			});
		}
		return PHASES.length * count;
	};
	return { warmup: () => runRows(0, warmupRows), measured: () => runRows(warmupRows, rows), failed: () => failed, close: () => client.close() };
}

// ---- (a) the node through n8n-core's engine (the test harness) ------------------------------
async function nodeClient() {
	registerTs();
	const { Harness, stopEngineTimers } = require(path.join(repoRoot, 'test', 'helpers', 'harness.ts'));
	const harness = new Harness({ baseUrl: args.url, authentication: 'emailPassword', email: login.email, password: login.password });
	let failed = 0;
	const runRows = async (first, count) => {
		let items = Array.from({ length: count }, (_, i) => rowOf(first + i));
		let requests = 0;
		for (const phase of PHASES) {
			const result = await harness.run({ parameters: nodeParametersOf(phase, concurrency), items, onError: 'continueRegularOutput' });
			if (result.error) throw new Error(`${phase}: ${result.error.message}`);
			failed += result.items.filter((item) => item.json.error !== undefined).length;
			if (phase === 'create') items = result.items.map((item) => ({ slug: item.json.slug }));
			requests += count;
		}
		return requests;
	};
	return { warmup: () => runRows(0, warmupRows), measured: () => runRows(warmupRows, rows), failed: () => failed, close: () => stopEngineTimers() };
}

// ---- (c) n8n's HTTP Request node (from the real n8n install) doing the candidate creation ----
async function httpNodeClient() {
	const { runHttpRequestNode } = await import('./httpNode.mjs');
	registerTs();
	const { Pool } = require('undici');
	const client = new Pool(args.url);
	const response = await client.request({
		method: 'POST',
		path: '/v1/login',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ user: { login: login.email, password: login.password } }),
	});
	const token = (await response.body.json()).data.token;
	await client.close();
	let failed = 0;
	const runner = await runHttpRequestNode({ url: args.url, token, concurrency });
	const runRows = async (first, count) => {
		const items = Array.from({ length: count }, (_, i) => rowOf(first + i));
		const result = await runner.run(items);
		failed += result.failed;
		return count;
	};
	return { warmup: () => runRows(0, warmupRows), measured: () => runRows(warmupRows, rows), failed: () => failed, close: () => runner.close() };
}

// ---- (d) n8n-core's httpRequest helper alone: what every n8n node's request costs ----------
async function n8nHelperClient() {
	const { httpRequest } = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js');
	let token = '';
	let failed = 0;
	const send = async (request) => {
		const response = await httpRequest({
			method: request.method,
			url: `${args.url}${request.path}`,
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
	const runRows = async (first, count) => {
		const slugs = new Array(count);
		for (const phase of PHASES) {
			await pool(count, concurrency, async (i) => {
				const body = await send(requestOf(phase, rowOf(first + i), slugs[i]));
				if (phase === 'create') slugs[i] = body?.data?.slug;
			});
		}
		return PHASES.length * count;
	};
	return { warmup: () => runRows(0, warmupRows), measured: () => runRows(warmupRows, rows), failed: () => failed, close: () => undefined };
}

const clients = { undici: undiciClient, n8nHelper: n8nHelperClient, node: nodeClient, httpNode: httpNodeClient };
const make = clients[args.kind];
if (!make) {
	console.error(`unknown --kind ${args.kind}`);
	process.exit(2);
}

try {
	const client = await make();
	if (warmupRows > 0) await client.warmup();
	const failedBefore = client.failed();
	globalThis.gc?.();
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const requests = await client.measured();
	const wallMs = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	await client.close();
	console.log(
		JSON.stringify({
			kind: args.kind,
			requests,
			failed: client.failed() - failedBefore,
			wallMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			peakRssMB: process.resourceUsage().maxRSS / 1024,
		}),
	);
	process.exit(0);
} catch (error) {
	console.log(JSON.stringify({ kind: args.kind, error: String(error?.stack ?? error) }));
	process.exit(1);
}
