/** Candidate Language → Add: POST /gin/v1/company/candidate/language. */
import { catalogueId } from '../../shared/validation';
import type { RecordSpec } from '../spec';
import { listField } from '../spec';

export const language: RecordSpec = {
	resource: { value: 'candidateLanguage', name: 'Candidate Language', description: 'Attach a language skill to a candidate' },
	add: {
		action: 'Add a language to a candidate',
		description: 'Attach a language skill with its level to a candidate given by its slug',
	},
	path: '/gin/v1/company/candidate/language',
	type: 'language',
	label: 'language',
	collection: { name: 'languages', displayName: 'Languages', entry: 'language', entryDisplayName: 'Language' },
	form: 'pairs',
	example: { text: 'English: 4; German: 5', json: '{"language": "English", "level": 4}' },
	fields: [
		listField(
			{ parameter: 'languageId', wire: 'language_id', label: 'Language', required: true, column: 0, aliases: ['name'] },
			'Language Name or ID',
			'getLanguages',
			'The language; an expression may also give its name in German or English.',
			{ list: 'languageSkills', entryLabel: 'language' },
		),
		{
			parameter: 'languageLevelId',
			wire: 'language_level_id',
			label: 'Language Level ID',
			required: true,
			column: 1,
			aliases: ['level', 'languageLevel'],
			schema: catalogueId,
			property: {
				displayName: 'Language Level ID',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 1,
				description:
					'Proficiency level ID, as your service account expects it (the service does not publish the list); sent unchanged',
			},
		},
	],
};
