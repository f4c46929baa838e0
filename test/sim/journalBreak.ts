/**
 * Helpers for the journalBreak tests (issue 46 item 6, commit b672b2c): slow store profiles (calls
 * of 100–900 ms, so that the journal's lazy path is taken), an execution that prepares rows ahead
 * as the router does (`standing(key, visit, true)`, then `claim` in turn), and what the store's
 * list holds at the end; a process whose check call fails once (before or after its write).
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import type { Decision, Profile } from './claims';
import { decided, Process, Store, World } from './claims';

/** Calls of `low`–`high` ms in all, with less than 1 s between read and write (the timing assumption holds). */
export const slow = (world: World, low: number, high: number): Profile => {
	const span = () => low + (high - low) * world.random();
	return {
		toRead: () => 0.15 * span(),
		gap: () => 0.7 * span(),
		back: () => 0.15 * span(),
	};
};

interface ExecutionOptions {
	inFlight?: number;
	ahead?: number | 'journal';
	stopAfter?: number;
	send?: (key: string) => Promise<boolean>;
	/**
	 * Given: a row whose store call fails fails alone (as the router fails one item) and is counted
	 * here, as is a failed end; without it, a failing call fails the execution.
	 */
	failed?: () => void;
}

/**
 * One execution as Create or Update runs it: rows prepared `ahead` (each asked in the background,
 * `ahead` = true), `inFlight` rows sent at a time (each `claim`ed, then kept when won), the visit's end.
 * `stopAfter`: the execution takes no more rows after this many ms (its end runs).
 */
export async function lookaheadExecution(
	process: Process,
	keys: string[],
	decisions: Decision[],
	options: ExecutionOptions = {},
): Promise<void> {
	await Promise.race([process.killed, runIt(process, keys, decisions, options)]);
}

/** A store error of one row or of the end: counted by `failed` (`quiet`: not counted, as a release after a refusal), else thrown. */
const failedOr =
	(options: ExecutionOptions, quiet: boolean) =>
	(error: unknown): undefined => {
		if (!options.failed) throw error;
		if (!quiet) options.failed();
		return undefined;
	};

async function runIt(
	process: Process,
	keys: string[],
	decisions: Decision[],
	options: ExecutionOptions,
): Promise<void> {
	const journal = process.shared.journal;
	const visit = journal.begin();
	let next = 0;
	let prepared = 0;
	let stopped = false;
	if (options.stopAfter !== undefined) process.world.at(options.stopAfter, () => (stopped = true));
	const window = () => (options.ahead === 'journal' || options.ahead === undefined ? (journal.ahead ?? 100) : options.ahead);
	const prepare = (upTo: number) => {
		for (; prepared <= Math.min(upTo, keys.length - 1); prepared++) journal.standing(keys[prepared], visit, true).catch(() => undefined);
	};
	await Promise.all(
		Array.from({ length: options.inFlight ?? 4 }, async () => {
			while (!stopped && next < keys.length) {
				const index = next++;
				prepare(index + window());
				const key = keys[index];
				// With `failed`, a row whose store call fails fails alone (as the router fails one item); without, the run fails.
				const mine = await journal.claim(key, visit).catch(failedOr(options, false));
				if (mine === undefined) continue;
				if (process.dead) return;
				decided(process, key, mine, decisions);
				if (!mine) continue;
				// The creation (a while at the service), then remembered; refused by the service: released.
				const created = options.send ? await options.send(key) : true;
				if (created) journal.keep(key, visit);
				else await journal.release([key]).catch(failedOr(options, true));
			}
		}),
	);
	if (!process.dead) await journal.end(visit).catch(failedOr(options, false));
}

/** The entries of the store's list that start with `prefix`. */
export const entries = (store: Store, prefix: string): string[] => (store.list ?? []).filter((value) => value.startsWith(prefix));

/** A fast store profile: 5 ms to read, 20 ms to write, 5 ms back. */
export const quick: Profile = { toRead: () => 5, gap: () => 20, back: () => 5 };

/** What a test does around a process's store calls (`hooked`): `call` counts the calls of that kind, from 1. */
export interface Hooks {
	/** Before a record call reaches the store ('before': it fails there, nothing written; 'after': it fails after its write). */
	record?: (values: string[], call: number) => 'before' | 'after' | undefined;
	/** After a record call's write landed. */
	recorded?: (values: string[]) => void;
	/** Before a removal call: true, it fails (nothing taken off). */
	remove?: (values: string[], call: number) => boolean;
	/** After a removal call's write landed. */
	removed?: (values: string[]) => void;
}

/** Process `p0` over `store`, with fast calls and `hooks` on them. */
export function hooked(world: World, store: Store, hooks: Hooks): Process {
	const process = new Process('p0', world, store, quick);
	let [records, removes] = [0, 0];
	process.shared.journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			const asked = values.map(String);
			const when = hooks.record?.(asked, ++records);
			if (when === 'before') throw new Error('connection refused');
			const answer = await store.checkProcessedAndRecord(quick, 'p0', values);
			hooks.recorded?.(asked);
			if (when === 'after') throw new Error('connection lost after the write');
			return answer;
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => {
			if (hooks.remove?.(values.map(String), ++removes) === true) throw new Error('connection lost');
			await store.removeProcessed(quick, 'p0', values);
			hooks.removed?.(values.map(String));
		},
	});
	return process;
}

/**
 * A process `p0` over a store whose list holds `list`, with fast calls, whose third
 * `checkProcessedAndRecord` (claim, race, then the check) fails: `before` it reaches the store
 * (nothing written: a refused connection) or `after` its write (the write stays, the answer is lost).
 */
export function failingCheck(seed: number, when: 'before' | 'after', list: string[] = ['x']) {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	store.list = list;
	const process = hooked(world, store, { record: (_values, call) => (call === 3 ? when : undefined) });
	return { world, store, speed: quick, process, journal: process.shared.journal };
}

/** A world and a store that holds `list`, with a sleep on the world's time (test/unit/explainBreak.test.ts, asksBreak.test.ts). */
export const setup = (seed: number, list: string[]) => {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	store.list = [...list];
	const sleep = async (ms: number) => await new Promise<void>((resolve) => world.at(ms, resolve));
	return { world, store, sleep };
};

/** `setup`, with `count` quick processes over the store (p0, p1, …): their journals. */
export const room = (seed: number, list: string[], count = 2) => {
	const sim = setup(seed, list);
	return { sim, journals: Array.from({ length: count }, (_, index) => new Process(`p${index}`, sim.world, sim.store, quick).shared.journal) };
};

/** Another process, three minutes later (every asking mark old): was `key` last sent with `print`? */
export async function later(world: World, store: Store, sleep: (ms: number) => Promise<void>, key: string, print: string): Promise<string> {
	await sleep(180_000);
	const other = new Process('q0', world, store, quick).shared.journal;
	const visit = other.begin();
	const answer = await other.explain(key, print);
	await other.end(visit);
	return answer;
}

export { Process, World };
