/**
 * A `SessionOwner` (transport/session.ts) to drive directly in unit tests: its credential, a
 * sealed token, and an owner as `sendLoggingIn` leaves it after a login.
 */
import { SessionOwner } from '../../nodes/Recruiting/transport/session';
import { sealSessionToken } from '../../nodes/Recruiting/transport/token';

export const ownerCredentials = { baseUrl: 'http://127.0.0.1:1', email: 'a@example.test', password: 'secret-1', tokenPath: '' };

export const sealed = (open: string) => sealSessionToken(ownerCredentials, open);

/** An owner that logged in (`own`) for a request, as `sendLoggingIn` leaves it. */
export function ownerAfterLogin(own: string): SessionOwner {
	const owner = new SessionOwner({ ...ownerCredentials, sessionToken: '' });
	const turn = owner.tryLead();
	if (!turn) throw new Error('the owner did not let a request log in');
	turn.succeeded(own);
	return owner;
}
