#!/usr/bin/env node
// npm run dev — the n8n editor with this package, against the sandbox, rebuilt on change.
//   - builds the package, starts the recruiting-service sandbox on 127.0.0.1,
//   - starts a real n8n (installed once into .cache/n8n) on 127.0.0.1 with the package loaded,
//     an owner account and a ready "Recruiting account" credential pointing at the sandbox,
//   - watches nodes/, credentials/ and icons/: on a change it rebuilds (npm run build) and
//     restarts n8n (same port, same data: your login, workflows and credential survive),
//   - prints the URL and the login; runs until Ctrl-C.
//
// Options: --port <n8n port> (default 5678 when free), --line 1|2 (default 2 or $N8N_LINE).

import fs from 'node:fs';
import os from 'node:os';
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
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-recruiting-dev-'));

let sandbox;
let n8n;
let shuttingDown = false;

async function shutdown(code = 0) {
	if (shuttingDown) return;
	shuttingDown = true;
	log('\n[dev] stopping n8n and the sandbox...');
	await n8n?.stop().catch(() => {});
	await sandbox?.close().catch(() => {});
	fs.rmSync(userFolder, { recursive: true, force: true });
	process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

async function startEditor() {
	n8n = await startN8n({ line, packageDir: repoRoot, port, userFolder, keepUserFolder: true, log, name: 'n8n-dev' });
	await n8n.rest.ensureOwner(DEFAULT_OWNER);
	const existing = (await n8n.rest.listCredentials()).find((c) => c.name === CREDENTIAL_NAME && c.type === CREDENTIAL_TYPE);
	if (!existing) await n8n.rest.createCredential(CREDENTIAL_TYPE, CREDENTIAL_NAME, credentialData(sandbox.url));
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
			'Watching nodes/, credentials/, icons/: changes rebuild and restart n8n. Ctrl-C stops.',
			'='.repeat(72),
		].join('\n'),
	);
}

try {
	await build({ log });
	sandbox = await startSandbox({ admin: true });
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
