/** Candidate University → Add: POST /gin/v1/company/candidate/university. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { candidateSlugProperty, dateOrderOf, postRecord, recordParameters, wireInput } from '../common/candidateRecord';
import type { DateOrder } from '../common/dates';
import { dateFormatOption, optionsCollection } from '../common/options';
import { descriptionField, endDateField, startDateField } from '../common/recordFields';
import { resolveListId } from '../common/resolve';
import { date, endNotBeforeStart, idOrName, integer, positiveInteger, text, perDateOrder, validateBody } from '../common/validation';
import type { RunContext } from '../context';

const show = { resource: ['candidateUniversity'], operation: ['add'] };

export const description: INodeProperties[] = [
	candidateSlugProperty('candidateUniversity', 'add'),
	startDateField({ subject: 'the studies', required: true, show }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Degree Name or ID',
				name: 'universityDegreeId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getUniversityDegrees' },
				default: '',
				description:
					'Degree obtained or aimed at; an expression may also give its name. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			descriptionField('the studies'),
			endDateField('the studies', 'if ongoing'),
			{
				displayName: 'Grade',
				name: 'grade',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
				description: 'Grade obtained, as a whole number in the grading system given by Grading System ID',
			},
			{
				displayName: 'Grading System ID',
				name: 'gradingSystemId',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 1,
				description:
					'ID of the grading system of the grade, as your service account expects it (the service does not publish the list); sent unchanged',
			},
			{
				displayName: 'Study Name',
				name: 'studyName',
				type: 'string',
				default: '',
				description: 'Name of the study programme, e.g. "Computer Science"',
			},
			{
				displayName: 'University Name',
				name: 'universityName',
				type: 'string',
				default: '',
				description: 'Name of the university or college',
			},
		],
	},
	optionsCollection('candidateUniversity', 'add', [dateFormatOption]),
];

export const schemaFor = perDateOrder((order: DateOrder) =>
	z
		.object({
			user_slug: text(true),
			start_date: date(order, true),
			end_date: date(order),
			university_name: text(),
			study_name: text(),
			university_degrees_id: idOrName(),
			description: text(),
			grade: integer(),
			grading_systems_id: positiveInteger(),
		})
		.superRefine(endNotBeforeStart(order)),
);

export const labels = {
	user_slug: 'Candidate Slug',
	start_date: 'Start Date',
	end_date: 'End Date',
	university_name: 'University Name',
	study_name: 'Study Name',
	university_degrees_id: 'Degree',
	description: 'Description',
	grade: 'Grade',
	grading_systems_id: 'Grading System ID',
};

export const path = '/gin/v1/company/candidate/university';

/** Parameter → wire field. */
export const wire = {
	candidateSlug: 'user_slug', startDate: 'start_date', endDate: 'end_date',
	universityName: 'university_name', studyName: 'study_name',
	universityDegreeId: 'university_degrees_id', description: 'description', grade: 'grade',
	gradingSystemId: 'grading_systems_id',
};

/** Replaces the degree name of a validated body by its ID. */
export async function resolveNames(context: IExecuteFunctions, run: RunContext, itemIndex: number, body: IDataObject): Promise<void> {
	if (body.university_degrees_id !== undefined) {
		body.university_degrees_id = await resolveListId(
			context,
			run,
			itemIndex,
			'universityDegrees',
			body.university_degrees_id as number | string,
			{ label: labels.university_degrees_id, entryLabel: 'university degree' },
		);
	}
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = wireInput(recordParameters(this, itemIndex, description), wire);
	const body = validateBody(this, itemIndex, schemaFor(dateOrderOf(this, itemIndex)), input, labels);
	await resolveNames(this, run, itemIndex, body);
	return await postRecord(this, itemIndex, run, path, body);
}
