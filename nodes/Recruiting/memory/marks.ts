/**
 * The entries the journal writes in n8n's deduplication store for a row (key: the row's hash),
 * and the epochs of its leases. n8n's store can only be asked whether a value is there by writing
 * it, so each entry is one whose false write (by a process that only asked) is harmless, expires,
 * or is confirmed by a second entry that only the writer writes with it (journal.ts):
 *
 * | entry | written by | means |
 * |---|---|---|
 * | `claim:k` | every process that asks the row | the row is known (or being claimed) |
 * | `race:k`, `own:k:<token>` | a process contesting a new row | Fischer's contest (journal.ts) |
 * | `pending:k`, `pending2:k` | the contest of a new row, in one call | its claim was made by a process that writes `sent:k` before it sends (a claim of 0.2.x has neither) |
 * | `lease:k:<epoch>` | the process holding the claim, until it sends | it is alive; a lease expires with its epoch |
 * | `sent:k` | the holder, before the creation goes out | a creation may have reached the service |
 * | `race:k@<epoch>`, `own:k:<token>@<epoch>` | a process taking over a stranded claim | the contest of that takeover |
 * | `done:k:<print>`, `done2:k:<print>` | a run in which all of the row went through, in one call | the row was sent with this content |
 */
export const EPOCH_MS = 60_000;

/**
 * A holder sends a claimed row without contesting it again only while its last lease is younger
 * than `EPOCH_MS - MARGIN_MS`: another process sees a claim stranded only when no lease of the
 * current or the previous epoch is there, that is at least `EPOCH_MS` after the last one (the
 * margin covers clocks that differ and calls in flight).
 */
export const MARGIN_MS = 20_000;

export const epochAt = (now: number) => Math.floor(now / EPOCH_MS);

export const claimOf = (key: string) => `claim:${key}`;
export const raceOf = (key: string, epoch?: number) => (epoch === undefined ? `race:${key}` : `race:${key}@${epoch}`);
export const ownOf = (key: string, token: string, epoch?: number) => (epoch === undefined ? `own:${key}:${token}` : `own:${key}:${token}@${epoch}`);
export const pendingOf = (key: string) => [`pending:${key}`, `pending2:${key}`] as const;
export const leaseOf = (key: string, epoch: number) => `lease:${key}:${epoch}`;
export const sentOf = (key: string) => `sent:${key}`;
export const doneOf = (key: string, print: string) => [`done:${key}:${print}`, `done2:${key}:${print}`] as const;

/**
 * What the journal can tell of a row known without its slug in this process (journal.ts `explain`):
 * sent with this very content (`same`); its creation sent (`sent`); claimed by a process that is
 * alive and has not sent it (`busy`); claimed by one that ended or died before it sent it
 * (`stranded`: any run may take it over); or a claim of an earlier version (`old`: it may exist).
 */
export type Explained = 'same' | 'sent' | 'busy' | 'stranded' | 'old';
