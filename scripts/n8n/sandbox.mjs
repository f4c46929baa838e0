// Starts the recruiting-service sandbox (test/sandbox/server.ts) in this process, through
// ts-node, so that its stored state can be read directly:
//   const sandbox = await startSandbox();   // { url, close(), candidates(companyId), state(), ... }

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot } from './install.mjs';

export const SANDBOX_LOGIN = Object.freeze({ email: 'alice@acme.test', password: 'alice-password-1', companyId: 1 });

let registered = false;

function loadSandboxModule() {
	const require = createRequire(path.join(repoRoot, 'package.json'));
	const server = path.join(repoRoot, 'test', 'sandbox', 'server.ts');
	if (!fs.existsSync(server)) throw new Error(`The sandbox is missing: ${path.relative(process.cwd(), server)} does not exist yet`);
	if (!registered) {
		require('ts-node').register({
			transpileOnly: true,
			project: path.join(repoRoot, 'tsconfig.test.json'),
			compilerOptions: { module: 'commonjs' },
		});
		registered = true;
	}
	return require(server);
}

/** Starts the sandbox on a free 127.0.0.1 port. Options are passed to the sandbox's startSandbox. */
export async function startSandbox(opts = {}) {
	const mod = loadSandboxModule();
	const start = mod.startSandbox ?? mod.default?.startSandbox;
	if (typeof start !== 'function') throw new Error('test/sandbox/server.ts does not export startSandbox()');
	const sandbox = await start({ host: '127.0.0.1', port: 0, ...opts });
	if (!sandbox?.url) throw new Error('startSandbox() returned no url');
	return sandbox;
}
