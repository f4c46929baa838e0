/**
 * What one execution shares between its items: the transport session (credential read once,
 * one login at a time, retry policy, rate cap) and the reference-list cache. Built by the
 * router for each execution; nothing here outlives it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { TransportSession } from '../transport';
import { ReferenceCache } from './common/referenceLists';

export interface RunContext {
	session: TransportSession;
	references: ReferenceCache;
	/** Runs `work` once in this execution under `key`; later callers share its result. */
	once<T>(key: string, work: () => Promise<T>): Promise<T>;
	/** Candidates created in this execution (item index and slug), for a run that stops to list them. */
	readonly created: Array<{ item: number; slug: string }>;
}

export function createRunContext(session: TransportSession): RunContext {
	const results = new Map<string, Promise<unknown>>();
	return {
		session,
		references: new ReferenceCache(session),
		created: [],
		async once<T>(key: string, work: () => Promise<T>): Promise<T> {
			let pending = results.get(key) as Promise<T> | undefined;
			if (!pending) {
				pending = work();
				results.set(key, pending);
			}
			return await pending;
		},
	};
}

/**
 * One operation: its parameters, and what it does for one input item. It returns one object
 * (one output item) or a list (one output item per element); the router pairs them with the
 * input item.
 */
export interface OperationModule {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, itemIndex: number, run: RunContext) => Promise<IDataObject | IDataObject[]>;
}
