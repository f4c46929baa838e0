/** Candidate → Create and Candidate → Update through the engine: exact bodies, outputs, validation. */
import type { INodeParameters } from 'n8n-workflow';

import { FakeService, errorMessage, outputs, run, setUpNock } from '../helpers/fakeService';

setUpNock();

const create = (fields: INodeParameters, additionalFields: INodeParameters = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'create',
	...fields,
	additionalFields,
});

const update = (updateFields: INodeParameters, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: 'slug-42',
	updateFields,
	...extra,
});

describe('candidate create', () => {
	it('sends every field with its wire name and type, and returns slug plus the fields sent', async () => {
		const service = new FakeService();
		const result = await run(
			create({ email: ' lena@example.test ', phone: '+49 151 2345' }, { source: 'Careers page', employee: true }),
		);
		expect(result.error).toBeUndefined();
		expect(service.writes()).toEqual([
			{
				method: 'POST',
				path: '/gin/v1/company/candidate',
				body: { email: 'lena@example.test', phone: '+49 151 2345', source: 'Careers page', employee: true },
			},
		]);
		expect(outputs(result)).toEqual([
			{ slug: 'slug-new-1', email: 'lena@example.test', phone: '+49 151 2345', source: 'Careers page', employee: true },
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('sends only the e-mail when only the e-mail is given; employee false is sent as a boolean', async () => {
		const service = new FakeService();
		await run(create({ email: 'a@b.test', phone: '' }));
		await run(create({ phone: 491512345 }, { employee: false, source: '' }));
		expect(service.writes().map((request) => request.body)).toEqual([
			{ email: 'a@b.test' },
			{ phone: '491512345', employee: false },
		]);
	});

	it('takes the values from expressions over the input items', async () => {
		const service = new FakeService();
		const result = await run(create({ email: '={{ $json.mail }}', phone: '={{ $json.tel }}' }), [
			{ mail: 'x@y.test', tel: '' },
			{ mail: '', tel: '+49 1' },
		]);
		expect(service.writes().map((request) => request.body)).toEqual([{ email: 'x@y.test' }, { phone: '+49 1' }]);
		expect(outputs(result).map((json) => json.slug)).toEqual(['slug-new-1', 'slug-new-1']);
	});

	it.each([
		[{ email: '', phone: '  ' }, '"Email" or "Phone" is required'],
		[{ email: 'not-an-email', phone: '+49 1' }, '"Email" must be a valid e-mail address (got "not-an-email")'],
	])('fails the item without a request for %j', async (fields, message) => {
		const service = new FakeService();
		const result = await run(create(fields));
		expect(errorMessage(result)).toContain(message);
		expect(service.requests).toEqual([]);
	});

	it('fails when the service does not return a slug', async () => {
		const service = new FakeService(() => [201, { message: 'Created', status: '201', data: {} }]);
		const result = await run(create({ email: 'a@b.test' }));
		expect(errorMessage(result)).toContain('did not return its slug');
		expect(service.writes()).toHaveLength(1);
	});
});

describe('candidate update', () => {
	const everything = {
		email: 'lena@example.test',
		firstName: 'Lena',
		lastName: 'Fischer',
		city: 'Berlin',
		street: 'Torstraße 1',
		zipCode: 10119,
		phone: '+49 151 2345',
		birthday: '1999-04-12',
		whatsappPreference: true,
		smsPreference: false,
		emailPreference: 'true',
	};

	it('sends user_slug and every field set, with wire names and types (zip code as text)', async () => {
		const service = new FakeService();
		const result = await run(update(everything));
		expect(result.error).toBeUndefined();
		const sent = {
			user_slug: 'slug-42',
			email: 'lena@example.test',
			first_name: 'Lena',
			last_name: 'Fischer',
			city: 'Berlin',
			street: 'Torstraße 1',
			zip_code: '10119',
			phone: '+49 151 2345',
			birthday: '12-04-1999',
			whatsapp_preference: true,
			sms_preference: false,
			email_preference: true,
		};
		expect(service.writes()).toEqual([{ method: 'PUT', path: '/gin/v1/company/candidate', body: sent }]);
		const { user_slug: slug, ...fields } = sent;
		expect(outputs(result)).toEqual([{ slug, ...fields, message: 'Candidate updated' }]);
	});

	it('sends only the fields set; empty ones are left out', async () => {
		const service = new FakeService();
		await run(update({ firstName: 'Omar', lastName: '', city: '   ' }));
		expect(service.writes().map((request) => request.body)).toEqual([{ user_slug: 'slug-42', first_name: 'Omar' }]);
	});

	it('returns what the service answered in data when it answers with an object', async () => {
		new FakeService(() => [200, { message: 'ok', status: 200, data: { slug: 'slug-42', first_name: 'Omar', city: 'Hamburg' } }]);
		const result = await run(update({ firstName: 'Omar' }));
		expect(outputs(result)).toEqual([{ slug: 'slug-42', first_name: 'Omar', city: 'Hamburg', message: 'ok' }]);
	});

	it.each([
		['1999-04-12'],
		['1999-04-12T23:30:00-05:00'],
		['12.04.1999'],
		['12-04-1999'],
		['={{ DateTime.fromISO("1999-04-12") }}'],
		['={{ new Date(Date.UTC(1999, 3, 12, 12)) }}'],
	])('sends the birthday %s as 12-04-1999 whatever the date format option says', async (birthday) => {
		const service = new FakeService();
		await run(update({ birthday }, { options: { dateFormat: 'MM-DD-YYYY' } }));
		await run(update({ birthday }));
		expect(service.writes().map((request) => request.body?.birthday)).toEqual(['12-04-1999', '12-04-1999']);
	});

	it.each([
		[{ birthday: '31.02.1990' }, '"Birthday" "31.02.1990" is not a real calendar date. Accepted forms: YYYY-MM-DD'],
		[{ birthday: '04-13-1999' }, '"Birthday" "04-13-1999" is not a real calendar date'],
		[{ birthday: 'yesterday' }, '"Birthday" "yesterday" is not in an accepted date form'],
		[{ email: 'lena@' }, '"Email" must be a valid e-mail address'],
		[{ smsPreference: 'maybe' }, '"SMS Preference" must be true or false (got "maybe")'],
		[{ firstName: '', city: '' }, '"Update Fields" has nothing to update'],
	])('fails the item without a request for %j', async (fields, message) => {
		const service = new FakeService();
		const result = await run(update(fields));
		expect(errorMessage(result)).toContain(message);
		expect(service.requests).toEqual([]);
	});

	it('fails without a candidate slug (an expression giving nothing)', async () => {
		const service = new FakeService();
		const result = await run(update({ firstName: 'Omar' }, { candidateSlug: '={{ $json.slug }}' }), [{ name: 'x' }]);
		expect(errorMessage(result)).toContain('"Candidate Slug" is required');
		expect(service.requests).toEqual([]);
	});
});
