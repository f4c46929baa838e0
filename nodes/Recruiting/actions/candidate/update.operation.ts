/** Candidate → Update: PUT /gin/v1/company/candidate with user_slug and only the fields set. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import type { CandidateFieldLayout } from '../common/candidateProfile';
import {
	CANDIDATE_UPDATE_FIELDS,
	candidateFieldProperties,
	candidateLabels,
	candidateShape,
	layoutFields,
	readCandidateFields,
} from '../common/candidateProfile';
import { candidateSlugProperty } from '../common/candidateRecord';
import { dateFormatOption, optionsCollection } from '../common/options';
import { itemParameter } from '../common/parameters';
import { text, validateBody } from '../common/validation';
import type { RunContext } from '../context';

export const layout: CandidateFieldLayout = {
	collection: { name: 'updateFields', displayName: 'Update Fields', fields: CANDIDATE_UPDATE_FIELDS },
};

export const description: INodeProperties[] = [
	candidateSlugProperty('candidate', 'update'),
	...candidateFieldProperties('candidate', 'update', layout),
	optionsCollection('candidate', 'update', [dateFormatOption]),
];

export const schema = z.object({ user_slug: text(true), ...candidateShape(layoutFields(layout)) });

export const labels = { user_slug: 'Candidate Slug', ...candidateLabels(layoutFields(layout)) };

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = {
		user_slug: itemParameter<string>(this, 'candidateSlug', itemIndex, ''),
		...readCandidateFields(this, itemIndex, layout),
	};
	const body = validateBody(this, itemIndex, schema, input, labels);
	if (Object.keys(body).length < 2) {
		throw new NodeOperationError(this.getNode(), '"Update Fields" has nothing to update: every field is empty', {
			itemIndex,
			description: 'Add at least one field with a value (empty fields are not sent), or skip this item.',
		});
	}
	const response = await apiRequest.call(this, { method: 'PUT', path: '/gin/v1/company/candidate', body, itemIndex }, run.session);
	const { user_slug: slug, ...fields } = body;
	const data = response.data;
	const answered = typeof data === 'object' && data !== null && !Array.isArray(data) && Object.keys(data).length > 0;
	return {
		slug,
		...(answered ? (data as IDataObject) : fields),
		...(response.message ? { message: response.message } : {}),
	};
}
