/**
 * The "From List" mode of node version 1.2's resource locators (actions/shared/locators.ts): the
 * dropdown loaders' entries, filtered by what the user types (case, accents and spaces ignored,
 * in the English or the German name).
 */
import type { ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { normalizeName } from '../referenceData/names';
import { getBusinessAreas, getJobTypes, getLanguages, getUniversityDegrees } from './loadOptions';

async function search(context: ILoadOptionsFunctions, load: (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>, filter?: string): Promise<INodeListSearchResult> {
	const entries = await load.call(context);
	const wanted = normalizeName(filter ?? '');
	const results = wanted === '' ? entries : entries.filter((entry) => normalizeName(entry.name).includes(wanted));
	return { results: results.map(({ name, value }) => ({ name, value })) };
}

export async function searchJobTypes(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, getJobTypes, filter);
}

export async function searchLanguages(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, getLanguages, filter);
}

export async function searchUniversityDegrees(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, getUniversityDegrees, filter);
}

export async function searchBusinessAreas(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, getBusinessAreas, filter);
}
