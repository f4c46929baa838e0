/**
 * Measuring the claims a run of Create or Update holds for rows it has not created (the rows it
 * prepared ahead): test/service/paceBreak.test.ts, heldAheadBreak.test.ts.
 */
import type { DeduplicationItemTypes, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Harness } from './harness';
import { deduplicator } from './harness';
import { ALICE } from './sandbox';
import type { Sandbox } from '../sandbox/server';

/** New rows for a sheet: `count` e-mails under `prefix`, each with a first name (and `extra`). */
export const sheetRows = (count: number, prefix: string, extra: (index: number) => IDataObject = () => ({})): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${prefix}.${index}@example.test`, first: `F${index}`, ...extra(index) }));

let runs = 0;
/** A prefix no other run of the test file uses. */
export const tag = (name: string) => `${name}${++runs}x${Date.now() % 100000}`;
/** How many prefixes `tag` gave (phone numbers of a run made unique with it). */
export const tagged = () => runs;

export const count = (actions: string[]) => actions.reduce<Record<string, number>>((acc, a) => ((acc[a] = (acc[a] ?? 0) + 1), acc), {});

/** One run (On Error: Continue): how long it took and each item's action (or error). */
export async function timed(harness: Harness, parameters: INodeParameters, items: IDataObject[]) {
	const started = Date.now();
	const result = await harness.run({ parameters, items, onError: 'continueRegularOutput' });
	return { ms: Date.now() - started, actions: result.items.map((item) => String(item.json.action ?? item.json.error)) };
}

/**
 * Every 50 ms: claims newly written to n8n's store minus `perRow` × the candidates created with `prefix` (claims held for
 * rows not created); `delayMs`: the store takes that long before each call (`slowStore`).
 */
export function sampleUnsent(sandbox: () => Sandbox, prefix: string, perRow = 1, delayMs = 0) {
	const fresh = new Set<string>();
	const restore = slowStore(delayMs, (written) => {
		for (const item of written) if (String(item).startsWith('claim:')) fresh.add(String(item));
	});
	const created = () => sandbox().candidates(ALICE.companyId).filter((candidate) => String(candidate.email).startsWith(prefix)).length;
	const samples: Array<{ at: number; unsent: number }> = [];
	const started = Date.now();
	let running = true;
	const sampling = (async () => {
		for (; running; await sleep(50)) samples.push({ at: Date.now() - started, unsent: fresh.size - perRow * created() });
	})();
	return {
		samples,
		max: () => Math.max(...samples.map(({ unsent }) => unsent)),
		stop: async () => {
			running = false;
			await sampling;
			restore();
		},
	};
}

/** n8n's store (the engine's in-memory one) taking `delayMs` before each call; `written`: sees the values each call wrote. Returns the undo. */
export function slowStore(delayMs: number, written: (values: DeduplicationItemTypes[]) => void = () => undefined): () => void {
	const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
	const remove = deduplicator.removeProcessed.bind(deduplicator);
	const spies = [
		jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			if (delayMs > 0) await sleep(delayMs);
			const result = await record(items, ...rest);
			written(result.new);
			return result;
		}),
		jest.spyOn(deduplicator, 'removeProcessed').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			if (delayMs > 0) await sleep(delayMs);
			return await remove(items, ...rest);
		}),
	];
	return () => spies.forEach((spy) => spy.mockRestore());
}
