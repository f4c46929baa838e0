/**
 * Dropdown values given at run time: an ID (number or text) or an entry's name in German or
 * English, as spreadsheets and forms carry them, resolved against the reference lists of the
 * execution's cache (one request per list and language per execution; each list is indexed
 * once per execution, see `names.ts`). An unknown name fails the item with the closest entries.
 */
import { uniqBy } from 'lodash';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BusinessArea, ListLanguage, ReferenceCache } from './lists';
import type { NamedEntry } from './names';
import { MAX_HINTS, NameIndex, allNames, entryName, languageAliases, mergeEntries, parseIdOrName, quote, visibleText } from './names';

function quoteEntry(entry: NamedEntry<number>): string {
	return `"${allNames(entry).slice(0, 3).join(' / ')}" (ID ${entry.key})`;
}

/** In place of the closest entries once an execution has had MAX_HINTS different unknown names. */
const NO_HINT = `(No closest entries: more than ${MAX_HINTS} different unknown names in this execution.)`;

/** A list that takes a name per id and language: job types, university degrees, languages. */
export type IdListKind = 'jobTypes' | 'universityDegrees' | 'languageSkills';

export interface ResolveTarget {
	/** The field as the user sees it, for messages: "Job Type". */
	label: string;
	/** What the list holds, for messages: "job type". */
	entryLabel: string;
}

const OTHER_LANGUAGE: Record<ListLanguage, ListLanguage> = { de: 'en', en: 'de' };

function idEntries(kind: IdListKind, list: IDataObject[]): Array<NamedEntry<number>> {
	if (kind === 'jobTypes') {
		return list.map((entry) => ({ key: Number(entry.id), names: [entryName(entry.name_ger), entryName(entry.name_eng)].filter(Boolean) }));
	}
	return list.map((entry) => {
		const name = entryName(entry.value);
		return { key: Number(entry.id), names: name ? [name] : [], aliases: kind === 'languageSkills' && name ? languageAliases(name) : [] };
	});
}

/**
 * The name index of a list kind over the lists in `languages` (merged by ID), built once per
 * execution from the lists of its cache: every later name is a map lookup. The lists are
 * fetched first (a failed fetch is not remembered, the next item may try again); the index is
 * built from the cached lists, so it is the same for every item of the execution.
 */
async function listIndex(
	context: IExecuteFunctions,
	references: ReferenceCache,
	itemIndex: number,
	kind: IdListKind,
	languages: ListLanguage[],
): Promise<NameIndex<number>> {
	const lists: IDataObject[][] = [];
	for (const language of languages) {
		lists.push((await references.get(context, kind, language, itemIndex)) as unknown as IDataObject[]);
	}
	return await references.index(`names:${kind}:${languages.join('+')}`, async () =>
		new NameIndex(mergeEntries(lists.flatMap((list) => idEntries(kind, list)))),
	);
}

/**
 * The ID a dropdown value stands for. IDs are taken as they are (the service checks them);
 * a name is looked up in the list in `lang` first and, only when not found there, in the other
 * language, so names in either language cost at most one request per list and language.
 */
export async function resolveListId(
	context: IExecuteFunctions,
	references: ReferenceCache,
	itemIndex: number,
	kind: IdListKind,
	value: number | string,
	target: ResolveTarget,
	lang: ListLanguage = 'de',
): Promise<number> {
	const parsed = typeof value === 'number' ? ({ kind: 'id', id: value } as const) : parseIdOrName(value);
	if (parsed.kind === 'id') return parsed.id;
	if (parsed.kind === 'invalid') {
		throw new NodeOperationError(context.getNode(), `"${target.label}" ${parsed.reason}`, { itemIndex });
	}
	const languages: ListLanguage[] = kind === 'jobTypes' ? ['de'] : [lang, OTHER_LANGUAGE[lang]];
	let index = new NameIndex<number>([]);
	for (let count = 1; count <= languages.length; count++) {
		index = await listIndex(context, references, itemIndex, kind, languages.slice(0, count));
		let found = uniqBy(index.find(parsed.name), 'key');
		if (found.length === 0) found = uniqBy(index.find(parsed.name, true), 'key');
		if (found.length === 1) return found[0].key;
		if (found.length > 1) {
			throw new NodeOperationError(
				context.getNode(),
				`"${target.label}": the name ${quote(parsed.name)} matches more than one ${target.entryLabel}: ${found.map(quoteEntry).join(', ')}. Give the ID instead.`,
				{ itemIndex },
			);
		}
	}
	const closest = index.hint(parsed.name);
	throw new NodeOperationError(
		context.getNode(),
		`"${target.label}": no ${target.entryLabel} is named ${quote(parsed.name)}. ${closest ? `Closest: ${closest.map(quoteEntry).join(', ')}` : NO_HINT}`,
		{
			itemIndex,
			description: `Names are compared in German and English, ignoring case, accents, spaces and invisible characters. Give one of the names or its ID (the Reference List resource lists them all).`,
		},
	);
}

interface AreaKey {
	kind: 'division' | 'area';
	id: number;
}

function businessAreaEntries(list: BusinessArea[]): Array<NamedEntry<string>> {
	const entries: Array<NamedEntry<string>> = [];
	for (const division of list) {
		entries.push({ key: JSON.stringify({ kind: 'division', id: division.id } as AreaKey), names: [entryName(division.name)].filter(Boolean) });
		for (const area of division.area ?? []) {
			entries.push({ key: JSON.stringify({ kind: 'area', id: area.id } as AreaKey), names: [entryName(area.name)].filter(Boolean) });
		}
	}
	return entries;
}

/** The name index of the business areas and divisions in `lang`, built once per execution (see `listIndex`). */
async function areaIndex(
	context: IExecuteFunctions,
	references: ReferenceCache,
	lang: ListLanguage,
	itemIndex: number,
): Promise<NameIndex<string>> {
	const list = await references.get(context, 'businessAreas', lang, itemIndex);
	return await references.index(`names:businessAreas:${lang}`, async () => new NameIndex(businessAreaEntries(list)));
}

/**
 * The name of the division or area with the ID `id` (as Reference List → Get Business Areas
 * gives it), in the job's language `lang`: the service takes names only. Division and area IDs
 * are counted separately, so an ID that is both a division's and an area's (with different
 * names) fails the item naming both rather than picking one.
 */
async function businessAreaById(
	context: IExecuteFunctions,
	references: ReferenceCache,
	itemIndex: number,
	id: number,
	label: string,
	lang: ListLanguage,
): Promise<string> {
	const inLanguage = async (language: ListLanguage) => {
		const found: Array<{ kind: AreaKey['kind']; name: string }> = [];
		for (const division of await references.get(context, 'businessAreas', language, itemIndex)) {
			if (Number(division.id) === id) found.push({ kind: 'division', name: entryName(division.name) });
			for (const area of division.area ?? []) if (Number(area.id) === id) found.push({ kind: 'area', name: entryName(area.name) });
		}
		return found;
	};
	// In the job's language; an entry that list gives no name takes its name in the other list.
	const found = await inLanguage(lang);
	if (found.some((entry) => entry.name === '')) {
		const other = await inLanguage(OTHER_LANGUAGE[lang]);
		for (const entry of found) if (entry.name === '') entry.name = other.find((named) => named.kind === entry.kind)?.name ?? '';
	}
	const names = uniqBy(found.filter((entry) => entry.name !== ''), 'name');
	if (names.length === 1) return names[0].name;
	const description =
		'Division and area IDs are counted separately (Reference List → Get Business Areas lists both). Give the name of the division or area instead; names are compared in German and English.';
	if (names.length === 0) {
		throw new NodeOperationError(context.getNode(), `"${label}": no business area or division has the ID ${id}`, {
			itemIndex,
			description,
		});
	}
	throw new NodeOperationError(
		context.getNode(),
		`"${label}": the ID ${id} is both ${names.map((entry) => `the ${entry.kind} ${quote(entry.name)}`).join(' and ')}`,
		{ itemIndex, description },
	);
}

/**
 * The canonical name of a business area or division, in the job's language `lang`: an ID (a
 * number, or digits as text) is the division's or area's name (`businessAreaById`); a typed
 * name (German or English, any case, accents, spaces, invisible characters) is checked against
 * every division and every area, and the list's own spelling is what the service receives.
 */
export async function resolveBusinessArea(
	context: IExecuteFunctions,
	references: ReferenceCache,
	itemIndex: number,
	value: string,
	label: string,
	lang: ListLanguage = 'de',
): Promise<string> {
	const parsed = parseIdOrName(value);
	if (parsed.kind === 'id') return await businessAreaById(context, references, itemIndex, parsed.id, label, lang);
	const name = visibleText(value);
	const primary = await areaIndex(context, references, lang, itemIndex);
	const direct = primary.find(name);
	if (direct.length > 0) return direct[0].names[0];

	const other = await areaIndex(context, references, OTHER_LANGUAGE[lang], itemIndex);
	const translated = other.find(name);
	if (translated.length > 0) {
		// Same division or area in the job's language; its own name if that list lacks it.
		const inPrimary = primary.entries.find((entry) => entry.key === translated[0].key && entry.names.length > 0);
		return (inPrimary ?? translated[0]).names[0];
	}
	const all = await references.index(
		`names:businessAreas:${lang}+${OTHER_LANGUAGE[lang]}`,
		async () => new NameIndex(mergeEntries([...primary.entries, ...other.entries])),
	);
	const hint = all.hint(name, 5);
	const closest = hint && uniqBy(hint, (entry) => entry.names[0]).slice(0, 3);
	throw new NodeOperationError(
		context.getNode(),
		`"${label}": no business area or division is named ${quote(name)}. ${closest ? `Closest: ${closest.map((entry) => `"${entry.names.join(' / ')}"`).join(', ')}` : NO_HINT}`,
		{
			itemIndex,
			description:
				'Names are compared in German and English, ignoring case, accents, spaces and invisible characters. Give the name of a division or of an area (Reference List → Get Business Areas lists them).',
		},
	);
}
