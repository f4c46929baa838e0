/** Candidate → Update: PUT /gin/v1/company/candidate with user_slug and only the fields set. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { CandidateFieldLayout } from '../shared/candidateProfile';
import {
	CANDIDATE_UPDATE_FIELDS,
	candidateFieldProperties,
	candidateLabels,
	candidateShape,
	layoutFields,
	readCandidateFields,
} from '../shared/candidateProfile';
import { candidateSlugProperty } from '../shared/fields';
import { dateFormatOption, optionsCollection } from '../shared/options';
import { itemParameter } from '../shared/parameters';
import { text, validateBody } from '../shared/validation';
import type { RunContext, Send } from '../context';
import { updateCandidate } from './requests';

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

export async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
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
	return async () => {
		const response = await updateCandidate(this, itemIndex, run, body);
		const { user_slug: slug, ...fields } = body;
		const data = response.data;
		// The description does not show the answer's body: the fields sent, with whatever the answer's data adds or says otherwise.
		const answered = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : {};
		return {
			...{ slug, ...fields, ...answered },
			slug,
			...(response.message ? { message: response.message } : {}),
		};
	};
}
