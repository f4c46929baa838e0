/**
 * Fields that several add operations have, described once: Start Date and End Date (Candidate
 * Job, University, Additional Info, and so Candidate → Import) and the free-text Description.
 */
import type { INodeProperties } from 'n8n-workflow';

/**
 * Dates are text fields, not n8n's dateTime picker: the picker shows a date-only value such as
 * 2024-01-01 as empty and adds 00:00:00 to a picked date, so the field would not show what the
 * workflow holds.
 */
export const DATE_PLACEHOLDER = 'e.g. 2024-03-05';

/** The accepted forms, short enough for a field description. */
export const DATE_FORMS = 'Accepted: YYYY-MM-DD, DD.MM.YYYY, an ISO date-time (its date as written) or a date from an expression.';

/** `show` of a parameter of one operation, or none (a field inside a collection). */
type Show = { resource: string[]; operation: string[] };

/**
 * The `startDate` parameter of a dated record: "When {subject} began. Accepted: ...".
 * Top-level (`required`, shown with `show`) or a field of Additional Fields (neither).
 */
export function startDateField(options: { subject: string; required?: boolean; show?: Show }): INodeProperties {
	const { subject, required, show } = options;
	return {
		displayName: 'Start Date',
		name: 'startDate',
		type: 'string',
		...(required ? { required: true } : {}),
		default: '',
		placeholder: DATE_PLACEHOLDER,
		description: `When ${subject} began. ${DATE_FORMS} Sent as Options → Date Format Sent says.`,
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** The `endDate` field of a dated record; `ongoing` ends "leave out ...", e.g. "if ongoing". */
export function endDateField(subject: string, ongoing?: string): INodeProperties {
	return {
		displayName: 'End Date',
		name: 'endDate',
		type: 'string',
		default: '',
		placeholder: DATE_PLACEHOLDER,
		description: `When ${subject} ended${ongoing ? `; leave out ${ongoing}` : ''}. Not before the start. ${DATE_FORMS}`,
	};
}

/** The free-text `description` field of a record: "Free text about {subject}". */
export function descriptionField(subject: string): INodeProperties {
	return {
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: `Free text about ${subject}`,
	};
}
