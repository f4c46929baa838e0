// A scripted stand-in for an OpenAI chat model, as the sandbox is for the recruiting service: an
// HTTP server that speaks the Chat Completions protocol (POST /v1/chat/completions, plain JSON or
// server-sent events with `stream: true`, tool calls included; GET /v1/models), checks each
// request as OpenAI does (roles, a tool message answers an earlier tool call by its id, every tool
// call is answered, tool names and JSON schemas) and answers from a script instead of a model.
// n8n's *OpenAI Chat Model* node reaches it through an OpenAI credential whose Base URL is
// `<url>/v1`. Used by test/e2e/agent.test.mjs.
//
//   const model = await startModel({ script: recruiterScript, apiKey });
//   model.url          // http://127.0.0.1:<port>/v1
//   model.requests     // [{ path, body, raw, authorization, violations, answer }]
//   await model.close();

import { randomBytes } from 'node:crypto';
import http from 'node:http';

export const MODEL_ID = 'gpt-4o-mini';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * What OpenAI would refuse in a Chat Completions request (400 invalid_request_error), as a list
 * of messages; empty when the request is well formed.
 */
export function violations(body) {
	const found = [];
	if (!body || typeof body !== 'object') return ['the body is not a JSON object'];
	if (typeof body.model !== 'string' || body.model === '') found.push('model: missing');
	if (!Array.isArray(body.messages) || body.messages.length === 0) return [...found, 'messages: must be a non-empty array'];
	const open = new Set(); // tool call ids of the last assistant message not answered yet
	body.messages.forEach((message, i) => {
		if (!ROLES.has(message?.role)) found.push(`messages[${i}].role: "${message?.role}" is not a role`);
		if (message.role === 'tool') {
			if (!open.has(message.tool_call_id)) {
				found.push(`messages[${i}]: a message with role 'tool' must be a response to a preceding message with 'tool_calls' (id ${message.tool_call_id})`);
			}
			open.delete(message.tool_call_id);
			if (typeof message.content !== 'string' && !Array.isArray(message.content)) found.push(`messages[${i}].content: missing`);
			return;
		}
		if (open.size > 0) {
			found.push(`messages[${i}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (${[...open].join(', ')})`);
			open.clear();
		}
		if (message.role === 'assistant') {
			for (const call of message.tool_calls ?? []) {
				if (call.type !== 'function' || typeof call.id !== 'string') found.push(`messages[${i}].tool_calls: a call without id or type function`);
				try {
					JSON.parse(call.function?.arguments);
				} catch {
					found.push(`messages[${i}].tool_calls: arguments of ${call.id} are not JSON`);
				}
				open.add(call.id);
			}
		} else if (Array.isArray(message.content) ? message.content.length === 0 : typeof message.content !== 'string') {
			found.push(`messages[${i}].content: must be a string or a non-empty array`);
		}
	});
	if (open.size > 0) found.push(`messages: tool calls not answered (${[...open].join(', ')})`);
	for (const [i, tool] of (body.tools ?? []).entries()) {
		const fn = tool?.function;
		if (tool?.type !== 'function' || !fn) {
			found.push(`tools[${i}]: must be { type: 'function', function }`);
			continue;
		}
		if (!TOOL_NAME.test(fn.name ?? '')) found.push(`tools[${i}].function.name: "${fn.name}" does not match ${TOOL_NAME}`);
		if (fn.parameters !== undefined && (fn.parameters?.type !== 'object' || typeof fn.parameters.properties !== 'object')) {
			found.push(`tools[${i}].function.parameters: not a JSON schema of an object`);
		}
	}
	return found;
}

const lastOf = (messages, role) => [...messages].reverse().find((m) => m.role === role);
const textOf = (content) => (Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : String(content ?? ''));

/**
 * The script of a recruiter's assistant: a user's sentence such as "File Ada Lovelace,
 * ada@example.com, English level 4, born 10.12.1995" becomes one call of the tool named
 * `Create_or_update_candidate` (with the arguments that tool's schema offers); the tool's answer
 * becomes the final message: the slug and action of what it filed, or the error it read (quoted),
 * or that the tool said nothing.
 * @returns {{ content: string } | { toolCalls: { name: string, arguments: object }[] }}
 */
export function recruiterScript(body) {
	const last = body.messages.at(-1);
	if (last.role === 'tool') {
		const answer = textOf(last.content).trim();
		if (answer === '') return { content: 'The tool gave me no answer, so I cannot tell whether the candidate was filed.' };
		let items;
		try {
			items = JSON.parse(answer);
		} catch {}
		const item = Array.isArray(items) ? items[0] : items;
		if (item && typeof item === 'object' && typeof item.slug === 'string' && typeof item.action === 'string' && !item.error) {
			return { content: `Done: the candidate's slug is ${item.slug} (action: ${item.action}).` };
		}
		return { content: `The tool refused the request. It said: ${answer}` };
	}
	const tool = (body.tools ?? []).find((t) => t.function?.name === 'Create_or_update_candidate');
	const request = textOf(lastOf(body.messages, 'user')?.content);
	if (!tool) return { content: 'I have no tool to file candidates with.' };
	const args = {};
	const email = request.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/);
	if (email) args.email = email[0];
	const name = request.match(/^File\s+([A-Z][\w-]*)\s+([A-Z][\w-]*)/);
	if (name) [args.first_name, args.last_name] = [name[1], name[2]];
	const languages = [...request.matchAll(/\b([A-Z][a-z]+) level (\d)\b/g)].map((m) => `${m[1]}: ${m[2]}`);
	if (languages.length > 0) args.languages = languages.join('; ');
	const born = request.match(/\bborn (\S+?)(?:,|$|\s)/);
	if (born) args.birthday = born[1];
	const offered = new Set(Object.keys(tool.function.parameters?.properties ?? {}));
	return { toolCalls: [{ name: tool.function.name, arguments: Object.fromEntries(Object.entries(args).filter(([k]) => offered.has(k))) }] };
}

const id = (prefix) => `${prefix}${randomBytes(12).toString('hex')}`;

function completion(body, answer) {
	const created = Math.floor(Date.now() / 1000);
	const toolCalls = answer.toolCalls?.map((call) => ({ id: id('call_'), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
	const message = toolCalls ? { role: 'assistant', content: null, tool_calls: toolCalls, refusal: null } : { role: 'assistant', content: answer.content, refusal: null };
	const usage = { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: JSON.stringify(message).length >> 2 };
	usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
	return {
		id: id('chatcmpl-'),
		object: 'chat.completion',
		created,
		model: body.model,
		system_fingerprint: 'fp_scripted',
		choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls ? 'tool_calls' : 'stop' }],
		usage,
	};
}

/** The same completion as the chunks OpenAI streams (`chat.completion.chunk`). */
function chunks(body, full) {
	const { message, finish_reason } = full.choices[0];
	const base = { id: full.id, object: 'chat.completion.chunk', created: full.created, model: full.model, system_fingerprint: full.system_fingerprint };
	const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
	const out = [chunk({ role: 'assistant', content: message.tool_calls ? null : '', refusal: null })];
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => {
			out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
			const args = call.function.arguments;
			for (let i = 0; i < args.length; i += 16) out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + 16) } }] }));
		});
	} else {
		for (const word of message.content.match(/\S+\s*/g) ?? []) out.push(chunk({ content: word }));
	}
	out.push(chunk({}, finish_reason));
	if (body.stream_options?.include_usage) out.push({ ...base, choices: [], usage: full.usage });
	return out;
}

function send(res, status, json) {
	const text = JSON.stringify(json);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

const openAiError = (message, type = 'invalid_request_error', code = null) => ({ error: { message, type, param: null, code } });

/**
 * Starts the stand-in on a free port of 127.0.0.1.
 * @param {{ script?: (body: object) => ({ content: string } | { toolCalls: { name: string, arguments: object }[] }),
 *           apiKey?: string, port?: number }} [opts]
 *   apiKey: when given, a request without `Authorization: Bearer <apiKey>` is refused (401).
 */
export async function startModel({ script = recruiterScript, apiKey, port = 0 } = {}) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (part) => (raw += part));
		req.on('end', () => {
			const path = new URL(req.url, 'http://x').pathname.replace(/\/+$/, '');
			const entry = { method: req.method, path, raw, authorization: req.headers.authorization, body: undefined, violations: [], answer: undefined };
			requests.push(entry);
			if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
				return send(res, 401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
			}
			if (req.method === 'GET' && path === '/v1/models') {
				return send(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 1_700_000_000, owned_by: 'scripted' }] });
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				return send(res, 404, openAiError(`Unknown request URL: ${req.method} ${path}. The scripted model speaks only Chat Completions.`, 'invalid_request_error', 'unknown_url'));
			}
			try {
				entry.body = JSON.parse(raw);
			} catch {
				return send(res, 400, openAiError('We could not parse the JSON body of your request.'));
			}
			entry.violations = violations(entry.body);
			if (entry.violations.length > 0) return send(res, 400, openAiError(entry.violations.join('; ')));
			let full;
			try {
				entry.answer = script(entry.body);
				full = completion(entry.body, entry.answer);
			} catch (err) {
				entry.violations.push(`the script failed: ${err.message}`);
				return send(res, 500, openAiError(`The scripted model failed: ${err.message}`, 'server_error'));
			}
			if (!entry.body.stream) return send(res, 200, full);
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
			for (const chunk of chunks(entry.body, full)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
			res.end('data: [DONE]\n\n');
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return {
		url,
		requests,
		/** The Chat Completions requests (parsed), in order. */
		completions: () => requests.filter((r) => r.path === '/v1/chat/completions' && r.body),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
