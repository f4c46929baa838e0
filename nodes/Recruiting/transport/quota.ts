/**
 * Concurrency Mode Auto, the quotas the service announced (`rateHeaders.ts`): every policy it
 * names (a burst policy and a daily one), each honoured on its own; a request goes when every
 * policy lets it, so the tightest spent one decides. Whatever the service counts with (a token
 * bucket, a fixed window, a sliding window), per policy:
 * - what remains: the last answer's remaining, less the requests still on the wire that were
 *   sent after the answered one (the service had not counted them; they will spend theirs) and
 *   those waiting for their turn, less each request sent since. An answer to a request sent
 *   before a newer answer's, or before the last reset passed, tells of the past: not read;
 * - the log of sends: never more than `limit` requests within any window (and `MARGIN_MS`).
 *   Each request is logged when it was answered (the service counted it by then, however late it
 *   reached the service on a busy machine; one still on the wire, when it was sent). When an answer says the service counted more
 *   in its window than the log holds (another client, a login n8n sent along with a request, a
 *   run before), the missing ones are logged so that they leave the window at the reset
 *   announced (without one: as if sent now). The log alone holds under each way of counting (a
 *   fixed window is a window too; a bucket of `limit` refilled over the window is never emptied
 *   by it), so once the quota is spent the next request goes when the oldest logged one leaves
 *   the window: no burst at a window's edge beyond what left it, and a reset announced in whole
 *   seconds (up to a second late) or meaning "one more" (a sliding window) holds nothing longer;
 * - the reset, for a quota the log cannot hold (over `MAX_LOG`): when what remains is spent,
 *   nothing more goes until the reset announced (the earliest any answer of this window gave),
 *   then one window ÷ limit apart, not in a burst; without a reset, as it refills at the
 *   policy's rate.
 * No wait for a turn is longer than the bound of one wait (30 s, `MAX_HOLD_MS`, unless raised):
 * a quota spent for longer holds the run that long, then one request goes first (`controller.ts`).
 *
 * The window: the policy's `w` when said; else (X-RateLimit, which sends none) the longest reset
 * seen in this window and the last, in whole seconds (`windowEstimate`), at least a second.
 */
import { MAX_HOLD_MS } from './law';
import type { Announced } from './rateHeaders';
import { HEADER_BOUNDS, MAX_POLICIES } from './rateHeaders';

/** A policy's own sends are remembered up to this many (a larger quota is kept by what remains alone). */
const MAX_LOG = 4096;

/** A request goes at least this long after the one it replaces left the window (logged at its answer, which came after the service counted it). */
const MARGIN_MS = 5;

interface Policy {
	limit: number;
	windowS: number;
	/** What remains for this node (may be negative: requests waiting for their turn). */
	left: number;
	/** When `left` was last set by an answer or a reset (ms). */
	at: number;
	/** When what was announced as spent is whole again (ms; -Infinity: no reset announced). */
	resetAt: number;
	/** Answers to requests sent before this are of a past window. */
	staleBefore: number;
	/** When the request of the answer last read was sent. */
	heardSentAt: number;
	/** The longest reset seen since the last reset passed, and before it (X-RateLimit: the window's estimate, from both). */
	longestReset: number;
	longestBefore?: number;
	/** A reset read as it came, and when its request was sent (the service wrote it after that): a reset that runs down a thousand times faster than the clock is in milliseconds. */
	lastReset?: { value: number; sentAt: number };
	/** How many answers showed the reset running down that fast (from the second on, it is read as milliseconds). */
	fastResets: number;
	/** The service served the look after a hold this policy made longer than the bound: its resets are not read (until shown to be in ms). */
	resetsWrong?: boolean;
	/** When this node's last requests were sent, oldest first, at most min(limit, MAX_LOG). */
	sends: number[];
	/** When the requests that took their turn and are not sent yet are due, oldest first. */
	due: number[];
}

/** Adds `at` to a list kept in time order; forgets the oldest beyond `max`. */
function insert(list: number[], at: number, max: number): void {
	let index = list.length;
	while (index > 0 && list[index - 1] > at) index -= 1;
	list.splice(index, 0, at);
	if (list.length > max) list.shift();
}

/** A reset above this many seconds may be milliseconds; a smaller one is taken as seconds (a sliding window's "one more" can fall at once from its window's length to 0). */
const SECONDS_PLAUSIBLE = 120;

/**
 * A reset in seconds. Some services write X-RateLimit-Reset in milliseconds (42000 for 42 s),
 * which reads as 11.7 hours: once two answers show it running down more than 50 times faster
 * than the clock (the compared one above `SECONDS_PLAUSIBLE`), it is read as milliseconds, and
 * what was learned from it before (the window, the reset) is forgotten. The clock that counts is the time since the compared reading's
 * request was sent (at least 200 ms): the service wrote that reading after the send, and this
 * one before now, so a reset in seconds falls by at most that time and a second for its rounding,
 * however slow or out of order the answers come. Until then the quota holds the run as read, at
 * most 30 s at a time, and the request that looks after each hold goes whatever it says.
 */
function inSeconds(policy: Policy, value: number | undefined, sentAt: number, now: number): number | undefined {
	if (value === undefined) return undefined;
	const last = policy.lastReset;
	const passedS = last === undefined ? 0 : (now - last.sentAt) / 1000;
	if (policy.fastResets < 2 && last !== undefined && last.value > SECONDS_PLAUSIBLE && passedS >= 0.2 && last.value - value > 50 * passedS + 3) {
		policy.fastResets += 1;
		if (policy.fastResets === 2) {
			policy.longestReset = 0;
			policy.longestBefore = undefined;
			policy.resetAt = Number.NEGATIVE_INFINITY;
		}
	}
	// Compared later with a reading at least 200 ms older, or with the last one when the reset rose (a new window).
	if (last === undefined || value > last.value || passedS >= 0.2) policy.lastReset = { value, sentAt };
	if (policy.fastResets >= 2) return value / 1000;
	return policy.resetsWrong ? undefined : value;
}

/**
 * The window of a quota that names none (X-RateLimit): the longest reset seen, in whole seconds. Under
 * 2 s it is rounded down (a reset as a Unix time is up to a second late: a one-second window's reads
 * up to 1.99); above, to the nearest (a Unix reset read against the service's clock is exact: a
 * minute's first answer 42.96 s before its end is a window of 43 s, not 42).
 */
function windowEstimate(longestS: number): number {
	return Math.min(HEADER_BOUNDS.maxWindowS, Math.max(1, longestS < 2 ? Math.floor(longestS) : Math.round(longestS)));
}

export interface KeptQuota {
	policies: Array<[string, Policy]>;
}

export class Quota {
	private readonly policies = new Map<string, Policy>();

	/** Requests that took their turn on credit and wait for it: not on the wire yet, they will spend it. */
	private waiting = 0;

	/** The policies that held the look after a hold past the bound (`take` with `look`). */
	private readonly looking = new Set<Policy>();

	/** The sends before any policy was announced (a policy heard first starts its log with them). */
	private readonly early: number[] = [];

	/** The tightest announced rate per second (0: none announced). */
	get perSecond(): number {
		let rate = 0;
		for (const policy of this.policies.values()) {
			const each = policy.limit / policy.windowS;
			if (rate === 0 || each < rate) rate = each;
		}
		return rate;
	}

	/**
	 * An answer's announcements; `others`: the requests still on the wire sent after the one
	 * answered (not counted in its remaining); `sentAt`: when the answered request was sent.
	 */
	heard(readings: Announced[], others: number, sentAt: number, now: number): void {
		for (const reading of readings) {
			const name = reading.policy ?? '';
			let policy = this.policies.get(name);
			if (!policy) {
				if (this.policies.size >= MAX_POLICIES) continue;
				const sends = reading.limit <= MAX_LOG ? this.early.slice(-reading.limit) : [];
				policy = { limit: reading.limit, windowS: 1, left: reading.limit, at: now, resetAt: Number.NEGATIVE_INFINITY, staleBefore: Number.NEGATIVE_INFINITY, heardSentAt: Number.NEGATIVE_INFINITY, longestReset: 0, fastResets: 0, sends, due: [] };
				this.policies.set(name, policy);
			}
			const resetS = inSeconds(policy, reading.resetS, sentAt, now);
			this.roll(policy, now);
			if (resetS !== undefined) policy.longestReset = Math.max(policy.longestReset, resetS);
			policy.windowS = reading.windowS ?? windowEstimate(Math.max(policy.longestReset, policy.longestBefore ?? 0));
			policy.limit = reading.limit;
			// An answer older than one already read, or of a window that has passed, tells of the past.
			if (sentAt < policy.heardSentAt || sentAt < policy.staleBefore) continue;
			policy.heardSentAt = sentAt;
			if (reading.remaining !== undefined) {
				this.counted(policy, policy.limit - reading.remaining, others, resetS, now);
				this.refill(policy, now);
				policy.left = Math.min(policy.limit, reading.remaining - others - this.waiting);
				policy.at = now;
			}
			if (resetS !== undefined) {
				const resetAt = now + resetS * 1000;
				policy.resetAt = policy.resetAt > now ? Math.min(policy.resetAt, resetAt) : resetAt;
			}
		}
	}

	/**
	 * Takes a turn for a request about to be sent: how long it must wait (ms; 0: at once), or
	 * undefined, taking nothing, when that is longer than `maxWaitMs` (the bound of one wait: the
	 * run is held until then, and one request goes first to see whether the service is open:
	 * `look`, it goes at once whatever the quota says).
	 */
	take(now: number, maxWaitMs = MAX_HOLD_MS, look = false): number | undefined {
		if (this.policies.size === 0) return 0;
		let due = now;
		for (const policy of this.policies.values()) due = Math.max(due, this.dueOf(policy, now));
		if (due - now > maxWaitMs) {
			// The request that looks after a hold goes now: the quota as read may be wrong (a reset in other units), the service's answer tells.
			if (!look) return undefined;
			for (const policy of this.policies.values()) if (this.dueOf(policy, now) - now > maxWaitMs) this.looking.add(policy);
			due = now;
		}
		for (const policy of this.policies.values()) {
			policy.left -= 1;
			if (policy.limit <= MAX_LOG) insert(policy.due, due, MAX_LOG);
		}
		const wait = Math.ceil(due - now);
		if (wait > 0) this.waiting += 1;
		return wait;
	}

	/**
	 * The look after a hold was answered. Served with at least half the quota left (a new window,
	 * although a policy held it past the bound), that policy's reset was wrong (in other units,
	 * say): what it learned from its resets (the window, the reset, the log) is dropped and its
	 * resets are no longer read (a malformed value reads as absent), unless later answers show
	 * them in milliseconds. Refused, or served with little left (a token bucket refilled a
	 * little), it was right. Answers whether the look went against a policy's word.
	 */
	looked(served: boolean, now: number): boolean {
		const against = this.looking.size > 0;
		for (const policy of this.looking) {
			if (!served || policy.left < policy.limit / 2) continue;
			policy.resetsWrong = true;
			Object.assign(policy, { longestReset: 0, longestBefore: undefined, resetAt: Number.NEGATIVE_INFINITY, windowS: 1, left: policy.limit, at: now, sends: [] });
		}
		this.looking.clear();
		return against;
	}

	/** A request that waited for its turn (`take` answered more than 0) is on its way now. */
	departed(): void {
		this.waiting = Math.max(0, this.waiting - 1);
	}

	/**
	 * A request was answered now: the service counted it at some time between its send and now,
	 * so its send is logged as of now (on a busy machine a request may reach the service late; a
	 * send logged earlier than the service counted it would let the next one in too soon).
	 */
	answered(sentAt: number, now: number): void {
		const lists = [this.early, ...[...this.policies.values()].filter((policy) => policy.limit <= MAX_LOG).map((policy) => policy.sends)];
		for (const list of lists) {
			const index = list.lastIndexOf(sentAt);
			if (index < 0) continue;
			list.splice(index, 1);
			insert(list, now, MAX_LOG);
		}
	}

	/** A request goes on the wire now: its send is logged at the time it really left (no more its turn's due time). */
	sent(now: number): void {
		if (this.policies.size === 0) {
			insert(this.early, now, MAX_LOG);
			return;
		}
		for (const policy of this.policies.values()) {
			if (policy.limit > MAX_LOG) continue;
			const { due } = policy;
			// Its turn: the latest due by now (a request sent before any turn was taken has none).
			let index = due.length - 1;
			while (index >= 0 && due[index] > now) index -= 1;
			if (index >= 0) due.splice(index, 1);
			insert(policy.sends, now, policy.limit);
		}
	}

	kept(): KeptQuota | undefined {
		return this.policies.size > 0 ? { policies: [...this.policies].map(([name, policy]) => [name, { ...policy, sends: [...policy.sends], due: [] }]) } : undefined;
	}

	resume(kept: KeptQuota, now: number): void {
		for (const [name, policy] of kept.policies.slice(0, MAX_POLICIES)) {
			const copy = { ...policy, sends: [...policy.sends], due: [] };
			this.roll(copy, now);
			this.policies.set(name, copy);
		}
	}

	/** When the policy lets the next request go. */
	private dueOf(policy: Policy, now: number): number {
		this.roll(policy, now);
		this.refill(policy, now);
		const windowMs = policy.windowS * 1000;
		// Never more than `limit` own sends (those due included) within a window (and the margin).
		const { sends, due } = policy;
		// A turn taken but never sent (cancelled) is forgotten after a window.
		while (due.length > 0 && due[0] < now - windowMs) due.shift();
		let logged: number | undefined;
		if (policy.limit <= MAX_LOG && sends.length + due.length >= policy.limit) {
			const all = due.length === 0 ? sends : [...sends, ...due].sort((a, b) => a - b);
			logged = all[all.length - policy.limit] + windowMs + MARGIN_MS;
		}
		// The log holds what the service counted (answers pad it) and every request since: it decides
		// (what remains, less the requests on the wire and waiting, counts some twice in a burst).
		if (policy.limit <= MAX_LOG) return Math.max(now, logged ?? now);
		if (policy.left >= 1) return now;
		const intervalMs = windowMs / policy.limit;
		// A quota too large to log, spent: at the reset announced, then one interval after another; without one, as it refills.
		if (policy.resetAt > now) return policy.resetAt + intervalMs * Math.max(0, Math.floor(-policy.left));
		return policy.at + (1 - policy.left) * intervalMs;
	}

	/**
	 * The service counted `counted` requests in its window: those this node's log does not hold
	 * (another client's, a login n8n sent with the request that needed it, a run before) are
	 * logged so that they leave the window at the reset announced (without one: as sent now), so
	 * the log alone keeps within the quota. `others`: the requests the log holds that the
	 * service had not counted yet (sent after the answered one).
	 */
	private counted(policy: Policy, counted: number, others: number, resetS: number | undefined, now: number): void {
		if (policy.limit > MAX_LOG) return;
		const windowMs = policy.windowS * 1000;
		let own = -others;
		for (const at of policy.sends) if (at > now - windowMs) own += 1;
		const at = resetS === undefined ? now : Math.min(now, now + resetS * 1000 - windowMs);
		for (let missing = counted - own; missing > 0; missing--) insert(policy.sends, at, policy.limit);
	}

	/** A reset that has passed: the policy is whole again (its answers from before are of the past). */
	private roll(policy: Policy, now: number): void {
		if (policy.resetAt === Number.NEGATIVE_INFINITY || policy.resetAt > now) return;
		policy.staleBefore = policy.resetAt;
		policy.resetAt = Number.NEGATIVE_INFINITY;
		// An estimate of the window that proved too long (a reset read against a clock that differed) shrinks: the last two windows' resets make it.
		policy.longestBefore = policy.longestReset;
		policy.longestReset = 0;
		policy.left = Math.max(policy.left, policy.limit - this.waiting);
		policy.at = now;
	}

	/** Without a reset announced, what remains refills at the policy's rate. */
	private refill(policy: Policy, now: number): void {
		if (policy.resetAt !== Number.NEGATIVE_INFINITY) return;
		if (now > policy.at) policy.left = Math.min(policy.limit, policy.left + ((now - policy.at) / 1000) * (policy.limit / policy.windowS));
		policy.at = Math.max(policy.at, now);
	}
}
