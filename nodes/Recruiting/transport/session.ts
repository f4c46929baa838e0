/**
 * The one owner of the session token (Email and Password authentication) inside an execution.
 * Nothing else reads or writes it: a request asks for the token to send, reports a 401 with the
 * token it used, or a success; the login is run by one request at a time while the others wait.
 *
 * Rules, each with a test:
 * - A 401 with the token in use ends that session for the whole execution. The stored
 *   credential is read again first: when another execution (or queue-mode worker) has stored a
 *   newer token meanwhile, it is used without logging in; otherwise exactly one request logs in.
 * - A 401 with a token that is no longer the one in use only means "send again".
 * - A login that failed for good (refused, no token, or still failing after its retries) is
 *   final for the execution: every waiting and later request fails with it, none logs in again.
 * - Logins are bounded per request: a request refused again after a session was renewed for it
 *   logs in again only when the session shows that it ended. Either the service refuses this
 *   request (a record of another account) while the session works, or the session ended once
 *   more (on a service that allows one session per user, another execution's login ends it, and
 *   that execution stores its token a moment later). The session is asked at once (below):
 *   served, the 401 is this request's answer. Then the request looks for up to about a second: a
 *   success of another request with the session, sent after this refusal, means the session
 *   works and the 401 is this request's answer (its item fails, the others go on at full speed);
 *   a renewal by another request, or a newer session stored with the credential, means the
 *   session ended and the request is sent again with the new one. With no sign either way: the
 *   session refused the probe, it ended once more and is renewed; otherwise the 401 is its answer.
 * - A 401 with the session in use when the session served a request sent after this refusal came
 *   back (looked for while requests are out or sent, however slow the service or a rate cap): the
 *   session works, the 401 is this request's answer (its item fails), and nobody logs in (issue
 *   48). A success of a request sent before the refusal came back proves nothing: it may have
 *   reached the service first, and so does a success of a session renewed meanwhile. None such
 *   while others were out: the session ended, renewed.
 * - Asking the session: where no other answer can tell (a request alone; requests all refused
 *   together; a request refused again), one authenticated read with the session, sent after the
 *   401 came back (`SessionProbe`), decides before anyone logs in: served, the 401 is the
 *   request's own; refused, the session ended. One read answers every 401 that came back before
 *   it was sent (its 'refused' every later one too). Any other answer tells nothing; after two
 *   such, the execution stops asking and the rules without it apply.
 * - A handful of logins per run whatever the share of refused requests, one request at a time:
 *   a 401 of a request alone (nothing else out, sent or deciding) asks the session; when that
 *   tells nothing, after two logins that did not help (the request was refused again while the
 *   session served others; not one renewed while other refused requests were deciding too), it
 *   is its own answer when the session's last answer was a success; a second 401 in a row (the
 *   session ended) logs in (issue 48: one login per refused row before).
 * - And per execution: five own logins in a row whose sessions served nothing end the renewals.
 *   Only a success with the session in use ends the row: another item's success with an older
 *   session does not. Taking up a session another execution stored does not count: on a service
 *   that allows one session per user, executions sharing a credential pass the newest session
 *   along instead of failing.
 *
 * Tokens are kept sealed (see token.ts); created per execution, never at module level.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { LoginFailure } from './auth';
import type { Waiter } from './pacer';
import { markOpened, openSessionToken, sealSessionToken } from './token';

/**
 * Own logins in a row whose session the service refused before any authorised success. On a
 * service that allows one session per user, 8 executions at once on two queue workers under load
 * once ended one execution's session three times in a row, each by another's login (`npm run
 * queue`, queue-single): five, with a longer wait before each of the later ones, leave the others
 * time to serve.
 */
const MAX_FRUITLESS_LOGINS = 5;

/**
 * Logins that did not help (the request that needed it was refused again while the session served
 * others) before a lone 401 is taken for the request's own answer (issue 48: 9 logins for 8 refused
 * rows of 40; on a service that limits logins, a refused login failed every later row).
 */
const MAX_WASTED_LOGINS = 2;

/**
 * The answers kept of the session in use; how far apart a 401 looks for the answer of a request
 * sent after it came back, and for how long at most while requests are out: 10 minutes, far more
 * than such an answer takes under a rate cap (requests waiting for their turn are out too: under
 * 1 request a second with 32 at once, the proof comes about 32 s later; with 30 s at most, every
 * row of another account cost a login, test/unit/sessionRulesBreak.test.ts).
 */
const MAX_ANSWERS = 512;
const ANSWER_WAIT_MS = 100;
const ANSWER_LOOKS = 6_000;

/**
 * Probes that told nothing (an account that may not read the API integrations, a service without
 * that read, a timeout) before the execution stops asking: the rules without them apply.
 */
const MAX_UNTOLD_PROBES = 2;

/** How often, and about how long apart, a contested renewal looks for a newer stored session. */
const CONTESTED_LOOKS = 3;
const CONTESTED_WAIT_MS = 300;

/** How often a renewal after a session that served looks for a newer stored session (the first at once). */
const SERVED_LOOKS = 2;

/**
 * Logins under way in this n8n process, by n8n credential (its id) and the values they log in with (the seal's
 * fingerprint: base URL, e-mail, password, token path): a renewal that found no newer stored session waits for one another
 * execution has under way (at most `JOIN_WAIT_MS`) and takes up the session it stored in that credential, instead of
 * logging in too (executions whose shared session ended together, with a login slower than their looks: 2 logins for 2
 * executions before, autoLoginBreak). Without a credential id nothing is shared (another credential of the same account
 * stores its session elsewhere: waiting for its login only delays, loginShareBreak).
 */
const loginsUnderWay = new Map<string, Promise<void>>();
const JOIN_WAIT_MS = 30_000;
const JOIN_STEP_MS = 100;

/**
 * One authenticated read with a session, sent after a 401 came back (the credential test's
 * request): 'served' (the session works now), 'refused' (401: it ended) or 'unknown' (any other
 * answer, or none).
 */
export type SessionProbe = () => Promise<'served' | 'refused' | 'unknown'>;

export interface LoginTurn {
	/** The login worked: `sealedToken` is the new session for everyone. */
	succeeded(sealedToken: string): void;
	/** The login failed for good: final for this execution. */
	failed(failure: LoginFailure): void;
	/** The login was not completed (cancelled, stopped): waiting requests look again. */
	abandoned(): void;
}

export class SessionOwner {
	private token: string;

	private pending?: Promise<void>;

	private failure?: LoginFailure;

	private fruitless = 0;

	/** Logins that did not help (see `MAX_WASTED_LOGINS`). */
	private wasted = 0;

	/** `servedSend` when a lone 401 was last taken for its request's own answer. */
	private ownAt = -1;

	/** The answers with the session in use: the number of each send and whether it was served (the latest `MAX_ANSWERS`). */
	private answers: Array<[number, boolean]> = [];

	/** Whether the session in use has served an authorised request yet; whether any session of this execution has. */
	private served = false;
	private everServed = false;

	/** Numbers the sends with a session, so that a success can be told to be later than a refusal. */
	private sends = 0;

	/** The number of the latest send that the session in use served. */
	private servedSend = 0;

	/** Refused requests looking for the answers of the others (`servedAfter`, `refusedAgain`). */
	private deciding = 0;

	/** Numbers the 401s with the session in use as they come back (a probe asked after one answers for it). */
	private arrivals = 0;

	/** Probes that told nothing (see `MAX_UNTOLD_PROBES`). */
	private probesUntold = 0;

	/**
	 * The session a probe last refused, and the last send numbered when that answer came: a later
	 * send it serves shows the probe's refusals untrue (an account that may not read the API
	 * integrations can be answered 401 for it while its session works, as the service answers 401
	 * "not authorized" for what an account may not do): the execution stops asking. Before, every
	 * row of another account then cost five logins (41 logins for 8 such rows of 40, one at a time,
	 * against 3 without the read); now the first such row does, the later ones the rules without
	 * the read (8 in all: test/unit/sessionSecondBreak.test.ts).
	 */
	private probeRefused?: { token: string; mark: number };

	/** The probe under way or last asked: its session, the 401s it answers for (numbers up to `after`) and its answer. */
	private probing?: { token: string; after: number; answer: Promise<'served' | 'refused' | 'unknown'> };

	/**
	 * A 401 of the first request after a hold being decided (`expired` with `look`): the requests that waited out the hold
	 * with that session wait for the decision before they are sent (`cleared`), instead of all going with a session that
	 * may have ended during the hold.
	 */
	private doubt?: { token: string; done: Promise<void> };

	/** Sends with a session whose answer has not come back yet (`ticket` adds; an answer, or `returned`, takes off). */
	private readonly out = new Set<number>();

	/** Every token this execution has held (sealed and open), for redaction. */
	readonly seen = new Set<string>();

	/** The key of this credential's logins in `loginsUnderWay` (undefined: none shared). */
	private readonly account?: string;

	constructor(
		private readonly credentials: ICredentialDataDecryptedObject,
		credentialId?: string,
	) {
		this.account = credentialId ? `${credentialId}|${sealSessionToken(credentials, '')}` : undefined;
		this.token = openSessionToken(credentials) === '' ? '' : String(credentials.sessionToken);
		this.remember(this.token);
	}

	/** The open token of each sealed token held, checked once against this execution's credential. */
	private readonly opened = new Map<string, string>();

	private remember(sealed: string): void {
		if (sealed === '') return;
		this.seen.add(sealed);
		const open = openSessionToken({ ...this.credentials, sessionToken: sealed });
		this.opened.set(sealed, open);
		if (open !== '') this.seen.add(open);
	}

	/**
	 * A copy of `credentials` that sends the sealed token `sealed`. When they are this execution's
	 * credential and the token one this owner checked, the copy carries its open token too
	 * (`markOpened`), so `authenticate` does not hash the credential again for every request.
	 */
	lend(credentials: ICredentialDataDecryptedObject, sealed: string): ICredentialDataDecryptedObject {
		const data = { ...credentials, sessionToken: sealed };
		const open = credentials === this.credentials ? this.opened.get(sealed) : undefined;
		return open === undefined || open === '' ? data : markOpened(data, sealed, open);
	}

	/** Waits for a login or renewal under way; returns the final login failure, if any. */
	private async settled(): Promise<LoginFailure | undefined> {
		while (this.pending) await this.pending;
		return this.failure;
	}

	/** The sealed token to send now ('' when none: the caller may then lead a login), or the final login failure. */
	async current(): Promise<string | LoginFailure> {
		return (await this.settled()) ?? this.token;
	}

	/** Waits while a 401 of the first request after a hold, sent with `tokenUsed`, is being decided (see `doubt`). */
	async cleared(tokenUsed: string): Promise<void> {
		while (this.doubt && this.doubt.token === tokenUsed) await this.doubt.done;
	}

	/** The session held right now, without waiting ('' when none). */
	get held(): string {
		return this.token;
	}

	/** Makes the caller the one request that logs in, or undefined when it must not (a token exists, or a login is under way). */
	tryLead(): LoginTurn | undefined {
		if (this.pending || this.failure || this.token !== '') return undefined;
		let release!: () => void;
		const login = new Promise<void>((resolve) => (release = resolve));
		this.pending = login;
		const account = this.account;
		if (account !== undefined) loginsUnderWay.set(account, login);
		// Once: a login that ended is not ended again by a later `abandoned` (request.ts ends the turn on any throw).
		let ended = false;
		const end = () => {
			if (ended) return;
			ended = true;
			if (this.pending === login) this.pending = undefined;
			if (account !== undefined && loginsUnderWay.get(account) === login) loginsUnderWay.delete(account);
			release();
		};
		return {
			succeeded: (sealedToken) => {
				this.token = sealedToken;
				this.answers = [];
				this.served = false;
				this.fruitless += 1;
				this.remember(sealedToken);
				end();
			},
			failed: (failure) => {
				this.failure = failure;
				end();
			},
			abandoned: end,
		};
	}

	/**
	 * What a 401 taken for a request's own answer says of the credential: 'own' while this
	 * execution's sessions serve (the service refuses that request itself); 'unclear' when logins
	 * kept getting sessions that served nothing after earlier ones served (the request refused
	 * itself, or the account lost its access); 'credential' when no session of this execution served.
	 */
	get refusal(): 'own' | 'unclear' | 'credential' {
		if (!this.everServed) return 'credential';
		return this.fruitless < MAX_FRUITLESS_LOGINS ? 'own' : 'unclear';
	}

	/** The number of a send about to go with the session (see `authorised`). */
	ticket(): number {
		this.out.add(++this.sends);
		return this.sends;
	}

	/** Send number `ticket` came back, whatever its outcome (an answer, an error, or not sent after all). */
	returned(ticket: number | undefined): void {
		if (ticket !== undefined) this.out.delete(ticket);
	}

	/** An authorised request with `tokenUsed`, sent as number `ticket`, succeeded: the session works (the row of fruitless logins ends only for the session in use). */
	authorised(tokenUsed: string, ticket = 0): void {
		this.out.delete(ticket);
		// An ended session serves nothing: a probe that refused this one, answered before this request was sent, tells nothing.
		if (this.probeRefused?.token === tokenUsed && ticket > this.probeRefused.mark) this.distrustProbes();
		if (tokenUsed !== this.token) return;
		this.fruitless = 0;
		this.served = true;
		this.everServed = true;
		if (ticket > this.servedSend) this.servedSend = ticket;
		this.heard(ticket, true);
	}

	private heard(ticket: number, served: boolean): void {
		this.answers.push([ticket, served]);
		if (this.answers.length > MAX_ANSWERS) this.answers = this.answers.slice(-MAX_ANSWERS / 2);
	}

	/**
	 * A request got 401 with `tokenUsed`, sent as number `ticket`; `before.renewed`: a session was
	 * renewed for it already (`before.shared`: other requests refused with the session were still
	 * deciding, so the renewal served them as well); `probe` asks the session (see `probed`).
	 * Returns 'retry' (send again: another session is in use), 'renewed' (send again: the session
	 * was renewed for it, or the next request logs in), 'final' (the 401 is its answer) or the
	 * final login failure. `look`: the request was the first after a hold of the run (controller.ts), sent alone while the
	 * others waited: no other answer can tell, so the session is asked at once (as for a request alone), and the requests
	 * that waited with this session wait for the decision (`cleared`).
	 */
	async expired(
		tokenUsed: string,
		reread: () => Promise<ICredentialDataDecryptedObject>,
		wait: Waiter,
		before: { renewed?: boolean; shared?: boolean } = {},
		ticket = Number.POSITIVE_INFINITY,
		probe?: SessionProbe,
		look = false,
	): Promise<'retry' | 'renewed' | 'final' | LoginFailure> {
		if (!look || this.doubt) return await this.decide(tokenUsed, reread, wait, before, ticket, probe);
		let done!: () => void;
		const doubt = { token: tokenUsed, done: new Promise<void>((resolve) => (done = resolve)) };
		this.doubt = doubt;
		const lift = () => {
			if (this.doubt === doubt) this.doubt = undefined;
			done();
		};
		try {
			return await this.decide(tokenUsed, reread, wait, before, ticket, probe, lift);
		} finally {
			lift();
		}
	}

	private async decide(
		tokenUsed: string,
		reread: () => Promise<ICredentialDataDecryptedObject>,
		wait: Waiter,
		before: { renewed?: boolean; shared?: boolean },
		ticket: number,
		probe: SessionProbe | undefined,
		lift?: () => void,
	): Promise<'retry' | 'renewed' | 'final' | LoginFailure> {
		this.out.delete(ticket);
		const failure = await this.settled();
		if (failure) return failure;
		if (this.token !== tokenUsed) return 'retry';
		this.heard(ticket, false);
		const arrival = ++this.arrivals;
		let unproven = false;
		if (before.renewed === true) {
			const again = await this.refusedAgain(tokenUsed, reread, wait, before.shared === true, arrival, probe);
			if (again !== 'ended') return again;
		} else {
			// The session served a request sent after this refusal came back: it works, the 401 is this
			// request's answer (issue 48).
			// The first request after a hold (`lift`: the others wait): the session is asked at once; when that tells
			// nothing, the others go and their answers tell, as for any 401 (a row of another account costs no login).
			let session = lift ? 'alone' : await this.servedAfter(ticket, tokenUsed, wait);
			if (session === 'works') return 'final';
			// No other answer tells (a request alone, or the others were refused too: the session
			// ended, or they are all rows of another account): the session is asked before a login.
			if (this.token === tokenUsed) {
				const now = await this.probed(tokenUsed, arrival, probe);
				if (now === 'served') return 'final';
				if (lift && now === 'unknown' && this.token === tokenUsed) {
					lift();
					session = await this.servedAfter(ticket, tokenUsed, wait);
					if (session === 'works') return 'final';
				}
				unproven = session === 'alone' && now === 'unknown';
			}
		}
		// Another refused request renewed the session meanwhile (it looked too).
		const meanwhile = await this.settled();
		if (meanwhile) return meanwhile;
		if (this.token !== tokenUsed) return 'retry';
		if (this.fruitless >= MAX_FRUITLESS_LOGINS) return 'final';
		// One request at a time, no answer from the session, logins did not help before and the
		// session's last answer was a success: this 401 is the request's own.
		if (unproven && this.wasted >= MAX_WASTED_LOGINS && this.served && this.servedSend > this.ownAt) {
			this.ownAt = this.servedSend;
			return 'final';
		}
		// Requests that one probe answered resume together: the first renews, the others wait for it.
		if (this.pending) return (await this.settled()) ?? 'retry';
		before.shared = this.deciding > 0;
		this.pending = this.renew(tokenUsed, reread, wait).finally(() => {
			this.pending = undefined;
		});
		await this.pending;
		return 'renewed';
	}

	/**
	 * Whether the session `tokenUsed` serves now, for the 401 numbered `arrival`: one probe answers
	 * every 401 that came back before it was sent (it reached the service after them), and its
	 * 'refused' every later one too. A served probe is a success of the session like any other.
	 */
	private async probed(tokenUsed: string, arrival: number, probe?: SessionProbe): Promise<'served' | 'refused' | 'unknown'> {
		const asked = this.probing;
		if (asked && asked.token === tokenUsed) {
			// An ended session stays ended; that it served speaks only of the 401s that came back before it was sent.
			const told = await asked.answer;
			if (told === 'refused' || asked.after >= arrival) return told;
		}
		if (!probe || this.probesUntold >= MAX_UNTOLD_PROBES) return 'unknown';
		const ticket = this.ticket();
		const answer = probe().catch(() => 'unknown' as const);
		this.probing = { token: tokenUsed, after: this.arrivals, answer };
		this.deciding += 1;
		try {
			const now = await answer;
			if (now === 'unknown') this.probesUntold += 1;
			if (now === 'served') this.authorised(tokenUsed, ticket);
			if (now === 'refused') this.probeRefused = { token: tokenUsed, mark: this.sends };
			return now;
		} finally {
			this.out.delete(ticket);
			this.deciding -= 1;
		}
	}

	/**
	 * A request refused again with the session in use after a session was renewed for it. The
	 * session is asked at once (`probed`): served, 'final' (it works; the 401 is this request's
	 * answer). Then it looks: 'retry' when the session was renewed by another request or a newer
	 * one is stored with the credential (it had ended), 'final' when a request sent after this
	 * refusal succeeded with the session. Neither: 'ended' when the session refused the probe (the
	 * caller renews it; before, when every request of an execution was refused again after another
	 * execution's login on a one-session-per-user service, none renewed: CI's queue-single failed 4
	 * rows in two executions), 'final' otherwise. The login counts as one that did not help
	 * (`MAX_WASTED_LOGINS`) only when it was renewed for this request alone (`shared`: others were
	 * refused with the session that ended as well; with sessions of a few requests, a row of
	 * another account often meets a session's end).
	 */
	private async refusedAgain(
		tokenUsed: string,
		reread: () => Promise<ICredentialDataDecryptedObject>,
		wait: Waiter,
		shared: boolean,
		arrival: number,
		probe?: SessionProbe,
	): Promise<'retry' | 'final' | 'ended' | LoginFailure> {
		const mark = this.sends;
		this.deciding += 1;
		try {
			// The session is asked at once, while its answer still speaks of the refusal's moment
			// (asked after the looks, a short session had often ended since: a row of another
			// account then led login after login).
			const now = await this.probed(tokenUsed, arrival, probe);
			if (now === 'served') return this.wastedLogin(shared);
			for (let look = 0; look < CONTESTED_LOOKS; look++) {
				if (look > 0) await wait(this.lookWaitMs());
				const failure = await this.settled();
				if (failure) return failure;
				if (this.token !== tokenUsed) return 'retry';
				if (this.servedSend > mark) return this.wastedLogin(shared);
				if (await this.takeUpStored(tokenUsed, reread)) return 'retry';
			}
			// Refused: it ended once more (another execution's login on a service that allows one
			// session per user) and is renewed; a service that refuses this account everything ends
			// there after five logins whose sessions served nothing (`MAX_FRUITLESS_LOGINS`).
			return now === 'refused' ? 'ended' : this.wastedLogin(shared);
		} finally {
			this.deciding -= 1;
		}
	}

	/** The probe tells nothing for this account: the execution stops asking (the rules without it apply). */
	private distrustProbes(): void {
		this.probesUntold = MAX_UNTOLD_PROBES;
		this.probing = undefined;
		this.probeRefused = undefined;
	}

	private wastedLogin(shared: boolean): 'final' {
		if (!shared) this.wasted += 1;
		return 'final';
	}

	/**
	 * Whether the session in use still works after refusing send number `ticket`. Proof is a
	 * success of a request sent after the refusal came back (numbered after `mark`): it reached the
	 * service after the refusal, and an ended session serves nothing. A request sent between this
	 * one and its answer proves nothing when served: a request sent earlier can arrive later, after
	 * the session ended (the sandbox's latency jitter: 2 of 10 runs of 600 rows failed rows that
	 * way). It looks while requests are out or new ones are sent, however long the service or a
	 * rate cap takes (up to 10 minutes). None out and none sent for a look (all the others were
	 * refused too, or the items ran out) and no such success: 'unknown' (the session is asked,
	 * then renewed). Nothing else out when it came back: 'alone' (one request at a time; no
	 * answer of another can tell).
	 */
	private async servedAfter(ticket: number, tokenUsed: string, wait: Waiter): Promise<'works' | 'unknown' | 'alone'> {
		const mark = this.sends;
		// One request at a time: nothing else is out or will be.
		if (mark <= ticket && this.out.size === 0 && this.deciding === 0) return 'alone';
		this.deciding += 1;
		try {
			for (let look = 0, seen = mark; this.token === tokenUsed && look < ANSWER_LOOKS; look++, seen = this.sends) {
				await wait(ANSWER_WAIT_MS);
				// Renewed meanwhile: the answers are the new session's, and tell nothing of this one.
				if (this.token !== tokenUsed) break;
				if (this.answers.some(([sent, served]) => served && sent > mark)) return 'works';
				if (this.out.size === 0 && this.sends === seen) break;
			}
			return 'unknown';
		} finally {
			this.deciding -= 1;
		}
	}

	/** Takes up the session stored with the credential when it is newer than `tokenUsed` and not one this execution held; whether it did. */
	private async takeUpStored(tokenUsed: string, reread: () => Promise<ICredentialDataDecryptedObject>): Promise<boolean> {
		const stored = await reread().catch(() => undefined);
		const storedToken = stored && openSessionToken({ ...this.credentials, sessionToken: stored.sessionToken }) !== '' ? String(stored.sessionToken) : '';
		if (storedToken === '' || storedToken === tokenUsed || this.seen.has(storedToken) || this.token !== tokenUsed) return false;
		this.token = storedToken;
		this.answers = [];
		this.served = false;
		this.remember(storedToken);
		return true;
	}

	/**
	 * Takes up the session stored with the credential when it is newer than the one that ended;
	 * otherwise clears the token, so that the next request logs in. A session may have been ended
	 * by another execution's login (a service that allows one session per user), and that
	 * execution stores its token a moment later: the stored credential is read at once and once
	 * more after a short random wait before logging in (executions whose shared session expired
	 * together then take up the first one's login instead of each logging in). A session that
	 * ended before it served anything was most likely ended that way: it is read again a few
	 * times, each after such a wait.
	 */
	private async renew(tokenUsed: string, reread: () => Promise<ICredentialDataDecryptedObject>, wait: Waiter): Promise<void> {
		const contested = !this.served;
		for (let look = 0; look < (contested ? CONTESTED_LOOKS : SERVED_LOOKS); look++) {
			if (contested || look > 0) await wait(this.lookWaitMs());
			if (await this.takeUpStored(tokenUsed, reread)) return;
		}
		// Another execution of this process is logging in with the same credential: its session is taken up once stored.
		const other = this.account === undefined ? undefined : loginsUnderWay.get(this.account);
		if (other) {
			let over = false;
			void other.then(() => (over = true));
			// In steps, so that nothing waits on once that login ended; a step that ends early says the run is stopping.
			for (let left = JOIN_WAIT_MS; !over && left > 0; left -= JOIN_STEP_MS) {
				const started = performance.now();
				await wait(JOIN_STEP_MS);
				if (performance.now() - started < JOIN_STEP_MS / 2) break;
			}
			if (await this.takeUpStored(tokenUsed, reread)) return;
		}
		// A request refused again may have taken up a newer stored session meanwhile: kept.
		if (this.token === tokenUsed) this.token = '';
	}

	/** The short random wait before looking at the stored credential again; after two own logins refused in a row, longer (the others serve meanwhile). */
	private lookWaitMs(): number {
		return CONTESTED_WAIT_MS * Math.max(1, this.fruitless - 1) * (0.5 + Math.random());
	}

	/** Log Out ended `tokenUsed`: later requests of this execution log in first. */
	forget(tokenUsed: string): void {
		if (this.token === tokenUsed) this.token = '';
	}
}
