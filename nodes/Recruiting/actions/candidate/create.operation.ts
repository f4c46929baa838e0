/** Candidate → Create: POST /gin/v1/company/candidate with email and/or phone, source, employee. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import type { CandidateFieldLayout } from '../common/candidateProfile';
import {
	candidateFieldProperties,
	candidateLabels,
	candidateShape,
	layoutFields,
	readCandidateFields,
	requirePhoneOrEmail,
} from '../common/candidateProfile';
import { optionsCollection } from '../common/options';
import { validateBody } from '../common/validation';
import type { RunContext } from '../context';

export const layout: CandidateFieldLayout = {
	topLevel: ['email', 'phone'],
	collection: { name: 'additionalFields', displayName: 'Additional Fields', fields: ['source', 'employee'] },
};

export const description: INodeProperties[] = [
	...candidateFieldProperties('candidate', 'create', layout),
	optionsCollection('candidate', 'create'),
];

export const schema = z.object(candidateShape(layoutFields(layout))).superRefine(requirePhoneOrEmail);

const labels = candidateLabels(layoutFields(layout));

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const body = validateBody(this, itemIndex, schema, readCandidateFields(this, itemIndex, layout), labels);
	const response = await apiRequest.call(
		this,
		{ method: 'POST', path: '/gin/v1/company/candidate', body, itemIndex },
		run.session,
	);
	const data = response.data as IDataObject | undefined;
	const slug = data && typeof data === 'object' ? data.slug : undefined;
	if (typeof slug !== 'string' || slug === '') {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'The service did not return the new candidate\'s slug' },
			{
				message: 'The candidate may have been created, but the service did not return its slug in "data.slug"',
				description: `Service answer: ${JSON.stringify(response.body).slice(0, 500)}`,
				itemIndex,
			},
		);
	}
	run.created.push({ item: itemIndex, slug });
	return { slug, ...body };
}
