/**
 * A sub-record is one spec (candidateRecord/specs) and one line in candidateRecord/index.ts:
 * every spec listed there shows up as a resource with an Add operation, in Candidate → Import
 * (fields and "JSON or Text"), with its dropdown loaders, and is well formed (unique names,
 * compact-text columns without gaps). The sandbox's side is test/service/recordRoutes.test.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { columnsOf, listParameter } from '../../nodes/Recruiting/actions/candidate/import/records';
import { RECORD_KINDS, RECORD_SPECS } from '../../nodes/Recruiting/actions/candidateRecord';
import { getOperation, resourceSelector } from '../../nodes/Recruiting/actions/registry';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { CREDENTIAL_TYPE } from '../../nodes/Recruiting/transport';

const node = new Recruiting();
const properties = node.description.properties;
const importProperty = (name: string) =>
	properties.find((property) => property.name === name && property.displayOptions?.show?.operation?.includes('import'));

/** Every parameter name inside a list of properties, collections included. */
function names(list: readonly INodeProperties[]): string[] {
	return list.flatMap((property) => [
		property.name,
		...(property.type === 'collection' ? names((property.options ?? []) as INodeProperties[]) : []),
	]);
}

describe.each(RECORD_KINDS.map((kind) => [kind.type, kind] as const))('sub-record %s', (_type, kind) => {
	it('is a resource of the "Resource" dropdown with an Add operation in the router\'s map', () => {
		expect(resourceSelector.options).toContainEqual(kind.resource);
		expect(getOperation(kind.resource.value, 'add')).toBe(kind);
		const selector = properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(kind.resource.value),
		);
		expect(selector?.options).toEqual([{ name: 'Add', value: 'add', ...kind.add }]);
	});

	it('has every field of its spec as a parameter of Add, required ones top-level and required', () => {
		const added = properties.filter((property) => property.displayOptions?.show?.resource?.includes(kind.resource.value));
		expect(names(added)).toEqual(expect.arrayContaining(['candidateSlug', 'options', ...kind.fields.map((field) => field.parameter)]));
		for (const field of kind.fields.filter((candidate) => candidate.required)) {
			expect(added.find((property) => property.name === field.parameter)?.required).toBe(true);
		}
	});

	it('is in Candidate → Import: a fixed collection of the same fields and a "JSON or Text" field', () => {
		const collection = importProperty(kind.collection.name);
		expect(collection?.type).toBe('fixedCollection');
		const values = ((collection?.options ?? [])[0] as { values: INodeProperties[] }).values;
		// a reference-list field is there twice: the dropdown of versions 1 and 1.1 and the resource locator of 1.2
		const entryFields = [...new Set(names(values))].filter((name) => name !== 'additionalFields');
		expect(entryFields.sort()).toEqual(kind.fields.map((field) => field.parameter).sort());
		expect(importProperty(listParameter(kind))?.type).toBe('string');
	});

	it('is well formed: unique parameters, wire names and short keys; compact-text columns 0..n without gaps', () => {
		const unique = (list: string[]) => expect(new Set(list).size).toBe(list.length);
		unique(kind.fields.map((field) => field.parameter));
		unique(kind.fields.map((field) => field.wire));
		unique(kind.fields.flatMap((field) => field.aliases ?? []));
		const columns = kind.fields.flatMap((field) => (field.column === undefined ? [] : [field.column])).sort((a, b) => a - b);
		expect(columns).toEqual(columns.map((_column, index) => index));
		expect(columnsOf(kind).length).toBe(kind.form === 'pairs' ? 2 : columns.length);
		expect(kind.fields.some((field) => field.required)).toBe(true);
	});

	it('names only dropdown loaders the node has', () => {
		for (const field of kind.fields) {
			const method = field.property.typeOptions?.loadOptionsMethod;
			if (method) expect(Object.keys(node.methods.loadOptions)).toContain(method);
		}
	});
});

describe('the list of sub-records', () => {
	it('gives each record one resource, in the editor in list order, and resource names are unique', () => {
		const values = RECORD_SPECS.map((spec) => spec.resource.value);
		expect(new Set(values).size).toBe(values.length);
		const order = properties
			.filter((property) => property.name === 'operation')
			.map((property) => property.displayOptions?.show?.resource?.[0])
			.filter((value) => values.includes(value as string));
		expect(order).toEqual(values);
	});

	it('the node and the credential name the same credential type', () => {
		expect(new RecruitingApi().name).toBe(CREDENTIAL_TYPE);
		expect(node.description.credentials).toEqual([{ name: CREDENTIAL_TYPE, required: true }]);
	});
});
