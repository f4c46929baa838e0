/**
 * A deterministic simulation of one execution's logins (transport/session.ts `SessionOwner`) on a
 * simulated clock and service: the lease / send / `expired` loop of transport/request.ts, with
 * Max Requests per Second (the pacer of transport/pacer.ts). Written by two reviews
 * (test/unit/sessionServedAfterBreak.test.ts, test/unit/sessionRulesBreak.test.ts).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { SessionProbe } from '../../nodes/Recruiting/transport/session';
import { SessionOwner } from '../../nodes/Recruiting/transport/session';
import { sealSessionToken } from '../../nodes/Recruiting/transport/token';
import { settled } from '../sim/host';
import { ownerCredentials } from './sessionOwner';

/** A simulated clock: `sleep` resolves when the driver moves the clock to its time (timers in order, ties in order of creation). */
export class Clock {
	now = 0;
	private seq = 0;
	private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
	sleep = (ms: number): Promise<void> =>
		new Promise<void>((resolve) => {
			this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, resolve });
		});
	async run<T>(work: Promise<T>, limitMs = 60 * 60 * 1000): Promise<T> {
		let done = false;
		void work.then(() => (done = true), () => (done = true));
		for (;;) {
			// Every promise chain settles before the clock moves on (a macrotask, without a timer's 1 ms).
			await settled();
			if (done) return await work;
			if (this.timers.length === 0) throw new Error(`deadlock at ${this.now} ms`);
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift()!;
			this.now = next.at;
			if (this.now > limitMs) throw new Error('simulated time limit');
			next.resolve();
		}
	}
}

export interface Row { other: boolean }

/** What the service answers to a session probe: as it would a request of the account's own, or a fixed status, or a thrown error. */
/** How often request.ts `sessionServes` sends a probe answered 429 in all. */
const PROBE_TRIES = 3;

export type ProbeAnswer = 'service' | 403 | 429 | 500 | 'thrown' | 401;

export interface ServiceModel {
	toMs: (n: number) => number;
	backMs: (n: number) => number;
	/** A session ends after serving this many requests (the last one still served). */
	sessionLimit?: () => number;
	loginMs?: number;
	/** Max Requests per Second as an interval between starts (ms); 0 or undefined: no cap. */
	intervalMs?: number;
	/** One session per user: a login ends every earlier session (the sandbox's `singleSessionPerUser`). */
	singleSession?: boolean;
	/** How long after its login an execution's token reaches the stored credential (a queue worker's database write). */
	storeDelayMs?: () => number;
	/** A session ends this long after its login. */
	lifetimeMs?: number;
	/** Whether a 401 may ask the session with a read of its own (transport/request.ts `sessionServes`; default yes, as the node does). */
	probe?: boolean;
	/** How the probe is answered, given the probe's number in the run (default: 'service'). */
	probeAnswer?: (n: number) => ProbeAnswer;
	/** Extra time the probe takes on its way to the service (a slow endpoint, a timeout). */
	probeExtraMs?: (n: number) => number;
	/** Whether a served probe uses up one of the session's requests (default yes: it is a request). */
	probeCounts?: boolean;
	/** Max simulated time (default 1 h). */
	limitMs?: number;
}

export interface SimResult {
	logins: number;
	failed: number[];
	wrong: number[];
	ownRefusals: number;
	endedRefusals: number;
	timeMs: number;
}

/** One execution of several sharing a credential: its rows, how many at once, and when it starts. */
export interface ExecutionPlan {
	rows: Row[];
	concurrency: number;
	startMs?: number;
}

export interface ExecutionResult {
	failed: number[];
	wrong: number[];
	/** Logins this execution ran. */
	logins: number;
	/** Probes this execution sent. */
	probes: number;
	/** The longest time an item took, from its first send to its end (ms). */
	longestItemMs: number;
	/** Verdicts of `expired`, in order. */
	verdicts: string[];
	endMs: number;
}

export interface SharedResult {
	logins: number;
	probes: number;
	timeMs: number;
	ownRefusals: number;
	endedRefusals: number;
	/** Per execution, in the order given. */
	executions: ExecutionResult[];
}

/** One execution alone (see `simulateShared`). */
export async function simulate(rows: Row[], concurrency: number, model: ServiceModel): Promise<SimResult> {
	const { executions, logins, timeMs, ownRefusals, endedRefusals } = await simulateShared([{ rows, concurrency }], model);
	return { logins, timeMs, ownRefusals, endedRefusals, failed: executions[0].failed, wrong: executions[0].wrong };
}

/** Runs so far (each `simulateShared` run its own n8n credential). */
let runs = 0;

/**
 * Executions sharing one stored credential, each with its own `SessionOwner` (as in n8n: one per
 * execution), on one simulated clock and service; the probe (a read with the session after a
 * 401) answered as the model says. A review of the probe (test/unit/sessionProbeBreak.test.ts)
 * added the probe's answers and the counts per execution.
 */
export async function simulateShared(plans: ExecutionPlan[], model: ServiceModel): Promise<SharedResult> {
	const clock = new Clock();
	const credentialId = `sim-credential-${++runs}`;
	let stored = '';
	const live = new Map<string, { served: number; limit: number; endsAt: number }>();
	let logins = 0;
	let probes = 0;
	let sendNo = 0;
	let ownRefusals = 0;
	let endedRefusals = 0;
	const reread = async (): Promise<ICredentialDataDecryptedObject> => ({ ...ownerCredentials, sessionToken: stored });
	const login = async (): Promise<string> => {
		await clock.sleep(model.loginMs ?? model.toMs(0) + model.backMs(0));
		logins += 1;
		const token = sealSessionToken(ownerCredentials, `tok-${logins}`);
		if (model.singleSession) live.clear();
		live.set(token, { served: 0, limit: model.sessionLimit?.() ?? Number.POSITIVE_INFINITY, endsAt: clock.now + (model.lifetimeMs ?? Number.POSITIVE_INFINITY) });
		const delay = model.storeDelayMs?.() ?? 0;
		if (delay > 0) void clock.sleep(delay).then(() => (stored = token));
		else stored = token;
		return token;
	};
	/** Whether the session `token` serves a request arriving now (and counts it when it does and `use`). */
	const serves = (token: string, use: boolean): boolean => {
		const session = live.get(token);
		if (!session || session.endsAt <= clock.now) return false;
		if (use) {
			session.served += 1;
			if (session.served >= session.limit) live.delete(token);
		}
		return true;
	};
	const send = async (token: string, row: Row, pacerTurn: () => Promise<void>): Promise<200 | 401> => {
		await pacerTurn();
		const n = sendNo++;
		await clock.sleep(model.toMs(n));
		let status: 200 | 401 = 401;
		if (!serves(token, false)) endedRefusals += 1;
		else if (row.other) ownRefusals += 1;
		else status = serves(token, true) ? 200 : 401;
		await clock.sleep(model.backMs(n));
		return status;
	};
	// As request.ts `sessionServes`: a probe answered 429 is sent again after its Retry-After (1 s here), three tries in all.
	const probeSend = async (token: string, pacerTurn: () => Promise<void>): Promise<'served' | 'refused' | 'unknown'> => {
		for (let tries = 0; ; tries++) {
			const p = probes++;
			await pacerTurn();
			const n = sendNo++;
			await clock.sleep(model.toMs(n) + (model.probeExtraMs?.(p) ?? 0));
			const answer = model.probeAnswer?.(p) ?? 'service';
			let verdict: 'served' | 'refused' | 'unknown';
			if (answer === 'service') verdict = serves(token, model.probeCounts !== false) ? 'served' : 'refused';
			else if (answer === 401) verdict = 'refused';
			else verdict = 'unknown';
			await clock.sleep(model.backMs(n));
			if (answer === 'thrown') throw new Error('ECONNRESET');
			if (answer === 429 && tries + 1 < PROBE_TRIES) {
				await clock.sleep(1_000);
				continue;
			}
			return verdict;
		}
	};
	const capped = (model.intervalMs ?? 0) > 0;
	const execution = async (plan: ExecutionPlan): Promise<ExecutionResult> => {
		if ((plan.startMs ?? 0) > 0) await clock.sleep(plan.startMs ?? 0);
		// One n8n credential for every execution of the run (its id keys the process's logins under way: session.ts `loginsUnderWay`), one per run so that no run sees another's.
		const owner = new SessionOwner({ ...ownerCredentials, sessionToken: stored }, credentialId);
		const mine = { logins: 0, probes: 0, longestItemMs: 0, verdicts: [] as string[] };
		// The pacer (transport/pacer.ts) of this execution, on the simulated clock.
		let lastStart = Number.NEGATIVE_INFINITY;
		let queue: Promise<void> = Promise.resolve();
		const pacerTurn = async (): Promise<void> => {
			const interval = model.intervalMs ?? 0;
			if (interval <= 0) return;
			const turn = queue.then(async () => {
				const due = lastStart + interval - clock.now;
				if (due > 0) await clock.sleep(due);
				lastStart = clock.now;
			});
			queue = turn.catch(() => undefined);
			await turn;
		};
		const ownLogin = async () => {
			mine.logins += 1;
			return await login();
		};
		const item = async (row: Row): Promise<'ok' | 'failed'> => {
			const began = clock.now;
			const end = (outcome: 'ok' | 'failed') => {
				mine.longestItemMs = Math.max(mine.longestItemMs, clock.now - began);
				return outcome;
			};
			const probe = (used: string): SessionProbe | undefined =>
				model.probe === false
					? undefined
					: async () => {
							mine.probes += 1;
							return await probeSend(used, pacerTurn);
						};
			return end(await asRequest(owner, { send: async (token) => await send(token, row, pacerTurn), login: ownLogin, capped, pacerTurn, probe, reread, sleep: clock.sleep, verdicts: mine.verdicts }));
		};
		const outcomes: Array<'ok' | 'failed'> = new Array(plan.rows.length);
		let next = 0;
		const worker = async () => {
			while (next < plan.rows.length) {
				const index = next++;
				outcomes[index] = await item(plan.rows[index]);
			}
		};
		await Promise.all(Array.from({ length: plan.concurrency }, worker));
		const failed = outcomes.flatMap((outcome, index) => (outcome === 'failed' ? [index] : []));
		return { failed, wrong: failed.filter((index) => !plan.rows[index].other), ...mine, endMs: clock.now };
	};
	const executions = await clock.run(Promise.all(plans.map(execution)), model.limitMs);
	return { logins, probes, timeMs: clock.now, ownRefusals, endedRefusals, executions };
}

export const rowsOf = (count: number, other: (index: number) => boolean): Row[] => Array.from({ length: count }, (_, index) => ({ other: other(index) }));
export const otherIndexes = (rows: Row[]) => rows.flatMap((row, index) => (row.other ? [index] : []));
export const fixed = (ms: number) => () => ms;

/** How one request meets the session owner (`asRequest`): its send, the login, the pacer under a cap, the probe after a 401. */
export interface RequestIo {
	send: (token: string) => Promise<200 | 401>;
	login: () => Promise<string>;
	/** Under a cap the login takes a turn of its own (request.ts `sendLoggingIn`). */
	capped?: boolean;
	pacerTurn?: () => Promise<void>;
	probe?: (tokenUsed: string) => SessionProbe | undefined;
	reread: () => Promise<ICredentialDataDecryptedObject>;
	sleep: (ms: number) => Promise<void>;
	/** Each verdict of `expired`, in order. */
	verdicts?: string[];
	/** After a 2xx with `token` (before the next request). */
	onServed?: (token: string) => void;
}

/**
 * One request as transport/request.ts drives the session owner: the held token and a ticket (or
 * the one login, its request sent with the new token), `authorised` for a 2xx, `expired` with the
 * probe for a 401, sent again while the verdict says so. 'failed' when the 401 is final.
 */
export async function asRequest(owner: SessionOwner, io: RequestIo): Promise<'ok' | 'failed'> {
	const refusals = { renewed: false };
	for (;;) {
		const held = await owner.current();
		if (typeof held !== 'string') throw new Error('login failure');
		let tokenUsed: string;
		let ticket: number;
		let status: 200 | 401;
		if (held !== '') {
			tokenUsed = held;
			ticket = owner.ticket();
			status = await io.send(held);
			owner.returned(ticket);
		} else {
			const turn = owner.tryLead();
			if (!turn) continue;
			if (io.capped === true) {
				await io.pacerTurn?.();
				tokenUsed = await io.login();
				turn.succeeded(tokenUsed);
				ticket = owner.ticket();
				status = await io.send(tokenUsed);
				owner.returned(ticket);
			} else {
				tokenUsed = await io.login();
				status = await io.send(tokenUsed);
				turn.succeeded(tokenUsed);
				ticket = owner.ticket();
				owner.returned(ticket);
			}
		}
		if (status === 200) {
			owner.authorised(tokenUsed, ticket);
			io.onServed?.(tokenUsed);
			return 'ok';
		}
		const verdict = await owner.expired(tokenUsed, io.reread, io.sleep, refusals, ticket, io.probe?.(tokenUsed));
		if (typeof verdict !== 'string') throw new Error('login failure');
		io.verdicts?.push(verdict);
		if (verdict === 'final') return 'failed';
		if (verdict === 'renewed') refusals.renewed = true;
	}
}
