/**
 * What the candidate operations share: the candidate slug parameter, the date order of an
 * item (`options.dateFormat`) and the POST of a sub-record with its output.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import type { RunContext } from '../context';
import type { DateOrder } from './dates';
import { DEFAULT_DATE_ORDER, isDateOrder } from './dates';

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

/** The day/month order of start and end dates for this item (`options.dateFormat`). */
export function dateOrderOf(context: IExecuteFunctions, itemIndex: number): DateOrder {
	const value = context.getNodeParameter('options.dateFormat', itemIndex, DEFAULT_DATE_ORDER);
	return isDateOrder(value) ? value : DEFAULT_DATE_ORDER;
}

/**
 * Sends one sub-record (job, university record, IT skill, language, additional information)
 * and returns `{ candidateSlug, message, ...fields sent }`.
 */
export async function postRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	path: string,
	body: IDataObject,
): Promise<IDataObject> {
	const response = await apiRequest.call(context, { method: 'POST', path, body, itemIndex }, run.session);
	const { user_slug: candidateSlug, ...fields } = body;
	return { candidateSlug, message: response.message ?? '', ...fields };
}
