/**
 * Lists that come in pages. The description shows no pagination ("Pagination of lists: not
 * shown"), and a list answered whole is the common case. When an answer says there is more, the
 * next page is asked as well, so a list is never returned as if whole when the service said it
 * was not:
 * - a `Link` header with `rel="next"`, or an address in the body's `links.next`,
 *   `next_page_url` or `next`: that address, only at the credential's own Base URL (the
 *   credential is never sent elsewhere);
 * - `current_page` below `last_page` (in `meta` or at the top, without an address): the same
 *   request with `page` one higher.
 * An empty page ends the list, unless it says later pages are to come. A list that says there is
 * more but whose next page cannot be asked (another address, a loop, more than `MAX_PAGES`
 * pages) fails with a message that says so.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiRequest } from './attempt';
import type { RequestContext } from './execution';
import { TransportSession } from './execution';
import type { ServiceResponse } from './http';
import { headerValue, isObject } from './http';
import { apiRequest } from './request';

export const MAX_PAGES = 1000;

type Next = { path: string; qs: IDataObject } | { away: string } | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** Where an answer says the list goes on: a request at the Base URL, an address elsewhere, or nowhere. */
export function nextPage(answer: ServiceResponse, baseUrl: string, request: Pick<ApiRequest, 'path' | 'qs'>): Next {
	const link = headerValue(answer.headers, 'link');
	const linked = link === undefined ? undefined : /<([^>]*)>[^,]*;\s*rel="?next"?/i.exec(link)?.[1];
	const body = isObject(answer.body) ? answer.body : {};
	const links = isObject(body.links) ? body.links : {};
	const address = text(linked) ?? text(links.next) ?? text(body.next_page_url) ?? text(body.next);
	if (address !== undefined) return atBase(address, baseUrl, request.path);
	const current = pagesLeft(answer);
	return current === undefined ? undefined : { path: request.path, qs: { ...(request.qs ?? {}), page: current + 1 } };
}

/** The answer's page number when it says later pages are to come (`current_page` below `last_page`, in `meta` or at the top). */
function pagesLeft(answer: ServiceResponse): number | undefined {
	const body = isObject(answer.body) ? answer.body : {};
	const meta = isObject(body.meta) ? body.meta : body;
	const current = Number(meta.current_page);
	const last = Number(meta.last_page);
	return Number.isInteger(current) && Number.isInteger(last) && current < last ? current : undefined;
}

function atBase(address: string, baseUrl: string, path: string): Next {
	try {
		const base = new URL(baseUrl.trim());
		const url = new URL(address, `${base.origin}${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
		const prefix = base.pathname.replace(/\/+$/, '');
		if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) return { away: url.origin };
		return { path: url.pathname.slice(prefix.length), qs: Object.fromEntries(url.searchParams) };
	} catch {
		return { away: address.slice(0, 80) };
	}
}

/**
 * A GET of a list: the first answer, with `data` holding every page's entries when the service
 * said there were more. `label` names the list in a message ("API integrations").
 */
export async function apiList(this: RequestContext, request: ApiRequest, session: TransportSession = new TransportSession(), label = 'list'): Promise<ServiceResponse> {
	const first = await apiRequest.call(this, request, session);
	if (!Array.isArray(first.data)) return first;
	const entries: unknown[] = [...first.data];
	const asked = new Set<string>([JSON.stringify([request.path, request.qs ?? {}])]);
	let answer = first;
	const baseUrl = String((await session.getCredentials(this)).baseUrl ?? '');
	for (let pages = 1; ; pages++) {
		const next = nextPage(answer, baseUrl, request);
		if (next === undefined) break;
		const fail = (why: string) =>
			new NodeApiError(this.getNode(), { message: `The ${label} has more pages` }, { message: `The service answered the ${label} in pages, and ${why}: the list is incomplete, so the node does not return it`, itemIndex: request.itemIndex });
		if ('away' in next) throw fail(`its next page is at another address (${next.away}), where the node does not send the credential`);
		const key = JSON.stringify([next.path, next.qs]);
		if (asked.has(key)) throw fail('its next page is one it already answered');
		if (pages >= MAX_PAGES) throw fail(`it has more than ${MAX_PAGES} pages`);
		asked.add(key);
		answer = await apiRequest.call(this, { ...request, path: next.path, qs: next.qs }, session);
		if (!Array.isArray(answer.data)) throw fail('a later page came without a list in "data"');
		// An empty page ends the list (a service paging by offset may always point further), unless it says a later page is still to come (current_page below last_page).
		if (answer.data.length === 0 && !pagesLeft(answer)) break;
		entries.push(...answer.data);
	}
	return { ...first, data: entries };
}
