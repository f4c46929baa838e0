/**
 * Reference List operations through the engine against the sandbox: the four lists in German
 * (default and explicit) and English, with exactly the spec's ids, names and order.
 */
import { BUSINESS_AREAS_DE, JOB_TYPES, LANGUAGE_SKILLS_DE, UNIVERSITY_DEGREES_DE } from '../helpers/spec';
import type { Division, IdValue } from '../helpers/spec';
import { tokenCredential, useSandbox } from '../helpers/sandbox';
import { Harness, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

const list = (operation: string, lang?: string) => ({
	resource: 'referenceList',
	operation,
	...(lang === undefined ? {} : { lang }),
});

let harness: Harness;
beforeAll(() => {
	harness = new Harness(tokenCredential(sandbox()));
});

const GERMAN_DEGREES = new Set([19, 20, 21, 23, 24]);

describe('reference lists in German (the default)', () => {
	it.each([
		['getBusinessAreas', BUSINESS_AREAS_DE],
		['getJobTypes', JOB_TYPES],
		['getLanguageSkills', LANGUAGE_SKILLS_DE],
		['getUniversityDegrees', UNIVERSITY_DEGREES_DE],
	])('%s: exactly the spec data in spec order, one item per entry, each paired with the input', async (operation, expected) => {
		for (const lang of [undefined, 'de']) {
			sandbox().clearRequests();
			const result = await runOk(harness, list(operation, lang));
			expect(outputs(result)).toEqual(expected);
			expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
			expect(sandbox().requests).toHaveLength(1);
			expect(sandbox().requests[0].status).toBe(200);
		}
	});

	it('language skills start with 23, 26, 35, 28, 66 and then ascend', async () => {
		const result = await runOk(harness, list('getLanguageSkills'));
		const ids = outputs(result).map((json) => json.id as number);
		expect(ids.slice(0, 5)).toEqual([23, 26, 35, 28, 66]);
		expect(ids.slice(5)).toEqual([...ids.slice(5)].sort((a, b) => a - b));
		expect(ids).toHaveLength(140);
		expect(outputs(result).slice(0, 5).map((json) => json.value)).toEqual(['German', 'English', 'French', 'Spanish', 'Latin']);
	});

	it('the lists that take a language send lang=de by default; job types send no lang', async () => {
		sandbox().clearRequests();
		for (const operation of ['getBusinessAreas', 'getLanguageSkills', 'getUniversityDegrees', 'getJobTypes']) {
			await runOk(harness, list(operation));
		}
		expect(sandbox().requests.map((request) => [request.path, request.query.lang])).toEqual([
			['/v1/general/business-areas', 'de'],
			['/v1/general/language-skills', 'de'],
			['/v1/general/university-degrees', 'de'],
			['/v1/general/job-types', undefined],
		]);
	});
});

describe('reference lists in English', () => {
	it('business areas: the same divisions and areas (ids, order), English names', async () => {
		const result = await runOk(harness, list('getBusinessAreas', 'en'));
		const english = outputs(result) as unknown as Division[];
		const shape = (divisions: Division[]) => divisions.map((division) => [division.id, division.area.map((area) => area.id)]);
		expect(shape(english)).toEqual(shape(BUSINESS_AREAS_DE));
		for (const division of english) {
			expect(division.name).toMatch(/\S/);
			for (const area of division.area) expect(area.name).toMatch(/\S/);
		}
		// The sandbox's English names (the spec leaves them open) that the other tests type
		const byId = new Map(english.map((division) => [division.id, division]));
		expect(byId.get(15)?.name).toBe('Public Sector');
		expect(byId.get(15)?.area).toEqual([{ id: 100, name: 'Public Administration' }]);
		expect(byId.get(10)?.area.find((area) => area.id === 66)?.name).toBe('Software Development');
		expect(sandbox().requests.at(-1)?.query.lang).toBe('en');
	});

	it('language skills: same ids and order; Luxembourgish and Cantonese for 139 and 140', async () => {
		const result = await runOk(harness, list('getLanguageSkills', 'en'));
		const expected = LANGUAGE_SKILLS_DE.map((entry) =>
			entry.id === 139 ? { id: 139, value: 'Luxembourgish' } : entry.id === 140 ? { id: 140, value: 'Cantonese' } : entry,
		);
		expect(outputs(result)).toEqual(expected);
	});

	it('university degrees: same ids and order; English names only where the default name is German', async () => {
		const result = await runOk(harness, list('getUniversityDegrees', 'en'));
		const english = outputs(result) as unknown as IdValue[];
		expect(english.map((entry) => entry.id)).toEqual(UNIVERSITY_DEGREES_DE.map((entry) => entry.id));
		english.forEach((entry, index) => {
			const german = UNIVERSITY_DEGREES_DE[index].value;
			if (GERMAN_DEGREES.has(entry.id)) expect(entry.value).not.toBe(german);
			else expect(entry.value).toBe(german);
		});
		expect(english.find((entry) => entry.id === 21)?.value).toBe('Doctorate');
	});
});

describe('reference lists need no credential at the service', () => {
	it('work with a credential whose access token the service does not know', async () => {
		const stranger = new Harness(tokenCredential(sandbox(), 'f'.repeat(64)));
		const result = await runOk(stranger, list('getJobTypes'));
		expect(outputs(result)).toEqual(JOB_TYPES);
	});
});

describe('a service that serves the university degrees at the singular path (/v1/general/university-degree)', () => {
	// The description names the path in both spellings; the node asks the other one after a 404.
	const singular = useSandbox({ universityDegreesPath: 'singular' });

	it('Get University Degrees: the plural path is answered 404, the singular one serves the list', async () => {
		const other = new Harness(tokenCredential(singular()));
		singular().clearRequests();
		const result = await runOk(other, list('getUniversityDegrees'));
		expect(outputs(result)).toEqual(UNIVERSITY_DEGREES_DE);
		expect(singular().requests.map((request) => [request.path, request.status])).toEqual([
			['/v1/general/university-degrees', 404],
			['/v1/general/university-degree', 200],
		]);
	});

	it('the degree dropdown is filled from the singular path too', async () => {
		const other = new Harness(tokenCredential(singular()));
		const options = (await other.loadOptions('getUniversityDegrees')) as Array<{ name: string; value: number }>;
		expect(options).toHaveLength(UNIVERSITY_DEGREES_DE.length);
		expect(options.some((option) => option.value === 10 && /Master of Science/.test(option.name))).toBe(true);
	});
});

describe('a service that serves neither spelling of the degrees path', () => {
	it('fails with the 404 of the second path, after asking each spelling once', async () => {
		const fresh = new Harness({ ...tokenCredential(sandbox()), baseUrl: `${sandbox().url}/nowhere` });
		sandbox().clearRequests();
		const result = await fresh.run({ parameters: list('getUniversityDegrees') });
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(sandbox().requests.map((request) => request.path)).toEqual([
			'/nowhere/v1/general/university-degrees',
			'/nowhere/v1/general/university-degree',
		]);
	});
});
