/**
 * Parameters read once per node run (common/parameters.ts): a parameter without an expression
 * is read once and shared by every item; one with an expression anywhere inside (also inside a
 * collection) is still read per item; each item's output and request body are its own objects.
 */
import { holdsExpression } from '../../nodes/Recruiting/actions/common/parameters';
import { FakeService, outputs, run, setUpNock } from '../helpers/fakeService';

setUpNock();

describe('holdsExpression', () => {
	it('finds an expression at any depth, and nothing else', () => {
		expect(holdsExpression('={{ $json.a }}')).toBe(true);
		expect(holdsExpression({ city: 'Berlin', title: '={{ $json.t }}' })).toBe(true);
		expect(holdsExpression({ entries: [{ name: 'x' }, { name: '={{ 1 }}' }] })).toBe(true);
		expect(holdsExpression('Berlin')).toBe(false);
		expect(holdsExpression('a = b')).toBe(false);
		expect(holdsExpression({ city: 'Berlin', level: 3, flag: true, none: null })).toBe(false);
		expect(holdsExpression([])).toBe(false);
	});
});

describe('parameters of a node run', () => {
	const items = [
		{ slug: 's-1', city: 'Berlin' },
		{ slug: 's-2', city: 'Hamburg' },
		{ slug: 's-3', city: 'Köln' },
	];

	it('static fields are the same for every item, expression fields per item, inside one collection too', async () => {
		const service = new FakeService(() => [201, { message: 'Job added', status: 201 }]);
		const result = await run(
			{
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				companyName: 'Acme',
				startDate: '2020-01-15',
				additionalFields: { cityName: '={{ $json.city }}', jobTitle: 'Analyst' },
				options: { dateFormat: 'MM-DD-YYYY' },
			},
			items,
			'continueRegularOutput',
		);
		expect(result.error).toBeUndefined();
		const bodies = service.writes().map((request) => request.body);
		expect(bodies.map((body) => body?.city_name).sort()).toEqual(['Berlin', 'Hamburg', 'Köln']);
		for (const body of bodies) {
			expect(body).toMatchObject({ company_name: 'Acme', job_title: 'Analyst', start_date: '01-15-2020' });
		}
		const json = outputs(result);
		expect(json.map((entry) => [entry.slug, entry.city_name])).toEqual([
			['s-1', 'Berlin'],
			['s-2', 'Hamburg'],
			['s-3', 'Köln'],
		]);
		// Every item has its own output object: changing one leaves the others alone.
		json[0].company_name = 'changed';
		expect(json[1].company_name).toBe('Acme');
	});

	it('a static value that fails fails every item, each with its own item index', async () => {
		const service = new FakeService(() => [201, { message: 'Skill added', status: 201 }]);
		const result = await run(
			{ resource: 'candidateItSkill', operation: 'add', candidateSlug: '={{ $json.slug }}', skillName: 'SQL', skillLevel: 9 },
			items,
			'continueRegularOutput',
		);
		expect(outputs(result)).toEqual(items.map(() => ({ error: '"Skill Level" must be an integer from 1 to 4 (got 9)' })));
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, index) => ({ item: index })));
		expect(service.writes()).toHaveLength(0);
	});
});
