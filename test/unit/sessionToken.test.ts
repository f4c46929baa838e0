/**
 * The session token the credential's `authenticate` sends, when the transport's session owner lends
 * a copy of the credential whose sealed token it already opened (transport/session.ts `lend`):
 * the same token as opening the seal again, and only while the copy still holds that seal.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { authenticateRequest } from '../../nodes/Recruiting/transport/auth';
import { SessionOwner } from '../../nodes/Recruiting/transport/session';
import { openSessionToken, sealSessionToken } from '../../nodes/Recruiting/transport/token';

const credentials = { baseUrl: 'http://127.0.0.1:1', email: 'a@example.test', password: 'secret-1', tokenPath: '' };
const sealed = sealSessionToken(credentials, 'open-token-1');

const sentToken = (data: ICredentialDataDecryptedObject) =>
	(authenticateRequest(data, { url: 'http://127.0.0.1:1/x', headers: { Accept: 'application/json' } }).headers as Record<string, string>).Authorization;

describe('the session token a lent credential sends', () => {
	it('sends the open token of the seal, as opening it again would', () => {
		const own = { ...credentials, sessionToken: sealed };
		const owner = new SessionOwner(own);
		const lent = owner.lend(own, sealed);
		expect(lent).not.toBe(own);
		expect(lent.sessionToken).toBe(sealed);
		expect(sentToken(lent)).toBe('Bearer open-token-1');
		expect(sentToken({ ...credentials, sessionToken: sealed })).toBe('Bearer open-token-1');
	});

	it('opens a token n8n stored into the copy afterwards (a new login) from its own seal', () => {
		const own = { ...credentials, sessionToken: sealed };
		const lent = new SessionOwner(own).lend(own, sealed);
		expect(sentToken(lent)).toBe('Bearer open-token-1');
		Object.assign(lent, { sessionToken: sealSessionToken(credentials, 'open-token-2') });
		expect(sentToken(lent)).toBe('Bearer open-token-2');
		Object.assign(lent, { sessionToken: sealSessionToken({ ...credentials, password: 'other' }, 'open-token-3') });
		expect(sentToken(lent)).toBe('Bearer ');
	});

	it('checks the seal of a copy of other values (another credential object) again: a token of other values is not sent', () => {
		const own = { ...credentials, sessionToken: sealed };
		const owner = new SessionOwner(own);
		const other = { ...credentials, password: 'changed' };
		const lent = owner.lend(other, sealed);
		expect(openSessionToken(lent)).toBe('');
		expect(sentToken(lent)).toBe('Bearer ');
	});
});
