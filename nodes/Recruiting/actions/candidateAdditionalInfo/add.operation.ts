/** Candidate Additional Info → Add: POST /gin/v1/company/candidate/additional-information. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { candidateSlugProperty, dateOrderOf, postRecord, recordParameters, wireInput } from '../common/candidateRecord';
import type { DateOrder } from '../common/dates';
import { dateFormatOption, optionsCollection } from '../common/options';
import { descriptionField, endDateField, startDateField } from '../common/recordFields';
import { date, endNotBeforeStart, text, perDateOrder, validateBody } from '../common/validation';
import type { RunContext } from '../context';

const show = { resource: ['candidateAdditionalInfo'], operation: ['add'] };

export const description: INodeProperties[] = [
	candidateSlugProperty('candidateAdditionalInfo', 'add'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Volunteer work',
		description: 'Title of the entry (e.g. a certificate, volunteer work, a stay abroad)',
		displayOptions: { show },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			descriptionField('the entry'),
			endDateField('it'),
			startDateField({ subject: 'it' }),
		],
	},
	optionsCollection('candidateAdditionalInfo', 'add', [dateFormatOption]),
];

export const schemaFor = perDateOrder((order: DateOrder) =>
	z
		.object({
			user_slug: text(true),
			title: text(true),
			description: text(),
			start_date: date(order),
			end_date: date(order),
		})
		.superRefine(endNotBeforeStart(order)),
);

export const labels = {
	user_slug: 'Candidate Slug',
	title: 'Title',
	description: 'Description',
	start_date: 'Start Date',
	end_date: 'End Date',
};

export const path = '/gin/v1/company/candidate/additional-information';

/** Parameter → wire field. */
export const wire = {
	candidateSlug: 'user_slug', title: 'title', description: 'description', startDate: 'start_date',
	endDate: 'end_date',
};

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = wireInput(recordParameters(this, itemIndex, description), wire);
	const body = validateBody(this, itemIndex, schemaFor(dateOrderOf(this, itemIndex)), input, labels);
	return await postRecord(this, itemIndex, run, path, body);
}
