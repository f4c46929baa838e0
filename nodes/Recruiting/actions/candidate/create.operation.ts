/** Candidate → Create: POST /gin/v1/company/candidate with email and/or phone, source, employee. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RunContext } from '../context';
import { candidateFieldProperties } from '../shared/candidateProfile';
import { optionsCollection } from '../shared/options';
import { CREATE_LAYOUT, createCandidate } from './requests';

export const description: INodeProperties[] = [
	...candidateFieldProperties('candidate', 'create', CREATE_LAYOUT),
	optionsCollection('candidate', 'create'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	return await createCandidate(this, itemIndex, run);
}
