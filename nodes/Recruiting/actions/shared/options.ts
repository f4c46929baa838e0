/**
 * The "Options" collection every operation has: how requests are sent (concurrency mode, rate cap,
 * retries), plus the fields a given operation adds (date format, include token, ...).
 * Defined once; each operation file calls `optionsCollection` with its own extras.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ConcurrencyMode } from '../../transport';
import type { DateOrder } from './dates';
import { DEFAULT_DATE_ORDER, isDateOrder } from './dates';
import { itemParameter } from './parameters';

/**
 * A label with a unit in milliseconds, written "(ms)" as n8n's own nodes do ("Batch Interval
 * (ms)"); the title-case lint rule would make it "(Ms)", as it does not know units.
 */
const inMilliseconds = (label: string): string => `${label} (ms)`;

/**
 * The highest number of items in flight Concurrency Mode Auto may reach, unless set. 128, not the
 * 64 first chosen: the cap is what a fast service that never signals trouble gets, and it has to
 * let the heaviest operation use n8n's CPU. Import sends a row's five requests one after another,
 * so its items in flight are its requests in flight: at 50 ms per request 64 rows make at most
 * 64 ÷ 0.25 s = 256 rows per second (11,291 rows per minute measured in a real n8n 2.41.1 on two
 * cores, 1.25 × the same rows through a chain of HTTP Request nodes at n8n's defaults), 128 rows
 * 18,752 rows per minute (2.07 ×) at 2.3 ms of n8n CPU per row (`npm run bench:workflow --
 * --variants import-auto,import-auto-max128,chain`). Above that n8n's CPU, not the cap, bounds
 * it. A service that cannot take 128 says so (429, 503, timeouts, answers slower than twice its
 * idle time) and Auto backs off; slow start reaches the cap only while none of that happens
 * (15 round trips from 10). Users who know their service's limit set it lower.
 */
export const DEFAULT_MAX_CONCURRENCY = 128;

/** The node version whose default Concurrency Mode is Auto; earlier versions keep a fixed 5. */
export const AUTO_SINCE_VERSION = 1.1;

/**
 * Shown on version 1 nodes only: which default applies, and how to get version 1.1's (n8n keeps
 * a node's version; a node added anew gets the newest).
 */
export const versionNotice: INodeProperties = {
	displayName:
		'This node is version 1: it sends 5 items at a time unless Options set otherwise. Version 1.1 adapts to the service by default (Concurrency Mode Auto): add Concurrency Mode in Options, or replace this node by a new Recruiting node.',
	name: 'versionOneNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@version': [1] } },
};

export const requestOptionFields: INodeProperties[] = [
	{
		displayName: 'Concurrency Mode',
		name: 'concurrencyMode',
		type: 'options',
		options: [
			{
				name: 'Auto',
				value: 'auto',
				description: 'Adapts the number of requests in flight to the service: more while answers stay fast, fewer on 429, 503, timeouts or rising latency',
			},
			{ name: 'Fixed', value: 'fixed', description: 'Always Concurrent Requests in flight' },
		],
		default: 'auto',
		description:
			'A new node runs with Auto. Without this option: Fixed if Concurrent Requests is set, else Auto (node version 1.1) or a fixed 5 (version 1).',
	},
	{
		displayName: 'Concurrent Requests',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
		default: 5,
		description:
			'How many input items are sent at the same time (Concurrency Mode Fixed). 1 sends them one after another. Output order and pairing do not depend on it.',
		// Shown by mode, as n8n's own nodes show options (a sibling in this collection): hidden with Auto.
		displayOptions: { hide: { concurrencyMode: ['auto'] } },
	},
	{
		displayName: 'Max Concurrency',
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 256, numberPrecision: 0 },
		default: DEFAULT_MAX_CONCURRENCY,
		description: 'With Concurrency Mode Auto: the most input items sent at the same time, however fast the service answers',
		// Hidden with Fixed; version 1 (Fixed unless Auto is chosen) shows it only with Auto: see `versionedOptions`.
		displayOptions: { hide: { concurrencyMode: ['fixed'] } },
	},
	{
		displayName: 'Max Requests per Second',
		name: 'requestsPerSecond',
		type: 'number',
		// No numberPrecision: the field shows "0", not "0.00", and still takes a fraction such as 0.5.
		typeOptions: { minValue: 0 },
		default: 0,
		hint: '0 = no cap',
		description: 'Upper bound on the request rate for this node run (fractions allowed, e.g. 0.5). 0 means no cap.',
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
		displayName: inMilliseconds('Request Timeout'),
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1000, numberPrecision: 0 },
		default: 60000,
		description: 'How long to wait for one answer. A timed-out read, update or delete is retried; a creation is not (it may have been stored).',
	},
	{
		displayName: inMilliseconds('Retry Delay'),
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 1000,
		description: 'Wait before the first retry; it doubles with each further retry (at most 30 seconds)',
	},
	{
		// Candidate → Create or Update only (actions/candidate/upsert/plan.ts); one setting for the whole node run.
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether to only show what a real run would do: every row is decided as in a real run and its output lists the requests it would send, but nothing is written to the service and nothing is remembered',
		// Beside the setting whenever it is in Options (issue 39, trap 2); a notice cannot depend on a value inside a collection.
		hint: 'While on, every run writes nothing, production runs too, and the canvas says "Dry Run". Turn it off to sync.',
		displayOptions: { show: { '/resource': ['candidate'], '/operation': ['upsert'] } },
	},
	{
		// Candidate → Create or Update only (upsert.operation.ts `heldInManualRun`): n8n never saves what a manual run learns (issue 39, trap 3).
		displayName: 'Create in Manual Runs',
		name: 'createInManualRuns',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether a manual run creates candidates and adds records (off: those rows answer "notSent"). n8n never saves what a manual run learns: after a restart, adopt the slugs it created.',
		hint: 'On: after an n8n restart, production refuses the rows this run created ("may already exist") until you adopt their slugs (Memory Action → Adopt Given Slugs)',
		displayOptions: { show: { '/resource': ['candidate'], '/operation': ['upsert'] } },
	},
	{
		displayName: 'Plan From',
		name: 'planFrom',
		type: 'options',
		noDataExpression: true,
		default: 'thisNode',
		options: [
			{ name: 'This Node', value: 'thisNode', description: "What a real run of this node would do, from this node's own memory" },
			{
				name: 'Other Create or Update Nodes (a Preview Node)',
				value: 'otherNodes',
				description: 'For a node kept only for previews beside the node that syncs: a row this node does not know is planned from the memory of the other node that knows it',
			},
		],
		description:
			"Only with Dry Run: whose memory the plan is made from. Each Create or Update node keeps its own memory, so by default a row only another node knows is planned as created (and says so).",
		displayOptions: { show: { '/resource': ['candidate'], '/operation': ['upsert'] } },
	},
	{
		// Candidate → Create or Update only (actions/candidate/upsert/plan.ts): the bulk way out for records of unknown outcome (issue 39).
		displayName: 'Send Unknown-Outcome Records Again',
		name: 'resendUnknownRecords',
		type: 'boolean',
		default: false,
		description:
			'Whether to post again the records whose earlier post got no answer ("outcomeUnknown"). Risk: one the service did store then exists twice (it cannot remove records).',
		displayOptions: { show: { '/resource': ['candidate'], '/operation': ['upsert'] } },
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

/** The day/month order of start and end dates for this item (`options.dateFormat`). */
export function dateOrderOf(context: IExecuteFunctions, itemIndex: number): DateOrder {
	const value = itemParameter(context, 'options.dateFormat', itemIndex, DEFAULT_DATE_ORDER);
	return isDateOrder(value) ? value : DEFAULT_DATE_ORDER;
}

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

/**
 * Each operation's Options, once per node version, so that each shows what applies to it:
 *   - version 1.1 and later: the collection starts with Concurrency Mode Auto (a new node shows
 *     how it runs without opening Options; the value is the version's default, so nothing
 *     changes for a saved node: n8n fills the default only where a workflow has no Options at
 *     all, and a saved Options keeps its own values). Max Concurrency is hidden with Fixed.
 *   - version 1: empty as before (a fixed 5 unless Options say otherwise); Max Concurrency is
 *     offered only with Concurrency Mode Auto.
 * Concurrent Requests is hidden with Auto in both. n8n keeps only the values an option's
 * display rules show (`getNodeParameters`); a hidden one was ignored by its mode anyway.
 */
export function versionedOptions(property: INodeProperties): INodeProperties[] {
	if (property.name !== 'options' || property.type !== 'collection') return [property];
	const show = property.displayOptions?.show ?? {};
	const children = (property.options ?? []) as INodeProperties[];
	const versionOne: INodeProperties = {
		...property,
		displayOptions: { show: { ...show, '@version': [1] } },
		options: children.map((option) =>
			option.name === 'maxConcurrency' ? { ...option, displayOptions: { show: { concurrencyMode: ['auto'] } } } : option,
		),
	};
	const newer: INodeProperties = {
		...property,
		default: { concurrencyMode: 'auto' },
		displayOptions: { show, hide: { '@version': [1] } },
	};
	return [versionOne, newer];
}

export interface RequestSettings {
	concurrencyMode: ConcurrencyMode;
	concurrency: number;
	maxConcurrency: number;
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
	// Without Concurrency Mode: Fixed when Concurrent Requests is set (the user chose a number), else the version's default.
	const byDefault = options.concurrency === undefined && context.getNode().typeVersion >= AUTO_SINCE_VERSION;
	const auto = options.concurrencyMode === 'auto' || (options.concurrencyMode !== 'fixed' && byDefault);
	return {
		concurrencyMode: auto ? 'auto' : 'fixed',
		concurrency: Math.floor(number(options.concurrency, 5, 1, 50)),
		maxConcurrency: Math.floor(number(options.maxConcurrency, DEFAULT_MAX_CONCURRENCY, 1, 256)),
		requestsPerSecond: number(options.requestsPerSecond, 0, 0, 10000),
		maxRetries: Math.floor(number(options.maxRetries, 3, 0, 10)),
		retryDelayMs: number(options.retryDelayMs, 1000, 0, 30000),
		timeoutMs: Math.floor(number(options.timeout, 60000, 1000, 3600000)),
	};
}
