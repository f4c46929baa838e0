// End-to-end: the Recruiting node as tools of n8n's MCP Server Trigger (examples/agent-tools.json),
// used by the official MCP TypeScript client (@modelcontextprotocol/sdk) over streamable HTTP,
// as a desktop assistant would: a real n8n (the packed package), the recruiting-service sandbox.
//
//   node --test test/e2e/mcp.test.mjs     (N8N_LINE=1 for n8n 1.123.50, default 2.41.1;
//                                           E2E_SKIP_BUILD=1 when dist/ is fresh)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { AGENT_TOOLS, callToolSettled, connectMcp, resultText, setUpAgentTools } from '../../scripts/n8n/mcp.mjs';
import { startStack } from '../../scripts/n8n/stack.mjs';
import { SEEDED_LOGIN as SANDBOX_LOGIN } from '../sandbox/index.mjs';

const line = process.env.N8N_LINE || '2';
const COMPANY = SANDBOX_LOGIN.companyId;
const T = AGENT_TOOLS.tools;

let stack;
let setup;
let client;
/** Every text the client received (the listing, every answer and error), checked for secrets at the end. */
const received = [];

const candidatesByEmail = (email) => stack.sandbox.candidates(COMPANY).filter((c) => c.email === email);

/**
 * Calls a tool as the agent does; returns { result, text, sent (the requests the sandbox received
 * meanwhile), writes (those that change something: all but GET, which reads a reference list) }.
 */
async function call(name, args) {
	const before = stack.sandbox.requests.length;
	// each call is one execution of the workflow; the next call starts after it ended (see callToolSettled)
	const { result, execution } = await callToolSettled(stack, setup, client, name, args);
	const text = resultText(result);
	received.push(text);
	const sent = stack.sandbox.requests.slice(before);
	return { result, text, sent, writes: sent.filter((r) => r.method !== 'GET'), execution };
}

/** The JSON items a successful tool answer carries (n8n answers with the node's output items). */
function itemsOf({ result, text }) {
	assert.notEqual(result.isError, true, `the tool answered an error: ${text}`);
	const items = JSON.parse(text);
	assert.ok(Array.isArray(items), text);
	return items;
}

before(
	async () => {
		stack = await startStack({ line, doBuild: process.env.E2E_SKIP_BUILD !== '1', log: (m) => console.log(`# ${m}`) });
		setup = await setUpAgentTools(stack);
		client = await connectMcp(setup);
	},
	{ timeout: 20 * 60_000 },
);

after(async () => {
	await client?.close().catch(() => {});
	await stack?.stop();
});

describe(`MCP Server Trigger with Recruiting tools, real n8n ${line}.x, official MCP client`, { timeout: 5 * 60_000 }, () => {
	let tools;
	let languageIds;
	let slug;
	const ada = {
		email: 'ada.lovelace@example.test',
		first_name: 'Ada',
		last_name: 'Lovelace',
		city: 'London',
		birthday: '10.12.1995',
		it_skills: 'TypeScript: 3, SQL: 2',
		languages: 'English: 4; Deutsch: 5',
	};

	test('without the Bearer token the trigger refuses the client (401)', async () => {
		// n8n answers 401 or 403 with "Authorization data is wrong!" / "Authorization is required!"
		const refused = (err) => [401, 403].includes(err.code) && /Authorization/.test(err.message);
		await assert.rejects(connectMcp({ url: setup.url, token: undefined }), refused);
		await assert.rejects(connectMcp({ url: setup.url, token: 'wrong-token' }), refused);
	});

	test('lists five tools an agent can tell apart, each saying what it does, needs and returns, with typed, described inputs', async (t) => {
		({ tools } = await client.listTools());
		received.push(JSON.stringify(tools));
		t.diagnostic(`tools as the client received them: ${JSON.stringify(tools)}`);
		assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(T).sort());
		for (const tool of tools) {
			assert.match(tool.description, /\bReturns\b/, `${tool.name}: says what it returns`);
			assert.ok(tool.description.length >= 120, `${tool.name}: a description an agent can act on`);
			assert.equal(tool.inputSchema.type, 'object');
			for (const [key, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
				assert.ok(['string', 'number'].includes(schema.type), `${tool.name}.${key} has a type`);
				assert.ok((schema.description ?? '').length >= 15, `${tool.name}.${key} has a description`);
			}
		}
		const upsert = tools.find((t) => t.name === T.upsert);
		assert.deepEqual(Object.keys(upsert.inputSchema.properties).sort(), ['birthday', 'city', 'email', 'first_name', 'it_skills', 'languages', 'last_name', 'phone']);
		assert.deepEqual(upsert.inputSchema.required, ['email']);
		assert.match(upsert.description, /e-mail/);
		assert.match(upsert.description, /slug/);
		assert.match(upsert.description, /created, updated .* unchanged/);
		assert.match(upsert.inputSchema.properties.birthday.description, /DD\.MM\.YYYY/);
		assert.match(upsert.inputSchema.properties.it_skills.description, /TypeScript: 3, SQL: 2/);
		assert.match(upsert.inputSchema.properties.languages.description, /English: 4; German: 5/);
		const add = tools.find((t) => t.name === T.addLanguage);
		assert.deepEqual(add.inputSchema.required?.slice().sort(), ['language', 'level', 'slug']);
		assert.equal(add.inputSchema.properties.level.type, 'number');
		for (const list of [T.jobTypes, T.languages]) {
			assert.deepEqual(tools.find((t) => t.name === list).inputSchema.properties ?? {}, {}, `${list} takes no input`);
		}
	});

	test('an SSE client at the same URL gets the same tools and can call them', async () => {
		const sse = await connectMcp(setup, { transport: 'sse' });
		try {
			const listed = await sse.listTools();
			received.push(JSON.stringify(listed.tools));
			assert.deepEqual(listed.tools.map((t) => t.name).sort(), Object.values(T).sort());
			const answer = await sse.callTool({ name: T.jobTypes, arguments: {} });
			received.push(resultText(answer));
			assert.notEqual(answer.isError, true, resultText(answer));
			assert.ok(JSON.parse(resultText(answer)).length > 0);
		} finally {
			await sse.close().catch(() => {});
		}
	});

	test('the reference lists give the IDs and names an agent needs', async () => {
		const languages = itemsOf(await call(T.languages, {}));
		assert.ok(languages.length > 50);
		languageIds = Object.fromEntries(languages.map((l) => [l.value, l.id]));
		assert.equal(typeof languageIds.English, 'number');
		assert.equal(typeof languageIds.German, 'number');
		const jobTypes = itemsOf(await call(T.jobTypes, {}));
		assert.ok(jobTypes.length > 0);
		assert.ok(jobTypes.every((j) => j.id !== undefined), JSON.stringify(jobTypes[0]));
	});

	test('Create or Update with arguments as a model writes them: created, and the sandbox holds exactly that candidate', async () => {
		const answer = await call(T.upsert, ada);
		const [item, ...more] = itemsOf(answer);
		assert.equal(more.length, 0);
		assert.equal(item.action, 'created');
		assert.match(item.slug, /\S/);
		slug = item.slug;
		const [candidate, ...twice] = candidatesByEmail(ada.email);
		assert.equal(twice.length, 0, 'one candidate');
		assert.equal(candidate.slug, slug);
		assert.equal(candidate.first_name, 'Ada');
		assert.equal(candidate.last_name, 'Lovelace');
		assert.equal(candidate.city, 'London');
		assert.equal(candidate.birthday, '10-12-1995'); // the service's DD-MM-YYYY
		assert.equal(candidate.source, 'AI agent (MCP)');
		assert.deepEqual(candidate.records.itSkills.map((r) => [r.skill_name, r.skill_level_id]), [['TypeScript', 3], ['SQL', 2]]);
		assert.deepEqual(candidate.records.languages.map((r) => [r.language_id, r.language_level_id]), [[languageIds.English, 4], [languageIds.German, 5]]);
		assert.deepEqual([candidate.records.jobs, candidate.records.universities, candidate.records.additionalInfo], [[], [], []]);
	});

	test('the same call again: unchanged, and nothing is sent to the service (the language list may be read)', async () => {
		const answer = await call(T.upsert, ada);
		const [item] = itemsOf(answer);
		assert.equal(item.action, 'unchanged');
		assert.equal(item.slug, slug);
		assert.deepEqual(answer.writes, []);
		// Each execution reads a reference list it needs once: the languages' names are compared as the IDs sent.
		assert.deepEqual(answer.sent.map((r) => `${r.method} ${r.path}`).filter((r) => r !== 'GET /v1/general/language-skills'), []);
		assert.equal(candidatesByEmail(ada.email).length, 1);
	});

	test('two calls for the same new candidate, the second before the first execution ended: one candidate, never two', async (t) => {
		// n8n saves Create or Update's memory when the execution ends, after it answered the client:
		// a second call in that moment finds the row only in the creation journal and is refused.
		const args = { email: 'twice.quick@example.test', first_name: 'Quick' };
		const first = await client.callTool({ name: T.upsert, arguments: args });
		const second = await client.callTool({ name: T.upsert, arguments: args });
		for (const r of [first, second]) received.push(resultText(r));
		assert.equal(JSON.parse(resultText(first))[0].action, 'created', resultText(first));
		if (second.isError) assert.match(resultText(second), /may already exist/);
		else assert.equal(JSON.parse(resultText(second))[0].action, 'unchanged');
		t.diagnostic(`the immediate second call was ${second.isError ? 'refused (may already exist)' : 'unchanged'}`);
		assert.equal(candidatesByEmail(args.email).length, 1);
	});

	test('Add language: by name, to the slug the first tool returned', async () => {
		const answer = await call(T.addLanguage, { slug, language: 'Spanish', level: 2 });
		const [item] = itemsOf(answer);
		assert.equal(item.slug, slug);
		const [candidate] = candidatesByEmail(ada.email);
		assert.deepEqual(candidate.records.languages.at(-1).language_level_id, 2);
		assert.equal(candidate.records.languages.length, 3);
	});

	describe('bad arguments: an error naming the field, the value and what is accepted', () => {
		const assertError = (answer, ...patterns) => {
			assert.equal(answer.result.isError, true, answer.text);
			for (const pattern of patterns) assert.match(answer.text, pattern);
		};

		test('no e-mail and no phone (left out): refused by the input schema, nothing sent', async () => {
			const answer = await call(T.upsert, { first_name: 'Nomail' });
			assertError(answer, /email/, /Required/);
			assert.deepEqual(answer.sent, []);
		});

		test('no e-mail and no phone (empty): the node names the empty Email and what it takes, nothing sent', async () => {
			const answer = await call(T.upsert, { email: '', phone: '', first_name: 'Nomail' });
			assertError(answer, /"Email" is empty/, /e-mail address such as jane\.doe@example\.com/, /Nothing was sent/);
			assert.deepEqual(answer.sent, []);
			assert.ok(!stack.sandbox.candidates(COMPANY).some((c) => c.first_name === 'Nomail'));
		});

		test('an impossible date (31.02.2024): field, value and accepted forms, nothing sent', async () => {
			const email = 'feb31@example.test';
			const answer = await call(T.upsert, { email, birthday: '31.02.2024' });
			assertError(answer, /"Birthday"/, /"31\.02\.2024"/, /not a real calendar date/, /Accepted forms: .*DD\.MM\.YYYY/);
			assert.deepEqual(answer.sent, []);
			assert.deepEqual(candidatesByEmail(email), []);
		});

		test('an unknown language in Create or Update: its name, the value and the closest languages; nothing sent', async () => {
			// The tool has Fail Item on Record Error on: the names are resolved before the candidate is
			// created, and a name that matches nothing fails the call before anything is written
			// (only the language list is read).
			const email = 'klingon@example.test';
			const answer = await call(T.upsert, { email, languages: 'Klingon: 3' });
			assertError(answer, /"Language"/, /"Klingon"/, /Closest: "[^"]+" \(ID \d+\)/, /Nothing was sent/);
			assert.deepEqual(answer.writes, []);
			assert.deepEqual(candidatesByEmail(email), []);
		});

		test('an unknown language in Add language: named with the closest ones, nothing sent', async () => {
			const answer = await call(T.addLanguage, { slug, language: 'Elvish', level: 2 });
			assertError(answer, /"Language"/, /"Elvish"/, /Closest: /);
			assert.deepEqual(answer.writes, []);
		});
	});

	test('no listing, answer or error holds a token, password or API key', () => {
		const state = stack.sandbox.state();
		const secrets = [
			SANDBOX_LOGIN.password,
			setup.token,
			...state.sessions.map((s) => s.token),
			...state.companies.flatMap((c) => (c.apiKeys ?? []).map((k) => k.value ?? k)),
		].filter((s) => typeof s === 'string' && s.length >= 6);
		assert.ok(secrets.length >= 3, 'the password, the MCP token and at least one session token');
		assert.ok(received.length >= 10);
		for (const text of received) {
			for (const secret of secrets) assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 3)}…) in: ${text.slice(0, 200)}`);
			assert.doesNotMatch(text, /Bearer\s+[A-Za-z0-9._~+/-]{8,}/);
		}
	});
});
