#!/usr/bin/env node
// When the service answered 429: one client of the benchmark against one service profile, then the
// sandbox's request log per step (requests, 429s, when the first came) and the 429s by 250 ms.
//   node scripts/bench/timeline.mjs [--profile rate-limited] [--concurrency auto|N] [--rows 1000] [--kind node|nodeImport]
// The figures behind docs/concurrency.md's account of the 429s on rate-limited.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
	options: {
		profile: { type: 'string', default: 'rate-limited' },
		concurrency: { type: 'string', default: 'auto' },
		rows: { type: 'string', default: '1000' },
		kind: { type: 'string', default: 'node' },
	},
});

const sandbox = spawn(process.execPath, ['test/sandbox/cli.mjs', '--port', '0', '--profile', args.profile, '--admin'], {
	cwd: repoRoot,
	stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
	let out = '';
	sandbox.once('exit', (code) => reject(new Error(`the sandbox ended (${code})`)));
	sandbox.stdout.on('data', (chunk) => {
		out += chunk;
		const match = /Sandbox listening at (\S+)/.exec(out);
		if (match) resolve(match[1]);
	});
});
try {
	const concurrency = args.concurrency === 'auto' ? 'auto' : Number(args.concurrency);
	const plan = JSON.stringify([{ name: 'timeline', url, rows: Number(args.rows), concurrency, warmup: 0, latencyMs: 50 }]);
	console.log(execFileSync(process.execPath, ['scripts/bench/client.mjs', '--kind', args.kind, '--plan', plan], { cwd: repoRoot }).toString().trim());
	const { requests } = await (await fetch(`${url}/__sandbox/requests`)).json();
	const start = requests[0].at;
	const steps = {};
	const bins = {};
	for (const request of requests) {
		const step = (steps[`${request.method} ${request.path}`] ??= { requests: 0, answered429: 0, firstMs: request.at - start, first429Ms: null });
		step.requests += 1;
		if (request.status !== 429) continue;
		step.answered429 += 1;
		step.first429Ms ??= request.at - start;
		const bin = Math.floor((request.at - start) / 250) * 250;
		bins[bin] = (bins[bin] ?? 0) + 1;
	}
	console.table(steps);
	const answered429 = requests.filter((request) => request.status === 429).length;
	console.log(`requests ${requests.length}, answered 429: ${answered429} (${((100 * answered429) / requests.length).toFixed(2)} %), over ${requests.at(-1).at - start} ms`);
	console.log(`429s by 250 ms since the first request: ${JSON.stringify(bins)}`);
} finally {
	sandbox.kill();
}
