/**
 * The sandbox and engine for the candidate.import and agent-tool tests: one sandbox per test
 * file (real HTTP on 127.0.0.1) started and stopped by jest's hooks, runs of the node as Alice
 * (company 1, e-mail/password credential), and what the sandbox stored and received.
 */
import type { INodeParameters } from 'n8n-workflow';

import { Harness } from './harness';
import type { RunOptions } from './harness';
import { emailCredential, storedCandidate, useSandbox } from './sandbox';
import type { Sandbox, SandboxCandidate } from '../sandbox/server';

/** Construct at the top of a test file: registers the hooks that start and stop the sandbox. */
export class ImportBench {
	private readonly current = useSandbox();

	get sandbox(): Sandbox {
		return this.current();
	}

	/** Runs Candidate → Import (or any operation named in `parameters`) as Alice. */
	async run(parameters: INodeParameters, options: Omit<RunOptions, 'parameters'> = {}) {
		const harness = new Harness(emailCredential(this.sandbox));
		return await harness.run({ parameters: { resource: 'candidate', operation: 'import', ...parameters }, ...options });
	}

	/** The candidate as company 1 has it stored. */
	stored(slug: unknown): SandboxCandidate {
		return storedCandidate(this.sandbox, slug);
	}

	/** The write requests the sandbox received after the first `from` requests (method, path, body). */
	writesSince(from: number) {
		return this.sandbox.requests
			.slice(from)
			.filter((request) => request.method !== 'GET' && request.path !== '/v1/login')
			.map(({ method, path, body }) => ({ method, path, body }));
	}
}
