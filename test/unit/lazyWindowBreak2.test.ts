/**
 * A second helper's review of the rows prepared ahead while n8n's store is slow (d1ced43, bb7c1a9, 3e3ff77: contest.ts
 * `window`, `batch`; pace.ts `PaceSamples.ahead`, `RECENT`; rows.ts `ahead`). test/unit/lazyWindowBreak.test.ts drove the
 * journal alone with new rows; here the whole memory of an execution runs as Create or Update runs it: the real
 * `CandidateMemory` (opened with `openIn` per simulated process, each with its own `Registry`), every row prepared with
 * `keyOf` up to `memory.ahead` rows past the ones taken (as the router's lookahead asks `run.ahead`), taken in its turn
 * (`inTurn`), through `throughMemory` (a sync) or `forgetWithTwins` (Forget Each Input Row, Forget Now on), the visit's end
 * (`repair`), over the claims simulation's model of n8n's store (test/sim/claims.ts: reads and writes of the whole list, lost
 * updates, simulated time). The service is a map of candidates here.
 *
 * What is attacked: rows this process holds (learned, saved) mixed with new ones; Forget Each Input Row while rows wait for
 * their batch or their batch's contest; a store that turns slow and fast again; many rows in flight; a stalled call.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MemoryHost } from '../../nodes/Recruiting/memory';
import { CandidateMemory, forgetWithTwins, throughMemory } from '../../nodes/Recruiting/memory';
import type { Clock } from '../../nodes/Recruiting/memory/clock';
import { accountScope, shortPrint } from '../../nodes/Recruiting/memory/keys';
import { PROFILE_PRINT_BYTES, RECORD_PRINT_BYTES } from '../../nodes/Recruiting/memory/store';
import { MIN_AHEAD, Pace } from '../../nodes/Recruiting/memory/pace';
import type { Shared } from '../../nodes/Recruiting/memory/registry';
import { Registry } from '../../nodes/Recruiting/memory/registry';
import type { StoreHelpers } from '../../nodes/Recruiting/memory/storeCalls';
import type { Profile } from '../sim/claims';
import { Store, World } from '../sim/claims';
import { print } from '../sim/host';
import { CREDENTIALS, keyOfRow } from '../sim/memory';
import { largeList, rows } from '../sim/scenarioRunner';

const REPORT = true; // each run's figures
const DETAIL = false; // each stranded row of the Forget seeds

const WORKFLOW = 'workflow-lazy2';
const NODE = 'node-lazy2';
const CREDENTIAL = 'credential-1';
const SCOPE = accountScope(CREDENTIALS, CREDENTIAL);

/** A simulated n8n process: its registry (its memory of the node), its clock on the world, its store calls behind a kill gate. */
class Proc {
	dead = false;

	readonly registry: Registry;

	readonly helpers: StoreHelpers;

	calls = 0;

	private onKill: () => void = () => undefined;

	readonly killed = new Promise<void>((resolve) => (this.onKill = resolve));

	constructor(
		readonly name: string,
		readonly world: World,
		store: Store,
		speed: (call: number) => Profile,
		readonly writable = true,
	) {
		const never = <T>() => new Promise<T>(() => undefined);
		const clock: Clock = {
			now: () => world.now,
			elapsed: () => world.now,
			sleep: async (ms: number) => await new Promise<void>((resolve) => world.at(ms, () => (this.dead ? undefined : resolve()))),
			random: () => world.random(),
		};
		this.registry = new Registry(clock);
		const gate = async <T>(work: () => Promise<T>): Promise<T> => (this.dead ? await never<T>() : await work());
		this.helpers = {
			checkProcessedAndRecord: async (values) => await gate(async () => await store.checkProcessedAndRecord(speed(++this.calls), name, values)),
			removeProcessed: async (values) => await gate(async () => await store.removeProcessed(speed(++this.calls), name, values)),
			clearAllProcessedItems: async () => await gate(async () => await store.clearAllProcessedItems(speed(++this.calls), name)),
			getProcessedDataCount: async () => (this.dead ? await never<number>() : store.size()),
		};
	}

	get shared(): Shared {
		return this.registry.peek(WORKFLOW, NODE, SCOPE) ?? this.registry.open(WORKFLOW, NODE, SCOPE);
	}

	kill(): void {
		this.dead = true;
		this.onKill();
	}
}

/** The service: candidates by row name, and when each was created and deleted. */
class Service {
	readonly candidates = new Map<string, Array<{ slug: string; at: number; by: string; deletedAt?: number }>>();

	private next = 0;

	create(name: string, at: number, by: string): string {
		const slug = `c${++this.next}`;
		this.candidates.set(name, [...(this.candidates.get(name) ?? []), { slug, at, by }]);
		return slug;
	}

	live(name: string) {
		return (this.candidates.get(name) ?? []).filter((candidate) => candidate.deletedAt === undefined);
	}

	/** The user deletes the row's candidates (before Forget Each Input Row). */
	delete(name: string, at: number): void {
		for (const candidate of this.live(name)) candidate.deletedAt = at;
	}

	/** Rows created while a live candidate of them existed. */
	twice(): string[] {
		return [...this.candidates].filter(([, list]) => list.some((one, index) => list.slice(0, index).some((before) => before.deletedAt === undefined || before.deletedAt > one.at))).map(([name]) => name);
	}
}

/** One simulation: a world, n8n's store, the service, the workflow's saved static data, the rows' contents. */
class Sim {
	readonly world: World;

	readonly store: Store;

	readonly service = new Service();

	saved: IDataObject = {};

	readonly versions = new Map<string, number>();

	constructor(seed: number, padding = 0) {
		this.world = new World(seed);
		this.store = new Store(this.world, (entries) => Math.max(1_000, entries * 0.005));
		this.world.store = this.store;
		this.store.list = padding ? [Store.PAD, ...rows(500, 'x')] : rows(1_000, 'x');
		this.store.padding = padding;
	}

	readonly sleep = async (ms: number) => await new Promise<void>((resolve) => this.world.at(ms, resolve));

	/** The row's profile print (as the memory keeps it: 6 bytes) and its content print (4 bytes), as upsert/plan.ts gives them. */
	profileOf(name: string): string {
		return shortPrint(`profile ${name} ${this.versions.get(name) ?? 1}`, PROFILE_PRINT_BYTES);
	}

	contentOf(name: string): string {
		return shortPrint(`content ${name} ${this.versions.get(name) ?? 1}`, RECORD_PRINT_BYTES);
	}

	private cached?: [string[] | undefined, Set<string>];

	/** The values on the store's list now (a write replaces the list: read again only then). */
	claimed(): Set<string> {
		if (this.cached === undefined || this.cached[0] !== this.store.list) this.cached = [this.store.list, new Set(this.store.list ?? [])];
		return this.cached[1];
	}
}

interface SyncOptions {
	inFlight: number;
	/** A creation's or update's time at the service. */
	sendMs: (world: World) => number;
	/** Between two rows prepared (n8n's expression engine). */
	prepareMs?: number;
	/** Takes no more rows after this many ms (Stop), or the process is killed then (`kill`). */
	stopAfter?: number;
	kill?: boolean;
	/** Forget Each Input Row (Forget Now on) instead of a sync (the user deleted the rows' candidates first). */
	forget?: boolean;
	/** Every 50 ms: samples (the rows claimed in the store and not sent). */
	sample?: boolean;
}

interface Outcome {
	start: number;
	end: number;
	actions: Record<string, number>;
	/** Row name → its action (or refusal). */
	byRow: Map<string, string>;
	/** When each row was taken (its turn asked for), and when its creation went out. */
	taken: Map<string, number>;
	doneAt: Map<string, number>;
	sentAt: Map<string, number>;
	forgotAt: Map<string, [number, number]>;
	/** The most rows claimed in the store, prepared by this execution, not sent by it, without a live candidate, at a 50-ms sample. */
	maxUnsent: number;
	/** The most, over the samples, of the pace's rows and a third of them (`Contest.window` without the held rows and the cap). */
	maxPaced: number;
	/** The most, over the samples, of unsent claims minus (the pace's rows and a batch then + the rows in flight). */
	overPaced: number;
	/** The widest window (`memory.ahead`) and the most rows prepared and not taken. */
	maxWindow: number;
	maxAhead: number;
	calls: number;
}

/** One execution of Create or Update (Sync Rows, or Forget Each Input Row) in `proc` over `names`, as the router and upsert.operation.ts run it. */
async function execution(sim: Sim, proc: Proc, names: string[], options: SyncOptions): Promise<Outcome> {
	const { world, service } = sim;
	const staticData = proc.writable ? (JSON.parse(JSON.stringify(sim.saved)) as IDataObject) : {};
	const loaded = JSON.stringify(staticData);
	const host: MemoryHost = { workflowId: WORKFLOW, nodeId: NODE, credentialId: CREDENTIAL, staticData, nodeStaticData: {}, nodeContext: {}, helpers: proc.helpers, writable: proc.writable };
	const start = world.now;
	const callsBefore = proc.calls;
	const memory = CandidateMemory.openIn(proc.registry, CREDENTIALS, host);
	const shared = proc.shared;
	const journal = shared.journal;
	const keys = new Map<number, string>();
	const sentNames = new Set<string>();
	const outcome: Outcome = { start, end: 0, actions: {}, byRow: new Map(), taken: new Map(), doneAt: new Map(), sentAt: new Map(), forgotAt: new Map(), maxUnsent: 0, maxPaced: 0, overPaced: Number.NEGATIVE_INFINITY, maxWindow: 0, maxAhead: 0, calls: 0 };
	let [next, prepared, taken, inFlight, stopped, finished] = [0, 0, 0, 0, false, false];
	let wake: (() => void) | undefined;
	const resume = () => {
		const awake = wake;
		wake = undefined;
		awake?.();
	};
	const windowNow = () => memory.ahead; // the router's lookahead asks `run.ahead` (upsert.operation.ts)
	/** Rows prepared and neither sent nor done (by name: a row given twice counts once). */
	const pending = new Map<string, string>();
	const prepare = (index: number) => {
		keys.set(index, memory.keyOf('key', names[index]));
		pending.set(names[index], keys.get(index)!);
	};
	if (options.stopAfter !== undefined)
		world.at(options.stopAfter, () => {
			stopped = true;
			if (options.kill) proc.kill();
			resume();
		});
	const sample = () => {
		const claimed = sim.claimed();
		let unsent = 0;
		for (const [name, key] of pending) if (claimed.has(`claim:${key}`) && service.live(name).length === 0) unsent++;
		const paced = new Pace(shared.clock, shared.pace).ahead(journal.ahead, journal.decisionMs);
		const pacedWindow = paced + (journal.lazy ? Math.ceil(paced / 3) : 0);
		outcome.maxPaced = Math.max(outcome.maxPaced, pacedWindow);
		outcome.maxUnsent = Math.max(outcome.maxUnsent, unsent);
		outcome.overPaced = Math.max(outcome.overPaced, unsent - (pacedWindow + inFlight));
		outcome.maxWindow = Math.max(outcome.maxWindow, windowNow());
		outcome.maxAhead = Math.max(outcome.maxAhead, prepared - taken);
	};
	const sampler = (async () => {
		while (options.sample && !finished && !proc.dead) {
			sample();
			await sim.sleep(50);
		}
	})();
	// The router's lookahead: rows prepared one at a time, at most `window` past the ones taken (asked each time).
	const preparer = (async () => {
		while (!stopped && prepared < names.length) {
			if (prepared - taken >= windowNow()) {
				await new Promise<void>((resolve) => (wake = resolve));
				continue;
			}
			await sim.sleep(options.prepareMs ?? 1);
			if (stopped || prepared - taken >= windowNow() || prepared >= names.length) continue;
			if (!keys.has(prepared)) prepare(prepared);
			prepared++;
		}
	})();
	const act = (name: string, action: string) => {
		pending.delete(name);
		outcome.doneAt.set(name, world.now);
		outcome.byRow.set(name, action);
		outcome.actions[action] = (outcome.actions[action] ?? 0) + 1;
	};
	const syncRow = async (name: string, key: string) =>
		await memory.inTurn(key, async () => {
			const known = memory.recall(key);
			const slug = known?.s;
			const [content, profile] = [sim.contentOf(name), sim.profileOf(name)];
			const remember = (given: string, p: string) => memory.remember(key, { s: given, p, r: known?.s === given ? (known.r ?? []) : [] });
			return await throughMemory<string>(
				memory,
				{ key, aliases: [], slug, content, slugGiven: false, nothingNew: known?.p === profile },
				{
					unchanged: () => {
						remember(slug!, known!.p!);
						return { output: 'unchanged', clean: true };
					},
					same: () => 'same',
					refused: (why) => Object.assign(new Error(why), { refusal: why }),
					send: async () => {
						if (slug === undefined) {
							sentNames.add(name);
							pending.delete(name);
							outcome.sentAt.set(name, world.now);
							await sim.sleep(options.sendMs(world));
							if (proc.dead) await new Promise<never>(() => undefined);
							remember(service.create(name, world.now, proc.name), profile);
							return { output: 'created', clean: true };
						}
						await sim.sleep(options.sendMs(world));
						if (proc.dead) await new Promise<never>(() => undefined);
						remember(slug, profile);
						return { output: 'updated', clean: true };
					},
					failed: (error) => ({ error: error as Error, slugGiven: false, mayExist: false }),
				},
			);
		});
	const forgetRow = async (name: string, key: string) =>
		await memory.inTurn(key, async () => {
			const began = world.now;
			service.delete(name, began);
			const { known } = await forgetWithTwins(memory, key, []);
			outcome.forgotAt.set(name, [began, world.now]);
			return known ? 'forgotten' : 'notKnown';
		});
	const worker = async () => {
		while (!stopped && next < names.length) {
			const index = next++;
			taken = Math.max(taken, index + 1);
			if (!keys.has(index)) {
				prepare(index);
				prepared = Math.max(prepared, index + 1);
			}
			resume();
			const name = names[index];
			outcome.taken.set(name, world.now);
			inFlight++;
			try {
				act(name, options.forget ? await forgetRow(name, keys.get(index)!) : await syncRow(name, keys.get(index)!));
			} catch (error) {
				act(name, (error as { refusal?: string }).refusal ?? `failed: ${(error as Error).message}`);
			} finally {
				inFlight--;
			}
		}
	};
	const work = (async () => {
		await Promise.all(Array.from({ length: options.inFlight }, worker));
		stopped = true;
		resume();
		await preparer;
		await memory.repair();
		if (proc.writable && JSON.stringify(staticData) !== loaded) sim.saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	})();
	await Promise.race([work, proc.killed]);
	finished = true;
	await sampler;
	outcome.end = world.now;
	outcome.calls = proc.calls - callsBefore;
	return outcome;
}

/** Calls of `low`–`high` ms, nearly all between read and write (a large list, parsed and rewritten in the worker). */
const calls = (world: World, low: number, high: number): Profile => ({ toRead: () => 20, gap: () => low - 40 + (high - low) * world.random(), back: () => 20 });

/** A fixed profile for every call (`largeList`: 0.5–0.7 s). */
const steady = (profile: Profile) => () => profile;

const service = (ms: number) => () => ms;

/** Rows without a live candidate whose claim is in the store (after every execution ended: claimed and never created). */
function strandedOf(sim: Sim, names: string[]): string[] {
	const claimed = sim.claimed();
	return names.filter((name) => sim.service.live(name).length === 0 && claimed.has(`claim:${keyOfRow(name)}`));
}

const fmt = (outcome: Outcome) =>
	JSON.stringify({ s: +(outcome.end - outcome.start).toFixed(0) / 1000, actions: outcome.actions, maxUnsent: outcome.maxUnsent, maxPaced: outcome.maxPaced, overPaced: outcome.overPaced, maxWindow: outcome.maxWindow, maxAhead: outcome.maxAhead, calls: outcome.calls });

describe('rows this process holds, mixed with new rows, while the store is slow', () => {
	it('smoke: 300 new rows, then the same 300 unchanged, in one process over calls of 0.5–0.7 s', async () => {
		const sim = new Sim(1);
		const proc = new Proc('p0', sim.world, sim.store, steady(largeList(sim.world)));
		const first = await sim.world.run(execution(sim, proc, rows(300, 'n'), { inFlight: 4, sendMs: service(80), sample: true }), 20_000_000);
		if (REPORT) print(`first ${fmt(first)}`);
		expect(first.actions).toEqual({ created: 300 });
		const again = await sim.world.run(execution(sim, proc, rows(300, 'n'), { inFlight: 4, sendMs: service(80), sample: true }), 20_000_000);
		if (REPORT) print(`again ${fmt(again)}`);

		expect(again.actions).toEqual({ unchanged: 300 });
		expect(sim.service.twice()).toEqual([]);
		expect(strandedOf(sim, rows(300, 'n'))).toEqual([]);
	}, 120_000);
});

interface Mixed {
	seed: number;
	/** Known rows (created by a run before), and new rows: appended after them, or one after every `every` known rows. */
	known: number;
	fresh: number;
	every?: number;
	/** The known rows' content changed since (each is sent as an update). */
	changed?: boolean;
	/** The run is in a new process (a restart: the rows are held through the saved static data), else in the process that created them. */
	restart?: boolean;
	inFlight: number;
	sendMs: number;
}

/** A sheet of known rows with new ones, after a run that created the known ones: the outcome of the second run. */
async function mixed(setup: Mixed): Promise<{ sim: Sim; outcome: Outcome; fresh: string[] }> {
	const sim = new Sim(setup.seed);
	const speed = steady(largeList(sim.world));
	const known = rows(setup.known, 'k');
	const fresh = rows(setup.fresh, 'n');
	const first = new Proc('p0', sim.world, sim.store, speed);
	const created = await sim.world.run(execution(sim, first, known, { inFlight: setup.inFlight, sendMs: service(setup.sendMs) }), 50_000_000);
	expect(created.actions).toEqual({ created: setup.known });
	if (setup.changed) for (const name of known) sim.versions.set(name, 2);
	const sheet: string[] = [];
	if (setup.every === undefined) sheet.push(...known, ...fresh);
	else for (let index = 0, at = 0; index < known.length || at < fresh.length; index++) {
		if (index < known.length) sheet.push(known[index]);
		if ((index + 1) % setup.every === 0 && at < fresh.length) sheet.push(fresh[at++]);
		if (index >= known.length && at < fresh.length) sheet.push(fresh[at++]);
	}
	const proc = setup.restart ? new Proc('p1', sim.world, sim.store, speed) : first;
	await sim.world.run(sim.sleep(10_000));
	const outcome = await sim.world.run(execution(sim, proc, sheet, { inFlight: setup.inFlight, sendMs: service(setup.sendMs), sample: true, prepareMs: 10 }), 50_000_000);
	return { sim, outcome, fresh };
}

describe('rows this process holds, mixed with new rows, calls of 0.5–0.7 s (the lazy path)', () => {
	// Rows are prepared 10 ms apart, as n8n's expression engine prepares them (docs/sync-memory.md). Measured (this file on
	// e88a0ea, and copied to 9622ee0, rows then prepared 1 ms apart): the run in s, the most new rows claimed and not sent, the
	// most `maxPaced` (the pace's rows and a batch) of the run; on 9622ee0 (`before`) the window was the most the store allows.
	//   seed 31: 68.9 s, 32 (paced 32), window up to 352; before: 69.1 s, 67, window 752
	//   seed 32: 5,653 s, 32 (32); before: 5,600 s, 69. Both ~9x the 600 s of sending: each changed known row costs a call of
	//            its own that takes its old content pair off (journal.ts `done`: `later(remove(doneOf(before)))`, 2,000 calls of
	//            2 values) and one that writes the new pair (1,914 calls of 3 values): not of this change.
	//   seed 33: 106.5 s, 35 (34); before: 104.9 s, 300 (every new row claimed at once)
	//   seed 34: 5,193 s, 96 (96); before: 5,155 s, 126
	// Since held rows whose asks have not answered count beyond `trust` (pace.ts, the fix of the case below), with rows 10 ms
	// apart: e88a0ea 69.0, 5,661.7, 120.7 and 5,224.7 s (the figures below); the fix 70.7, 5,642.8, 123.4 and 5,347.9 s (its slow
	// start: a held row's answer lets one more be asked; with rows 1 ms apart seed 33 took 112.0 s against 104.9 s).
	// Changed known rows (seeds 32 and 34) take about nine times their sending on such a list: each old content pair is taken
	// off in a call of its own, and a held row prepared more than 30 s before its turn is asked again then, alone (1,895 of
	// seed 32's calls). Taking the pairs off 50 a call halved it, but was left (docs/sync-memory.md, "When calls are slow").
	const cases: Array<[string, Mixed, number]> = [
		['2,000 known rows unchanged, a new row after every 10th, the same process, 1 in flight at 300 ms', { seed: 31, known: 2_000, fresh: 200, every: 10, inFlight: 1, sendMs: 300 }, 69_000],
		['2,000 known rows changed (each an update), a new row after every 10th, the same process, 1 in flight at 300 ms', { seed: 32, known: 2_000, fresh: 200, every: 10, changed: true, inFlight: 1, sendMs: 300 }, 5_661_650],
		['2,000 known rows unchanged, 300 new appended, after a restart (held through the saved static data), 1 in flight at 300 ms', { seed: 33, known: 2_000, fresh: 300, restart: true, inFlight: 1, sendMs: 300 }, 120_650],
		['2,000 known rows changed, a new row after every 5th, after a restart, 2 in flight at 200 ms', { seed: 34, known: 2_000, fresh: 400, every: 5, changed: true, restart: true, inFlight: 2, sendMs: 200 }, 5_224_700],
	];
	it.each(cases)('%s: every row once, no claim left, new rows claimed and not sent within the pace\'s rows, a batch and the rows in flight; as fast as before the change', async (_name, setup, before) => {
		const { sim, outcome, fresh } = await mixed(setup);
		if (REPORT) print(`mixed seed ${setup.seed}: ${fmt(outcome)}`);
		expect(outcome.end - outcome.start).toBeLessThan(1.05 * before);
		expect(outcome.actions).toEqual({ created: setup.fresh, [setup.changed ? 'updated' : 'unchanged']: setup.known });
		expect(sim.service.twice()).toEqual([]);
		expect(strandedOf(sim, fresh)).toEqual([]);
		// The held rows claim nothing: the window they widen holds no more new rows than the pace's and a batch (and a few in flight).
		expect(outcome.maxUnsent).toBeLessThanOrEqual(outcome.maxPaced + setup.inFlight + 3);
	}, 120_000);
});

describe('rows this process holds whose claims another process took off (Forget Each Input Row on a queue worker)', () => {
	// FOUND on e88a0ea: pace.ts counted a row as held when this process holds it (learned, saved, noted: rows.ts `holds`), and a
	// held row was prepared besides the pace "because its ask claims nothing". A row forgotten elsewhere (Forget Each Input Row on
	// a queue worker, or by hand: neither changes the saved static data) is still held here, but its claim is gone: its ask claims
	// it afresh and contests it (recall then gives nothing: it is created again). Each such row widened the window by one, so the
	// whole run was claimed up to the most the store allows, as before d1ced43, and a killed worker left that many rows claimed
	// and never created. Measured (seed 41): all 600 claimed at once against a paced window of 32; killed at 30 s, 518 left
	// claimed and never created (82 created). On 9622ee0: 600, and 519 (the window was the most there for every row).
	// Fixed: a held row counts as free once its ask found its claim; before that, up to `trust` of them (pace.ts: MIN_AHEAD at
	// first, two more with each claim found, half with each row claimed afresh).
	it('600 rows created and saved, then forgotten by a queue worker (the user deleted their candidates), then synced again in the process that holds them, 1 in flight at 300 ms: the rows claimed and not sent stay within the pace\'s rows, a batch and the rows in flight', async () => {
		const outcomes: Outcome[] = [];
		const stranded: number[] = [];
		for (const kill of [false, true]) {
			const sim = new Sim(41);
			const speed = steady(largeList(sim.world));
			const names = rows(600, 'k');
			const p0 = new Proc('p0', sim.world, sim.store, speed);
			expect((await sim.world.run(execution(sim, p0, names, { inFlight: 1, sendMs: service(300) }), 50_000_000)).actions).toEqual({ created: 600 });
			const worker = new Proc('q0', sim.world, sim.store, speed, false);
			expect((await sim.world.run(execution(sim, worker, names, { inFlight: 1, sendMs: service(300), forget: true }), 50_000_000)).actions).toEqual({ forgotten: 600 });
			await sim.world.run(sim.sleep(10_000));
			const outcome = await sim.world.run(execution(sim, p0, names, { inFlight: 1, sendMs: service(300), sample: true, ...(kill ? { stopAfter: 30_000, kill: true } : {}) }), 50_000_000);
			if (REPORT) print(`forgotten elsewhere${kill ? ', killed at 30 s' : ''}: ${fmt(outcome)}${kill ? `, left claimed and never created ${strandedOf(sim, names).length}` : ''}`);
			if (!kill) {
				expect(outcome.actions).toEqual({ created: 600 });
				expect(sim.service.twice()).toEqual([]);
				expect(strandedOf(sim, names)).toEqual([]);
			}
			outcomes.push(outcome);
			stranded.push(strandedOf(sim, names).length);
		}
		const [whole, killed] = outcomes;
		// For rows whose asks claim: the pace's rows and a batch, the held rows asked before any answer (`MIN_AHEAD`), the rows in
		// flight. Measured with the fix: 43 (paced 32), killed at 30 s 36 left claimed and never created (600, and 518 before).
		expect(whole.maxUnsent).toBeLessThanOrEqual(whole.maxPaced + MIN_AHEAD + 1 + 3);
		expect(stranded[1]).toBeLessThanOrEqual(killed.maxPaced + MIN_AHEAD + 1 + 3);
	}, 120_000);
});

interface ForgetSeed {
	seed: number;
	/** The Forget runs in the syncing process (a second execution of it), or in another process (a queue worker). */
	sameProcess: boolean;
	twice: string[];
	/** Rows created twice where the Forget of the row ran while the sync worked on it (taken to created): "Forget during a claim". */
	stated: string[];
	/** Rows claimed and without a live candidate once the sync and the Forget ended; of them, those the sync created and its end
	 * wrote back after the Forget ("Forget during a claim"), and those whose last removal a write that read before it undid. */
	stranded: string[];
	writtenBack: string[];
	broughtBack: string[];
	/** Rows the final run (a later process) refused although no candidate of them exists. */
	refusedLater: string[];
	/** The sync's refusals by reason, and those of rows only a Forget worked on meanwhile (their candidate never existed). */
	refusals: Record<string, number>;
	refusedNeverCreated: string[];
	/** Rows the sync refused ("may already exist", "busy") that never existed, before the Forget of the row began (its lookahead had asked it). */
	refusedBeforeForget: string[];
	forgetRows: number;
	forgetSeconds: number;
}

/**
 * One seed: a sync of 200 new rows in a process whose calls take 0.35–0.8 s (rows asked in batches), and Forget Each Input
 * Row (Forget Now on) of a quarter of them, started 0.5–8 s later while the sync's rows wait for their batch or their
 * contest, in the same process or in a queue worker; three minutes after both ended, a later process syncs every row.
 */
async function forgetDuringBatches(seed: number): Promise<ForgetSeed> {
	const sim = new Sim(seed);
	const { world } = sim;
	const speed = () => calls(world, 350, 800);
	const names = rows(200, 'n');
	const p0 = new Proc('p0', world, sim.store, speed);
	const sameProcess = seed % 2 === 0;
	const other = sameProcess ? p0 : new Proc('q0', world, sim.store, speed, false);
	const forgotten = names.filter(() => world.random() < 0.25);
	const inFlight = 1 + Math.floor(world.random() * 4);
	const delay = 500 + 7_500 * world.random();
	const [sync, forget] = await world.run(
		Promise.all([
			execution(sim, p0, names, { inFlight, sendMs: (w) => 20 + 200 * w.random() }),
			(async () => {
				await sim.sleep(delay);
				return await execution(sim, other, forgotten, { inFlight: 1 + Math.floor(world.random() * 2), sendMs: () => 0, forget: true });
			})(),
		]),
		50_000_000,
	);
	const stranded = strandedOf(sim, names);
	const writtenBack = stranded.filter((name) => sim.service.candidates.get(name)?.some((one) => one.by === 'p0') === true && (forget.forgotAt.get(name)?.[0] ?? Infinity) <= sync.end);
	const broughtBack = stranded.filter((name) => {
		const claim = `claim:${keyOfRow(name)}`;
		const last = Math.max(...sim.store.claimsRemoved.filter((removal) => removal.value === claim).map((removal) => removal.at));
		return last > Number.NEGATIVE_INFINITY && !sim.store.claimsWritten.some((write) => write.value === claim && write.at > last);
	});
	if (DETAIL) for (const name of stranded) print(`seed ${seed} ${name}: sync ${sync.byRow.get(name)} taken ${sync.taken.get(name)?.toFixed(0)} sent ${sync.sentAt.get(name)?.toFixed(0)} created ${JSON.stringify(sim.service.candidates.get(name))} forget ${forget.byRow.get(name)} ${JSON.stringify(forget.forgotAt.get(name)?.map(Math.round))}, sync ${sync.start.toFixed(0)}-${sync.end.toFixed(0)}, forget ${forget.start.toFixed(0)}-${forget.end.toFixed(0)}`);
	await world.run(sim.sleep(180_000));
	const later = await world.run(execution(sim, new Proc('r0', world, sim.store, speed), names, { inFlight: 4, sendMs: () => 50 }), 50_000_000);
	const twice = sim.service.twice();
	// The Forget of the row ran while the sync worked on it (from its turn to its creation's answer).
	const during = (name: string) => {
		const [began, ended] = forget.forgotAt.get(name) ?? [Infinity, -Infinity];
		const taken = sync.taken.get(name) ?? Infinity;
		const created = sim.service.candidates.get(name)?.find((one) => one.by === 'p0')?.at ?? sync.end;
		return began <= created && ended >= taken;
	};
	const refusedNeverCreated = names.filter((name) => ['known', 'busy'].includes(sync.byRow.get(name) ?? '') && !sim.service.candidates.has(name) && !during(name));
	const refusedBeforeForget = names.filter((name) => ['known', 'busy'].includes(sync.byRow.get(name) ?? '') && !sim.service.candidates.has(name) && (sync.doneAt.get(name) ?? Infinity) < (forget.forgotAt.get(name)?.[0] ?? Infinity));
	return {
		seed,
		sameProcess,
		refusedBeforeForget,
		forgetRows: forgotten.length,
		forgetSeconds: Math.round((forget.end - forget.start) / 100) / 10,
		twice,
		stated: twice.filter(during),
		stranded,
		writtenBack,
		broughtBack,
		refusedLater: names.filter((name) => !['created', 'unchanged', 'same'].includes(later.byRow.get(name) ?? '') && sim.service.live(name).length === 0),
		refusals: Object.fromEntries(Object.entries(sync.actions).filter(([action]) => action !== 'created')),
		refusedNeverCreated,
	};
}

// Measured (seeds 200–215): nothing created twice; left claimed without a candidate 58 rows in the 8 seeds with the Forget on a
// queue worker, all of the two stated kinds (a sync that created the row before its Forget writes the claim back at its end: 41;
// a removal undone by a write that read before it: 29; some rows both), 0 with the Forget in the same process; a later run
// refused 17 of them (seeds 201, 213). The sync refused 41 rows "may already exist" that never existed, 15 of them before the
// Forget of the row began: the Forget's own lookahead had asked them (its asks claim). On 9622ee0: 70 left (34 and 42), 36
// refused later, the sync refused 61. A Forget of a row takes about 3 s here (49 rows in 141 s).
describe('Forget Each Input Row while the rows of a sync wait for their batch, or their batch\'s contest is under way (the lazy path)', () => {
	it('16 seeds, the Forget in the same process or in a queue worker: no row created twice but in the stated case, none left claimed without a candidate, none refused by a later run', async () => {
		const seeds: ForgetSeed[] = [];
		for (let seed = 200; seed < 216; seed++) seeds.push(await forgetDuringBatches(seed));
		if (REPORT) for (const one of seeds) print(`forget seed ${one.seed}${one.sameProcess ? ' (same process)' : ''}: twice ${one.twice.length} (stated ${one.stated.length}), stranded ${one.stranded.length} (written back ${one.writtenBack.length}, brought back ${one.broughtBack.length}), refused later ${one.refusedLater.length}, sync refused ${JSON.stringify(one.refusals)}, refused never created ${one.refusedNeverCreated.length}, refused before the Forget of the row began ${one.refusedBeforeForget.length}, forget ${one.forgetRows} rows in ${one.forgetSeconds} s`);
		const all = (pick: (one: ForgetSeed) => string[]) => seeds.flatMap((one) => pick(one).map((name) => `${one.seed}:${name}`));
		expect(all((one) => one.twice.filter((name) => !one.stated.includes(name)))).toEqual([]);
		// Left claimed: only the stated cases (a sync that worked on the row while it was forgotten writes its claim back at its end;
		// a removal undone by a write that read before it: "a claim a lost write brought back after its release").
		const unexplained = (one: ForgetSeed) => one.stranded.filter((name) => !one.writtenBack.includes(name) && !one.broughtBack.includes(name));
		expect(all(unexplained)).toEqual([]);
		expect(all((one) => one.refusedLater.filter((name) => unexplained(one).includes(name) || !one.stranded.includes(name)))).toEqual([]);
	}, 120_000);
});

describe('many rows in flight, and a store that turns slow and fast again', () => {
	// Measured (this file on e88a0ea; on 9622ee0): the run in s, the most rows claimed and not sent, the widest window, the calls.
	//   seed 51: 40.6 s, 628, 749, 28 calls; before 41.4 s, 761, 751, 26
	//   seed 52: 29.45 s, 727, 741, 22; before 29.8 s, 728, 751, 22
	//   seed 53: 79.75 s, 237, 266, 153; before 80.55 s, 642, 654, 134
	//   seed 54: 233.9 s, 55, 56, 301; before 231.65 s, 657, 659, 207
	const cases: Array<[string, number, number, (sim: Sim) => (call: number) => Profile, number]> = [
		['10 in flight, 80–300 ms a creation, calls of 0.5–0.7 s', 51, 10, (sim) => steady(largeList(sim.world)), 41_400],
		['16 in flight, 80–300 ms a creation, calls of 0.5–0.7 s', 52, 16, (sim) => steady(largeList(sim.world)), 29_800],
		// Calls of 30 ms and of 0.4–0.6 s in turn, 8 s each: the journal is lazy, then not, then lazy again (its last 20 calls).
		['4 in flight, 80–300 ms a creation, calls 8 s fast (30 ms) and 8 s slow (0.4–0.6 s) in turn', 53, 4, (sim) => () => (Math.floor(sim.world.now / 8_000) % 2 === 0 ? calls(sim.world, 30, 31) : calls(sim.world, 400, 600)), 80_550],
		['1 in flight, 150 ms a creation, calls 8 s fast and 8 s slow in turn', 54, 1, (sim) => () => (Math.floor(sim.world.now / 8_000) % 2 === 0 ? calls(sim.world, 30, 31) : calls(sim.world, 400, 600)), 231_650],
	];
	it.each(cases)('%s: 1,500 new rows, every row once, no claim left, claims not sent within the widest window and the rows in flight, as fast as before the change', async (_name, seed, inFlight, speed, before) => {
		const sim = new Sim(seed);
		const proc = new Proc('p0', sim.world, sim.store, speed(sim));
		const names = rows(1_500, 'n');
		const outcome = await sim.world.run(execution(sim, proc, names, { inFlight, sendMs: (world) => (inFlight === 1 ? 150 : 80 + 220 * world.random()), sample: true }), 50_000_000);
		if (REPORT) print(`in flight ${inFlight}, seed ${seed}: ${fmt(outcome)}`);
		expect(outcome.actions).toEqual({ created: 1_500 });
		expect(sim.service.twice()).toEqual([]);
		expect(strandedOf(sim, names)).toEqual([]);
		expect(outcome.maxUnsent).toBeLessThanOrEqual(outcome.maxWindow + inFlight);
		expect(outcome.end - outcome.start).toBeLessThan(1.05 * before);
	}, 120_000);
});

describe('the pace at its edges (pace.ts `PaceSamples.ahead`, contest.ts `window`)', () => {
	it('fewer samples than `RECENT`, samples of 0 ms, a failed count of the list: the rows ahead stay a whole number between the least and the most, and the window lets one row ahead at least', async () => {
		const sim = new Sim(61);
		const proc = new Proc('p0', sim.world, sim.store, steady(largeList(sim.world)));
		const shared = proc.shared;
		const journal = shared.journal;
		shared.recentCallsMs.push(650);
		const seen: number[] = [];
		const look = () => {
			const paced = shared.pace.ahead(journal.ahead, journal.decisionMs);
			seen.push(paced, journal.window(paced, 0));
			expect(Number.isInteger(paced)).toBe(true);
			expect(paced).toBeGreaterThanOrEqual(Math.min(MIN_AHEAD, journal.ahead));
			expect(paced).toBeLessThanOrEqual(journal.ahead);
			expect(journal.window(paced, 0)).toBeGreaterThanOrEqual(1);
			expect(journal.window(paced, 0)).toBeLessThanOrEqual(journal.ahead);
		};
		look();
		for (const time of [0, 0, 0]) {
			shared.pace.add(shared.pace.times, time);
			shared.pace.add(shared.pace.widths, 1);
			look();
		}
		// Three samples of 5 s after 32 of 10 ms: the 32 are faster than the last 8 (`RECENT`), so they count.
		for (let index = 0; index < 32; index++) shared.pace.add(shared.pace.times, 10);
		for (const time of [5_000, 5_000, 5_000]) shared.pace.add(shared.pace.times, time);
		look();
		// n8n could not count the list (`getProcessedDataCount` failed: the largest list, storeCalls.ts `recount`).
		journal.use({ ...proc.helpers, getProcessedDataCount: async () => await Promise.reject(new Error('count failed')) });
		const visit = journal.begin();
		expect(await sim.world.run(journal.standing(keyOfRow('edge'), visit))).toBe('mine');
		look();
		await sim.world.run(journal.end(visit));
		if (REPORT) print(`edges: ${seen.join(' ')}`);
	});
});
