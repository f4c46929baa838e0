import type { ResourceDefinition } from '../context';
import { listOperation } from './listOperation';

export const resource: ResourceDefinition = {
	option: {
		name: 'Reference List',
		value: 'referenceList',
		description: 'Read-only lists whose IDs and names the candidate records use',
	},
	defaultOperation: 'getJobTypes',
	operations: [
		{
			option: {
				name: 'Get Business Areas',
				value: 'getBusinessAreas',
				action: 'Get business areas',
				description: 'List business area divisions, each with its areas (ID and name); a name is what a job\'s Business Area field takes',
			},
			module: listOperation('getBusinessAreas', 'businessAreas'),
		},
		{
			option: {
				name: 'Get Job Types',
				value: 'getJobTypes',
				action: 'Get job types',
				description: 'List job types with their ID, German and English name (the ID is a job\'s Job Type)',
			},
			module: listOperation('getJobTypes', 'jobTypes'),
		},
		{
			option: {
				name: 'Get Language Skills',
				value: 'getLanguageSkills',
				action: 'Get language skills',
				description: 'List languages with their ID (the ID is a language record\'s Language)',
			},
			module: listOperation('getLanguageSkills', 'languageSkills'),
		},
		{
			option: {
				name: 'Get University Degrees',
				value: 'getUniversityDegrees',
				action: 'Get university degrees',
				description: 'List university degrees with their ID (the ID is a university record\'s Degree)',
			},
			module: listOperation('getUniversityDegrees', 'universityDegrees'),
		},
	],
};
