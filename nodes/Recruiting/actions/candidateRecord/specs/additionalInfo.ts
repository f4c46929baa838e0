/** Candidate Additional Info → Add: POST /gin/v1/company/candidate/additional-information. */
import type { RecordSpec } from '../spec';
import { descriptionField, endDate, startDate, textField } from '../spec';

export const additionalInfo: RecordSpec = {
	resource: {
		value: 'candidateAdditionalInfo',
		name: 'Candidate Additional Info',
		description: 'Attach an additional-information entry to a candidate',
	},
	add: {
		action: 'Add additional information to a candidate',
		description: 'Attach an additional-information entry (title, description, dates) to a candidate given by its slug',
	},
	path: '/gin/v1/company/candidate/additional-information',
	type: 'additionalInfo',
	label: 'additional information',
	collection: { name: 'additionalInfo', displayName: 'Additional Information', entry: 'entry', entryDisplayName: 'Entry' },
	form: 'columns',
	example: {
		text: 'Volunteer work | 2019-01-01 | 2019-12-31 | Food bank',
		json: '{"title": "Volunteer work", "start": "2019-01-01", "description": "Food bank"}',
	},
	fields: [
		textField(
			'title',
			'title',
			'Title',
			{ placeholder: 'e.g. Volunteer work', description: 'Title of the entry (e.g. a certificate, volunteer work, a stay abroad)' },
			{ required: true, column: 0 },
		),
		descriptionField('the entry', 3),
		startDate('it', 1),
		endDate('it', 2),
	],
};
