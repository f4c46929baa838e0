/** Candidate → Create: POST /gin/v1/company/candidate with email and/or phone, source, employee. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RunContext, Send } from '../context';
import { candidateFieldProperties } from '../shared/candidateProfile';
import { optionsCollection } from '../shared/options';
import { CREATE_LAYOUT, createCandidate, readCreate } from './requests';

export const description: INodeProperties[] = [
	...candidateFieldProperties('candidate', 'create', CREATE_LAYOUT),
	optionsCollection('candidate', 'create'),
];

export async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
	const body = readCreate(this, itemIndex);
	return async () => await createCandidate(this, itemIndex, run, body);
}
