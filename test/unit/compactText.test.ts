/**
 * The compact text of Candidate → Import's lists (`Name: level` for IT skills and languages):
 * what it reads, that the one-pass reader gives exactly what the earlier reader gave (compared
 * on thousands of generated cells), and that 1 MB cells are read whole and right. How fast is
 * measured by `node scripts/bench/parse-speed.mjs`, not here.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListEntry } from '../../nodes/Recruiting/actions/candidate/import/lists';
import { parseList } from '../../nodes/Recruiting/actions/candidate/import/lists';
import type { RecordKind } from '../../nodes/Recruiting/actions/candidate/import/records';
import { RECORD_KINDS, compactFormOf } from '../../nodes/Recruiting/actions/candidate/import/records';

const kind = (type: string): RecordKind => RECORD_KINDS.find((entry) => entry.type === type) as RecordKind;
const itSkill = kind('itSkill');
const language = kind('language');

const values = (entries: ReturnType<typeof parseList>) => (entries as Array<{ values: IDataObject }>).map((entry) => entry.values);

/** The reader before it became one pass (it copied the rest of the text per entry): the reference. */
function earlierPairs(recordKind: RecordKind, text: string): ListEntry[] {
	const entries: ListEntry[] = [];
	let rest = text;
	while (rest.replace(/[\s,;]/g, '') !== '') {
		rest = rest.replace(/^[\s,;]+/, '');
		const colon = rest.indexOf(':');
		if (colon < 0) {
			entries.push({ problem: `"${rest.trim()}" is not in the form ${compactFormOf(recordKind)}` });
			break;
		}
		const name = rest.slice(0, colon).trim();
		const after = rest.slice(colon + 1);
		const end = after.search(/[,;\n]/);
		const level = (end < 0 ? after : after.slice(0, end)).trim();
		rest = end < 0 ? '' : after.slice(end + 1);
		entries.push({ values: { [recordKind.columns[0]]: name, [recordKind.columns[1]]: level } });
	}
	return entries;
}

/** As parseList treats text: trimmed, empty is no record, `[`/`{` is JSON. */
function earlierParse(recordKind: RecordKind, text: string): ListEntry[] {
	const trimmed = text.trim();
	return trimmed === '' ? [] : earlierPairs(recordKind, trimmed);
}

describe('compact text of IT skills and languages', () => {
	it.each([
		['TypeScript: 4, SQL: 3', [['TypeScript', '4'], ['SQL', '3']]],
		['TypeScript: 4; SQL: 3\nGo: 2', [['TypeScript', '4'], ['SQL', '3'], ['Go', '2']]],
		['  TypeScript :4 ,, ;\n\n SQL:3 ;', [['TypeScript', '4'], ['SQL', '3']]],
		['TypeScript: 4\r\nSQL: 3\r\n', [['TypeScript', '4'], ['SQL', '3']]],
		['Greek, Modern: 3, Latin: 1', [['Greek, Modern', '3'], ['Latin', '1']]],
		['TypeScript: 4, SQL:', [['TypeScript', '4'], ['SQL', '']]],
		['C++: 3', [['C++', '3']]],
		['TypeScript', null],
	])('%j', (text, expected) => {
		const entries = parseList(itSkill, text);
		if (expected === null) {
			expect(entries).toEqual([{ problem: `"TypeScript" is not in the form Skill Name: Skill Level` }]);
			return;
		}
		expect(values(entries)).toEqual(expected.map(([skillName, skillLevel]) => ({ skillName, skillLevel })));
	});

	it('an entry without a colon after good ones is reported, the good ones kept', () => {
		expect(parseList(language, 'English: 4; Deutsch')).toEqual([
			{ values: { languageId: 'English', languageLevelId: '4' } },
			{ problem: '"Deutsch" is not in the form Language: Language Level ID' },
		]);
	});

	it('separators only, or nothing, is no record', () => {
		expect(parseList(itSkill, ' ,;\n ')).toEqual([]);
		expect(parseList(itSkill, '')).toEqual([]);
	});

	it('gives exactly what the earlier reader gave, on 5000 generated cells', () => {
		// Cells built from the characters that matter (separators, colons, spaces of several
		// kinds, line breaks) and ordinary text, with a fixed seed so that a failure repeats.
		const pieces = [':', ',', ';', '\n', '\r\n', ' ', '\t', '\u00A0', '\uFEFF', '\u200B', 'a', 'Go', 'C++', '4', '12', 'É', ' : ', ', ', '; '];
		let seed = 42;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed / 2147483648;
		};
		const different: string[] = [];
		let entries = 0;
		for (let cell = 0; cell < 5000; cell++) {
			const length = Math.floor(random() * 24);
			let text = '';
			for (let piece = 0; piece < length; piece++) text += pieces[Math.floor(random() * pieces.length)];
			for (const recordKind of [itSkill, language]) {
				const now = JSON.stringify(parseList(recordKind, text));
				if (now !== JSON.stringify(earlierParse(recordKind, text))) different.push(text);
				entries += (JSON.parse(now) as unknown[]).length;
			}
		}
		expect(different).toEqual([]);
		expect(entries).toBeGreaterThan(10_000);
	});
});

describe('1 MB cells are read whole', () => {
	/** `entry(i)` for i = 0, 1, ... until the text reaches `bytes` characters. */
	function cell(bytes: number, entry: (index: number) => string): { text: string; count: number } {
		const parts: string[] = [];
		let length = 0;
		while (length < bytes) {
			const part = entry(parts.length);
			parts.push(part);
			length += part.length;
		}
		return { text: parts.join(''), count: parts.length };
	}

	it('an IT-skill cell of 1 MB: every entry, first and last right', () => {
		const skills = ['TypeScript', 'SQL', 'Greek, Modern', 'C++'];
		const { text, count } = cell(1024 * 1024, (index) => `${skills[index % 4]} ${index}: ${(index % 4) + 1}${index % 3 === 0 ? '\n' : ', '}`);
		expect(text.length).toBeGreaterThanOrEqual(1024 * 1024);
		const entries = values(parseList(itSkill, text));
		expect(entries).toHaveLength(count);
		expect(count).toBeGreaterThan(50_000);
		expect(entries[0]).toEqual({ skillName: 'TypeScript 0', skillLevel: '1' });
		expect(entries[2]).toEqual({ skillName: 'Greek, Modern 2', skillLevel: '3' });
		const last = count - 1;
		expect(entries[last]).toEqual({ skillName: `${skills[last % 4]} ${last}`, skillLevel: String((last % 4) + 1) });
	});

	it('a language cell of 1 MB: every entry, first and last right', () => {
		const names = ['English', 'Deutsch', 'französisch', 'Luxemburgisch', 'Māori'];
		const { text, count } = cell(1024 * 1024, (index) => `${names[index % 5]}: ${(index % 5) + 1}${index % 2 === 0 ? '; ' : '\n'}`);
		const entries = values(parseList(language, text));
		expect(entries).toHaveLength(count);
		expect(count).toBeGreaterThan(50_000);
		expect(entries[0]).toEqual({ languageId: 'English', languageLevelId: '1' });
		const last = count - 1;
		expect(entries[last]).toEqual({ languageId: names[last % 5], languageLevelId: String((last % 5) + 1) });
		expect(entries.filter((entry) => entry.languageId === 'Deutsch')).toHaveLength(Math.floor((count + 3) / 5));
	});
});
