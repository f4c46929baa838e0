/**
 * The candidate's own requests, shared by Create, Update and Import: create (POST, with the
 * fields of Create's layout) and update (PUT).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import type { ServiceResponse } from '../../transport';
import { apiRequest, redactAndCut } from '../../transport';
import type { RunContext } from '../context';
import type { CandidateFieldLayout } from '../shared/candidateProfile';
import {
	candidateLabels,
	candidateShape,
	layoutFields,
	readCandidateFields,
	requirePhoneOrEmail,
} from '../shared/candidateProfile';
import { retryMemory } from '../../memory';
import { validateBody } from '../shared/validation';

const CANDIDATE_PATH = '/gin/v1/company/candidate';

/** Create's fields: e-mail and phone as parameters, source and employee in "Additional Fields" (Import's layout starts from it). */
export const CREATE_LAYOUT: CandidateFieldLayout = {
	topLevel: ['email', 'phone'],
	collection: { name: 'additionalFields', displayName: 'Additional Fields', fields: ['source', 'employee'] },
};

const createSchema = z.object(candidateShape(layoutFields(CREATE_LAYOUT))).superRefine(requirePhoneOrEmail);
const createLabels = candidateLabels(layoutFields(CREATE_LAYOUT));

/** The item's Create fields as the creation's body, validated (nothing is sent). */
export function readCreate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return validateBody(context, itemIndex, createSchema, readCandidateFields(context, itemIndex, CREATE_LAYOUT), createLabels);
}

/**
 * Creates a candidate from the item's Create fields (`body`, from `readCreate`) and returns `{ slug, ...fields sent }`; the
 * slug is kept in the execution's list of created candidates, and in the node's retry memory:
 * when n8n's "Retry On Fail" runs the node again, an item whose candidate an earlier try
 * created is not sent again and returns that slug.
 */
export async function createCandidate(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	body: IDataObject,
): Promise<IDataObject> {
	const memory = await retryMemory(context, run);
	// Whom this creation is for: an earlier try's candidate counts only for the same person (other fields may carry $now).
	const whom = JSON.stringify([body.email ?? '', body.phone ?? '']);
	const earlier = memory.createdSlug(itemIndex, whom);
	if (earlier !== undefined) {
		// An earlier try of this node run (Retry On Fail) created it: not sent again.
		run.created.push({ item: itemIndex, slug: earlier });
		return { slug: earlier, ...body };
	}
	// Sent at most once across n8n's tries: an answer without a slug counts as none (the service may well have created it).
	const slug = await memory.sendOnce(itemIndex, `create ${whom}`, async () => {
		const response = await apiRequest.call(context, { method: 'POST', path: CANDIDATE_PATH, body, itemIndex }, run.session);
		const data = response.data as IDataObject | undefined;
		const given = data && typeof data === 'object' ? data.slug : undefined;
		if (typeof given === 'string' && given !== '') return given;
		// Answered 2xx: the service may well have created it; never create it again blindly.
		const error = new NodeApiError(
			context.getNode(),
			{ message: 'The service did not return the new candidate\'s slug' },
			{
				message: 'The candidate may have been created, but the service did not return its slug in "data.slug"',
				description: `Service answer: ${redactAndCut(JSON.stringify(response.body), await run.session.secrets(), 500)}`,
				itemIndex,
			},
		);
		error.context.mayExist = true;
		throw error;
	});
	memory.created(itemIndex, slug, whom);
	run.created.push({ item: itemIndex, slug });
	return { slug, ...body };
}

/** Sends a candidate update (`body` holds `user_slug` and the wire fields to change). */
export async function updateCandidate(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	body: IDataObject,
): Promise<ServiceResponse> {
	return await apiRequest.call(context, { method: 'PUT', path: CANDIDATE_PATH, body, itemIndex }, run.session);
}
