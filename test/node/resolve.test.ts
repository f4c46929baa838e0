/** The name-matching helpers on their own. */
import {
	closestEntries,
	editDistance,
	findByName,
	languageAliases,
	mergeEntries,
	normalizeName,
	parseIdOrName,
} from '../../nodes/Recruiting/actions/common/resolve';
import type { NamedEntry } from '../../nodes/Recruiting/actions/common/resolve';

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
	])('%j → %j', (input, output) => {
		expect(normalizeName(input)).toBe(output);
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

	it.each([[0], [-1], [2.5], ['0'], ['-4'], ['2,5'], [''], ['   '], [true], [{}], [null]])('%j is invalid', (input) => {
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
