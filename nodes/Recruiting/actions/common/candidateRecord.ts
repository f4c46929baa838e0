/**
 * What the candidate operations share: the candidate slug parameter, the date order of an
 * item (`options.dateFormat`) and the POST of a sub-record with its output.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import type { RunContext } from '../context';
import type { DateOrder } from './dates';
import { DEFAULT_DATE_ORDER, isDateOrder } from './dates';
import { itemParameter } from './parameters';

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
	const value = itemParameter(context, 'options.dateFormat', itemIndex, DEFAULT_DATE_ORDER);
	return isDateOrder(value) ? value : DEFAULT_DATE_ORDER;
}

/** The parameters `recordParameters` reads for a description (name and fallback), found once per description. */
const readLists = new WeakMap<INodeProperties[], Array<{ name: string; fallback: IDataObject | string }>>();

function parametersToRead(description: INodeProperties[]): Array<{ name: string; fallback: IDataObject | string }> {
	let list = readLists.get(description);
	if (!list) {
		list = description
			.filter((property) => property.name !== 'options')
			.map((property) => ({ name: property.name, fallback: property.type === 'collection' ? {} : '' }));
		readLists.set(description, list);
	}
	return list;
}

/**
 * An add operation's values for one item, keyed by parameter name: every top-level parameter
 * of `description` (except Options) with its "Additional Fields" merged in. Parameters without
 * an expression are read once per node run (`itemParameter`).
 */
export function recordParameters(
	context: IExecuteFunctions,
	itemIndex: number,
	description: INodeProperties[],
): IDataObject {
	const values: IDataObject = {};
	for (const { name, fallback } of parametersToRead(description)) {
		values[name] = itemParameter<IDataObject[string]>(context, name, itemIndex, fallback);
	}
	return flattenRecord(values);
}

/** A record's values with its "Additional Fields" collection merged in (top-level values win). */
export function flattenRecord(values: IDataObject): IDataObject {
	const { additionalFields, ...rest } = values;
	return { ...((additionalFields as IDataObject | undefined) ?? {}), ...rest };
}

/** Values keyed by parameter name → raw body keyed by wire field (`wire`: parameter → wire field). */
export function wireInput(values: IDataObject, wire: Record<string, string>): IDataObject {
	return Object.fromEntries(Object.entries(wire).map(([parameter, field]) => [field, values[parameter]]));
}

/**
 * Sends one sub-record (job, university record, IT skill, language, additional information)
 * and returns `{ slug, message, ...fields sent }`: the candidate is `slug` in every output (as
 * Create returns it), the record's fields keep the service's names (`company_name`, `start_date`).
 */
export async function postRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	path: string,
	body: IDataObject,
): Promise<IDataObject> {
	const response = await apiRequest.call(context, { method: 'POST', path, body, itemIndex }, run.session);
	const { user_slug: slug, ...fields } = body;
	return { slug, message: response.message ?? '', ...fields };
}
