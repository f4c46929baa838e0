/**
 * Fields that several add operations have, described once: Start Date and End Date (Candidate
 * Job, University, Additional Info, and so Candidate → Import) and the free-text Description.
 */
import type { INodeProperties } from 'n8n-workflow';

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
		type: 'dateTime',
		...(required ? { required: true } : {}),
		default: '',
		description: `When ${subject} began. Accepted: YYYY-MM-DD, an ISO date-time (its date as written, no time-zone shift), DD.MM.YYYY, a date already in the format chosen under Options → Date Format Sent, or a date from an expression. Sent in that format.`,
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** The `endDate` field of a dated record; `ongoing` ends "leave out ...", e.g. "if ongoing". */
export function endDateField(subject: string, ongoing?: string): INodeProperties {
	return {
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		description: `When ${subject} ended${ongoing ? `; leave out ${ongoing}` : ''}. Same accepted forms as Start Date, and not before it.`,
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
