#!/usr/bin/env node
// Benchmark of bulk runs (`npm run bench`, `npm run bench -- --quick`): against the sandbox in
// its own process, N rows × (create + update + 3 sub-records) at simulated latency 0 ms and
// 50 ms, with the same concurrency for
//   node       the Recruiting node through n8n-core's engine (the test harness)
//   undici     a raw undici Pool sending the same requests (the floor for client overhead)
//   n8nHelper  n8n-core's httpRequest helper alone, the same requests (what any n8n node pays per request)
//   httpNode   n8n's HTTP Request node (from .cache/n8n) doing only the candidate creation
// Every client runs in its own process against a fresh sandbox, after a short warm-up that is
// not measured. Printed per client: requests/s, CPU ms per request (process.cpuUsage of the
// client), peak RSS of the client, and the ratios to the raw client; then the targets.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { findHttpRequestNode } from './bench/httpNode.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
	options: {
		quick: { type: 'boolean', default: false },
		rows: { type: 'string' },
		concurrency: { type: 'string', default: '20' },
		latencies: { type: 'string', default: '0,50' },
		clients: { type: 'string', default: 'undici,n8nHelper,node,httpNode' },
		help: { type: 'boolean', short: 'h', default: false },
	},
});
if (args.help) {
	console.log(`Usage: node scripts/bench.mjs [--quick] [--rows N] [--concurrency C] [--latencies 0,50] [--clients undici,n8nHelper,node,httpNode]
  --quick        500 rows instead of 10,000
  --rows N       rows (each: create + update + 3 sub-records = 5 requests)
  --concurrency  requests in flight, for every client (default 20)`);
	process.exit(0);
}
const rows = Number(args.rows ?? (args.quick ? 500 : 10_000));
const concurrency = Number(args.concurrency);
const latencies = args.latencies.split(',').map(Number);
const kinds = args.clients.split(',');
const warmup = Math.min(200, Math.max(20, Math.round(rows / 20)));

const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-bench-'));
const childEnv = { ...process.env, N8N_USER_FOLDER: userFolder, N8N_DIAGNOSTICS_ENABLED: 'false' };

/** Starts the sandbox CLI in its own process; resolves with its URL and a stop function. */
function startSandbox(latencyMs) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['test/sandbox/cli.mjs', '--port', '0', '--latency', String(latencyMs)], {
			cwd: repoRoot,
			env: childEnv,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			const match = /Sandbox listening at (\S+)/.exec(out);
			if (match) {
				child.stdout.removeAllListeners('data');
				child.stdout.resume();
				resolve({
					url: match[1],
					stop: () =>
						new Promise((done) => {
							child.once('exit', done);
							child.kill('SIGTERM');
						}),
				});
			}
		});
		child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening: ${out}`)));
	});
}

function runClient(kind, url) {
	const clientRows = kind === 'httpNode' ? rows * 5 : rows; // creations only: as many requests as the others send
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			['scripts/bench/client.mjs', '--kind', kind, '--url', url, '--rows', String(clientRows), '--concurrency', String(concurrency), '--warmup', String(warmup)],
			{ cwd: repoRoot, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let out = '';
		let err = '';
		child.stdout.on('data', (chunk) => (out += chunk));
		child.stderr.on('data', (chunk) => (err += chunk));
		child.once('exit', () => {
			const line = out.trim().split('\n').filter((entry) => entry.startsWith('{')).pop();
			try {
				resolve(JSON.parse(line));
			} catch {
				resolve({ kind, error: `no result: ${(err || out).trim().slice(-500)}` });
			}
		});
	});
}

const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const results = [];
const httpNodeAvailable = findHttpRequestNode();

console.log(
	`Benchmark: ${rows} rows × 5 requests (create, update, job, IT skill, additional info), concurrency ${concurrency}, ` +
		`latency ${latencies.join(' and ')} ms; ${os.cpus().length} cores (nproc), Node ${process.version}, ${os.cpus()[0]?.model ?? ''}`,
);
for (const latency of latencies) {
	for (const kind of kinds) {
		if (kind === 'httpNode' && !httpNodeAvailable.file) {
			results.push({ latency, kind, error: `n/a: ${httpNodeAvailable.reason}` });
			continue;
		}
		const sandbox = await startSandbox(latency);
		process.stderr.write(`  latency ${latency} ms: ${kind} … `);
		const result = await runClient(kind, sandbox.url);
		await sandbox.stop();
		process.stderr.write(result.error ? `failed\n` : `${fmt(result.wallMs / 1000, 1)} s\n`);
		results.push({ latency, ...result });
	}
}
fs.rmSync(userFolder, { recursive: true, force: true });

const label = {
	undici: 'raw undici client',
	n8nHelper: "n8n-core httpRequest helper",
	node: 'Recruiting node (engine)',
	httpNode: `n8n HTTP Request node${httpNodeAvailable.version ? ` ${httpNodeAvailable.version}` : ''} (creates, unbounded)`,
};
const header = ['latency', 'client', 'requests', 'failed', 'req/s', 'CPU ms/req', 'peak RSS MB', 'req/s ÷ raw', 'CPU/req ÷ raw'];
const table = [header];
for (const result of results) {
	const raw = results.find((entry) => entry.latency === result.latency && entry.kind === 'undici' && !entry.error);
	if (result.error) {
		table.push([`${result.latency} ms`, label[result.kind] ?? result.kind, result.error.split('\n')[0].slice(0, 120), '', '', '', '', '', '']);
		continue;
	}
	const rate = result.requests / (result.wallMs / 1000);
	const cpu = result.cpuMs / result.requests;
	result.rate = rate;
	result.cpu = cpu;
	table.push([
		`${result.latency} ms`,
		label[result.kind] ?? result.kind,
		String(result.requests),
		String(result.failed),
		fmt(rate),
		fmt(cpu, 3),
		fmt(result.peakRssMB),
		raw ? fmt(rate / (raw.requests / (raw.wallMs / 1000)), 2) : 'n/a',
		raw ? fmt(cpu / (raw.cpuMs / raw.requests), 2) : 'n/a',
	]);
}
const widths = header.map((_, column) => Math.max(...table.map((row) => String(row[column]).length)));
const line = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const row of table.slice(1)) console.log(line(row));

const find = (latency, kind) => results.find((entry) => entry.latency === latency && entry.kind === kind && !entry.error);
console.log('');
for (const latency of latencies.filter((value) => value > 0)) {
	const node = find(latency, 'node');
	if (!node) continue;
	const ceiling = concurrency / (latency / 1000);
	const ok = node.rate >= 0.9 * ceiling;
	console.log(
		`Target at ${latency} ms: node ≥ 90% of concurrency ÷ latency = ${fmt(0.9 * ceiling)} req/s → ${fmt(node.rate)} req/s (${fmt((100 * node.rate) / ceiling)}%) ${ok ? 'MET' : 'MISSED'}`,
	);
}
if (latencies.includes(0)) {
	const node = find(0, 'node');
	const raw = find(0, 'undici');
	const helper = find(0, 'n8nHelper');
	if (node && raw) {
		const ratio = node.cpu / raw.cpu;
		console.log(
			`Target at 0 ms: node CPU/request ≤ 2× raw client's = ${fmt(2 * raw.cpu, 3)} ms → ${fmt(node.cpu, 3)} ms (${fmt(ratio, 2)}×) ${ratio <= 2 ? 'MET' : 'MISSED'}`,
		);
	}
	if (node && helper) {
		console.log(
			`  of which n8n-core's request helper alone costs ${fmt(helper.cpu, 3)} ms/request (${fmt(helper.cpu / (raw?.cpu ?? NaN), 2)}× raw); ` +
				`the node adds ${fmt(node.cpu - helper.cpu, 3)} ms/request on top (engine, expressions, validation, transport): ${fmt(node.cpu / helper.cpu, 2)}× the helper`,
		);
	}
}
if (results.some((entry) => entry.kind === 'httpNode' && !entry.error)) {
	console.log(
		"HTTP Request node: its Batching option only spaces the starts of batches (Batch Interval > 0) and never waits for answers, " +
			`so with interval 0 all items are in flight at once: its req/s is not bounded by concurrency ${concurrency}.`,
	);
}
const failures = results.filter((entry) => entry.error && !entry.error.startsWith('n/a'));
process.exit(failures.length > 0 ? 1 : 0);
