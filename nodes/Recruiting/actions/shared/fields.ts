/**
 * Parameters that several operations describe alike: the candidate slug, and how a date field
 * reads (Start Date, End Date, Birthday).
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

/** The `candidateSlug` parameter of an operation. */
export function candidateSlugProperty(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'Candidate Slug',
		name: 'candidateSlug',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f6c2a9e-8b1d-4c47-9a0e-5d2f7b1c4e88',
		description:
			'Identifier of the candidate: the "slug" field that Candidate → Create returns (map it from the Create step\'s output)',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}
