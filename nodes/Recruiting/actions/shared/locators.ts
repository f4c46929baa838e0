/**
 * Node version 1.2: Job Type, Language, University Degree and Business Area as resource locators
 * (From List / By Name / By ID), as Airtable v2 and Google Sheets v4 take a base or a sheet. A
 * name typed or given by an expression ("Technical Sales", "Werkstudent") is then a value of its
 * own mode, not a value the dropdown lacks: n8n shows no "The value is not supported!" for it.
 *
 * Built from the dropdowns the record specs declare (every `loadOptionsMethod` below, wherever
 * it sits: a top-level field, Additional Fields, Import's record collections): each dropdown is
 * kept for versions 1 and 1.1 (their saved workflows unchanged), and a resource locator of the
 * same name is added for 1.2 and later. At run time `itemParameter` reads a locator as its value
 * (actions/shared/parameters.ts), which the operations resolve as before: an ID, or a name in any
 * language the service offers.
 */
import { omit } from 'lodash';
import type { IDisplayOptions, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/** The first node version with resource locators. */
export const LOCATORS_SINCE_VERSION = 1.2;

interface Locator {
	/** The list search method (methods/listSearch.ts). */
	search: string;
	/** The label without "Name or ID" (the locator's modes say it). */
	label: string;
	name: string;
	/** Undefined: no By ID mode (a business area is sent as its name; its list has no IDs to give). */
	id?: string;
}

const LOCATORS: Record<string, Locator> = {
	getJobTypes: { search: 'searchJobTypes', label: 'Job Type', name: 'Working student', id: '2' },
	getLanguages: { search: 'searchLanguages', label: 'Language', name: 'English', id: '26' },
	getUniversityDegrees: { search: 'searchUniversityDegrees', label: 'University Degree', name: 'Master of Science', id: '10' },
	getBusinessAreas: { search: 'searchBusinessAreas', label: 'Business Area', name: 'Technical Sales' },
};

const before: IDisplayOptions['show'] = { '@version': [{ _cnd: { lt: LOCATORS_SINCE_VERSION } }] };
const since: IDisplayOptions['show'] = { '@version': [{ _cnd: { gte: LOCATORS_SINCE_VERSION } }] };

function withVersion(property: INodeProperties, version: IDisplayOptions['show']): INodeProperties {
	const show = { ...(property.displayOptions?.show ?? {}), ...version };
	return { ...property, displayOptions: { ...property.displayOptions, show } };
}

function locatorOf(property: INodeProperties, locator: Locator): INodeProperties {
	const typed = locator.id ? 'a name (German or English) or an ID' : 'a name (German or English)';
	return withVersion(
		{
			...(omit(property, ['typeOptions', 'options']) as INodeProperties),
			displayName: locator.label,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			modes: [
				{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: locator.search, searchable: true } },
				{ displayName: 'By Name', name: 'name', type: 'string', placeholder: `e.g. ${locator.name}` },
				...(locator.id
					? [
							{
								displayName: 'By ID',
								name: 'id',
								type: 'string' as const,
								placeholder: `e.g. ${locator.id}`,
								validation: [{ type: 'regex' as const, properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: 'An ID is a whole number' } }],
							},
						]
					: []),
			],
			description: `${property.description?.split(/ Choose from the list/)[0] ?? ''} Choose from the list, or give ${typed}, typed or from an expression.`.trim(),
		},
		since,
	);
}

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

function transform(property: INodeProperties): INodeProperties[] {
	const locator = LOCATORS[String(property.typeOptions?.loadOptionsMethod ?? '')];
	if (property.type === 'options' && locator) return [withVersion(property, before), locatorOf(property, locator)];
	if (property.type === 'collection' && Array.isArray(property.options)) {
		return [{ ...property, options: (property.options as INodeProperties[]).flatMap(transform) }];
	}
	if (property.type === 'fixedCollection' && Array.isArray(property.options)) {
		const groups = (property.options as Entry[]).map((group) =>
			'values' in group ? { ...group, values: group.values.flatMap(transform) } : group,
		) as INodePropertyCollection[];
		return [{ ...property, options: groups }];
	}
	return [property];
}

/** The node's properties with a resource locator beside each reference-list dropdown (1.2 and later). */
export function withLocators(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap(transform);
}
