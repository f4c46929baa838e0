/**
 * Every resource, declared once: the "Resource" dropdown, each resource's "Operation" dropdown,
 * the node's parameters and the router's operation map are all built from `RESOURCES`. A
 * resource missing here is missing everywhere, so none can be hidden from the editor by mistake.
 */
import type { INodeProperties } from 'n8n-workflow';

import { resource as apiKey } from './apiKey';
import { resource as candidate } from './candidate';
import { RECORD_RESOURCES } from './candidateRecord';
import type { OperationModule, ResourceDefinition } from './context';
import { resource as referenceList } from './referenceList';
import { resource as session } from './session';

/** In the order of their parameters; the dropdowns list them by name. */
export const RESOURCES: readonly ResourceDefinition[] = [candidate, ...RECORD_RESOURCES, apiKey, referenceList, session];

const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name);

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: RESOURCES.map(({ option }) => option).sort(byName),
	default: 'candidate',
};

function operationSelector({ option, defaultOperation, operations: entries }: ResourceDefinition): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [option.value] } },
		options: entries.map((entry) => entry.option).sort(byName),
		default: defaultOperation,
	};
}

export const properties: INodeProperties[] = [
	resourceSelector,
	...RESOURCES.flatMap((resource) => [
		operationSelector(resource),
		...resource.operations.flatMap(({ module }) => module.description),
	]),
];

/** Resource → operation → what it does. */
export const operations: ReadonlyMap<string, ReadonlyMap<string, OperationModule>> = new Map(
	RESOURCES.map((resource) => [
		resource.option.value,
		new Map(resource.operations.map(({ option, module }) => [option.value, module])),
	]),
);

export function getOperation(resource: string, operation: string): OperationModule | undefined {
	return operations.get(resource)?.get(operation);
}
