/**
 * The parameter sets of Create or Update under each Match By, shared by the reviews of switching it
 * (test/service/matchByBreak.test.ts, aliasBreak.test.ts, aliasBreak2.test.ts): rows carry `email`,
 * `phone`, `id`, `first` and `city`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

export const CANDIDATE = '/gin/v1/company/candidate';

/** Sandbox faults: a creation stored by the service, its answer lost (the connection drops after the work). */
export const STORED_NO_ANSWER = { paths: [CANDIDATE], afterWorkDropRate: 1, seed: 1 };
/** Sandbox faults: a creation whose connection drops before the service stores anything. */
export const NEVER_STORED = { paths: [CANDIDATE], dropRate: 1, seed: 1 };
export const OPTIONS = { retryDelayMs: 1, concurrency: 4 };
export const FIELDS: INodeParameters = { firstName: '={{ $json.first }}', city: '={{ $json.city }}' };

export const BY_EMAIL: INodeParameters = { phone: '={{ $json.phone }}', options: OPTIONS };
export const BY_PHONE: INodeParameters = { matchBy: 'phone', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS };
export const BY_KEY: INodeParameters = { matchBy: 'key', matchKey: '={{ $json.id }}', phone: '={{ $json.phone }}', email: '={{ $json.email }}', options: OPTIONS };

export const withOptions = (by: INodeParameters, options: IDataObject): INodeParameters => ({ ...by, options: { ...OPTIONS, ...options } });
export const dry = (by: INodeParameters): INodeParameters => withOptions(by, { dryRun: true });
export const forgetBy = (by: INodeParameters): INodeParameters => ({ ...by, memoryAction: 'forget', confirmForget: true, options: { ...OPTIONS, concurrency: 1 } });
/** Forget All Rows with Forget Now. */
export const forgetAllBy = (by: INodeParameters): INodeParameters => ({ ...forgetBy(by), memoryAction: 'clearAll' });
export const adoptBy = (by: INodeParameters): INodeParameters => ({ ...by, memoryAction: 'adopt', candidateSlug: '={{ $json.slug }}' });
