/**
 * The row's `syncState` (nodes/Recruiting/memory/syncState.ts): what it carries comes back as it
 * was written, and any change to it is refused (garbled, another version, another account), never
 * read as another state.
 */
import { accountScope, serviceAddress, shortPrint, stateScope } from '../../nodes/Recruiting/memory/keys';
import { createHash } from 'crypto';

import { decodeState, encodeState, fieldBlock, fieldsHeld, profileFields, profilePrint, recordPrint, unknownPrint, withoutBlock } from '../../nodes/Recruiting/memory/syncState';

const SCOPE = 'AbCdEf0123456789xyzXYZ';
const ORDER = ['email', 'first_name', 'city', 'phone'];
const SLUG = 'slug-0001';

describe('syncState', () => {
	const state = {
		p: profilePrint({ email: 'a@example.test', city: 'Berlin' }, ORDER),
		r: [
			recordPrint('language', { language_id: 26, language_level_id: 4 }),
			recordPrint('itSkill', { skill_name: 'SQL', skill_level_id: 3 }),
			unknownPrint('job', { company_name: 'Acme' }),
		],
	};
	const text = encodeState(SCOPE, state, SLUG);

	it('round trip, short, no personal data', () => {
		expect(decodeState(text, SCOPE, SLUG)).toEqual({ state });
		expect(decodeState(encodeState(SCOPE, { r: [] }, SLUG), SCOPE, SLUG)).toEqual({ state: { p: undefined, r: [] } });
		// 32 characters with one record, 6 more for each further one.
		expect(encodeState(SCOPE, { p: state.p, r: state.r.slice(0, 1) }, SLUG)).toHaveLength(32);
		expect(encodeState(SCOPE, { p: state.p, r: state.r.slice(0, 2) }, SLUG)).toHaveLength(38);
		expect(text).not.toMatch(/example|Berlin|SQL|Acme/);
	});

	it('every one-character change, every cut and every other account is refused', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
		for (let position = 0; position < text.length; position++) {
			for (const char of alphabet) {
				if (char === text[position]) continue;
				const changed = text.slice(0, position) + char + text.slice(position + 1);
				const decoded = decodeState(changed, SCOPE, SLUG);
				expect('problem' in decoded).toBe(true);
			}
			expect('problem' in decodeState(text.slice(0, position), SCOPE, SLUG)).toBe(true);
		}
		expect(decodeState(text, 'ZZZZZZ0123456789', SLUG)).toEqual({ problem: 'account' });
		expect(decodeState(`3${text.slice(1)}`, SCOPE, SLUG)).toEqual({ problem: 'version' });
		expect(decodeState('hello', SCOPE, SLUG)).toEqual({ problem: 'garbled' });
	});

	it('issue 31 defect 2: the state names its candidate: given with another slug it is refused; a state of version 1 (no candidate) is still read', () => {
		expect(decodeState(text, SCOPE, 'slug-0002')).toEqual({ problem: 'candidate' });
		expect(decodeState(text, SCOPE, ` ${SLUG} `)).toEqual({ state });
		// Version 1: `1.<account><check>.<profile>.<records>`, its check over the account and the body.
		const body = text.split('.').slice(2).join('.');
		const head = SCOPE.slice(0, 6);
		const check = createHash('sha256').update(`recruiting-state ${head} ${body}`).digest('base64url').slice(0, 4);
		expect(decodeState(`1.${head}${check}.${body}`, SCOPE, 'any-slug')).toEqual({ state });
		expect(decodeState(`1.${head}${check}.${body}`, 'ZZZZZZ0123456789', 'any-slug')).toEqual({ problem: 'account' });
	});

	it('issue 31 defect 10: the profile\'s field prints tell which fields still hold what was sent', () => {
		const sent = { email: 'a@example.test', city: 'Berlin', first_name: 'Ana' };
		const p = profilePrint(sent, ORDER);
		const prints = [recordPrint('itSkill', { skill_name: 'SQL' }), ...fieldBlock(p, sent, ORDER), recordPrint('itSkill', { skill_name: 'Go' })];
		expect(fieldsHeld(prints, p, { email: ' A@Example.test', first_name: 'Ana' }, ORDER)).toBe(true);
		expect(fieldsHeld(prints, p, { email: 'a@example.test', first_name: 'Anna' }, ORDER)).toBe(false);
		expect(fieldsHeld(prints, p, { email: 'a@example.test', phone: '1' }, ORDER)).toBe(false);
		// Bound to the profile print: another print's block does not count.
		expect(fieldsHeld(prints, profilePrint({ email: 'a@example.test' }, ORDER), { email: 'a@example.test' }, ORDER)).toBe(false);
		expect(withoutBlock(prints, p, ORDER)).toEqual([prints[0], prints[prints.length - 1]]);
		// A seal and 2 bytes per field: 3 prints for 3 fields.
		expect(fieldBlock(p, sent, ORDER)).toHaveLength(3);
		expect(fieldBlock(p, { email: 'a@example.test' }, ORDER)).toHaveLength(2);
		// docs/sync-state.md: a profile of two fields and one record, 44 characters.
		const two = { email: 'a@example.test', city: 'Berlin' };
		const twoPrint = profilePrint(two, ORDER);
		expect(encodeState(SCOPE, { p: twoPrint, r: [...fieldBlock(twoPrint, two, ORDER), prints[0]] }, SLUG)).toHaveLength(44);
		expect(withoutBlock(prints, undefined, ORDER)).toEqual(prints);
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

describe('the state scope: the service account, not the n8n credential nor a secret', () => {
	it('the service address ignores scheme, case, a default port, user info, query, fragment and trailing slashes', () => {
		const same = [
			'https://api.example.com',
			'http://api.example.com',
			'https://api.example.com/',
			'  HTTPS://API.Example.COM//  ',
			'https://api.example.com:443',
			'http://api.example.com:80/',
			'http://api.example.com:443',
			'https://user@api.example.com/?x=1#top',
			'https://api.example.com./',
			'api.example.com',
		];
		for (const url of same) expect([url, serviceAddress(url)]).toEqual([url, 'api.example.com']);
		expect(serviceAddress('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080');
		expect(serviceAddress('https://api.example.com/Recruiting/')).toBe('api.example.com/recruiting');
		expect(serviceAddress('https://api.example.com//recruiting//')).toBe('api.example.com/recruiting');
		// Another host, port or path is another service.
		for (const other of ['https://example.com', 'https://api.example.com:8443', 'https://api.example.com/v2', 'https://localhost']) {
			expect(serviceAddress(other)).not.toBe('api.example.com');
		}
		// Not a URL: the text itself, the same rules where they apply; never a throw.
		expect(serviceAddress('https://exa mple.com/')).toBe('exa mple.com');
		expect(serviceAddress(undefined)).toBe('');
	});

	const login = (extra: Record<string, string> = {}) => ({ baseUrl: 'https://api.example.com', authentication: 'emailPassword', email: 'ana@example.com', password: 'one', ...extra });

	it('Email and Password: the address and the login e-mail (lower case, trimmed); never the password or the n8n credential', () => {
		const scope = stateScope(login());
		expect(stateScope(login({ baseUrl: 'http://API.example.com:443/', email: '  Ana@Example.COM ' }))).toBe(scope);
		expect(stateScope(login({ password: 'two', sessionToken: 'x' }))).toBe(scope);
		expect(stateScope(login({ email: 'bob@example.com' }))).not.toBe(scope);
		expect(stateScope(login({ baseUrl: 'https://other.example.com' }))).not.toBe(scope);
		// The memory's scope stays the credential's: another credential id is another memory.
		expect(accountScope(login(), 'cred-1')).not.toBe(accountScope(login(), 'cred-2'));
		expect(accountScope(login(), 'cred-1')).not.toBe(scope);
	});

	it('Access Token and API Key: the address and the mode; never the secret', () => {
		const token = (accessToken: string, baseUrl = 'https://api.example.com') => stateScope({ baseUrl, authentication: 'accessToken', accessToken });
		const key = (apiKey: string) => stateScope({ baseUrl: 'https://api.example.com', authentication: 'apiKey', apiKey, apiKeyHeader: 'Authorization' });
		expect(token('a')).toBe(token('b', 'http://api.example.com/'));
		expect(key('a')).toBe(key('b'));
		expect(new Set([token('a'), key('a'), stateScope(login())]).size).toBe(3);
		// No e-mail left in a token credential's fields counts.
		expect(stateScope({ baseUrl: 'https://api.example.com', authentication: 'accessToken', accessToken: 'a', email: 'old@example.com' })).toBe(token('a'));
	});
});
