/**
 * Candidate → Import's parameters: the candidate slug, the profile fields (as Create, plus all of
 * Update's in one collection), and every sub-record twice: as a fixed collection of its Add
 * operation's fields, and as one "JSON or Text" field.
 */
import { omit } from 'lodash';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { RecordKind } from '../../candidateRecord';
import { RECORD_KINDS } from '../../candidateRecord';
import type { CandidateFieldLayout } from '../../shared/candidateProfile';
import { CANDIDATE_CREATE_FIELDS, CANDIDATE_UPDATE_FIELDS, candidateFieldProperties } from '../../shared/candidateProfile';
import { candidateSlugProperty } from '../../shared/fields';
import { dateFormatOption, optionsCollection } from '../../shared/options';
import { CREATE_LAYOUT } from '../requests';
import { compactFormOf, listParameter } from './records';

const showFor = (operation: string) => ({ resource: ['candidate'], operation: [operation] });

/** E-mail and phone as in Create; every other candidate field in one collection. */
export const IMPORT_LAYOUT: CandidateFieldLayout = {
	topLevel: CREATE_LAYOUT.topLevel,
	collection: {
		name: 'additionalFields',
		displayName: 'Additional Fields',
		fields: [...new Set([...CANDIDATE_CREATE_FIELDS, ...CANDIDATE_UPDATE_FIELDS])].filter(
			(field) => !CREATE_LAYOUT.topLevel?.includes(field),
		),
	},
};

/** A record's fields in its fixed collection: its Add operation's, without slug, options and displayOptions. */
function entryFields(kind: RecordKind): INodeProperties[] {
	return kind.description
		.filter((property) => property.name !== 'candidateSlug' && property.name !== 'options')
		.map((property) => omit(property, 'displayOptions') as INodeProperties);
}

/** The short description of a "JSON or Text" field; the full syntax is in the README. */
function listFieldDescription(kind: RecordKind): string {
	const form =
		kind.form === 'pairs'
			? `"${compactFormOf(kind)}" entries, separated by commas, semicolons or line breaks`
			: `one per line or separated by ";": ${compactFormOf(kind)}`;
	return `Text, ${form}; or a JSON array. Full syntax in the README.`;
}

function recordCollection(kind: RecordKind, show: IDataObject): INodeProperties {
	const { collection } = kind;
	const names = kind.fields.some((field) => field.resolve) ? ' Dropdowns also take a name or an ID from an expression.' : '';
	return {
		displayName: collection.displayName,
		name: collection.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${collection.entryDisplayName}`,
		default: {},
		description: `The ${kind.label} entries to add to the candidate, one by one.${names}`,
		displayOptions: { show: { ...show, recordInput: ['fields'] } },
		options: [{ displayName: collection.entryDisplayName, name: collection.entry, values: entryFields(kind) }],
	};
}

function recordList(kind: RecordKind, show: IDataObject): INodeProperties {
	return {
		displayName: kind.collection.displayName,
		name: listParameter(kind),
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: `e.g. ${kind.example.text}`,
		description: listFieldDescription(kind),
		displayOptions: { show: { ...show, recordInput: ['lists'] } },
	};
}

/**
 * Import's parameters for an operation: Import itself, and Create or Update, which takes the same
 * row (the parameters are declared once per operation, as n8n shows a parameter by its operation).
 */
export function importParameters(operation: string, slugDescription: string, when: IDataObject = {}): INodeProperties[] {
	const show = { ...showFor(operation), ...when };
	const shown = <T extends INodeProperties>(property: T): T => ({ ...property, displayOptions: { show } });
	return [
		{
			...candidateSlugProperty('candidate', operation),
			required: false,
			description: slugDescription,
			displayOptions: { show },
		},
		// E-mail and phone also serve to find a row's memory (Create or Update's Forget Each Input Row): shown without `when`.
		...candidateFieldProperties('candidate', operation, IMPORT_LAYOUT).map((property) => (property.type === 'collection' ? shown(property) : property)),
		{
			displayName: 'Records Input',
			name: 'recordInput',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Fields',
					value: 'fields',
					description: 'Enter jobs, university records, IT skills, languages and additional information one by one below',
				},
				{
					name: 'JSON or Text',
					value: 'lists',
					description:
						'Give each list as a JSON array (e.g. from an expression) or as compact text as in a spreadsheet cell, e.g. languages "English: 4; German: 5".',
				},
			],
			default: 'fields',
			description: 'How the sub-records to add are given',
			displayOptions: { show },
		},
		...RECORD_KINDS.map((kind) => recordCollection(kind, show)),
		...RECORD_KINDS.map((kind) => recordList(kind, show)),
		optionsCollection('candidate', operation, [
			dateFormatOption,
			{
				displayName: 'Fail Item on Record Error',
				name: 'failOnRecordError',
				type: 'boolean',
				default: false,
				description:
					'Whether a failed record or profile update fails the whole item (its error item keeps the slug and the results per record). Off: the item succeeds and lists the failures.',
			},
		]),
	];
}

export const description: INodeProperties[] = [
	{
		displayName:
			'Import cannot detect duplicates: the service cannot look candidates up by e-mail or phone, so every import without a Candidate Slug creates a new candidate. For re-runs, use Create or Update, which remembers the candidates it created; or keep the "slug" of the first run and give it below.',
		name: 'importNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showFor('import') },
	},
	...importParameters(
		'import',
		'Empty: create a new candidate from Email / Phone. A slug (from Create or an earlier import): add to that candidate; nothing is created and Source and Employee are not sent.',
	),
];
