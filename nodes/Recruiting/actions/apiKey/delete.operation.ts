/**
 * API Key → Delete: deletes one API integration by ID; returns `{ deleted: true, id }`.
 *
 * The ID goes into the path as exactly one segment: surrounding spaces are trimmed, everything
 * else is percent-encoded (encodeURIComponent), so `a/b`, `../login`, `%2e%2e` or `a b` cannot
 * reach another path. `.` and `..` are left alone by encodeURIComponent and would be resolved
 * away by the URL parser, so they are refused before anything is sent, like an empty ID.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { optionsCollection } from '../common/options';
import type { RunContext } from '../context';

export const description: INodeProperties[] = [
	{
		displayName: 'API Key ID',
		name: 'apiKeyId',
		type: 'string',
		required: true,
		typeOptions: { password: true },
		default: '',
		placeholder: '12',
		description:
			'ID of the API integration to delete: the ID from API Key → Get Many, not the key value. Any program using that key loses access.',
		displayOptions: { show: { resource: ['apiKey'], operation: ['delete'] } },
	},
	optionsCollection('apiKey', 'delete'),
];

/** The ID as one encoded path segment; throws before any request when it cannot be one. */
export function apiKeyPathSegment(this: IExecuteFunctions, raw: unknown, itemIndex: number): { id: string; segment: string } {
	const id = typeof raw === 'number' || typeof raw === 'string' ? String(raw).trim() : '';
	if (id === '') {
		throw new NodeOperationError(this.getNode(), 'The API Key ID is empty: enter the ID of the API integration to delete', {
			itemIndex,
			description: 'The ID is the "id" that API Key → Get Many returns for each key.',
		});
	}
	if (id === '.' || id === '..') {
		throw new NodeOperationError(this.getNode(), `"${id}" is not an API Key ID`, {
			itemIndex,
			description: 'The ID is the "id" that API Key → Get Many returns for each key.',
		});
	}
	return { id, segment: encodeURIComponent(id) };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const { id, segment } = apiKeyPathSegment.call(this, this.getNodeParameter('apiKeyId', itemIndex, ''), itemIndex);
	const response = await apiRequest.call(
		this,
		{ method: 'DELETE', path: `/v1/company/api-integrations/${segment}`, itemIndex, accept: [404] },
		run.session,
	);
	const output: IDataObject = { deleted: true, id: /^\d{1,15}$/.test(id) ? Number(id) : id };
	if (response.httpStatus === 404) {
		if (!response.repeated) {
			// The ID field is a password field: its value is never echoed (it may be a key pasted by mistake).
			throw new NodeApiError(
				this.getNode(),
				{ message: 'No API key with this ID was found', httpCode: '404' },
				{
					message: 'No API key with this ID was found (HTTP 404)',
					description:
						'The company has no API integration with this ID, or it was already deleted. API Key → Get Many lists the existing IDs.',
					httpCode: '404',
					itemIndex,
				},
			);
		}
		output.note = 'The first attempt\'s answer was lost; the repeated request found the key gone, so the first attempt deleted it';
	}
	return output;
}
