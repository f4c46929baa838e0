/**
 * Issue 26, "Also in the rooms you touch": three review findings, through n8n's engine against
 * nock (and, for the field expressions, against n8n's own expression engine). Each failed before
 * its fix.
 */
import nock from 'nock';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { fieldPath } from '../../nodes/Recruiting/actions/shared/parameters';
import { Harness } from '../helpers/harness';
import { setUpNock } from '../helpers/nock';

const BASE = 'https://recruiting.example.test';
const CANDIDATE = '/gin/v1/company/candidate';
const ECHOED = 'tok-4711-abcdef-echoed';
const PASSWORD = 'S3cret-Passw0rd!';
const FAST = { retryDelayMs: 1 };

const tokenCredential = (): ICredentialDataDecryptedObject => ({ baseUrl: BASE, authentication: 'accessToken', accessToken: ECHOED });

setUpNock();

describe('item 1: an error item with partial results is redacted like any output', () => {
	const importing: INodeParameters = {
		resource: 'candidate',
		operation: 'import',
		candidateSlug: 'slug-1',
		recordInput: 'fields',
		itSkills: { itSkill: [{ skillName: 'SQL', skillLevel: 3 }, { skillName: 'Go', skillLevel: 2 }] },
		options: { ...FAST, concurrency: 1, failOnRecordError: true },
	};

	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'Fail Item on Record Error (%s): the answer of an added record that echoes the token is redacted',
		async (onError) => {
			nock(BASE)
				.post(`${CANDIDATE}/it-skill`, (body: { skill_name?: string }) => body.skill_name === 'SQL')
				.reply(200, { message: `added with ${ECHOED}`, status: 201 })
				.post(`${CANDIDATE}/it-skill`, (body: { skill_name?: string }) => body.skill_name === 'Go')
				.reply(422, { message: 'refused', status: 422 });
			const result = await new Harness(tokenCredential()).run({ parameters: importing, onError });
			expect(result.error).toBeUndefined();
			const out = [...result.items, ...result.errorItems];
			expect(out).toHaveLength(1);
			const text = JSON.stringify(out.map((item) => item.json));
			expect(text).toContain('refused');
			expect(text).toContain('[redacted]');
			expect(text).not.toContain(ECHOED);
		},
	);
});

describe('item 2: a redirect Location is redacted first, then cut', () => {
	// The key starts before the 200th character of the address and ends after it.
	const location = (secret: string) => `https://elsewhere.example.test/${'a'.repeat(150)}?key=${secret}&more=${'b'.repeat(40)}`;

	it('an API request answered 302: no part of the access token in the message', async () => {
		nock(BASE).put(CANDIDATE).reply(302, '', { Location: location(ECHOED) });
		const result = await new Harness(tokenCredential()).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 's', updateFields: { city: 'X' }, options: FAST },
		});
		expect(result.error?.message).toContain('answered with a redirect (HTTP 302)');
		expect(result.error?.message).toContain('[redacted]');
		expect(result.error?.message).not.toContain(ECHOED.slice(0, 6));
	});

	it('a login answered 307: no part of the password in the message', async () => {
		nock(BASE).post('/v1/login').reply(307, '', { Location: location(PASSWORD) });
		const result = await new Harness({ baseUrl: BASE, authentication: 'emailPassword', email: 'a@b.test', password: PASSWORD }).run({
			parameters: { resource: 'candidate', operation: 'update', candidateSlug: 's', updateFields: { city: 'X' }, options: FAST },
		});
		expect(result.error?.message).toContain('Login failed: the service answered with a redirect (HTTP 307)');
		expect(result.error?.message).not.toContain(PASSWORD.slice(0, 6));
	});
});

describe('item 3: the field-expression fast path refuses what n8n\'s engine refuses', () => {
	it.each([
		['a raw carriage return', 'a\rb'],
		['a raw line separator (U+2028)', 'a\u2028b'],
		['a raw paragraph separator (U+2029)', 'a\u2029b'],
	])('a quoted key with %s goes to the engine', (_case, key) => {
		expect(fieldPath(`={{ $json["${key}"] }}`)).toBeUndefined();
		expect(fieldPath(`={{ $json['${key}'] }}`)).toBeUndefined();
	});
});
