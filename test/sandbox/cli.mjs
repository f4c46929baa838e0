#!/usr/bin/env node
// Runs the recruiting-service sandbox standalone: `npm run sandbox -- [flags]`.
// Plain ESM JavaScript on purpose: it may use process, console and fs, which n8n's lint
// rules forbid in every .ts file of this repository.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { loadSandboxModules } from './index.mjs';

const USAGE = `Usage: node test/sandbox/cli.mjs [options]

  --port N              port to listen on (default 0 = a free port)
  --host HOST           address to bind (default 127.0.0.1)
  --data FILE           keep the state in FILE (loaded if present, rewritten atomically on change)
  --admin               enable the /__sandbox/* admin routes (state, requests, faults, reset)
  --latency MS          add MS milliseconds of latency to every request
  --profile NAME        a service profile: fast (50 ms), capacity (50 ms, 16 served at once),
                        rate-limited (50 ms, 100 requests/s, 429 beyond), flaky (50 ms, 2 % 503),
                        rate-limited-headers (rate-limited announcing it in X-RateLimit-*);
                        the flags below (and --latency) change a profile's values
  --capacity K          at most K requests served at once, the others wait
  --rate-limit N        at most N requests per second (per --rate-window), 429 with Retry-After beyond
  --rate-window S       the window of --rate-limit in seconds (default 1; 60: per minute, 86400: per day)
  --rate-limit-headers STYLE
                        every answer announces the limit: x (X-RateLimit-*, reset in seconds),
                        x-unix (reset as a Unix time), ietf (RateLimit-Policy / RateLimit),
                        ietf-draft (RateLimit-Limit/-Remaining/-Reset); profile rate-limited-headers: x
  --rate-limiter KIND   how the limits are counted: bucket (default; a token bucket refilled
                        continuously), fixed (a fixed window on the clock: per calendar second),
                        sliding (a sliding window: at most N in any second)
  --rate-policies LIST  more policies counted at once, name:limit/seconds separated by commas
                        (for example burst:100/60,daily:1000/86400); with ietf headers all are announced
  --unavailable-rate F  fraction F (0..1) of requests answered 503
  --seed N              seed of the random faults (reproducible runs)
  --seed-file FILE      JSON array of companies to seed instead of the default two
  --token-location LOC  where login puts the session token (default data.token)
  --token-lifetime MS   session token lifetime in milliseconds
  --token-lifetime-seconds N
                        session token lifetime in seconds (instead of --token-lifetime)
  --single-session      a new login ends the user's earlier sessions
  -h, --help            show this help`;

function fail(message) {
	console.error(`sandbox: ${message}\n\n${USAGE}`);
	process.exit(2);
}

let args;
try {
	({ values: args } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			data: { type: 'string' },
			admin: { type: 'boolean' },
			latency: { type: 'string' },
			profile: { type: 'string' },
			capacity: { type: 'string' },
			'rate-limit': { type: 'string' },
			'rate-window': { type: 'string' },
			'rate-limit-headers': { type: 'string' },
			'rate-limiter': { type: 'string' },
			'rate-policies': { type: 'string' },
			'unavailable-rate': { type: 'string' },
			seed: { type: 'string' },
			'seed-file': { type: 'string' },
			'token-location': { type: 'string' },
			'token-lifetime': { type: 'string' },
			'token-lifetime-seconds': { type: 'string' },
			'single-session': { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
		allowPositionals: false,
	}));
} catch (error) {
	fail(error.message);
}
if (args.help) {
	console.log(USAGE);
	process.exit(0);
}

function readJson(file, what) {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		fail(`cannot read ${what} ${file}: ${error.message}`);
	}
}

/** Atomic write: a temporary file in the same directory, then rename over the target. */
function writeJsonAtomically(file, value) {
	const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
	writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
	renameSync(temporary, file);
}

const {
	server: { startSandbox, DEFAULT_COMPANIES, TOKEN_LOCATIONS },
	cliOptions: { settingsFromFlags },
} = loadSandboxModules();

let settings;
try {
	settings = settingsFromFlags(args, TOKEN_LOCATIONS);
} catch (error) {
	fail(error.message);
}
const companies = settings.seedFile ? readJson(resolve(settings.seedFile), 'seed file') : DEFAULT_COMPANIES;
if (!Array.isArray(companies)) fail('the seed file must hold a JSON array of companies');

const dataFile = settings.dataFile ? resolve(settings.dataFile) : undefined;
const initialState = dataFile && existsSync(dataFile) ? readJson(dataFile, 'data file') : undefined;

const sandbox = await startSandbox({
	...settings.options,
	host: settings.host,
	port: settings.port,
	companies,
	admin: settings.admin,
	initialState,
	onStateChange: dataFile ? (state) => writeJsonAtomically(dataFile, state) : undefined,
});
if (dataFile) writeJsonAtomically(dataFile, sandbox.state());

console.log(`Sandbox listening at ${sandbox.url}`);
for (const company of companies) {
	for (const user of company.users) {
		console.log(`Seeded login: ${user.email} / ${user.password}`);
	}
}
if (initialState) console.log(`State restored from ${dataFile}`);
else if (dataFile) console.log(`State kept in ${dataFile}`);
if (settings.admin) {
	console.log(`Admin routes: ${sandbox.url}/__sandbox/state, /requests, /faults, /token-lifetime, /reset`);
}

let stopping = false;
async function stop(signal) {
	if (stopping) return;
	stopping = true;
	await sandbox.close();
	console.log(`Sandbox stopped (${signal})`);
	process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
