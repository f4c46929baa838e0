// The queue-mode load and its checks: the spreadsheet import workflow (queue-import.json) behind
// a webhook, triggered as N overlapping executions of R rows each; then what must hold, checked
// against the sandbox's stored state and n8n's execution records.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { nodeOutput } from '../n8n/server.mjs';
import { SANDBOX_LOGIN } from '../n8n/sandbox.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WORKFLOW_FILE = path.join(here, 'queue-import.json');
export const WEBHOOK_PATH = 'recruiting-queue-import';
const LAST_NODE = 'Add IT skill';

export function loadWorkflow() {
	return JSON.parse(fs.readFileSync(WORKFLOW_FILE, 'utf8'));
}

/** Imports the workflow and activates it (its production webhook then takes calls). */
export async function installWorkflow(rest) {
	const workflow = await rest.importWorkflow(loadWorkflow());
	await rest.activateWorkflow(workflow.id);
	return workflow;
}

/** Finished executions of a workflow (newest first), as n8n lists them. */
async function executionsOf(rest, workflowId) {
	const list = await rest.listExecutions({ workflowId });
	return list.results ?? list;
}

/**
 * POSTs `executions` webhook calls at once, each asking for `rows` rows, and waits until n8n has
 * recorded that many new finished executions of the workflow.
 * @returns {{ executions: object[], wallMs: number, triggerMs: number }}
 */
export async function runLoad({ n8nUrl, rest, workflowId, executions = 8, rows = 250, run, timeoutMs = 900_000, log = () => {} }) {
	const before = new Set((await executionsOf(rest, workflowId)).map((e) => String(e.id)));
	const t0 = Date.now();
	const answers = await Promise.all(
		Array.from({ length: executions }, (_, batch) =>
			fetch(`${n8nUrl}/webhook/${WEBHOOK_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ run, batch, rows }),
				signal: AbortSignal.timeout(60_000),
			}).then(async (res) => ({ status: res.status, text: await res.text() })),
		),
	);
	const triggerMs = Date.now() - t0;
	const refused = answers.filter((a) => a.status !== 200);
	if (refused.length) throw new Error(`${refused.length} webhook calls were refused: ${refused.map((a) => `${a.status} ${a.text.slice(0, 200)}`).join('; ')}`);

	const deadline = t0 + timeoutMs;
	let lastReport = Date.now();
	for (;;) {
		const fresh = (await executionsOf(rest, workflowId)).filter((e) => !before.has(String(e.id)));
		const finished = fresh.filter((e) => !['new', 'running', 'waiting'].includes(e.status) && e.stoppedAt);
		if (fresh.length >= executions && finished.length === fresh.length) {
			const ends = finished.map((e) => Date.parse(e.stoppedAt));
			const ids = finished.map((e) => String(e.id)).sort((a, b) => Number(a) - Number(b));
			const full = [];
			for (const id of ids) full.push(await rest.getExecution(id));
			return { executions: full, wallMs: Math.max(...ends) - t0, triggerMs, startedAt: t0 };
		}
		if (Date.now() > deadline) throw new Error(`only ${finished.length} of ${executions} executions finished within ${timeoutMs / 1000}s`);
		if (Date.now() - lastReport > 15_000) {
			log(`[queue]   ... ${finished.length}/${executions} executions finished after ${((Date.now() - t0) / 1000).toFixed(0)}s`);
			lastReport = Date.now();
		}
		await sleep(500);
	}
}

/** Which worker ran which execution: n8n's worker logs "Worker started execution <id> (job <n>)". */
export function executionsByWorker(workers) {
	const byWorker = {};
	for (const w of workers) {
		const text = fs.readFileSync(w.logFile, 'utf8');
		byWorker[w.name] = [...text.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
	}
	return byWorker;
}

/**
 * What must hold after a load. Returns a list of { name, ok, detail }.
 * @param {{ sandbox, result, executions: number, rows: number, run: string,
 *           logins: number, loginBound: { max?: number, exact?: number, why: string },
 *           workers?: Record<string, string[]> }} args
 */
export function checkLoad({ sandbox, result, executions, rows, run, logins, loginBound, workers }) {
	const checks = [];
	const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });

	// n8n's execution records
	const execs = result.executions;
	const failed = execs.filter((e) => e.status !== 'success');
	check(
		`${executions} executions recorded, every one succeeded`,
		execs.length === executions && failed.length === 0,
		`${execs.length} recorded; ${failed.length ? failed.map((e) => `#${e.id} ${e.status} at "${e.lastNodeExecuted}": ${e.error?.message ?? '?'}`).join('; ') : 'all success'}`,
	);
	const short = execs.filter((e) => nodeOutput(e, LAST_NODE).length !== rows);
	check(
		`every execution put all ${rows} rows through "${LAST_NODE}"`,
		short.length === 0,
		short.length ? short.map((e) => `#${e.id}: ${nodeOutput(e, LAST_NODE).length}`).join(', ') : `${executions} × ${rows} items`,
	);

	// the sandbox's stored state
	const stored = sandbox.candidates(SANDBOX_LOGIN.companyId);
	const byEmail = new Map();
	for (const c of stored) byEmail.set(c.email, [...(byEmail.get(c.email) ?? []), c]);
	let missing = 0;
	let duplicated = 0;
	let incomplete = 0;
	const examples = [];
	for (let batch = 0; batch < executions; batch++) {
		for (let n = 1; n <= rows; n++) {
			const email = `queue.${run}.b${batch}.r${n}@example.test`;
			const found = byEmail.get(email) ?? [];
			if (found.length === 0) missing++;
			if (found.length > 1) duplicated++;
			const c = found[0];
			if (!c) continue;
			const complete =
				c.first_name && c.last_name && c.birthday && c.records?.languages?.length === 1 && c.records?.itSkills?.length === 1;
			if (!complete) {
				incomplete++;
				if (examples.length < 3) examples.push(`${email}: name ${c.first_name ?? '-'}, languages ${c.records?.languages?.length ?? 0}, IT skills ${c.records?.itSkills?.length ?? 0}`);
			}
		}
	}
	const expected = executions * rows;
	check(
		`every row created exactly once (${expected} candidates), nothing else`,
		missing === 0 && duplicated === 0 && stored.length === expected,
		`${stored.length} stored; missing ${missing}, duplicated ${duplicated}`,
	);
	check(
		'every candidate has its profile (name, birthday), one language and one IT skill',
		incomplete === 0,
		incomplete ? `${incomplete} incomplete, e.g. ${examples.join('; ')}` : `${expected} complete`,
	);

	// logins
	const b = loginBound;
	const ok = b.exact !== undefined ? logins === b.exact : logins <= b.max;
	check(`logins ${b.exact !== undefined ? `= ${b.exact}` : `≤ ${b.max}`} (${b.why})`, ok, `${logins} logins`);

	// both workers ran executions
	if (workers) {
		const ids = new Set(execs.map((e) => String(e.id)));
		const counts = Object.fromEntries(Object.entries(workers).map(([w, list]) => [w, list.filter((id) => ids.has(id)).length]));
		const total = Object.values(counts).reduce((a, b) => a + b, 0);
		check(
			'both workers ran executions (from the workers\' logs), each execution exactly once',
			Object.values(counts).every((n) => n > 0) && total === executions,
			Object.entries(counts).map(([w, n]) => `${w}: ${n}`).join(', '),
		);
	}
	return checks;
}
