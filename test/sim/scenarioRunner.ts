/**
 * The scenario runner of the journalBreak tests (journalBreakScenarios, journalScheduleBreak): the
 * processes of a scenario, each with its executions (test/sim/journalBreak.ts `lookaheadExecution`),
 * one after another or overlapping; then a later, fast process that asks every row. What it counts:
 * rows won twice, rows kept that the later process wins again (lost), a hang, the `own:` tokens left,
 * rows never kept that the later process still refuses (refused wrongly), rows that failed.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import type { Decision, Profile } from './claims';
import { profile, Store } from './claims';
import { print, setting as hostSetting } from './host';
import { entries, lookaheadExecution, Process, slow, World } from './journalBreak';

const setting = hostSetting as (name: string) => string | undefined;

export const rows = (count: number, tag = 'r') => Array.from({ length: count }, (_, index) => `${tag}${index}`);

export const fast = (world: World) => profile(world, 1);

/** Calls of 0.5–0.7 s, nearly all between read and write: a list of 100,000 remembered rows (n8n parses, looks up and rewrites it in the worker). */
export const largeList = (world: World): Profile => ({ toRead: () => 20, gap: () => 450 + 200 * world.random(), back: () => 20 });

/** Uniform in [low, high), from the world's seeded generator. */
export const between = (world: World, low: number, high: number) => low + (high - low) * world.random();

/** Slow calls (the lazy path): `low`–`high` ms each (test/sim/journalBreak.ts `slow`). */
export const lazy = (low: number, high: number) => (world: World) => slow(world, low, high);

export const shuffled = (world: World, keys: string[]) => {
	const out = [...keys];
	for (let index = out.length - 1; index > 0; index--) {
		const other = Math.floor(world.random() * (index + 1));
		[out[index], out[other]] = [out[other], out[index]];
	}
	return out;
};

/** A record call of n8n's store as the simulation fails it: before it reached the store (nothing written), or after its write. */
export async function recordFaulty(world: World, store: Store, speed: Profile, name: string, faults: Pick<Faults, 'before' | 'after'>, values: DeduplicationItemTypes[]) {
	const roll = world.random();
	if (roll < (faults.before ?? 0)) {
		await new Promise<void>((resolve) => world.at(speed.toRead(), resolve));
		throw new Error('connection refused');
	}
	const answer = await store.checkProcessedAndRecord(speed, name, values);
	if (roll < (faults.before ?? 0) + (faults.after ?? 0)) throw new Error('connection lost after the write');
	return answer;
}

export interface Faults {
	/** Chance a record call fails before it reaches the store (nothing written). */
	before?: number;
	/** Chance a record call fails after its write (the write stays, the answer is lost). */
	after?: number;
}

export interface Run {
	speed: (world: World) => Profile;
	rows: (world: World) => string[];
	faults?: Faults;
	/** Executions of this process, one after another or together. */
	executions?: number;
	overlap?: boolean;
	/** Chance an execution is stopped during its batches (takes no more rows after 300–3,300 ms). */
	stop?: number;
	/** The process starts within this many ms. */
	delay?: number;
	/** Chance a creation is refused by the service (the row is released). */
	refuse?: number;
	/** Rows in flight (default: 1–4, drawn per execution). */
	inFlight?: number;
}

export interface Scenario {
	name: string;
	runs: Run[];
}

export interface Outcome {
	twice: string[];
	lost: string[];
	hang?: string;
	tokens: string[];
	refusedWrongly: string[];
	rows: number;
	failedRows: number;
	decisions: number;
}

export interface RunnerOptions {
	/** Simulated ms the processes may take before the run counts as a hang. */
	limit: number;
	/** The setting naming the values whose store calls are traced (JB_TRACE=c1,r5), and whether the trace printed holds the later process's calls. */
	trace: { setting: string; withLater: boolean };
	/** Rows whose store call fails fail alone, counted in `failedRows`; without it, a failing call fails the run. */
	rowsFail?: boolean;
	/** The setting that prints, when set, each row refused wrongly with the decisions on it. */
	debug?: string;
}

/** The process's store calls fail now and then, before or after their write (`faults`). */
function withFaults(world: World, process: Process, store: Store, speed: Profile, faults: Faults): void {
	const journal = process.shared.journal;
	const gate = async <T>(work: () => Promise<T>): Promise<T> => {
		if (process.dead) return await new Promise<T>(() => undefined);
		return await work();
	};
	journal.use({
		checkProcessedAndRecord: async (values: DeduplicationItemTypes[]) =>
			await gate(async () => await recordFaulty(world, store, speed, process.name, faults, values)),
		removeProcessed: async (values: DeduplicationItemTypes[]) => await gate(async () => await store.removeProcessed(speed, process.name, values)),
		clearAllProcessedItems: async () => await gate(async () => await store.clearAllProcessedItems(speed, process.name)),
	});
}

/** One seed of a scenario. */
export async function simulate(seed: number, scenario: Scenario, options: RunnerOptions): Promise<Outcome> {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	const trace = setting(options.trace.setting);
	if (trace) store.follow = trace.split(',');
	const decisions: Decision[] = [];
	const kept = new Set<string>();
	const all = new Set<string>();
	let failedRows = 0;
	const failed = options.rowsFail ? () => (failedRows += 1) : undefined;
	const jobs = scenario.runs.map(async (spec, index) => {
		const speed = spec.speed(world);
		const process = new Process(`p${index}`, world, store, speed);
		if (spec.faults) withFaults(world, process, store, speed, spec.faults);
		if (spec.delay) await new Promise<void>((resolve) => world.at(spec.delay! * world.random(), resolve));
		const one = async () => {
			const keys = spec.rows(world);
			for (const key of keys) all.add(key);
			const stopAfter = spec.stop !== undefined && world.random() < spec.stop ? 300 + 3_000 * world.random() : undefined;
			await lookaheadExecution(process, keys, decisions, {
				ahead: 'journal',
				inFlight: spec.inFlight ?? 1 + Math.floor(world.random() * 4),
				stopAfter,
				send: async (key) => {
					await new Promise<void>((resolve) => world.at(20 + 200 * world.random(), resolve));
					const created = world.random() >= (spec.refuse ?? 0);
					if (created) kept.add(`${process.name}|${key}`);
					return created;
				},
				failed,
			});
		};
		const count = spec.executions ?? 1;
		if (spec.overlap) await Promise.all(Array.from({ length: count }, async () => await one()));
		else for (let run = 0; run < count; run++) await one();
	});
	let hang: string | undefined;
	try {
		await world.run(Promise.all(jobs), options.limit);
	} catch (error) {
		hang = error instanceof Error ? error.message : String(error);
	}
	const tokens = hang ? [] : entries(store, 'own:');
	const printTrace = () => print(world.trace.filter((line) => line.includes('[')).join('\n'));
	if (trace && !options.trace.withLater) printTrace();
	// The next run: a fresh, fast process asks every row once all executions ended.
	const later = new Process('later', world, store, profile(world, 1));
	const laterDecisions: Decision[] = [];
	if (!hang) await world.run(lookaheadExecution(later, [...all], laterDecisions, { inFlight: 4, ahead: 10, send: async () => false, failed: failed && (() => undefined) }));
	const keptRows = new Set([...kept].map((entry) => entry.split('|')[1]));
	const wins = new Map<string, Set<string>>();
	for (const decision of decisions) if (decision.standing === 'mine' && kept.has(`${decision.process}|${decision.key}`)) wins.set(decision.key, new Set([...(wins.get(decision.key) ?? []), decision.process]));
	const damaged = (key: string) => [...store.droppedBySlow].some((value) => value === `claim:${key}` || value === `race:${key}`);
	const refusedWrongly = laterDecisions.filter((decision) => decision.standing !== 'mine' && !keptRows.has(decision.key)).map((decision) => decision.key);
	if (trace && options.trace.withLater) printTrace();
	if (options.debug && setting(options.debug)) {
		for (const key of refusedWrongly) print(`seed ${seed} ${key}: ${decisions.filter((d) => d.key === key).map((d) => `${d.process}:${d.standing}@${Math.round(d.at)}`).join(' ')} later:${laterDecisions.find((d) => d.key === key)?.standing}`);
	}
	return {
		twice: [...wins].filter(([key, who]) => who.size > 1 && !damaged(key)).map(([key]) => key),
		lost: laterDecisions.filter((decision) => decision.standing === 'mine' && keptRows.has(decision.key) && !damaged(decision.key)).map((decision) => decision.key),
		hang,
		tokens,
		refusedWrongly,
		rows: all.size,
		failedRows,
		decisions: decisions.length,
	};
}
