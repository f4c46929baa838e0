/**
 * Candidate → Import: one input item in, one complete candidate out. Creates the candidate (or
 * takes the one a given slug names), updates its profile, then adds every job, university
 * record, IT skill, language and additional-information entry, one request after another.
 * All input is validated before the first request. A failing record (or profile update) never
 * loses the candidate: the output carries the slug and one result per record; with "Fail Item
 * on Record Error" the item fails instead and its error item keeps the same data.
 */
import { omit } from 'lodash';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import type { CandidateFieldLayout } from '../common/candidateProfile';
import {
	CANDIDATE_CREATE_FIELDS,
	CANDIDATE_UPDATE_FIELDS,
	candidateFieldProperties,
	candidateLabels,
	candidateShape,
	candidateWireName,
	layoutFields,
	readCandidateFields,
	requirePhoneOrEmail,
} from '../common/candidateProfile';
import { candidateSlugProperty, dateOrderOf, flattenRecord, postRecord, wireInput } from '../common/candidateRecord';
import { acceptedDateForms } from '../common/dates';
import { dateFormatOption, optionsCollection } from '../common/options';
import { itemParameter } from '../common/parameters';
import { validateBody } from '../common/validation';
import type { RunContext } from '../context';
import * as create from './create.operation';
import type { ListEntry } from './import/lists';
import { parseList } from './import/lists';
import type { RecordKind } from './import/records';
import { RECORD_KINDS, compactFormOf, listParameter } from './import/records';

const show = { resource: ['candidate'], operation: ['import'] };

/** E-mail and phone as in Create; every other candidate field in one collection. */
export const layout: CandidateFieldLayout = {
	topLevel: create.layout.topLevel,
	collection: {
		name: 'additionalFields',
		displayName: 'Additional Fields',
		fields: [...new Set([...CANDIDATE_CREATE_FIELDS, ...CANDIDATE_UPDATE_FIELDS])].filter(
			(field) => !create.layout.topLevel?.includes(field),
		),
	},
};

const labels = candidateLabels(layoutFields(layout));
const profileSchema = z.object(candidateShape(layoutFields(layout)));
const newCandidateSchema = profileSchema.superRefine(requirePhoneOrEmail);

/** Wire fields only Create takes (sent once, when the candidate is created). */
const CREATE_ONLY = CANDIDATE_CREATE_FIELDS.filter((field) => !CANDIDATE_UPDATE_FIELDS.includes(field)).map(candidateWireName);
/** Wire fields that Create already sent (not sent again in the update of a new candidate). */
const SENT_ON_CREATE = CANDIDATE_CREATE_FIELDS.map(candidateWireName);

const DATES = `Dates accept ${acceptedDateForms('DD-MM-YYYY')}; the MM-DD-YYYY form applies instead when Options → Date Format Sent says so.`;
const NAMES =
	'Job types, business areas, degrees and languages may be given by ID or by name in German or English (case, accents and spaces do not matter, e.g. "Working student", "Werkstudent", "Master of Science", "Englisch").';

function entryFields(kind: RecordKind): INodeProperties[] {
	return kind.description
		.filter((property) => property.name !== 'candidateSlug' && property.name !== 'options')
		.map((property) => omit(property, 'displayOptions') as INodeProperties);
}

function listDescription(kind: RecordKind): string {
	const form =
		kind.form === 'pairs'
			? `"${compactFormOf(kind)}" entries separated by commas, semicolons or line breaks`
			: `one ${kind.label} per line (or separated by ";"), values separated by "|" in this order: ${compactFormOf(kind)}; blank values may stay empty, trailing ones may be left out`;
	return `The ${kind.label} entries to add. Either compact text: ${form} (e.g. ${JSON.stringify(kind.example.text)}); or a JSON array of objects (e.g. [${kind.example.json}]) whose keys are the field names (${Object.keys(kind.wire)
		.filter((name) => name !== 'candidateSlug')
		.join(', ')}), the service's field names, or the short keys ${Object.keys(kind.aliases).join(', ')}.${kind.resolveNames ? ` ${NAMES}` : ''}${kind.form === 'columns' ? ` ${DATES}` : ''} Leave empty for none.`;
}

/** The short description of a "JSON or Text" field; the full syntax is in the README. */
function listFieldDescription(kind: RecordKind): string {
	const form =
		kind.form === 'pairs'
			? `"${compactFormOf(kind)}" entries, separated by commas, semicolons or line breaks`
			: `one per line or separated by ";": ${compactFormOf(kind)}`;
	return `Text, ${form}; or a JSON array. Full syntax in the README.`;
}

export const description: INodeProperties[] = [
	{
		displayName:
			'Import cannot detect duplicates: the service cannot look candidates up by e-mail or phone, so every import without a Candidate Slug creates a new candidate. To re-run an import safely, keep the "slug" of the first run and give it below.',
		name: 'importNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		...candidateSlugProperty('candidate', 'import'),
		required: false,
		description:
			'Empty: create a new candidate from Email / Phone. A slug (from Create or an earlier import): add to that candidate; nothing is created and Source and Employee are not sent.',
	},
	...candidateFieldProperties('candidate', 'import', layout),
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
				description: 'Give each list as a JSON array (e.g. from an expression) or as compact text as in a spreadsheet cell, e.g. languages "English: 4; German: 5".',
			},
		],
		default: 'fields',
		description: 'How the sub-records to add are given',
		displayOptions: { show },
	},
	...RECORD_KINDS.map(
		(kind): INodeProperties => ({
			displayName: kind.collection.displayName,
			name: kind.collection.name,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: `Add ${kind.collection.entryDisplayName}`,
			default: {},
			description: `The ${kind.label} entries to add to the candidate, one by one.${kind.resolveNames ? ' Dropdowns also take a name or an ID from an expression.' : ''}`,
			displayOptions: { show: { ...show, recordInput: ['fields'] } },
			options: [{ displayName: kind.collection.entryDisplayName, name: kind.collection.entry, values: entryFields(kind) }],
		}),
	),
	...RECORD_KINDS.map(
		(kind): INodeProperties => ({
			displayName: kind.collection.displayName,
			name: listParameter(kind),
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: `e.g. ${kind.example.text}`,
			description: listFieldDescription(kind),
			displayOptions: { show: { ...show, recordInput: ['lists'] } },
		}),
	),
	optionsCollection('candidate', 'import', [
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

interface PlannedRecord {
	kind: RecordKind;
	index: number;
	name: string;
	body?: IDataObject;
	problem?: string;
}

export interface RecordResult extends IDataObject {
	type: string;
	index: number;
	name: string;
	ok: boolean;
}

const PENDING_SLUG = 'pending';

function messageOf(error: unknown): string {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) {
		return error.description && error instanceof NodeOperationError && error.description.startsWith('Also:')
			? `${error.message}. ${error.description}`
			: error.message;
	}
	return error instanceof Error ? error.message : String(error);
}

function entriesOf(context: IExecuteFunctions, itemIndex: number, kind: RecordKind, mode: string): ListEntry[] {
	if (mode === 'fields') {
		const entries = itemParameter<IDataObject[]>(context, `${kind.collection.name}.${kind.collection.entry}`, itemIndex, []);
		return entries.map((entry) => ({ values: flattenRecord(entry) }));
	}
	const parsed = parseList(kind, itemParameter(context, listParameter(kind), itemIndex, ''));
	if ('syntax' in parsed) {
		throw new NodeOperationError(context.getNode(), `"${kind.collection.displayName}" ${parsed.syntax}`, {
			itemIndex,
			description: listDescription(kind),
		});
	}
	return parsed;
}

/** Every record of the item, validated (the slug is filled in once known). */
function planRecords(context: IExecuteFunctions, itemIndex: number): PlannedRecord[] {
	const order = dateOrderOf(context, itemIndex);
	const mode = itemParameter<string>(context, 'recordInput', itemIndex, 'fields');
	return RECORD_KINDS.flatMap((kind) =>
		entriesOf(context, itemIndex, kind, mode).map((entry, position): PlannedRecord => {
			const index = position + 1;
			if ('problem' in entry) return { kind, index, name: '', problem: entry.problem };
			const name = entry.values[kind.columns[0]];
			const planned: PlannedRecord = { kind, index, name: name === undefined || name === null ? '' : String(name) };
			try {
				const input = wireInput({ ...entry.values, candidateSlug: PENDING_SLUG }, kind.wire);
				planned.body = validateBody(context, itemIndex, kind.schemaFor(order), input, kind.labels);
			} catch (error) {
				planned.problem = messageOf(error);
			}
			return planned;
		}),
	);
}

function describeRecord(record: { kind: RecordKind; index: number; name: string }): string {
	return `${record.kind.label} ${record.index}${record.name ? ` ("${record.name}")` : ''}`;
}

async function addRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	slug: string,
	record: PlannedRecord,
): Promise<RecordResult> {
	const result: RecordResult = { type: record.kind.type, index: record.index, name: record.name, ok: false };
	if (record.problem !== undefined || !record.body) return { ...result, error: record.problem ?? 'invalid input' };
	try {
		const body = { ...record.body, user_slug: slug };
		await record.kind.resolveNames?.(context, run, itemIndex, body);
		const sent = await postRecord(context, itemIndex, run, record.kind.path, body);
		return { ...result, ok: true, message: sent.message };
	} catch (error) {
		return { ...result, error: messageOf(error) };
	}
}

function summaryText(result: IDataObject, records: RecordResult[], failed: Array<{ text: string }>): string {
	const parts = [
		result.created ? `Created candidate ${result.slug as string}` : `Used candidate ${result.slug as string}`,
		result.profileError ? 'profile update failed' : result.profileUpdated ? 'profile updated' : 'no profile fields to update',
		`${records.filter((record) => record.ok).length} of ${records.length} records added`,
	];
	const text = parts.join('; ');
	return failed.length > 0 ? `${text}. Failed: ${failed.map((failure) => failure.text).join('; ')}` : text;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const slugParameter = itemParameter<unknown>(this, 'candidateSlug', itemIndex, '');
	const givenSlug = typeof slugParameter === 'string' || typeof slugParameter === 'number' ? String(slugParameter).trim() : '';
	const failOnRecordError = itemParameter(this, 'options.failOnRecordError', itemIndex, false) === true;

	// Everything is checked before the first request.
	const profile = validateBody(
		this,
		itemIndex,
		givenSlug ? profileSchema : newCandidateSchema,
		readCandidateFields(this, itemIndex, layout),
		labels,
	);
	const planned = planRecords(this, itemIndex);
	const invalid = planned.filter((record) => record.problem !== undefined);
	if (failOnRecordError && invalid.length > 0) {
		const [first, ...rest] = invalid.map((record) => `${describeRecord(record)}: ${record.problem}`);
		throw new NodeOperationError(this.getNode(), first, {
			itemIndex,
			description: `Nothing was sent. ${rest.length > 0 ? `Also: ${rest.join('; ')}` : ''}`.trim(),
		});
	}

	let slug = givenSlug;
	let created = false;
	if (!slug) {
		slug = (await create.execute.call(this, itemIndex, run)).slug as string;
		created = true;
	}

	const result: IDataObject = { slug, created, profileUpdated: false };
	try {
		const skip = created ? SENT_ON_CREATE : CREATE_ONLY;
		const fields = Object.fromEntries(Object.entries(profile).filter(([field]) => !skip.includes(field)));
		if (Object.keys(fields).length > 0) {
			try {
				const body = { user_slug: slug, ...fields };
				await apiRequest.call(this, { method: 'PUT', path: '/gin/v1/company/candidate', body, itemIndex }, run.session);
				result.profileUpdated = true;
			} catch (error) {
				result.profileError = messageOf(error);
			}
		}

		const records: RecordResult[] = [];
		for (const record of planned) records.push(await addRecord(this, itemIndex, run, slug, record));
		const failed = [
			...(result.profileError ? [{ text: `profile update: ${result.profileError as string}` }] : []),
			...records
				.map((record, position) => ({ record, planned: planned[position] }))
				.filter(({ record }) => !record.ok)
				.map(({ record, planned: source }) => ({ text: `${describeRecord(source)}: ${record.error as string}` })),
		];
		result.records = records;
		result.summary = {
			records: records.length,
			added: records.filter((record) => record.ok).length,
			failed: records.filter((record) => !record.ok).length,
		};
		result.message = summaryText(result, records, failed);

		if (failOnRecordError && failed.length > 0) {
			const error = new NodeOperationError(this.getNode(), `Import incomplete: ${failed[0].text}`, {
				itemIndex,
				description: `${result.message as string}. The candidate ${created ? 'was created and ' : ''}is kept (slug ${slug}); its results per record are in this error item.`,
			});
			(error.context as IDataObject).partialResult = result;
			throw error;
		}
		return result;
	} catch (error) {
		// Whatever fails after the creation, the slug is not lost.
		const nodeError =
			error instanceof NodeOperationError || error instanceof NodeApiError
				? error
				: new NodeOperationError(this.getNode(), messageOf(error), { itemIndex });
		nodeError.context.partialResult ??= result;
		throw nodeError;
	}
}
