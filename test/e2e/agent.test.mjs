// End-to-end: the Recruiting node as the tool of n8n's AI Agent node, the way most n8n users give a
// model tools: a Chat Trigger (public, webhook mode), an *AI Agent* with the *OpenAI Chat Model*
// node, and on its Tool input the Create or Update tool of examples/agent-tools.json. The model is
// scripts/n8n/model.mjs, a scripted stand-in that speaks Chat Completions with tool calls (the
// OpenAI credential's Base URL points at it): it reads the user's sentence, calls the tool,
// and answers from what the tool said. Run for AI Agent 3.1 and 2.2 (an earlier version, still in
// many saved workflows, that runs its tools in LangChain's AgentExecutor); on n8n 1.123.50 for 3 and 2.2.
//
//   node --test test/e2e/agent.test.mjs     (N8N_LINE=1 for n8n 1.123.50, default 2.41.1;
//                                             E2E_SKIP_BUILD=1 when dist/ is fresh)
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { MODEL_ID, startModel } from '../../scripts/n8n/model.mjs';
import { AGENT_TOOLS } from '../../scripts/n8n/mcp.mjs';
import { nodeOutput } from '../../scripts/n8n/server.mjs';
import { loadExample, startStack } from '../../scripts/n8n/stack.mjs';
import { SEEDED_LOGIN as SANDBOX_LOGIN } from '../sandbox/index.mjs';

const line = process.env.N8N_LINE || '2';
const COMPANY = SANDBOX_LOGIN.companyId;
const TOOL = AGENT_TOOLS.tools.upsert;
const OPENAI_CREDENTIAL = 'Scripted model (OpenAI API)';
const LANGCHAIN = '@n8n/n8n-nodes-langchain';

let stack;
let model;
const apiKey = `sk-scripted-${randomBytes(18).toString('base64url')}`;

/** The tool node of examples/agent-tools.json, as users copy it onto an agent's Tool input. */
function exampleTool() {
	const node = loadExample(AGENT_TOOLS.file).nodes.find((n) => n.name === 'Create or update candidate');
	assert.ok(node, 'examples/agent-tools.json has the Create or Update tool');
	return node;
}

/**
 * A workflow: Chat Trigger (public, webhook mode, answers with the last node's output) → AI Agent
 * (typeVersion `agentVersion`) with the OpenAI Chat Model (Chat Completions) and the tool.
 */
function agentWorkflow(agentVersion, webhookId, { onError } = {}) {
	const tool = { ...exampleTool(), id: randomUUID(), position: [200, 220], ...(onError ? { onError } : {}) };
	// AI Agent 2.x refuses a model on the Responses API; the OpenAI Chat Model 1.3 uses it unless
	// told not to: 1.2 for the agent 2.2 (as saved workflows of that time have it), 1.3 on Chat Completions for 3.x.
	const chatModel =
		agentVersion >= 3
			? { typeVersion: 1.3, parameters: { model: { __rl: true, mode: 'list', value: MODEL_ID }, responsesApiEnabled: false, options: {} } }
			: { typeVersion: 1.2, parameters: { model: { __rl: true, mode: 'list', value: MODEL_ID }, options: {} } };
	return {
		name: `e2e agent: AI Agent ${agentVersion} with the Recruiting tool`,
		nodes: [
			{
				id: randomUUID(),
				name: 'When chat message received',
				type: `${LANGCHAIN}.chatTrigger`,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId,
				parameters: { public: true, mode: 'webhook', options: { responseMode: 'lastNode' } },
			},
			{
				id: randomUUID(),
				name: 'AI Agent',
				type: `${LANGCHAIN}.agent`,
				typeVersion: agentVersion,
				position: [220, 0],
				parameters: {
					promptType: 'auto',
					options: { systemMessage: 'You are a recruiter\'s assistant. File candidates with the Create_or_update_candidate tool and tell the user its slug.' },
				},
			},
			{
				id: randomUUID(),
				name: 'OpenAI Chat Model',
				type: `${LANGCHAIN}.lmChatOpenAi`,
				position: [0, 220],
				...chatModel,
				credentials: { openAiApi: { name: OPENAI_CREDENTIAL } },
			},
			tool,
		],
		connections: {
			'When chat message received': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[tool.name]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const executionIds = async (workflowId) => ((await stack.rest.listExecutions({ workflowId })).results ?? []).map((e) => String(e.id));

/**
 * Sends one chat message to the workflow's production chat URL, as n8n's chat widget does, and
 * waits until n8n has recorded the execution it started as ended (Create or Update's memory is
 * saved when the execution ends). Returns { answer (the reply's text), execution, completions
 * (the requests the model received meanwhile), sent (the requests the service received) }.
 */
async function chat(target, message, { status = 200 } = {}) {
	const seen = new Set(await executionIds(target.workflow.id));
	const fromModel = model.completions().length;
	const fromService = stack.sandbox.requests.length;
	let res;
	for (let tries = 0; tries < 40; tries++) {
		res = await fetch(`${stack.n8n.url}/webhook/${target.webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: target.sessionId, chatInput: message }),
		});
		if (res.status !== 404) break; // the chat URL is registered shortly after the activation
		await sleep(250);
	}
	const text = await res.text();
	assert.equal(res.status, status, text);
	let execution;
	for (let tries = 0; tries < 240 && !execution; tries++) {
		const fresh = ((await stack.rest.listExecutions({ workflowId: target.workflow.id })).results ?? []).filter((e) => !seen.has(String(e.id)));
		const ended = fresh.find((e) => !['new', 'running', 'waiting', 'unknown'].includes(e.status));
		if (ended) execution = await stack.rest.waitForExecution(ended.id);
		else await sleep(250);
	}
	assert.ok(execution, 'the chat message started an execution that ended');
	let answer;
	try {
		const json = JSON.parse(text);
		answer = (Array.isArray(json) ? json[0] : json).output;
	} catch {
		answer = text;
	}
	return { answer, execution, text, completions: model.completions().slice(fromModel), sent: stack.sandbox.requests.slice(fromService) };
}

const candidatesByEmail = (email) => stack.sandbox.candidates(COMPANY).filter((c) => c.email === email);
const writes = (sent) => sent.filter((r) => r.method !== 'GET');

/** The tool messages the model received in `completions`, with the call they answer. */
function toolExchanges(completions) {
	const last = completions.at(-1)?.body.messages ?? [];
	const calls = new Map(last.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).map((c) => [c.id, c]));
	return last.filter((m) => m.role === 'tool').map((m) => ({ call: calls.get(m.tool_call_id), content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
}

before(
	async () => {
		model = await startModel({ apiKey });
		stack = await startStack({ line, doBuild: process.env.E2E_SKIP_BUILD !== '1', log: (m) => console.log(`# ${m}`) });
		console.log(`# [model] scripted OpenAI-compatible model at ${model.url}`);
		await stack.rest.createCredential('openAiApi', OPENAI_CREDENTIAL, { apiKey, url: model.url });
	},
	{ timeout: 20 * 60_000 },
);

after(async () => {
	await stack?.stop();
	await model?.close();
});

/** The AI Agent versions this n8n has (3.1 only where its node offers it). */
async function agentVersions() {
	// the editor's node list (served beside the REST API, not under /rest)
	const res = await fetch(`${stack.n8n.url}/types/nodes.json`, { headers: { cookie: stack.rest.cookie ?? '', 'browser-id': stack.rest.browserId } });
	assert.equal(res.status, 200);
	const agent = (await res.json()).filter((t) => t.name === `${LANGCHAIN}.agent`);
	const versions = new Set(agent.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version])));
	return [...versions];
}

/** The newest AI Agent of the line (n8n 1.123.50 has 3, 2.41.1 has 3.1) and 2.2, which both lines have. */
const AGENT_VERSIONS = line === '1' ? [3, 2.2] : [3.1, 2.2];

describe(`AI Agent with the Recruiting tool, a scripted model, real n8n ${line}.x`, { timeout: 10 * 60_000 }, () => {
	let versions;
	test('n8n has the AI Agent node, the OpenAI Chat Model and the Chat Trigger', async () => {
		versions = await agentVersions();
		for (const v of AGENT_VERSIONS) assert.ok(versions.includes(v), `AI Agent ${v} exists (found ${versions})`);
	});

	for (const agentVersion of AGENT_VERSIONS) {
		describe(`AI Agent ${agentVersion}`, () => {
			let target;
			let slug;
			const ada = { email: `ada.${String(agentVersion).replace('.', '')}.${line}@example.com` };

			before(async () => {
				if (!versions?.includes(agentVersion)) return;
				const webhookId = randomUUID();
				const workflow = await stack.rest.importWorkflow(agentWorkflow(agentVersion, webhookId));
				await stack.rest.activateWorkflow(workflow.id);
				target = { workflow, webhookId, sessionId: randomUUID() };
			});

			test('"File Ada Lovelace, …, English level 4": the agent calls the tool, the service holds her, the answer carries the slug', async (t) => {
				if (!target) return t.skip(`AI Agent ${agentVersion} is not in n8n ${line}.x`);
				const turn = await chat(target, `File Ada Lovelace, ${ada.email}, English level 4`);
				assert.equal(turn.execution.status, 'success', JSON.stringify(turn.execution.error ?? null));
				assert.equal(turn.completions.length, 2, 'the model was asked twice: for the tool call, then for the answer');

				// what n8n sends the model: the tool's name, description and JSON schema
				const [first] = turn.completions;
				t.diagnostic(`the first request the model received (abridged): ${JSON.stringify({ ...first.body, messages: first.body.messages.map((m) => ({ role: m.role, content: String(m.content).slice(0, 120) })) })}`);
				assert.deepEqual(first.violations, []);
				assert.equal(first.body.model, MODEL_ID);
				assert.deepEqual(first.body.tools.map((tool) => tool.function.name), [TOOL]);
				const fn = first.body.tools[0].function;
				assert.equal(fn.description, exampleTool().parameters.toolDescription);
				assert.equal(fn.parameters.type, 'object');
				assert.deepEqual(Object.keys(fn.parameters.properties).sort(), ['birthday', 'city', 'email', 'first_name', 'it_skills', 'languages', 'last_name', 'phone']);
				for (const [key, schema] of Object.entries(fn.parameters.properties)) {
					assert.equal(schema.type, 'string', `${key} is a string`);
					assert.ok((schema.description ?? '').length >= 15, `${key} has a description`);
				}
				assert.match(fn.parameters.properties.birthday.description, /DD\.MM\.YYYY/);
				assert.match(fn.parameters.properties.languages.description, /English: 4; German: 5/);
				assert.ok(fn.parameters.required?.includes('email'), `email is required: ${JSON.stringify(fn.parameters.required)}`);
				t.diagnostic(`required: ${JSON.stringify(fn.parameters.required)}`);
				assert.equal(first.body.messages.at(-1).role, 'user');
				assert.match(first.body.messages.at(-1).content, /File Ada Lovelace/);

				// the tool call and what the tool answered
				const [exchange, ...more] = toolExchanges(turn.completions);
				assert.equal(more.length, 0);
				assert.equal(exchange.call.function.name, TOOL);
				// what the model called (the script reads the tool's schema and the sentence) ...
				const called = { email: ada.email, first_name: 'Ada', last_name: 'Lovelace', languages: 'English: 4' };
				assert.deepEqual(first.answer.toolCalls, [{ name: TOOL, arguments: called }]);
				// ... and the call as n8n sends it back in the next request (AI Agent 3.x adds the call's id to its arguments)
				const { id: callId, ...sentBack } = JSON.parse(exchange.call.function.arguments);
				assert.deepEqual(sentBack, called);
				if (callId !== undefined) assert.equal(callId, exchange.call.id);
				const [item] = JSON.parse(exchange.content);
				assert.equal(item.action, 'created', exchange.content);
				slug = item.slug;
				assert.match(slug, /\S/);

				const [candidate, ...twice] = candidatesByEmail(ada.email);
				assert.equal(twice.length, 0, 'one candidate');
				assert.equal(candidate.slug, slug);
				assert.deepEqual([candidate.first_name, candidate.last_name], ['Ada', 'Lovelace']);
				assert.deepEqual(candidate.records.languages.map((r) => r.language_level_id), [4]);

				t.diagnostic(`the agent's answer: ${turn.answer}`);
				assert.match(turn.answer, new RegExp(`slug is ${slug}\\b`));
				assert.match(turn.answer, /created/);
			});

			test('the same request again: the tool answers unchanged, nothing is written, the answer says so', async (t) => {
				if (!target) return t.skip(`AI Agent ${agentVersion} is not in n8n ${line}.x`);
				assert.ok(slug, 'the first request filed her');
				const turn = await chat(target, `File Ada Lovelace, ${ada.email}, English level 4`);
				assert.equal(turn.execution.status, 'success', JSON.stringify(turn.execution.error ?? null));
				const [exchange] = toolExchanges(turn.completions);
				const [item] = JSON.parse(exchange.content);
				assert.deepEqual([item.action, item.slug], ['unchanged', slug]);
				assert.deepEqual(writes(turn.sent), []);
				assert.equal(candidatesByEmail(ada.email).length, 1);
				t.diagnostic(`the agent's answer: ${turn.answer}`);
				assert.match(turn.answer, new RegExp(`slug is ${slug} \\(action: unchanged\\)`));
			});

			test('a birthday that does not exist (31.02.2024): the model reads the error (field, value, accepted forms), nothing is sent', async (t) => {
				if (!target) return t.skip(`AI Agent ${agentVersion} is not in n8n ${line}.x`);
				const email = `grace.${String(agentVersion).replace('.', '')}.${line}@example.com`;
				const turn = await chat(target, `File Grace Hopper, ${email}, English level 3, born 31.02.2024`);
				const [exchange] = toolExchanges(turn.completions);
				assert.equal(JSON.parse(exchange.call.function.arguments).birthday, '31.02.2024');
				t.diagnostic(`the tool message the model received: ${exchange.content}`);
				assert.match(exchange.content, /"?Birthday"?/);
				assert.match(exchange.content, /31\.02\.2024/);
				assert.match(exchange.content, /not a real calendar date/);
				assert.match(exchange.content, /Accepted forms: .*DD\.MM\.YYYY/);
				// Issue 39 trap 5: the failed row keeps its identity.
				assert.match(exchange.content, new RegExp(`"action":"failed","matchedBy":"email","email":"${email.replace(/\./g, '\\.')}"`));
				assert.deepEqual(writes(turn.sent), []);
				assert.deepEqual(candidatesByEmail(email), []);
				t.diagnostic(`the agent's answer: ${turn.answer}`);
				assert.match(turn.answer, /refused .*not a real calendar date/s);
				// the agent's run ended with its answer: the tool's failure did not fail the execution
				assert.equal(turn.execution.status, 'success', JSON.stringify(turn.execution.error ?? null));
				assert.ok(nodeOutput(turn.execution, 'AI Agent').length === 1);
			});
		});
	}

	test(`AI Agent ${AGENT_VERSIONS[0]}, the tool's On Error set to Stop Workflow: a failed call stops the execution, as in any workflow`, async (t) => {
		const webhookId = randomUUID();
		const workflow = await stack.rest.importWorkflow(agentWorkflow(AGENT_VERSIONS[0], webhookId, { onError: 'stopWorkflow' }));
		await stack.rest.activateWorkflow(workflow.id);
		const email = `stop.${line}@example.com`;
		const turn = await chat({ workflow, webhookId, sessionId: randomUUID() }, `File Grace Hopper, ${email}, born 31.02.2024`, { status: 500 });
		assert.equal(turn.execution.status, 'error');
		assert.equal(turn.completions.length, 1, 'the model was not asked again');
		assert.deepEqual(candidatesByEmail(email), []);
		t.diagnostic(`the chat's answer: ${turn.text}`);
	});

	test('every request the model received was well formed, and none holds a password, token or API key', (t) => {
		const requests = model.requests.filter((r) => r.path === '/v1/chat/completions');
		assert.ok(requests.length >= 6, `${requests.length} requests`);
		for (const r of requests) assert.deepEqual(r.violations, [], r.raw.slice(0, 300));
		const state = stack.sandbox.state();
		const secrets = [
			SANDBOX_LOGIN.password,
			apiKey,
			...state.sessions.map((s) => s.token),
			...state.companies.flatMap((c) => (c.apiKeys ?? []).map((k) => k.value ?? k)),
		].filter((s) => typeof s === 'string' && s.length >= 6);
		assert.ok(secrets.length >= 3, 'the password, the model key and at least one session token');
		for (const r of requests) {
			for (const secret of secrets) assert.ok(!r.raw.includes(secret), `a secret (${secret.slice(0, 3)}…) in: ${r.raw.slice(0, 200)}`);
			assert.doesNotMatch(r.raw, /Bearer\s+[A-Za-z0-9._~+/-]{8,}/);
		}
		// the model key travels where OpenAI expects it, in the Authorization header only
		assert.ok(requests.every((r) => r.authorization === `Bearer ${apiKey}`));
		t.diagnostic(`${requests.length} requests checked against ${secrets.length} secrets`);
	});
});
