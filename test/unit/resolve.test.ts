/**
 * The name-matching helpers on their own, then names carrying invisible characters (pasted from
 * spreadsheets) through the engine: Candidate Language → Add, a job's type and business area,
 * and Candidate → Import's language list, against the nock service of helpers/fakeService.
 */
import {
	MAX_HINTS,
	NameIndex,
	closestEntries,
	editDistance,
	findByName,
	languageAliases,
	mergeEntries,
	normalizeName,
	parseIdOrName,
	visibleText,
} from '../../nodes/Recruiting/actions/common/resolve';
import type { NamedEntry } from '../../nodes/Recruiting/actions/common/resolve';
import { FakeService, errorMessage, outputs, run, setUpNock } from '../helpers/fakeService';

setUpNock();

const jobTypes: NamedEntry[] = [
	{ key: 1, names: ['Praktikant', 'Internship'] },
	{ key: 2, names: ['Werkstudent', 'Working student'] },
	{ key: 4, names: ['Festanstellung', 'Permanent position'] },
	{ key: 9, names: ['Teilzeit (befristet)', 'Part-Time (fixed term)'] },
];

describe('normalizeName', () => {
	it.each([
		['Working student', 'workingstudent'],
		['  WORKING   Student ', 'workingstudent'],
		['Öffentlicher Sektor', 'offentlichersektor'],
		['Māori', 'maori'],
		['Straße', 'strasse'],
		['Guaraní', 'guarani'],
		['Working\u00A0student', 'workingstudent'],
		['Working\u202Fstudent\u3000', 'workingstudent'],
	])('%j → %j', (input, output) => {
		expect(normalizeName(input)).toBe(output);
	});

	// Zero-width space, non-joiner, joiner, LRM, RLM, LRE, RLE, PDF, LRO, RLO, word joiner,
	// LRI, RLI, FSI, PDI, BOM, soft hyphen: what pasted text carries invisibly.
	const invisible = ['\u200B', '\u200C', '\u200D', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2060', '\u2066', '\u2067', '\u2068', '\u2069', '\uFEFF', '\u00AD'];
	it.each(invisible.map((char) => [`U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, char]))(
		'%s is ignored anywhere in a name',
		(_, char) => {
			expect(normalizeName(`English${char}`)).toBe('english');
			expect(normalizeName(`${char}Eng${char}lish`)).toBe('english');
			expect(normalizeName(`Working${char} student`)).toBe('workingstudent');
		},
	);

	it('visibleText drops invisible characters and surrounding spaces, keeps the rest as typed', () => {
		expect(visibleText('\uFEFF Working\u200B Student\u00A0\u200E')).toBe('Working Student');
	});
});

describe('parseIdOrName', () => {
	it.each([
		[2, { kind: 'id', id: 2 }],
		['2', { kind: 'id', id: 2 }],
		[' 15 ', { kind: 'id', id: 15 }],
		['+3', { kind: 'id', id: 3 }],
		['4.0', { kind: 'id', id: 4 }],
		['Werkstudent', { kind: 'name', name: 'Werkstudent' }],
		['  Working student ', { kind: 'name', name: 'Working student' }],
		['Bachelor of Science 2', { kind: 'name', name: 'Bachelor of Science 2' }],
	])('%j → %j', (input, output) => {
		expect(parseIdOrName(input)).toEqual(output);
	});

	it.each([
		['English\u200B', { kind: 'name', name: 'English' }],
		['\uFEFF\u200EWorking student\u200F ', { kind: 'name', name: 'Working student' }],
		['26\u200B', { kind: 'id', id: 26 }],
		['\u2066 4 \u2069', { kind: 'id', id: 4 }],
	])('invisible characters are dropped: %j → %j', (input, output) => {
		expect(parseIdOrName(input)).toEqual(output);
	});

	it.each([[0], [-1], [2.5], ['0'], ['-4'], ['2,5'], [''], ['   '], ['\u200B\uFEFF'], [true], [{}], [null]])('%j is invalid', (input) => {
		expect(parseIdOrName(input).kind).toBe('invalid');
	});
});

describe('findByName', () => {
	it('matches any name of an entry ignoring case, accents and spaces', () => {
		expect(findByName(jobTypes, 'working STUDENT').map((entry) => entry.key)).toEqual([2]);
		expect(findByName(jobTypes, 'workingstudent').map((entry) => entry.key)).toEqual([2]);
		expect(findByName(jobTypes, 'praktikant').map((entry) => entry.key)).toEqual([1]);
		expect(findByName(jobTypes, 'Teilzeit (befristet)').map((entry) => entry.key)).toEqual([9]);
	});

	it('does not match partial names or empty text', () => {
		expect(findByName(jobTypes, 'Werk')).toEqual([]);
		expect(findByName(jobTypes, ' ')).toEqual([]);
	});

	it('matches aliases only when asked', () => {
		const languages: NamedEntry[] = [{ key: 26, names: ['English'], aliases: ['Englisch'] }];
		expect(findByName(languages, 'englisch')).toEqual([]);
		expect(findByName(languages, 'englisch', true).map((entry) => entry.key)).toEqual([26]);
	});
});

describe('NameIndex', () => {
	const languages: NamedEntry[] = [
		{ key: 26, names: ['English'], aliases: ['Englisch'] },
		{ key: 23, names: ['German'], aliases: ['Deutsch', 'german'] },
		{ key: 99, names: ['Englisch'] },
		{ key: 98, names: ['EN glish', 'English'] },
	];

	it('finds what findByName finds, list names before aliases, in list order, each entry once', () => {
		const index = new NameIndex(languages);
		for (const name of ['English', 'english\u200B', 'Englisch', 'deutsch', 'GERMAN', 'Klingon', '', '\u200B']) {
			for (const aliases of [false, true]) {
				// The scan over every entry that the index replaces.
				const wanted = normalizeName(name);
				const expected =
					wanted === ''
						? []
						: languages.filter((entry) =>
								[...entry.names, ...(aliases ? (entry.aliases ?? []) : [])].some((candidate) => normalizeName(candidate) === wanted),
							);
				expect({ name, aliases, found: index.find(name, aliases) }).toEqual({ name, aliases, found: expected });
			}
		}
		expect(index.find('english').map((entry) => entry.key)).toEqual([26, 98]);
		expect(index.find('englisch', true).map((entry) => entry.key)).toEqual([26, 99]);
	});

	it('ranks the closest entries as closestEntries does, and again the same for a repeated miss', () => {
		const index = new NameIndex(jobTypes);
		for (const name of ['Werkstudnt', 'intern', 'Permanent', 'x', 'Teilzeit']) {
			expect(index.closest(name)).toEqual(closestEntries(jobTypes, name));
			expect(index.closest(name)).toEqual(closestEntries(jobTypes, name));
		}
	});
});

describe('NameIndex hints for misses', () => {
	it('ranks each different miss once, for at most MAX_HINTS different names', () => {
		const index = new NameIndex(jobTypes);
		expect(index.hint('Werkstudnt')).toEqual(closestEntries(jobTypes, 'Werkstudnt'));
		for (let miss = 1; miss < MAX_HINTS; miss++) expect(index.hint(`unknown ${miss}`)).toHaveLength(3);
		expect(index.hint('one too many')).toBeUndefined();
		// Names already ranked (in any spelling that normalizes alike) keep their ranking.
		expect(index.hint('  WERK\u200Bstudnt')).toEqual(closestEntries(jobTypes, 'Werkstudnt'));
		expect(index.closest('one too many')).toEqual(closestEntries(jobTypes, 'one too many'));
	});
});

describe('closestEntries', () => {
	it('ranks near spellings first', () => {
		expect(closestEntries(jobTypes, 'Werkstudnt', 1).map((entry) => entry.key)).toEqual([2]);
		expect(closestEntries(jobTypes, 'intern', 1).map((entry) => entry.key)).toEqual([1]);
		expect(closestEntries(jobTypes, 'Permanent', 1).map((entry) => entry.key)).toEqual([4]);
		expect(closestEntries(jobTypes, 'Teilzeit', 1).map((entry) => entry.key)).toEqual([9]);
	});

	it('returns at most the limit', () => {
		expect(closestEntries(jobTypes, 'x', 3)).toHaveLength(3);
	});
});

describe('editDistance', () => {
	it.each([
		['', '', 0],
		['abc', '', 3],
		['kitten', 'sitting', 3],
		['werkstudent', 'werkstudnt', 1],
	])('%j ↔ %j = %d', (a, b, distance) => {
		expect(editDistance(a, b)).toBe(distance);
		expect(editDistance(b, a)).toBe(distance);
	});
});

describe('mergeEntries', () => {
	it('joins the names of the same entry from lists in different languages', () => {
		expect(
			mergeEntries([
				{ key: 21, names: ['Promotion'] },
				{ key: 10, names: ['Master of Science'] },
				{ key: 21, names: ['Doctorate'] },
				{ key: 10, names: ['master of science'] },
			]),
		).toEqual([
			{ key: 21, names: ['Promotion', 'Doctorate'], aliases: [] },
			{ key: 10, names: ['Master of Science'], aliases: [] },
		]);
	});
});

describe('languageAliases', () => {
	it('gives the German names and short forms of a listed language', () => {
		expect(languageAliases('English')).toContain('Englisch');
		expect(languageAliases('German')).toContain('Deutsch');
		expect(languageAliases('Persian (Farsi)')).toEqual(expect.arrayContaining(['Farsi', 'Persisch']));
		expect(languageAliases('Luxemburgisch')).toContain('Luxembourgish');
		expect(languageAliases('Klingon')).toEqual([]);
	});
});

describe('a huge value given as a name', () => {
	it('still ranks the closest entries (the query is cut, not compared whole)', () => {
		const entries = [
			{ key: 1, names: ['English'] },
			{ key: 2, names: ['German'] },
		];
		expect(closestEntries(entries, `English${'x'.repeat(1_000_000)}`, 1)).toEqual([entries[0]]);
	});
});

/** A text with every character outside printable ASCII and Latin-1 written as \uXXXX, for test titles. */
const escaped = (text: string) =>
	text.replace(/[^\u0020-\u007E\u00C0-\u00FF]/g, (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

describe('names with invisible characters, through the engine', () => {
	const language = (languageId: string) => ({
		resource: 'candidateLanguage',
		operation: 'add',
		candidateSlug: 'slug-42',
		languageId,
		languageLevelId: 3,
	});

	it.each([
		['English\u200B', 26],
		['\u200EEnglisch\u200F', 26],
		['Deut\uFEFFsch', 23],
		['Fran\u00ADzösisch', 35],
		['\u2066Luxembourgish\u2069', 139],
		['26\u200B', 26],
	].map(([value, id]) => [escaped(value as string), id, value]))('Candidate Language → Add with "%s" sends language_id %d', async (_, id, value) => {
		const service = new FakeService();
		const result = await run(language(value as string));
		expect(result.error).toBeUndefined();
		expect(service.writes().map((request) => request.body?.language_id)).toEqual([id]);
	});

	it('an unknown name is quoted without its invisible characters', async () => {
		const service = new FakeService();
		const result = await run(language('Klingon\u200B\u200E'));
		expect(errorMessage(result)).toMatch(/^"Language": no language is named "Klingon"\. Closest: /);
		expect(errorMessage(result)).not.toMatch(/[\u200B\u200E]/);
		expect(service.writes()).toEqual([]);
	});

	it(`in one execution, the first ${MAX_HINTS} different unknown names get the closest entries, later ones not`, async () => {
		const service = new FakeService();
		const items = Array.from({ length: MAX_HINTS + 2 }, (_, index) => ({ language: `Klingon ${index === MAX_HINTS + 1 ? 0 : index}` }));
		const result = await run(language('={{ $json.language }}'), items, 'continueRegularOutput');
		const errors = outputs(result).map((json) => json.error as string);
		expect(errors[0]).toMatch(/^"Language": no language is named "Klingon 0"\. Closest: .*\(ID \d+\)$/);
		expect(errors[MAX_HINTS - 1]).toMatch(/Closest: /);
		expect(errors[MAX_HINTS]).toBe(
			`"Language": no language is named "Klingon ${MAX_HINTS}". (No closest entries: more than ${MAX_HINTS} different unknown names in this execution.)`,
		);
		// A name already ranked keeps its suggestions.
		expect(errors[MAX_HINTS + 1]).toBe(errors[0]);
		expect(service.writes()).toEqual([]);
	});

	it('a job type and a business area with zero-width characters resolve', async () => {
		const service = new FakeService();
		const result = await run({
			resource: 'candidateJob',
			operation: 'add',
			candidateSlug: 'slug-42',
			companyName: 'Acme GmbH',
			startDate: '2023-10-01',
			additionalFields: { jobTypeId: 'Working\u200B student\u2060', businessAreaDivision: '\uFEFFSoftware\u200C Development\u200D' },
		});
		expect(result.error).toBeUndefined();
		expect(service.writes()[0].body).toMatchObject({ job_type_id: 2, business_area_division: 'Softwareentwicklung' });
	});

	it('Candidate → Import: languages from compact text and JSON carrying U+FEFF and marks resolve to their IDs', async () => {
		const service = new FakeService();
		const result = await run(
			{
				resource: 'candidate',
				operation: 'import',
				email: 'lena@example.test',
				recordInput: 'lists',
				languageList: '={{ $json.languages }}',
				options: { concurrency: 1 },
			},
			[
				{ languages: '\uFEFFEnglish\u200B: 4; Deut\uFEFFsch: 5\nfranzösisch\u200E: 2' },
				{ languages: JSON.stringify([{ language: 'Eng\uFEFFlish', level: 3 }, { language: '\u202ADeutsch\u202C', level: 1 }]) },
			],
		);
		expect(result.error).toBeUndefined();
		expect(outputs(result).map((json) => json.summary)).toEqual([
			{ records: 3, added: 3, failed: 0 },
			{ records: 2, added: 2, failed: 0 },
		]);
		const languages = service.writes().filter((request) => request.path.endsWith('/candidate/language'));
		expect(languages.map((request) => [request.body?.language_id, request.body?.language_level_id])).toEqual([
			[26, 4],
			[23, 5],
			[35, 2],
			[26, 3],
			[23, 1],
		]);
		expect(service.listRequests()).toEqual({ '/v1/general/language-skills?lang=de': 1 });
	});
});
