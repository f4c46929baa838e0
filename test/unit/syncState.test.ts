/**
 * The row's `syncState` (nodes/Recruiting/memory/syncState.ts): what it carries comes back as it
 * was written, and any change to it is refused (garbled, another version, another account), never
 * read as another state.
 */
import { shortPrint } from '../../nodes/Recruiting/memory/keys';
import { decodeState, encodeState, profileFields, profilePrint, recordPrint, unknownPrint } from '../../nodes/Recruiting/memory/syncState';

const SCOPE = 'AbCdEf0123456789xyzXYZ';
const ORDER = ['email', 'first_name', 'city', 'phone'];

describe('syncState', () => {
	const state = {
		p: profilePrint({ email: 'a@example.test', city: 'Berlin' }, ORDER),
		r: [
			recordPrint('language', { language_id: 26, language_level_id: 4 }),
			recordPrint('itSkill', { skill_name: 'SQL', skill_level_id: 3 }),
			unknownPrint('job', { company_name: 'Acme' }),
		],
	};
	const text = encodeState(SCOPE, state);

	it('round trip, short, no personal data', () => {
		expect(decodeState(text, SCOPE)).toEqual({ state });
		expect(decodeState(encodeState(SCOPE, { r: [] }), SCOPE)).toEqual({ state: { p: undefined, r: [] } });
		// 28 characters with one record, 6 more for each further one.
		expect(encodeState(SCOPE, { p: state.p, r: state.r.slice(0, 1) })).toHaveLength(28);
		expect(encodeState(SCOPE, { p: state.p, r: state.r.slice(0, 2) })).toHaveLength(34);
		expect(text).not.toMatch(/example|Berlin|SQL|Acme/);
	});

	it('every one-character change, every cut and every other account is refused', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
		for (let position = 0; position < text.length; position++) {
			for (const char of alphabet) {
				if (char === text[position]) continue;
				const changed = text.slice(0, position) + char + text.slice(position + 1);
				const decoded = decodeState(changed, SCOPE);
				expect('problem' in decoded).toBe(true);
			}
			expect('problem' in decodeState(text.slice(0, position), SCOPE)).toBe(true);
		}
		expect(decodeState(text, 'ZZZZZZ0123456789')).toEqual({ problem: 'account' });
		expect(decodeState(`2${text.slice(1)}`, SCOPE)).toEqual({ problem: 'version' });
		expect(decodeState('hello', SCOPE)).toEqual({ problem: 'garbled' });
	});

	it('the profile print: e-mail and phone as the match compares them; which fields it held', () => {
		const print = profilePrint({ email: ' A@Example.TEST ', phone: '+49 (30) 1', city: 'Berlin' }, ORDER);
		expect(print).toBe(profilePrint({ email: 'a@example.test', phone: '49301', city: 'Berlin' }, ORDER));
		expect(print).not.toBe(profilePrint({ email: 'a@example.test', phone: '49301', city: 'berlin' }, ORDER));
		expect(profileFields(print, ORDER)).toEqual(['email', 'city', 'phone']);
		// An earlier version's print (9 bytes, or the memory's 6-byte form of it) holds no field list.
		const earlier = '9Xq2-abcdefg';
		expect(profileFields(earlier, ORDER)).toBeUndefined();
		expect(profileFields(shortPrint(earlier, 6), ORDER)).toBeUndefined();
	});
});
