/**
 * What a sub-record is (job, university record, IT skill, language, additional information):
 * one table per record (`specs/*.ts`), from which its Add operation (`addOperation.ts`), its
 * part of Candidate → Import and the sandbox's route are built. Each field is declared once:
 * parameter, wire name, label, validation, editor parameter, place in Import's compact text and
 * short keys, and whether its name is resolved against a reference list.
 */
import type { INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import type { IdListKind } from '../../referenceData/resolve';
import type { DateOrder } from '../shared/dates';
import { DATE_FORMS, DATE_PLACEHOLDER } from '../shared/fields';
import { date, idOrName, text } from '../shared/validation';

export interface RecordField {
	/** The node's parameter (and a JSON key Import takes): "businessAreaDivision". */
	parameter: string;
	/** The field of the request body: "business_area_division". */
	wire: string;
	/** The field in messages (and a JSON key Import takes): "Business Area". */
	label: string;
	/** Required fields are top-level parameters; the others sit in "Additional Fields". */
	required?: boolean;
	/** Validation and conversion of a raw value to the wire value (`order`: the date order sent). */
	schema: (required: boolean, order: DateOrder) => z.ZodTypeAny;
	/** The editor parameter, without name, required and displayOptions (they follow from the above). */
	property: Omit<INodeProperties, 'name' | 'required' | 'displayOptions'>;
	/** Position in Import's compact text (0 names the record in Import's output); none: JSON and fields only. */
	column?: number;
	/** Short keys Import takes in JSON besides the parameter, wire name and label. */
	aliases?: string[];
	/** A name to replace by what the service takes, before sending. */
	resolve?: { list: IdListKind; entryLabel: string } | 'businessArea';
}

export interface RecordSpec {
	/** The resource in the editor's "Resource" dropdown. */
	resource: { value: string; name: string; description: string };
	/** Its one operation, "Add": the action and description the "Operation" dropdown shows. */
	add: { action: string; description: string };
	/** Where the record is sent: POST {path}. */
	path: string;
	/** A record in Import's output (`type`) and in messages (`label`: "university record"). */
	type: string;
	label: string;
	/** Import's fixed collection ("jobs") and its entry ("job"); the "JSON or Text" field is `{type}List`. */
	collection: { name: string; displayName: string; entry: string; entryDisplayName: string };
	/** Import's compact text: `pairs` = "Name: level" entries; `columns` = one record per line, values split by "|". */
	form: 'pairs' | 'columns';
	/** Import's examples: compact text (the placeholder; it must work as typed) and one JSON element. */
	example: { text: string; json: string };
	/** In the order of the request body. */
	fields: RecordField[];
}

/** Whether a record has start and end dates (then Options → Date Format Sent applies, and the end may not precede the start). */
export function isDated(spec: RecordSpec): boolean {
	return spec.fields.some((field) => field.wire === 'start_date');
}

/** The fields in Import's compact-text column order; the first names a record (company, skill, language, title…). */
export function columnFields(spec: Pick<RecordSpec, 'fields'>): RecordField[] {
	return spec.fields.filter((field) => field.column !== undefined).sort((a, b) => (a.column as number) - (b.column as number));
}

const textSchema = (required: boolean) => text(required);
const dateSchema = (required: boolean, order: DateOrder) => date(order, required);

/** A free-text field. */
export function textField(
	parameter: string,
	wire: string,
	label: string,
	property: Partial<RecordField['property']> & { description: string },
	more: Partial<RecordField> = {},
): RecordField {
	return { parameter, wire, label, schema: textSchema, property: { displayName: label, type: 'string', default: '', ...property }, ...more };
}

/** `startDate`: "When {subject} began. Accepted: ..."; Import's short key `start`. */
export function startDate(subject: string, column: number, required = false): RecordField {
	return textField(
		'startDate',
		'start_date',
		'Start Date',
		{
			placeholder: DATE_PLACEHOLDER,
			description: `When ${subject} began. ${DATE_FORMS} Sent as Options → Date Format Sent says.`,
		},
		{ required, column, aliases: ['start'], schema: dateSchema },
	);
}

/** `endDate`; `ongoing` ends "leave out ...", e.g. "if ongoing". Import's short key `end`. */
export function endDate(subject: string, column: number, ongoing?: string): RecordField {
	return textField(
		'endDate',
		'end_date',
		'End Date',
		{
			placeholder: DATE_PLACEHOLDER,
			description: `When ${subject} ended${ongoing ? `; leave out ${ongoing}` : ''}. Not before the start. ${DATE_FORMS}`,
		},
		{ column, aliases: ['end'], schema: dateSchema },
	);
}

/** The free-text `description`: "Free text about {subject}". */
export function descriptionField(subject: string, column: number): RecordField {
	return textField(
		'description',
		'description',
		'Description',
		{ typeOptions: { rows: 3 }, description: `Free text about ${subject}` },
		{ column },
	);
}

/** A dropdown fed by a loader; an expression may give an ID or a name, resolved against `list` before sending. */
export function listField(
	field: Pick<RecordField, 'parameter' | 'wire' | 'label' | 'required' | 'column' | 'aliases'>,
	displayName: string,
	loadOptionsMethod: string,
	about: string,
	resolve: RecordField['resolve'],
): RecordField {
	return {
		...field,
		schema: (required) => (resolve === 'businessArea' ? text(required) : idOrName(required)),
		resolve,
		property: {
			displayName,
			type: 'options',
			typeOptions: { loadOptionsMethod },
			default: '',
			description: `${about} Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		},
	};
}
