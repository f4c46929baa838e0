/**
 * A service that reports its refusals in the body only (the description leaves validation
 * failures open): every 4xx but 401 arrives as HTTP 200 whose envelope says `status` 404 or 422.
 * The node takes the envelope's status: the item fails with it, nothing is sent twice, and the
 * operations that expect a 404 (API Key → Delete) read it as they read an HTTP 404.
 */
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, createCandidate, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox({ refusalsAsHttp200: true });

let harness: Harness;
beforeAll(() => {
	harness = new Harness(emailCredential(sandbox(), ALICE));
});

const UNKNOWN_SLUG = '00000000-0000-4000-8000-000000000000';

describe('refusals reported in the body of an HTTP 200 answer', () => {
	it('the sandbox mode answers an unknown candidate with HTTP 200 and status 404 in the body', async () => {
		await createCandidate(harness); // logs in
		sandbox().clearRequests();
		const result = await harness.run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: UNKNOWN_SLUG, updateFields: { city: 'Berlin' }, options: FAST },
			onError: 'continueRegularOutput',
		});
		expect(sandbox().requests).toEqual([expect.objectContaining({ method: 'PUT', status: 200 })]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toBe("The service found nothing there (HTTP 200, but the answer's status is 404): Candidate not found");
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('a record for an unknown candidate fails its item once, not sent again; the other item is stored', async () => {
		const slug = await createCandidate(harness, { email: 'known@example.test' });
		sandbox().clearRequests();
		const result = await harness.run({
			parameters: {
				resource: 'candidateItSkill',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				skillName: 'SQL',
				skillLevel: 3,
				options: FAST,
			},
			items: [{ slug: UNKNOWN_SLUG }, { slug }],
			onError: 'continueRegularOutput',
		});
		expect(sandbox().requests.map((request) => request.body)).toEqual([
			expect.objectContaining({ user_slug: UNKNOWN_SLUG }),
			expect.objectContaining({ user_slug: slug }),
		]);
		expect(result.items[0].json.error).toContain("the answer's status is 404");
		expect(result.items[1].json.error).toBeUndefined();
		expect(sandbox().state().companies[0].candidates.find((candidate) => candidate.slug === slug)?.records.itSkills).toHaveLength(1);
	});

	it('with Stop Workflow the run fails with that status', async () => {
		const result = await harness.run({
			parameters: { resource: 'candidateAdditionalInfo', operation: 'add', candidateSlug: UNKNOWN_SLUG, title: 'Note', options: FAST },
		});
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error?.message).toContain('Candidate not found');
	});

	it('API Key → Delete of an unknown key: the 404 in the body reads as an HTTP 404 does', async () => {
		const result = await harness.run({ parameters: { resource: 'apiKey', operation: 'delete', apiKeyId: '99999', options: FAST } });
		expect(result.error?.message).toBe('No API key with this ID was found (HTTP 404)');
	});

	it('successes still pass: create (body status "201"), API key create (body status 200)', async () => {
		expect(await createCandidate(harness, { email: 'fine@example.test' })).toMatch(/^[0-9a-f-]{36}$/);
		const created = outputs(await runOk(harness, { resource: 'apiKey', operation: 'create' }));
		expect(created).toEqual([{ id: expect.any(Number), value: expect.any(String) }]);
	});
});
