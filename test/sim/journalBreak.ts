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
	const speed = quick;
	const process = new Process('p0', world, store, speed);
	const journal = process.shared.journal;
	let call = 0;
	journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) => {
			call += 1;
			if (when === 'before' && call === 3) throw new Error('connection refused');
			const answer = await store.checkProcessedAndRecord(speed, 'p0', values);
			if (when === 'after' && call === 3) throw new Error('connection lost after the write');
			return answer;
		},
		removeProcessed: async (values: DeduplicationItemTypes[]) => await store.removeProcessed(speed, 'p0', values),
	});
	return { world, store, speed, process, journal };
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

export { Process, World };
