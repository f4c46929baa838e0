/**
 * API Key → Create: a new API integration for the company (POST without a body); returns its
 * `id` and `value`. The transport never repeats a POST the service may have processed, so a
 * retry cannot create a second key.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { optionsCollection } from '../shared/options';
import type { RunContext } from '../context';
import { toApiKey } from './shared';

/** API key values are the output: a secret the user asked for, not redacted (treat it like a password). */
export const outputIsSecret = true;

export const description: INodeProperties[] = [optionsCollection('apiKey', 'create')];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const response = await apiRequest.call(
		this,
		{ method: 'POST', path: '/v1/company/api-integrations', itemIndex },
		run.session,
	);
	return toApiKey.call(this, response.data, 'the creation of an API integration', itemIndex);
}
