/**
 * A sub-record's Add operation, built from its spec: the editor parameters (candidate slug,
 * required fields, "Additional Fields", Options), the body schema and labels, name resolution
 * and the execution. Candidate → Import uses the same parts for its records.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import type { ReferenceCache } from '../../referenceData/lists';
import { resolveBusinessArea, resolveListId } from '../../referenceData/resolve';
import type { PreparedOperation, ResourceDefinition, RunContext, Send } from '../context';
import type { DateOrder } from '../shared/dates';
import { DEFAULT_DATE_ORDER } from '../shared/dates';
import { candidateSlugProperty } from '../shared/fields';
import { dateFormatOption, dateOrderOf, optionsCollection } from '../shared/options';
import { retryMemory } from '../../memory';
import { endNotBeforeStart, perDateOrder, text, validateBody } from '../shared/validation';
import { postRecord, recordParameters, wireInput } from './record';
import type { RecordField, RecordSpec } from './spec';
import { columnFields, isDated } from './spec';

export type BodySchema = z.ZodType<object, z.ZodTypeDef, unknown>;

/** A sub-record with everything built from its spec. */
export interface RecordKind extends RecordSpec, PreparedOperation {
	/** Wire field → label (messages), the candidate slug included. */
	labels: Record<string, string>;
	/** Parameter → wire field, the candidate slug included. */
	wire: Record<string, string>;
	/** The body schema for a date order (the same one for every item). */
	schemaFor: (order: DateOrder) => BodySchema;
	/** Replaces the names in a validated body by what the service takes (IDs, a business area's spelling). */
	resolveNames: (context: IExecuteFunctions, references: ReferenceCache, itemIndex: number, body: IDataObject) => Promise<void>;
}

const byDisplayName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

function recordDescription(spec: RecordSpec): INodeProperties[] {
	const resource = spec.resource.value;
	const show = { resource: [resource], operation: ['add'] };
	const property = (field: RecordField, required?: true): INodeProperties => {
		const { displayName, type, ...rest } = field.property;
		return { displayName, name: field.parameter, type, ...(required ? { required } : {}), ...rest };
	};
	const required = spec.fields.filter((field) => field.required);
	const optional = spec.fields
		.filter((field) => !field.required)
		.map((field) => property(field))
		.sort(byDisplayName);
	const collection: INodeProperties = {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: optional,
	};
	return [
		candidateSlugProperty(resource, 'add'),
		...required.map((field) => ({ ...property(field, true), displayOptions: { show } })),
		...(optional.length > 0 ? [collection] : []),
		optionsCollection(resource, 'add', isDated(spec) ? [dateFormatOption] : []),
	];
}

function bodySchema(spec: RecordSpec): (order: DateOrder) => BodySchema {
	return perDateOrder((order: DateOrder): BodySchema => {
		const shape: z.ZodRawShape = { user_slug: text(true) };
		for (const field of spec.fields) shape[field.wire] = field.schema(field.required === true, order);
		const body = z.object(shape);
		return isDated(spec) ? body.superRefine(endNotBeforeStart(order)) : body;
	});
}

async function resolveField(
	context: IExecuteFunctions,
	references: ReferenceCache,
	itemIndex: number,
	field: RecordField,
	body: IDataObject,
): Promise<void> {
	const value = body[field.wire];
	if (value === undefined || field.resolve === undefined) return;
	if (field.resolve === 'businessArea') {
		const lang = body.lang === 'en' ? 'en' : 'de';
		body[field.wire] = await resolveBusinessArea(context, references, itemIndex, value as string, field.label, lang);
		return;
	}
	const target = { label: field.label, entryLabel: field.resolve.entryLabel };
	body[field.wire] = await resolveListId(context, references, itemIndex, field.resolve.list, value as number | string, target);
}

export function addOperation(spec: RecordSpec): RecordKind {
	const description = recordDescription(spec);
	const labels = { user_slug: 'Candidate Slug', ...Object.fromEntries(spec.fields.map((field) => [field.wire, field.label])) };
	const wire = { candidateSlug: 'user_slug', ...Object.fromEntries(spec.fields.map((field) => [field.parameter, field.wire])) };
	const schemaFor = bodySchema(spec);
	const dated = isDated(spec);
	// The field that names a record (its first column in Import's text: company, skill, language, title…).
	const [naming] = columnFields(spec);
	/** What an earlier try's note must match: the same candidate and the same named record (an expression may give another in a later try). */
	const noteOf = (body: IDataObject) => `add ${String(body.user_slug)} ${naming ? String(body[naming.wire] ?? '') : ''}`;

	async function resolveNames(context: IExecuteFunctions, references: ReferenceCache, itemIndex: number, body: IDataObject) {
		for (const field of spec.fields) await resolveField(context, references, itemIndex, field, body);
	}

	async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
		const input = wireInput(recordParameters(this, itemIndex, description), wire);
		const order = dated ? dateOrderOf(this, itemIndex) : DEFAULT_DATE_ORDER;
		const body = validateBody(this, itemIndex, schemaFor(order), input, labels);
		await resolveNames(this, run.references, itemIndex, body);
		return async () => {
			// n8n's "Retry On Fail": a record an earlier try of this node run added is not sent again.
			const memory = await retryMemory(this, run);
			const note = noteOf(body);
			const earlier = memory.recordAdded(itemIndex, note, body);
			if (earlier !== undefined) {
				const { user_slug: slug, ...fields } = body;
				return { slug, message: earlier, ...fields };
			}
			return await memory.sendOnce(itemIndex, note, async () => await postRecord(this, itemIndex, run, spec.path, body), body);
		};
	}

	return { ...spec, description, labels, wire, schemaFor, resolveNames, prepare };
}

/** The resource of a sub-record: one operation, "Add". */
export function recordResource(kind: RecordKind): ResourceDefinition {
	return {
		option: kind.resource,
		defaultOperation: 'add',
		operations: [{ option: { name: 'Add', value: 'add', ...kind.add }, module: kind }],
	};
}
