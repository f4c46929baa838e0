// The sandbox's one entry for plain JavaScript (the .mjs scripts, the end-to-end tests and
// cli.mjs): the seeded login, read from seed.json, and startSandbox(), which loads the sandbox's
// TypeScript (server.ts) through ts-node on first use. Nothing outside test/sandbox/ needs to
// know how the sandbox is compiled.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The seeded companies (test/sandbox/seed.json: the one place the demo logins are written). */
export const SEED_COMPANIES = require('./seed.json');

/** The first seeded login (Alice) and the company it belongs to. */
export const SEEDED_LOGIN = Object.freeze({
	email: SEED_COMPANIES[0].users[0].email,
	password: SEED_COMPANIES[0].users[0].password,
	companyId: SEED_COMPANIES[0].id,
});

/** The sandbox's TypeScript modules (server.ts, cli-options.ts), compiled on first use. */
export function loadSandboxModules() {
	// One ts-node for the process: a script that registered it already (the benchmark client) keeps its own.
	if (!process[Symbol.for('ts-node.register.instance')]) {
		require('ts-node').register({
			transpileOnly: true,
			skipProject: true,
			compilerOptions: { module: 'commonjs', target: 'es2022', esModuleInterop: true, resolveJsonModule: true },
		});
	}
	return { server: require('./server.ts'), cliOptions: require('./cli-options.ts') };
}

/** Starts the sandbox on a free 127.0.0.1 port; `options` go to server.ts's startSandbox. */
export async function startSandbox(options = {}) {
	return await loadSandboxModules().server.startSandbox({ host: '127.0.0.1', port: 0, ...options });
}
