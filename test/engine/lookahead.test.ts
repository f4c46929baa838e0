/**
 * Preparation off the critical path (issue 20): the router prepares the items after the ones in
 * flight (parameters, validation, names), and keeps what it guaranteed before: an item that was
 * only prepared is never sent and never the cause of a stopped run, and output order and pairing
 * do not depend on it.
 */
import nock from 'nock';

import { BASE, FakeService, JOB_TYPES, envelope, outputs, run, setUpNock } from '../helpers/fakeService';
import type { Reply } from '../helpers/fakeService';

setUpNock();

const JOB_PATH = '/gin/v1/company/candidate/job';

/** IT skills of one candidate, each item's skill and level mapped by expressions. */
const skills = (concurrency: number) => ({
	resource: 'candidateItSkill',
	operation: 'add',
	candidateSlug: 'slug-1',
	skillName: '={{ $json.skill }}',
	skillLevel: '={{ $json.level }}',
	options: { concurrency },
});

describe('preparation ahead of the requests in flight', () => {
	it('the next item is prepared while the request before it is in flight (its job type list is asked before that answer)', async () => {
		const arrivals: Array<{ what: string; at: number }> = [];
		nock(BASE)
			.get('/v1/general/job-types')
			.query(true)
			.reply(() => {
				arrivals.push({ what: 'job types', at: Date.now() });
				return [200, envelope(JOB_TYPES)];
			});
		nock(BASE)
			.post(JOB_PATH)
			.times(2)
			.delay(600)
			.reply((_uri, body) => {
				arrivals.push({ what: `job ${(body as { company_name: string }).company_name}`, at: Date.now() });
				return [201, { message: 'Job added', status: 201 }];
			});
		// Item 0 names no job type; item 1 names one by name, so preparing it loads the list.
		const result = await run(
			{
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: 'slug-1',
				companyName: '={{ $json.company }}',
				startDate: '2020-01-15',
				additionalFields: { jobTypeId: '={{ $json.type }}' },
				options: { concurrency: 1 },
			},
			[{ company: 'First', type: '' }, { company: 'Second', type: 'Working student' }],
		);
		expect(result.error).toBeUndefined();
		expect(outputs(result).map((json) => [json.company_name, json.job_type_id])).toEqual([
			['First', undefined],
			['Second', 2],
		]);
		expect(arrivals.map(({ what }) => what)).toEqual(['job First', 'job types', 'job Second']);
		const [first, list, second] = arrivals.map(({ at }) => at);
		// Asked while the first job's answer was still on its way (600 ms), not after it.
		expect(list - first).toBeLessThan(400);
		expect(second - first).toBeGreaterThanOrEqual(590);
	});

	it('Stop Workflow: a prepared item that is invalid is neither sent nor the cause; the first real failure is', async () => {
		const service = new FakeService((request): Reply => {
			if (request.body?.skill_name === 'reject') return [422, { message: 'user_slug: unknown candidate', status: 422 }];
			return [201, { message: 'Skill added', status: 201 }];
		});
		const items = [
			{ skill: 'Python', level: 3 },
			{ skill: 'reject', level: 2 },
			{ skill: 'Go', level: 9 },
			{ skill: 'SQL', level: 1 },
			{ skill: 'Excel', level: 2 },
		];
		const result = await run(
			skills(1),
			items,
		);
		expect(result.error?.message).toBe('Row 2 (item index 1): The service rejected the input (HTTP 422): user_slug: unknown candidate');
		expect(service.writes().map((request) => request.body?.skill_name)).toEqual(['Python', 'reject']);
	});

	it('many items at concurrency 20: every item sent once, output in input order, each paired with its input', async () => {
		const service = new FakeService();
		const items = Array.from({ length: 300 }, (_, index) => ({ skill: `Skill ${index}`, level: (index % 4) + 1 }));
		const result = await run(
			skills(20),
			items,
		);
		expect(result.error).toBeUndefined();
		expect(outputs(result).map((json) => json.skill_name)).toEqual(items.map((item) => item.skill));
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, index) => ({ item: index })));
		expect(service.writes().map((request) => request.body?.skill_name).sort()).toEqual(items.map((item) => item.skill).sort());
	});
});
