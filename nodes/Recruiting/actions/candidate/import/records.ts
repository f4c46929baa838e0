/**
 * The five kinds of sub-records `candidate.import` adds, each built on its own add operation
 * (fields, parameter → wire map, body schema, labels, name resolution and path all come from
 * there), plus what only the import needs: short key aliases for JSON and the compact text form.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import * as additionalInfo from '../../candidateAdditionalInfo/add.operation';
import * as itSkill from '../../candidateItSkill/add.operation';
import * as job from '../../candidateJob/add.operation';
import * as language from '../../candidateLanguage/add.operation';
import * as university from '../../candidateUniversity/add.operation';
import type { DateOrder } from '../../common/dates';
import type { RunContext } from '../../context';

/**
 * The compact text of a list: `pairs` = `Name: level` entries separated by `,` `;` or line
 * breaks; `columns` = one record per line (or between `;`), its values separated by `|` in the
 * order of `columns`.
 */
export type CompactForm = 'pairs' | 'columns';

export interface RecordKind {
	/** Type of a record in the output: "job". */
	type: string;
	/** Its name in messages: "job", "university record". */
	label: string;
	/** The fixed collection of the editor ("jobs") and its entry ("job"). */
	collection: { name: string; displayName: string; entry: string; entryDisplayName: string };
	form: CompactForm;
	/** Parameters in compact-text order; the first names a record in the output (company, skill, ...). */
	columns: string[];
	/** Examples: compact text (the list field's placeholder; it must work as typed), and one JSON element. */
	example: { text: string; json: string };
	/** Short keys accepted in JSON besides parameter names, wire names and labels. */
	aliases: Record<string, string>;
	/** The add operation's parameters (the entry fields of the fixed collection). */
	description: INodeProperties[];
	wire: Record<string, string>;
	labels: Record<string, string>;
	schemaFor: (order: DateOrder) => BodySchema;
	path: string;
	resolveNames?: (context: IExecuteFunctions, run: RunContext, itemIndex: number, body: IDataObject) => Promise<void>;
}

type BodySchema = z.ZodType<object, z.ZodTypeDef, unknown>;

type OperationParts = Pick<RecordKind, 'description' | 'wire' | 'labels' | 'path' | 'resolveNames' | 'schemaFor'>;

/** What a kind takes from its add operation: the body schema (per date order, or one for all), fields, path. */
function fromOperation(
	operation: Omit<OperationParts, 'schemaFor'> & { schemaFor?: OperationParts['schemaFor']; schema?: BodySchema },
): OperationParts {
	const { description, wire, labels, path, resolveNames, schemaFor, schema } = operation;
	return { description, wire, labels, path, resolveNames, schemaFor: schemaFor ?? (() => schema as BodySchema) };
}

export const RECORD_KINDS: RecordKind[] = [
	{
		type: 'job',
		example: { text: 'Acme GmbH | Data Analyst | 2020-01-01 | 2022-06-30 | Working student; Globex AG | Developer | 2022-07-01', json: '{"company": "Acme GmbH", "title": "Data Analyst", "start": "2020-01-01", "end": "2022-06-30", "jobType": "Working student"}' },
		label: 'job',
		collection: { name: 'jobs', displayName: 'Jobs', entry: 'job', entryDisplayName: 'Job' },
		form: 'columns', columns: ['companyName', 'jobTitle', 'startDate', 'endDate', 'jobTypeId', 'businessAreaDivision', 'cityName', 'description'],
		aliases: {
			company: 'companyName',
			employer: 'companyName',
			title: 'jobTitle',
			start: 'startDate',
			end: 'endDate',
			city: 'cityName',
			type: 'jobTypeId',
			businessArea: 'businessAreaDivision',
		},
		...fromOperation(job),
	},
	{
		type: 'university',
		example: { text: 'TU Berlin | Computer Science | 2016-10-01 | 2020-09-30 | Bachelor of Science', json: '{"university": "TU Berlin", "study": "Computer Science", "start": "2016-10-01", "degree": "Master of Science"}' },
		label: 'university record',
		collection: {
			name: 'universities',
			displayName: 'University Records',
			entry: 'university',
			entryDisplayName: 'University Record',
		},
		form: 'columns', columns: ['universityName', 'studyName', 'startDate', 'endDate', 'universityDegreeId', 'grade', 'gradingSystemId', 'description'],
		aliases: { university: 'universityName', study: 'studyName', start: 'startDate', end: 'endDate', gradingSystem: 'gradingSystemId' },
		...fromOperation(university),
	},
	{
		type: 'itSkill',
		example: { text: 'TypeScript: 4, SQL: 3', json: '{"name": "TypeScript", "level": 4}' },
		label: 'IT skill',
		collection: { name: 'itSkills', displayName: 'IT Skills', entry: 'itSkill', entryDisplayName: 'IT Skill' },
		form: 'pairs', columns: ['skillName', 'skillLevel'],
		aliases: { name: 'skillName', skill: 'skillName', level: 'skillLevel' },
		...fromOperation(itSkill),
	},
	{
		type: 'language',
		example: { text: 'English: 4; German: 5', json: '{"language": "English", "level": 4}' },
		label: 'language',
		collection: { name: 'languages', displayName: 'Languages', entry: 'language', entryDisplayName: 'Language' },
		form: 'pairs', columns: ['languageId', 'languageLevelId'],
		aliases: { name: 'languageId', level: 'languageLevelId', languageLevel: 'languageLevelId' },
		...fromOperation(language),
	},
	{
		type: 'additionalInfo',
		example: { text: 'Volunteer work | 2019-01-01 | 2019-12-31 | Food bank', json: '{"title": "Volunteer work", "start": "2019-01-01", "description": "Food bank"}' },
		label: 'additional information',
		collection: {
			name: 'additionalInfo',
			displayName: 'Additional Information',
			entry: 'entry',
			entryDisplayName: 'Entry',
		},
		form: 'columns', columns: ['title', 'startDate', 'endDate', 'description'],
		aliases: { start: 'startDate', end: 'endDate' },
		...fromOperation(additionalInfo),
	},
];

/** The text/JSON parameter of a kind in "JSON or Text" mode: "jobList" (display name as its fixed collection). */
export function listParameter(kind: RecordKind): string {
	return `${kind.type}List`;
}

/** The fields one record may carry (every parameter of its add operation but the slug). */
export function recordFields(kind: RecordKind): string[] {
	return Object.keys(kind.wire).filter((name) => name !== 'candidateSlug');
}

/** How the compact text of a kind is written, for descriptions and messages. */
export function compactFormOf(kind: RecordKind): string {
	const display = (name: string) => kind.labels[kind.wire[name]] ?? name;
	if (kind.form === 'pairs') return `${display(kind.columns[0])}: ${display(kind.columns[1])}`;
	return kind.columns.map(display).join(' | ');
}
