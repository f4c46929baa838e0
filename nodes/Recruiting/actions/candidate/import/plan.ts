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
import { dateOrderOf } from '../../shared/options';
import { itemParameter } from '../../shared/parameters';
import { quote } from '../../../referenceData/names';
import { checkBody, problemSummary } from '../../shared/validation';
import type { ListEntry } from './lists';
import { parseList } from './lists';
import { aliasesOf, columnsOf, compactFormOf, listParameter } from './records';

export interface PlannedRecord {
	kind: RecordKind;
	/** 1-based position in its list. */
	index: number;
	/** The value of its first column (company, skill, ...), for messages and the output. */
	name: string;
	body?: IDataObject;
	problem?: string;
	/** Its names (language, job type, ...) resolved to IDs in `body` already. */
	resolved?: boolean;
}

/** The slug in a record's body until the candidate is known. */
const PENDING_SLUG = 'pending';

/** The description of an unreadable list's error: the forms the list takes (the README has the full syntax). */
function listSyntax(kind: RecordKind): string {
	const form =
		kind.form === 'pairs'
			? `"${compactFormOf(kind)}" entries separated by ",", ";" or line breaks`
			: `one ${kind.label} per line or between ";", values separated by "|": ${compactFormOf(kind)}`;
	const aliases = aliasesOf(kind).map(([alias]) => alias);
	const keys = `field names, the service's field names${aliases.length > 0 ? ` or ${aliases.join(', ')}` : ''}`;
	return `Compact text: ${form}. Or a JSON array of objects keyed by ${keys}. Full syntax in the README.`;
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
	const zone = context.getTimezone();
	return RECORD_KINDS.flatMap((kind) =>
		entriesOf(context, itemIndex, kind, mode).map((entry, position): PlannedRecord => {
			const index = position + 1;
			if ('problem' in entry) return { kind, index, name: '', problem: entry.problem };
			const name = entry.values[columnsOf(kind)[0]];
			const planned: PlannedRecord = { kind, index, name: name === undefined || name === null ? '' : String(name) };
			const input = wireInput({ ...entry.values, candidateSlug: PENDING_SLUG }, kind.wire);
			const checked = checkBody(kind.schemaFor(order), input, kind.labels, zone);
			if (checked.ok) planned.body = checked.body;
			else planned.problem = problemSummary(checked.problems);
			return planned;
		}),
	);
}

/** A record in messages: `job 2 ("Acme GmbH")`. */
export function describeRecord(record: { kind: RecordKind; index: number; name: string }): string {
	return `${record.kind.label} ${record.index}${record.name ? ` (${quote(record.name)})` : ''}`;
}
