/**
 * Shared by the bulk tests: a sandbox of the service over real HTTP on 127.0.0.1, the engine
 * harness with a credential for it, and checks on what a bulk run returned.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunOptions, RunResult } from '../helpers/harness';
import { Harness } from '../helpers/harness';
import { DEFAULT_COMPANIES } from '../sandbox/server';
import type { LoggedRequest, Sandbox } from '../sandbox/server';

/** The sandbox's seeded user of company 1 (credential field values taken from the seed, not written here). */
export const ALICE = DEFAULT_COMPANIES[0].users[0];

export function loginCredential(sandbox: Sandbox, extra: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return {
		baseUrl: sandbox.url,
		authentication: 'emailPassword',
		email: ALICE.email,
		password: ALICE.password,
		sessionToken: '',
		...extra,
	};
}

/** A session issued by the sandbox without a login request, as an access-token credential. */
export function tokenCredential(sandbox: Sandbox): ICredentialDataDecryptedObject {
	return { baseUrl: sandbox.url, authentication: 'accessToken', accessToken: sandbox.issueToken(ALICE.email) };
}

export async function runNode(
	harness: Harness,
	parameters: INodeParameters,
	items: IDataObject[],
	options: Omit<RunOptions, 'parameters' | 'items'> = {},
): Promise<RunResult> {
	return await harness.run({ parameters, items, ...options });
}

export const createParameters = (options: INodeParameters): INodeParameters => ({
	resource: 'candidate',
	operation: 'create',
	email: '={{ $json.email }}',
	phone: '={{ $json.phone }}',
	additionalFields: { source: '={{ $json.source }}' },
	options,
});

/** `count` candidate rows with distinct e-mail addresses; `invalidEvery` rows have neither e-mail nor phone. */
export function candidateRows(count: number, tag: string, invalidEvery = 0): IDataObject[] {
	return Array.from({ length: count }, (_, index) =>
		invalidEvery > 0 && index % invalidEvery === invalidEvery - 1
			? { email: '', phone: '', source: `${tag}-${index}` }
			: { email: `${tag}-${index}@bulk.test`, phone: '', source: `${tag}-${index}` },
	);
}

export const pairedIndexes = (items: INodeExecutionData[]): unknown[] =>
	items.map((item) => (item.pairedItem as { item?: number } | undefined)?.item);

/** Every output item without the fields that differ from run to run (the new slug). */
export const withoutSlug = (items: INodeExecutionData[]): IDataObject[] =>
	items.map((item) => {
		const rest = { ...item.json };
		delete rest.slug;
		return rest;
	});

export const isSuccess = (item: INodeExecutionData): boolean => item.error === undefined && item.json.error === undefined;

/** Requests of the log that reached a path (query ignored). */
export const requestsTo = (requests: LoggedRequest[], path: string, method?: string): LoggedRequest[] =>
	requests.filter((request) => request.path === path && (method === undefined || request.method === method));

export const CANDIDATE_PATH = '/gin/v1/company/candidate';
export const LOGIN_PATH = '/v1/login';
