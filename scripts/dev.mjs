#!/usr/bin/env node
// npm run dev — the n8n editor with this package, against the sandbox, rebuilt on change.
//   - builds the package, starts the recruiting-service sandbox on 127.0.0.1,
//   - starts a real n8n (installed once into .cache/n8n) on 127.0.0.1 with the package loaded,
//     an owner account and a ready "Recruiting account" credential pointing at the sandbox,
//   - watches nodes/, credentials/ and icons/: on a change it rebuilds (npm run build) and
//     restarts n8n (same port, same data: your login, workflows and credential survive),
//   - prints the URL and the login; runs until Ctrl-C.
//   - keeps its data between runs in .cache/dev/ (n8n's user folder: your login, workflows,
//     credentials and executions; the sandbox's candidates in sandbox.json); Ctrl-C keeps them.
//
// Options: --port <n8n port> (default 5678 when free), --line 1|2 (default 2 or $N8N_LINE),
//          --fresh (delete .cache/dev/ first: a new n8n and a sandbox with only its seed).

import fs from 'node:fs';
import path from 'node:path';

import { repoRoot } from './n8n/install.mjs';
import { CREDENTIAL_TYPE, DEFAULT_OWNER, freePort, startN8n } from './n8n/server.mjs';
import { SANDBOX_LOGIN, startSandbox } from './n8n/sandbox.mjs';
import { CREDENTIAL_NAME, build, credentialData } from './n8n/stack.mjs';

const args = process.argv.slice(2);
const arg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const line = arg('--line') ?? process.env.N8N_LINE ?? '2';
const log = (m) => console.log(m);

async function portIsFree(port) {
	const net = await import('node:net');
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

const wanted = Number(arg('--port') ?? 5678);
const port = (await portIsFree(wanted)) ? wanted : await freePort();
// Kept between runs (issue 47): n8n's user folder per line (its database, encryption key) and the sandbox's state.
const dataDir = path.join(repoRoot, '.cache', 'dev');
if (args.includes('--fresh')) fs.rmSync(dataDir, { recursive: true, force: true });
const userFolder = path.join(dataDir, `n8n-${line}`);
const sandboxFile = path.join(dataDir, 'sandbox.json');
fs.mkdirSync(userFolder, { recursive: true });

/** The sandbox's state as the last run left it (undefined: start from its seed). */
function savedSandboxState() {
	if (!fs.existsSync(sandboxFile)) return undefined;
	try {
		return JSON.parse(fs.readFileSync(sandboxFile, 'utf8'));
	} catch (err) {
		log(`[dev] ${path.relative(process.cwd(), sandboxFile)} is unreadable (${err.message}): the sandbox starts from its seed`);
		return undefined;
	}
}

/** Written to a temporary file and renamed, so that Ctrl-C never leaves half a file. */
function saveSandboxState(state) {
	const temporary = `${sandboxFile}.${process.pid}.tmp`;
	fs.writeFileSync(temporary, `${JSON.stringify(state)}\n`);
	fs.renameSync(temporary, sandboxFile);
}

let sandbox;
let n8n;
let shuttingDown = false;

async function shutdown(code = 0) {
	if (shuttingDown) return;
	shuttingDown = true;
	log('\n[dev] stopping n8n and the sandbox...');
	await n8n?.stop().catch(() => {});
	await sandbox?.close().catch(() => {});
	// The data stays in .cache/dev/ for the next run (npm run dev -- --fresh starts afresh).
	process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

async function startEditor() {
	n8n = await startN8n({ line, packageDir: repoRoot, port, userFolder, keepUserFolder: true, log, name: 'n8n-dev' });
	await n8n.rest.ensureOwner(DEFAULT_OWNER);
	const existing = (await n8n.rest.listCredentials()).find((c) => c.name === CREDENTIAL_NAME && c.type === CREDENTIAL_TYPE);
	if (!existing) await n8n.rest.createCredential(CREDENTIAL_TYPE, CREDENTIAL_NAME, credentialData(sandbox.url));
	// A kept credential points at the sandbox's address of an earlier run (its port changes).
	else await n8n.rest.updateCredential(existing.id, { name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data: credentialData(sandbox.url) });
}

function banner() {
	log(
		[
			'',
			'='.repeat(72),
			`n8n editor:  ${n8n.url}`,
			`  login:     ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`,
			`sandbox:     ${sandbox.url}   (login ${SANDBOX_LOGIN.email} / ${SANDBOX_LOGIN.password})`,
			`credential:  "${CREDENTIAL_NAME}" (e-mail/password) is ready; examples/*.json can be imported`,
			`n8n log:     ${path.relative(process.cwd(), n8n.logFile)}`,
			`data:        ${path.relative(process.cwd(), dataDir)}/ (kept after Ctrl-C; --fresh starts afresh)`,
			'Watching nodes/, credentials/, icons/: changes rebuild and restart n8n. Ctrl-C stops.',
			'='.repeat(72),
		].join('\n'),
	);
}

try {
	await build({ log });
	const initialState = savedSandboxState();
	sandbox = await startSandbox({ admin: true, initialState, onStateChange: saveSandboxState });
	saveSandboxState(sandbox.state());
	if (initialState) log(`[sandbox] state restored from ${path.relative(process.cwd(), sandboxFile)}`);
	log(`[sandbox] listening at ${sandbox.url}`);
	await startEditor();
	banner();
} catch (err) {
	console.error(`[dev] could not start: ${err.message}`);
	await shutdown(1);
}

// Rebuild + restart on change (debounced; one cycle at a time).
let timer = null;
let busy = false;
let again = false;
async function rebuild(reason) {
	if (busy) {
		again = true;
		return;
	}
	busy = true;
	try {
		log(`\n[dev] ${reason}: rebuilding...`);
		await build({ log });
		log('[dev] restarting n8n to load the new build...');
		await n8n.stop();
		await startEditor();
		log(`[dev] ready again at ${n8n.url} (reload the editor page)`);
	} catch (err) {
		log(`[dev] ${err.message} - fix it and save again`);
	} finally {
		busy = false;
		if (again) {
			again = false;
			rebuild('more changes');
		}
	}
}

for (const dir of ['nodes', 'credentials', 'icons']) {
	const full = path.join(repoRoot, dir);
	if (!fs.existsSync(full)) continue;
	fs.watch(full, { recursive: true }, (_event, file) => {
		if (shuttingDown || !file || /(^|\/)\.|~$|\.swp$/.test(file)) return;
		clearTimeout(timer);
		timer = setTimeout(() => rebuild(`${dir}/${file} changed`), 400);
	});
}
