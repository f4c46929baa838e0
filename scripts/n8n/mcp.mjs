// The agent side of examples/agent-tools.json: sets the tools workflow up in a started stack
// (startStack) and connects the official MCP TypeScript client (@modelcontextprotocol/sdk) to its
// MCP Server Trigger, as a desktop assistant or any other MCP client would. Shared by the demo
// (scripts/demo.mjs) and the end-to-end test (test/e2e/mcp.test.mjs).
//
// What n8n needs (read in the installed 2.41.1 and 1.123.50 sources):
// - the node declares `usableAsTool: true`; n8n then generates the tool variant
//   `n8n-nodes-recruiting.recruitingTool` (display name "Recruiting Tool", output `ai_tool`, with
//   the extra parameters `descriptionType` / `toolDescription`). No environment variable is needed
//   on these versions (the old N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE is read by neither).
// - the MCP Server Trigger (`@n8n/n8n-nodes-langchain.mcpTrigger`, typeVersion 2) listens at
//   `/mcp/<path>` (production, the workflow active) and `/mcp-test/<path>` (test): streamable HTTP
//   by POST, SSE by GET on the same URL (typeVersion 1: `<path>/sse` and `<path>/messages`).
// - each `$fromAI(key, description, type, default)` in a tool's parameters becomes one property of
//   the tool's input schema, with that description; a property with a default is optional.

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { loadExample } from './stack.mjs';

export const AGENT_TOOLS = Object.freeze({
	file: 'agent-tools.json',
	path: 'recruiting-tools',
	bearerCredential: 'MCP clients (Bearer)',
	tools: Object.freeze({
		upsert: 'Create_or_update_candidate',
		preview: 'Preview_create_or_update_candidate',
		addLanguage: 'Add_language_to_candidate',
		jobTypes: 'List_job_types',
		languages: 'List_languages',
	}),
});

/**
 * Imports examples/agent-tools.json with a fresh Bearer credential for the MCP clients and
 * activates it. Returns { workflow, url, token }: the production URL of the trigger and the
 * token an MCP client sends.
 */
export async function setUpAgentTools(stack) {
	const token = randomBytes(24).toString('base64url');
	await stack.rest.createCredential('httpBearerAuth', AGENT_TOOLS.bearerCredential, { token });
	const workflow = await stack.rest.importWorkflow(loadExample(AGENT_TOOLS.file));
	await stack.rest.activateWorkflow(workflow.id);
	return { workflow, url: `${stack.n8n.url}/mcp/${AGENT_TOOLS.path}`, token };
}

/**
 * Connects an MCP client over streamable HTTP (or, with `transport: 'sse'`, the older SSE
 * transport at the same URL), retrying while n8n registers the trigger after the activation.
 * Returns the connected Client; close it with `client.close()`.
 */
export async function connectMcp({ url, token }, { name = 'recruiting-e2e', timeoutMs = 30_000, transport: kind = 'http' } = {}) {
	const started = Date.now();
	let lastError;
	while (Date.now() - started < timeoutMs) {
		const client = new Client({ name, version: '1.0.0' });
		const requestInit = { headers: token ? { authorization: `Bearer ${token}` } : {} };
		const transport = kind === 'sse' ? new SSEClientTransport(new URL(url), { requestInit }) : new StreamableHTTPClientTransport(new URL(url), { requestInit });
		try {
			await client.connect(transport);
			return client;
		} catch (err) {
			lastError = err;
			await client.close().catch(() => {});
			// 404 while the webhook is not registered yet; anything else is final
			if (!/404|not registered|not found/i.test(String(err?.message))) throw err;
			await sleep(250);
		}
	}
	throw lastError ?? new Error(`could not connect to ${url}`);
}

const executionIds = async (stack, workflowId) => ((await stack.rest.listExecutions({ workflowId })).results ?? []).map((e) => String(e.id));

/**
 * Calls a tool and waits until n8n has recorded the execution the call started as ended. n8n
 * answers the client as soon as the tool has run, and saves the workflow's static data (Create or
 * Update's memory) when that execution ends, a moment later: a call for the same new row made
 * before then finds the row only in the creation journal ("may already exist").
 * Returns { result, execution } (execution: n8n's list entry, with `id` and `status`).
 */
export async function callToolSettled(stack, setup, client, name, args, { timeoutMs = 30_000 } = {}) {
	const seen = new Set(await executionIds(stack, setup.workflow.id));
	const result = await client.callTool({ name, arguments: args });
	// A call answered with an error may leave no execution at all (n8n 1.123.50 records none).
	const deadline = Date.now() + (result.isError ? 2_000 : timeoutMs);
	for (;;) {
		const fresh = ((await stack.rest.listExecutions({ workflowId: setup.workflow.id })).results ?? []).filter((e) => !seen.has(String(e.id)));
		const ended = fresh.find((e) => !['new', 'running', 'waiting', 'unknown'].includes(e.status));
		if (ended) return { result, execution: ended };
		if (Date.now() > deadline) {
			if (result.isError) return { result, execution: undefined };
			throw new Error(`the call of ${name} left no ended execution within ${timeoutMs / 1000}s`);
		}
		await sleep(100);
	}
}

/** The text of a tool result (its text contents joined). */
export const resultText = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/** The tool list as an agent sees it, as lines for a terminal. */
export function describeTools(tools) {
	const lines = [];
	for (const tool of tools) {
		lines.push(`- ${tool.name}: ${tool.description}`);
		const props = tool.inputSchema?.properties ?? {};
		const required = new Set(tool.inputSchema?.required ?? []);
		for (const [key, schema] of Object.entries(props)) {
			lines.push(`    ${key} (${schema.type}${required.has(key) ? ', required' : ''}): ${schema.description ?? ''}`);
		}
		if (Object.keys(props).length === 0) lines.push('    (no input)');
	}
	return lines;
}
