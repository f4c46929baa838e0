/**
 * What the reviews of the whole-memory simulation's judge share (test/unit/memoryJudgeBreak.test.ts, memoryJudgeBreak2 and
 * memoryJudgeBreak3): a seed played by a short script instead of the scenario's draws (`Scripted`, judged by the simulation's
 * own `check`), creations given a fate by the script (`force`), and a defect injected into the memory's real code
 * (`defect`, through spies on `MemoryRows.prototype` that `useDefects` installs; `plan` tells a dry run's memory apart).
 */
import type { Admission, MatchBy } from '../../nodes/Recruiting/memory';
import { CandidateMemory } from '../../nodes/Recruiting/memory';
import { MemoryRows } from '../../nodes/Recruiting/memory/rows';
import type { Remembered } from '../../nodes/Recruiting/memory/store';
import type { Knobs, Outcome } from '../sim/memory';
import { Simulation } from '../sim/memory';

export type Row = Simulation['rows'][number];
export type Proc = Parameters<Simulation['execution']>[0];
export type Exec = Simulation['execs'][number];

/** The simulation's private parts a script needs (TypeScript `private` only: they are plain properties at run time). */
export interface Inside {
	process(kind: 'main' | 'worker'): Proc;
	wait(ms: number): Promise<void>;
	random(): number;
	create(row: Row, exec: unknown, content: string, key?: string): Promise<unknown>;
	plan(exec: Exec, rows: Row[]): Promise<Map<Row, string>>;
	nextId: number;
	bySlug: Map<string, { deletedAt?: number; received: Set<string> }>;
	matchBySwitch?: { before: MatchBy; after: MatchBy; at: number };
}

/** Whether a memory is a dry run's (`PlannedMemory`, memory/index.ts: not exported). */
const isPlan = (memory: MemoryRows) => memory.constructor.name === 'PlannedMemory';

/** The defect injected into the memory (undefined: the memory's own behaviour); `plan`: asked by the dry run's memory. */
export const defect: {
	admit?: (key: string, content: string, plan: boolean) => Admission | undefined;
	recall?: (key: string, remembered: Remembered | undefined, plan: boolean) => Remembered | undefined;
	held?: (key: string, plan: boolean) => boolean | undefined;
	unclaim?: (key: string) => boolean;
	sentAs?: (key: string, content: string, plan: boolean) => boolean | undefined;
} = {};

export const clearDefect = () => {
	for (const name of Object.keys(defect) as Array<keyof typeof defect>) delete defect[name];
};

/** Installs the spies that apply `defect` (each file's tests: before all, cleared after each). */
export function useDefects(): void {
	beforeAll(() => {
		const { admit, recall, held, unclaim, sentAs } = MemoryRows.prototype;
		jest.spyOn(MemoryRows.prototype, 'admit').mockImplementation(async function (this: MemoryRows, key: string, content: string) {
			return defect.admit?.(key, content, isPlan(this)) ?? (await admit.call(this, key, content));
		});
		jest.spyOn(MemoryRows.prototype, 'recall').mockImplementation(function (this: MemoryRows, key: string) {
			const remembered = recall.call(this, key);
			return defect.recall ? defect.recall(key, remembered, isPlan(this)) : remembered;
		});
		jest.spyOn(MemoryRows.prototype, 'held').mockImplementation(function (this: MemoryRows, key: string, sinceStart?: boolean) {
			return defect.held?.(key, isPlan(this)) ?? held.call(this, key, sinceStart);
		});
		jest.spyOn(MemoryRows.prototype, 'unclaim').mockImplementation(async function (this: MemoryRows, key: string) {
			if (defect.unclaim?.(key)) return;
			await unclaim.call(this, key);
		});
		jest.spyOn(MemoryRows.prototype, 'sentAs').mockImplementation(async function (this: MemoryRows, key: string, content: string) {
			return defect.sentAs?.(key, content, isPlan(this)) ?? (await sentAs.call(this, key, content));
		});
	});
	afterEach(clearDefect);
	afterAll(() => jest.restoreAllMocks());
}

/** A seed played by a script instead of the scenario's draws; judged by the simulation's own `check`. */
export class Scripted extends Simulation {
	constructor(
		knobs: Knobs,
		private readonly script: (sim: Scripted, inside: Inside) => Promise<Map<Row, string>>,
	) {
		super(1, knobs);
		// Each seed starts with the memory's own behaviour: a script injects its defect where it needs it.
		clearDefect();
	}

	override async play(): Promise<Map<Row, string>> {
		return await this.script(this, this as unknown as Inside);
	}

	row(name: string): Row {
		return this.rows.find((row) => row.name === name)!;
	}

	/** The final run, as `play` makes it: faults off, 3 minutes after everything else. */
	async final(inside: Inside, proc: Proc, rows: Row[] = [...this.sheet]): Promise<Map<Row, string>> {
		this.faulty = false;
		await inside.wait(180_000);
		return await this.execution(proc, 'final', rows, { concurrency: 2, ahead: 30 });
	}
}

/**
 * `proc` creates the row, then forgets it while another sync of it runs there (docs/sync-memory.md "Forget during a claim":
 * that sync's end saves the old slug). Returns the deleted candidate's slug.
 */
export async function createdThenForgotDuringSync(sim: Scripted, inside: Inside, proc: Proc, row: Row): Promise<string> {
	await sim.execution(proc, 'sync', [row]);
	const slug = [...inside.bySlug.keys()][inside.bySlug.size - 1];
	const again = sim.execution(proc, 'sync', [row]);
	await inside.wait(1);
	await sim.execution(proc, 'forget', [row], { concurrency: 1 });
	await again;
	return slug;
}

/**
 * The final run (`Scripted.final`) with an injected defect: its memory loses the process's hold of the rows whose keys are
 * `keys` (under their key, and under another as its other key), and with `unlearn` what it learned under them. Its dry run
 * plans them `created`, the run finds their claims (`known`).
 */
export async function finalLosingHold(sim: Scripted, inside: Inside, proc: Proc, rows: Row[], keys: string[], unlearn = false): Promise<Map<Row, string>> {
	if (unlearn) defect.recall = (key, remembered) => (keys.includes(key) ? undefined : remembered);
	defect.held = (key) => (keys.includes(key) ? false : undefined);
	defect.admit = (key, _content, plan) => (keys.includes(key) ? (plan ? 'create' : 'known') : undefined);
	const heldUnderOther = CandidateMemory.prototype.heldUnderOther;
	const spy = jest.spyOn(CandidateMemory.prototype, 'heldUnderOther').mockImplementation(function (this: CandidateMemory, key: string) {
		return keys.includes(key) ? false : heldUnderOther.call(this, key);
	});
	try {
		return await sim.final(inside, proc, rows);
	} finally {
		spy.mockRestore();
	}
}

export type Fate = 'refused' | 'unknown, stored' | 'unknown, not stored';

/** Fates forced on a simulation's next creations, per row (in order). */
const forcedFates = new WeakMap<Simulation, Map<string, Fate[]>>();

/** The next creation of a row gets this fate from the simulated service (no draw left to chance). */
export function force(sim: Simulation, name: string, fate: Fate): void {
	const inside = sim as unknown as Inside;
	let fates = forcedFates.get(sim);
	if (!fates) {
		fates = new Map();
		forcedFates.set(sim, fates);
		const original = (Simulation.prototype as unknown as Inside).create;
		const all = fates;
		inside.create = function (row: Row, exec: unknown, content: string, key?: string) {
			const next = all.get(row.name)?.shift();
			if (next === undefined) return original.call(sim, row, exec, content, key);
			const knobs = { refused: sim.knobs.refused, noAnswer: sim.knobs.noAnswer };
			// create(): its first draw picks the fate against `refused` and `refused + noAnswer`, the second whether an unanswered one was stored.
			Object.assign(sim.knobs, { refused: 0.25, noAnswer: 0.5 });
			const draws = next === 'refused' ? [0.1] : [0.5, next === 'unknown, stored' ? 0.1 : 0.9];
			const random = (Simulation.prototype as unknown as Inside).random;
			inside.random = () => draws.shift() ?? random.call(sim);
			try {
				return original.call(sim, row, exec, content, key);
			} finally {
				delete (inside as Partial<Inside>).random;
				Object.assign(sim.knobs, knobs);
			}
		};
	}
	fates.set(name, [...(fates.get(name) ?? []), fate]);
}

/** A quiet seed: no fault, no draw of a fate (creations are answered unless forced). */
export const QUIET: Knobs = { processes: [2, 2], worker: 0, executions: [1, 1], rows: 1 };

/**
 * Empty sync executions in `filler` until the execution started `later` executions from now is one a dry run precedes
 * (`execution`: every third, by count). `later` 1: the next one.
 */
export async function planNext(sim: Scripted, inside: Inside, filler: Proc, later = 1): Promise<void> {
	while ((inside.nextId + later) % 3 !== 0) await sim.execution(filler, 'sync', []);
}

/** The plans the judge reported, as `row: planned → did`. */
export const planned = (outcome: Outcome) => outcome.planDiffers.map((diff) => `${diff.row}: ${diff.planned} → ${diff.did}`);

/** The rows the judge reported, with the property and the answer. */
export const rowsJudged = (outcome: Outcome) => outcome.wrong.map((wrong) => `${wrong.row}: property ${wrong.property}, ${wrong.why}`);
