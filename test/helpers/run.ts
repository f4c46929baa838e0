/**
 * Shared by the service and engine tests: small helpers over the harness (n8n-core's WorkflowExecute).
 * The sandbox, its seeded users and the credentials come from ../helpers/sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from './harness';
import { Harness } from './harness';

/** Fast retries: the sandbox answers at once, so nothing needs to wait a second. */
export const FAST = { retryDelayMs: 1 };

/** The json of every output item. */
export const outputs = (result: RunResult): IDataObject[] => result.items.map((item) => item.json);

/** Runs one node execution and expects it not to have stopped on an error. */
export async function runOk(harness: Harness, parameters: INodeParameters, items?: IDataObject[]): Promise<RunResult> {
	const result = await harness.run({ parameters: { options: FAST, ...parameters }, items });
	if (result.error) throw new Error(`the run failed: ${result.error.message}`);
	return result;
}

/** Creates a candidate through the node and returns its slug. */
export async function createCandidate(harness: Harness, fields: IDataObject = {}): Promise<string> {
	const result = await runOk(harness, {
		resource: 'candidate',
		operation: 'create',
		email: 'candidate@example.test',
		additionalFields: {},
		...fields,
	});
	const slug = result.items[0]?.json.slug;
	if (typeof slug !== 'string') throw new Error('no slug');
	return slug;
}

export { Harness };
