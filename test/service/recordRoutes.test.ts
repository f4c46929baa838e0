/**
 * The sandbox's sub-record routes and the node's specs (candidateRecord/specs): every record the
 * node declares is served, and its required fields are required there too; a record the sandbox
 * knows only from a spec (a new one) gets a route that checks the spec's required fields, with no
 * edit of the sandbox.
 */
import { RECORD_SPECS } from '../../nodes/Recruiting/actions/candidateRecord';
import { ALICE, call, createCandidate, login } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import type { RecordRouteSpec, Sandbox } from '../sandbox/server';

const certificate: RecordRouteSpec = {
	path: '/gin/v1/company/candidate/certificate',
	type: 'certificate',
	label: 'certificate',
	fields: [{ wire: 'title', required: true }, { wire: 'issuer' }, { wire: 'level_id', required: true }],
};

let sandbox: Sandbox;
let token: string;
let slug: string;

beforeAll(async () => {
	sandbox = await startSandbox({ recordSpecs: [...RECORD_SPECS, certificate] });
	token = await login(sandbox, ALICE);
	slug = await createCandidate(sandbox, token);
});
afterAll(async () => await sandbox.close());

describe('the node\'s sub-records in the sandbox', () => {
	it.each(RECORD_SPECS.map((spec) => [spec.type, spec] as const))(
		'%s: the route exists and refuses a body without the first required field, naming it',
		async (_type, spec) => {
			const required = spec.fields.filter((field) => field.required).map((field) => field.wire);
			expect(required.length).toBeGreaterThan(0);
			const reply = await call(sandbox, 'POST', spec.path, { token, body: { user_slug: slug } });
			expect(reply.status).toBe(422);
			expect(reply.json.message).toBe(`${required[0]}: is required`);
		},
	);
});

describe('a sub-record the sandbox knows only from its spec', () => {
	it('refuses a body without a required field, naming it', async () => {
		const missingTitle = await call(sandbox, 'POST', certificate.path, { token, body: { user_slug: slug, level_id: 2 } });
		expect(missingTitle.status).toBe(422);
		expect(missingTitle.json).toEqual({ message: 'title: is required', status: 422 });
		const blankLevel = await call(sandbox, 'POST', certificate.path, { token, body: { user_slug: slug, title: 'AWS', level_id: ' ' } });
		expect(blankLevel.json.message).toBe('level_id: is required');
	});

	it('stores a complete one under records.other, keeping the spec\'s fields only', async () => {
		const body = { user_slug: slug, title: 'AWS Solutions Architect', issuer: 'AWS', level_id: 2, unknown_field: 'x' };
		const reply = await call(sandbox, 'POST', certificate.path, { token, body });
		expect(reply.status).toBe(201);
		expect(reply.json).toEqual({ message: 'Certificate added successfully', status: 201 });
		const stored = sandbox.state().companies.flatMap((company) => company.candidates).find((candidate) => candidate.slug === slug);
		expect(stored?.records.other?.certificate).toEqual([
			expect.objectContaining({ title: 'AWS Solutions Architect', issuer: 'AWS', level_id: 2 }),
		]);
		expect(stored?.records.other?.certificate?.[0]).not.toHaveProperty('unknown_field');
	});

	it('answers 404 for a candidate of another company or none', async () => {
		const reply = await call(sandbox, 'POST', certificate.path, { token, body: { user_slug: 'no-such-slug', title: 'x', level_id: 1 } });
		expect(reply.status).toBe(404);
	});
});
