// Module-level state of the node and the credential (scripts/queue/module-state.mjs, the check the
// queue run makes): nothing but the three named exceptions, the sync memory's registry
// (nodes/Recruiting/memory/registry.ts, keyed by workflow id + node id + account scope; that two
// workflows never share one runs through the engine in test/service/syncMemory.test.ts) and the
// pace per service (nodes/Recruiting/transport/pace.ts: test/unit/pace.test.ts) and the logins under
// way per credential (nodes/Recruiting/transport/session.ts: test/service/loginShareBreak.test.ts), and the same
// kind of map anywhere else is still reported.
//
//   npm run test:release
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { findModuleState, NAMED_EXCEPTIONS } from '../../scripts/queue/module-state.mjs';

test('nodes/ and credentials/: nothing reported; the registry, the paces and the logins under way are allowed by name, with their reasons', () => {
	const result = findModuleState();
	assert.deepEqual(result.findings, []);
	assert.deepEqual(
		NAMED_EXCEPTIONS.map(({ file, name }) => ({ file, name })),
		[
			{ file: 'nodes/Recruiting/memory/registry.ts', name: 'memories' },
			{ file: 'nodes/Recruiting/transport/pace.ts', name: 'paces' },
			{ file: 'nodes/Recruiting/transport/session.ts', name: 'loginsUnderWay' },
		],
	);
	const paces = result.allowed.filter((entry) => entry.file === 'nodes/Recruiting/transport/pace.ts');
	assert.equal(paces.length, 1);
	assert.match(paces[0].text, /^paces = new Map/);
	assert.match(paces[0].why, /no secret, no row; keyed by service, login and credential; bounded/);
	const registry = result.allowed.filter((entry) => entry.file === 'nodes/Recruiting/memory/registry.ts');
	assert.equal(registry.length, 1);
	assert.match(registry[0].text, /^memories = new Map/);
	assert.match(registry[0].why, /keyed by workflow, node and account/);
	const logins = result.allowed.filter((entry) => entry.file === 'nodes/Recruiting/transport/session.ts');
	assert.equal(logins.length, 1);
	assert.match(logins[0].text, /^loginsUnderWay = new Map/);
	assert.match(logins[0].why, /no token, no secret; keyed by credential id and a hash of its values; deleted when the login ends/);
});

test('the same kind of map anywhere else is reported, even under the same name', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-state-'));
	try {
		fs.writeFileSync(path.join(dir, 'other.ts'), 'const memories = new Map<string, number>();\nexport const remember = (key: string) => memories.set(key, 1);\n');
		const result = findModuleState({ dirs: [dir] });
		assert.deepEqual(
			result.findings.map((finding) => finding.text),
			['memories = new Map<string, number>()'],
		);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
