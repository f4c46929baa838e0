/**
 * Lists of sub-records as a spreadsheet cell, a form field or an agent gives them: a JSON array
 * (or an array from an expression) of objects or of compact-text entries, one object, or compact
 * text. Pure: no n8n context. Each entry becomes the record's values keyed by parameter name, or
 * the problem that keeps it from being sent.
 *
 * Compact text:
 * - IT skills and languages: `Name: level` entries separated by `,` `;` or line breaks, e.g.
 *   `TypeScript: 4, SQL: 3` or `English: 4; German: 5`. A name may itself contain commas
 *   (`Greek, Modern: 3`): an entry ends at the separator after its level.
 * - Jobs, university records, additional information: one record per line (or between `;`), its
 *   values separated by `|` in a fixed column order; empty columns may be left blank, trailing
 *   ones left out, e.g. `Acme GmbH | Data Analyst | 2020-01-01 | 2022-06-30`.
 */
import type { IDataObject } from 'n8n-workflow';

import { quote } from '../../../referenceData/names';
import { isObject } from '../../../transport/http';
import type { RecordKind } from '../../candidateRecord';
import { aliasesOf, columnsOf, compactFormOf, recordFields } from './records';

export type ListEntry = { values: IDataObject } | { problem: string };

/** A list that cannot be read at all (invalid JSON, a number, ...): fails the item before any request. */
export interface ListSyntaxProblem {
	syntax: string;
}

function keyOf(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Normalized key (parameter name, wire name, label or alias) → parameter name. */
function keyTable(kind: RecordKind): Map<string, string> {
	const table = new Map<string, string>();
	for (const field of recordFields(kind)) {
		const wire = kind.wire[field];
		for (const key of [field, wire, kind.labels[wire] ?? '']) if (key) table.set(keyOf(key), field);
	}
	for (const [alias, field] of aliasesOf(kind)) table.set(keyOf(alias), field);
	return table;
}

function fromObject(kind: RecordKind, object: IDataObject, table: Map<string, string>): ListEntry {
	const values: IDataObject = {};
	const unknown: string[] = [];
	for (const [key, value] of Object.entries(object)) {
		const field = table.get(keyOf(key));
		if (field) values[field] = value;
		else unknown.push(quote(key));
	}
	if (unknown.length > 0) {
		return {
			problem: `unknown field ${unknown.join(', ')}; accepted: ${recordFields(kind).join(', ')} (or the service's field names)`,
		};
	}
	return { values };
}

/**
 * `Name: level` entries; a name runs to its colon, a level to the next separator. One pass over
 * the text (positions, no copies of the rest), so a cell of megabytes is read in linear time.
 */
function pairs(kind: RecordKind, text: string): ListEntry[] {
	const entries: ListEntry[] = [];
	const separators = /[\s,;]*/y;
	const levelEnd = /[,;\n]/g;
	let position = 0;
	while (position < text.length) {
		separators.lastIndex = position;
		if (separators.exec(text)) position = separators.lastIndex;
		if (position >= text.length) break;
		const colon = text.indexOf(':', position);
		if (colon < 0) {
			entries.push({ problem: `${quote(text.slice(position).trim())} is not in the form ${compactFormOf(kind)}` });
			break;
		}
		levelEnd.lastIndex = colon + 1;
		const end = levelEnd.exec(text)?.index ?? text.length;
		const name = text.slice(position, colon).trim();
		const level = text.slice(colon + 1, end).trim();
		position = end + 1;
		const [nameField, levelField] = columnsOf(kind);
		entries.push({ values: { [nameField]: name, [levelField]: level } });
	}
	return entries;
}

/** One record per line (or between `;`), values separated by `|` in column order. */
function columns(kind: RecordKind, text: string): ListEntry[] {
	const order = columnsOf(kind);
	return text
		.split(/[\n;]/)
		.map((line) => line.trim())
		.filter((line) => line !== '')
		.map((line): ListEntry => {
			const cells = line.split('|').map((cell) => cell.trim());
			if (cells.length > order.length) {
				return {
					problem: `${quote(line)} has ${cells.length} values separated by "|", at most ${order.length} are read: ${compactFormOf(kind)}`,
				};
			}
			const values: IDataObject = {};
			cells.forEach((cell, index) => {
				if (cell !== '') values[order[index]] = cell;
			});
			return { values };
		});
}

function compactText(kind: RecordKind, text: string): ListEntry[] {
	return kind.form === 'pairs' ? pairs(kind, text) : columns(kind, text);
}

/**
 * The records a list value holds. Nothing given (empty text, null, `[]`) is no record; an
 * unreadable list gives a ListSyntaxProblem.
 */
export function parseList(kind: RecordKind, value: unknown): ListEntry[] | ListSyntaxProblem {
	if (value === undefined || value === null) return [];
	let list: unknown = value;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return [];
		if (!text.startsWith('[') && !text.startsWith('{')) return compactText(kind, text);
		try {
			list = JSON.parse(text) as unknown;
		} catch (error) {
			return { syntax: `is not valid JSON (${(error as Error).message})` };
		}
	}
	const table = keyTable(kind);
	if (isObject(list)) return [fromObject(kind, list, table)];
	if (!Array.isArray(list)) {
		return { syntax: `must be a JSON array of objects, or text in the form ${compactFormOf(kind)} (got ${typeof list})` };
	}
	return list.flatMap((element): ListEntry[] => {
		if (isObject(element)) return [fromObject(kind, element, table)];
		if (typeof element === 'string') return compactText(kind, element);
		return [{ problem: `${quote(element)} is neither an object nor text in the form ${compactFormOf(kind)}` }];
	});
}
