/**
 * What the reviews of Auto with Email and Password share (test/service/autoLoginBreak.test.ts, sessionDoubtBreak.test.ts,
 * loginShareBreak.test.ts): a sandbox and one that allows one session per user, both reset after each test; a bulk
 * creation under Auto; and the counts they read.
 */
import type { INodeParameters } from 'n8n-workflow';

import { candidateRows, createParameters, isSuccess } from './bulk';
import type { Harness, RunResult } from './harness';
import { useSandbox } from './sandbox';
import type { LoggedRequest } from '../sandbox/server';

/** `sandbox`: a plain one; `single`: one that allows one session per user (another login of the user ends the node's session). */
export function useLoginSandboxes() {
	const sandbox = useSandbox({}, { resetEachTest: true });
	const single = useSandbox({ singleSessionPerUser: true }, { resetEachTest: true });
	afterEach(() => {
		for (const box of [sandbox(), single()]) {
			box.setFaults({});
			box.setTokenLifetime(undefined);
		}
	});
	return { sandbox, single };
}

/** `rows` new candidates created under Concurrency Mode Auto (node version 1.1), errors as items. */
export async function createUnderAuto(harness: Harness, rows: number, tag: string, options: INodeParameters = {}, onStart?: (execution: { cancel(): void }) => void): Promise<RunResult> {
	return await harness.run({
		parameters: createParameters({ concurrencyMode: 'auto', ...options }),
		items: candidateRows(rows, tag),
		typeVersion: 1.1,
		onError: 'continueRegularOutput',
		onStart,
	});
}

export const failuresOf = (result: RunResult): string[] => result.items.filter((item) => !isSuccess(item)).map((item) => String(item.json.error));

export const answered = (requests: LoggedRequest[], status: number): number => requests.filter((request) => request.status === status).length;
