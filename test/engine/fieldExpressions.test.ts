/**
 * Field expressions read without n8n's expression engine (`itemParameter`): for every stored
 * value and every item, the value must be exactly what n8n's `getNodeParameter` answers through
 * the real engine. A probe node with the Recruiting node's description reads each parameter both
 * ways, item by item, in one real execution; fast-check makes the items and the expressions.
 */
import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { directReader, fieldPath, itemParameter } from '../../nodes/Recruiting/actions/shared/parameters';
import { Harness, stopEngineTimers } from '../helpers/harness';

afterAll(() => stopEngineTimers());

/** The parameters a probe compares: a Job Add's (top-level texts and its "Additional Fields" collection). */
const PROBED: Array<[string, string | IDataObject]> = [
	['candidateSlug', ''],
	['companyName', ''],
	['additionalFields', {}],
];

class ParameterProbe extends Recruiting {
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, itemIndex) => {
				const json: IDataObject = {};
				for (const [name, fallback] of PROBED) {
					let engine: unknown;
					try {
						engine = this.getNodeParameter(name, itemIndex, fallback);
					} catch (error) {
						engine = { threw: (error as Error).message };
					}
					let direct: unknown;
					try {
						direct = itemParameter(this, name, itemIndex, fallback);
					} catch (error) {
						direct = { threw: (error as Error).message };
					}
					json[name] = { engine, direct } as IDataObject;
				}
				return { json, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

async function probe(parameters: INodeParameters, items: IDataObject[]) {
	const result = await new Harness({ baseUrl: 'https://recruiting.example.test', authentication: 'accessToken', accessToken: 'unused' }).run({
		parameters: { resource: 'candidateJob', operation: 'add', startDate: '2020-01-15', ...parameters },
		items,
		nodeType: new ParameterProbe(),
	});
	if (result.error) throw result.error;
	return result.items.map((item) => item.json as Record<string, { engine: unknown; direct: unknown }>);
}

describe('field expressions', () => {
	it('fieldPath takes only a whole expression that reads a path of $json', () => {
		expect(fieldPath('={{ $json.email }}')).toEqual(['email']);
		expect(fieldPath('={{$json["First name"]}}')).toEqual(['First name']);
		expect(fieldPath("={{ $json.address['city'] }}")).toEqual(['address', 'city']);
		expect(fieldPath('={{ $json.email.toLowerCase() }}')).toBeUndefined();
		expect(fieldPath('={{ $json.email }} ')).toBeUndefined();
		expect(fieldPath('= {{ $json.email }}')).toBeUndefined();
		expect(fieldPath('=mail: {{ $json.email }}')).toBeUndefined();
		expect(fieldPath('={{ $json.a }}{{ $json.b }}')).toBeUndefined();
		expect(fieldPath('={{ $json["a}}b"] }}')).toBeUndefined();
		expect(fieldPath('={{ $json[0] }}')).toBeUndefined();
		expect(fieldPath('={{ $node["x"].json.a }}')).toBeUndefined();
		// Names n8n's sandbox guards are left to it.
		expect(fieldPath('={{ $json.constructor }}')).toBeUndefined();
		expect(fieldPath('={{ $json["__proto__"] }}')).toBeUndefined();
		expect(fieldPath('={{ $json.a.toString }}')).toBeUndefined();
		// A collection with any other expression inside goes to the engine as a whole.
		expect(directReader({ city: '={{ $json.city }}', title: '={{ $json.t + 1 }}' })).toBeUndefined();
		expect(directReader({ city: '={{ $json.city }}', title: 'fixed', level: 3 })).toBeDefined();
	});

	it('a Job Add mapped from a sheet: every value read directly equals the engine\'s', async () => {
		const rows = await probe(
			{
				candidateSlug: '={{ $json.slug }}',
				companyName: '={{ $json["Company name"] }}',
				additionalFields: { cityName: '={{ $json.address.city }}', jobTitle: 'Analyst', jobTypeId: '={{ $json.type }}' },
			},
			[
				{ slug: 's-1', 'Company name': 'Acme', address: { city: 'Köln' }, type: 2 },
				{ slug: 's-2', 'Company name': '', address: { city: null }, type: 'Working student' },
				{ slug: 's-3', address: {}, type: true },
			],
		);
		for (const row of rows) for (const [name] of PROBED) expect(row[name].direct).toEqual(row[name].engine);
		expect(rows[0].additionalFields.direct).toEqual({ cityName: 'Köln', jobTitle: 'Analyst', jobTypeId: 2 });
	});

	it('keys with a raw carriage return, line or paragraph separator: read as n8n\'s engine reads them (issue 26)', async () => {
		for (const key of ['a\rb', 'a\u2028b', 'a\u2029b']) {
			const rows = await probe({ candidateSlug: `={{ $json["${key}"] }}`, companyName: `={{ $json['${key}'] }}`, additionalFields: {} }, [{ [key]: 'value' }]);
			for (const row of rows) for (const [name] of PROBED) expect(row[name].direct).toEqual(row[name].engine);
		}
	});

	it('fuzz: random items and stored values, item by item', async () => {
		const key = fc.oneof(fc.constantFrom('email', 'city', 'First name', 'a', 'Straße', 'constructor', 'toString', '', 'x y', 'a\rb', 'a\u2028b', 'a\u2029b', 'a\nb'), fc.string({ maxLength: 6 }));
		const leaf = fc.oneof(
			fc.string({ maxLength: 8 }),
			fc.constantFrom('', '=abc', '={{ 1 }}', ' padded ', 'Köln', '0'),
			fc.integer(),
			fc.double({ noNaN: true, noDefaultInfinity: true }),
			fc.boolean(),
			fc.constant(null),
			fc.array(fc.integer(), { maxLength: 2 }),
			fc.dictionary(fc.constantFrom('city', 'zip'), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
		);
		const item = fc.dictionary(key, leaf, { maxKeys: 5 });
		const quoted = (name: string) => (name.includes('"') ? `['${name}']` : `["${name}"]`);
		const access = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : quoted(name));
		const expression = fc.oneof(
			key.map((name) => `={{ $json${access(name)} }}`),
			key.map((name) => `={{$json${quoted(name)}}}`),
			key.map((name) => `={{ $json.address${access(name)} }}`),
			key.map((name) => `={{ $json${access(name)} }} `),
			key.map((name) => `=Name: {{ $json${access(name)} }}`),
			key.map((name) => `={{ $json${access(name)} + '' }}`),
			fc.constantFrom('fixed text', '={{ 1 + 1 }}'),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 4 }), expression, expression, expression, async (items, slug, company, city) => {
				const rows = await probe({ candidateSlug: slug, companyName: company, additionalFields: { cityName: city, jobTitle: 'Analyst' } }, items);
				for (const row of rows) for (const [name] of PROBED) expect(row[name].direct).toEqual(row[name].engine);
			}),
			{ numRuns: 150 },
		);
	}, 120000);
});
