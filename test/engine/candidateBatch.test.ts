/**
 * A mixed batch with continue on fail: valid items, invalid input, a service 4xx and a 5xx
 * yield exactly one output item per input item, in order, each paired with its input; the
 * failures carry the error.
 */
import { FakeService, outputs, run, setUpNock } from '../helpers/fakeService';
import type { Reply } from '../helpers/fakeService';

setUpNock();

/** The fake service answers by skill name: "reject" → 422, "crash" → 500, else 201. */
const bySkill = (request: { body?: { skill_name?: unknown } }): Reply => {
	if (request.body?.skill_name === 'reject') return [422, { message: 'user_slug: unknown candidate', status: 422 }];
	if (request.body?.skill_name === 'crash') return [500, { message: 'Internal error', status: 500 }];
	return [201, { message: 'Skill added', status: 201 }];
};

const parameters = {
	resource: 'candidateItSkill',
	operation: 'add',
	candidateSlug: '={{ $json.slug }}',
	skillName: '={{ $json.skill }}',
	skillLevel: '={{ $json.level }}',
	options: { maxRetries: 3, retryDelayMs: 1 },
};

const items = [
	{ slug: 's-1', skill: 'Python', level: 3 },
	{ slug: 's-2', skill: 'SQL', level: 7 },
	{ slug: 's-3', skill: 'reject', level: 2 },
	{ slug: 's-4', skill: 'crash', level: 2 },
	{ slug: '', skill: 'Go', level: 1 },
	{ slug: 's-6', skill: 'Excel', level: '4' },
];

describe('mixed batch', () => {
	it('continue on fail (regular output): one output per input, failures carry the error and their pairedItem', async () => {
		const service = new FakeService(bySkill);
		const result = await run(parameters, items, 'continueRegularOutput');
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(items.length);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, index) => ({ item: index })));
		const json = outputs(result);
		expect(json[0]).toEqual({ slug: 's-1', message: 'Skill added', skill_name: 'Python', skill_level_id: 3 });
		expect(json[1]).toEqual({ error: '"Skill Level" must be an integer from 1 to 4 (got 7)' });
		expect(json[2]).toEqual({ error: 'The service rejected the input (HTTP 422): user_slug: unknown candidate' });
		expect(json[3]).toEqual({ error: expect.stringContaining('The service failed (HTTP 500)') });
		// The engine keeps only the message in json; the error itself rides along on the item.
		expect(result.items.map((item) => (item.error as { httpCode?: string } | undefined)?.httpCode ?? null)).toEqual([
			null,
			null,
			'422',
			'500',
			null,
			null,
		]);
		expect(json[4]).toEqual({ error: '"Candidate Slug" is required' });
		expect(json[5]).toEqual({ slug: 's-6', message: 'Skill added', skill_name: 'Excel', skill_level_id: 4 });
		// Invalid items sent nothing; the 500 on a POST was not retried.
		expect(service.writes().map((request) => request.body?.skill_name).sort()).toEqual(['Excel', 'Python', 'crash', 'reject']);
	});

	it('continue on fail (error output): valid items on the main output, failures on the error output, all paired', async () => {
		new FakeService(bySkill);
		const result = await run(parameters, items, 'continueErrorOutput');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 5 }]);
		expect(result.errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }, { item: 4 }]);
		expect(result.errorItems.every((item) => typeof item.json.error === 'string')).toBe(true);
	});

	it('without continue on fail the run stops with the first failing item\'s error', async () => {
		new FakeService(bySkill);
		const result = await run(parameters, items);
		// Issue 39: named by its row as the editor counts them, with the other rows that failed in flight.
		expect(result.error?.message).toBe('Row 2 (item index 1): "Skill Level" must be an integer from 1 to 4 (got 7) (1 more row fails: row 5)');
	});

	it('the same holds for create: a candidate without e-mail and phone fails alone', async () => {
		const service = new FakeService();
		const result = await run(
			{ resource: 'candidate', operation: 'create', email: '={{ $json.email }}', phone: '={{ $json.phone }}' },
			[{ email: 'a@b.test', phone: '' }, { email: '', phone: '' }, { email: '', phone: '+49 1' }],
			'continueRegularOutput',
		);
		expect(outputs(result)).toEqual([
			{ slug: 'slug-new-1', email: 'a@b.test' },
			{ error: '"Email" or "Phone" is required: give at least one of them' },
			{ slug: 'slug-new-1', phone: '+49 1' },
		]);
		expect(service.writes()).toHaveLength(2);
	});
});
