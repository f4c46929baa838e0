/**
 * Create or Update run as the review files of the memory run it (adoptForgetBreak, holdOwnersBreak): one execution with On
 * Error: Continue, in this n8n process or as a queue worker's (no saved static data), and what the sandbox stores.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/server';
import type { Harness } from './harness';
import { FIELDS } from './matchBy';
import { writesSince } from './sandbox';
import { MAY_EXIST, creationEmails, upsertParameters } from './upsert';

/** A queue worker's execution (n8n 2.40+): no saved static data. */
export const worker = { worker: true };

/** Whether a row's output is a "may already exist" refusal. */
export const mayExist = (json: IDataObject) => json.action === 'failed' && MAY_EXIST.test(String(json.error));

/** The helpers over a test file's sandbox. */
export function syncRuns(sandbox: () => Sandbox) {
	return {
		/** One execution of Create or Update (On Error: Continue): outputs, actions, writes (method and path) and the creations it sent. */
		async run(h: Harness, items: IDataObject[], extra: INodeParameters, how: { worker?: boolean } = {}) {
			const from = sandbox().requests.length;
			const result = await h.run({ parameters: upsertParameters(extra, FIELDS), items, onError: 'continueRegularOutput', ...(how.worker ? { loadStaticData: false } : {}) });
			const outputs = result.items.map((item) => item.json);
			return { outputs, actions: outputs.map((json) => String(json.action ?? 'none')), writes: writesSince(sandbox(), from), creations: creationEmails(sandbox(), from) };
		},
		/** The candidates Alice's company stores under an e-mail. */
		storedOf: (email: unknown) =>
			sandbox()
				.candidates(1)
				.filter((candidate) => candidate.email === email),
		candidateOf: (slug: unknown) =>
			sandbox()
				.candidates(1)
				.find((candidate) => candidate.slug === slug),
	};
}
