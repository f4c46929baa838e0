/** Candidate University → Add: POST /gin/v1/company/candidate/university. */
import { catalogueId, integer } from '../../shared/validation';
import type { RecordSpec } from '../spec';
import { descriptionField, endDate, listField, startDate, textField } from '../spec';

export const university: RecordSpec = {
	resource: { value: 'candidateUniversity', name: 'Candidate University', description: 'Attach a university record to a candidate' },
	add: {
		action: 'Add a university record to a candidate',
		description: 'Attach a university record (dates, university, study programme, degree, grade) to a candidate given by its slug',
	},
	path: '/gin/v1/company/candidate/university',
	type: 'university',
	label: 'university record',
	collection: { name: 'universities', displayName: 'University Records', entry: 'university', entryDisplayName: 'University Record' },
	form: 'columns',
	example: {
		text: 'TU Berlin | Computer Science | 2016-10-01 | 2020-09-30 | Bachelor of Science',
		json: '{"university": "TU Berlin", "study": "Computer Science", "start": "2016-10-01", "degree": "Master of Science"}',
	},
	fields: [
		startDate('the studies', 2, true),
		endDate('the studies', 3, 'if ongoing'),
		textField(
			'universityName',
			'university_name',
			'University Name',
			{ description: 'Name of the university or college' },
			{ column: 0, aliases: ['university'] },
		),
		textField(
			'studyName',
			'study_name',
			'Study Name',
			{ description: 'Name of the study programme, e.g. "Computer Science"' },
			{ column: 1, aliases: ['study'] },
		),
		listField(
			{ parameter: 'universityDegreeId', wire: 'university_degrees_id', label: 'Degree', column: 4 },
			'Degree Name or ID',
			'getUniversityDegrees',
			'Degree obtained or aimed at; an expression may also give its name.',
			{ list: 'universityDegrees', entryLabel: 'university degree' },
		),
		descriptionField('the studies', 7),
		{
			parameter: 'grade',
			wire: 'grade',
			label: 'Grade',
			column: 5,
			schema: (required) => integer({ required }),
			property: {
				displayName: 'Grade',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
				description: 'Grade obtained, as a whole number in the grading system given by Grading System ID',
			},
		},
		{
			parameter: 'gradingSystemId',
			wire: 'grading_systems_id',
			label: 'Grading System ID',
			column: 6,
			aliases: ['gradingSystem'],
			schema: catalogueId,
			property: {
				displayName: 'Grading System ID',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 1,
				description:
					'ID of the grading system of the grade, as your service account expects it (the service does not publish the list); sent unchanged',
			},
		},
	],
};
