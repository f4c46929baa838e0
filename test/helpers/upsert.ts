/** The parameters of Candidate → Create or Update as the sync tests map a sheet onto it (e-mail, fields, IT skills as a list). */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/server';
import type { Harness, RunOptions } from './harness';
import { writesSince } from './sandbox';

/** A candidate's creation the sandbox stores and answers 201 without `data`: no slug, "the candidate may have been created" (faults.ts `afterWorkNoDataRate`). */
export const SLUGLESS = { afterWorkNoDataRate: 1, paths: ['/gin/v1/company/candidate'] };

/** What a row of unknown outcome says: refused as "may already exist", or failed as "may or may not have stored it" / "may have been created". */
export const MAY_EXIST = /may already exist|may or may not have stored it|may have been created/;

/** Options → Create in Manual Runs on (issue 39, trap 3): for tests whose manual runs create, as a user chooses explicitly. */
export const CREATE_IN_MANUAL_RUNS: INodeParameters = { options: { retryDelayMs: 1, concurrency: 10, createInManualRuns: true } };

export function upsertParameters(extra: INodeParameters = {}, fields: INodeParameters = { firstName: '={{ $json.first }}', city: '={{ $json.city }}' }): INodeParameters {
	return {
		resource: 'candidate',
		operation: 'upsert',
		email: '={{ $json.email }}',
		additionalFields: fields,
		recordInput: 'lists',
		itSkillList: '={{ $json.skills }}',
		options: { retryDelayMs: 1, concurrency: 10 },
		...extra,
	};
}

const CANDIDATE = '/gin/v1/company/candidate';

/** How a sync test runs the node once (test/service/rowLife.test.ts, memoryBreak3.test.ts). */
export interface SyncRun {
	manual?: boolean;
	extra?: INodeParameters;
	onStart?: RunOptions['onStart'];
	retryOnFail?: RunOptions['retryOnFail'];
	onError?: RunOptions['onError'];
	fields?: INodeParameters;
}

/** Runs Create or Update over `items` (On Error: Continue unless given): the outputs, their actions and the writes the sandbox received. */
export async function syncRun(sandbox: Sandbox, harness: Harness, items: IDataObject[], options: SyncRun = {}) {
	const from = sandbox.requests.length;
	const result = await harness.run({
		parameters: upsertParameters(options.extra, options.fields ?? { firstName: '={{ $json.first }}' }),
		items,
		manual: options.manual,
		onError: options.onError ?? 'continueRegularOutput',
		onStart: options.onStart,
		retryOnFail: options.retryOnFail,
	});
	const outputs = result.items.map((item) => item.json);
	return { result, outputs, writes: writesSince(sandbox, from), actions: outputs.map((json) => String(json.action ?? 'none')) };
}

/** How many candidates the sandbox stores under an e-mail. */
export const storedUnder = (sandbox: Sandbox, email: unknown) => sandbox.candidates(1).filter((candidate) => candidate.email === email).length;

/** The e-mails of every creation the sandbox received since request `from`. */
export const creationsSent = (sandbox: Sandbox, from: number) =>
	new Set(
		sandbox.requests
			.slice(from)
			.filter((request) => request.method === 'POST' && request.path === CANDIDATE)
			.map((request) => (request.body as IDataObject | undefined)?.email),
	);

/** The e-mails of the creations (POST of a candidate) that reached the sandbox since request `from`, in order. */
export const creationEmails = (sandbox: Sandbox, from: number): string[] =>
	sandbox.requests
		.slice(from)
		.filter((request) => request.method === 'POST' && request.path === CANDIDATE)
		.map((request) => String((request.body as IDataObject | undefined)?.email));

/** Waits until `ready()` holds or `ms` passed; whether it holds. */
export async function until(ready: () => boolean, ms = 20_000): Promise<boolean> {
	for (let waited = 0; waited < ms; waited += 25) {
		if (ready()) return true;
		await sleep(25);
	}
	return ready();
}

/** The POST requests on `path` the sandbox received since request `from`. */
export const postsTo = (sandbox: Sandbox, from: number, path: string) => sandbox.requests.slice(from).filter((request) => request.method === 'POST' && request.path === path);
