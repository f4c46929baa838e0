/**
 * The queue run's module-state check (scripts/queue/module-state.mjs) through node: the node
 * and the credential hold no module-level state except the one named exception, the sync
 * memory's registry (nodes/Recruiting/memory/registry.ts), and a second module-level map of the
 * same name elsewhere is still reported. The registry's keys keep workflows apart
 * (test/service/syncMemory.test.ts runs two workflows through the engine).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { scopeKey } from '../../nodes/Recruiting/memory/registry';

const root = path.resolve(__dirname, '..', '..');

function check(dirs?: string[]) {
	const script = `import { findModuleState, NAMED_EXCEPTIONS } from './scripts/queue/module-state.mjs';
const result = findModuleState(${dirs ? `{ dirs: ${JSON.stringify(dirs)} }` : ''});
console.log(JSON.stringify({ ...result, named: NAMED_EXCEPTIONS }));`;
	const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
	return JSON.parse(out) as { findings: Array<{ file: string; text: string }>; allowed: Array<{ file: string; text: string; why: string }>; named: Array<{ file: string; name: string }> };
}

describe('module-level state: one named exception, the sync memory registry', () => {
	it('nodes/ and credentials/: nothing reported; the registry is allowed by name, with its reason', () => {
		const result = check();
		expect(result.findings).toEqual([]);
		expect(result.named).toEqual([expect.objectContaining({ file: 'nodes/Recruiting/memory/registry.ts', name: 'memories' })]);
		const registry = result.allowed.filter((entry) => entry.file === 'nodes/Recruiting/memory/registry.ts');
		expect(registry).toHaveLength(1);
		expect(registry[0].text).toMatch(/^memories = new Map/);
		expect(registry[0].why).toMatch(/keyed by workflow, node and account/);
	}, 60_000);

	it('the same kind of map anywhere else is reported, even under the same name', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-state-'));
		try {
			fs.writeFileSync(path.join(dir, 'other.ts'), 'const memories = new Map<string, number>();\nexport const remember = (key: string) => memories.set(key, 1);\n');
			const result = check([dir]);
			expect(result.findings.map((finding) => finding.text)).toEqual(['memories = new Map<string, number>()']);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}, 60_000);

	it("a scope's key holds the workflow id, the node id and the account scope: two workflows never share one", () => {
		expect(scopeKey('wf-1', 'node', 'scope')).not.toBe(scopeKey('wf-2', 'node', 'scope'));
		expect(scopeKey('wf-1', 'node-a', 'scope')).not.toBe(scopeKey('wf-1', 'node-b', 'scope'));
		expect(scopeKey('wf-1', 'node', 'alice')).not.toBe(scopeKey('wf-1', 'node', 'bob'));
		// No separator can make two different triples meet.
		expect(scopeKey('a|b', 'c', 'd')).not.toBe(scopeKey('a', 'b|c', 'd'));
	});
});
