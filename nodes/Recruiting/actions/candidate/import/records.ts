/**
 * What Candidate → Import reads from a sub-record's spec besides its Add operation's parts:
 * the compact-text columns, the keys JSON may use, and the "JSON or Text" parameter.
 */
import type { RecordKind } from '../../candidateRecord';
import { columnFields } from '../../candidateRecord/spec';

/** The text/JSON parameter of a kind in "JSON or Text" mode: "jobList" (display name as its fixed collection). */
export function listParameter(kind: RecordKind): string {
	return `${kind.type}List`;
}

/** The fields one record may carry (every parameter of its Add operation but the slug). */
export function recordFields(kind: RecordKind): string[] {
	return kind.fields.map((field) => field.parameter);
}

/** Parameters in compact-text order; the first names a record in the output (company, skill, ...). */
export function columnsOf(kind: RecordKind): string[] {
	return columnFields(kind).map((field) => field.parameter);
}

/** Short keys accepted in JSON (besides parameter names, wire names and labels) → parameter, in column order. */
export function aliasesOf(kind: RecordKind): Array<[string, string]> {
	const order = columnsOf(kind);
	const position = (parameter: string) => (order.includes(parameter) ? order.indexOf(parameter) : order.length);
	return [...kind.fields]
		.sort((a, b) => position(a.parameter) - position(b.parameter))
		.flatMap((field) => (field.aliases ?? []).map((alias): [string, string] => [alias, field.parameter]));
}

/** How the compact text of a kind is written, for descriptions and messages. */
export function compactFormOf(kind: RecordKind): string {
	const display = (name: string) => kind.labels[kind.wire[name]] ?? name;
	const columns = columnsOf(kind);
	if (kind.form === 'pairs') return `${display(columns[0])}: ${display(columns[1])}`;
	return columns.map(display).join(' | ');
}
