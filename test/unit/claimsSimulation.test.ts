/**
 * The claims of the creation journal (nodes/Recruiting/memory/journal.ts), checked by a
 * deterministic simulation (test/sim/claims.ts): simulated time, a seeded order of every store
 * read and write, many seeds per run. The property: no row is `mine` for two processes (unless a
 * Forget came between), and every row a process created is known to a process that asks later.
 *
 * A failing seed is printed; replay it alone with
 *   CLAIMS_SEED=<seed> npx jest test/unit/claimsSimulation.test.ts
 * and CLAIMS_SEEDS=<n> runs n seeds per scenario (default 60).
 */
import type { Decision } from '../sim/claims';
import { print, setting } from '../sim/host';
import { execution, Process, profile, Store, World } from '../sim/claims';

interface Scenario {
	name: string;
	/** The processes and their speeds (simulated ms per step of a store call). */
	processes: Array<{ scale: number; stall?: { chance: number; ms: number }; pingPong?: boolean }>;
	/** Each process's rows, in the order it asks them. */
	rows: (process: number) => string[];
	/** Things that happen during the run (a Forget, a kill), at simulated times. */
	during?: (world: World, processes: Process[], forgets: Array<{ key: string; from: number; to: number }>) => void;
}

const rows = (count: number, tag = 'r') => Array.from({ length: count }, (_, index) => `${tag}${index}`);

interface Outcome {
	/** Rows `mine` for two processes with no Forget between, and no write slower than every wait that dropped their entries. */
	twice: string[];
	/** Rows `mine` twice after a write slower than every wait dropped their entries (the timing assumption broken). */
	broken: string[];
	/** Rows `mine` twice where a Forget of the row ran while one of them was contesting it (docs/sync-memory.md). */
	forgotDuring: string[];
	/** Rows a process created that a later process does not know (it would create them again). */
	lost: string[];
	/** Rows every process refused. */
	refusedByAll: number;
	rows: number;
}

async function simulate(seed: number, scenario: Scenario): Promise<Outcome> {
	const world = new World(seed);
	const store = new Store(world);
	world.store = store;
	const processes = scenario.processes.map((spec, index) => new Process(`p${index}`, world, store, profile(world, spec.scale, spec.stall, spec.pingPong)));
	const decisions: Decision[] = [];
	const forgets: Array<{ key: string; from: number; to: number }> = [];
	scenario.during?.(world, processes, forgets);
	await world.run(Promise.all(processes.map(async (process, index) => await execution(process, scenario.rows(index), decisions))));
	// The next run: a fresh process asks every row once all executions ended.
	const all = [...new Set(scenario.processes.flatMap((_, index) => scenario.rows(index)))];
	const later = new Process('later', world, store, profile(world, 1));
	const laterDecisions: Decision[] = [];
	await world.run(execution(later, all, laterDecisions));

	const wins = new Map<string, Decision[]>();
	for (const decision of decisions) if (decision.standing === 'mine') wins.set(decision.key, [...(wins.get(decision.key) ?? []), decision]);
	const forgotten = (key: string, after: number) => forgets.some((forget) => forget.key === key && forget.from >= after);
	const forgottenAtAll = (key: string) => forgets.some((forget) => forget.key === key);
	const damaged = (key: string) => [...store.droppedBySlow].some((value) => value === `claim:${key}` || value === `race:${key}` || value.startsWith(`own:${key}:`));
	const doubled = [...wins].filter(([key, won]) => won.length > 1 && !forgotten(key, Math.min(...won.map((decision) => decision.at)))).map(([key]) => key);
	const lostRows = laterDecisions.filter((decision) => decision.standing === 'mine' && wins.has(decision.key) && !forgotten(decision.key, 0)).map((decision) => decision.key);
	const refusedByAll = all.filter((key) => !wins.has(key)).length;
	return {
		forgotDuring: doubled.filter((key) => !damaged(key) && forgottenAtAll(key)),
		twice: doubled.filter((key) => !damaged(key) && !forgottenAtAll(key)),
		lost: lostRows.filter((key) => !damaged(key)),
		broken: [...new Set([...doubled, ...lostRows])].filter(damaged),
		refusedByAll,
		rows: all.length,
	};
}

const SEEDS = Number(setting('CLAIMS_SEEDS') ?? 60);
const ONE = setting('CLAIMS_SEED') === undefined ? undefined : Number(setting('CLAIMS_SEED'));
const seeds = (base: number) => (ONE !== undefined ? [ONE] : Array.from({ length: SEEDS }, (_, index) => base + index));

const scenarios: Scenario[] = [
	{ name: 'two processes, the same new rows (one in reverse)', processes: [{ scale: 1 }, { scale: 1 }], rows: (p) => (p === 0 ? rows(40) : rows(40).reverse()) },
	{ name: 'two processes of different speeds (one 8x slower), the same rows', processes: [{ scale: 1 }, { scale: 8 }], rows: (p) => (p === 0 ? rows(30) : rows(30).reverse()) },
	{ name: 'three processes, the same rows in three orders', processes: [{ scale: 1 }, { scale: 2 }, { scale: 1 }], rows: (p) => [rows(30), rows(30).reverse(), [...rows(30).slice(15), ...rows(30).slice(0, 15)]][p] },
	{
		name: 'two processes on the same rows, a third writing other rows all along (lost updates)',
		processes: [{ scale: 1 }, { scale: 1 }, { scale: 1 }],
		rows: (p) => (p === 2 ? rows(120, 'o') : p === 0 ? rows(30) : rows(30).reverse()),
	},
	{
		name: 'ping-pong: long calls with short turnarounds keep two versions of the list alive (four processes, the same rows)',
		processes: [
			{ scale: 1, pingPong: true },
			{ scale: 1, pingPong: true },
			{ scale: 3, pingPong: true },
			{ scale: 6, pingPong: true },
		],
		rows: (p) => [rows(30), rows(30).reverse(), rows(30), rows(30).reverse()][p],
	},
	{
		name: 'calls close to the wait (one process 80x slower: up to 800 ms between read and write)',
		processes: [{ scale: 1 }, { scale: 80 }],
		rows: (p) => (p === 0 ? rows(30) : rows(30).reverse()),
	},
	{
		name: 'a store call longer than any wait (one process stalls now and then)',
		processes: [{ scale: 1 }, { scale: 1, stall: { chance: 0.05, ms: 3_000 } }],
		rows: (p) => (p === 0 ? rows(30) : rows(30).reverse()),
	},
	{
		name: 'Forget This Row during the claims (another process forgets rows at random times)',
		processes: [{ scale: 1 }, { scale: 1 }],
		rows: (p) => (p === 0 ? rows(30) : rows(30).reverse()),
		during: (world, _processes, forgets) => {
			const user = new Process('user', world, world.store!, profile(world, 1));
			for (let index = 0; index < 4; index++) {
				const key = `r${Math.floor(world.random() * 30)}`;
				world.at(world.random() * 3_000, () => {
					const from = world.now;
					void user.shared.journal.forget(key).then(() => forgets.push({ key, from, to: world.now }));
				});
			}
		},
	},
	{
		name: 'a process killed between its claims and its creations',
		processes: [{ scale: 1 }, { scale: 1 }, { scale: 2 }],
		rows: (p) => [rows(30), rows(30).reverse(), rows(30)][p],
		during: (world, processes) => world.at(300 + world.random() * 2_500, () => processes[world.random() < 0.5 ? 0 : 1].kill()),
	},
];

describe('the claims in a deterministic simulation', () => {
	for (const [index, scenario] of scenarios.entries()) {
		it(`${scenario.name}: no row mine twice, none lost`, async () => {
			let refused = 0;
			let total = 0;
			let broken = 0;
			let forgotDuring = 0;
			for (const seed of seeds(1000 * (index + 1))) {
				const outcome = await simulate(seed, scenario);
				if (outcome.twice.length > 0 || outcome.lost.length > 0) {
					throw new Error(`seed ${seed} (${scenario.name}): mine twice ${JSON.stringify(outcome.twice)}, lost ${JSON.stringify(outcome.lost)}; replay: CLAIMS_SEED=${seed} CLAIMS_SCENARIO=${index}`);
				}
				refused += outcome.refusedByAll;
				broken += outcome.broken.length;
				forgotDuring += outcome.forgotDuring.length;
				total += outcome.rows;
			}
			print(`${scenario.name}: ${total} rows; refused by every process ${refused}; created twice after a write slower than every wait ${broken}; created twice after a Forget during their claims ${forgotDuring}`);
		}, 600_000);
	}
});

if (setting('CLAIMS_TRACE')) {
	it('trace', async () => {
		const scenario = scenarios[Number(setting('CLAIMS_SCENARIO') ?? 0)];
		const world = new World(ONE!);
		const store = new Store(world);
		const processes = scenario.processes.map((spec, index) => new Process(`p${index}`, world, store, profile(world, spec.scale, spec.stall, spec.pingPong)));
		const decisions: Decision[] = [];
		world.store = store;
		scenario.during?.(world, processes, []);
		await world.run(Promise.all(processes.map(async (p, index) => await execution(p, scenario.rows(index), decisions))));
		const follow = setting('CLAIMS_TRACE')!.split(',');
		const lines = [...world.trace.filter((line) => line.includes('[')), ...decisions.filter((d) => follow.includes(d.key)).map((d) => `${d.at.toFixed(1)} DECIDE ${d.process} ${d.key} ${d.standing}`)];
		lines.sort((a, b) => parseFloat(a) - parseFloat(b));
		print(lines.join('\n'));
	});
}
