/**
 * Review of the change "reference lists without the credential, lists in pages, a refusal's
 * reasons shown, a reset in ms, the look after a hold always goes" (pure functions).
 */
import { statusMessage } from '../../nodes/Recruiting/transport/errors';
import { serviceText } from '../../nodes/Recruiting/transport/http';
import { Quota } from '../../nodes/Recruiting/transport/quota';

describe('finding: serviceText recurses forever on a non-JSON body that starts with "{"', () => {
	// A gateway or proxy that cuts a JSON answer, or a template left unrendered: "{" then not JSON.
	it.each(['{"error": "upstream request timeout', '{{ error_message }}', '{ not json }'])('serviceText(%j) answers (a text or nothing) instead of throwing', (body) => {
		let thrown = '';
		try {
			serviceText(body);
		} catch (error) {
			thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
		}
		expect(thrown).toBe('');
	});

	it('statusMessage(502, a cut JSON text, not JSON) is the status message, not a RangeError', () => {
		let message = '';
		try {
			message = statusMessage(502, '{"error": "upstream request timeout', false);
		} catch (error) {
			message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
		}
		expect(message).toMatch(/^The service failed \(HTTP 502\)/);
	});
});

describe('finding: a reset in true seconds is read as milliseconds when two slow answers come back among fast ones', () => {
	/**
	 * 100 requests per 60 s (X-RateLimit, a fixed window, the reset counted where the request came
	 * in: the rate-limit middleware runs before the handler). Two requests take 20 s (the service
	 * under load), and their answers, with a reset 20 s higher than the fast ones', come back
	 * between fast answers 200-300 ms apart. Then the quota is spent: remaining 0, reset 34 s.
	 */
	const heard = (quota: Quota, remaining: number, resetS: number, sentAt: number, now: number) => quota.heard([{ limit: 100, remaining, resetS }], 0, sentAt, now);

	function spentAfter(slowAnswers: boolean): { wait: number | undefined; goNow: number } {
		const quota = new Quota();
		const t0 = 1_000_000;
		// Fast answers: the window started at t0, each answered 20 ms after it was sent.
		let remaining = 60;
		for (let at = 24_000; at <= 25_700; at += 100) {
			const sent = t0 + at - 20;
			quota.sent(sent);
			const resetS = Math.ceil(60 - at / 1000);
			heard(quota, remaining, resetS, sent, t0 + at);
			quota.answered(sent, t0 + at);
			remaining = Math.max(1, remaining - 1);
			// Two answers of requests sent 20 s earlier (reset 55 and 54 when they came in).
			if (slowAnswers && (at === 24_900 || at === 25_400)) heard(quota, remaining, at === 24_900 ? 55 : 54, t0 + at - 20_000, t0 + at + 50);
		}
		// The quota is spent: the next answer says 0 remain, 34 s to the window's end.
		const now = t0 + 26_000;
		quota.sent(now - 20);
		heard(quota, 0, 34, now - 20, now);
		quota.answered(now - 20, now);
		const wait = quota.take(now + 10);
		// Then, for 5 s, every 10 ms: does the quota let a request go at once (each one sent, and answered "0 remain, reset 34-t")?
		let goNow = 0;
		for (let at = now + 20; at < now + 5000; at += 10) {
			if (quota.take(at) !== 0) continue;
			goNow += 1;
			quota.sent(at);
			heard(quota, 0, Math.ceil(34 - (at - now) / 1000), at, at + 20);
			quota.answered(at, at + 20);
		}
		return { wait, goNow };
	}

	it('the spent quota (0 remain, 34 s to the reset) lets nothing go in the next 5 s, as it does without the slow answers', () => {
		const control = spentAfter(false);
		const slow = spentAfter(true);
		const line = `without slow answers: take → ${String(control.wait)} (a hold), ${control.goNow} sent in 5 s; with two slow answers: take → ${String(slow.wait)} ms, ${slow.goNow} sent in 5 s`;
		expect({ line, wait: slow.wait, goNow: slow.goNow }).toEqual({ line, wait: control.wait, goNow: control.goNow });
	});
});

describe('the look after a hold served on a quota whose reset is in true seconds (a bucket that refills: the reset is the time until it is full)', () => {
	/**
	 * 10 requests per 2 minutes, a token bucket (one back every 12 s), X-RateLimit-Reset = seconds
	 * until the bucket is full. The run spends it in 10 s; the log holds the next request until
	 * 120 s (past the bound: the run is held 30 s); the look goes at 40 s and is served (the bucket
	 * refilled 3). Then, requests as the quota lets them go for 60 s more, each answered by the bucket.
	 */
	function afterLook(forget: boolean) {
		const quota = new Quota();
		const t0 = 5_000_000;
		let tokens = 10;
		let at = t0;
		const serve = (sentAt: number, now: number): boolean => {
			tokens = Math.min(10, tokens + (now - at) / 12_000);
			at = now;
			const ok = tokens >= 1;
			if (ok) tokens -= 1;
			quota.heard([{ limit: 10, remaining: Math.floor(tokens), resetS: Math.ceil((10 - tokens) * 12) }], 0, sentAt, now);
			quota.answered(sentAt, now);
			return ok;
		};
		for (let i = 0; i < 10; i++) {
			const sent = t0 + i * 1000;
			expect(quota.take(sent)).toBe(0);
			quota.sent(sent);
			serve(sent, sent + 20);
		}
		const held = quota.take(t0 + 9_100);
		const look = t0 + 40_000;
		const lookWait = quota.take(look, 30_000, true);
		quota.sent(look);
		const served = serve(look, look + 20);
		// forget: as the change does (the look was served: resets not read); else as if the look told nothing.
		quota.looked(forget && served, look + 20);
		let turns = 0;
		let refused = 0;
		let now = look + 30;
		while (now < look + 60_000) {
			const wait = quota.take(now, 30_000);
			if (wait === undefined) {
				now += 1000;
				continue;
			}
			const sent = now + wait;
			quota.sent(sent);
			turns += 1;
			if (!serve(sent, sent + 20)) refused += 1;
			now = sent + 10;
		}
		return { held, lookWait, served, turns, refused };
	}

	it('after the look is served, the quota keeps within the bucket: fewer than 3 of its turns in the next 60 s are refused', () => {
		const change = afterLook(true);
		const kept = afterLook(false);
		const line = `before the look: take → ${String(change.held)}; the look: wait ${String(change.lookWait)}, served ${change.served}; in the next 60 s the quota gave ${change.turns} turns, the bucket refused ${change.refused} (keeping what it learned: ${kept.turns} turns, ${kept.refused} refused)`;
		expect({ line, refusedFew: change.refused < 3 }).toEqual({ line, refusedFew: true });
	});
});
