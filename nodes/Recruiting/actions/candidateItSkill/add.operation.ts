/** Candidate IT Skill → Add: POST /gin/v1/company/candidate/it-skill. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { candidateSlugProperty, postRecord, recordParameters, wireInput } from '../common/candidateRecord';
import { optionsCollection } from '../common/options';
import { RULES, integer, text, validateBody } from '../common/validation';
import type { RunContext } from '../context';

const show = { resource: ['candidateItSkill'], operation: ['add'] };

export const description: INodeProperties[] = [
	candidateSlugProperty('candidateItSkill', 'add'),
	{
		displayName: 'Skill Name',
		name: 'skillName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Python',
		description: 'Name of the IT skill, as free text (e.g. "Python", "SQL", "Figma")',
		displayOptions: { show },
	},
	{
		displayName: 'Skill Level',
		name: 'skillLevel',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, maxValue: 4, numberPrecision: 0 },
		default: 1,
		description: 'Proficiency level on the service\'s scale: a whole number from 1 to 4 (text such as "3" is accepted)',
		displayOptions: { show },
	},
	optionsCollection('candidateItSkill', 'add'),
];

export const schema = z.object({
	user_slug: text(true),
	skill_name: text(true),
	skill_level_id: integer({ required: true, min: 1, max: 4, rule: RULES.skillLevel }),
});

export const labels = { user_slug: 'Candidate Slug', skill_name: 'Skill Name', skill_level_id: 'Skill Level' };

export const path = '/gin/v1/company/candidate/it-skill';

/** Parameter → wire field. */
export const wire = { candidateSlug: 'user_slug', skillName: 'skill_name', skillLevel: 'skill_level_id' };

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const input = wireInput(recordParameters(this, itemIndex, description), wire);
	const body = validateBody(this, itemIndex, schema, input, labels);
	return await postRecord(this, itemIndex, run, path, body);
}
