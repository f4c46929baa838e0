// PostgreSQL and Redis for n8n's queue mode, from Debian's packages, each on a free
// 127.0.0.1 port with its data in a temporary directory that is removed on stop.
//
//   await ensureSystemPackages({ log });      // apt-get install postgresql redis-server if missing
//   const pg = await startPostgres({ log });   // { host, port, database, user, password, stop() }
//   const redis = await startRedis({ log });   // { host, port, stop() }
//
// PostgreSQL refuses to run as root: initdb and postgres run as the `postgres` system user
// (created by Debian's package), with a data directory owned by it. The server is tuned for a
// throw-away test database (no fsync), which says nothing about a production set-up.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../n8n/server.mjs';

const PG_USER = 'postgres';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The bin directory of the newest PostgreSQL that Debian installed, or null. */
export function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return null;
	const versions = fs
		.readdirSync(root)
		.filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : null;
}

function redisBin() {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/bin', '/usr/sbin'])) {
		const file = path.join(dir, 'redis-server');
		if (dir && fs.existsSync(file)) return file;
	}
	return null;
}

function run(cmd, args, { asPostgres = false, cwd, env } = {}) {
	const [c, a] = asPostgres && isRoot() ? ['runuser', ['-u', PG_USER, '--', cmd, ...args]] : [cmd, args];
	const res = spawnSync(c, a, { cwd, env: env ?? process.env, encoding: 'utf8' });
	if (res.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} failed (${res.error?.message ?? `exit ${res.status}`}):\n${(res.stderr || res.stdout || '').trim()}`);
	}
	return res.stdout;
}

/** Installs Debian's postgresql and redis-server when they are missing (needs root and apt). */
export async function ensureSystemPackages({ log = (m) => console.log(m) } = {}) {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisBin()) missing.push('redis-server');
	if (!missing.length) return;
	if (!isRoot()) throw new Error(`${missing.join(' and ')} missing: run  sudo apt-get install -y ${missing.join(' ')}`);
	log(`[queue] installing ${missing.join(', ')} with apt-get ...`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	run('apt-get', ['update', '-qq'], { env });
	run('apt-get', ['install', '-y', '-qq', 'postgresql', 'redis-server'], { env });
	// Debian's packages may start system-wide services; ours run on their own ports anyway.
	if (!postgresBinDir() || !redisBin()) throw new Error('apt-get install postgresql redis-server did not provide initdb and redis-server');
}

function tempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	if (isRoot()) {
		const uid = Number(run('id', ['-u', PG_USER]).trim());
		const gid = Number(run('id', ['-g', PG_USER]).trim());
		fs.chownSync(dir, uid, gid);
	}
	return dir;
}

function processGroupKiller(child) {
	return () => {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {}
	};
}

async function waitFor(check, { what, timeoutMs, exited, logFile }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exited()) throw new Error(`${what} exited during start-up; log:\n${tail(logFile)}`);
		if (await check()) return;
		if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs / 1000}s; log:\n${tail(logFile)}`);
		await sleep(200);
	}
}

function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/**
 * Starts a server process in its own process group, logging to `logFile`. `stop()` sends the
 * signal `signal()` names, waits up to `graceMs` for the exit, kills what is left and removes
 * `dir`; the same happens if this process exits first.
 */
function spawnService(cmd, argv, { dir, logFile, graceMs, signal }) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(cmd, argv, { cwd: dir, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	let hasExited = false;
	const exitPromise = new Promise((resolve) => child.on('exit', () => resolve((hasExited = true))));
	child.on('error', () => (hasExited = true));
	const killAll = processGroupKiller(child);
	const onExit = () => {
		killAll();
		fs.rmSync(dir, { recursive: true, force: true });
	};
	process.on('exit', onExit);
	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		try {
			const [pid, sig] = signal();
			process.kill(pid, sig);
		} catch {}
		if (!hasExited) await Promise.race([exitPromise, sleep(graceMs, null, { ref: false })]);
		killAll();
		process.removeListener('exit', onExit);
		fs.rmSync(dir, { recursive: true, force: true });
	};
	return { child, exited: () => hasExited, stop };
}

/**
 * Starts a PostgreSQL server as the `postgres` user in a fresh temporary cluster and creates the
 * database `n8n`. Connections: TCP on 127.0.0.1 (trust authentication, local only) and a unix
 * socket in the temporary directory.
 */
export async function startPostgres({ log = (m) => console.log(m), database = 'n8n', timeoutMs = 60_000 } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const dir = tempDir('n8n-queue-pg-');
	const data = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	const port = await freePort();
	const started = Date.now();
	run(path.join(bin, 'initdb'), ['-D', data, '-U', PG_USER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], { asPostgres: true, cwd: dir });
	const args = [
		'-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir,
		'-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100',
	];
	const [cmd, argv] = isRoot() ? ['runuser', ['-u', PG_USER, '--', path.join(bin, 'postgres'), ...args]] : [path.join(bin, 'postgres'), args];
	// "fast" shutdown: SIGINT to the postmaster (its pid is the first line of postmaster.pid)
	const { child, exited, stop } = spawnService(cmd, argv, {
		dir,
		logFile,
		graceMs: 10_000,
		signal: () => {
			let pid = null;
			try {
				pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
			} catch {}
			return pid ? [pid, 'SIGINT'] : [-child.pid, 'SIGINT'];
		},
	});

	try {
		const isReady = path.join(bin, 'pg_isready');
		await waitFor(() => spawnSync(isReady, ['-q', '-h', '127.0.0.1', '-p', String(port)]).status === 0, {
			what: 'postgres',
			timeoutMs,
			exited,
			logFile,
		});
		run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', PG_USER, database]);
	} catch (err) {
		await stop();
		throw err;
	}
	const version = run(path.join(bin, 'postgres'), ['--version']).trim();
	log(`[queue] ${version} on 127.0.0.1:${port} (data in ${dir}), ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	return { host: '127.0.0.1', port, database, user: PG_USER, password: '', dir, pid: child.pid, version, stop };
}

/** Sends PING over RESP and resolves true on +PONG. */
export function redisPing(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const socket = net.connect({ host, port });
		let buf = '';
		const done = (ok) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (d) => {
			buf += d;
			if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
		});
	});
}

/** Starts redis-server on 127.0.0.1 without persistence, in a temporary directory. */
export async function startRedis({ log = (m) => console.log(m), timeoutMs = 30_000 } = {}) {
	const bin = redisBin();
	if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-redis-'));
	const logFile = path.join(dir, 'redis.log');
	const port = await freePort();
	const started = Date.now();
	const { child, exited, stop } = spawnService(
		bin,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
		{ dir, logFile, graceMs: 5_000, signal: () => [-child.pid, 'SIGTERM'] },
	);
	try {
		await waitFor(() => redisPing(port), { what: 'redis-server', timeoutMs, exited, logFile });
	} catch (err) {
		await stop();
		throw err;
	}
	const version = (spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout ?? '').match(/v=([\d.]+)/)?.[1] ?? '?';
	log(`[queue] Redis ${version} on 127.0.0.1:${port}, ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	return { host: '127.0.0.1', port, dir, pid: child.pid, version, stop };
}
