/**
 * The timing bound of the journal's contests, by the size of the node's list in n8n's deduplication store (contest.ts, the
 * timing assumption). n8n reads and rewrites the whole list on every call, so a call's time grows with the list: about 1.2–1.45 s
 * at 400,000 entries (100,000 rows) on a 2-core machine with PostgreSQL 15 (docs/sync-memory.md). A fixed bound of 1 s then
 * refused every new row as "too slow to be sure".
 *
 * Every process agrees on the bound without a word to the others, through the one thing they all see, the list's size (n8n's
 * `getProcessedDataCount`, its only read that writes nothing):
 * - a call of this process that took `MIN_WAIT_MS` or longer is trusted when it took less than `trustMs` of the size counted
 *   right after it (`StoreCalls.call`): its write landed by then;
 * - every check waits at least `waitFloorMs` of the size this process counted right after its race (`Contest.race`): twice the
 *   trust of a list half as large again. So a process that trusts a call waits longer than any other process trusts, unless the
 *   list grew by half between two counts a few seconds apart (n8n's calls write at most `CHUNK` values each, and take longer
 *   the larger the list).
 *
 * A list that becomes small at once (*Forget All Rows* removes it) while a call that read it before is still under way: its
 * write brings the large list back. A check that finds it again waits it out (`covers`); one that came before that write is
 * the stated limit "a slow call of one process can drop the claims other processes wrote while it ran" (docs/sync-memory.md,
 * "The bound grows with the list"; test/unit/boundBreak.test.ts). Checked by test/unit/memorySimulation.test.ts ("a list of
 * 100,000–600,000 entries") and test/unit/boundSimBreak.test.ts.
 */
/**
 * The shortest wait of every process before its check; a call of its own that takes this long is
 * not trusted, unless the list's size allows more (`trustMs`). 1 s: under the queue scenario's load (8 executions on 2
 * workers and PostgreSQL on 2 cores) calls of 200 ms and more were common enough to refuse 211 of 2,000 new rows.
 */
export const MIN_WAIT_MS = 1_000;

/** The wait before a check is `WAIT_FACTOR` times the longest recent call, within `MIN_WAIT_MS`–`MAX_WAIT_MS`, and at least `waitFloorMs`. */
export const MAX_WAIT_MS = 2_000;
export const WAIT_FACTOR = 3;

/** The bound per entry of the list: 1 s at 200,000 entries, 2 s at 400,000 (calls took up to 1.59 s there). */
export const MS_PER_ENTRY = 0.005;

/** The longest bound: a call that takes longer is never trusted (its rows `unsure`), and no check waits longer for it. */
export const MAX_TRUST_MS = 4_000;

/** How much larger than this process counted it the list of another process's trusted call may be (`waitFloorMs`). */
export const GROWTH = 1.5;

/** How long a call may take and be trusted, for a list of `entries` counted right after it. */
export const trustMs = (entries: number): number => Math.min(MAX_TRUST_MS, Math.max(MIN_WAIT_MS, entries * MS_PER_ENTRY));

/**
 * Above `MIN_WAIT_MS`, a check waits this many times the bound, as the 1-s bound's checks wait 2 s once calls take 0.67 s:
 * calls that long keep old versions of the list alive for a while (a write that read before a race lands after a later read
 * of it). Waits of one bound let the simulation create a row twice (2 of 300 seeds), 1.5 bounds once in 1,000 seeds.
 */
export const WAIT_PER_BOUND = 2;

/** The wait that covers calls trusted up to `bound`: `MIN_WAIT_MS` for the 1-s bound, else `WAIT_PER_BOUND` times it. */
const waitFor = (bound: number): number => (bound > MIN_WAIT_MS ? WAIT_PER_BOUND * bound : MIN_WAIT_MS);

/** The shortest wait of a check, for a list of `entries` counted after the race: twice the bound of a list half as large again. */
export const waitFloorMs = (entries: number): number => waitFor(trustMs(entries * GROWTH));

/**
 * Whether a check `waitedMs` after its race covers the calls trusted over a list of `entries` counted at the check: a list
 * counted small after the race can be large again by the check (a write that read it before a Forget All Rows brings it back,
 * and calls over it are trusted longer), and a row is won only once a wait covered it.
 */
export const covers = (waitedMs: number, entries: number): boolean => waitedMs >= waitFor(trustMs(entries));

/**
 * Values per call when many are written at once: n8n's store puts its whole list in a set, then
 * looks each value up (n8n 1.123.50 and 2.41.1), so a call's cost is its list's size, hardly its
 * values'; fewer calls, each spaced by the longest (`call`), end a large run sooner.
 */
export const CHUNK = 10_000;

/**
 * Values per call when they are taken off: n8n's `removeProcessed` scans the whole list for each
 * one (1,000 values over 400,000 entries: about 4 s between its read and its write, in n8n
 * 2.41.1's `DeduplicationHelper`). 50 keep such a call within about 0.2 s of scanning at that size.
 */
export const REMOVE_CHUNK = 50;

/**
 * Calls that take this long (a list of 100,000 entries and more) make the rows prepared ahead grow
 * and their asks, and the rows' content marks, go in batches (`lazy`): each call costs n8n a read,
 * a set and a rewrite of the whole list, in the worker's own event loop, and one call per
 * prepared row slowed the sending itself. Not sooner: calls of 100–250 ms are common on a busy
 * small list (`npm run queue`), and rows claimed ahead are what a killed worker leaves claimed
 * (sync-kill: 837 rows never created with the growth from 100 ms, 189–346 without).
 */
export const LAZY_FROM_MS = 300;

/**
 * Over a list whose wait is above `MIN_WAIT_MS`, a row is won only at the second check in a row (a whole wait later) that
 * finds its token and claim: with calls of a second and more among four processes, lost updates relayed through the other
 * processes' calls can bring back a version of the list with a contester's token for seconds, and two contesters each
 * found their own (the simulation's large lists: 1 row in 2,000 seeds; docs/sync-memory.md, "Four processes or more"). A
 * second check a whole wait later was the fix tried for that hole at every size (0 in 6,000 seeds), left there for its cost
 * on every first run; on a large list its cost is one wait more per decision.
 */
export const confirms = (entries: number): boolean => waitFloorMs(entries) > MIN_WAIT_MS;
