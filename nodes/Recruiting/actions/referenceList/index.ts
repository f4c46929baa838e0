import type { INodeProperties } from 'n8n-workflow';

import * as getBusinessAreas from './getBusinessAreas.operation';
import * as getJobTypes from './getJobTypes.operation';
import * as getLanguageSkills from './getLanguageSkills.operation';
import * as getUniversityDegrees from './getUniversityDegrees.operation';

export { getBusinessAreas, getJobTypes, getLanguageSkills, getUniversityDegrees };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['referenceList'] } },
		options: [
			{
				name: 'Get Business Areas',
				value: 'getBusinessAreas',
				action: 'Get business areas',
				description: 'List business area divisions, each with its areas (ID and name); a name is what a job\'s Business Area field takes',
			},
			{
				name: 'Get Job Types',
				value: 'getJobTypes',
				action: 'Get job types',
				description: 'List job types with their ID, German and English name (the ID is a job\'s Job Type)',
			},
			{
				name: 'Get Language Skills',
				value: 'getLanguageSkills',
				action: 'Get language skills',
				description: 'List languages with their ID (the ID is a language record\'s Language)',
			},
			{
				name: 'Get University Degrees',
				value: 'getUniversityDegrees',
				action: 'Get university degrees',
				description: 'List university degrees with their ID (the ID is a university record\'s Degree)',
			},
		],
		default: 'getJobTypes',
	},
	...getBusinessAreas.description,
	...getJobTypes.description,
	...getLanguageSkills.description,
	...getUniversityDegrees.description,
];

export const operations = { getBusinessAreas, getJobTypes, getLanguageSkills, getUniversityDegrees };
