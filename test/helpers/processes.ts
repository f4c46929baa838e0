/**
 * Several n8n processes in one test file (a main and queue workers, or a process before and after a restart): each keeps
 * its own registry, the package's one piece of module state (nodes/Recruiting/memory/registry.ts); n8n's deduplication
 * store and the saved static data are the harness's, shared by all. Call `resetProcesses` before each test.
 */
import { forgetProcessMemory, processRegistry } from '../../nodes/Recruiting/memory/registry';
import type { Sandbox } from '../sandbox/server';

/** The registry's map of this module instance. */
const liveRegistry = () => (processRegistry() as unknown as { memories: Map<string, unknown> }).memories;
const parked = new Map<string, Map<string, unknown>>();
let running = 'main';

/** From now on, executions run in the n8n process `name` (its registry as that process left it; a new one the first time). */
export function inProcess(name: string): void {
	const live = liveRegistry();
	parked.set(running, new Map(live));
	live.clear();
	for (const [key, shared] of parked.get(name) ?? []) live.set(key, shared);
	running = name;
}

/** Every process forgotten; executions run in `main`. */
export function resetProcesses(): void {
	forgetProcessMemory();
	parked.clear();
	running = 'main';
}

/** Call at the top of a test file: before each test every process is forgotten and the sandbox has no faults; after it, none either. */
export function useProcesses(sandbox: () => Sandbox): void {
	beforeEach(() => {
		resetProcesses();
		sandbox().setFaults({});
	});
	afterEach(() => sandbox().setFaults({}));
}
