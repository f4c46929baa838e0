/**
 * The service's four reference lists: fetched through the transport, at most once per
 * execution and language (the cache, `ReferenceCache`, lives as long as one execution, never at
 * module level), and shared by the Reference List operations, the dropdown loaders and the
 * name-to-id resolution of the write operations. The service shows no authentication on these
 * endpoints: without a session they are read without one, and a login follows only on a 401.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestContext, TransportSession } from '../transport';
import { apiList } from '../transport';

export type ReferenceListKind = 'businessAreas' | 'jobTypes' | 'languageSkills' | 'universityDegrees';

export type ListLanguage = 'de' | 'en';

const LANGUAGE_CODES: Record<string, ListLanguage> = { de: 'de', en: 'en', german: 'de', deutsch: 'de', english: 'en', englisch: 'en' };

/** A list language given by its code or name, in any case ("EN", "English", "Deutsch"); undefined for any other. */
export function languageCode(value: unknown): ListLanguage | undefined {
	return typeof value === 'string' ? LANGUAGE_CODES[value.trim().toLowerCase()] : undefined;
}

export interface ReferenceListSpec {
	path: string;
	/** Asked when `path` is answered 404: the other spelling the service's description gives. */
	otherPath?: string;
	/** Whether the endpoint takes the `lang` query parameter. */
	takesLang: boolean;
	label: string;
}

export const REFERENCE_LISTS: Record<ReferenceListKind, ReferenceListSpec> = {
	businessAreas: { path: '/v1/general/business-areas', takesLang: true, label: 'business areas' },
	jobTypes: { path: '/v1/general/job-types', takesLang: false, label: 'job types' },
	languageSkills: { path: '/v1/general/language-skills', takesLang: true, label: 'language skills' },
	universityDegrees: {
		path: '/v1/general/university-degrees',
		otherPath: '/v1/general/university-degree',
		takesLang: true,
		label: 'university degrees',
	},
};

export interface BusinessArea {
	id: number;
	name: string;
	area: Array<{ id: number; name: string }>;
}

export interface JobType {
	id: number;
	name_ger: string;
	name_eng: string;
}

export interface ValueEntry {
	id: number;
	value: string;
}

export interface ReferenceListTypes {
	businessAreas: BusinessArea;
	jobTypes: JobType;
	languageSkills: ValueEntry;
	universityDegrees: ValueEntry;
}

/** Work done once per key (for as long as the map lives); later callers share its result, or its failure. */
export class OnceMap {
	private readonly results = new Map<string, Promise<unknown>>();

	async run<T>(key: string, work: () => Promise<T>): Promise<T> {
		let pending = this.results.get(key) as Promise<T> | undefined;
		if (!pending) {
			pending = work();
			this.results.set(key, pending);
		}
		return await pending;
	}
}

/**
 * Per-execution cache of reference lists: one request per list and language, however many items
 * ask; and of what is built from them once per execution (`index`: the name indexes).
 */
export class ReferenceCache {
	private readonly lists = new Map<string, Promise<IDataObject[]>>();
	private readonly built = new OnceMap();

	constructor(private readonly session: TransportSession) {}

	async get<K extends ReferenceListKind>(
		context: RequestContext,
		kind: K,
		lang: ListLanguage = 'de',
		itemIndex?: number,
	): Promise<Array<ReferenceListTypes[K]>> {
		const spec = REFERENCE_LISTS[kind];
		const key = spec.takesLang ? `${kind}:${lang}` : kind;
		let pending = this.lists.get(key);
		if (!pending) {
			pending = fetchList(context, this.session, kind, lang, itemIndex);
			this.lists.set(key, pending);
			// A failed fetch is not cached: the next item may try again.
			pending.catch(() => this.lists.delete(key));
		}
		return (await pending) as unknown as Array<ReferenceListTypes[K]>;
	}

	/** Builds `build()` once in this execution under `key`; later callers share its result. */
	async index<T>(key: string, build: () => Promise<T>): Promise<T> {
		return await this.built.run(key, build);
	}
}

export async function fetchList(
	context: RequestContext,
	session: TransportSession,
	kind: ReferenceListKind,
	lang: ListLanguage,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const spec = REFERENCE_LISTS[kind];
	const get = async (path: string, accept?: number[]) =>
		await apiList.call(context, { method: 'GET', path, qs: spec.takesLang ? { lang } : undefined, itemIndex, auth: 'optional', accept }, session, `list of ${spec.label}`);
	// The description names the degrees' path in two spellings: the other is asked on a 404.
	let response = await get(spec.path, spec.otherPath ? [404] : undefined);
	if (spec.otherPath && response.httpStatus === 404) response = await get(spec.otherPath);
	if (!Array.isArray(response.data)) {
		throw new NodeApiError(
			context.getNode(),
			{ message: `The list of ${spec.label} came without a data array` },
			{
				message: `The service answered the ${spec.label} request without a list in "data"`,
				itemIndex,
			},
		);
	}
	return response.data as IDataObject[];
}
