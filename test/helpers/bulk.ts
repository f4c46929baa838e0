/**
 * Shared by the bulk and session-fault service tests: runs of the engine harness, candidate rows, and checks on what a bulk
 * run returned. The sandbox, its seeded users and the credentials come from ../helpers/sandbox.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunOptions, RunResult } from './harness';
import { Harness } from './harness';
import type { LoggedRequest } from '../sandbox/server';

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
