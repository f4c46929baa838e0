#!/usr/bin/env node
// npm run demo — the node working inside a real n8n, from a fresh clone:
//   1. builds the package (npm run build),
//   2. starts the recruiting-service sandbox on 127.0.0.1,
//   3. installs (first run only, into .cache/n8n/) and starts a pinned n8n with the package loaded,
//   4. creates the "Recruiting API" credential pointing at the sandbox (e-mail/password),
//   5. imports and executes the example workflows of examples/ (the spreadsheet round trip twice,
//      activated and called by its webhook, as production executions),
//   6. prints what happened (candidates created, records attached, failed rows and why, what the
//      round trip's second run did and sent),
// and stops everything it started.
//
// Options: --line 1|2 (n8n line, default 2 or $N8N_LINE), --no-build, --keep (leave n8n and the
// sandbox running until Ctrl-C, to look at the executions in the editor).

import { CREDENTIAL_NAME, startStack } from './n8n/stack.mjs';
import { DEFAULT_OWNER } from './n8n/server.mjs';
import { EXAMPLES, describe, describeSpreadsheetSync, referenceNames, runExample, runSpreadsheetSync } from './n8n/examples.mjs';
import { SANDBOX_LOGIN } from './n8n/sandbox.mjs';

const args = process.argv.slice(2);
const lineArg = args.includes('--line') ? args[args.indexOf('--line') + 1] : undefined;
const line = lineArg ?? process.env.N8N_LINE ?? '2';
const keep = args.includes('--keep');
const doBuild = !args.includes('--no-build');

const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
const log = (m) => console.log(m);

let stack;
let failed = false;
const onSignal = async () => {
	log('\n[demo] interrupted, stopping...');
	await stack?.stop();
	process.exit(130);
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

try {
	stack = await startStack({ line, doBuild, log });
	const { rest, sandbox, credential, n8n } = stack;
	const test = await rest.testCredential(credential);
	log(`[demo] credential "${CREDENTIAL_NAME}" (e-mail/password, ${SANDBOX_LOGIN.email} at ${sandbox.url}): test ${test.status}${test.status === 'OK' ? '' : ` - ${test.message}`}`);

	const names = await referenceNames(sandbox.url);
	const summary = [];
	for (const [i, example] of EXAMPLES.entries()) {
		log(`[demo] running ${example.file} ...`);
		const candidatesBefore = sandbox.candidates(SANDBOX_LOGIN.companyId);
		let result;
		try {
			result = example.key === 'sync' ? await runSpreadsheetSync(stack) : await runExample(rest, example);
		} catch (err) {
			failed = true;
			summary.push(`${i + 1}) ${example.title} (examples/${example.file}): could not run: ${err.message}`);
			continue;
		}
		if (example.key === 'sync') {
			const { first, second, rows } = result;
			const ok = (run, action) => run.execution.status === 'success' && run.actions.length === rows && run.actions.every((a) => a === action) && run.file?.rows.every((r) => r.action === action);
			if (!ok(first, 'created') || !ok(second, 'unchanged') || second.sent !== 0) failed = true;
			const [first_, ...more] = describeSpreadsheetSync(example, result);
			summary.push(`${i + 1}) ${first_}`, ...more);
			continue;
		}
		const candidatesAfter = sandbox.candidates(SANDBOX_LOGIN.companyId);
		if (result.execution.status !== 'success') failed = true;
		const [first, ...rest_] = describe(example, result, { candidatesBefore, candidatesAfter, names });
		summary.push(`${i + 1}) ${first}`, ...rest_);
	}

	const all = sandbox.candidates(SANDBOX_LOGIN.companyId);
	const recordCount = all.reduce((n, c) => n + Object.values(c.records ?? {}).reduce((m, list) => m + (list?.length ?? 0), 0), 0);
	const bar = '='.repeat(78);
	log(`\n${bar}\nRecruiting node demo: n8n ${n8n.version} (real, ${n8n.url}), sandbox ${sandbox.url}\n${bar}`);
	for (const l of summary) log(l);
	log(`\nThe sandbox now stores ${all.length} candidates for company ${SANDBOX_LOGIN.companyId} with ${recordCount} records ` +
		`(${sandbox.counts.logins} logins, ${sandbox.requests.length} requests served).`);
	log(`Demo ${failed ? 'FINISHED WITH PROBLEMS' : 'finished'} in ${secs()}s.`);

	if (keep) {
		log(`\n[demo] --keep: n8n editor at ${n8n.url}  (login ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}); Ctrl-C to stop.`);
		await new Promise(() => {});
	}
} catch (err) {
	failed = true;
	console.error(`[demo] failed after ${secs()}s: ${err.stack ?? err.message}`);
	if (stack?.n8n) console.error(`--- tail of the n8n log (${stack.n8n.logFile}) ---\n${stack.n8n.logTail(40)}`);
} finally {
	if (!keep || failed) await stack?.stop();
}
process.exitCode = failed ? 1 : 0;
