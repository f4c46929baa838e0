/**
 * Dropdown values given at run time: an ID (number or text) or an entry's name in German or
 * English, as spreadsheets and forms carry them. Names are compared ignoring case, accents,
 * spaces and invisible characters (one function, `normalizeName`, for every comparison), against
 * the reference lists of the execution's cache (one request per list and language per
 * execution). Each list is indexed once per execution by normalized name, so a name costs one
 * map lookup however long the list; edit distance is computed only for the hint of a miss.
 * An unknown name fails the item with the closest entries.
 *
 * The matching helpers are pure; the resolvers take the execution's RunContext.
 */
import { deburr, sortBy, uniqBy } from 'lodash';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunContext } from '../context';
import { LANGUAGE_NAME_GROUPS } from './languageNames';
import type { BusinessArea, ListLanguage } from './referenceLists';

/** One entry of a reference list, with every name it goes by (all languages). */
export interface NamedEntry<K = number> {
	key: K;
	names: string[];
	/** Other names people use (matched only when no list name matches). */
	aliases?: string[];
}

/**
 * Characters that spreadsheets and web pages carry invisibly: soft hyphen, Mongolian vowel
 * separator, zero-width space/non-joiner/joiner, left-to-right and right-to-left marks,
 * direction embeddings and overrides (U+202A–U+202E), word joiner and invisible operators
 * (U+2060–U+2064), direction isolates (U+2066–U+2069), byte order mark / zero-width no-break
 * space. (No-break and other spaces are spaces: `\s` covers them.)
 */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** The text without invisible characters and without surrounding spaces (no-break spaces included). */
export function visibleText(text: string): string {
	return text.replace(INVISIBLE, '').trim();
}

/**
 * The form in which every name is compared: invisible characters removed, lower case, accents
 * removed (ä → a, ß → ss), every space removed (no-break spaces included).
 */
export function normalizeName(text: string): string {
	return deburr(text.replace(INVISIBLE, '')).toLowerCase().replace(/\s+/g, '');
}

/** Edit distance (insertions, deletions, substitutions) between two texts. */
export function editDistance(a: string, b: string): number {
	if (a === b) return 0;
	if (a.length === 0) return b.length;
	if (b.length === 0) return a.length;
	let previous = new Uint32Array(b.length + 1);
	let current = new Uint32Array(b.length + 1);
	for (let j = 0; j <= b.length; j++) previous[j] = j;
	for (let i = 1; i <= a.length; i++) {
		current[0] = i;
		const char = a.charCodeAt(i - 1);
		for (let j = 1; j <= b.length; j++) {
			const cost = char === b.charCodeAt(j - 1) ? 0 : 1;
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
		}
		[previous, current] = [current, previous];
	}
	return previous[b.length];
}

/**
 * 0 (same) to 1 (nothing alike): relative edit distance, a name containing the other counts as
 * close. Both are normalized; `a` is the query.
 */
function nameDistance(a: string, b: string): number {
	if (a === b) return 0;
	const longest = Math.max(a.length, b.length, 1);
	let distance = editDistance(a, b) / longest;
	const [short, long] = a.length <= b.length ? [a, b] : [b, a];
	if (short.length >= 3 && long.includes(short)) distance = Math.min(distance, 0.25 + 0.25 * (1 - short.length / long.length));
	return distance;
}

/** Characters of a name compared when looking for the closest entries. */
const MAX_COMPARED = 120;

/**
 * Different unknown names an index ranks the closest entries for (each costs an edit distance
 * per name of the list, about a millisecond): a cell of thousands of wrong names must not block
 * the event loop for minutes. Later misses of a name already ranked reuse its ranking; beyond
 * this, a miss is reported without suggestions.
 */
export const MAX_HINTS = 500;

/**
 * Entries of a list by normalized name: exact lookups in constant time, built once per list
 * (per execution, see `resolveListId`). The closest entries of a miss are ranked by edit
 * distance against the names normalized here once.
 */
export class NameIndex<K> {
	private readonly byName = new Map<string, Array<NamedEntry<K>>>();
	private readonly byAnyName = new Map<string, Array<NamedEntry<K>>>();
	/** Per entry, its names and aliases normalized, without repeats (list names first). */
	private readonly compared: Array<{ entry: NamedEntry<K>; names: string[] }>;
	private readonly hints = new Map<string, Array<NamedEntry<K>>>();

	constructor(readonly entries: Array<NamedEntry<K>>) {
		const add = (map: Map<string, Array<NamedEntry<K>>>, key: string, entry: NamedEntry<K>) => {
			const found = map.get(key);
			if (!found) map.set(key, [entry]);
			else if (found[found.length - 1] !== entry) found.push(entry);
		};
		this.compared = entries.map((entry) => {
			const names = entry.names.map(normalizeName);
			const aliases = (entry.aliases ?? []).map(normalizeName);
			for (const name of names) if (name !== '') add(this.byName, name, entry);
			for (const name of [...names, ...aliases]) if (name !== '') add(this.byAnyName, name, entry);
			return { entry, names: [...new Set([...names, ...aliases])] };
		});
	}

	/**
	 * Entries one of whose names equals `name` (ignoring case, accents, spaces and invisible
	 * characters), in list order; with `aliases`, their other names count too.
	 */
	find(name: string, aliases = false): Array<NamedEntry<K>> {
		const wanted = normalizeName(name);
		if (wanted === '') return [];
		return [...((aliases ? this.byAnyName : this.byName).get(wanted) ?? [])];
	}

	/** The `limit` entries whose names come closest to `name`, closest first. */
	closest(name: string, limit = 3): Array<NamedEntry<K>> {
		return this.rank(this.query(name), limit);
	}

	/**
	 * The closest entries for the message of a miss: ranked once per different name, for at
	 * most MAX_HINTS different names (undefined beyond).
	 */
	hint(name: string, limit = 3): Array<NamedEntry<K>> | undefined {
		const query = this.query(name);
		const key = `${limit}:${query}`;
		let closest = this.hints.get(key);
		if (!closest) {
			if (this.hints.size >= MAX_HINTS) return undefined;
			closest = this.rank(query, limit);
			this.hints.set(key, closest);
		}
		return [...closest];
	}

	/**
	 * A name as compared for ranking: normalized once, and cut to a length no list entry comes
	 * near: a huge value (a whole spreadsheet cell pasted by mistake) must not cost seconds of
	 * edit distance per entry.
	 */
	private query(name: string): string {
		return normalizeName(name.slice(0, 4 * MAX_COMPARED)).slice(0, MAX_COMPARED);
	}

	private rank(query: string, limit: number): Array<NamedEntry<K>> {
		const scored = this.compared.map(({ entry, names }) => ({
			entry,
			score: names.length === 0 ? Infinity : Math.min(...names.map((candidate) => nameDistance(query, candidate))),
		}));
		return sortBy(scored, 'score')
			.slice(0, limit)
			.map(({ entry }) => entry);
	}
}

/**
 * Entries one of whose names equals `name` (ignoring case, accents, spaces and invisible
 * characters); with `aliases`, their other names count too.
 */
export function findByName<K>(entries: Array<NamedEntry<K>>, name: string, aliases = false): Array<NamedEntry<K>> {
	return new NameIndex(entries).find(name, aliases);
}

/** Every name of an entry, list names first. */
export function allNames<K>(entry: NamedEntry<K>): string[] {
	return uniqBy([...entry.names, ...(entry.aliases ?? [])], normalizeName);
}

const LANGUAGE_GROUPS = LANGUAGE_NAME_GROUPS.map((group) => ({ group, keys: new Set(group.map(normalizeName)) }));

/** The other names of a language of the language skills list (German names, short forms). */
export function languageAliases(name: string): string[] {
	const key = normalizeName(name);
	return LANGUAGE_GROUPS.filter(({ keys }) => keys.has(key)).flatMap(({ group }) => group);
}

/** A value as quoted in an error message: at most 80 characters. */
function shorten(text: string): string {
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The `limit` entries whose names come closest to `name`, closest first. */
export function closestEntries<K>(entries: Array<NamedEntry<K>>, name: string, limit = 3): Array<NamedEntry<K>> {
	return new NameIndex(entries).closest(name, limit);
}

/** Joins entries that share a key (the same entry from lists in different languages). */
export function mergeEntries<K>(entries: Array<NamedEntry<K>>): Array<NamedEntry<K>> {
	const merged = new Map<K, NamedEntry<K>>();
	for (const entry of entries) {
		const known = merged.get(entry.key);
		if (known) {
			known.names = uniqBy([...known.names, ...entry.names], normalizeName);
			known.aliases = uniqBy([...(known.aliases ?? []), ...(entry.aliases ?? [])], normalizeName);
		} else {
			merged.set(entry.key, { key: entry.key, names: [...entry.names], aliases: [...(entry.aliases ?? [])] });
		}
	}
	return [...merged.values()];
}

export type IdOrName = { kind: 'id'; id: number } | { kind: 'name'; name: string } | { kind: 'invalid'; reason: string };

/**
 * What a dropdown value is: a positive integer ID (number or digits as text), a name to look
 * up, or invalid (zero, negative or fractional numbers, objects). Invisible characters that
 * came with pasted text are dropped first: `26\u200B` is the ID 26, `English\u200B` the name
 * `English`.
 */
export function parseIdOrName(value: unknown): IdOrName {
	if (typeof value === 'number') {
		return Number.isInteger(value) && value > 0
			? { kind: 'id', id: value }
			: { kind: 'invalid', reason: `must be a positive integer ID or a name (got ${value})` };
	}
	if (typeof value === 'string') {
		const text = visibleText(value);
		if (/^[+-]?\d+(?:[.,]\d*)?$/.test(text)) {
			const number = Number(text.replace(',', '.'));
			return Number.isInteger(number) && number > 0
				? { kind: 'id', id: number }
				: { kind: 'invalid', reason: `must be a positive integer ID or a name (got "${value.replace(INVISIBLE, '')}")` };
		}
		return text === '' ? { kind: 'invalid', reason: 'is empty' } : { kind: 'name', name: text };
	}
	return { kind: 'invalid', reason: `must be an ID or a name (got ${typeof value})` };
}

/** Whether a dropdown value is one the node can work with (an ID or a name). */
export function isIdOrName(value: unknown): boolean {
	return parseIdOrName(value).kind !== 'invalid';
}

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
		return list.map((entry) => ({ key: Number(entry.id), names: [entry.name_ger, entry.name_eng].filter(Boolean).map(String) }));
	}
	return list.map((entry) => ({
		key: Number(entry.id),
		names: [String(entry.value)],
		aliases: kind === 'languageSkills' ? languageAliases(String(entry.value)) : [],
	}));
}

/**
 * The name index of a list kind over the lists in `languages` (merged by ID), built once per
 * execution from the lists of its cache: every later name is a map lookup. The lists are
 * fetched first (a failed fetch is not remembered, the next item may try again); the index is
 * built from the cached lists, so it is the same for every item of the execution.
 */
async function listIndex(
	context: IExecuteFunctions,
	run: RunContext,
	itemIndex: number,
	kind: IdListKind,
	languages: ListLanguage[],
): Promise<NameIndex<number>> {
	const lists: IDataObject[][] = [];
	for (const language of languages) {
		lists.push((await run.references.get(context, kind, language, itemIndex)) as unknown as IDataObject[]);
	}
	return await run.once(`names:${kind}:${languages.join('+')}`, async () =>
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
	run: RunContext,
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
		index = await listIndex(context, run, itemIndex, kind, languages.slice(0, count));
		let found = uniqBy(index.find(parsed.name), 'key');
		if (found.length === 0) found = uniqBy(index.find(parsed.name, true), 'key');
		if (found.length === 1) return found[0].key;
		if (found.length > 1) {
			throw new NodeOperationError(
				context.getNode(),
				`"${target.label}": the name "${shorten(parsed.name)}" matches more than one ${target.entryLabel}: ${found.map(quoteEntry).join(', ')}. Give the ID instead.`,
				{ itemIndex },
			);
		}
	}
	const closest = index.hint(parsed.name);
	throw new NodeOperationError(
		context.getNode(),
		`"${target.label}": no ${target.entryLabel} is named "${shorten(parsed.name)}". ${closest ? `Closest: ${closest.map(quoteEntry).join(', ')}` : NO_HINT}`,
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
		entries.push({ key: JSON.stringify({ kind: 'division', id: division.id } as AreaKey), names: [String(division.name)] });
		for (const area of division.area ?? []) {
			entries.push({ key: JSON.stringify({ kind: 'area', id: area.id } as AreaKey), names: [String(area.name)] });
		}
	}
	return entries;
}

/** The name index of the business areas and divisions in `lang`, built once per execution (see `listIndex`). */
async function areaIndex(
	context: IExecuteFunctions,
	run: RunContext,
	lang: ListLanguage,
	itemIndex: number,
): Promise<NameIndex<string>> {
	const list = await run.references.get(context, 'businessAreas', lang, itemIndex);
	return await run.once(`names:businessAreas:${lang}`, async () => new NameIndex(businessAreaEntries(list)));
}

/**
 * The canonical name of a business area or division, in the job's language `lang`: a typed
 * name (German or English, any case, accents, spaces, invisible characters) is checked against
 * every division and every area, and the list's own spelling is what the service receives.
 */
export async function resolveBusinessArea(
	context: IExecuteFunctions,
	run: RunContext,
	itemIndex: number,
	value: string,
	label: string,
	lang: ListLanguage = 'de',
): Promise<string> {
	const name = visibleText(value);
	const primary = await areaIndex(context, run, lang, itemIndex);
	const direct = primary.find(name);
	if (direct.length > 0) return direct[0].names[0];

	const other = await areaIndex(context, run, OTHER_LANGUAGE[lang], itemIndex);
	const translated = other.find(name);
	if (translated.length > 0) {
		// Same division or area in the job's language; its own name if that list lacks it.
		const inPrimary = primary.entries.find((entry) => entry.key === translated[0].key);
		return (inPrimary ?? translated[0]).names[0];
	}
	const all = await run.once(
		`names:businessAreas:${lang}+${OTHER_LANGUAGE[lang]}`,
		async () => new NameIndex(mergeEntries([...primary.entries, ...other.entries])),
	);
	const hint = all.hint(name, 5);
	const closest = hint && uniqBy(hint, (entry) => entry.names[0]).slice(0, 3);
	throw new NodeOperationError(
		context.getNode(),
		`"${label}": no business area or division is named "${shorten(name)}". ${closest ? `Closest: ${closest.map((entry) => `"${entry.names.join(' / ')}"`).join(', ')}` : NO_HINT}`,
		{
			itemIndex,
			description:
				'Names are compared in German and English, ignoring case, accents, spaces and invisible characters. Give the name of a division or of an area (Reference List → Get Business Areas lists them).',
		},
	);
}
