/** The parameters of Candidate → Create or Update as the sync tests map a sheet onto it (e-mail, fields, IT skills as a list). */
import type { INodeParameters } from 'n8n-workflow';

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
