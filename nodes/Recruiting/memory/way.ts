/**
 * A row's way through the memory: the one sequence of memory calls that Create or Update makes for
 * a row it syncs or forgets (actions/candidate/upsert.operation.ts, upsert/memoryActions.ts), that
 * its dry run makes on a copy (upsert/dryRun.ts) and that the whole-memory simulation drives with
 * a simulated service (test/sim/memory.ts). The node gives the steps that speak to the service and
 * build outputs; the decisions on the memory are made here alone.
 *
 * | the row | memory | then |
 * |---|---|---|
 * | a recalled slug under a key this process holds another row's creation under (Match By switched: `heldUnderOther`) | nothing | refused `held` |
 * | its slug known, nothing new | (the caller remembered) | settled, with its content when all of it is known |
 * | a manual run holds it back (`heldBack`) | nothing | its output |
 * | no slug; this process holds its creation under its other key | nothing | refused `held` |
 * | no slug | `admit` | `same`: unchanged without its slug; `create`: sent; else refused with why (`held` under its other key) |
 * | sent and answered | (the caller remembered) | settled, with its content when all of it went through |
 * | failed, with the slug of a candidate (a record failed) | (the caller remembered) | settled without content |
 * | a creation that failed and may exist (no answer) | `unanswered`, `holdUnder` its other keys | held in this process, "may already exist" elsewhere, under each of its keys |
 * | a creation that failed and does not exist (refused, or never sent) | `unclaim` | the next run creates it |
 *
 * Adopt Given Slugs (`adoptThroughMemory`) and Forget Each Input Row (`forgetWithTwins`) take their own way, below.
 */
import type { Admission, MemoryRows } from './rows';

/** The memory a row's way goes through (`CandidateMemory`, index.ts). */
type WayMemory = MemoryRows & {
	holdUnder: (keys: readonly string[], row: string) => void;
	heldUnderOther: (key: string) => boolean;
	heldForOthers: (key: string, keys: readonly string[]) => boolean;
	heldUnderOthersOf: (key: string) => string[];
	letGoOther: (key: string, keys: readonly string[]) => void;
	follow: (key: string, aliases: readonly string[]) => void;
};

/** A row on its way: its memory key, its keys under the identifiers it is not matched by, the slug known for it, its content print. */
export interface RowOnItsWay {
	key: string;
	aliases: readonly string[];
	slug: string | undefined;
	content: string;
	/** Whether the slug was given with the row (Candidate Slug), not recalled by the memory. */
	slugGiven: boolean;
	/** Its slug known and nothing new to send (no profile change, no record not sent before). */
	nothingNew: boolean;
}

/** What a send gave: the output, and whether all of it went through (its content is then the row's). */
export interface Sent<T> {
	output: T;
	clean: boolean;
}

/** A send that failed: the error to throw, whether it came with the slug of a candidate, and whether a creation of unknown outcome went out. */
export interface SendFailed {
	error: Error;
	slugGiven: boolean;
	mayExist: boolean;
}

export type Refusal = Exclude<Admission, 'create' | 'same'>;

/** The steps of a row's way that are the node's (the service, the outputs); each that remembers a slug does it through `remember`. */
export interface WaySteps<T> {
	/** Its slug known, nothing new: the output (remembered by the step). */
	unchanged: () => Sent<T>;
	/** A run that holds the row back before anything is sent (a manual run): its output; undefined: not held back. */
	heldBack?: () => T | undefined;
	/** Known without its slug and sent before with this very content. */
	same: () => T;
	/** The error of a row the memory refuses. */
	refused: (why: Refusal) => Error;
	/** The creation (no slug) or the update: the output (remembered by the step). */
	send: () => Promise<Sent<T>>;
	/** What a failed send says (a slug it gave is remembered by this step). */
	failed: (error: unknown) => SendFailed;
}

/** Syncs one row through the memory (the table above). Call it in the row's turn (`inTurn`). */
export async function throughMemory<T>(memory: WayMemory, row: RowOnItsWay, steps: WaySteps<T>): Promise<T> {
	// A creation of a row with this key as its other key (Match By switched) got no answer in this process: what the memory
	// recalls under this key is not taken as its candidate (another person sharing the phone, one forgotten by hand).
	if (!row.slugGiven && row.slug !== undefined && memory.heldUnderOther(row.key)) throw steps.refused('held');
	if (row.slug !== undefined && row.nothingNew) {
		const { output, clean } = steps.unchanged();
		memory.settled([row.key], clean ? row.content : undefined, false);
		return output;
	}
	const heldBack = steps.heldBack?.();
	if (heldBack !== undefined) return heldBack;
	if (row.slug === undefined) {
		// A creation of this row under its other key got no answer in this process: held under this key too.
		if (row.aliases.some((alias) => memory.held(alias, true))) throw steps.refused('held');
		const admitted = await memory.admit(row.key, row.content);
		if (admitted === 'same') return steps.same();
		// Held under this, its other key, unless the claim there went (forgotten meanwhile, in any process: `create`).
		if (admitted !== 'create') throw steps.refused(memory.heldUnderOther(row.key) ? 'held' : admitted);
	}
	// The step remembers the row under its other keys too: they are claimed there as its key is, after a Forget here too.
	memory.follow(row.key, row.aliases);
	const sent = await steps.send().catch(async (error: unknown) => {
		const failure = steps.failed(error);
		if (failure.slugGiven) memory.settled([row.key], undefined, true);
		else if (row.slug === undefined && failure.mayExist) {
			memory.unanswered(row.key);
			memory.holdUnder(row.aliases, row.key);
		}
		// Refused before anything was created: the row may be created in a later run.
		else if (row.slug === undefined) await memory.unclaim(row.key);
		throw failure.error;
	});
	memory.settled([row.key], sent.clean ? row.content : undefined, true);
	return sent.output;
}

/**
 * What was sent for a row whose Sync State is given with its slug: what the state says, and the records this memory knows it
 * added to that very candidate (a state one run old, or a row given twice with the same state, does not post them again).
 * Sync Rows (upsert.operation.ts `knownOf`) and Adopt Given Slugs (`adoptThroughMemory`) take a given state so.
 */
export function givenState(remembered: { s?: string; r?: string[] } | undefined, slug: string, given: { p?: string; r?: string[] }): { p?: string; r: string[] } {
	const added = remembered?.s === slug ? (remembered.r ?? []) : [];
	return { p: given.p, r: [...new Set([...(given.r ?? []), ...added])] };
}

/** A row given its candidate's slug (Adopt Given Slugs), with its prints as the memory keeps them. */
export interface RowToAdopt {
	key: string;
	aliases: readonly string[];
	slug: string;
	/** Its content print (as `settled` keeps it) and its profile's print. */
	content: string;
	profile: string;
	/** What a candidate that holds the row's content holds: its profile's field prints and its records' prints. */
	whole: readonly string[];
	/** Its records: the print kept once one is added, and the one kept while its post is of unknown outcome. */
	records: ReadonlyArray<{ print: string; unknown: string }>;
	/** What its Sync State says was sent: then that decides. */
	given?: { p?: string; r?: string[] };
}

/**
 * How a row was adopted: by its Sync State; as the candidate this memory knew it as (its records of unknown outcome `marked`
 * as added); after a creation of it from this process got no answer (its records of unknown outcome); as sent before with
 * this very content (n8n's store says so: the candidate holds it); or changed since (its records taken as added).
 */
export interface Adoption {
	how: 'given' | 'known' | 'held' | 'same' | 'changed';
	entry: { p?: string; r?: string[] };
	marked: number;
}

/** Adopt Given Slugs' memory part: the slug remembered under the row's keys with what its candidate is taken to hold. Call it in the row's turn. */
export async function adoptThroughMemory(memory: WayMemory, row: RowToAdopt): Promise<Adoption> {
	const known = memory.recall(row.key);
	const prints = (which: 'print' | 'unknown') => [...new Set(row.records.map((record) => record[which]))];
	let adoption: Adoption;
	if (row.given) adoption = { how: 'given', entry: givenState(known, row.slug, row.given), marked: 0 };
	else if (known?.s === row.slug) {
		// Only records whose post got no answer: one the service refused, or never sent, stays to be sent.
		const held = new Set(known.r ?? []);
		const present = row.records.filter((record) => held.has(record.unknown));
		const unknown = new Set(present.map((record) => record.unknown));
		adoption = { how: 'known', entry: { p: known.p, r: [...new Set([...(known.r ?? []).filter((print) => !unknown.has(print)), ...present.map((record) => record.print)])] }, marked: present.length };
	} else if (memory.held(row.key, true) || memory.heldUnderOther(row.key) || row.aliases.some((alias) => memory.held(alias, true))) {
		// This process sent the row's creation without an answer: if that made this candidate, none of its records went out; if the
		// candidate came from elsewhere, it may hold them. Neither is known: its records are of unknown outcome.
		adoption = { how: 'held', entry: { r: prints('unknown') }, marked: 0 };
	} else if (await memory.sentAs(row.key, row.content)) {
		// The row's content is the one last sent in full (n8n's store says so): the candidate holds it.
		adoption = { how: 'same', entry: { p: row.profile, r: [...new Set(row.whole)] }, marked: 0 };
	} else {
		// Changed since (or never sent in full): its records are taken as added (posting them again would add them twice), its profile is sent by the next run.
		adoption = { how: 'changed', entry: { r: prints('print') }, marked: 0 };
	}
	const keys = [row.key, ...row.aliases];
	memory.follow(row.key, row.aliases);
	for (const key of keys) {
		memory.remember(key, { s: row.slug, ...adoption.entry });
		// Its own hold there goes; another row's (a person sharing the phone, held after a creation without an answer) stays.
		memory.letGoOther(key, keys);
	}
	memory.follow(row.key, row.aliases);
	if (!row.given && known?.s !== row.slug && adoption.entry.p !== undefined) memory.settled([row.key], row.content, false);
	return adoption;
}

/**
 * Forget Each Input Row's memory part: the row's key, and the same candidate kept under its other
 * e-mail or phone (for a switch of Match By); without a slug, the other keys given of a row this process
 * holds, but one where it knows another candidate (its hold under a key no longer its own goes, that key's
 * claim stays). True when the memory knew the row under any of them.
 */
export async function forgetWithTwins(memory: WayMemory, key: string, given: readonly string[]): Promise<{ slug: string | undefined; known: boolean }> {
	// Its other keys as given, and those this process holds it under (the phone it had when its creation went out without an answer).
	const aliases = [...new Set([...given, ...memory.heldUnderOthersOf(key)])];
	const slug = memory.recall(key)?.s;
	// Without a slug here: a row held here under this key holds its other keys too (`holdUnder`), or it was held under the other
	// key; those go, but one under which this memory knows another candidate (sharing the phone), whose hold alone goes. An other
	// key that holds another row's creation of unknown outcome (a person sharing the phone) stays, with that hold.
	const held = memory.held(key, true);
	const mine = [key, ...aliases];
	const twins: string[] = [];
	for (const alias of aliases) {
		const there = memory.recall(alias)?.s;
		// A key it is held under that is not given as its own (its phone then, since corrected): its hold goes, its claim stays (another
		// process's row may count on it: n8n's store cannot say whose a claim is).
		const twin = slug ? there === slug : given.includes(alias) && (held || memory.held(alias, true)) && there === undefined;
		if (twin && !memory.heldForOthers(alias, mine)) twins.push(alias);
		else memory.letGoOther(alias, mine);
	}
	let known = await memory.forget(key);
	for (const alias of twins) known = (await memory.forget(alias)) || known;
	return { slug, known };
}
