/**
 * The "Options" collection every operation has: how requests are sent (concurrency, rate cap,
 * retries), plus the fields a given operation adds (date format, include token, ...).
 * Defined once; each operation file calls `optionsCollection` with its own extras.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * A label with a unit in milliseconds, written "(ms)" as n8n's own nodes do ("Batch Interval
 * (ms)"); the title-case lint rule would make it "(Ms)", as it does not know units.
 */
const inMilliseconds = (label: string): string => `${label} (ms)`;

export const requestOptionFields: INodeProperties[] = [
	{
		displayName: 'Concurrent Requests',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
		default: 5,
		description:
			'How many input items are sent to the service at the same time. 1 sends them one after another. Output order and item pairing do not depend on it.',
	},
	{
		displayName: 'Max Requests per Second',
		name: 'requestsPerSecond',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description: 'Upper bound on the request rate for this node run. 0 means no bound.',
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
		default: 3,
		description:
			'How often one request is retried: 429 and 503 with Retry-After always; 502, 503, 504, timeouts and dropped connections only for reads, updates and deletes. A retry never creates a duplicate.',
	},
	{
		displayName: 'Request Timeout',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1000, numberPrecision: 0 },
		default: 60000,
		description: 'Milliseconds to wait for one answer. A timed-out read, update or delete is retried; a creation is not (it may have been stored).',
	},
	{
		displayName: inMilliseconds('Retry Delay'),
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 1000,
		description: 'Wait before the first retry; it doubles with each further retry (at most 30 seconds)',
	},
];

export const dateFormatOption: INodeProperties = {
	displayName: 'Date Format Sent',
	name: 'dateFormat',
	type: 'options',
	options: [
		{ name: 'DD-MM-YYYY (Day First)', value: 'DD-MM-YYYY' },
		{ name: 'MM-DD-YYYY (Month First)', value: 'MM-DD-YYYY' },
	],
	default: 'DD-MM-YYYY',
	description:
		'Day/month order of start and end dates of jobs, university records and additional information, as your service expects them. The birthday is always sent day first.',
};

export function optionsCollection(
	resource: string,
	operation: string,
	extra: INodeProperties[] = [],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		options: [...extra, ...requestOptionFields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export interface RequestSettings {
	concurrency: number;
	requestsPerSecond: number;
	maxRetries: number;
	retryDelayMs: number;
	timeoutMs: number;
}

/** The request settings of a node run (read from the first item: they apply to the whole run). */
export function requestSettings(context: IExecuteFunctions): RequestSettings {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const number = (value: unknown, fallback: number, min: number, max: number) => {
		const parsed = typeof value === 'number' ? value : Number(value);
		return Number.isFinite(parsed) ? Math.min(max, Math.max(min, parsed)) : fallback;
	};
	return {
		concurrency: Math.floor(number(options.concurrency, 5, 1, 50)),
		requestsPerSecond: number(options.requestsPerSecond, 0, 0, 10000),
		maxRetries: Math.floor(number(options.maxRetries, 3, 0, 10)),
		retryDelayMs: number(options.retryDelayMs, 1000, 0, 30000),
		timeoutMs: Math.floor(number(options.timeout, 60000, 1000, 3600000)),
	};
}
