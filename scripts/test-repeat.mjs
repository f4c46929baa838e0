#!/usr/bin/env node
// Runs the test suite again and again, with a CPU-bound job beside it, and stops at the first
// failure (issue 38: a test that fails one run in fifteen is measuring the machine, or has found
// a bug). Prints one line per run and the failing run's jest output.
//
//   npm run test:repeat -- [--times 20] [--no-burn] [-- <jest arguments, e.g. test/unit test/service/dryRun.test.ts>]
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { times: { type: 'string', default: '20' }, 'no-burn': { type: 'boolean', default: false } }, allowPositionals: true });
const times = Number(values.times);

// The second CPU-bound job: a worker thread that spins until the runs end.
const burner = values['no-burn'] ? undefined : new Worker('let x = 0; for (;;) { x = (x * 31 + 7) % 1000003; }', { eval: true });

const run = () =>
	new Promise((resolve) => {
		const started = Date.now();
		let output = '';
		const child = spawn('npx', ['jest', ...positionals], { stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('exit', (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
	});

let passed = 0;
for (let index = 1; index <= times; index++) {
	const { code, output, seconds } = await run();
	const summary = output.match(/Tests:.*$/m)?.[0] ?? '(no summary)';
	console.log(`run ${index}/${times}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s: ${summary}`);
	if (code !== 0) {
		console.log(output);
		break;
	}
	passed += 1;
}
await burner?.terminate();
console.log(`${passed} of ${times} runs passed in a row${burner ? ' beside a CPU-bound job' : ''} (jest ${positionals.join(' ') || 'the whole suite'})`);
process.exit(passed === times ? 0 : 1);
