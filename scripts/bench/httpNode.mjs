// Benchmark client (c): n8n's own HTTP Request node (n8n-nodes-base from the real n8n install
// under .cache/n8n/, made by scripts/n8n/install.mjs) creating the candidates, run through
// n8n-core's WorkflowExecute as the Recruiting node is in the harness. Its Batching option takes
// "Items per Batch" and "Batch Interval": it sleeps the interval before each batch but the first
// and never waits for answers (n8n-nodes-base HttpRequestV3: `if (itemIndex % batchSize === 0)
// await sleep(batchInterval)`, then one Promise.allSettled over all items); interval 0 turns the
// pause off, so every item is in flight at once. Like for like with a client that keeps C
// requests in flight means batches of C with an interval of the service's answer time.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const require = createRequire(path.join(repoRoot, 'package.json'));

/** The newest n8n install that has the HTTP Request node, or a reason why there is none. */
export function findHttpRequestNode() {
	// Where scripts/n8n/install.mjs puts its installs: $N8N_INSTALL_DIR, else .cache/n8n.
	const root = process.env.N8N_INSTALL_DIR ? path.resolve(process.env.N8N_INSTALL_DIR) : path.join(repoRoot, '.cache', 'n8n');
	const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+\.\d+\.\d+$/.test(name)) : [];
	versions.sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
	for (const version of versions) {
		const complete = fs.existsSync(path.join(root, version, '.n8n-install-complete.json'));
		const file = path.join(root, version, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'V3', 'HttpRequestV3.node.js');
		if (complete && fs.existsSync(file)) return { file, version };
	}
	return { reason: 'no complete n8n install with n8n-nodes-base in $N8N_INSTALL_DIR or .cache/n8n (run scripts/n8n/install.mjs)' };
}

export async function runHttpRequestNode({ url, token, concurrency, batchIntervalMs = 0 }) {
	const found = findHttpRequestNode();
	if (!found.file) throw new Error(found.reason);
	const { HttpRequestV3 } = require(found.file);
	const { WorkflowExecute, ExecutionLifecycleHooks } = require('n8n-core');
	const { Workflow, NodeConnectionTypes, createDeferredPromise, createRunExecutionData } = require('n8n-workflow');
	const { TestCredentialsHelper, stopEngineTimers } = require(path.join(repoRoot, 'test', 'helpers', 'harness.ts'));

	const httpNode = new HttpRequestV3({
		displayName: 'HTTP Request',
		name: 'httpRequest',
		group: ['output'],
		subtitle: '',
		description: 'Makes an HTTP request',
		defaultVersion: 4.2,
	});
	class InputItems {
		description = {
			displayName: 'Input Items',
			name: 'inputItems',
			group: ['input'],
			version: 1,
			description: '',
			defaults: { name: 'Input Items' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		};
		async execute() {
			return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
		}
	}
	let items = [];
	const types = { 'test.inputItems': new InputItems(), 'n8n-nodes-base.httpRequest': httpNode };
	const nodeTypes = {
		getByName: (type) => types[type],
		getByNameAndVersion: (type) => types[type],
		getKnownTypes: () => ({}),
	};
	const nodes = [
		{ id: 'in', name: 'Input Items', type: 'test.inputItems', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'http',
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			onError: 'continueRegularOutput',
			parameters: {
				method: 'POST',
				url: `${url}/gin/v1/company/candidate`,
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${token}` }] },
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: {
					parameters: [
						{ name: 'email', value: '={{ $json.email }}' },
						{ name: 'source', value: '={{ $json.source }}' },
					],
				},
				options: { batching: { batch: { batchSize: concurrency, batchInterval: batchIntervalMs } } },
			},
		},
	];
	const connections = { 'Input Items': { main: [[{ node: 'HTTP Request', type: NodeConnectionTypes.Main, index: 0 }]] } };
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper(),
		executeWorkflow: async () => {
			throw new Error('not available');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		variables: {},
		logAiEvent: () => undefined,
	};

	return {
		async run(rows) {
			items = rows;
			const workflow = new Workflow({ id: 'wf-bench', nodes, connections, nodeTypes, active: false, settings: {} });
			const hooks = new ExecutionLifecycleHooks('manual', 'exec-bench', { id: 'wf-bench', name: 'bench', nodes, connections, settings: {} });
			const done = createDeferredPromise();
			hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));
			const execute = new WorkflowExecute(
				{ ...additionalData, hooks },
				'manual',
				createRunExecutionData({ executionData: { nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }] } }),
			);
			await execute.processRunExecutionData(workflow);
			const run = await done.promise;
			const task = run.data.resultData.runData['HTTP Request']?.[0];
			if (!task) throw new Error(`the HTTP Request node did not run: ${run.data.resultData.error?.message}`);
			if (task.error) throw new Error(`HTTP Request node: ${task.error.message}`);
			const output = task.data.main[0];
			if (output.length !== rows.length) throw new Error(`HTTP Request node: ${output.length} outputs for ${rows.length} items`);
			return { failed: output.filter((item) => item.json.error !== undefined || typeof item.json.data?.slug !== 'string').length };
		},
		close: () => stopEngineTimers(),
		version: found.version,
	};
}
