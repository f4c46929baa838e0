/**
 * What one execution shares between its items: the controller (how many items are in flight, the
 * learned send rate), the transport session (credential read once, one login at a time, retry
 * policy, rate cap) and the reference-list cache. Built by the router for each node run; nothing
 * here outlives it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paceScope } from '../memory/keys';
import { CREDENTIAL_TYPE, Controller, TransportSession, keepPace, resumePace } from '../transport';
import { OnceMap, ReferenceCache } from '../referenceData/lists';
import type { RequestSettings } from './shared/options';

export interface RunContext {
	/** The one controller of this node run: the router asks it for slots, the transport for turns. */
	controller: Controller;
	session: TransportSession;
	references: ReferenceCache;
	/** Runs `work` once in this execution under `key`; later callers share its result. */
	once<T>(key: string, work: () => Promise<T>): Promise<T>;
	/** Candidates created in this execution (item index and slug), for a run that stops to list them. */
	readonly created: Array<{ item: number; slug: string }>;
	/** Work to do once every item is done (or the run stops), before the node returns. */
	atEnd(work: () => Promise<unknown>): void;
	/** Items to prepare ahead, when the operation learns it during the run (Create or Update: what its memory's pace needs, memory/pace.ts); else twice the requests in flight, or the operation's `ahead`. */
	ahead?: () => number;
	/**
	 * Auto: starts the controller from the pace the last node run against the same service left in
	 * this process (`transport/pace.ts`); `finish` leaves this run's there. The router calls it first.
	 */
	resumePace(context: IExecuteFunctions): Promise<void>;
	/** Runs the `atEnd` work and leaves the pace (the router calls it). */
	finish(): Promise<void>;
}

export function createRunContext(settings: RequestSettings): RunContext {
	const controller = new Controller({
		mode: settings.concurrencyMode,
		concurrency: settings.concurrency,
		maxConcurrency: settings.maxConcurrency,
		requestsPerSecond: settings.requestsPerSecond,
	});
	const session = new TransportSession(
		{ maxRetries: settings.maxRetries, initialDelayMs: settings.retryDelayMs },
		settings.requestsPerSecond,
		settings.timeoutMs,
		controller,
	);
	const results = new OnceMap();
	const endings: Array<() => Promise<unknown>> = [];
	let scope: string | undefined;
	return {
		controller,
		session,
		references: new ReferenceCache(session),
		created: [],
		async once<T>(key: string, work: () => Promise<T>): Promise<T> {
			return await results.run(key, work);
		},
		atEnd(work) {
			endings.push(work);
		},
		async resumePace(context) {
			if (settings.concurrencyMode !== 'auto') return;
			// A credential that cannot be read: no pace; every item reports the problem.
			const credentials = await session.getCredentials(context).catch(() => undefined);
			if (!credentials) return;
			scope = paceScope(credentials, context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined);
			resumePace(scope, controller);
		},
		async finish() {
			await Promise.allSettled(endings.map(async (work) => await work()));
			if (scope !== undefined) keepPace(scope, controller);
		},
	};
}

/** What an operation answers for one item: one object (one output item) or a list (one output item per element). */
export type Output = IDataObject | IDataObject[];

/** Sends a prepared item and answers with its output. */
export type Send = () => Promise<Output>;

interface OperationBase {
	description: INodeProperties[];
	/**
	 * Checks one item's input without sending or remembering anything (throws what its preparation
	 * would throw for bad input): when Stop Workflow stops the run, the router checks the items it
	 * did not reach, so that its error names every row that fails the same way.
	 */
	check?: (this: IExecuteFunctions, itemIndex: number) => void;
	/**
	 * The output is itself a secret the user asked for (API key values, Log In's token): the
	 * router does not redact it. Every other output passes through the transport's redaction.
	 */
	outputIsSecret?: boolean;
}

/**
 * One operation: its parameters, and what it does for one input item; the router pairs the
 * output with the input item. An operation whose items cost CPU before their first request
 * (expressions, validation, names) splits the two: `prepare` reads, validates and resolves one
 * item and sends nothing (but a reference list it needs), and returns what sends it; the router
 * prepares items ahead of the ones in flight (`lookahead.ts`), and an item that was only
 * prepared is never sent. The others do everything in `execute`.
 */
export type OperationModule = PreparedOperation | (OperationBase & { execute: Execute; prepare?: undefined });

/** Prepares one item: reads, validates and resolves its input, and returns what sends it. */
export type Prepare = (this: IExecuteFunctions, itemIndex: number, run: RunContext) => Promise<Send>;

/** Does everything for one item at once. */
export type Execute = (this: IExecuteFunctions, itemIndex: number, run: RunContext) => Promise<Output>;

/** An operation that prepares its items ahead (see `OperationModule`). */
export interface PreparedOperation extends OperationBase {
	prepare: Prepare;
	execute?: undefined;
	/** At least this many items prepared ahead of the ones in flight (default: twice the requests in flight). */
	ahead?: number;
}

/** An entry of a resource's "Operation" dropdown. */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/**
 * A resource: its entry in the "Resource" dropdown, and its operations in the order their
 * parameters appear (the "Operation" dropdown lists them by name). `registry.ts` builds the
 * node's parameters and the router's operation map from these.
 */
export interface ResourceDefinition {
	/** Its entry in the "Resource" dropdown. */
	option: { name: string; value: string; description: string };
	/** The operation selected when the resource is chosen. */
	defaultOperation: string;
	operations: Array<{ option: OperationOption; module: OperationModule }>;
}
