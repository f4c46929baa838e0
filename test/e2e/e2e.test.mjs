// End-to-end: the package inside a real n8n (installed into .cache/n8n by scripts/n8n/install.mjs),
// against the recruiting-service sandbox, driven over n8n's REST API.
//
//   node --test --test-concurrency=1 test/e2e/        (N8N_LINE=1 for the 1.x line;
//                                                      E2E_SKIP_BUILD=1 when dist/ is fresh)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { EXAMPLES, SYNC, batchFailures, out, parseCsv, runExample, runManually, runSpreadsheetSyncOnce, setUpSpreadsheetSync } from '../../scripts/n8n/examples.mjs';
import { repoRoot } from '../../scripts/n8n/install.mjs';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../scripts/n8n/server.mjs';
import { builtNodeDescription, credentialData, examplesDir, loadExample, startStack } from '../../scripts/n8n/stack.mjs';
import { SEEDED_LOGIN as SANDBOX_LOGIN } from '../sandbox/index.mjs';

const line = process.env.N8N_LINE || '2';
const COMPANY = SANDBOX_LOGIN.companyId;
let stack;

/** Every `loadOptionsMethod` in the node's description, with the parameters that use it. */
function loadOptionsMethods(properties, found = new Map(), trail = []) {
	for (const p of properties ?? []) {
		const method = p.typeOptions?.loadOptionsMethod;
		if (method) {
			const entry = found.get(method) ?? { params: new Set(), showFor: [] };
			entry.params.add(p.name);
			entry.showFor.push(p.displayOptions?.show ?? {});
			found.set(method, entry);
		}
		if (Array.isArray(p.options) && p.options.some((o) => o && typeof o === 'object' && ('type' in o || 'values' in o))) {
			const nested = p.options.flatMap((o) => (Array.isArray(o.values) ? o.values : [o]));
			loadOptionsMethods(nested, found, [...trail, p.name]);
		}
	}
	return found;
}

/** Plain HTTP call to the sandbox (to create API keys for the apiKey-mode credential test). */
async function sandboxCall(method, path, { token, body } = {}) {
	const res = await fetch(`${stack.sandbox.url}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: await res.json().catch(() => undefined) };
}

const byEmail = (email) => stack.sandbox.candidates(COMPANY).find((c) => c.email === email);
const norm = (s) => String(s ?? '').toLowerCase();

before(
	async () => {
		stack = await startStack({ line, doBuild: process.env.E2E_SKIP_BUILD !== '1', log: (m) => console.log(`# ${m}`) });
	},
	{ timeout: 20 * 60_000 },
);

after(async () => {
	await stack?.stop();
});

describe(`real n8n ${line}.x with n8n-nodes-recruiting`, { timeout: 10 * 60_000 }, () => {
	test('n8n loaded the community package (node type and credential type are known)', async () => {
		const { rest, credential } = stack;
		assert.equal(credential.type, CREDENTIAL_TYPE);
		// loading options through the node only works if n8n knows the node type
		const { description } = await builtNodeDescription();
		assert.equal(`n8n-nodes-recruiting.${description.name}`, NODE_TYPE);
		const types = await rest.post('/node-types', { nodeInfos: [{ name: NODE_TYPE, version: 1 }] }).catch((err) => err);
		if (Array.isArray(types)) {
			assert.match(types[0]?.name ?? '', /recruiting$/);
			const resources = types[0].properties.find((p) => p.name === 'resource');
			assert.ok(resources.options.length >= 2);
		}
	});

	test('n8n runs the package from the tarball of `npm pack`, not from the work tree', async () => {
		const { pkg } = stack;
		assert.match(path.basename(pkg.tarball), /^n8n-nodes-recruiting-\d+\.\d+\.\d+.*\.tgz$/);
		// what n8n finds in its community-packages folder is the unpacked tarball
		const installed = path.join(stack.n8n.userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-recruiting');
		assert.equal(fs.realpathSync(installed), fs.realpathSync(pkg.dir));
		assert.ok(!fs.realpathSync(installed).startsWith(path.join(repoRoot, 'dist')));
		// and it holds exactly the packed files: dist/, examples/ (every example and candidates.csv), README, LICENSE, package.json
		const onDisk = [];
		const walk = (dir, prefix = '') => {
			for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
				if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
				else onDisk.push(`${prefix}${entry.name}`);
			}
		};
		walk(pkg.dir);
		assert.deepEqual(onDisk.sort(), pkg.files);
		const examples = fs.readdirSync(path.join(repoRoot, 'examples')).map((name) => `examples/${name}`);
		assert.deepEqual(pkg.files.filter((file) => !file.startsWith('dist/')), ['LICENSE', 'README.md', ...examples.sort(), 'package.json']);
		assert.ok(pkg.files.includes('dist/nodes/Recruiting/Recruiting.node.js'));
		assert.ok(pkg.files.includes('dist/credentials/RecruitingApi.credentials.js'));
	});

	describe('credential test over REST (/rest/credentials/test)', () => {
		test('emailPassword: right password OK, wrong password Error', async () => {
			const { rest, sandbox } = stack;
			const good = await rest.createCredential(CREDENTIAL_TYPE, 'e2e email ok', credentialData(sandbox.url, 'emailPassword'));
			const ok = await rest.testCredential(good);
			assert.equal(ok.status, 'OK', ok.message);
			const bad = await rest.createCredential(CREDENTIAL_TYPE, 'e2e email bad', credentialData(sandbox.url, 'emailPassword', { password: 'not-the-password' }));
			const res = await rest.testCredential(bad);
			assert.equal(res.status, 'Error');
			assert.match(res.message, /login|password|401/i);
		});

		test('accessToken: live session token OK, unknown token Error', async () => {
			const { rest, sandbox } = stack;
			const token = sandbox.issueToken(SANDBOX_LOGIN.email);
			const good = await rest.createCredential(CREDENTIAL_TYPE, 'e2e token ok', credentialData(sandbox.url, 'accessToken', { accessToken: token }));
			const ok = await rest.testCredential(good);
			assert.equal(ok.status, 'OK', ok.message);
			const bad = await rest.createCredential(CREDENTIAL_TYPE, 'e2e token bad', credentialData(sandbox.url, 'accessToken', { accessToken: 'no-such-token' }));
			const res = await rest.testCredential(bad);
			assert.equal(res.status, 'Error');
			assert.match(res.message, /401|token|reject|authori[sz]/i); // 1.x: n8n's generic text
		});

		test('apiKey: a company API key OK (Authorization and X-API-Key), unknown key Error (401), wrong address Error', async () => {
			const { rest, sandbox } = stack;
			const token = sandbox.issueToken(SANDBOX_LOGIN.email);
			const created = await sandboxCall('POST', '/v1/company/api-integrations', { token });
			assert.ok(created.status < 300, `sandbox refused to create an API key: ${created.status}`);
			const key = created.body.data.value;
			const good = await rest.createCredential(CREDENTIAL_TYPE, 'e2e key ok', credentialData(sandbox.url, 'apiKey', { apiKey: key }));
			const ok = await rest.testCredential(good);
			assert.equal(ok.status, 'OK', ok.message);
			const header = await rest.createCredential(CREDENTIAL_TYPE, 'e2e key header', credentialData(sandbox.url, 'apiKey', { apiKey: key, apiKeyHeader: 'X-API-Key' }));
			const okHeader = await rest.testCredential(header);
			assert.equal(okHeader.status, 'OK', okHeader.message);
			// The apiKey-mode test is an update without a candidate slug: the sandbox answers 422
			// (key accepted) and changes nothing; an unknown key is refused (401).
			const before = JSON.stringify(sandbox.state().companies.map((c) => [c.candidates, c.apiKeys]));
			const wrongKey = await rest.createCredential(CREDENTIAL_TYPE, 'e2e key wrong', credentialData(sandbox.url, 'apiKey', { apiKey: 'not-a-key-of-this-service' }));
			const rejected = await rest.testCredential(wrongKey);
			assert.equal(rejected.status, 'Error');
			assert.match(rejected.message, /rejected the credential \(HTTP 401\)/);
			assert.equal(JSON.stringify(sandbox.state().companies.map((c) => [c.candidates, c.apiKeys])), before, 'a credential test changed the service');
			const puts = sandbox.requests.filter((r) => r.method === 'PUT' && r.path === '/gin/v1/company/candidate').map((r) => r.status);
			assert.ok(puts.includes(422) && puts.includes(401), `statuses of the test requests: ${puts}`);
			const bad = await rest.createCredential(CREDENTIAL_TYPE, 'e2e key bad url', credentialData(`${sandbox.url}/not-the-api`, 'apiKey', { apiKey: key }));
			const res = await rest.testCredential(bad);
			assert.equal(res.status, 'Error');
			assert.match(res.message, /The service answered 404: the Base URL/);
		});
	});

	describe('dropdowns over REST (/rest/dynamic-node-parameters/options)', () => {
		const expectations = {
			jobTypeId: (opts) => opts.some((o) => o.value === 2 && /working student/i.test(o.name)),
			languageId: (opts) => opts.some((o) => o.value === 26 && /english/i.test(o.name)) && opts.length === 140,
			universityDegreeId: (opts) => opts.some((o) => o.value === 10 && /master of science/i.test(o.name)),
			businessAreaDivision: (opts) => opts.some((o) => /einkauf|purchasing/i.test(o.name)),
		};

		test('every loadOptions method of the built node answers with entries served by the sandbox', async () => {
			const { rest, credential, sandbox } = stack;
			const { description } = await builtNodeDescription();
			const methods = loadOptionsMethods(description.properties);
			assert.ok(methods.size >= 1, 'the node declares no loadOptions methods');
			const seen = new Set();
			for (const [methodName, { params, showFor }] of methods) {
				const show = showFor[0] ?? {};
				const currentNodeParameters = {
					resource: show.resource?.[0],
					operation: show.operation?.[0],
				};
				const before = sandbox.requests.length;
				const options = await rest.loadOptions({
					methodName,
					credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
					currentNodeParameters,
				});
				assert.ok(Array.isArray(options) && options.length > 0, `${methodName} returned no options`);
				const fetched = sandbox.requests.slice(before).filter((r) => r.path.startsWith('/v1/general/'));
				assert.ok(fetched.length > 0 || seen.has(methodName), `${methodName} did not ask the sandbox`);
				for (const param of params) {
					seen.add(param);
					if (expectations[param]) assert.ok(expectations[param](options), `${methodName} for ${param}: unexpected entries ${JSON.stringify(options.slice(0, 5))}`);
				}
			}
			for (const p of ['languageId']) assert.ok(seen.has(p), `no dropdown found for ${p}`);
		});
	});

	describe('issue 21 item 6: n8n\'s own "Retry On Fail"', () => {
		test('a retry of the node skips the candidates its first try created and returns their slugs', async () => {
			const { rest, sandbox } = stack;
			const emails = [1, 2, 3, 4].map((n) => `retry.on.fail.${line}.${n}@example.test`);
			await rest.createCredential(CREDENTIAL_TYPE, 'e2e retry on fail', credentialData(sandbox.url, 'emailPassword'));
			const workflow = await rest.importWorkflow({
				name: 'e2e: Retry On Fail',
				nodes: [
					{ id: 'rof-1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{
						id: 'rof-2',
						name: 'Rows',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [200, 0],
						parameters: { jsCode: `return ${JSON.stringify(emails)}.map((mail) => ({ json: { mail } }));` },
					},
					{
						id: 'rof-3',
						name: 'Create candidate',
						type: NODE_TYPE,
						typeVersion: 1,
						position: [400, 0],
						retryOnFail: true,
						maxTries: 3,
						waitBetweenTries: 1000,
						credentials: { [CREDENTIAL_TYPE]: { name: 'e2e retry on fail' } },
						parameters: { resource: 'candidate', operation: 'create', email: '={{ $json.mail }}', phone: '', options: { concurrency: 1 } },
					},
				],
				connections: {
					Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
					Rows: { main: [[{ node: 'Create candidate', type: 'main', index: 0 }]] },
				},
			});
			// First try: login 1 works; its session ends after two creations, so the third is answered
			// 401, and the login that follows is refused (401): the try fails after two creations.
			// n8n's retry logs in normally and must create only the last two.
			sandbox.setFaults({ paths: ['/gin/v1/company/candidate'], sessionRequestLimit: 2, loginScript: [{ ok: true }, { status: 401 }] });
			const before = sandbox.requests.length;
			let execution;
			try {
				execution = await rest.runWorkflow(workflow.id);
			} finally {
				sandbox.setFaults({});
			}
			const requests = sandbox.requests.slice(before);
			const seen = JSON.stringify(requests.map((r) => [r.method, r.path, r.status]));
			assert.equal(execution.status, 'success', JSON.stringify(execution.error ?? execution.lastNodeExecuted));
			// Each candidate created once: the retry sent only the last two (its first creation is the
			// third row's, answered 401 on the dead session, then again after the login).
			const created = requests.filter((r) => r.method === 'POST' && r.path === '/gin/v1/company/candidate' && r.status === 201);
			assert.deepEqual(created.map((r) => r.body?.email), emails, `creations: ${seen}`);
			// and the first try did fail after two creations (its second login refused), so n8n retried
			assert.deepEqual(requests.filter((r) => r.path === '/v1/login').map((r) => r.status), [200, 401, 200], seen);
			const stored = sandbox.candidates(COMPANY).filter((c) => emails.includes(c.email));
			assert.deepEqual(stored.map((c) => c.email).sort(), [...emails].sort(), 'each candidate stored exactly once');
			const output = out(execution, 'Create candidate');
			assert.deepEqual(output.map((json) => json.email), emails);
			assert.deepEqual(output.map((json) => json.slug), emails.map((email) => stored.find((c) => c.email === email).slug));
		});
	});

	describe('issue 18: Candidate → Create or Update remembers across executions', () => {
		const CANDIDATE_PATH = '/gin/v1/company/candidate';
		const created = (requests) => requests.filter((r) => r.method === 'POST' && r.path === CANDIDATE_PATH && r.status === 201);
		const upsertNode = (id, credentialName) => ({
			id,
			name: 'Create or Update',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [400, 0],
			credentials: { [CREDENTIAL_TYPE]: { name: credentialName } },
			parameters: { resource: 'candidate', operation: 'upsert', email: '={{ $json.email }}', phone: '', additionalFields: { city: '={{ $json.city }}' }, options: { concurrency: 1 } },
		});
		const rowsNode = (id, code) => ({ id, name: 'Rows', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: code } });
		const connections = (trigger) => ({
			[trigger]: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: 'Create or Update', type: 'main', index: 0 }]] },
		});

		/** An active workflow: Webhook (POST { rows }) → Rows → Create or Update. */
		async function activeWorkflow(tag) {
			const { rest, sandbox } = stack;
			const credentialName = `e2e upsert ${tag}`;
			await rest.createCredential(CREDENTIAL_TYPE, credentialName, credentialData(sandbox.url, 'emailPassword'));
			const path = `e2e-upsert-${tag}-${line}`;
			const workflow = await rest.importWorkflow({
				name: `e2e: Create or Update (${tag})`,
				nodes: [
					{ id: `${tag}-1`, name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } },
					rowsNode(`${tag}-2`, 'return ($json.body.rows ?? []).map((row) => ({ json: row }));'),
					upsertNode(`${tag}-3`, credentialName),
				],
				connections: connections('Webhook'),
			});
			await rest.activateWorkflow(workflow.id);
			return { workflow, path };
		}

		/** Calls the webhook and waits for the execution it started. */
		async function trigger({ workflow, path }, rows) {
			const { rest, n8n } = stack;
			const seen = new Set(((await rest.listExecutions({ workflowId: workflow.id })).results ?? []).map((e) => String(e.id)));
			let res;
			// A webhook is registered shortly after the activation returns.
			for (let tries = 0; tries < 40; tries++) {
				res = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rows }) });
				if (res.status !== 404) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			assert.equal(res.status, 200, await res.text());
			for (let tries = 0; tries < 240; tries++) {
				const fresh = ((await rest.listExecutions({ workflowId: workflow.id })).results ?? []).filter((e) => !seen.has(String(e.id)));
				if (fresh.length > 0) return await rest.waitForExecution(fresh[0].id);
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			throw new Error('the webhook started no execution');
		}

		test('an active workflow run twice over the same rows creates each candidate once; the second run sends nothing', async () => {
			const { sandbox } = stack;
			const target = await activeWorkflow('rerun');
			const rows = [1, 2, 3].map((n) => ({ email: `upsert.rerun.${line}.${n}@example.test`, city: 'Berlin' }));
			const first = await trigger(target, rows);
			assert.equal(first.status, 'success', JSON.stringify(first.error ?? null));
			assert.deepEqual(out(first, 'Create or Update').map((json) => json.action), ['created', 'created', 'created']);
			const before = sandbox.requests.length;
			const second = await trigger(target, rows);
			assert.equal(second.status, 'success', JSON.stringify(second.error ?? null));
			assert.deepEqual(out(second, 'Create or Update').map((json) => json.action), ['unchanged', 'unchanged', 'unchanged']);
			assert.equal(sandbox.requests.length - before, 0, 'the second run sent nothing');
			// n8n saved the memory in the workflow's static data under the node's id (issue 25), a short string a row.
			const { staticData } = await stack.rest.getWorkflow(target.workflow.id);
			const memory = staticData?.global?.recruitingMemory?.['rerun-3'];
			assert.equal(Object.keys(memory?.rows ?? {}).length, 3, JSON.stringify(staticData));
			assert.ok(Object.values(memory.rows).every((row) => typeof row === 'string' && row.length <= 48), JSON.stringify(memory.rows));
			const changed = await trigger(target, rows.map((row, index) => (index === 1 ? { ...row, city: 'Hamburg' } : row)));
			assert.deepEqual(out(changed, 'Create or Update').map((json) => json.action), ['unchanged', 'updated', 'unchanged']);
			for (const row of rows) assert.equal(sandbox.candidates(COMPANY).filter((c) => c.email === row.email).length, 1, row.email);
		});

		test('a retried failed execution creates nothing twice', async () => {
			const { rest, sandbox } = stack;
			const target = await activeWorkflow('retry');
			const rows = [1, 2, 3, 4].map((n) => ({ email: `upsert.retry.${line}.${n}@example.test`, city: 'Berlin' }));
			// The first execution: its session ends after two creations, the login after it is refused: it fails.
			sandbox.setFaults({ paths: [CANDIDATE_PATH], sessionRequestLimit: 2, loginScript: [{ ok: true }, { status: 401 }] });
			let failed;
			const start = sandbox.requests.length;
			try {
				failed = await trigger(target, rows);
			} finally {
				sandbox.setFaults({});
			}
			assert.equal(failed.status, 'error');
			const before = sandbox.requests.length;
			const firstRun = created(sandbox.requests.slice(start, before)).map((r) => r.body?.email);
			assert.ok(firstRun.length >= 1 && firstRun.length < rows.length, `the failed run created some rows: ${firstRun}`);
			const seen = new Set(((await rest.listExecutions({ workflowId: target.workflow.id })).results ?? []).map((e) => String(e.id)));
			// n8n's "Retry" of a failed execution (with the workflow as it was), as the executions list offers it.
			await rest.post(`/executions/${failed.id}/retry`, { loadWorkflow: false });
			let retry;
			for (let tries = 0; tries < 240 && !retry; tries++) {
				retry = ((await rest.listExecutions({ workflowId: target.workflow.id })).results ?? []).find((e) => !seen.has(String(e.id)));
				if (!retry) await new Promise((resolve) => setTimeout(resolve, 250));
			}
			assert.ok(retry, 'n8n started a retry execution');
			const finished = await rest.waitForExecution(retry.id);
			assert.equal(finished.status, 'success', JSON.stringify(finished.error ?? null));
			const sent = sandbox.requests.slice(before);
			// The retry creates exactly the rows the failed run had not created.
			const notYet = rows.map((row) => row.email).filter((email) => !firstRun.includes(email));
			assert.deepEqual(created(sent).map((r) => r.body?.email), notYet, JSON.stringify(sent.map((r) => [r.method, r.path, r.status])));
			assert.deepEqual(out(finished, 'Create or Update').map((json) => json.action), rows.map((row) => (firstRun.includes(row.email) ? 'unchanged' : 'created')));
			for (const row of rows) assert.equal(sandbox.candidates(COMPANY).filter((c) => c.email === row.email).length, 1, row.email);
		});

		test('a manual execution creates; n8n saves no static data for it, but this n8n process remembers it: a second manual run sends nothing (issue 25)', async () => {
			const { rest, sandbox } = stack;
			await rest.createCredential(CREDENTIAL_TYPE, 'e2e upsert manual', credentialData(sandbox.url, 'emailPassword'));
			const emails = [1, 2].map((n) => `upsert.manual.${line}.${n}@example.test`);
			const node = upsertNode('um-3', 'e2e upsert manual');
			node.onError = 'continueRegularOutput';
			// a manual run creates only when the user chose it (issue 39, trap 3)
			node.parameters.options.createInManualRuns = true;
			const workflow = await rest.importWorkflow({
				name: 'e2e: Create or Update (manual)',
				nodes: [
					{ id: 'um-1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					rowsNode('um-2', `return ${JSON.stringify(emails)}.map((email) => ({ json: { email, city: 'Berlin' } }));`),
					node,
				],
				connections: connections('Start'),
			});
			const first = await rest.runWorkflow(workflow.id);
			assert.deepEqual(out(first, 'Create or Update').map((json) => json.action), ['created', 'created']);
			const before = sandbox.requests.length;
			const second = await rest.runWorkflow(workflow.id);
			assert.deepEqual(out(second, 'Create or Update').map((json) => json.action), ['unchanged', 'unchanged']);
			assert.equal(sandbox.requests.length - before, 0, 'the second manual run sent nothing');
			for (const email of emails) assert.equal(sandbox.candidates(COMPANY).filter((c) => c.email === email).length, 1, email);
		});
	});

	describe('example workflows', () => {
		const example = (key) => EXAMPLES.find((e) => e.key === key);

		test('reference-lists.json exports the four lists', async () => {
			const { execution } = await runExample(stack.rest, example('lists'));
			assert.equal(execution.status, 'success', JSON.stringify(execution.error));
			assert.equal(out(execution, 'Business areas').length, 16);
			assert.equal(out(execution, 'Job types').length, 12);
			assert.equal(out(execution, 'Language skills').length, 140);
			assert.equal(out(execution, 'University degrees').length, 24);
			const [doc] = out(execution, 'Export');
			assert.equal(doc.languageSkills.length, 140);
			assert.ok(doc.languageSkills.some((l) => l.id === 26 && l.value === 'English'), 'lang=en names expected');
			assert.ok(doc.jobTypes.some((j) => j.id === 2 && j.name_eng === 'Working student'));
		});

		test('form-candidates.json: create, update, job, IT skills and languages by name', async () => {
			const { execution } = await runExample(stack.rest, example('form'));
			assert.equal(execution.status, 'success', JSON.stringify(execution.error ?? execution.lastNodeExecuted));
			assert.equal(out(execution, 'Form rows').length, 3, `nodes that ran: ${Object.keys(execution.runData ?? {}).join(', ')}`);
			assert.equal(out(execution, 'Create candidate').length, 3);
			for (const item of out(execution, 'Create candidate')) assert.ok(item.slug, 'create returns the slug');

			const lena = byEmail('lena.fischer@example.test');
			assert.ok(lena, 'Lena was stored');
			assert.equal(lena.first_name, 'Lena');
			assert.equal(lena.last_name, 'Fischer');
			assert.equal(lena.zip_code, '10119');
			assert.equal(lena.birthday, '12-04-1999');
			assert.equal(lena.source, 'Careers page form');
			assert.deepEqual(lena.records.itSkills.map((s) => [s.skill_name, s.skill_level_id]).sort(), [['Python', 4], ['SQL', 3]]);
			assert.deepEqual(lena.records.languages.map((l) => l.language_id).sort((a, b) => a - b), [23, 26]);
			assert.equal(lena.records.jobs.length, 1);
			assert.equal(lena.records.jobs[0].job_type_id, 2); // "Working student"
			assert.equal(lena.records.jobs[0].start_date, '01-10-2023');

			const omar = byEmail('omar.haddad@example.test');
			assert.equal(omar.birthday, '14-09-1996'); // typed as 14.09.1996
			assert.deepEqual(omar.records.languages.map((l) => l.language_id).sort((a, b) => a - b), [5, 26]); // Arabic, "english"
			assert.equal(omar.records.jobs[0].job_type_id, 4); // "Permanent position"

			const sofia = stack.sandbox.candidates(COMPANY).find((c) => c.phone === '+49 170 9876543');
			assert.ok(sofia, 'Sofia (phone only) was stored');
			assert.deepEqual(sofia.records.languages.map((l) => l.language_id).sort((a, b) => a - b), [26, 53]); // " ENGLISH ", Italian
			assert.equal(sofia.records.jobs[0].job_type_id, 1); // "Praktikant"
			assert.equal(sofia.records.itSkills.length, 2);
		});

		test('form-import.json: one Candidate Import creates the candidate with all its records', async () => {
			const { execution } = await runExample(stack.rest, example('import'));
			assert.equal(execution.status, 'success', JSON.stringify(execution.error ?? execution.lastNodeExecuted));
			assert.equal(out(execution, 'Import candidate').length, 1);
			const jonas = byEmail('jonas.weber@example.test');
			assert.ok(jonas, 'the imported candidate was stored');
			assert.equal(jonas.first_name, 'Jonas');
			assert.equal(jonas.birthday, '21-08-1997');
			assert.equal(jonas.records.jobs.length, 2);
			assert.equal(jonas.records.universities.length, 1);
			assert.equal(jonas.records.itSkills.length, 3);
			assert.deepEqual(jonas.records.languages.map((l) => l.language_id).sort((a, b) => a - b), [23, 26, 28]);
		});

		test('spreadsheet-sync.json: the sheet → Create or Update → the same sheet with slug, syncState and action; run twice as production executions, the second reports every row unchanged and sends nothing; then an edited row is updated and a broken one written back as failed', async () => {
			const { sandbox } = stack;
			const sample = parseCsv(fs.readFileSync(path.join(examplesDir, SYNC.sampleCsv), 'utf8'));
			assert.equal(sample.rows.length, 15);
			const emails = sample.rows.map((row) => row.email);
			assert.equal(new Set(emails).size, emails.length, 'the sample has one row per e-mail');
			for (const email of emails) assert.equal(byEmail(email), undefined, `${email} is not in the service before the first run`);
			const entries = (text) => text.split(';').filter((part) => part.trim() !== '').length;

			const sync = await setUpSpreadsheetSync(stack);
			const triggers = sync.workflow.nodes.filter((node) => /Trigger$|\.webhook$/.test(node.type)).map((node) => node.type).sort();
			// a Manual Trigger for a test run (issue 34), the schedule and the webhook enabled as the example's checklist says
			assert.deepEqual(triggers, ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.webhook']);
			assert.deepEqual(sync.workflow.nodes.filter((node) => node.disabled).map((node) => node.name), []);
			const first = await runSpreadsheetSyncOnce(stack, sync);
			assert.equal(first.execution.status, 'success', JSON.stringify(first.execution.error ?? first.execution.lastNodeExecuted));
			assert.equal(first.execution.mode, 'webhook', 'a production execution');
			assert.equal(out(first.execution, SYNC.rowsNode).length, 15, 'Extract from File read every CSV row');
			assert.deepEqual(first.actions, emails.map(() => 'created'));
			// the written sheet: every column as read, then slug, action and error
			assert.ok(first.file, `${SYNC.outputFile} was written`);
			assert.deepEqual(first.file.columns, [...sample.columns, ...SYNC.addedColumns]);
			assert.equal(first.file.rows.length, 15);
			const slugs = new Map();
			for (const [index, row] of first.file.rows.entries()) {
				for (const column of sample.columns) assert.equal(row[column], sample.rows[index][column], `row ${index + 1}, ${column}`);
				assert.equal(row.action, 'created', row.email);
				assert.equal(row.error, '', row.email);
				assert.notEqual(row.syncState, '', `${row.email}: the sheet keeps the row's sync state`);
				const stored = sandbox.candidates(COMPANY).filter((c) => c.email === row.email);
				assert.equal(stored.length, 1, `${row.email} is stored once`);
				const [candidate] = stored;
				assert.equal(row.slug, candidate.slug, `${row.email}: the slug in the file is the stored candidate's`);
				assert.equal(candidate.first_name, row.first_name);
				assert.equal(candidate.last_name, row.last_name);
				assert.equal(candidate.city, row.city);
				assert.equal(candidate.records.itSkills.length, entries(row.it_skills), `${row.email}: IT skills`);
				assert.equal(candidate.records.languages.length, entries(row.languages), `${row.email}: languages`);
				slugs.set(row.email, row.slug);
			}
			assert.ok(first.sent >= 15, `the first run sent requests (${first.sent})`);

			const second = await runSpreadsheetSyncOnce(stack, sync);
			assert.equal(second.execution.status, 'success', JSON.stringify(second.execution.error ?? second.execution.lastNodeExecuted));
			assert.equal(second.execution.mode, 'webhook');
			assert.notEqual(second.execution.id, first.execution.id);
			assert.deepEqual(second.actions, emails.map(() => 'unchanged'));
			// languages resolve to IDs before they are compared (issue 25, defect 5): `sent` leaves reference-list reads apart
			assert.equal(second.sent, 0, 'the second run sent no request to the service but reference-list reads (not even a login)');
			assert.ok(second.file, `${SYNC.outputFile} was written again`);
			assert.deepEqual(second.file.columns, [...sample.columns, ...SYNC.addedColumns]);
			assert.deepEqual(second.file.rows.map((row) => row.email), emails);
			for (const row of second.file.rows) {
				assert.equal(row.action, 'unchanged', row.email);
				assert.equal(row.slug, slugs.get(row.email), `${row.email}: the same slug`);
			}
			for (const email of emails) assert.equal(sandbox.candidates(COMPANY).filter((c) => c.email === email).length, 1, email);

			// A third run over the sheet as the user edits it: one city changed, one row with a broken e-mail added.
			const quote = (value) => (/[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value ?? ''));
			const edited = `${second.file.columns.join(',')}\n${second.file.rows
				.map((row, index) => ({ ...row, city: index === 1 ? 'Potsdam' : row.city }))
				.concat([{ email: 'not-an-email', first_name: 'Nina', last_name: 'Vogel', city: 'Kiel', it_skills: '', languages: '' }])
				.map((row) => second.file.columns.map((column) => quote(row[column] ?? '')).join(','))
				.join('\n')}\n`;
			fs.writeFileSync(sync.input, edited);
			const before = sandbox.requests.length;
			const third = await runSpreadsheetSyncOnce(stack, sync);
			assert.equal(third.execution.status, 'success', JSON.stringify(third.execution.error ?? third.execution.lastNodeExecuted));
			const expected = [...emails.map((_, index) => (index === 1 ? 'updated' : 'unchanged')), 'failed'];
			assert.deepEqual(third.actions, expected);
			assert.deepEqual(third.file.rows.map((row) => row.action), expected);
			assert.equal(third.file.rows[1].slug, slugs.get(emails[1]));
			assert.equal(byEmail(emails[1]).city, 'Potsdam', 'the changed city reached the service');
			const broken = third.file.rows[15];
			assert.equal(broken.email, 'not-an-email');
			assert.equal(broken.slug, '');
			assert.match(broken.error, /e-?mail/i);
			assert.deepEqual(third.file.rows.slice(0, 15).map((row) => row.error), emails.map(() => ''));
			const sent = sandbox.requests.slice(before);
			assert.equal(sent.filter((r) => r.method === 'POST' && r.path === '/gin/v1/company/candidate').length, 0, 'no candidate created');
			for (const email of emails) assert.equal(sandbox.candidates(COMPANY).filter((c) => c.email === email).length, 1, email);
		});

		test('the file nodes may read only inside N8N_RESTRICT_FILE_ACCESS_TO (the stack\'s files folder)', async () => {
			const { rest, filesDir } = stack;
			const inside = path.join(filesDir, 'inside.csv');
			const outside = path.join(path.dirname(filesDir), `outside-${process.pid}-${Date.now()}.csv`);
			fs.writeFileSync(inside, 'a\n1\n');
			fs.writeFileSync(outside, 'a\n1\n');
			try {
				const read = (file, id) => ({ id, name: `Read ${id}`, type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, id === 'in' ? 0 : 200], parameters: { fileSelector: file, options: {} }, onError: 'continueRegularOutput' });
				const workflow = await rest.importWorkflow({
					name: 'e2e: file access',
					nodes: [{ id: 'fa-1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }, read(inside, 'in'), read(outside, 'out')],
					connections: { Start: { main: [[{ node: 'Read in', type: 'main', index: 0 }, { node: 'Read out', type: 'main', index: 0 }]] } },
				});
				const execution = await rest.runWorkflow(workflow.id);
				assert.equal(out(execution, 'Read in')[0]?.fileName, 'inside.csv', JSON.stringify(out(execution, 'Read in')));
				assert.match(String(out(execution, 'Read out')[0]?.error), /not allowed/i, JSON.stringify(out(execution, 'Read out')));
			} finally {
				fs.rmSync(inside, { force: true });
				fs.rmSync(outside, { force: true });
			}
		});

		test('issue 39 trap 8: spreadsheet-sync.json with the sheet written as ~/.n8n-files/candidates.csv stops at "Check the sheet", saying that n8n does not expand "~", without a stray "[line N]"', async () => {
			const json = loadExample('spreadsheet-sync.json');
			json.name = 'e2e: sheet path with ~';
			for (const assignment of json.nodes.find((node) => node.name === SYNC.pathsNode).parameters.assignments.assignments) assignment.value = '~/.n8n-files/candidates.csv';
			const workflow = await stack.rest.importWorkflow(json);
			const execution = await runManually(stack.rest, workflow.id, 'Preview the sync');
			assert.equal(execution.status, 'error');
			assert.equal(execution.lastNodeExecuted, 'Check the sheet');
			const message = String(execution.runData['Check the sheet'].at(-1).error.message);
			assert.match(message, /^No sheet at ~\/\.n8n-files\/candidates\.csv \(n8n does not expand "~": write the full path, such as \/home\/node\/\.n8n-files\/candidates\.csv\): put candidates\.csv there, or set sheetFile in the "File paths" node/);
			assert.doesNotMatch(message, /\[line \d+/);
		});

		test('spreadsheet-batch.json: 200 rows, bad ones on the error outputs, the rest stored', async () => {
			const before = new Set(stack.sandbox.candidates(COMPANY).map((c) => c.slug));
			const { execution } = await runExample(stack.rest, example('batch'));
			assert.equal(execution.status, 'success', JSON.stringify(execution.error ?? execution.lastNodeExecuted));
			const added = stack.sandbox.candidates(COMPANY).filter((c) => !before.has(c.slug));

			const failures = batchFailures(execution);
			const rowsOf = (step) => failures.filter((f) => f.step === step).map((f) => f.row);
			assert.deepEqual(rowsOf('create candidate'), [17, 57, 97, 137, 177]);
			assert.deepEqual(rowsOf('update profile'), [23, 73, 123, 173]);
			assert.deepEqual(rowsOf('add language'), [41, 91, 141, 191]);
			for (const f of failures) {
				assert.equal(typeof f.error, 'string', `row ${f.row}: error item without a message: ${JSON.stringify(f)}`);
				if (f.step === 'create candidate') assert.match(f.error, /email|phone/i);
				if (f.step === 'update profile') assert.match(f.error, /birthday/i);
				if (f.step === 'update profile') assert.match(f.error, /31\.02\.1990/);
				if (f.step === 'add language') assert.match(f.error, /klingon/i);
			}
			// items on the error outputs keep their link to the input row
			for (const node of ['Create candidate', 'Update profile', 'Add language']) {
				for (const item of (execution.runData[node]?.at(-1)?.data?.main?.[1] ?? [])) assert.ok(item.pairedItem !== undefined, `${node}: error item without pairedItem`);
			}

			assert.equal(out(execution, 'Create candidate').length, 195);
			assert.equal(out(execution, 'Update profile').length, 191);
			assert.equal(out(execution, 'Add language').length, 187);
			assert.equal(added.length, 195);
			assert.equal(added.filter((c) => c.records.languages.length === 1).length, 187);
			const row1 = added.find((c) => c.email === 'batch.candidate.1@example.test');
			assert.equal(norm(row1.first_name), norm('Ben'));
			assert.equal(row1.birthday, '02-02-1981');
			assert.equal(row1.records.languages[0].language_id, 23); // languages[1 % 7] = 'German'
		});
	});
});
