/**
 * The service's four reference lists: fetched through the transport, at most once per
 * execution and language (the cache lives in the execution's RunContext, never at module
 * level), and shared by the Reference List operations, the dropdown loaders and the
 * name-to-id resolution of the write operations. The service shows no authentication on these
 * endpoints: without a session they are read without one, and a login follows only on a 401.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestContext, TransportSession } from '../../transport';
import { apiRequest } from '../../transport';

export type ReferenceListKind = 'businessAreas' | 'jobTypes' | 'languageSkills' | 'universityDegrees';

export type ListLanguage = 'de' | 'en';

export interface ReferenceListSpec {
	path: string;
	/** Whether the endpoint takes the `lang` query parameter. */
	takesLang: boolean;
	label: string;
}

export const REFERENCE_LISTS: Record<ReferenceListKind, ReferenceListSpec> = {
	businessAreas: { path: '/v1/general/business-areas', takesLang: true, label: 'business areas' },
	jobTypes: { path: '/v1/general/job-types', takesLang: false, label: 'job types' },
	languageSkills: { path: '/v1/general/language-skills', takesLang: true, label: 'language skills' },
	universityDegrees: { path: '/v1/general/university-degrees', takesLang: true, label: 'university degrees' },
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

/** Per-execution cache of reference lists: one request per list and language, however many items ask. */
export class ReferenceCache {
	private readonly lists = new Map<string, Promise<IDataObject[]>>();

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
}

export async function fetchList(
	context: RequestContext,
	session: TransportSession,
	kind: ReferenceListKind,
	lang: ListLanguage,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const spec = REFERENCE_LISTS[kind];
	const response = await apiRequest.call(
		context,
		{ method: 'GET', path: spec.path, qs: spec.takesLang ? { lang } : undefined, itemIndex, auth: 'optional' },
		session,
	);
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
