// Runs the example workflows of examples/ in a started stack and describes what they did.
// Shared by the demo (scripts/demo.mjs) and the end-to-end test.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { examplesDir, loadExample } from './stack.mjs';
import { nodeError, nodeOutput } from './server.mjs';

export const EXAMPLES = [
	{ key: 'form', file: 'form-candidates.json', title: 'Form rows → candidates with profile, job, IT skills and languages' },
	{ key: 'import', file: 'form-import.json', title: 'Form submission → one Candidate Import (profile and all records in one node)' },
	{ key: 'batch', file: 'spreadsheet-batch.json', title: 'Spreadsheet batch of 200 rows, failures on the error output' },
	{ key: 'lists', file: 'reference-lists.json', title: 'Export of the four reference lists' },
	{
		key: 'sync',
		file: 'spreadsheet-sync.json',
		title: 'Spreadsheet round trip: the sheet → Create or Update → the same sheet with slug, sync state and action, run twice (production executions)',
	},
	{
		key: 'datatable',
		file: 'datatable-sync.json',
		title: 'Webhook rows → Data table (sync state by key) → Create or Update → Data table upsert',
	},
];

/**
 * The spreadsheet round trip (examples/spreadsheet-sync.json): its sample sheet, the node names it
 * is read by, the file its "File paths" node names (read, then written back: the sheet keeps each
 * row's slug and sync state), its webhook, and the columns it adds.
 */
export const SYNC = Object.freeze({
	sampleCsv: 'candidates.csv',
	inputFile: 'candidates.csv',
	outputFile: 'candidates.csv',
	pathsNode: 'File paths',
	rowsNode: 'Rows from the CSV',
	upsertNode: 'Create or Update candidate',
	webhookPath: 'recruiting-spreadsheet-sync',
	addedColumns: ['slug', 'syncState', 'action', 'error'],
	/** The preview path: its manual trigger and the Create or Update node with Dry Run on. */
	previewTrigger: 'Preview the sync',
	planNode: 'Plan the sync (Dry Run)',
});

/**
 * The Data table example (examples/datatable-sync.json): the table it keeps each row's state in
 * (created by createDataTable), its nodes, its webhook.
 */
export const DATATABLE = Object.freeze({
	table: 'candidate_sync_state',
	columns: ['candidateKey', 'candidateSlug', 'syncState'],
	tableNodes: ['Get sync state', 'Save sync state'],
	upsertNode: 'Create or Update candidate',
	webhookPath: 'recruiting-datatable-sync',
	/** The rows the demo sends (twice: created, then unchanged). */
	sampleRows: [
		{ email: 'mara.klein@example.test', first_name: 'Mara', last_name: 'Klein', city: 'Leipzig' },
		{ email: 'Tim.Berger@example.test', first_name: 'Tim', last_name: 'Berger', city: 'Bremen' },
		{ email: 'ines.roth@example.test', first_name: 'Ines', last_name: 'Roth', city: 'Mainz' },
	],
});

/**
 * The schedule and webhook triggers ship disabled beside the examples' Manual Trigger (a test run
 * starts there); enabled here as the checklist tells a user to before activating.
 */
export function enableTriggers(json) {
	for (const node of json.nodes) if (/scheduleTrigger$|\.webhook$/.test(node.type)) delete node.disabled;
	return json;
}

/** Parses CSV text (RFC 4180: quoted fields, "" inside quotes, CRLF or LF, a UTF-8 BOM) into objects by the header row. */
export function parseCsv(text) {
	const rows = [];
	let row = [];
	let field = '';
	let quoted = false;
	const src = String(text).replace(/^\uFEFF/, '');
	for (let i = 0; i < src.length; i++) {
		const ch = src[i];
		if (quoted) {
			if (ch === '"' && src[i + 1] === '"') {
				field += '"';
				i++;
			} else if (ch === '"') quoted = false;
			else field += ch;
		} else if (ch === '"') quoted = true;
		else if (ch === ',') {
			row.push(field);
			field = '';
		} else if (ch === '\n' || ch === '\r') {
			if (ch === '\r' && src[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += ch;
	}
	if (field !== '' || row.length > 0) {
		row.push(field);
		rows.push(row);
	}
	const [header = [], ...body] = rows.filter((r) => r.length > 1 || r[0] !== '');
	return { columns: header, rows: body.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? '']))) };
}

/**
 * Sets up the spreadsheet round trip in a started stack (startStack): copies the sample sheet
 * into the stack's files folder (the folder n8n may read and write), imports the example with
 * its "File paths" pointing there, as a user sets them, and activates it (`activate: false`:
 * imported only), so that its runs are production executions.
 * `file`: another sheet in the files folder (default: a fresh copy of the sample).
 * @returns {Promise<{ workflow, input: string, output: string, path: string }>}
 */
export async function setUpSpreadsheetSync(stack, { file, activate = true, webhookPath = SYNC.webhookPath, name } = {}) {
	const input = file ?? path.join(stack.filesDir, SYNC.inputFile);
	if (!file) fs.copyFileSync(path.join(examplesDir, SYNC.sampleCsv), input);
	const json = enableTriggers(loadExample('spreadsheet-sync.json'));
	if (name) json.name = name;
	const paths = json.nodes.find((node) => node.name === SYNC.pathsNode);
	for (const assignment of paths.parameters.assignments.assignments) if (assignment.name === 'sheetFile') assignment.value = input;
	const webhook = json.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	webhook.parameters.path = webhookPath;
	if (webhookPath !== SYNC.webhookPath) webhook.webhookId = randomUUID();
	const workflow = await stack.rest.importWorkflow(json);
	if (activate) await stack.rest.activateWorkflow(workflow.id);
	return { workflow, input, output: input, path: webhookPath };
}

/**
 * Creates a Data table in the owner's personal project through n8n's REST API (as the editor
 * does: POST /rest/projects/:projectId/data-tables; n8n 1.123 and 2.41). Returns its id.
 */
export async function createDataTable(rest, name = DATATABLE.table, columns = DATATABLE.columns) {
	const project = await rest.get('/projects/personal');
	const table = await rest.post(`/projects/${project.id}/data-tables`, { name, columns: columns.map((column) => ({ name: column, type: 'string' })) });
	return { id: table.id, projectId: project.id };
}

/** Rows of a Data table (GET /rest/projects/:projectId/data-tables/:id/rows). */
export async function dataTableRows(rest, { id, projectId }) {
	const answer = await rest.get(`/projects/${projectId}/data-tables/${id}/rows`, { take: 1000 });
	return answer.data ?? answer;
}

/**
 * Sets up the Data table example in a started stack: creates its table (a fresh one per call,
 * named `<table>_<n>` after the first; `table`: use that one instead), points both Data table
 * nodes at it, imports and activates it.
 * @returns {Promise<{ workflow, table: { id, projectId, name }, path: string }>}
 */
let tables = 0;
export async function setUpDataTableSync(stack, { webhookPath = DATATABLE.webhookPath, name, table: existing } = {}) {
	let table = existing;
	if (!table) {
		const tableName = tables++ === 0 ? DATATABLE.table : `${DATATABLE.table}_${tables}`;
		table = { ...(await createDataTable(stack.rest, tableName)), name: tableName };
	}
	const json = enableTriggers(loadExample('datatable-sync.json'));
	if (name) json.name = name;
	for (const node of json.nodes.filter((n) => DATATABLE.tableNodes.includes(n.name))) {
		node.parameters.dataTableId = { __rl: true, mode: 'id', value: table.id };
	}
	const webhook = json.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	webhook.parameters.path = webhookPath;
	if (webhookPath !== DATATABLE.webhookPath) webhook.webhookId = randomUUID();
	const workflow = await stack.rest.importWorkflow(json);
	await stack.rest.activateWorkflow(workflow.id);
	return { workflow, table, path: webhookPath };
}

/**
 * POSTs to an active workflow's production webhook and waits for the execution it started
 * (a production execution, mode `webhook`). Returns that execution.
 */
export async function runWebhook(stack, { workflow, path: webhookPath }, body = {}) {
	const { rest, n8n } = stack;
	const known = async () => ((await rest.listExecutions({ workflowId: workflow.id })).results ?? []).map((e) => String(e.id));
	const seen = new Set(await known());
	let res;
	// a webhook is registered shortly after the activation returns
	for (let tries = 0; tries < 40; tries++) {
		res = await fetch(`${n8n.url}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		if (res.status !== 404) break;
		await sleep(250);
	}
	if (res.status !== 200) throw new Error(`the webhook /webhook/${webhookPath} answered ${res.status}: ${await res.text()}`);
	for (let tries = 0; tries < 480; tries++) {
		const fresh = ((await rest.listExecutions({ workflowId: workflow.id })).results ?? []).filter((e) => !seen.has(String(e.id)));
		if (fresh.length > 0) return await rest.waitForExecution(fresh[0].id);
		await sleep(250);
	}
	throw new Error(`the webhook /webhook/${webhookPath} started no execution`);
}

/**
 * One production run of the round trip (`manual: true`: a manual run, as *Execute workflow* in the
 * editor): `file` is the sheet as this run wrote it back (null when the run did not write it). Returns { execution, seconds, sent (requests the sandbox
 * received during the run, reference-list reads apart), reads (those reads), file ({ columns, rows } of the written sheet, or null), actions
 * (the Create or Update node's `action` per row) }.
 */
export async function runSpreadsheetSyncOnce(stack, sync, { manual = false } = {}) {
	const writtenBefore = fs.existsSync(sync.output) ? fs.statSync(sync.output).mtimeMs : undefined;
	const before = stack.sandbox.requests.length;
	const t0 = Date.now();
	const execution = manual ? await runManually(stack.rest, sync.workflow.id, 'Every morning') : await runWebhook(stack, sync);
	const seconds = (Date.now() - t0) / 1000;
	// reads of a reference list (languages resolve to IDs before a row is compared) are counted apart
	const requests = stack.sandbox.requests.slice(before);
	const reads = requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/general/')).length;
	const sent = requests.length - reads;
	const written = fs.existsSync(sync.output) && fs.statSync(sync.output).mtimeMs !== writtenBefore;
	const file = written ? parseCsv(fs.readFileSync(sync.output, 'utf8')) : null;
	const actions = out(execution, SYNC.upsertNode).map((json) => json.action ?? (json.error ? 'failed' : undefined));
	return { execution, seconds, sent, reads, file, actions };
}

/** The round trip as the demo shows it: set up, then two production runs over the same sheet. */
export async function runSpreadsheetSync(stack) {
	const sync = await setUpSpreadsheetSync(stack);
	const rows = parseCsv(fs.readFileSync(sync.input, 'utf8')).rows.length;
	const first = await runSpreadsheetSyncOnce(stack, sync);
	const second = await runSpreadsheetSyncOnce(stack, sync);
	return { sync, rows, first, second };
}

/** CSV text (RFC 4180, as parseCsv reads it) of `rows` under `columns`. */
export function toCsv(columns, rows) {
	const field = (value) => {
		const text = String(value ?? '');
		return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
	};
	return [columns, ...rows.map((row) => columns.map((column) => row[column]))].map((line) => line.map(field).join(',')).join('\n') + '\n';
}

/**
 * Three changes to the sheet as a user makes them between two runs: a city, one more IT skill,
 * one more language (by name). Returns the emails of the changed rows.
 */
export function changeThreeRows(file) {
	const { columns, rows } = parseCsv(fs.readFileSync(file, 'utf8'));
	rows[0].city = 'Potsdam';
	rows[1].it_skills = `${rows[1].it_skills}; Go: 2`;
	rows[2].languages = `${rows[2].languages}; Spanish: 1`;
	fs.writeFileSync(file, toCsv(columns, rows));
	return rows.slice(0, 3).map((row) => row.email);
}

/**
 * The round trip's preview path, as *Execute workflow* from "Preview the sync" in the editor (a
 * manual execution): the sheet's rows through the Create or Update node with Dry Run on. Returns
 * { execution, plan (that node's output items, by row), writes (requests the sandbox received that
 * are not reads or the login), reads, written (whether the sheet file changed) }.
 */
export async function previewSpreadsheetSync(stack, sync) {
	const before = stack.sandbox.requests.length;
	const writtenBefore = fs.statSync(sync.output).mtimeMs;
	const execution = await runManually(stack.rest, sync.workflow.id, SYNC.previewTrigger);
	const requests = stack.sandbox.requests.slice(before).filter((r) => r.path !== '/v1/login');
	return {
		execution,
		plan: out(execution, SYNC.planNode),
		writes: requests.filter((r) => r.method !== 'GET'),
		reads: requests.filter((r) => r.method === 'GET').length,
		written: fs.statSync(sync.output).mtimeMs !== writtenBefore,
	};
}

/** A planned request as one short line: `PUT /gin/v1/company/candidate {"city":"Potsdam",...}` (the slug left out). */
export function plannedLine({ method, path: requestPath, body }) {
	const { user_slug: _slug, ...fields } = body ?? {};
	return `${method} ${requestPath} ${JSON.stringify(fields)}`;
}

/**
 * The demo's preview then apply: three rows of the synced sheet changed, the preview path run by
 * hand (Dry Run: nothing written), then a production run that applies them. Returns { changed
 * (emails), preview (previewSpreadsheetSync), applied (runSpreadsheetSyncOnce, with `writes`:
 * what the sandbox received besides reads and the login) }.
 */
export async function previewThenApply(stack, sync) {
	const changed = changeThreeRows(sync.input);
	const preview = await previewSpreadsheetSync(stack, sync);
	const before = stack.sandbox.requests.length;
	const applied = await runSpreadsheetSyncOnce(stack, sync);
	applied.writes = stack.sandbox.requests.slice(before).filter((r) => r.method !== 'GET' && r.path !== '/v1/login');
	return { changed, preview, applied };
}

/** Whether the writes a production run sent are the ones the preview planned (slugs as the plan gives them). */
export function sameAsPlanned(plan, writes) {
	const line = (r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? {})}`;
	const planned = plan.flatMap((json) => json.requests ?? []).map(line).sort();
	return JSON.stringify(planned) === JSON.stringify(writes.map(line).sort());
}

/** Lines about the preview and the run that applied it. */
export function describePreview({ changed, preview, applied }) {
	const lines = [`   then 3 rows of the sheet changed (${changed.join(', ')}); *Execute workflow* from "${SYNC.previewTrigger}" (${preview.execution.mode} execution ${preview.execution.id}, Dry Run):`];
	for (const json of preview.plan.filter((item) => item.action !== 'unchanged')) {
		lines.push(`     ${json.action} ${json.slug}: ${(json.requests ?? []).map(plannedLine).join('; ') || json.error || 'nothing to send'}`);
	}
	lines.push(`     ${tally(preview.plan.map((json) => json.action ?? 'failed'))}; ${preview.writes.length} writes sent to the service, ${preview.reads} reference-list read${preview.reads === 1 ? '' : 's'}; sheet ${preview.written ? 'WRITTEN' : 'not written'}`);
	lines.push(`   applied (${applied.execution.mode} execution ${applied.execution.id}): ${tally(applied.actions)}; ${applied.writes.length} writes sent, ${sameAsPlanned(preview.plan, applied.writes) ? 'exactly the planned ones' : 'NOT the planned ones'}`);
	return lines;
}

const countBy = (values) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map());
const tally = (values) => [...countBy(values)].map(([value, n]) => `${value} ${n}`).join(', ') || 'none';

/** Lines about the two runs of the round trip. */
export function describeSpreadsheetSync(example, { rows, first, second }) {
	const status = first.execution.status === 'success' && second.execution.status === 'success' ? 'success' : `${first.execution.status} / ${second.execution.status}`;
	const lines = [`${example.title} (examples/${example.file}): ${status} in ${first.seconds.toFixed(1)}s + ${second.seconds.toFixed(1)}s`];
	for (const [label, run] of [['first run ', first], ['second run', second]]) {
		const stop = stoppedBy(run.execution);
		if (stop) lines.push(`   ${label}: stopped at node "${stop.node}": ${stop.message}${stop.description ? ` (${stop.description})` : ''}`);
		const written = run.file
			? `${SYNC.outputFile} written: ${run.file.rows.length} rows, columns ${run.file.columns.join(', ')}; action column: ${tally(run.file.rows.map((r) => r.action))}`
			: `${SYNC.outputFile} not written`;
		lines.push(`   ${label} (${run.execution.mode} execution ${run.execution.id}): ${rows} CSV rows → ${tally(run.actions)}; ${run.sent} requests sent to the service${run.reads ? ` (and ${run.reads} reference-list read${run.reads === 1 ? '' : 's'})` : ''}`);
		lines.push(`     ${written}`);
	}
	const sample = first.file?.rows?.[0];
	if (sample) lines.push(`   e.g. ${sample.email} → slug ${sample.slug}, ${sample.action} (first run), ${second.file?.rows?.find((r) => r.email === sample.email)?.action ?? '?'} (second run)`);
	return lines;
}

/**
 * Runs a workflow manually from one of its triggers (the editor's *Execute workflow* with that
 * trigger chosen: `triggerToStartFrom`), and waits for the execution. A manual execution: n8n
 * never saves static data after it.
 */
export async function runManually(rest, workflowId, triggerName) {
	const wf = await rest.getWorkflow(workflowId);
	const workflowData = { id: wf.id, name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings, pinData: wf.pinData ?? {}, active: wf.active ?? false, versionId: wf.versionId };
	const started = await rest.post(`/workflows/${workflowId}/run`, { workflowData, triggerToStartFrom: { name: triggerName }, startNodes: [] });
	if (!started?.executionId) throw new Error(`n8n did not start workflow ${workflowId}: ${JSON.stringify(started)}`);
	return rest.waitForExecution(started.executionId);
}

/**
 * Imports and runs one example; returns { workflow, execution, seconds }. The Data table example
 * (no manual trigger; it needs its table) is set up with a table of its own and called twice by
 * its webhook with DATATABLE.sampleRows: `execution` is the second call, `first` the first.
 */
export async function runExample(rest, example) {
	if (example.key === 'datatable') {
		const stack = { rest, n8n: { url: rest.url } };
		const sync = await setUpDataTableSync(stack);
		const t0 = Date.now();
		const first = await runWebhook(stack, sync, { rows: DATATABLE.sampleRows });
		const execution = await runWebhook(stack, sync, { rows: DATATABLE.sampleRows });
		return { workflow: sync.workflow, first, execution, table: sync.table, stored: await dataTableRows(rest, sync.table), seconds: (Date.now() - t0) / 1000 };
	}
	const json = loadExample(example.file);
	const workflow = await rest.importWorkflow(json);
	const t0 = Date.now();
	const execution = await rest.runWorkflow(workflow.id);
	return { workflow, execution, seconds: (Date.now() - t0) / 1000 };
}

/** Output items (json) of a node: main output 0 by default, 1 = the error output. */
export const out = (execution, node, output = 0) => nodeOutput(execution, node, output).map((i) => i.json);

/** Failures collected by the "Failed: ..." nodes of the batch example. */
export function batchFailures(execution) {
	return Object.keys(execution.runData)
		.filter((name) => name.startsWith('Failed: '))
		.flatMap((name) => out(execution, name))
		.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
}

/** Node errors that stopped a run (so the summary can say why). */
export function stoppedBy(execution) {
	if (execution.status === 'success') return null;
	const node = execution.lastNodeExecuted;
	const err = (node && nodeError(execution, node)) ?? execution.error;
	return { node, message: err?.message ?? `execution ${execution.status}`, description: err?.description };
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Human-readable lines about one example run. */
export function describe(example, result, { candidatesBefore = [], candidatesAfter = [], names = {} } = {}) {
	const { execution, seconds } = result;
	const lines = [];
	const head = `${example.title} (examples/${example.file}): ${execution.status} in ${seconds.toFixed(1)}s`;
	lines.push(head);
	const stop = stoppedBy(execution);
	if (stop) lines.push(`   stopped at node "${stop.node}": ${stop.message}${stop.description ? ` (${stop.description})` : ''}`);
	const before = new Set(candidatesBefore.map((c) => c.slug));
	const added = candidatesAfter.filter((c) => !before.has(c.slug));
	const records = (key) => added.reduce((n, c) => n + (c.records?.[key]?.length ?? 0), 0);

	if (example.key === 'import') {
		lines.push(
			`   candidates created: ${added.length}; records attached: ${plural(records('jobs'), 'job')}, ${plural(records('universities'), 'university record')}, ` +
				`${plural(records('itSkills'), 'IT skill')}, ${plural(records('languages'), 'language')}`,
		);
		for (const c of added) {
			const name = [c.first_name, c.last_name].filter(Boolean).join(' ') || '(no name)';
			lines.push(`     - ${name} <${c.email || c.phone}>, born ${c.birthday ?? '?'}, ${c.city ?? '?'}`);
		}
	} else if (example.key === 'form') {
		lines.push(
			`   candidates created: ${added.length}; profiles updated: ${out(execution, 'Update profile').length}; ` +
				`records attached: ${plural(records('jobs'), 'job')}, ${plural(records('itSkills'), 'IT skill')}, ${plural(records('languages'), 'language')}`,
		);
		for (const c of added) {
			const name = [c.first_name, c.last_name].filter(Boolean).join(' ') || '(no name)';
			const contact = c.email || c.phone;
			const langName = (id) => names.languages?.get(id) ?? `#${id}`;
			const jobType = (id) => names.jobTypes?.get(id) ?? `job type #${id ?? '-'}`;
			const langs = (c.records?.languages ?? []).map((l) => `${langName(l.language_id)} (level ${l.language_level_id})`).join(', ');
			const jobs = (c.records?.jobs ?? []).map((j) => `${j.job_title ?? j.company_name} at ${j.company_name}, ${jobType(j.job_type_id)}, from ${j.start_date}`).join('; ');
			const skills = (c.records?.itSkills ?? []).map((s) => `${s.skill_name} ${s.skill_level_id}/4`).join(', ');
			lines.push(`     - ${name} <${contact}>, born ${c.birthday ?? '?'}, ${c.city ?? '?'}: job ${jobs || '-'}; skills ${skills || '-'}; languages ${langs || '-'}`);
		}
	} else if (example.key === 'batch') {
		const rows = out(execution, 'Spreadsheet rows').length;
		const failures = batchFailures(execution);
		lines.push(
			`   ${rows} rows → ${plural(out(execution, 'Create candidate').length, 'candidate')} created, ` +
				`${out(execution, 'Update profile').length} profiles updated, ${plural(out(execution, 'Add language').length, 'language')} attached ` +
				`(sandbox: +${added.length} candidates, ${records('languages')} language records)`,
		);
		lines.push(`   ${plural(failures.length, 'row')} failed and were collected on the error outputs:`);
		for (const f of failures) {
			const who = f.email || f.phone || 'no email, no phone';
			lines.push(`     - row ${f.row} (${who}) at "${f.step}": ${oneLine(f.error)}`);
		}
	} else if (example.key === 'datatable') {
		const actions = (run) => tally(out(run, DATATABLE.upsertNode).map((json) => json.action));
		lines.push(`   first call: ${actions(result.first)}; the same rows again: ${actions(execution)}`);
		lines.push(`   Data table "${result.table?.name}": ${plural(result.stored?.length ?? 0, 'row')} (candidateKey, candidateSlug, syncState)`);
	} else if (example.key === 'lists') {
		const areas = out(execution, 'Business areas');
		const areaCount = areas.reduce((n, d) => n + (Array.isArray(d.area) ? d.area.length : 0), 0);
		lines.push(
			`   ${areas.length} business area divisions (${areaCount} areas), ${out(execution, 'Job types').length} job types, ` +
				`${out(execution, 'Language skills').length} language skills, ${out(execution, 'University degrees').length} university degrees; ` +
				`exported as one document: ${out(execution, 'Export').length === 1 ? 'yes' : 'no'}`,
		);
	}
	return lines;
}

/** Names of languages and job types, read from the service (for a readable summary). */
export async function referenceNames(baseUrl) {
	const get = async (p) => (await (await fetch(`${baseUrl}${p}`)).json()).data ?? [];
	try {
		const [languages, jobTypes] = await Promise.all([get('/v1/general/language-skills?lang=en'), get('/v1/general/job-types')]);
		return {
			languages: new Map(languages.map((l) => [l.id, l.value])),
			jobTypes: new Map(jobTypes.map((j) => [j.id, j.name_eng])),
		};
	} catch {
		return {};
	}
}

function oneLine(text, max = 220) {
	const s = String(text ?? '').replace(/\s+/g, ' ').trim();
	return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
