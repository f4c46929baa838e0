/**
 * The entries the journal writes in n8n's deduplication store for a row (key: the row's hash).
 * n8n's store can only be asked whether a value is there by writing it, so each entry is one whose
 * false write (by a process that only asked) is harmless, or counts only with a second entry that
 * its writer writes in the same call and an asker asks in a call of its own, while no other
 * asker's `asking` mark is there (journal.ts `explain`):
 *
 * | entry | written by | means |
 * |---|---|---|
 * | `claim:k` | every process that asks the row | the row is known (or being claimed) |
 * | `race:k`, `own:c<n>:<token>` | a process contesting new rows (one token per call, for its batch) | Fischer's contest (contest.ts) |
 * | `done:k:<print>`, `done2:k:<print>` | a run in which all of the row went through, in one call | the row was sent with this content |
 * | `asking:k:<minute>` | a process asking about a row whose slug it does not know (`explain`), until it took its false writes off | what another asker reads meanwhile (this minute or the last) may be its false writes: trusted by no one |
 *
 * What is not here, on purpose: a lease that says a claimant is alive. The simulation
 * (test/unit/memorySimulation.test.ts) took over rows whose claimants were alive when the clock
 * of one process jumped or differed: over n8n's store (no lock, no read that does not write, no
 * clock of its own), "this claimant is gone" cannot be told from "this claimant's clock is
 * behind". A claim a killed process never used stays; its row says so, and Forget Each Input Row
 * lets it go (docs/sync-memory.md).
 */
export const claimOf = (key: string) => `claim:${key}`;
export const raceOf = (key: string) => `race:${key}`;
export const ownOf = (key: string, token: string) => `own:${key}:${token}`;
export const doneOf = (key: string, print: string) => [`done:${key}:${print}`, `done2:${key}:${print}`] as const;
export const askingOf = (key: string, minute: number) => `asking:${key}:${minute}`;

/** The minute an asking mark is written under: a mark of an asker that died (or that a lost write brought back) counts for two at most. */
export const minuteAt = (now: number) => Math.floor(now / 60_000);

/**
 * What the journal can tell of a row known without its slug in this process (journal.ts `explain`):
 * sent with this very content (`same`); another asker is reading it at this moment (`busy`); its
 * claim is there and nothing more can be told (`known`: it may exist); or no claim at all any
 * more (`gone`: forgotten or released meanwhile, to be asked afresh).
 */
export type Explained = 'same' | 'busy' | 'known' | 'gone';
