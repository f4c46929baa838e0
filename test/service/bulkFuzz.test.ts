/**
 * Fuzzing with fast-check: thousands of random parameter sets (strings, unicode, numbers, nulls,
 * booleans, objects, dates in many forms, list names, huge strings, real and made-up slugs) for
 * every candidate write operation, many items per execution, against the sandbox over real HTTP.
 * Every item must end as one output item: a success, or an error item carrying a
 * NodeOperationError / NodeApiError with its itemIndex, never a JavaScript TypeError, and no
 * secret of the credential anywhere.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { candidateRows, createParameters, isSuccess, runNode } from '../helpers/bulk';

type FieldKind = 'slug' | 'date' | 'name' | 'text' | 'email' | 'bool' | 'int' | 'lang';

interface FuzzOperation {
	resource: string;
	operation: string;
	/** Parameter path (dots for collection fields) → the kind of value it expects. */
	fields: Record<string, FieldKind>;
}

const OPERATIONS: FuzzOperation[] = [
	{
		resource: 'candidate',
		operation: 'create',
		fields: { email: 'email', phone: 'text', 'additionalFields.source': 'text', 'additionalFields.employee': 'bool' },
	},
	{
		resource: 'candidate',
		operation: 'update',
		fields: {
			candidateSlug: 'slug',
			'updateFields.email': 'email',
			'updateFields.firstName': 'text',
			'updateFields.lastName': 'text',
			'updateFields.city': 'text',
			'updateFields.street': 'text',
			'updateFields.zipCode': 'text',
			'updateFields.phone': 'text',
			'updateFields.birthday': 'date',
			'updateFields.whatsappPreference': 'bool',
			'updateFields.smsPreference': 'bool',
			'updateFields.emailPreference': 'bool',
		},
	},
	{
		resource: 'candidateJob',
		operation: 'add',
		fields: {
			candidateSlug: 'slug',
			companyName: 'text',
			startDate: 'date',
			'additionalFields.endDate': 'date',
			'additionalFields.cityName': 'text',
			'additionalFields.jobTypeId': 'name',
			'additionalFields.description': 'text',
			'additionalFields.jobTitle': 'text',
			'additionalFields.businessAreaDivision': 'name',
			'additionalFields.lang': 'lang',
		},
	},
	{
		resource: 'candidateUniversity',
		operation: 'add',
		fields: {
			candidateSlug: 'slug',
			startDate: 'date',
			'additionalFields.endDate': 'date',
			'additionalFields.universityName': 'text',
			'additionalFields.studyName': 'text',
			'additionalFields.universityDegreeId': 'name',
			'additionalFields.description': 'text',
			'additionalFields.grade': 'int',
			'additionalFields.gradingSystemId': 'int',
		},
	},
	{
		resource: 'candidateItSkill',
		operation: 'add',
		fields: { candidateSlug: 'slug', skillName: 'text', skillLevel: 'int' },
	},
	{
		resource: 'candidateLanguage',
		operation: 'add',
		fields: { candidateSlug: 'slug', languageId: 'name', languageLevelId: 'int' },
	},
	{
		resource: 'candidateAdditionalInfo',
		operation: 'add',
		fields: {
			candidateSlug: 'slug',
			title: 'text',
			'additionalFields.description': 'text',
			'additionalFields.startDate': 'date',
			'additionalFields.endDate': 'date',
		},
	},
];

/** The item key that carries a parameter's value. */
const keyOf = (path: string) => path.replace(/\./g, '_');

/** A date field also accepts `$now` / `$today` (Luxon DateTimes) when the item says so. */
function expressionFor(path: string, kind: FieldKind): string {
	const value = `$json.${keyOf(path)}`;
	return kind === 'date'
		? `={{ ${value} === '@now' ? $now : ${value} === '@today' ? $today : ${value} }}`
		: `={{ ${value} }}`;
}

function parametersFor(op: FuzzOperation, options: IDataObject): INodeParameters {
	const parameters: INodeParameters = { resource: op.resource, operation: op.operation, options: options as INodeParameters };
	for (const [path, kind] of Object.entries(op.fields)) {
		const [head, tail] = path.split('.');
		if (tail === undefined) {
			parameters[head] = expressionFor(path, kind);
		} else {
			const collection = (parameters[head] ??= {}) as INodeParameters;
			collection[tail] = expressionFor(path, kind);
		}
	}
	return parameters;
}

const pad = (n: number) => String(n).padStart(2, '0');

const dateText = fc
	.tuple(fc.date({ min: new Date('1800-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true }), fc.nat(7))
	.map(([date, form]) => {
		const y = date.getUTCFullYear();
		const m = pad(date.getUTCMonth() + 1);
		const d = pad(date.getUTCDate());
		return [
			date.toISOString(),
			`${y}-${m}-${d}`,
			`${d}.${m}.${y}`,
			`${d}-${m}-${y}`,
			`${m}-${d}-${y}`,
			`${d}/${m}/${y}`,
			`${y}-${m}-${d}T23:59:59+14:00`,
			`${y}${m}${d}`,
		][form];
	});

const impossibleDates = fc.constantFrom('31.02.2020', '2020-02-30', '00-00-0000', '29-02-2021', '2020-13-01', '32.01.2020', '1e3', '--');

const listNames = fc.constantFrom(
	'Working student',
	'Werkstudent',
	' werkSTUDENT ',
	'Englisch',
	'English',
	'Māori',
	'Luxemburgisch',
	'Master of Science',
	'Promotion',
	'Softwareentwicklung',
	'Human Resources',
	'Klingon',
	'2',
	'26',
	'0',
	'-1',
	'1.5',
	'99999999999999999999',
);

const huge = fc.constantFrom('A'.repeat(1_200_000), 'ü'.repeat(200_000), '😀'.repeat(50_000), `${'x'.repeat(9_999)}\u0000`);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
	{ weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
	{ weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
	{ weight: 2, arbitrary: fc.integer() },
	{ weight: 1, arbitrary: fc.double() },
	{ weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, 0.1) },
	{ weight: 2, arbitrary: fc.constant(null) },
	{ weight: 2, arbitrary: fc.boolean() },
	{ weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n', 'null', 'undefined', 'true', '[object Object]', '{{ 1 }}', '__proto__') },
	{ weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }) },
	{ weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }) },
	{ weight: 2, arbitrary: dateText },
	{ weight: 1, arbitrary: impossibleDates },
	{ weight: 1, arbitrary: fc.constantFrom('@now', '@today') },
	{ weight: 2, arbitrary: listNames },
	{ weight: 1, arbitrary: huge },
);

function valueFor(kind: FieldKind, slugs: string[]): fc.Arbitrary<unknown> {
	const likely: Record<FieldKind, fc.Arbitrary<unknown>> = {
		slug: fc.constantFrom(...slugs),
		date: fc.oneof(dateText, fc.constantFrom('@now', '@today')),
		name: listNames,
		// A list language: its codes and names in any case, or anything else (refused, naming the field).
		lang: fc.constantFrom('de', 'en', 'EN', ' De ', 'English', 'deutsch', ''),
		text: fc.string({ unit: 'grapheme', maxLength: 60 }),
		email: fc.oneof(fc.emailAddress(), fc.constant('')),
		bool: fc.boolean(),
		int: fc.integer({ min: -2, max: 6 }),
	};
	return fc.oneof({ weight: 3, arbitrary: likely[kind] }, { weight: 2, arbitrary: anyValue });
}

function itemFor(op: FuzzOperation, slugs: string[]): fc.Arbitrary<IDataObject> {
	const shape: Record<string, fc.Arbitrary<unknown>> = {};
	for (const [path, kind] of Object.entries(op.fields)) shape[keyOf(path)] = valueFor(kind, slugs);
	return fc.record(shape, { requiredKeys: [] }) as fc.Arbitrary<IDataObject>;
}

const TYPE_ERROR = /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not a constructor|undefined is not|null is not|Maximum call stack|Invalid time value/i;

/** What is wrong with one output item, or undefined. */
function problemOf(item: INodeExecutionData | undefined, index: number, secrets: string[]): string | undefined {
	if (!item) return 'no output item';
	if ((item.pairedItem as { item?: number } | undefined)?.item !== index) return `paired with ${JSON.stringify(item.pairedItem)}`;
	const texts = [JSON.stringify(item.json)];
	if (!isSuccess(item)) {
		const error: unknown = item.error;
		if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
			const kind = error instanceof Error ? error.constructor.name : typeof error;
			return `error is ${kind}: ${String(item.json.error)}`;
		}
		if (error.context.itemIndex !== index) return `error itemIndex ${String(error.context.itemIndex)}`;
		texts.push(error.message, error.description ?? '', JSON.stringify((error as NodeApiError).errorResponse ?? {}));
		if (TYPE_ERROR.test(error.message) || TYPE_ERROR.test(error.description ?? '')) return `TypeError-like failure: ${error.message}`;
	}
	for (const text of texts) {
		for (const secret of secrets) if (secret && text.includes(secret)) return 'a secret appears in the output';
		if (/bearer\s+(?!\[redacted\])\S/i.test(text)) return 'an Authorization value appears in the output';
	}
	return undefined;
}

const short = (value: unknown) =>
	JSON.stringify(value, (_key, entry: unknown) =>
		typeof entry === 'string' && entry.length > 80 ? `${entry.slice(0, 20)}…(${entry.length} chars)` : entry,
	);

const sandbox = useSandbox();
let harness: Harness;
let slugs: string[];

beforeAll(async () => {
	harness = new Harness(emailCredential(sandbox()));
	const created = await runNode(harness, createParameters({}), candidateRows(5, 'fuzz'));
	slugs = [...created.items.map((item) => item.json.slug as string), 'no-such-candidate', ''];
	expect(slugs.slice(0, 5).every((slug) => typeof slug === 'string' && slug.length > 0)).toBe(true);
});

const secrets = () => [ALICE.password, String(harness.credentials.session())];

describe('random parameter sets never crash the node nor leak a secret', () => {
	it.each(OPERATIONS.map((op) => [`${op.resource}.${op.operation}`, op] as const))(
		'%s: 4 executions × 100 random items',
		async (_name, op) => {
			const seed = 20260 + OPERATIONS.indexOf(op);
			let outcomes = { ok: 0, failed: 0 };
			await fc.assert(
				fc.asyncProperty(fc.array(itemFor(op, slugs), { minLength: 100, maxLength: 100 }), async (items) => {
					const result = await runNode(harness, parametersFor(op, { concurrency: 20, maxRetries: 0 }), items, {
						onError: 'continueRegularOutput',
					});
					if (result.error) throw new Error(`The run failed: ${result.error.message}`);
					if (result.items.length !== items.length) throw new Error(`${result.items.length} outputs for ${items.length} items`);
					items.forEach((item, index) => {
						const problem = problemOf(result.items[index], index, secrets());
						if (problem) throw new Error(`${op.resource}.${op.operation} item ${short(item)}: ${problem}`);
					});
					const ok = result.items.filter(isSuccess).length;
					outcomes = { ok: outcomes.ok + ok, failed: outcomes.failed + items.length - ok };
				}),
				{ numRuns: 4, seed, endOnFailure: true },
			);
			// The generators reach the service: some items succeed, some fail.
			expect(outcomes.ok).toBeGreaterThan(0);
			expect(outcomes.failed).toBeGreaterThan(0);
		},
	);

	it('random request options (concurrency, rate, retries, delay, date format) never break a run', async () => {
		const weird = fc.oneof(
			fc.constant(undefined),
			fc.constant(null),
			fc.integer({ min: -100, max: 100 }),
			fc.double({ noNaN: false }),
			fc.string({ maxLength: 6 }),
			fc.boolean(),
			fc.constantFrom('5', '1e9', 'Infinity', '-Infinity', 'NaN', ''),
		);
		// A real but tiny rate cap (0.001/s) would make the run wait for minutes by design; keep the cap at 0 or ≥ 50/s.
		const rate = fc.oneof(fc.constant(0), fc.integer({ min: 50, max: 10_000 }), fc.integer({ min: -10, max: 0 }), fc.constantFrom('', 'x', null));
		const options = fc.record(
			{
				concurrency: weird,
				requestsPerSecond: rate,
				maxRetries: weird,
				retryDelayMs: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('', 'x', null)),
				dateFormat: fc.oneof(fc.constantFrom('DD-MM-YYYY', 'MM-DD-YYYY'), fc.string({ maxLength: 5 }), fc.constant(null)),
			},
			{ requiredKeys: [] },
		);
		const job = OPERATIONS.find((op) => op.resource === 'candidateJob')!;
		await fc.assert(
			fc.asyncProperty(options, fc.array(itemFor(job, slugs), { minLength: 10, maxLength: 10 }), async (opts, items) => {
				const result = await runNode(harness, parametersFor(job, opts as IDataObject), items, { onError: 'continueRegularOutput' });
				if (result.error) throw new Error(`options ${short(opts)}: the run failed: ${result.error.message}`);
				items.forEach((item, index) => {
					const problem = problemOf(result.items[index], index, secrets());
					if (problem) throw new Error(`options ${short(opts)}, item ${short(item)}: ${problem}`);
				});
			}),
			{ numRuns: 40, seed: 77, endOnFailure: true },
		);
	});
});
