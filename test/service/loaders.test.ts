/**
 * Dropdown loaders through n8n-core's LoadOptionsContext against the sandbox, in each of the
 * three credential modes: every entry of the spec's lists, in the service's order.
 */
import type { Sandbox } from '../sandbox/server';
import { startSandbox } from '../sandbox/server';
import { businessAreas, languageSkills, universityDegrees } from '../sandbox/reference-data';
import { BUSINESS_AREAS_DE, JOB_TYPES, LANGUAGE_SKILLS_DE, UNIVERSITY_DEGREES_DE } from '../helpers/spec';
import { emailCredential, keyCredential, tokenCredential, useSandbox } from '../helpers/sandbox';
import { FAST, Harness, outputs, runOk } from '../helpers/run';

const sandbox = useSandbox();

/** The one language rule of every dropdown: English, then German in parentheses where it differs. */
const bilingual = (english: string, german: string) => (english === german ? english : `${english} (${german})`);
const englishById = (list: Array<{ id: number; value: string }>) => new Map(list.map((entry) => [entry.id, entry.value]));

const modes: Array<[string, (box: Sandbox) => Promise<Harness>]> = [
	['emailPassword', async (box) => new Harness(emailCredential(box))],
	['accessToken', async (box) => new Harness(tokenCredential(box))],
	[
		'apiKey',
		async (box) => {
			const creator = new Harness(emailCredential(box));
			const created = await runOk(creator, { resource: 'apiKey', operation: 'create', options: FAST });
			return new Harness(keyCredential(box, String(outputs(created)[0].value), 'X-API-Key'));
		},
	],
];

describe.each(modes)('loaders with a %s credential', (_mode, makeHarness) => {
	let harness: Harness;
	beforeAll(async () => {
		harness = await makeHarness(sandbox());
	});

	it('getJobTypes: "English (German)" names, id values, spec order', async () => {
		const options = await harness.loadOptions('getJobTypes');
		expect(options).toEqual(
			JOB_TYPES.map((entry) => ({
				name: entry.name_eng === entry.name_ger ? entry.name_eng : `${entry.name_eng} (${entry.name_ger})`,
				value: entry.id,
			})),
		);
		expect((options as Array<{ name: string }>)[1].name).toBe('Working student (Werkstudent)');
	});

	it('getUniversityDegrees and getLanguages: every entry, "English (German)", spec order (languages 23, 26, 35, 28, 66 first)', async () => {
		const degreesEn = englishById(universityDegrees('en'));
		expect(await harness.loadOptions('getUniversityDegrees')).toEqual(
			UNIVERSITY_DEGREES_DE.map((entry) => ({ name: bilingual(degreesEn.get(entry.id)!, entry.value), value: entry.id })),
		);
		const languagesEn = englishById(languageSkills('en'));
		const languages = await harness.loadOptions('getLanguages');
		expect(languages).toEqual(LANGUAGE_SKILLS_DE.map((entry) => ({ name: bilingual(languagesEn.get(entry.id)!, entry.value), value: entry.id })));
		expect(languages).toContainEqual({ name: 'English', value: 26 });
		expect((languages as Array<{ value: number }>).slice(0, 5).map((option) => option.value)).toEqual([23, 26, 35, 28, 66]);
	});

	it('getBusinessAreas: every division followed by its areas, "English (German)", value = the German name', async () => {
		const english = new Map(businessAreas('en').map((division) => [division.id, division]));
		const expected = BUSINESS_AREAS_DE.flatMap((division) => {
			const translated = english.get(division.id)!;
			const label = bilingual(translated.name, division.name);
			const areaEn = new Map(translated.area.map((area) => [area.id, area.name]));
			return [
				{ name: label, value: division.name, description: 'Division' },
				...division.area.map((area) => ({ name: `${label} › ${bilingual(areaEn.get(area.id)!, area.name)}`, value: area.name, description: `Area of ${label}` })),
			];
		});
		expect(await harness.loadOptions('getBusinessAreas')).toEqual(expected);
		expect(expected).toHaveLength(16 + 103);
	});
});

describe('loader details', () => {
	it('every dropdown follows one language rule, whatever the job\'s Language option says', async () => {
		const harness = new Harness(tokenCredential(sandbox()));
		sandbox().clearRequests();
		const withEnglishJob = (await harness.loadOptions('getBusinessAreas', { additionalFields: { lang: 'en' } })) as Array<{ name: string; value: string }>;
		expect(sandbox().requests.map((request) => [request.path, request.query.lang]).sort()).toEqual([
			['/v1/general/business-areas', 'de'],
			['/v1/general/business-areas', 'en'],
		]);
		expect(await harness.loadOptions('getBusinessAreas', { additionalFields: { lang: 'de' } })).toEqual(withEnglishJob);
		expect(withEnglishJob).toHaveLength(119);
		expect(withEnglishJob).toContainEqual({ name: 'Public Sector (Öffentlicher Sektor)', value: 'Öffentlicher Sektor', description: 'Division' });
	});

	it('a sandbox that is gone gives a readable message', async () => {
		const box = await startSandbox();
		const harness = new Harness(tokenCredential(box));
		await box.close();
		await expect(harness.loadOptions('getJobTypes')).rejects.toThrow(/^Could not load the list from the recruiting service: /);
	});
});
