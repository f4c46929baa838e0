/** The node's parameters: the resource selector, then each resource's operations and fields. */
import type { INodeProperties } from 'n8n-workflow';

import { resources } from './operations';

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'API Key',
			value: 'apiKey',
			description: 'Company API integrations: list, create and delete API keys (their values are secrets)',
		},
		{ name: 'Candidate', value: 'candidate', description: 'Create, update or import a candidate' },
		{
			name: 'Candidate Additional Info',
			value: 'candidateAdditionalInfo',
			description: 'Attach an additional-information entry to a candidate',
		},
		{ name: 'Candidate IT Skill', value: 'candidateItSkill', description: 'Attach an IT skill to a candidate' },
		{ name: 'Candidate Job', value: 'candidateJob', description: 'Attach a job to a candidate' },
		{ name: 'Candidate Language', value: 'candidateLanguage', description: 'Attach a language skill to a candidate' },
		{
			name: 'Candidate University',
			value: 'candidateUniversity',
			description: 'Attach a university record to a candidate',
		},
		{
			name: 'Reference List',
			value: 'referenceList',
			description: 'Read-only lists whose IDs and names the candidate records use',
		},
		{ name: 'Session', value: 'session', description: 'Log in or out with the credential' },
	],
	default: 'candidate',
};

export const properties: INodeProperties[] = [
	resourceSelector,
	...Object.values(resources).flatMap((resource) => resource.description),
];
