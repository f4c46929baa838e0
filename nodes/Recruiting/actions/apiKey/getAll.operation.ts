/** API Key → Get Many: the company's API integrations, one output item per key (`id`, `value`). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiList } from '../../transport';
import { optionsCollection } from '../shared/options';
import type { RunContext } from '../context';
import { toApiKey } from './shared';

/** API key values are the output: a secret the user asked for, not redacted (treat it like a password). */
export const outputIsSecret = true;

export const description: INodeProperties[] = [optionsCollection('apiKey', 'getAll')];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject[]> {
	const response = await apiList.call(this, { method: 'GET', path: '/v1/company/api-integrations', itemIndex }, run.session, 'list of API integrations');
	// No keys may come as `data: null` (an empty Go slice) or without `data`: both are an empty list.
	const list = response.data ?? [];
	if (!Array.isArray(list)) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'The list of API integrations came without a data array' },
			{ message: 'The service answered the API integrations request without a list in "data"', itemIndex },
		);
	}
	return list.map((entry) => toApiKey.call(this, entry, 'the API integrations request', itemIndex));
}
