/** Candidate Job → Add: POST /gin/v1/company/candidate/job. */
import { listLanguage } from '../../shared/validation';
import type { RecordSpec } from '../spec';
import { descriptionField, endDate, listField, startDate, textField } from '../spec';

export const job: RecordSpec = {
	resource: { value: 'candidateJob', name: 'Candidate Job', description: 'Attach a job to a candidate' },
	add: {
		action: 'Add a job to a candidate',
		description: 'Attach a job (employer, dates, title, job type, business area) to a candidate given by its slug',
	},
	path: '/gin/v1/company/candidate/job',
	type: 'job',
	label: 'job',
	collection: { name: 'jobs', displayName: 'Jobs', entry: 'job', entryDisplayName: 'Job' },
	form: 'columns',
	example: {
		text: 'Acme GmbH | Data Analyst | 2020-01-01 | 2022-06-30 | Working student; Globex AG | Developer | 2022-07-01',
		json: '{"company": "Acme GmbH", "title": "Data Analyst", "start": "2020-01-01", "end": "2022-06-30", "jobType": "Working student"}',
	},
	fields: [
		textField(
			'companyName',
			'company_name',
			'Company Name',
			{ description: 'Name of the employer' },
			{ required: true, column: 0, aliases: ['company', 'employer'] },
		),
		startDate('the job', 2, true),
		endDate('the job', 3, 'for an ongoing job'),
		textField('cityName', 'city_name', 'City Name', { description: 'City where the job was' }, { column: 6, aliases: ['city'] }),
		listField(
			{ parameter: 'jobTypeId', wire: 'job_type_id', label: 'Job Type', column: 4, aliases: ['type'] },
			'Job Type Name or ID',
			'getJobTypes',
			'Kind of employment; an expression may also give its name in German or English.',
			{ list: 'jobTypes', entryLabel: 'job type' },
		),
		descriptionField('the job', 7),
		textField('jobTitle', 'job_title', 'Job Title', { description: 'Title of the position, e.g. "Data Analyst"' }, { column: 1, aliases: ['title'] }),
		listField(
			{ parameter: 'businessAreaDivision', wire: 'business_area_division', label: 'Business Area', column: 5, aliases: ['businessArea'] },
			'Business Area Name or ID',
			'getBusinessAreas',
			'Business area or division of the job; sent as its name, in the job\'s Language.',
			'businessArea',
		),
		textField('lang', 'lang', 'Language', {
			type: 'options',
			options: [
				{ name: 'English', value: 'en' },
				{ name: 'German', value: 'de' },
			],
			default: 'de',
			description: 'Language of the job details (sent as the code "de" or "en"); the business area name is sent in this language',
		}, { schema: (required) => listLanguage(required) }),
	],
};
