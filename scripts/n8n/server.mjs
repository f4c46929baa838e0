// Starts a real n8n (installed by ./install.mjs) with our package loaded as a community
// package, and gives a small client for n8n's internal REST API (/rest/...), the one the editor
// uses: owner setup and login, credentials, credential test, dropdown options, workflows,
// manual runs and executions.
//
//   const n8n = await startN8n({ line: '2', packageDir: repoRoot });
//   await n8n.rest.setupOwner();
//   ...
//   await n8n.stop();

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureN8n, logDir, n8nPaths } from './install.mjs';

export const NODE_TYPE = 'n8n-nodes-recruiting.recruiting';
export const CREDENTIAL_TYPE = 'recruitingApi';
export const DEFAULT_OWNER = Object.freeze({
	email: 'owner@recruiting.test',
	password: 'Recruiting-Demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
});

/** Ports this process handed out: never handed out twice (n8n instances started side by side took the same one). */
const handedOut = new Set();

/** A TCP port that is free on 127.0.0.1 right now, and not handed out before by this process. */
export async function freePort() {
	for (;;) {
		const port = await new Promise((resolve, reject) => {
			const srv = net.createServer();
			srv.unref();
			srv.on('error', reject);
			srv.listen(0, '127.0.0.1', () => {
				const { port } = srv.address();
				srv.close(() => resolve(port));
			});
		});
		if (handedOut.has(port)) continue;
		handedOut.add(port);
		return port;
	}
}

function tailOf(file, lines = 60) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** The environment n8n runs with: everything local, nothing phoning home. */
function n8nEnv({ port, brokerPort, userFolder, extra }) {
	const env = {};
	// Keep PATH/HOME/locale and the like, drop npm's run-script variables (npm_config_*, ...)
	// and any N8N_* of the caller so that runs are reproducible.
	for (const [k, v] of Object.entries(process.env)) {
		if (/^(npm_|N8N_|DB_|NODE_OPTIONS$|EXECUTIONS_)/i.test(k)) continue;
		env[k] = v;
	}
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		DB_TYPE: 'sqlite',
		// a pooled SQLite (WAL) writes an execution's status and data in one transaction; without
		// it (1.x's default) the status can be read before the data
		DB_SQLITE_POOL_SIZE: '2',
		EXECUTIONS_MODE: 'regular',
		// keep every execution, successful or not, so tests can read run data
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		...extra,
	});
	return env;
}

/**
 * Links the package into `<userFolder>/.n8n/nodes/node_modules/<name>`, where n8n looks for
 * installed community packages.
 */
export function linkCommunityPackage(userFolder, packageDir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', pkg.name);
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.rmSync(target, { recursive: true, force: true });
	fs.symlinkSync(path.resolve(packageDir), target, 'dir');
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } }, null, 2) + '\n',
	);
	return { name: pkg.name, version: pkg.version, target };
}

/**
 * Starts `n8n start`.
 * @param {{ line?: '2'|'1', packageDir?: string, port?: number, log?: (m: string) => void,
 *           env?: Record<string,string>, userFolder?: string, keepUserFolder?: boolean,
 *           install?: boolean, startTimeoutMs?: number, name?: string,
 *           command?: 'start'|'worker', args?: string[], startAttempt?: number }} [opts]
 * A start that fails because a port it chose was taken meanwhile is made again on new ports
 * (three attempts in all), unless the caller gave the port.
 * `command: 'worker'` starts a queue-mode worker (`n8n worker ...args`); it is ready when its
 * health server on `port` answers /healthz/readiness (database and Redis connected).
 * @returns {Promise<{ url: string, port: number, userFolder: string, logFile: string,
 *           version: string, line: string, rest: N8nRest, stop: () => Promise<void>,
 *           logTail: (n?: number) => string }>}
 */
export async function startN8n({
	line = process.env.N8N_LINE || '2',
	packageDir,
	port,
	log = (m) => console.log(m),
	env: extraEnv = {},
	userFolder,
	keepUserFolder = false,
	install = true,
	startTimeoutMs = 120_000,
	name = 'n8n',
	command = 'start',
	args = [],
	startAttempt = 1,
} = {}) {
	const portGiven = port !== undefined;
	const worker = command === 'worker';
	const paths = install ? await ensureN8n({ line, log }) : n8nPaths(line);
	port ??= await freePort();
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	const ownFolder = !userFolder;
	userFolder ??= fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-recruiting-'));
	if (packageDir) linkCommunityPackage(userFolder, packageDir);

	fs.mkdirSync(logDir, { recursive: true });
	const stamp = new Date().toISOString().replace(/[:.]/g, '-');
	const logFile = path.join(logDir, `${name}-${paths.version}-${stamp}-${port}.log`);
	const out = fs.openSync(logFile, 'a');
	const url = `http://127.0.0.1:${port}`;
	// A queue-mode worker has no editor: its own small server (health checks) on `port` tells
	// when it is ready.
	const workerEnv = worker ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) } : {};
	const env = n8nEnv({ port, brokerPort, userFolder, extra: { ...paths.env, ...workerEnv, ...extraEnv } });

	const started = Date.now();
	const child = spawn(paths.nodeBin, [paths.n8nBin, command, ...args], {
		cwd: userFolder,
		env,
		stdio: ['ignore', out, out],
		detached: true, // its own process group: stop() kills n8n and its task runners
	});
	fs.closeSync(out);
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		});
	});
	child.on('error', (err) => {
		exited = { code: -1, signal: null, err };
	});

	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		if (!exited) {
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {}
			const done = await Promise.race([exitPromise, sleep(15_000, null, { ref: false })]);
			if (!done) {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {}
				await Promise.race([exitPromise, sleep(5_000, null, { ref: false })]);
			}
		}
		// task runners etc. may outlive the main process for a moment
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {}
		process.removeListener('exit', killOnExit);
		if (ownFolder && !keepUserFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	};
	const killOnExit = () => {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {}
		if (ownFolder && !keepUserFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	};
	process.on('exit', killOnExit);

	const logTail = (n = 60) => tailOf(logFile, n);
	const rest = new N8nRest(url);
	try {
		for (;;) {
			if (exited) throw new Error(`n8n exited during start-up (${exited.signal ?? `code ${exited.code}`})`);
			if (Date.now() - started > startTimeoutMs) throw new Error(`n8n did not answer within ${startTimeoutMs / 1000}s`);
			try {
				const res = await fetch(`${url}${worker ? '/healthz/readiness' : '/rest/settings'}`, { signal: AbortSignal.timeout(3000) });
				if (worker && res.ok) break;
				if (res.ok && (res.headers.get('content-type') ?? '').includes('json')) {
					const body = await res.json();
					rest.settings = body.data ?? body;
					break;
				}
			} catch {}
			await sleep(300);
		}
	} catch (err) {
		log(`[n8n] ${err.message}; log ${logFile}\n--- tail of the n8n log ---\n${logTail()}`);
		await stop();
		// A port taken between its choice and n8n's start (by another process's task runner, say): started again on new ports, twice at most.
		if (exited && /already in use/i.test(logTail(200)) && !portGiven && startAttempt < 3) {
			log(`[n8n] a port was taken meanwhile: starting ${name} again on new ports`);
			return await startN8n({ line, packageDir, log, env: extraEnv, userFolder: ownFolder ? undefined : userFolder, keepUserFolder, install, startTimeoutMs, name, command, args, startAttempt: startAttempt + 1 });
		}
		throw err;
	}
	log(`[n8n] n8n ${paths.version}${worker ? ` ${command}` : ''} ready at ${url} in ${((Date.now() - started) / 1000).toFixed(1)}s (log: ${path.relative(process.cwd(), logFile)})`);
	return { url, port, userFolder, logFile, version: paths.version, line: paths.line, rest, stop, logTail, pid: child.pid };
}

/** Parses n8n's `flatted` execution data (the format of `execution.data`). */
export function parseFlatted(text) {
	if (typeof text !== 'string') return text;
	const input = JSON.parse(text);
	if (!Array.isArray(input)) return input;
	// flatted: every string is an index into `input` when it is a reference.
	const values = input.map((v) => v);
	const seen = new Set();
	const revive = (value) => {
		if (value && typeof value === 'object' && !seen.has(value)) {
			seen.add(value);
			for (const k of Object.keys(value)) {
				const v = value[k];
				if (typeof v === 'string' && /^\d+$/.test(v)) {
					const ref = values[Number(v)];
					if (ref && typeof ref === 'object') {
						value[k] = ref;
						revive(ref);
					} else value[k] = ref;
				}
			}
		}
		return value;
	};
	// primitives referenced as strings are stored as String objects in flatted; handle both
	for (let i = 0; i < values.length; i++) if (values[i] instanceof String) values[i] = String(values[i]);
	return revive(values[0]);
}

export class N8nError extends Error {
	constructor(message, { status, body, method, path: p } = {}) {
		super(message);
		this.status = status;
		this.body = body;
		this.method = method;
		this.path = p;
	}
}

/** A small client for n8n's internal REST API. */
export class N8nRest {
	constructor(url) {
		this.url = url.replace(/\/$/, '');
		this.cookie = null;
		// The auth cookie is bound to a browser id that must come along with every request.
		this.browserId = randomUUID();
		this.settings = null;
		this.user = null;
	}

	async request(method, p, body, { query, allowStatus = [] } = {}) {
		const u = new URL(`${this.url}/rest${p}`);
		for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
		const headers = { accept: 'application/json', 'browser-id': this.browserId };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.cookie) headers.cookie = this.cookie;
		const send = async () =>
			await fetch(u, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(120_000),
			});
		// A GET sent on a kept-alive connection n8n closed while it sat idle (its 5-s keep-alive) fails with
		// "fetch failed" before n8n saw it (bench:journal after filling the journal): sent once more.
		const res = await send().catch(async (error) => {
			if (method !== 'GET' || !(error instanceof TypeError)) throw error;
			return await send();
		});
		for (const c of res.headers.getSetCookie?.() ?? []) {
			const [pair] = c.split(';');
			if (pair.startsWith('n8n-auth=')) this.cookie = pair;
		}
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = text;
		}
		if (!res.ok && !allowStatus.includes(res.status)) {
			const msg = (json && typeof json === 'object' && (json.message || json.error)) || String(text).slice(0, 300);
			throw new N8nError(`n8n ${method} ${p} answered ${res.status}: ${msg}`, { status: res.status, body: json, method, path: p });
		}
		return json && typeof json === 'object' && 'data' in json && Object.keys(json).length <= 2 ? json.data : json;
	}

	get(p, query) {
		return this.request('GET', p, undefined, { query });
	}
	post(p, body, opts) {
		return this.request('POST', p, body ?? {}, opts);
	}
	patch(p, body) {
		return this.request('PATCH', p, body ?? {});
	}
	delete(p) {
		return this.request('DELETE', p);
	}

	/** Creates the instance owner (first start) and keeps its session cookie. */
	async setupOwner(owner = DEFAULT_OWNER) {
		this.user = await this.post('/owner/setup', {
			email: owner.email,
			firstName: owner.firstName,
			lastName: owner.lastName,
			password: owner.password,
		});
		this.owner = owner;
		return this.user;
	}

	async login(email = DEFAULT_OWNER.email, password = DEFAULT_OWNER.password) {
		// 1.x and 2.x expect `emailOrLdapLoginId`; very old versions `email`.
		this.user = await this.post('/login', { emailOrLdapLoginId: email, email, password });
		return this.user;
	}

	/** Owner setup on a fresh instance, login otherwise. */
	async ensureOwner(owner = DEFAULT_OWNER) {
		try {
			return await this.setupOwner(owner);
		} catch (err) {
			if (err.status !== 400 && err.status !== 403) throw err;
			return this.login(owner.email, owner.password);
		}
	}

	async createCredential(type, name, data) {
		return this.post('/credentials', { name, type, data });
	}

	async listCredentials() {
		return this.get('/credentials');
	}

	async updateCredential(id, { name, type, data }) {
		return this.patch(`/credentials/${id}`, { name, type, data });
	}

	async getCredential(id, { includeData = false } = {}) {
		return this.get(`/credentials/${id}`, includeData ? { includeData: 'true' } : undefined);
	}

	/**
	 * Tests a credential the way the editor does (credential modal, "Retry").
	 * - a stored credential ({ id } or an id): its data is read back (secrets redacted) and sent
	 *   to /credentials/test, where n8n puts the stored secrets back in; `overrides` changes
	 *   fields for the test only (e.g. a wrong password);
	 * - unsaved data ({ name, type, data } without id).
	 * Returns n8n's answer: { status: 'OK' | 'Error', message }.
	 */
	async testCredential(credential, overrides = {}) {
		if (typeof credential === 'string') credential = { id: credential };
		let body;
		if (credential.id) {
			const stored = await this.getCredential(credential.id, { includeData: true });
			const data = { ...(typeof stored.data === 'object' ? stored.data : {}), ...overrides };
			body = { credentials: { id: stored.id, name: stored.name, type: stored.type, data } };
		} else {
			body = { credentials: { id: '', name: credential.name ?? 'unsaved', type: credential.type, data: { ...credential.data, ...overrides } } };
		}
		return this.post('/credentials/test', body);
	}

	/**
	 * Loads a dropdown's options (`loadOptionsMethod`), as the editor does.
	 * @param {{ methodName: string, nodeType?: string, typeVersion?: number, credentials?: object,
	 *           currentNodeParameters?: object, path?: string }} args
	 */
	async loadOptions({ methodName, nodeType = NODE_TYPE, typeVersion = 1, credentials, currentNodeParameters = {}, path: paramPath = 'parameters' }) {
		return this.post('/dynamic-node-parameters/options', {
			nodeTypeAndVersion: { name: nodeType, version: typeVersion },
			methodName,
			path: paramPath,
			currentNodeParameters,
			credentials,
		});
	}

	/** Node type descriptions known to the instance (the editor's node list). */
	async nodeTypes() {
		return this.get('/types/nodes.json');
	}

	/**
	 * Creates a workflow from exported JSON. Credential references without an id (or with an id
	 * this instance does not know) are resolved by name and type.
	 */
	async importWorkflow(json, { name } = {}) {
		const wf = typeof json === 'string' ? JSON.parse(json) : structuredClone(json);
		const creds = await this.listCredentials();
		for (const node of wf.nodes ?? []) {
			for (const [type, ref] of Object.entries(node.credentials ?? {})) {
				const byId = ref?.id && creds.find((c) => c.id === ref.id && c.type === type);
				if (byId) continue;
				const byName = creds.find((c) => c.type === type && c.name === ref?.name);
				if (!byName) throw new Error(`Workflow "${wf.name}": node "${node.name}" needs credential "${ref?.name}" (${type}); none with that name exists`);
				node.credentials[type] = { id: byName.id, name: byName.name };
			}
		}
		const body = {
			name: name ?? wf.name ?? 'Imported workflow',
			nodes: wf.nodes,
			connections: wf.connections ?? {},
			settings: wf.settings ?? { executionOrder: 'v1' },
			pinData: wf.pinData ?? {},
			active: false,
		};
		if (wf.staticData) body.staticData = wf.staticData;
		return this.post('/workflows', body);
	}

	async getWorkflow(id) {
		return this.get(`/workflows/${id}`);
	}

	/**
	 * Activates ("publishes", in 2.x) a workflow so that its triggers and production webhooks
	 * run: 2.x `POST /workflows/:id/activate` with the version to publish; 1.x `PATCH` with
	 * `active: true`.
	 */
	async activateWorkflow(id) {
		const wf = await this.getWorkflow(id);
		try {
			return await this.post(`/workflows/${id}/activate`, { versionId: wf.versionId });
		} catch (err) {
			if (err.status !== 404) throw err;
			return this.patch(`/workflows/${id}`, { ...wf, active: true });
		}
	}

	/** Executions as the editor lists them (without run data): { count, results }. */
	async listExecutions({ workflowId, limit = 100 } = {}) {
		const filter = workflowId ? JSON.stringify({ workflowId }) : undefined;
		return this.get('/executions', { filter, limit });
	}

	/**
	 * Runs a workflow manually (like the editor's "Execute workflow" button) and waits until
	 * the execution has finished. Returns the execution (see getExecution).
	 */
	async runWorkflow(id, { timeoutMs = 180_000, pollMs = 250 } = {}) {
		const wf = await this.getWorkflow(id);
		const trigger = (wf.nodes ?? []).find((n) => /manualTrigger$/i.test(n.type) && !n.disabled);
		const workflowData = {
			id: wf.id,
			name: wf.name,
			nodes: wf.nodes,
			connections: wf.connections,
			settings: wf.settings,
			pinData: wf.pinData ?? {},
			active: wf.active ?? false,
			versionId: wf.versionId,
		};
		const body = { workflowData };
		if (trigger) {
			body.triggerToStartFrom = { name: trigger.name };
			body.startNodes = [];
		}
		const started = await this.post(`/workflows/${id}/run`, body);
		const executionId = started?.executionId;
		if (!executionId) throw new Error(`n8n did not start workflow ${id}: ${JSON.stringify(started)}`);
		return this.waitForExecution(executionId, { timeoutMs, pollMs });
	}

	async waitForExecution(executionId, { timeoutMs = 180_000, pollMs = 250 } = {}) {
		const deadline = Date.now() + timeoutMs;
		let finishedSeenAt;
		// a finished execution without run data is given 10 s for its data to arrive
		const settleBy = () => (finishedSeenAt ??= Date.now()) + 10_000;
		for (;;) {
			let exec = null;
			try {
				exec = await this.getExecution(executionId);
			} catch (err) {
				if (err.status !== 404) throw err; // not saved yet
			}
			// n8n 1.x on SQLite without a pool writes the status and the run data in two updates
			// (ExecutionRepository.updateExistingExecution), so a finished status can be read
			// before its run data: wait until the data says which node ran last, too.
			if (exec && exec.finishedOrStopped && (exec.lastNodeExecuted || exec.error || Date.now() > settleBy(exec))) return exec;
			if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish within ${timeoutMs / 1000}s (status ${exec?.status})`);
			await sleep(pollMs);
		}
	}

	/**
	 * Reads an execution: { id, status, finished, finishedOrStopped, runData, error,
	 * lastNodeExecuted, raw }. `runData[nodeName]` is n8n's list of task runs.
	 */
	async getExecution(id) {
		const raw = await this.get(`/executions/${id}`);
		const data = typeof raw.data === 'string' ? parseFlatted(raw.data) : raw.data;
		const resultData = data?.resultData ?? {};
		const status = raw.status;
		const finishedOrStopped = ['success', 'error', 'crashed', 'canceled'].includes(status) || (raw.stoppedAt != null && status !== 'running' && status !== 'new' && status !== 'waiting');
		return {
			id: raw.id,
			status,
			finished: raw.finished,
			finishedOrStopped,
			mode: raw.mode,
			startedAt: raw.startedAt,
			stoppedAt: raw.stoppedAt,
			runData: resultData.runData ?? {},
			error: resultData.error,
			lastNodeExecuted: resultData.lastNodeExecuted,
			data,
			raw,
		};
	}
}

/** Items (json + pairedItem + error) of one output of a node's last run. */
export function nodeOutput(execution, nodeName, outputIndex = 0, runIndex = -1) {
	const runs = execution.runData?.[nodeName];
	if (!runs?.length) return [];
	const run = runs.at(runIndex);
	return run?.data?.main?.[outputIndex] ?? [];
}

/** The error of a node's last run (when the node itself failed). */
export function nodeError(execution, nodeName) {
	return execution.runData?.[nodeName]?.at(-1)?.error;
}
