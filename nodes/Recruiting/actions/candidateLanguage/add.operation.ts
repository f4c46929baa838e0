/** Candidate Language → Add: POST /gin/v1/company/candidate/language. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { candidateSlugProperty, postRecord, recordParameters, wireInput } from '../common/candidateRecord';
import { optionsCollection } from '../common/options';
import { resolveListId } from '../common/resolve';
import { idOrName, positiveInteger, text, validateBody } from '../common/validation';
import type { RunContext } from '../context';

const show = { resource: ['candidateLanguage'], operation: ['add'] };

export const description: INodeProperties[] = [
	candidateSlugProperty('candidateLanguage', 'add'),
	{
		displayName: 'Language Name or ID',
		name: 'languageId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getLanguages' },
		required: true,
		default: '',
		description:
			'The language; an expression may also give its name in German or English. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show },
	},
	{
		displayName: 'Language Level ID',
		name: 'languageLevelId',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description:
			'Proficiency level ID, as your service account expects it (the service does not publish the list); sent unchanged',
		displayOptions: { show },
	},
	optionsCollection('candidateLanguage', 'add'),
];

export const schema = z.object({
	user_slug: text(true),
	language_id: idOrName(true),
	language_level_id: positiveInteger(true),
});

export const labels = { user_slug: 'Candidate Slug', language_id: 'Language', language_level_id: 'Language Level ID' };

export const path = '/gin/v1/company/candidate/language';

/** Parameter → wire field. */
export const wire = { candidateSlug: 'user_slug', languageId: 'language_id', languageLevelId: 'language_level_id' };

/** Replaces the language name of a validated body by its ID. */
export async function resolveNames(context: IExecuteFunctions, run: RunContext, itemIndex: number, body: IDataObject): Promise<void> {
	body.language_id = await resolveListId(context, run, itemIndex, 'languageSkills', body.language_id as number | string, {
		label: labels.language_id,
		entryLabel: 'language',
	});
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = wireInput(recordParameters(this, itemIndex, description), wire);
	const body = validateBody(this, itemIndex, schema, input, labels);
	await resolveNames(this, run, itemIndex, body);
	return await postRecord(this, itemIndex, run, path, body);
}
