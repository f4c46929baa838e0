/**
 * Create or Update run as the review files of the memory run it (adoptForgetBreak, holdOwnersBreak): one execution with On
 * Error: Continue, in this n8n process or as a queue worker's (no saved static data), and what the sandbox stores.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/server';
import type { Harness } from './harness';
import { BY_EMAIL, CANDIDATE, FIELDS, withOptions } from './matchBy';
import { inProcess } from './processes';
import { writesSince } from './sandbox';
import { MAY_EXIST, creationEmails, until, upsertParameters } from './upsert';

/** A queue worker's execution (n8n 2.40+): no saved static data. */
export const worker = { worker: true };

/** Whether a row's output is a "may already exist" refusal. */
export const mayExist = (json: IDataObject) => json.action === 'failed' && MAY_EXIST.test(String(json.error));

/** The helpers over a test file's sandbox. */
export function syncRuns(sandbox: () => Sandbox) {
	/** One execution of Create or Update (On Error: Continue): outputs, actions, writes (method and path) and the creations it sent. `manual`: a run by hand. */
	async function run(h: Harness, items: IDataObject[], extra: INodeParameters, how: { worker?: boolean; manual?: boolean } = {}) {
		const from = sandbox().requests.length;
		const result = await h.run({ parameters: upsertParameters(extra, FIELDS), items, onError: 'continueRegularOutput', ...(how.worker ? { loadStaticData: false } : {}), ...(how.manual ? { manual: true } : {}) });
		const outputs = result.items.map((item) => item.json);
		return { outputs, actions: outputs.map((json) => String(json.action ?? 'none')), writes: writesSince(sandbox(), from), creations: creationEmails(sandbox(), from) };
	}
	return {
		run,
		/**
		 * `work` while a long Sync Rows run of `count` other new rows goes on in this process (slow creations, one at a time); whether
		 * that run was still under way when `work` ended (its first creation is held until then). `strict`: its rows must all be
		 * created (a fault `work` sets may hold some).
		 */
		async whileAnotherRuns(h: Harness, tag: string, work: () => Promise<void>, { by = BY_EMAIL, count = 24, strict = true }: { by?: INodeParameters; count?: number; strict?: boolean } = {}) {
			const digits = [...tag].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 1000;
			const others = Array.from({ length: count }, (_, index) => ({ email: `other.${tag}.${index}@example.test`, phone: `+49 30 58${String(digits).padStart(3, '0')}${String(index).padStart(3, '0')}`, first: tag, city: 'Bonn', skills: '' }));
			const from = sandbox().requests.length;
			sandbox().setFaults({ latencyMs: 400, paths: [CANDIDATE] });
			// Its first creation is held until `work` ended: the run goes on however fast `work`'s faults or a Forget end its other rows.
			const release = sandbox().holdNext('POST', CANDIDATE);
			let ended = false;
			const long = run(h, others, withOptions(by, { concurrency: 1 })).finally(() => (ended = true));
			let overlapped = false;
			try {
				expect(await until(() => sandbox().requests.slice(from).some((request) => request.method === 'POST' && request.path === CANDIDATE))).toBe(true);
				await work();
				overlapped = !ended;
			} finally {
				release();
			}
			const done = await long;
			sandbox().setFaults({});
			if (strict) expect(done.actions).toEqual(Array(others.length).fill('created'));
			return { overlapped };
		},
		/** The rows run by `by` in this process, then on a queue worker: both runs, and the creations they sent. */
		async hereAndOnWorker(h: Harness, items: IDataObject[], by: INodeParameters) {
			const from = sandbox().requests.length;
			const here = await run(h, items, by);
			inProcess('worker');
			const onWorker = await run(h, items, by, worker);
			inProcess('main');
			return { here, onWorker, creations: creationEmails(sandbox(), from) };
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
