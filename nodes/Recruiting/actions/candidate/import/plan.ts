/**
 * Candidate → Import's records of one item, read (from the fixed collections or the "JSON or
 * Text" fields) and validated before the first request: each becomes a wire body, or the
 * problem that keeps it from being sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RecordKind } from '../../candidateRecord';
import { RECORD_KINDS } from '../../candidateRecord';
import { flattenRecord, wireInput } from '../../candidateRecord/record';
import { acceptedDateForms } from '../../shared/dates';
import { dateOrderOf } from '../../shared/options';
import { itemParameter } from '../../shared/parameters';
import { checkBody, problemSummary } from '../../shared/validation';
import type { ListEntry } from './lists';
import { parseList } from './lists';
import { aliasesOf, columnsOf, compactFormOf, listParameter, recordFields } from './records';

export interface PlannedRecord {
	kind: RecordKind;
	/** 1-based position in its list. */
	index: number;
	/** The value of its first column (company, skill, ...), for messages and the output. */
	name: string;
	body?: IDataObject;
	problem?: string;
}

/** The slug in a record's body until the candidate is known. */
const PENDING_SLUG = 'pending';

const DATES = `Dates accept ${acceptedDateForms('DD-MM-YYYY')}; the MM-DD-YYYY form applies instead when Options → Date Format Sent says so.`;
const NAMES =
	'Job types, business areas, degrees and languages may be given by ID or by name in German or English (case, accents and spaces do not matter, e.g. "Working student", "Werkstudent", "Master of Science", "Englisch").';

/** The description of an unreadable list's error: the whole syntax of the kind's list. */
function listSyntax(kind: RecordKind): string {
	const form =
		kind.form === 'pairs'
			? `"${compactFormOf(kind)}" entries separated by commas, semicolons or line breaks`
			: `one ${kind.label} per line (or separated by ";"), values separated by "|" in this order: ${compactFormOf(kind)}; blank values may stay empty, trailing ones may be left out`;
	const keys = `the field names (${recordFields(kind).join(', ')}), the service's field names, or the short keys ${aliasesOf(kind).map(([alias]) => alias).join(', ')}`;
	const names = kind.fields.some((field) => field.resolve) ? ` ${NAMES}` : '';
	const dates = kind.form === 'columns' ? ` ${DATES}` : '';
	return `The ${kind.label} entries to add. Either compact text: ${form} (e.g. ${JSON.stringify(kind.example.text)}); or a JSON array of objects (e.g. [${kind.example.json}]) whose keys are ${keys}.${names}${dates} Leave empty for none.`;
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
			description: listSyntax(kind),
		});
	}
	return parsed;
}

/** Every record of the item, validated (the slug is filled in once known). */
export function planRecords(context: IExecuteFunctions, itemIndex: number): PlannedRecord[] {
	const order = dateOrderOf(context, itemIndex);
	const mode = itemParameter<string>(context, 'recordInput', itemIndex, 'fields');
	return RECORD_KINDS.flatMap((kind) =>
		entriesOf(context, itemIndex, kind, mode).map((entry, position): PlannedRecord => {
			const index = position + 1;
			if ('problem' in entry) return { kind, index, name: '', problem: entry.problem };
			const name = entry.values[columnsOf(kind)[0]];
			const planned: PlannedRecord = { kind, index, name: name === undefined || name === null ? '' : String(name) };
			const input = wireInput({ ...entry.values, candidateSlug: PENDING_SLUG }, kind.wire);
			const checked = checkBody(kind.schemaFor(order), input, kind.labels);
			if (checked.ok) planned.body = checked.body;
			else planned.problem = problemSummary(checked.problems);
			return planned;
		}),
	);
}

/** A record in messages: `job 2 ("Acme GmbH")`. */
export function describeRecord(record: { kind: RecordKind; index: number; name: string }): string {
	return `${record.kind.label} ${record.index}${record.name ? ` ("${record.name}")` : ''}`;
}
