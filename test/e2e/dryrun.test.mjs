// End-to-end (issue 33): Candidate → Create or Update with Dry Run in a real n8n (2.x, or 1.x with
// N8N_LINE=1), the packed package loaded, the sandbox as the service:
//   - the spreadsheet example's preview path (examples/spreadsheet-sync.json, trigger "Preview the
//     sync"), run by hand as *Execute workflow* in the editor (a manual execution): three changed
//     rows and a new one planned, nothing written to the service or the sheet; then a production
//     run sends exactly the planned writes;
//   - the agent tools' preview tool (examples/agent-tools.json, Preview_create_or_update_candidate)
//     through the official MCP client: the plan of a call, then the call sends what it planned.
//
//   N8N_LINE=2 E2E_SKIP_BUILD=1 node --test --test-concurrency=1 test/e2e/dryrun.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
	SYNC,
	changeThreeRows,
	parseCsv,
	previewSpreadsheetSync,
	runSpreadsheetSyncOnce,
	setUpSpreadsheetSync,
	toCsv,
} from '../../scripts/n8n/examples.mjs';
import { AGENT_TOOLS, callToolSettled, connectMcp, resultText, setUpAgentTools } from '../../scripts/n8n/mcp.mjs';
import { nodeOutput } from '../../scripts/n8n/server.mjs';
import { examplesDir, startStack } from '../../scripts/n8n/stack.mjs';
import { SEEDED_LOGIN } from '../sandbox/index.mjs';

const line = process.env.N8N_LINE || '2';
const COMPANY = SEEDED_LOGIN.companyId;
const CANDIDATE = '/gin/v1/company/candidate';
const NEW_SLUG = '(new)';
let stack;

before(
	async () => {
		stack = await startStack({ line, doBuild: process.env.E2E_SKIP_BUILD !== '1', log: (m) => console.log(`# ${m}`) });
	},
	{ timeout: 20 * 60_000 },
);

after(async () => {
	await stack?.stop();
});

const stored = (email) => stack.sandbox.candidates(COMPANY).filter((c) => c.email === email);
const isWrite = (r) => r.method !== 'GET' && r.path !== '/v1/login';
const asText = (r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? {})}`;
/** A plan's requests as the real run sends them: a new candidate's placeholder slug replaced by the slug it got. */
const asSent = (requests, slug) => requests.map((r) => asText(r.body?.user_slug === NEW_SLUG ? { ...r, body: { ...r.body, user_slug: slug } } : r));

describe(`Dry Run, real n8n ${line}.x`, { timeout: 5 * 60_000 }, () => {
	test('spreadsheet-sync.json, "Preview the sync" by hand: three changed rows and a new one planned, nothing written to the service or the sheet; the production run then sends exactly the plan', async () => {
		const file = path.join(stack.filesDir, 'dry-run.csv');
		fs.copyFileSync(path.join(examplesDir, SYNC.sampleCsv), file);
		const sync = await setUpSpreadsheetSync(stack, { file, webhookPath: `e2e-dry-run-${line}`, name: 'e2e dry run: sheet' });
		const first = await runSpreadsheetSyncOnce(stack, sync);
		assert.deepEqual([...new Set(first.actions)], ['created']);

		const changed = changeThreeRows(file);
		const sheet = parseCsv(fs.readFileSync(file, 'utf8'));
		const fresh = { email: `dry.new.${line}@example.test`, first_name: 'Nora', last_name: 'Neu', city: 'Kiel', it_skills: 'Go: 3', languages: 'English: 4' };
		fs.writeFileSync(file, toCsv(sheet.columns, [...sheet.rows, fresh]));
		const candidatesBefore = stack.sandbox.candidates(COMPANY).length;

		const preview = await previewSpreadsheetSync(stack, sync);
		assert.equal(preview.execution.mode, 'manual');
		assert.equal(preview.execution.status, 'success', JSON.stringify(preview.execution.error ?? null));
		assert.deepEqual(preview.writes.map(asText), [], 'no write reached the service');
		assert.equal(preview.written, false, 'the sheet was not written');
		assert.equal(stack.sandbox.candidates(COMPANY).length, candidatesBefore);
		const rows = sheet.rows.length + 1;
		assert.equal(preview.plan.length, rows);
		assert.deepEqual(
			nodeOutput(preview.execution, SYNC.planNode).map((item) => item.pairedItem?.item ?? item.pairedItem),
			Array.from({ length: rows }, (_, i) => i),
		);
		assert.ok(preview.plan.every((json) => json.dryRun === true && json.syncState === undefined));
		assert.deepEqual(
			preview.plan.map((json) => json.action),
			preview.plan.map((_, i) => (i < 3 ? 'updated' : i === rows - 1 ? 'created' : 'unchanged')),
		);
		const [moved, skilled, spoken] = preview.plan;
		assert.deepEqual(moved.requests.map((r) => [r.method, r.path, r.body.city]), [['PUT', CANDIDATE, 'Potsdam']]);
		assert.deepEqual(skilled.requests, [{ method: 'POST', path: `${CANDIDATE}/it-skill`, body: { skill_name: 'Go', skill_level_id: 2, user_slug: skilled.slug } }]);
		assert.deepEqual(spoken.requests.map((r) => [r.method, r.path, typeof r.body.language_id, r.body.language_level_id]), [['POST', `${CANDIDATE}/language`, 'number', 1]]);
		const planned = preview.plan.at(-1);
		assert.equal(planned.slug, NEW_SLUG);
		assert.deepEqual(planned.requests.map((r) => `${r.method} ${r.path}`), [`POST ${CANDIDATE}`, `PUT ${CANDIDATE}`, `POST ${CANDIDATE}/it-skill`, `POST ${CANDIDATE}/language`]);
		assert.match(planned.message, /^Dry run: nothing was sent or remembered/);
		assert.equal(stored(fresh.email).length, 0);
		for (const email of changed) assert.ok(preview.plan.some((json) => json.slug === stored(email)[0]?.slug), email);

		const before = stack.sandbox.requests.length;
		const applied = await runSpreadsheetSyncOnce(stack, sync);
		assert.deepEqual(applied.actions, preview.plan.map((json) => json.action));
		const newSlug = applied.file.rows.find((row) => row.email === fresh.email).slug;
		const sent = stack.sandbox.requests.slice(before).filter(isWrite).map(asText).sort();
		assert.deepEqual(sent, preview.plan.flatMap((json) => asSent(json.requests, newSlug)).sort());
		assert.equal(stored(fresh.email).length, 1);
	});

	test('agent-tools.json, Preview_create_or_update_candidate through the official MCP client: the plan of a call, nothing written; the call then sends what was planned', async () => {
		const setup = await setUpAgentTools(stack);
		const client = await connectMcp(setup, { name: 'recruiting-e2e-dry-run' });
		try {
			const { tools } = await client.listTools();
			const preview = tools.find((tool) => tool.name === AGENT_TOOLS.tools.preview);
			assert.ok(preview, `tools: ${tools.map((tool) => tool.name).join(', ')}`);
			assert.match(preview.description, /without doing it/);
			assert.match(preview.description, /then, if the user agrees, call Create_or_update_candidate/);
			assert.deepEqual(preview.inputSchema.required, ['email']);

			const call = async (name, args) => {
				const from = stack.sandbox.requests.length;
				const { result } = await callToolSettled(stack, setup, client, name, args);
				const text = resultText(result);
				return { result, text, items: result.isError ? [] : JSON.parse(text), writes: stack.sandbox.requests.slice(from).filter(isWrite) };
			};
			const args = { email: `dry.agent.${line}@example.test`, first_name: 'Grace', city: 'Berlin', it_skills: 'SQL: 2', languages: 'English: 4' };

			const plan = await call(AGENT_TOOLS.tools.preview, args);
			assert.deepEqual(plan.writes.map(asText), []);
			assert.equal(stored(args.email).length, 0);
			assert.deepEqual([plan.items[0].dryRun, plan.items[0].action, plan.items[0].slug], [true, 'created', NEW_SLUG]);
			const filed = await call(AGENT_TOOLS.tools.upsert, args);
			assert.equal(filed.items[0].action, 'created');
			assert.deepEqual(filed.writes.map(asText), asSent(plan.items[0].requests, filed.items[0].slug));

			// The preview tool is a node of its own: it plans from the memory of the tool that files.
			const moved = { ...args, city: 'Paris' };
			const again = await call(AGENT_TOOLS.tools.preview, moved);
			assert.deepEqual(again.writes.map(asText), []);
			assert.deepEqual([again.items[0].action, again.items[0].slug], ['updated', filed.items[0].slug]);
			const updated = await call(AGENT_TOOLS.tools.upsert, moved);
			assert.equal(updated.items[0].action, 'updated');
			assert.deepEqual(updated.writes.map(asText), asSent(again.items[0].requests, filed.items[0].slug));
			const same = await call(AGENT_TOOLS.tools.preview, moved);
			assert.deepEqual([same.items[0].action, same.items[0].requests, same.writes.length], ['unchanged', [], 0]);

			const bad = await call(AGENT_TOOLS.tools.preview, { ...args, birthday: '31.02.2024' });
			assert.equal(bad.result.isError, true);
			assert.match(bad.text, /Birthday/);
			assert.equal(bad.writes.length, 0);
		} finally {
			await client.close().catch(() => {});
		}
	});
});
