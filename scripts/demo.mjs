#!/usr/bin/env node
// npm run demo — the node working inside a real n8n, from a fresh clone:
//   1. builds the package (npm run build),
//   2. starts the recruiting-service sandbox on 127.0.0.1,
//   3. installs (first run only, into .cache/n8n/) and starts a pinned n8n with the package loaded,
//   4. creates the "Recruiting account" credential pointing at the sandbox (e-mail/password),
//   5. imports and executes the example workflows of examples/ (the spreadsheet round trip twice,
//      activated and called by its webhook, as production executions; then 3 rows of the sheet
//      changed, previewed from its "Preview the sync" trigger with Dry Run, and applied),
//   6. prints what happened (candidates created, records attached, failed rows and why, what the
//      round trip's second run did and sent),
//   7. activates the tools workflow (examples/agent-tools.json: the MCP Server Trigger with
//      Recruiting tools), connects the official MCP client to it and prints what an agent sees:
//      the tool list and one call of Create or Update, made twice (created, then unchanged),
// and stops everything it started.
//
// Options: --line 1|2 (n8n line, default 2 or $N8N_LINE), --no-build, --keep (leave n8n and the
// sandbox running until Ctrl-C, to look at the executions in the editor).

import { CREDENTIAL_NAME, startStack } from './n8n/stack.mjs';
import { DEFAULT_OWNER } from './n8n/server.mjs';
import {
	EXAMPLES,
	describe,
	describePreview,
	describeSpreadsheetSync,
	previewThenApply,
	referenceNames,
	runExample,
	runSpreadsheetSync,
	sameAsPlanned,
} from './n8n/examples.mjs';
import { AGENT_TOOLS, callToolSettled, connectMcp, describeTools, resultText, setUpAgentTools } from './n8n/mcp.mjs';
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

/**
 * The tools workflow as an agent sees it: the MCP client lists the tools and calls Create or
 * Update twice with the same arguments, as a model writes them.
 */
async function agentView(stack_) {
	const setup = await setUpAgentTools(stack_);
	const client = await connectMcp(setup, { name: 'recruiting-demo' });
	try {
		const { tools } = await client.listTools();
		const args = {
			email: 'grace.hopper@example.test',
			first_name: 'Grace',
			last_name: 'Hopper',
			city: 'New York',
			birthday: '09.12.1996',
			it_skills: 'TypeScript: 3, SQL: 2',
			languages: 'English: 5; Deutsch: 2',
		};
		const lines = [`The agent's view (examples/${AGENT_TOOLS.file}): an MCP client at ${setup.url} (streamable HTTP, Bearer token) lists ${tools.length} tools:`];
		lines.push(...describeTools(tools).map((l) => `   ${l}`));
		// The preview tool first (Dry Run): what the call would do, nothing written.
		{
			const before = stack_.sandbox.requests.length;
			const { result } = await callToolSettled(stack_, setup, client, AGENT_TOOLS.tools.preview, args);
			const writes = stack_.sandbox.requests.slice(before).filter((r) => r.method !== 'GET' && r.path !== '/v1/login').length;
			let shown = resultText(result);
			try {
				const [item] = JSON.parse(shown);
				shown = `dryRun ${item.dryRun}, action ${item.action}, slug ${item.slug}, ${item.requests.length} planned writes (${item.requests.map((r) => `${r.method} ${r.path}`).join(', ')})`;
				if (item.dryRun !== true || item.action !== 'created' || writes !== 0) failed = true;
			} catch {
				failed = true;
			}
			lines.push(`   ${AGENT_TOOLS.tools.preview}(same arguments): ${result.isError ? 'ERROR ' : ''}${shown}; ${writes} writes sent to the service`);
		}
		for (const attempt of ['first call', 'same call again']) {
			const before = stack_.sandbox.requests.length;
			// as an agent's next turn: after n8n ended (and saved) the first call's execution
			const { result } = await callToolSettled(stack_, setup, client, AGENT_TOOLS.tools.upsert, args);
			const requests = stack_.sandbox.requests.slice(before);
			// what the service received besides reading a reference list (the languages' names are resolved in each execution)
			const sent = requests.filter((r) => r.method !== 'GET').length;
			const reads = requests.length - sent;
			const text = resultText(result);
			let shown = text;
			try {
				const [item] = JSON.parse(text);
				shown = `action ${item.action}, slug ${item.slug}: ${item.message}`;
				if (attempt === 'first call' && item.action !== 'created') failed = true;
				if (attempt !== 'first call' && (item.action !== 'unchanged' || sent !== 0)) failed = true;
			} catch {
				failed = true;
			}
			lines.push(`   ${AGENT_TOOLS.tools.upsert}(${JSON.stringify(args)}), ${attempt}: ${result.isError ? 'ERROR ' : ''}${shown} (${sent} requests sent to the service${reads > 0 ? `, ${reads} reference-list read${reads > 1 ? 's' : ''}` : ''})`);
		}
		const bad = await client.callTool({ name: AGENT_TOOLS.tools.upsert, arguments: { email: 'ada@example.test', birthday: '31.02.2024' } });
		if (bad.isError !== true) failed = true;
		lines.push(`   with birthday "31.02.2024" the agent reads: ${resultText(bad).split('\n')[0]}`);
		return lines;
	} finally {
		await client.close().catch(() => {});
	}
}

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
			// Plan before apply: three rows changed, previewed with Dry Run (nothing written), then applied.
			try {
				const previewed = await previewThenApply(stack, result.sync);
				const { preview, applied } = previewed;
				const planned = preview.plan.map((json) => json.action ?? 'failed');
				if (preview.writes.length > 0 || preview.written || !preview.plan.every((json) => json.dryRun === true)) failed = true;
				if (planned.filter((action) => action === 'updated').length !== 3 || JSON.stringify(applied.actions) !== JSON.stringify(planned)) failed = true;
				if (!sameAsPlanned(preview.plan, applied.writes)) failed = true;
				summary.push(...describePreview(previewed));
			} catch (err) {
				failed = true;
				summary.push(`   preview of 3 changed rows: could not run: ${err.message}`);
			}
			continue;
		}
		const candidatesAfter = sandbox.candidates(SANDBOX_LOGIN.companyId);
		if (result.execution.status !== 'success') failed = true;
		const [first, ...rest_] = describe(example, result, { candidatesBefore, candidatesAfter, names });
		summary.push(`${i + 1}) ${first}`, ...rest_);
	}

	const agent = await agentView(stack).catch((err) => {
		failed = true;
		return [`The agent's view (examples/${AGENT_TOOLS.file}): could not run: ${err.message}`];
	});
	summary.push(`${EXAMPLES.length + 1}) ${agent[0]}`, ...agent.slice(1));

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
