/**
 * Shared by the candidate tests: the service address, a credential, the reference lists as the
 * service describes them (German default lists, English variants), and a recorder that mocks
 * the service with nock and keeps every request it receives.
 */
import nock from 'nock';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from './harness';
import { Harness } from './harness';

export const BASE = 'https://recruiting.example.test';

export const credential = { baseUrl: BASE, authentication: 'accessToken', accessToken: 'test-access-value' };

export const envelope = (data: unknown, message = 'Success', status: number | string = 200) => ({ message, status, data });

export const JOB_TYPES = [
	{ id: 1, name_ger: 'Praktikant', name_eng: 'Internship' },
	{ id: 2, name_ger: 'Werkstudent', name_eng: 'Working student' },
	{ id: 3, name_ger: 'Trainee', name_eng: 'Trainee' },
	{ id: 7, name_ger: 'Duales Studium', name_eng: 'Dual studies' },
	{ id: 4, name_ger: 'Festanstellung', name_eng: 'Permanent position' },
	{ id: 6, name_ger: 'Masterarbeit (im Unternehmen)', name_eng: 'Master thesis (in company)' },
];

export const DEGREES_DE = [
	{ id: 2, value: 'Bachelor of Science' },
	{ id: 10, value: 'Master of Science' },
	{ id: 21, value: 'Promotion' },
	{ id: 23, value: 'Diplom' },
];
export const DEGREES_EN = [
	{ id: 2, value: 'Bachelor of Science' },
	{ id: 10, value: 'Master of Science' },
	{ id: 21, value: 'Doctorate' },
	{ id: 23, value: 'Diploma' },
];

/** As the service lists them: English names even in the default (German) list. */
export const LANGUAGES_DE = [
	{ id: 23, value: 'German' },
	{ id: 26, value: 'English' },
	{ id: 35, value: 'French' },
	{ id: 28, value: 'Spanish' },
	{ id: 53, value: 'Italian' },
	{ id: 72, value: 'Māori' },
	{ id: 139, value: 'Luxemburgisch' },
];
export const LANGUAGES_EN = LANGUAGES_DE.map((entry) => (entry.id === 139 ? { id: 139, value: 'Luxembourgish' } : entry));

export const AREAS_DE = [
	{ id: 1, name: 'Einkauf & Verkauf', area: [{ id: 1, name: 'Einkauf' }, { id: 3, name: 'Sales' }] },
	{ id: 10, name: 'IT & Softwareentwicklung', area: [{ id: 66, name: 'Softwareentwicklung' }, { id: 67, name: 'Web Design' }] },
	{ id: 15, name: 'Öffentlicher Sektor', area: [{ id: 100, name: 'Verwaltung' }] },
];
export const AREAS_EN = [
	{ id: 1, name: 'Purchasing & Sales', area: [{ id: 1, name: 'Purchasing' }, { id: 3, name: 'Sales' }] },
	{ id: 10, name: 'IT & Software Development', area: [{ id: 66, name: 'Software Development' }, { id: 67, name: 'Web Design' }] },
	{ id: 15, name: 'Public Sector', area: [{ id: 100, name: 'Administration' }] },
];

export interface Recorded {
	method: string;
	path: string;
	body: IDataObject | undefined;
}

/** What the fake service answers to one write request. */
export type Reply = [number, unknown];

/**
 * Mocks the service: every reference list (counting requests per list and language) and the
 * candidate endpoints, answering writes with `reply(body)` (default: 201 with a message, and
 * `data.slug` for a creation). Every request is recorded in order.
 */
export class FakeService {
	readonly requests: Recorded[] = [];

	constructor(private readonly reply: (request: Recorded) => Reply = FakeService.ok) {
		const lists: Record<string, (lang: string) => unknown[]> = {
			'/v1/general/job-types': () => JOB_TYPES,
			'/v1/general/university-degrees': (lang) => (lang === 'en' ? DEGREES_EN : DEGREES_DE),
			'/v1/general/language-skills': (lang) => (lang === 'en' ? LANGUAGES_EN : LANGUAGES_DE),
			'/v1/general/business-areas': (lang) => (lang === 'en' ? AREAS_EN : AREAS_DE),
		};
		const scope = nock(BASE).persist();
		for (const [path, list] of Object.entries(lists)) {
			scope
				.get(path)
				.query(true)
				.reply((uri) => {
					const lang = new URL(uri, BASE).searchParams.get('lang') ?? '';
					this.requests.push({ method: 'GET', path: lang ? `${path}?lang=${lang}` : path, body: undefined });
					return [200, envelope(list(lang))];
				});
		}
		const write = (method: string) => (uri: string, body: unknown) => {
			const request = { method, path: uri, body: body as IDataObject };
			this.requests.push(request);
			return this.reply(request);
		};
		scope.post(/^\/gin\/v1\/company\/candidate/).reply(write('POST'));
		scope.put('/gin/v1/company/candidate').reply(write('PUT'));
	}

	static ok(request: Recorded): Reply {
		if (request.path === '/gin/v1/company/candidate' && request.method === 'POST') {
			return [201, { message: 'Candidate created', status: '201', data: { slug: 'slug-new-1' } }];
		}
		if (request.method === 'PUT') return [200, { message: 'Candidate updated', status: 200 }];
		return [201, { message: 'Record added', status: 201 }];
	}

	/** The write requests (POST/PUT), in order. */
	writes(): Recorded[] {
		return this.requests.filter((request) => request.method !== 'GET');
	}

	/** How many GET requests each list (and language) received. */
	listRequests(): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const request of this.requests.filter((entry) => entry.method === 'GET')) {
			counts[request.path] = (counts[request.path] ?? 0) + 1;
		}
		return counts;
	}
}

/** Runs the node once with `parameters` over `items`. */
export async function run(
	parameters: INodeParameters,
	items?: IDataObject[],
	onError?: 'continueRegularOutput' | 'continueErrorOutput',
): Promise<RunResult> {
	const harness = new Harness(credential);
	return await harness.run({ parameters, items, onError });
}

/** The error message of a run that stopped. */
export const errorMessage = (result: RunResult) => result.error?.message ?? '';

export { outputs } from './run';
export { setUpNock } from './nock';
