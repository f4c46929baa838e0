/**
 * A service on nock for the tests of the session probe through n8n's engine
 * (test/unit/sessionProbeBreak.test.ts, test/service/sessionSecondBreak.test.ts): each login issues
 * a new live token (`tok-1`, `tok-2`, …); Update (PUT candidate) answers 401 unless the token is
 * live and the slug is not `refused`; the probe's read `GET /v1/company/api-integrations` is
 * answered by `probeReply`. `endAfterFirst`: the session ends right after serving the first update.
 */
import { sleep } from 'n8n-workflow';
import nock from 'nock';

import type { Harness } from './harness';
import { updateParameters } from './transportLogin';

export type Reply = [number, unknown, Record<string, string>?];

export interface ProbeServiceState {
	issued: number;
	updates: number;
	/** Each probe: the token it was sent with, and whether that session was live. */
	probes: Array<{ token: string; live: boolean }>;
}

export interface ProbeServiceOptions {
	refused?: (slug: string) => boolean;
	endAfterFirst?: boolean;
	probeDelayMs?: number;
	/** The answer to the probe numbered `probe` (from 0), sent with `token`. */
	probeReply: (live: boolean, probe: number, token: string) => Reply;
}

const bearer = (authorization: unknown) => String(authorization).replace(/^Bearer /, '');

export function probeService(base: string, email: string, options: ProbeServiceOptions): ProbeServiceState {
	const live = new Set<string>();
	const state: ProbeServiceState = { issued: 0, updates: 0, probes: [] };
	nock(base)
		.persist()
		.post('/v1/login')
		.reply(() => {
			state.issued += 1;
			const token = `tok-${state.issued}`;
			live.add(token);
			return [200, { message: 'Signed in', status: 200, data: { id: 7, email, token } }];
		})
		.get('/v1/company/api-integrations')
		.delay(options.probeDelayMs ?? 0)
		.reply(function () {
			const token = bearer(this.req.headers.authorization);
			state.probes.push({ token, live: live.has(token) });
			return options.probeReply(live.has(token), state.probes.length - 1, token);
		})
		.put('/gin/v1/company/candidate')
		.reply(function (_uri, body) {
			const token = bearer(this.req.headers.authorization);
			if (!live.has(token) || options.refused?.(String((body as { user_slug?: string }).user_slug)) === true) return [401, { message: 'Not authorized', status: 401 }];
			state.updates += 1;
			// The session ends right after serving the first update (expired on the service's side).
			if (options.endAfterFirst === true && state.updates === 1) live.clear();
			return [200, { message: 'Updated', status: 200 }];
		});
	return state;
}

/**
 * Runs Update over `slugs` one at a time and cancels the execution 300 ms after the first probe
 * reached the service: what had happened by the cancel, and when the run ended.
 */
export async function cancelledAfterFirstProbe(harness: Harness, state: ProbeServiceState, slugs: string[]) {
	const at = { cancelled: 0, logins: -1, probes: -1 };
	const result = await harness.run({
		parameters: updateParameters(1),
		items: slugs.map((slug) => ({ slug })),
		onError: 'continueRegularOutput',
		onStart: (execution) => {
			void (async () => {
				while (state.probes.length < 1) await sleep(5);
				await sleep(300);
				at.cancelled = Date.now();
				at.logins = state.issued;
				at.probes = state.probes.length;
				execution.cancel();
			})();
		},
	});
	return { result, ended: Date.now(), at };
}
