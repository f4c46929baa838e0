/**
 * A deterministic simulation of the creation journal's claims (nodes/Recruiting/memory/journal.ts)
 * over a model of n8n's deduplication store (n8n/dist/deduplication/deduplication-helper.js):
 * each call reads the scope's row (`findOne`), then, a while later, writes the whole list it read
 * with its change (`update`; an `INSERT` when there was no row, which fails when another call
 * inserted first; an update of a row deleted meanwhile changes nothing). No lock: a call that read
 * before another's write and writes after it drops that write (a lost update), and brings back
 * what was removed meanwhile.
 *
 * Time is simulated: every wait of the journal (`sleep`), every read and write of the store, is an
 * event on one simulated clock. A seeded random generator draws each call's delays from its
 * process's profile (so processes can be slow, and a call can stall longer than any wait) and
 * breaks ties, so the seed alone decides the order of everything: a failing seed replays exactly
 * (`CLAIMS_SEED=<seed> npx jest test/unit/claimsSimulation.test.ts`).
 */
import type { DeduplicationItemTypes, IDeduplicationOutput } from 'n8n-workflow';

import type { Clock } from '../../nodes/Recruiting/memory/clock';
import type { Standing } from '../../nodes/Recruiting/memory/journal';
import { MIN_WAIT_MS } from '../../nodes/Recruiting/memory/storeCalls';
import { Shared } from '../../nodes/Recruiting/memory/registry';
import { mulberry32 } from '../sandbox/faults';
import { setting, settled } from './host';

interface Event {
	at: number;
	rank: number;
	fire: () => void;
}

/** The simulated clock: events in time order, ties in a seeded order. */
export class World {
	now = 0;

	readonly random: () => number;

	private events: Event[] = [];

	/** The store of the run (set by the scenario's runner). */
	store?: Store;

	/** Every store call's read and write, in order (for a failing seed's report). */
	readonly trace: string[] = [];

	constructor(readonly seed: number) {
		this.random = mulberry32(seed);
	}

	at(delay: number, fire: () => void): void {
		this.events.push({
			at: this.now + Math.max(0, delay),
			rank: this.random(),
			fire,
		});
	}

	/** A clock for one process (the journal's waits and its jitter come from the world). */
	clock(): Clock {
		return {
			now: () => this.now,
			elapsed: () => this.now,
			sleep: async (ms: number) => await new Promise<void>((resolve) => this.at(ms, resolve)),
			random: () => this.random(),
		};
	}

	/** Runs until `done` settles: each step lets every pending promise run, then fires the next event. */
	async run<T>(done: Promise<T>, limit = 200_000): Promise<T> {
		let finished = false;
		let failure: unknown;
		let result: T | undefined;
		done.then(
			(value) => {
				finished = true;
				result = value;
			},
			(error: unknown) => {
				finished = true;
				failure = error;
			},
		);
		for (let steps = 0; ; steps++) {
			await settled();
			if (finished) break;
			if (steps > limit) throw new Error(`seed ${this.seed}: no end after ${limit} events`);
			if (this.events.length === 0) throw new Error(`seed ${this.seed}: nothing left to happen, but the run did not end`);
			let next = 0;
			for (let index = 1; index < this.events.length; index++) {
				const [a, b] = [this.events[index], this.events[next]];
				if (a.at < b.at || (a.at === b.at && a.rank < b.rank)) next = index;
			}
			const [event] = this.events.splice(next, 1);
			this.now = event.at;
			event.fire();
		}
		if (failure !== undefined) throw failure;
		return result as T;
	}
}

/** How a process's calls behave: delays in simulated ms. */
export interface Profile {
	/** Before the read (the call reaches the database). */
	toRead: () => number;
	/** Between its read and its write (`entries`: the size of the list it read, as n8n counts it). */
	gap: (entries?: number) => number;
	/** After the write, until the caller has the answer. */
	back: () => number;
}

export const profile = (world: World, scale: number, stall?: { chance: number; ms: number }, pingPong = false): Profile =>
	pingPong
		? // Long gaps, short turnarounds: two such processes keep landing between each other's write and next read.
			{
				toRead: () => scale * 0.2 * world.random(),
				gap: () => scale * (8 + 2 * world.random()),
				back: () => scale * 0.2 * world.random(),
			}
		: {
				toRead: () => scale * (1 + 4 * world.random()),
				gap: () => (stall && world.random() < stall.chance ? stall.ms * (0.5 + world.random()) : scale * (1 + 9 * world.random())),
				back: () => scale * (1 + 4 * world.random()),
			};

/** One scope's row of n8n's `processed_data` (undefined: no row). */
export class Store {
	list: string[] | undefined;

	calls = 0;

	/** Values a write dropped (present before it, absent after) whose call read more than `slowMs` before it wrote: the timing assumption broken. */
	readonly droppedBySlow = new Set<string>();

	/** When each value in `droppedBySlow` was first dropped. */
	readonly droppedBySlowAt = new Map<string, number>();

	/** Claims and races a removal call took off the list (there when it read them): by which process, when it wrote. */
	readonly claimsRemoved: Array<{ value: string; who: string; at: number }> = [];

	/**
	 * Claims a record call wrote fresh (not there when it read: the process found the row's claim gone): by which process, when
	 * it wrote, and whether the call carried the row's race too (`check`: a contest's check writing back a claim a lost update
	 * dropped, not the ask that begins a contest).
	 */
	readonly claimsWritten: Array<{ value: string; who: string; at: number; check: boolean }> = [];

	/** Contests' checks (a record call carrying a row's race and claim together): the row's claim, by which process, when it wrote. */
	readonly checks: Array<{ value: string; who: string; at: number }> = [];

	/**
	 * Entries the list stands for beyond its own values while it holds `PAD` (a list of 100,000 rows and more, as a user's
	 * journal holds them): `count` says so, and so does a call's time (`Profile.gap`). A clear removes them with the list; a
	 * write that read the list before the clear brings them back.
	 */
	padding = 0;

	static readonly PAD = 'pad:rows remembered before';

	/** How many entries n8n counts in a list as read (undefined: no list). */
	size(list: string[] | undefined = this.list): number {
		return list === undefined ? 0 : list.length + (list[0] === Store.PAD ? this.padding : 0);
	}

	/**
	 * `slowMs`: a write whose call read longer ago drops values "slower than every wait" (the stated case); a function of the
	 * size of the list the call read, where every process's wait grows with it (memory/bound.ts).
	 */
	constructor(
		private readonly world: World,
		private readonly slowMs: number | ((entries: number) => number) = MIN_WAIT_MS,
	) {}

	private land(list: string[], readAt: number, removing: string[] = [], readSize = 0): void {
		const slowMs = typeof this.slowMs === 'number' ? this.slowMs : this.slowMs(readSize);
		if (this.world.now - readAt >= slowMs && this.list) {
			const after = new Set([...list, ...removing]);
			for (const value of this.list)
				if (!after.has(value)) {
					this.droppedBySlow.add(value);
					if (!this.droppedBySlowAt.has(value)) this.droppedBySlowAt.set(value, this.world.now);
				}
		}
		this.list = list;
	}

	private step(profile: Profile, work: (read: string[] | undefined) => () => void, label: string): Promise<void> {
		return new Promise<void>((resolve, reject) => {
			this.calls += 1;
			this.world.at(profile.toRead(), () => {
				const read = this.list === undefined ? undefined : [...this.list];
				this.world.trace.push(`${this.world.now.toFixed(1)} read  ${label}`);
				let write: () => void;
				try {
					write = work(read);
				} catch (error) {
					reject(error);
					return;
				}
				this.world.at(profile.gap(this.size(read)), () => {
					this.world.trace.push(`${this.world.now.toFixed(1)} write ${label}`);
					try {
						write();
					} catch (error) {
						this.world.at(profile.back(), () => reject(error));
						return;
					}
					this.world.at(profile.back(), resolve);
				});
			});
		});
	}

	/** A record call's claims, as it lands: its checks (a row's race and claim together), and the claims it wrote afresh. */
	private noteClaims(who: string, asked: string[], fresh: string[]): void {
		const checked = (value: string) => asked.includes(value.replace(/^claim:/, 'race:'));
		for (const value of asked) if (value.startsWith('claim:') && checked(value)) this.checks.push({ value, who, at: this.world.now });
		for (const value of fresh) this.claimsWritten.push({ value, who, at: this.world.now, check: checked(value) });
	}

	/** Values to follow in the trace (CLAIMS_TRACE). */
	follow = (setting('CLAIMS_TRACE') ?? '').split(',').filter(Boolean);

	private label(who: string, kind: string, values: DeduplicationItemTypes[]): string {
		const followed = values.map(String).filter((value) => this.follow.some((key) => value.endsWith(`:${key}`) || value.includes(`:${key}:`)));
		return `${who} ${kind} ${values.length}${followed.length ? ` [${followed.map((v) => v.replace(/:[A-Za-z0-9_-]{8}$/, ':tok')).join(' ')}]` : ''}`;
	}

	async checkProcessedAndRecord(profile: Profile, who: string, values: DeduplicationItemTypes[]): Promise<IDeduplicationOutput> {
		const answer: IDeduplicationOutput = { new: [], processed: [] };
		await this.step(
			profile,
			(read) => {
				if (read === undefined) {
					answer.new.push(...values);
					const inserted = values.map(String);
					return () => {
						if (this.list !== undefined) throw new Error('duplicate key value violates unique constraint');
						this.list = inserted;
						this.noteClaims(who, inserted, inserted.filter((value) => value.startsWith('claim:')));
					};
				}
				const seen = new Set(read);
				const fresh: string[] = [];
				for (const value of values) {
					if (seen.has(String(value))) answer.processed.push(value);
					else {
						answer.new.push(value);
						read.push(String(value));
						if (String(value).startsWith('claim:')) fresh.push(String(value));
					}
				}
				const [readAt, readSize] = [this.world.now, this.size(read)];
				return () => {
					if (this.list === undefined) return;
					this.land(read, readAt, [], readSize);
					this.noteClaims(who, values.map(String), fresh);
				};
			},
			this.label(who, 'record', values),
		);
		return answer;
	}

	async removeProcessed(profile: Profile, who: string, values: DeduplicationItemTypes[]): Promise<void> {
		await this.step(
			profile,
			(read) => {
				if (read === undefined) return () => undefined;
				const [taken, readSize] = [[] as string[], this.size(read)];
				for (const value of values.map(String)) {
					const index = read.indexOf(value);
					if (index !== -1) read.splice(index, 1);
					if (index !== -1 && /^(claim|race):/.test(value)) taken.push(value);
				}
				const readAt = this.world.now;
				return () => {
					if (this.list === undefined) return;
					this.land(read, readAt, values.map(String), readSize);
					for (const value of taken) this.claimsRemoved.push({ value, who, at: this.world.now });
				};
			},
			this.label(who, 'remove', values),
		);
	}

	/** One DELETE: atomic. */
	async clearAllProcessedItems(profile: Profile, who: string): Promise<void> {
		await new Promise<void>((resolve) =>
			this.world.at(profile.toRead(), () => {
				this.world.trace.push(`${this.world.now.toFixed(1)} clear ${who}`);
				this.list = undefined;
				this.world.at(profile.back(), resolve);
			}),
		);
	}
}

/** A simulated n8n process: its own journal (its registry's `Shared`) over the one store. */
export class Process {
	readonly shared: Shared;

	/** Killed: its next store calls never start (a call already started still lands). */
	dead = false;

	private onKill: () => void = () => undefined;

	/** Settles when the process is killed. */
	readonly killed = new Promise<void>((resolve) => (this.onKill = resolve));

	kill(): void {
		this.dead = true;
		this.onKill();
	}

	constructor(
		readonly name: string,
		readonly world: World,
		store: Store,
		readonly speed: Profile,
	) {
		this.shared = new Shared(world.clock());
		const gate = async <T>(work: () => Promise<T>): Promise<T> => {
			if (this.dead) return await new Promise<T>(() => undefined);
			return await work();
		};
		this.shared.journal.use({
			checkProcessedAndRecord: async (values) => await gate(async () => await store.checkProcessedAndRecord(speed, name, values)),
			removeProcessed: async (values) => await gate(async () => await store.removeProcessed(speed, name, values)),
			clearAllProcessedItems: async () => await gate(async () => await store.clearAllProcessedItems(speed, name)),
		});
	}
}

/** A decision of one process on one row, with when it came. */
export interface Decision {
	process: string;
	key: string;
	standing: Standing;
	at: number;
}

/**
 * One execution of a process over `keys`: asks each row before its creation (`inFlight` rows at a
 * time, as the router's concurrency), keeps the rows it won (their candidates were created), then
 * ends its visit of the journal. Stops where the process is killed.
 */
/** Notes what the process's journal decided of a row its execution claimed (`mine`: the claim's answer). */
export function decided(process: Process, key: string, mine: boolean, decisions: Decision[]): void {
	decisions.push({ process: process.name, key, standing: process.shared.journal.answered(key) ?? (mine ? 'mine' : 'taken'), at: process.world.now });
}

export async function execution(process: Process, keys: string[], decisions: Decision[], inFlight = 4): Promise<void> {
	await Promise.race([process.killed, run(process, keys, decisions, inFlight)]);
}

async function run(process: Process, keys: string[], decisions: Decision[], inFlight: number): Promise<void> {
	let next = 0;
	const journal = process.shared.journal;
	const visit = journal.begin();
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < keys.length) {
				const key = keys[next++];
				const mine = await journal.claim(key, visit);
				if (process.dead) return;
				decided(process, key, mine, decisions);
				// The candidate is created (no store call), then remembered.
				if (mine) journal.keep(key, visit);
			}
		}),
	);
	if (!process.dead) await journal.end(visit);
}
