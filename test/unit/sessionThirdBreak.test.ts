/**
 * A third review of the session probe (transport/session.ts `probeRefused`, `distrustProbes`,
 * `exhausted`; transport/request.ts `sessionServes`), driving a real `SessionOwner` on the
 * simulated clock of test/helpers/sessionSim.ts the way transport/request.ts does. Each failing
 * test says at its top what is wrong, the numbers measured and how to replay it
 * (`npx jest test/unit/sessionThirdBreak.test.ts -t '<name>'`). The engine half is
 * test/service/sessionThirdBreak.test.ts.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { SessionProbe } from '../../nodes/Recruiting/transport/session';
import { SessionOwner } from '../../nodes/Recruiting/transport/session';
import { asRequest, Clock } from '../helpers/sessionSim';
import { ownerCredentials, sealed } from '../helpers/sessionOwner';
import { print } from '../sim/host';

/**
 * One execution, one request at a time, as request.ts runs it: `lease` (the held token and a
 * ticket), the answer, `authorised` for a 2xx, `expired` with a probe for a 401. Rows: 'own' (the
 * service serves it when the session is live), 'other' (a record of another account: 401 with
 * any session), and a reference list (`auth: 'optional'`, referenceData/lists.ts): sent with the
 * session held when there is one (request.ts `lease`), reported with `authorised` when answered
 * 2xx (request.ts `afterSuccess`), sent again without a session when answered 401
 * (`withoutStaleSession`, never reported to `expired`).
 */
function world(options: { listChecksBearer: boolean }) {
	const clock = new Clock();
	const live = new Set<string>();
	let issued = 0;
	let stored = sealed('tok-0');
	live.add(stored);
	const owner = new SessionOwner({ ...ownerCredentials, sessionToken: stored });
	const counts = { logins: 0, probes: 0, listsWithSession: 0 };
	const reread = async (): Promise<ICredentialDataDecryptedObject> => ({ ...ownerCredentials, sessionToken: stored });
	const login = async () => {
		await clock.sleep(20);
		issued += 1;
		counts.logins += 1;
		const token = sealed(`tok-${issued}`);
		live.add(token);
		stored = token;
		return token;
	};
	const send = async (token: string, kind: 'own' | 'other' | 'list'): Promise<200 | 401> => {
		await clock.sleep(10);
		if (kind === 'list') return options.listChecksBearer && token !== '' && !live.has(token) ? 401 : 200;
		return kind === 'own' && live.has(token) ? 200 : 401;
	};
	/** A reference list fetched now (a row's preparation needs one: its first name of that list). */
	const list = async (): Promise<void> => {
		const held = owner.held;
		if (held === '') return;
		const ticket = owner.ticket();
		counts.listsWithSession += 1;
		await send(held, 'list');
		owner.returned(ticket);
		// request.ts `afterSuccess` reports a success only of a request that needs a session (since the fix below; before, a
		// 2xx of the list was reported with `authorised`). 401: request.ts sends it once more without a session (`withoutStaleSession`).
	};
	let onRefusedProbe: (() => void) | undefined;
	const probe = (used: string): SessionProbe => async () => {
		counts.probes += 1;
		await clock.sleep(10);
		const answer = live.has(used) ? 'served' : 'refused';
		if (answer === 'refused' && onRefusedProbe) {
			const then = onRefusedProbe;
			onRefusedProbe = undefined;
			// The next row's preparation fetches a reference list a moment after the read came back.
			void clock.sleep(1).then(then);
		}
		return answer;
	};
	const row = async (kind: 'own' | 'other', endAfter = false): Promise<'ok' | 'failed'> =>
		// endAfter: the service ends the session right after serving this row (its lifetime ran out).
		await asRequest(owner, { send: async (token) => await send(token, kind), login, probe, reread, sleep: clock.sleep, onServed: (token) => endAfter && live.delete(token) });
	return {
		clock,
		counts,
		owner,
		row,
		list,
		listAfterNextRefusedProbe: () => (onRefusedProbe = () => void list()),
	};
}

describe('the probe distrusted (session.ts distrustProbes) on a service whose probe tells the truth', () => {
	beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0.5));
	afterEach(() => jest.restoreAllMocks());

	// Found by a review (2026-11-30): it FAILED; fixed in request.ts `afterSuccess` (a request with `auth: 'optional'` is
	// not reported as the session serving), which `list` above mirrors. The docs (errors-and-retries.md): "once the session serves a request
	// sent after the read's refusal came back (an ended session serves nothing), the execution stops
	// asking". request.ts counts every 2xx of a request sent with the session as the session serving
	// (`afterSuccess` → `authorised(lease.tokenUsed, lease.ticket)`), reference lists included:
	// `auth: 'optional'` requests go with the session held (`lease`), and the spec says reference
	// lists are "called without any credential", so a service may answer them whatever the bearer.
	// Here the probe tells the truth (the session had ended: the service refuses it everything); a
	// row's preparation fetches a reference list 1 ms after the read's refusal came back, while the
	// ended session is still held (renew's look at the stored credential, ~300 ms); the list is
	// answered 200 and the owner takes it for "the ended session serves": `distrustProbes`, no more
	// reads for the execution. Then the rules without the read apply: each of the 2 rows of another
	// account costs a login (with the read: none), and the own row that meets the next end of a
	// session right after a success is taken for its own 401 and FAILS ("The credential works").
	// Measured: misfire — own rows failed [6], 4 logins, 1 probe; the same run with a service that
	// answers the ended bearer 401 on the list (request.ts then sends it without a session, nothing
	// reported) — own rows failed [], 2 logins, 4 probes.
	// Cause: session.ts:256 `authorised` → `distrustProbes` for any 2xx with the refused token,
	// including requests that need no session (request.ts:267 `afterSuccess` reports them all; request.ts:139 `lease` sends reference lists with the session held).
	// Replay: this test alone (deterministic, Math.random 0.5).
	it('a reference list answered 200 with the ended session after the read refused it: the probing goes on, no own row fails', async () => {
		const script = async (w: ReturnType<typeof world>) => {
			const out: Array<'ok' | 'failed'> = [];
			// 0: served, then the session ends; 1: refused, the read says ended (a list fetched meanwhile), renewed.
			out.push(await w.row('own', true));
			w.listAfterNextRefusedProbe();
			out.push(await w.row('own'));
			out.push(await w.row('other'));
			out.push(await w.row('own'));
			out.push(await w.row('other'));
			// 5: served, then the session ends (its lifetime); 6: the next own row meets the end.
			out.push(await w.row('own', true));
			out.push(await w.row('own'));
			out.push(await w.row('own'));
			return out;
		};
		const kinds = ['own', 'own', 'other', 'own', 'other', 'own', 'own', 'own'];
		const wrong = (out: Array<'ok' | 'failed'>) => out.flatMap((outcome, index) => (outcome === 'failed' && kinds[index] === 'own' ? [index] : []));
		const checked = world({ listChecksBearer: true });
		const control = await checked.clock.run(script(checked));
		const ignored = world({ listChecksBearer: false });
		const result = await ignored.clock.run(script(ignored));
		print(`list answered whatever the bearer: own rows failed ${JSON.stringify(wrong(result))}, ${ignored.counts.logins} logins, ${ignored.counts.probes} probes; list answered 401 for the ended bearer: own rows failed ${JSON.stringify(wrong(control))}, ${checked.counts.logins} logins, ${checked.counts.probes} probes`);
		expect(wrong(control)).toEqual([]);
		expect(checked.counts.listsWithSession).toBe(1);
		expect(ignored.counts.listsWithSession).toBe(1);
		expect(wrong(result)).toEqual([]);
		expect(ignored.counts.logins).toBeLessThanOrEqual(checked.counts.logins);
	});
});
