/**
 * A deterministic simulation of one execution's logins (transport/session.ts `SessionOwner`) on a
 * simulated clock and service: the lease / send / `expired` loop of transport/request.ts, with
 * Max Requests per Second (the pacer of transport/pacer.ts). Written by two reviews
 * (test/unit/sessionServedAfterBreak.test.ts, test/unit/sessionRulesBreak.test.ts).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SessionOwner } from '../../nodes/Recruiting/transport/session';
import { sealSessionToken } from '../../nodes/Recruiting/transport/token';
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
			await sleep(0);
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

export interface ServiceModel {
	toMs: (n: number) => number;
	backMs: (n: number) => number;
	/** A session ends after serving this many requests (the last one still served). */
	sessionLimit?: () => number;
	loginMs?: number;
	/** Max Requests per Second as an interval between starts (ms); 0 or undefined: no cap. */
	intervalMs?: number;
}

export interface SimResult {
	logins: number;
	failed: number[];
	wrong: number[];
	ownRefusals: number;
	endedRefusals: number;
	timeMs: number;
	/** For each failed item, how long its last `expired` took (ms). */
	longestExpiredMs: number;
}

export async function simulate(rows: Row[], concurrency: number, model: ServiceModel): Promise<SimResult> {
	const clock = new Clock();
	let stored = '';
	const live = new Map<string, { served: number; limit: number }>();
	let logins = 0;
	let sendNo = 0;
	let ownRefusals = 0;
	let endedRefusals = 0;
	let longestExpiredMs = 0;
	const owner = new SessionOwner({ ...ownerCredentials, sessionToken: '' });
	const reread = async (): Promise<ICredentialDataDecryptedObject> => ({ ...ownerCredentials, sessionToken: stored });
	// The pacer (transport/pacer.ts) on the simulated clock.
	let lastStart = Number.NEGATIVE_INFINITY;
	let queue: Promise<void> = Promise.resolve();
	const pacerTurn = async (): Promise<void> => {
		const interval = model.intervalMs ?? 0;
		if (interval <= 0) return;
		const mine = queue.then(async () => {
			const due = lastStart + interval - clock.now;
			if (due > 0) await clock.sleep(due);
			lastStart = clock.now;
		});
		queue = mine.catch(() => undefined);
		await mine;
	};
	const login = async (): Promise<string> => {
		await clock.sleep(model.loginMs ?? model.toMs(0) + model.backMs(0));
		logins += 1;
		const token = sealSessionToken(ownerCredentials, `tok-${logins}`);
		live.set(token, { served: 0, limit: model.sessionLimit?.() ?? Number.POSITIVE_INFINITY });
		stored = token;
		return token;
	};
	const send = async (token: string, row: Row): Promise<200 | 401> => {
		await pacerTurn();
		const n = sendNo++;
		await clock.sleep(model.toMs(n));
		const session = live.get(token);
		let status: 200 | 401;
		if (!session) {
			endedRefusals += 1;
			status = 401;
		} else if (row.other) {
			ownRefusals += 1;
			status = 401;
		} else {
			session.served += 1;
			if (session.served >= session.limit) live.delete(token);
			status = 200;
		}
		await clock.sleep(model.backMs(n));
		return status;
	};
	const capped = (model.intervalMs ?? 0) > 0;
	const item = async (row: Row): Promise<'ok' | 'failed'> => {
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
				status = await send(held, row);
				owner.returned(ticket);
			} else {
				const turn = owner.tryLead();
				if (!turn) continue;
				if (capped) {
					await pacerTurn();
					tokenUsed = await login();
					turn.succeeded(tokenUsed);
					ticket = owner.ticket();
					status = await send(tokenUsed, row);
					owner.returned(ticket);
				} else {
					tokenUsed = await login();
					status = await send(tokenUsed, row);
					turn.succeeded(tokenUsed);
					ticket = owner.ticket();
					owner.returned(ticket);
				}
			}
			if (status === 200) {
				owner.authorised(tokenUsed, ticket);
				return 'ok';
			}
			const started = clock.now;
			const verdict = await owner.expired(tokenUsed, reread, clock.sleep, refusals, ticket);
			if (typeof verdict !== 'string') throw new Error('login failure');
			if (verdict === 'final') {
				longestExpiredMs = Math.max(longestExpiredMs, clock.now - started);
				return 'failed';
			}
			if (verdict === 'renewed') refusals.renewed = true;
		}
	};
	const outcomes: Array<'ok' | 'failed'> = new Array(rows.length);
	let next = 0;
	const worker = async () => {
		while (next < rows.length) {
			const index = next++;
			outcomes[index] = await item(rows[index]);
		}
	};
	await clock.run(Promise.all(Array.from({ length: concurrency }, worker)));
	const failed = outcomes.flatMap((outcome, index) => (outcome === 'failed' ? [index] : []));
	return { logins, failed, wrong: failed.filter((index) => !rows[index].other), ownRefusals, endedRefusals, timeMs: clock.now, longestExpiredMs };
}

export const rowsOf = (count: number, other: (index: number) => boolean): Row[] => Array.from({ length: count }, (_, index) => ({ other: other(index) }));
export const otherIndexes = (rows: Row[]) => rows.flatMap((row, index) => (row.other ? [index] : []));
export const fixed = (ms: number) => () => ms;
