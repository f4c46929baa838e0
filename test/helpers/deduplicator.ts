/**
 * An in-memory stand-in for n8n's deduplication store (the server's `DeduplicationHelper` over
 * its `processed_data` table, n8n/dist/deduplication/deduplication-helper.js), for the engine
 * harness: the same contract for mode 'entries' (md5 base64 hashes of `String(value)`, one list
 * per workflow and scope, `new` / `processed` per call, items of one call checked against the list
 * as it was before the call). The real store runs in the e2e and queue tests.
 */
import { createHash } from 'node:crypto';

import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDataDeduplicator, IDeduplicationOutput } from 'n8n-workflow';

const hashOf = (value: DeduplicationItemTypes) => createHash('md5').update(String(value)).digest('base64');

export class InMemoryDeduplicator implements IDataDeduplicator {
	private readonly lists = new Map<string, string[]>();

	/** Calls that read and rewrote a list (as n8n's store does once per call). */
	writes = 0;

	private keyOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		const { id } = contextData.workflow;
		if (!id) throw new Error('n8n needs a workflow id for deduplication');
		return `${String(id)}|${scope === 'node' ? `n:${contextData.node?.id ?? ''}` : ''}`;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries') throw new Error('only mode "entries" is modelled here');
		const key = this.keyOf(scope, contextData);
		const list = this.lists.get(key);
		this.writes += 1;
		if (!list) {
			this.lists.set(key, items.map(hashOf));
			return { new: items, processed: [] };
		}
		const before = new Set(list);
		const result: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = hashOf(item);
			if (before.has(hash)) result.processed.push(item);
			else {
				result.new.push(item);
				list.push(hash);
			}
		}
		if (options.maxEntries) list.splice(0, list.length - options.maxEntries);
		return result;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		const list = this.lists.get(this.keyOf(scope, contextData));
		if (!list) return;
		this.writes += 1;
		for (const hash of items.map(hashOf)) {
			const index = list.indexOf(hash);
			if (index !== -1) list.splice(index, 1);
		}
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.lists.delete(this.keyOf(scope, contextData));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<number> {
		return this.lists.get(this.keyOf(scope, contextData))?.length ?? 0;
	}
}
