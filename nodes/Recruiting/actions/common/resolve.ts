/**
 * Dropdown values given at run time: an ID (number or text) or an entry's name in German or
 * English, as spreadsheets and forms carry them. Names are compared ignoring case, accents and
 * spaces, against the reference lists of the execution's cache (one request per list and
 * language per execution). An unknown name fails the item with the closest entries.
 *
 * The matching helpers are pure; the resolvers take the execution's RunContext.
 */
import { deburr, sortBy, uniqBy } from 'lodash';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunContext } from '../context';
import { LANGUAGE_NAME_GROUPS } from './languageNames';
import type { ListLanguage } from './referenceLists';

/** One entry of a reference list, with every name it goes by (all languages). */
export interface NamedEntry<K = number> {
	key: K;
	names: string[];
	/** Other names people use (matched only when no list name matches). */
	aliases?: string[];
}

/** Lower case, accents removed (ä → a, ß → ss), every space removed. */
export function normalizeName(text: string): string {
	return deburr(text).toLowerCase().replace(/\s+/g, '');
}

/** Edit distance (insertions, deletions, substitutions) between two texts. */
export function editDistance(a: string, b: string): number {
	if (a === b) return 0;
	if (a.length === 0) return b.length;
	if (b.length === 0) return a.length;
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
		}
		previous = current;
	}
	return previous[b.length];
}

/**
 * 0 (same) to 1 (nothing alike): relative edit distance, a name containing the other counts as
 * close. `a` is the normalized query.
 */
function nameDistance(a: string, name: string): number {
	const b = normalizeName(name);
	if (a === b) return 0;
	const longest = Math.max(a.length, b.length, 1);
	let distance = editDistance(a, b) / longest;
	const [short, long] = a.length <= b.length ? [a, b] : [b, a];
	if (short.length >= 3 && long.includes(short)) distance = Math.min(distance, 0.25 + 0.25 * (1 - short.length / long.length));
	return distance;
}

/**
 * Entries one of whose names equals `name` (ignoring case, accents and spaces); with
 * `aliases`, their other names count too.
 */
export function findByName<K>(entries: Array<NamedEntry<K>>, name: string, aliases = false): Array<NamedEntry<K>> {
	const wanted = normalizeName(name);
	if (wanted === '') return [];
	return entries.filter((entry) =>
		[...entry.names, ...(aliases ? (entry.aliases ?? []) : [])].some((candidate) => normalizeName(candidate) === wanted),
	);
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

/** Characters of a name compared when looking for the closest entries. */
const MAX_COMPARED = 120;

/** The `limit` entries whose names come closest to `name`, closest first. */
export function closestEntries<K>(entries: Array<NamedEntry<K>>, name: string, limit = 3): Array<NamedEntry<K>> {
	// Normalized once, and cut to a length no list entry comes near: a huge value (a whole
	// spreadsheet cell pasted by mistake) must not cost seconds of edit distance per entry.
	const query = normalizeName(name.slice(0, 4 * MAX_COMPARED)).slice(0, MAX_COMPARED);
	const scored = entries.map((entry) => ({
		entry,
		score: Math.min(...allNames(entry).map((candidate) => nameDistance(query, candidate))),
	}));
	return sortBy(scored, 'score')
		.slice(0, limit)
		.map(({ entry }) => entry);
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
 * up, or invalid (zero, negative or fractional numbers, objects).
 */
export function parseIdOrName(value: unknown): IdOrName {
	if (typeof value === 'number') {
		return Number.isInteger(value) && value > 0
			? { kind: 'id', id: value }
			: { kind: 'invalid', reason: `must be a positive integer ID or a name (got ${value})` };
	}
	if (typeof value === 'string') {
		const text = value.trim();
		if (/^[+-]?\d+(?:[.,]\d*)?$/.test(text)) {
			const number = Number(text.replace(',', '.'));
			return Number.isInteger(number) && number > 0
				? { kind: 'id', id: number }
				: { kind: 'invalid', reason: `must be a positive integer ID or a name (got "${value}")` };
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

/** A list that takes a name per id and language: job types, university degrees, languages. */
export type IdListKind = 'jobTypes' | 'universityDegrees' | 'languageSkills';

export interface ResolveTarget {
	/** The field as the user sees it, for messages: "Job Type". */
	label: string;
	/** What the list holds, for messages: "job type". */
	entryLabel: string;
}

const OTHER_LANGUAGE: Record<ListLanguage, ListLanguage> = { de: 'en', en: 'de' };

async function idEntries(
	context: IExecuteFunctions,
	run: RunContext,
	kind: IdListKind,
	lang: ListLanguage,
	itemIndex: number,
): Promise<Array<NamedEntry<number>>> {
	if (kind === 'jobTypes') {
		const list = await run.references.get(context, 'jobTypes', 'de', itemIndex);
		return list.map((entry) => ({ key: Number(entry.id), names: [entry.name_ger, entry.name_eng].filter(Boolean).map(String) }));
	}
	const list = await run.references.get(context, kind, lang, itemIndex);
	return list.map((entry) => ({
		key: Number(entry.id),
		names: [String(entry.value)],
		aliases: kind === 'languageSkills' ? languageAliases(String(entry.value)) : [],
	}));
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
	let entries: Array<NamedEntry<number>> = [];
	for (const language of languages) {
		entries = mergeEntries([...entries, ...(await idEntries(context, run, kind, language, itemIndex))]);
		let found = uniqBy(findByName(entries, parsed.name), 'key');
		if (found.length === 0) found = uniqBy(findByName(entries, parsed.name, true), 'key');
		if (found.length === 1) return found[0].key;
		if (found.length > 1) {
			throw new NodeOperationError(
				context.getNode(),
				`"${target.label}": the name "${parsed.name}" matches more than one ${target.entryLabel}: ${found.map(quoteEntry).join(', ')}. Give the ID instead.`,
				{ itemIndex },
			);
		}
	}
	const closest = closestEntries(entries, parsed.name);
	throw new NodeOperationError(
		context.getNode(),
		`"${target.label}": no ${target.entryLabel} is named "${shorten(parsed.name)}". Closest: ${closest.map(quoteEntry).join(', ')}`,
		{
			itemIndex,
			description: `Names are compared in German and English, ignoring case, accents and spaces. Give one of the names or its ID (the Reference List resource lists them all).`,
		},
	);
}

interface AreaKey {
	kind: 'division' | 'area';
	id: number;
}

async function businessAreaEntries(
	context: IExecuteFunctions,
	run: RunContext,
	lang: ListLanguage,
	itemIndex: number,
): Promise<Array<NamedEntry<string>>> {
	const list = await run.references.get(context, 'businessAreas', lang, itemIndex);
	const entries: Array<NamedEntry<string>> = [];
	for (const division of list) {
		entries.push({ key: JSON.stringify({ kind: 'division', id: division.id } as AreaKey), names: [String(division.name)] });
		for (const area of division.area ?? []) {
			entries.push({ key: JSON.stringify({ kind: 'area', id: area.id } as AreaKey), names: [String(area.name)] });
		}
	}
	return entries;
}

/**
 * The canonical name of a business area or division, in the job's language `lang`: a typed
 * name (German or English, any case, accents, spaces) is checked against every division and
 * every area, and the list's own spelling is what the service receives.
 */
export async function resolveBusinessArea(
	context: IExecuteFunctions,
	run: RunContext,
	itemIndex: number,
	value: string,
	label: string,
	lang: ListLanguage = 'de',
): Promise<string> {
	const name = value.trim();
	const primary = await businessAreaEntries(context, run, lang, itemIndex);
	const direct = findByName(primary, name);
	if (direct.length > 0) return direct[0].names[0];

	const other = await businessAreaEntries(context, run, OTHER_LANGUAGE[lang], itemIndex);
	const translated = findByName(other, name);
	if (translated.length > 0) {
		// Same division or area in the job's language; its own name if that list lacks it.
		const inPrimary = primary.find((entry) => entry.key === translated[0].key);
		return (inPrimary ?? translated[0]).names[0];
	}
	const all = mergeEntries([...primary, ...other]);
	const closest = uniqBy(closestEntries(all, name, 5), (entry) => entry.names[0]).slice(0, 3);
	throw new NodeOperationError(
		context.getNode(),
		`"${label}": no business area or division is named "${shorten(name)}". Closest: ${closest.map((entry) => `"${entry.names.join(' / ')}"`).join(', ')}`,
		{
			itemIndex,
			description:
				'Names are compared in German and English, ignoring case, accents and spaces. Give the name of a division or of an area (Reference List → Get Business Areas lists them).',
		},
	);
}
