/**
 * Name matching, pure: every comparison of a typed name with a reference-list entry goes through
 * `normalizeName` (case, accents, spaces and invisible characters do not matter). A list is
 * indexed once by normalized name (`NameIndex`), so a name costs one map lookup however long the
 * list; edit distance is computed only for the hint of a miss.
 */
import { deburr, sortBy, uniqBy } from 'lodash';

import { LANGUAGE_NAME_GROUPS } from './languageNames';

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

/** Characters of a value quoted in full in a message; a longer value is cut (see `quote`). */
export const QUOTE_LIMIT = 80;

/**
 * A value as every message quotes it: text in double quotes, anything else as JSON; a value
 * longer than QUOTE_LIMIT characters (a whole spreadsheet cell pasted into a date or phone
 * field) is cut and its length given, so that a message never carries the value whole.
 */
export function quote(value: unknown): string {
	let shown: string;
	if (typeof value === 'string') shown = value;
	else {
		try {
			shown = JSON.stringify(value) ?? String(value);
		} catch {
			shown = String(value);
		}
	}
	const cut = shown.length > QUOTE_LIMIT ? `${shown.slice(0, QUOTE_LIMIT - 3)}...` : shown;
	const text = typeof value === 'string' ? `"${cut}"` : cut;
	return shown.length > QUOTE_LIMIT ? `${text} (${shown.length} characters)` : text;
}

/** An entry's name as a list gives it: its text (a number as text); '' when it has none (missing, null, blank, an object). */
export function entryName(value: unknown): string {
	const name = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
	return visibleText(name) === '' ? '' : name;
}

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
			: { kind: 'invalid', reason: `must be a positive integer ID or a name (got ${quote(value)})` };
	}
	if (typeof value === 'string') {
		const text = visibleText(value);
		if (/^[+-]?\d+(?:[.,]\d*)?$/.test(text)) {
			const number = Number(text.replace(',', '.'));
			return Number.isInteger(number) && number > 0
				? { kind: 'id', id: number }
				: { kind: 'invalid', reason: `must be a positive integer ID or a name (got ${quote(value.replace(INVISIBLE, ''))})` };
		}
		return text === '' ? { kind: 'invalid', reason: 'is empty' } : { kind: 'name', name: text };
	}
	return { kind: 'invalid', reason: `must be an ID or a name (got ${typeof value})` };
}
