// The whole demo/test stack: build, `npm pack`, sandbox, real n8n with the packed package, owner account and a
// ready "Recruiting account" credential pointing at the sandbox. Used by demo.mjs, dev.mjs and the
// end-to-end tests.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cacheRoot, logDir, repoRoot, withLock } from './install.mjs';
import { CREDENTIAL_TYPE, DEFAULT_OWNER, startN8n } from './server.mjs';
import { SANDBOX_LOGIN, startSandbox } from './sandbox.mjs';

export const CREDENTIAL_NAME = 'Recruiting account';
export const examplesDir = path.join(repoRoot, 'examples');

export function loadExample(file) {
	return JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8'));
}

/**
 * Runs `npm run build` in the repository; output goes to .cache/logs/build.log (tail on failure).
 * Builds of parallel processes (demo + tests) are serialised by a lock.
 */
const buildLock = path.join(cacheRoot, 'build.lock');

export function build({ log = (m) => console.log(m) } = {}) {
	return withLock(buildLock, log, () => buildNow({ log }));
}

function buildNow({ log }) {
	fs.mkdirSync(logDir, { recursive: true });
	const logFile = path.join(logDir, 'build.log');
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const out = fs.openSync(logFile, 'w');
		const child = spawn('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', out, out], env: process.env });
		fs.closeSync(out);
		child.on('error', reject);
		child.on('exit', (code) => {
			if (code === 0) {
				log(`[build] npm run build: ok in ${((Date.now() - started) / 1000).toFixed(1)}s`);
				resolve();
			} else {
				const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
				log(`[build] npm run build failed (exit ${code}):\n${tail}`);
				reject(new Error(`npm run build failed (exit ${code}); log: ${logFile}`));
			}
		});
	});
}

/**
 * The package as npm would publish it: `npm pack` of the built work tree, unpacked into a
 * private directory inside .cache/ (as `npm install` unpacks a tarball). n8n loads it from
 * there, so the end-to-end tests run what users install, not the work tree. Inside the
 * repository, so `n8n-workflow` (a peer dependency) still resolves from its node_modules, as it
 * does from n8n's own. A later `npm run build` by someone else cannot pull files away from a
 * running n8n either.
 * @returns {{ dir: string, tarball: string, files: string[], remove: () => void }}
 */
export function packPackage() {
	const root = path.join(cacheRoot, 'package-snapshots', `${Date.now()}-${process.pid}`);
	fs.mkdirSync(root, { recursive: true });
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', root], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
	)[0];
	const tarball = path.join(root, packed.filename);
	execFileSync('tar', ['-xzf', tarball, '-C', root]);
	return {
		dir: path.join(root, 'package'),
		tarball,
		files: packed.files.map((file) => file.path).sort(),
		remove: () => fs.rmSync(root, { recursive: true, force: true }),
	};
}

/** Reads the built node's description (for loadOptions method names, resources, ...). */
export async function builtNodeDescription() {
	const file = path.join(repoRoot, 'dist', 'nodes', 'Recruiting', 'Recruiting.node.js');
	if (!fs.existsSync(file)) throw new Error('dist/nodes/Recruiting/Recruiting.node.js is missing: run npm run build');
	const { createRequire } = await import('node:module');
	const require = createRequire(file);
	const mod = require(file);
	const Cls = mod.Recruiting ?? Object.values(mod).find((v) => typeof v === 'function');
	return { description: new Cls().description, methods: new Cls().methods ?? {} };
}

/** Credential data for the sandbox in one of the three modes. */
export function credentialData(sandboxUrl, mode = 'emailPassword', extra = {}) {
	const base = { baseUrl: sandboxUrl, authentication: mode };
	if (mode === 'emailPassword') return { ...base, email: SANDBOX_LOGIN.email, password: SANDBOX_LOGIN.password, ...extra };
	return { ...base, ...extra };
}

/**
 * Starts sandbox + n8n, sets up the owner and the "Recruiting account" credential.
 * `filesDir` is a fresh folder that n8n's file nodes may read and write (N8N_RESTRICT_FILE_ACCESS_TO,
 * on both lines; n8n 2.x would otherwise allow only ~/.n8n-files): the spreadsheet round trip's
 * CSV files live there. It is removed by stop().
 * @returns {Promise<{ sandbox, n8n, rest, credential, pkg, filesDir: string, stop: () => Promise<void> }>}
 */
export async function startStack({
	line = process.env.N8N_LINE || '2',
	doBuild = true,
	log = (m) => console.log(m),
	sandboxOptions = {},
	n8nOptions = {},
} = {}) {
	const stops = [];
	const stop = async () => {
		for (const fn of stops.reverse()) {
			try {
				const t = Date.now();
				await fn();
				if (process.env.STACK_DEBUG) log(`[stop] ${fn.label ?? 'step'} in ${Date.now() - t}ms`);
			} catch (err) {
				log(`[stop] ${err.message}`);
			}
		}
		stops.length = 0;
	};
	try {
		const pkg = await withLock(buildLock, log, async () => {
			if (doBuild) await buildNow({ log });
			if (!fs.existsSync(path.join(repoRoot, 'dist', 'nodes'))) throw new Error('dist/ is missing: run npm run build');
			return packPackage();
		});
		stops.push(pkg.remove);
		const sandbox = await startSandbox(sandboxOptions);
		stops.push(() => sandbox.close());
		log(`[sandbox] listening at ${sandbox.url}`);
		// realpath: n8n compares the allowed folder with the file's resolved path
		const filesDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-files-')));
		stops.push(() => fs.rmSync(filesDir, { recursive: true, force: true }));
		const n8n = await startN8n({
			line,
			packageDir: pkg.dir,
			log,
			...n8nOptions,
			env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir, ...n8nOptions.env },
		});
		stops.push(() => n8n.stop());
		const rest = n8n.rest;
		await rest.ensureOwner(DEFAULT_OWNER);
		const credential = await rest.createCredential(CREDENTIAL_TYPE, CREDENTIAL_NAME, credentialData(sandbox.url));
		return { sandbox, n8n, rest, credential, pkg, filesDir, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}
