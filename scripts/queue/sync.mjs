// The sync scenarios of `npm run queue` (issue 19): the same spreadsheet rows as the import load
// (queue-import.json's "Spreadsheet rows"), through ONE Candidate → Create or Update node, behind
// its own webhook, on main + workers:
//   - sync-rerun:   8 × 250 rows, one execution after another (each saves the node's memory), then
//                   the same 8 calls at once: 0 creations, 0 updates, every item `unchanged`;
//   - sync-kill:    8 × 250 new rows at once, one worker killed with SIGKILL in the middle, then the
//                   same rows again (one call after another): every candidate exists exactly once;
//                   what n8n did with the killed worker's executions is reported;
//   - sync-overlap: two executions over the same 250 rows at once: checks 0 duplicates (a row both
//                   executions lose is refused, never created twice; a third run after them: how many
//                   rows it finds unchanged or refuses);
//   - sync-state:   the rows carry their state (issue 25): 8 × 250 new rows at once, then the same
//                   rows with each row's slug and syncState, 1 % changed, 8 at once: exactly those
//                   updates, nothing else written, 0 refused;
//   - sync-keeper:  a Code node keeps a value in its static data (saved by a worker); Create or Update
//                   runs on the workers: its executions, the first one included, must leave the value
//                   saved (n8n 2.40+ workers start with empty static data and save it whole when it
//                   changed; the node sees `active: false` there and writes nothing).
import { setTimeout as sleep } from 'node:timers/promises';

import { nodeOutput } from '../n8n/server.mjs';
import { SANDBOX_LOGIN } from '../n8n/sandbox.mjs';
import { loadWorkflow } from './load.mjs';

export const SYNC_PATH = 'recruiting-queue-sync';
const NODE = 'Create or Update';
const CANDIDATE = '/gin/v1/company/candidate';

/** The sync workflow: the import load's webhook and rows, then one Create or Update node. */
export function syncWorkflow() {
	const base = loadWorkflow();
	const webhook = base.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	const rows = base.nodes.find((n) => n.type === 'n8n-nodes-base.code');
	const credentials = base.nodes.find((n) => n.type.endsWith('.recruiting')).credentials;
	return {
		name: 'Queue mode: spreadsheet sync (Create or Update) behind a webhook',
		nodes: [
			{ ...webhook, id: '3eb00000-0000-4000-8000-000000000a02', webhookId: '2c5b8f0e-7a41-4f8e-9d3a-6b1e0c4a9f0a', parameters: { ...webhook.parameters, path: SYNC_PATH } },
			{ ...rows, id: 'c0de0000-0000-4000-8000-000000000a03' },
			{
				id: '4ec00000-0000-4000-8000-000000000a04',
				name: NODE,
				type: 'n8n-nodes-recruiting.recruiting',
				typeVersion: 1,
				position: [440, 300],
				credentials,
				parameters: {
					resource: 'candidate',
					operation: 'upsert',
					email: '={{ $json.email }}',
					additionalFields: { firstName: '={{ $json.firstName }}', lastName: '={{ $json.lastName }}', birthday: '={{ $json.birthday }}' },
					recordInput: 'lists',
					languageList: '={{ $json.language }}: {{ $json.languageLevel }}',
					itSkillList: '={{ $json.skill }}: {{ $json.skillLevel }}',
					options: { failOnRecordError: true },
				},
				// a refused row ("may already exist") is reported on the output, the execution goes on
				onError: 'continueRegularOutput',
			},
		],
		connections: {
			[webhook.name]: { main: [[{ node: rows.name, type: 'main', index: 0 }]] },
			[rows.name]: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

export async function installSyncWorkflow(rest) {
	const workflow = await rest.importWorkflow(syncWorkflow());
	await rest.activateWorkflow(workflow.id);
	return workflow;
}

export const STATE_PATH = 'recruiting-queue-sync-state';
export const KEEPER_PATH = 'recruiting-queue-keeper';

/** An n8n Code node (JavaScript, all items at once). */
function codeNode(id, name, position, jsCode) {
	return { id, name, type: 'n8n-nodes-base.code', typeVersion: 2, position, parameters: { jsCode } };
}

/**
 * The sync workflow with the state in the rows: the body brings `state` ({ email: [slug, syncState] })
 * and `change` (e-mails whose last name changes); "Rows with their state" puts them on the rows, and
 * the node reads them (Candidate Slug, Sync State).
 */
export function stateWorkflow() {
	const base = syncWorkflow();
	const [webhook, rows, node] = base.nodes;
	const join = codeNode('c0de0000-0000-4000-8000-000000000b05', 'Rows with their state', [330, 300], `const { state = {}, change = [] } = $('${webhook.name}').first().json.body ?? {};
const changed = new Set(change);
return $input.all().map((item) => {
  const [candidateSlug = '', syncState = ''] = state[item.json.email] ?? [];
  const lastName = changed.has(item.json.email) ? item.json.lastName + ' Changed' : item.json.lastName;
  return { json: { ...item.json, lastName, candidateSlug, syncState } };
});`);
	return {
		name: 'Queue mode: the state in the rows (Create or Update with Candidate Slug and Sync State)',
		nodes: [
			{ ...webhook, id: '3eb00000-0000-4000-8000-000000000b02', webhookId: '2c5b8f0e-7a41-4f8e-9d3a-6b1e0c4a9f0b', parameters: { ...webhook.parameters, path: STATE_PATH } },
			{ ...rows, id: 'c0de0000-0000-4000-8000-000000000b03' },
			join,
			{ ...node, id: '4ec00000-0000-4000-8000-000000000b04', parameters: { ...node.parameters, candidateSlug: '={{ $json.candidateSlug }}', syncState: '={{ $json.syncState }}' } },
		],
		connections: {
			[webhook.name]: { main: [[{ node: rows.name, type: 'main', index: 0 }]] },
			[rows.name]: { main: [[{ node: join.name, type: 'main', index: 0 }]] },
			[join.name]: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

/** The sync workflow with a Code node ("Keeper") before the rows that keeps the body's `keep` in its own static data. */
export function keeperWorkflow() {
	const base = syncWorkflow();
	const [webhook, rows, node] = base.nodes;
	const keeper = codeNode(
		'c0de0000-0000-4000-8000-000000000c05',
		'Keeper',
		[110, 300],
		"const keep = $json.body?.keep;\nif (keep) $getWorkflowStaticData('node').value = keep;\nreturn $input.all();",
	);
	return {
		name: "Queue mode: another node's static data next to Create or Update",
		nodes: [
			{ ...webhook, id: '3eb00000-0000-4000-8000-000000000c02', webhookId: '2c5b8f0e-7a41-4f8e-9d3a-6b1e0c4a9f0c', parameters: { ...webhook.parameters, path: KEEPER_PATH } },
			keeper,
			{ ...rows, id: 'c0de0000-0000-4000-8000-000000000c03' },
			{ ...node, id: '4ec00000-0000-4000-8000-000000000c04' },
		],
		connections: {
			[webhook.name]: { main: [[{ node: keeper.name, type: 'main', index: 0 }]] },
			[keeper.name]: { main: [[{ node: rows.name, type: 'main', index: 0 }]] },
			[rows.name]: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

async function install(rest, json) {
	const workflow = await rest.importWorkflow(json);
	await rest.activateWorkflow(workflow.id);
	return workflow;
}

const ENDED = (e) => !['new', 'running', 'waiting', 'unknown'].includes(e.status) && e.stoppedAt;

async function executionsOf(rest, workflowId) {
	const list = await rest.listExecutions({ workflowId, limit: 100 });
	return list.results ?? list;
}

/** Sends webhook calls ({ run, batch, rows }); `parallel` at once, else each after the previous ended. */
export async function trigger({ n8nUrl, rest, workflowId, run, batches, rows, parallel, timeoutMs = 300_000, onWaiting, path = SYNC_PATH, extra = () => ({}) }) {
	const post = async (batch) => {
		for (let tries = 0; ; tries++) {
			const res = await fetch(`${n8nUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ run, batch, rows, ...extra(batch) }),
			});
			if (res.status === 200) return;
			if (res.status !== 404 || tries > 40) throw new Error(`webhook answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
			await sleep(250); // registered shortly after the activation
		}
	};
	const waitFor = async (count, before, deadline) => {
		for (;;) {
			const fresh = (await executionsOf(rest, workflowId)).filter((e) => !before.has(String(e.id)));
			if (fresh.length >= count && fresh.every(ENDED)) return fresh;
			if (Date.now() > deadline) return fresh;
			await onWaiting?.(fresh);
			await sleep(500);
		}
	};
	const t0 = Date.now();
	const before = new Set((await executionsOf(rest, workflowId)).map((e) => String(e.id)));
	if (parallel) {
		await Promise.all(batches.map(post));
	} else {
		for (const batch of batches) {
			const seen = new Set((await executionsOf(rest, workflowId)).map((e) => String(e.id)));
			await post(batch);
			await waitFor(1, seen, Date.now() + timeoutMs);
		}
	}
	const listed = await waitFor(batches.length, before, Date.now() + timeoutMs);
	const executions = [];
	for (const e of listed.sort((a, b) => Number(a.id) - Number(b.id))) executions.push(ENDED(e) ? await rest.getExecution(e.id) : e);
	return { executions, wallMs: Date.now() - t0 };
}

/** Per-row outcomes of the executions: how many items were created, updated, unchanged or refused. */
export function outcomes(executions) {
	const tally = { created: 0, updated: 0, unchanged: 0, refused: 0, busy: 0, failed: 0 };
	for (const e of executions) {
		if (!e.data) continue;
		for (const { json } of nodeOutput(e, NODE)) {
			if (json.action in tally && !json.error) tally[json.action] += 1;
			else if (/may already exist/.test(String(json.error))) tally.refused += 1;
			// another execution was deciding the row at the same moment (issue 46): the next run decides it
			else if (/Another execution of this node was deciding/.test(String(json.error))) tally.busy += 1;
			else {
				tally.failed += 1;
				// the first few messages, to say why
				tally.errors ??= [];
				if (tally.errors.length < 3 && !tally.errors.includes(String(json.error))) tally.errors.push(String(json.error).slice(0, 200));
			}
		}
	}
	return tally;
}

function statuses(executions) {
	const counts = {};
	for (const e of executions) counts[e.status] = (counts[e.status] ?? 0) + 1;
	return Object.entries(counts)
		.map(([status, n]) => `${n} ${status}`)
		.join(', ');
}

/** Candidates of a run in the sandbox: how many e-mails have none, one, or more. */
function stored(sandbox, run, emails) {
	const byEmail = new Map();
	for (const c of sandbox.candidates(SANDBOX_LOGIN.companyId)) byEmail.set(c.email, (byEmail.get(c.email) ?? 0) + 1);
	let missing = 0;
	let duplicates = 0;
	for (const email of emails) {
		const n = byEmail.get(email) ?? 0;
		if (n === 0) missing += 1;
		if (n > 1) duplicates += n - 1;
	}
	return { missing, duplicates };
}

const emailsOf = (run, batches, rows) => batches.flatMap((b) => Array.from({ length: rows }, (_, i) => `queue.${run}.b${b}.r${i + 1}@example.test`));

const writes = (sandbox, from) => {
	const sent = sandbox.requests.slice(from).filter((r) => r.method !== 'GET' && r.path !== '/v1/login');
	return {
		creations: sent.filter((r) => r.method === 'POST' && r.path === CANDIDATE).length,
		updates: sent.filter((r) => r.method === 'PUT').length,
		records: sent.filter((r) => r.method === 'POST' && r.path !== CANDIDATE).length,
	};
};

/**
 * Runs one sync scenario on a queue stack (with the sync workflow installed) against `sandbox`.
 * Returns { checks: [{ name, ok, detail }], wallMs, rows, note }.
 */
export async function runSyncScenario(key, { stack, sandbox, workflowId, executions, rows, log, repetition = 0 }) {
	// Each repetition on the same stack gets rows of its own (the node's memory and journal keep the earlier ones).
	const tag = repetition > 0 ? `${key}-${repetition}` : key;
	const checks = [];
	const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });
	const batches = Array.from({ length: executions }, (_, i) => i);
	const common = { n8nUrl: stack.main.url, rest: stack.rest, workflowId, rows };

	if (key === 'sync-rerun') {
		const first = await trigger({ ...common, run: tag, batches, parallel: false });
		const firstTally = outcomes(first.executions);
		check('first run (one execution after another): every row created', firstTally.created === executions * rows, JSON.stringify(firstTally));
		const from = sandbox.requests.length;
		const again = await trigger({ ...common, run: tag, batches, parallel: true });
		const sent = writes(sandbox, from);
		const tally = outcomes(again.executions);
		check(`re-run (${executions} executions at once): 0 creations, 0 updates, 0 records`, sent.creations + sent.updates + sent.records === 0, JSON.stringify(sent));
		// n8n 2.x in queue mode starts a worker's execution without the workflow's saved static data
		// (the execution's workflow snapshot leaves it out; a worker reloads it only for a resumed
		// execution): the slug map is empty there, and the journal says whether each known row was
		// sent with this content (issue 46: `done` marks): every row unchanged, none refused.
		check(
			`re-run: every item unchanged (${executions * rows}), 0 refused`,
			tally.unchanged === executions * rows,
			`${JSON.stringify(tally)}; executions: ${statuses(again.executions)}`,
		);
		const { missing, duplicates } = stored(sandbox, tag, emailsOf(tag, batches, rows));
		check('every candidate stored exactly once', missing === 0 && duplicates === 0, `missing ${missing}, duplicates ${duplicates}`);
		return { checks, wallMs: again.wallMs, rows: executions * rows, note: `first run ${(first.wallMs / 1000).toFixed(1)} s (sequential); re-run ${(again.wallMs / 1000).toFixed(1)} s, ${sandbox.requests.length - from} requests` };
	}

	if (key === 'sync-kill') {
		const victim = stack.workers[0];
		let killedAt;
		const load = await trigger({
			...common,
			run: tag,
			batches,
			parallel: true,
			timeoutMs: 240_000,
			onWaiting: async () => {
				if (killedAt === undefined && sandbox.candidates(SANDBOX_LOGIN.companyId).filter((c) => String(c.email).startsWith(`queue.${tag}.`)).length >= (executions * rows) / 4) {
					killedAt = sandbox.candidates(SANDBOX_LOGIN.companyId).filter((c) => String(c.email).startsWith(`queue.${tag}.`)).length;
					log(`[queue]   SIGKILL ${victim.name} (pid ${victim.pid}) after ${killedAt} candidates`);
					process.kill(-victim.pid, 'SIGKILL'); // the worker's whole process group, as when its machine dies
				}
			},
		});
		const firstStatuses = statuses(load.executions);
		// Creations in flight on the killed worker, as the service saw them: arrived, never answered.
		const inFlight = sandbox.requests.filter((r) => r.method === 'POST' && r.path === CANDIDATE && r.status === 0 && String(r.body?.email ?? '').startsWith(`queue.${tag}.`)).length;
		const concurrency = syncWorkflow().nodes.find((node) => node.name === NODE)?.parameters?.options?.concurrency;
		const from = sandbox.requests.length;
		const again = await trigger({ ...common, run: tag, batches, parallel: false });
		const tally = outcomes(again.executions);
		const soon = stored(sandbox, tag, emailsOf(tag, batches, rows));
		check('a worker was killed in the middle of the load', killedAt !== undefined, `after ${killedAt ?? '?'} candidates`);
		// Rows the killed worker had claimed stay claimed: no process can tell a dead claimant from a slow one
		// over n8n's store (nodes/Recruiting/memory/marks.ts). They are refused, never created twice.
		const late = { executions: again.executions };
		const lateTally = tally;
		const { missing, duplicates } = stored(sandbox, tag, emailsOf(tag, batches, rows));
		check('0 duplicates', duplicates === 0, `duplicates ${duplicates}`);
		check(
			'rows never created: each refused with its message (the killed worker\'s claims)',
			missing <= lateTally.refused,
			`never created ${missing}, refused ${lateTally.refused}, in flight at the service ${inFlight}, the node's concurrency per execution ${concurrency ?? 'Auto'}; right after the kill: ${JSON.stringify(tally)} (never created then ${soon.missing})`,
		);
		return {
			checks,
			duplicates,
			neverCreated: missing,
			inFlight,
			wallMs: load.wallMs,
			rows: executions * rows,
			note: `load: ${firstStatuses}; creations in flight on the killed worker ${inFlight}; the same rows again: ${JSON.stringify(tally)}, ${writes(sandbox, from).creations} creations; never created ${missing} (${late.executions.length} executions)`,
		};
	}

	if (key === 'sync-overlap') {
		const pair = await trigger({ ...common, run: tag, batches: [0, 0], parallel: true });
		const { missing, duplicates } = stored(sandbox, tag, emailsOf(tag, [0], rows));
		const tally = outcomes(pair.executions);
		const third = await trigger({ ...common, run: tag, batches: [0], parallel: false });
		const after = outcomes(third.executions);
		// The journal's claims (Fischer's timed mutual exclusion, nodes/Recruiting/memory/journal.ts): each row created by one
		// execution and refused by the other; a row both lose is refused by both (missing, never duplicated).
		check(`two overlapping executions over the same ${rows} rows: 0 duplicates, every missing row refused`, duplicates === 0 && missing <= tally.refused + tally.busy, `duplicates ${duplicates} (${((100 * duplicates) / rows).toFixed(1)}%), missing ${missing}, refused ${tally.refused}, busy ${tally.busy}`);
		// Issue 46: a third run after them (on a worker that knows none of the slugs) finds the rows unchanged
		// (each row's content mark); the refusals left are measured (docs/sync-memory.md).
		const after3 = stored(sandbox, tag, emailsOf(tag, [0], rows));
		check('a third run after them: nothing created or sent, every row exists once', after.created === 0 && after.updated === 0 && after3.missing === 0 && after3.duplicates === 0, `${JSON.stringify(after)}; missing ${after3.missing}, duplicates ${after3.duplicates}`);
		return {
			checks,
			wallMs: pair.wallMs,
			rows: 2 * rows,
			duplicates,
			note: `the pair: ${JSON.stringify(tally)}; a third run after them: ${JSON.stringify(after)}`,
		};
	}
	if (key === 'sync-state') {
		// The rows carry their state: the node decides from each row's slug and syncState, on any worker.
		const workflow = (stack.stateWorkflow ??= await install(stack.rest, stateWorkflow()));
		const on = { ...common, workflowId: workflow.id, path: STATE_PATH, run: tag, batches };
		const first = await trigger({ ...on, parallel: true });
		const firstTally = outcomes(first.executions);
		check(`first run (${executions} executions at once, new rows): every row created`, firstTally.created === executions * rows, JSON.stringify(firstTally));
		// what the first run output for each row: its slug and state, by e-mail
		const state = {};
		for (const e of first.executions) {
			const inputs = nodeOutput(e, 'Spreadsheet rows');
			for (const [i, { json }] of nodeOutput(e, NODE).entries()) if (json.slug && json.syncState) state[inputs[i]?.json.email] = [json.slug, json.syncState];
		}
		const emails = emailsOf(tag, batches, rows);
		check('the first run output a slug and a syncState for every row', emails.every((email) => state[email]), `${Object.keys(state).length} of ${emails.length}`);
		// 1 % of the rows changed (every 100th row: a new last name)
		const change = emails.filter((_, i) => i % 100 === 99);
		const byBatch = (batch) => {
			const prefix = `queue.${tag}.b${batch}.`;
			return { state: Object.fromEntries(Object.entries(state).filter(([email]) => email.startsWith(prefix))), change: change.filter((email) => email.startsWith(prefix)) };
		};
		const from = sandbox.requests.length;
		const again = await trigger({ ...on, parallel: true, extra: byBatch });
		const sent = writes(sandbox, from);
		const tally = outcomes(again.executions);
		check(`re-run with ${change.length} rows (1 %) changed, ${executions} executions at once: exactly ${change.length} profile updates, 0 creations, 0 records`, sent.updates === change.length && sent.creations === 0 && sent.records === 0, JSON.stringify(sent));
		check(`re-run: ${change.length} updated, ${emails.length - change.length} unchanged, 0 refused, 0 failed`, tally.updated === change.length && tally.unchanged === emails.length - change.length && tally.refused === 0 && tally.failed === 0, `${JSON.stringify(tally)}; executions: ${statuses(again.executions)}`);
		const { missing, duplicates } = stored(sandbox, tag, emails);
		check('every candidate stored exactly once', missing === 0 && duplicates === 0, `missing ${missing}, duplicates ${duplicates}`);
		return { checks, wallMs: again.wallMs, rows: executions * rows, note: `first run ${(first.wallMs / 1000).toFixed(1)} s; re-run with 1 % changed ${(again.wallMs / 1000).toFixed(1)} s: ${JSON.stringify(sent)}, ${JSON.stringify(tally)}` };
	}

	if (key === 'sync-keeper') {
		// Another node's static data: a Code node ("Keeper") keeps a value, Create or Update runs on the workers.
		// n8n 2.40+ workers start each execution with empty static data and save it whole when it changed.
		const workflow = (stack.keeperWorkflow ??= await install(stack.rest, keeperWorkflow()));
		const on = { ...common, workflowId: workflow.id, path: KEEPER_PATH, batches: [0], parallel: false };
		const kept = async () => {
			const wf = await stack.rest.getWorkflow(workflow.id);
			const data = typeof wf.staticData === 'string' ? JSON.parse(wf.staticData) : (wf.staticData ?? {});
			return { keeper: data['node:Keeper']?.value ?? null, saved: Object.keys(data).join(', ') || 'none' };
		};
		const t0 = Date.now();
		// 1. The Code node saves a value before Create or Update ever ran; then the node's first execution.
		const before = `before-${Date.now()}`;
		await trigger({ ...on, run: `${tag}-a`, rows: 0, extra: () => ({ keep: before }) });
		const seeded = await kept();
		const first = await trigger({ ...on, run: `${tag}-a`, rows: 5 });
		const afterFirst = await kept();
		// 2. The Code node saves a value in an execution with the node (5 known rows); then the node runs
		//    twice more: the same rows, and 20 new rows.
		const value = `kept-${Date.now()}`;
		await trigger({ ...on, run: `${tag}-a`, rows: 5, extra: () => ({ keep: value }) });
		const afterKeep = await kept();
		const same = await trigger({ ...on, run: `${tag}-a`, rows: 5 });
		const afterSame = await kept();
		const fresh = await trigger({ ...on, run: `${tag}-b`, rows: 20 });
		const afterNew = await kept();
		check('a worker saved the Code node\'s value (twice)', seeded.keeper === before && afterKeep.keeper === value, `saved: ${JSON.stringify(seeded)}, ${JSON.stringify(afterKeep)}`);
		check("the node's first execution on a worker leaves the Code node's earlier value saved", afterFirst.keeper === before, `after it: ${JSON.stringify(afterFirst)} (${JSON.stringify(outcomes(first.executions))})`);
		check(
			"after Create or Update has run once: the Code node's value survives the node's executions on the workers (the same 5 rows, then 20 new rows)",
			afterSame.keeper === value && afterNew.keeper === value,
			`after the same rows: ${JSON.stringify(afterSame)} (${JSON.stringify(outcomes(same.executions))}); after 20 new rows: ${JSON.stringify(afterNew)} (${JSON.stringify(outcomes(fresh.executions))})`,
		);
		return {
			checks,
			keeperFirst: afterFirst,
			wallMs: Date.now() - t0,
			rows: 35,
			note: `the node's first execution in the workflow (${JSON.stringify(outcomes(first.executions))}): the Code node's earlier value ${afterFirst.keeper === before ? 'kept' : 'LOST'}, saved copy: ${afterFirst.saved}`,
		};
	}
	throw new Error(`unknown sync scenario ${key}`);
}
