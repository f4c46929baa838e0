/** Candidate Job → Add: POST /gin/v1/company/candidate/job. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { candidateSlugProperty, dateOrderOf, postRecord, recordParameters, wireInput } from '../common/candidateRecord';
import type { DateOrder } from '../common/dates';
import { dateFormatOption, optionsCollection } from '../common/options';
import { descriptionField, endDateField, startDateField } from '../common/recordFields';
import type { ListLanguage } from '../common/referenceLists';
import { resolveBusinessArea, resolveListId } from '../common/resolve';
import { date, endNotBeforeStart, idOrName, text, perDateOrder, validateBody } from '../common/validation';
import type { RunContext } from '../context';

const show = { resource: ['candidateJob'], operation: ['add'] };

export const description: INodeProperties[] = [
	candidateSlugProperty('candidateJob', 'add'),
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		required: true,
		default: '',
		description: 'Name of the employer',
		displayOptions: { show },
	},
	startDateField({ subject: 'the job', required: true, show }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Business Area Name or ID',
				name: 'businessAreaDivision',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getBusinessAreas' },
				default: '',
				description:
					'Business area or division of the job; an expression may also give its name. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'City Name',
				name: 'cityName',
				type: 'string',
				default: '',
				description: 'City where the job was',
			},
			descriptionField('the job'),
			endDateField('the job', 'for an ongoing job'),
			{
				displayName: 'Job Title',
				name: 'jobTitle',
				type: 'string',
				default: '',
				description: 'Title of the position, e.g. "Data Analyst"',
			},
			{
				displayName: 'Job Type Name or ID',
				name: 'jobTypeId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getJobTypes' },
				default: '',
				description:
					'Kind of employment; an expression may also give its name in German or English. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Language',
				name: 'lang',
				type: 'options',
				options: [
					{ name: 'English', value: 'en' },
					{ name: 'German', value: 'de' },
				],
				default: 'de',
				description:
					'Language of the job details (sent as the code "de" or "en"); the business area name is sent in this language',
			},
		],
	},
	optionsCollection('candidateJob', 'add', [dateFormatOption]),
];

export const schemaFor = perDateOrder((order: DateOrder) =>
	z
		.object({
			user_slug: text(true),
			company_name: text(true),
			start_date: date(order, true),
			end_date: date(order),
			city_name: text(),
			job_type_id: idOrName(),
			description: text(),
			job_title: text(),
			business_area_division: text(),
			lang: text(),
		})
		.superRefine(endNotBeforeStart(order)),
);

export const labels = {
	user_slug: 'Candidate Slug',
	company_name: 'Company Name',
	start_date: 'Start Date',
	end_date: 'End Date',
	city_name: 'City Name',
	job_type_id: 'Job Type',
	description: 'Description',
	job_title: 'Job Title',
	business_area_division: 'Business Area',
	lang: 'Language',
};

export const path = '/gin/v1/company/candidate/job';

/** Parameter → wire field. */
export const wire = {
	candidateSlug: 'user_slug', companyName: 'company_name', startDate: 'start_date',
	endDate: 'end_date', cityName: 'city_name', jobTypeId: 'job_type_id', description: 'description',
	jobTitle: 'job_title', businessAreaDivision: 'business_area_division', lang: 'lang',
};

/** Replaces the job type and business area names of a validated body by what the service takes. */
export async function resolveNames(context: IExecuteFunctions, run: RunContext, itemIndex: number, body: IDataObject): Promise<void> {
	const lang: ListLanguage = body.lang === 'en' ? 'en' : 'de';
	if (body.job_type_id !== undefined) {
		body.job_type_id = await resolveListId(context, run, itemIndex, 'jobTypes', body.job_type_id as number | string, {
			label: labels.job_type_id,
			entryLabel: 'job type',
		});
	}
	if (body.business_area_division !== undefined) {
		body.business_area_division = await resolveBusinessArea(
			context,
			run,
			itemIndex,
			body.business_area_division as string,
			labels.business_area_division,
			lang,
		);
	}
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = wireInput(recordParameters(this, itemIndex, description), wire);
	const body = validateBody(this, itemIndex, schemaFor(dateOrderOf(this, itemIndex)), input, labels);
	await resolveNames(this, run, itemIndex, body);
	return await postRecord(this, itemIndex, run, path, body);
}
