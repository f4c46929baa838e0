/**
 * Dropdown loaders, fed by the service's reference lists (through the same transport and
 * list fetchers as the operations). A failure reaches the editor as a readable message.
 */
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ListLanguage, ReferenceListKind } from '../referenceData/lists';
import { fetchList } from '../referenceData/lists';
import { entryName } from '../referenceData/names';
import { TransportSession } from '../transport';

async function load(context: ILoadOptionsFunctions, kind: ReferenceListKind, lang: ListLanguage = 'de') {
	try {
		return await fetchList(context, new TransportSession({ maxRetries: 1, initialDelayMs: 500 }), kind, lang);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(context.getNode(), `Could not load the list from the recruiting service: ${message}`);
	}
}

/**
 * One language rule for every dropdown (n8n does not tell a node the editor's language): the
 * English name, then the German name in parentheses where it differs. The label never changes
 * what is sent: IDs for job types, degrees and languages; for business areas the German name
 * (the service's default language), which the run sends in the job's Language option.
 */
function bilingual(english: unknown, german: unknown): string {
	const [en, de] = [entryName(english), entryName(german)];
	if (en === '' || de === '' || en === de) return en || de;
	return `${en} (${de})`;
}

export async function getJobTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const list = await load(this, 'jobTypes');
	return list.map((entry) => ({ name: bilingual(entry.name_eng, entry.name_ger), value: entry.id as number }));
}

/** A list whose entries are `{ id, value }` in the language asked for: English with German. */
async function bilingualIdList(context: ILoadOptionsFunctions, kind: 'universityDegrees' | 'languageSkills') {
	const english = await load(context, kind, 'en');
	const german = await load(context, kind, 'de');
	// Every entry of either list (the German one is the service's default), named in both where both name it.
	const englishById = new Map(english.map((entry) => [entry.id, entry.value]));
	const germanIds = new Set(german.map((entry) => entry.id));
	const entries = [...german, ...english.filter((entry) => !germanIds.has(entry.id))];
	return entries
		.map((entry) => ({ name: bilingual(englishById.get(entry.id), germanIds.has(entry.id) ? entry.value : undefined), value: entry.id as number }))
		.filter((option) => option.name !== '');
}

export async function getUniversityDegrees(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await bilingualIdList(this, 'universityDegrees');
}

export async function getLanguages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await bilingualIdList(this, 'languageSkills');
}

/** Every division and every area; the value is the German name, which the service takes. */
export async function getBusinessAreas(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const german = await load(this, 'businessAreas', 'de');
	const english = await load(this, 'businessAreas', 'en');
	const englishDivisions = new Map(english.map((division) => [division.id, division]));
	const options: INodePropertyOptions[] = [];
	for (const division of german) {
		const translated = englishDivisions.get(division.id) as IDataObject | undefined;
		// The German name, which the service takes (a run translates an English one): the English one where the German list has none.
		const divisionName = entryName(division.name) || entryName(translated?.name);
		const divisionLabel = bilingual(translated?.name, division.name);
		if (divisionName !== '') options.push({ name: divisionLabel, value: divisionName, description: 'Division' });
		const englishAreas = new Map(
			((translated?.area as IDataObject[] | undefined) ?? []).map((area) => [area.id, area.name]),
		);
		for (const area of (division.area as IDataObject[] | undefined) ?? []) {
			const areaName = entryName(area.name) || entryName(englishAreas.get(area.id));
			if (areaName === '') continue;
			options.push({
				name: `${divisionLabel} › ${bilingual(englishAreas.get(area.id), area.name)}`,
				value: areaName,
				description: `Area of ${divisionLabel}`,
			});
		}
	}
	return options;
}
