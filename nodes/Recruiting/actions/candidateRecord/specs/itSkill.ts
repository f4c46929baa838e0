/** Candidate IT Skill → Add: POST /gin/v1/company/candidate/it-skill. */
import { RULES, integer } from '../../shared/validation';
import type { RecordSpec } from '../spec';
import { textField } from '../spec';

export const itSkill: RecordSpec = {
	resource: { value: 'candidateItSkill', name: 'Candidate IT Skill', description: 'Attach an IT skill to a candidate' },
	add: {
		action: 'Add an IT skill to a candidate',
		description: 'Attach an IT skill with its level (1 to 4) to a candidate given by its slug',
	},
	path: '/gin/v1/company/candidate/it-skill',
	type: 'itSkill',
	label: 'IT skill',
	collection: { name: 'itSkills', displayName: 'IT Skills', entry: 'itSkill', entryDisplayName: 'IT Skill' },
	form: 'pairs',
	example: { text: 'TypeScript: 4, SQL: 3', json: '{"name": "TypeScript", "level": 4}' },
	fields: [
		textField(
			'skillName',
			'skill_name',
			'Skill Name',
			{ placeholder: 'e.g. Python', description: 'Name of the IT skill, as free text (e.g. "Python", "SQL", "Figma")' },
			{ required: true, column: 0, aliases: ['name', 'skill'] },
		),
		{
			parameter: 'skillLevel',
			wire: 'skill_level_id',
			label: 'Skill Level',
			required: true,
			column: 1,
			aliases: ['level'],
			schema: (required) => integer({ required, min: 1, max: 4, rule: RULES.skillLevel }),
			property: {
				displayName: 'Skill Level',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 4, numberPrecision: 0 },
				default: 1,
				description: 'Proficiency level on the service\'s scale: a whole number from 1 to 4 (text such as "3" is accepted)',
			},
		},
	],
};
