/**
 * Candidate → Create or Update with Dry Run (`options.dryRun`): every row goes through the same
 * decision as in a real run (its Sync State or the memory, names resolved to IDs, validation),
 * and the output is the plan: what a real run would do (`action`, `dryRun: true`) and the writes
 * it would send (`requests`: method, path, body). Nothing is written to the service, nothing is
 * remembered. Two seams, nothing else changes:
 *   - the transport sends the reads (reference lists) and hands every write to this file
 *     (`TransportSession.intercept`), which notes it for its item and answers as the service
 *     would (a creation gets the slug `(new)`);
 *   - the memory (`planMemory`) reads what a real run reads, but never writes: n8n's static data
 *     and the node's context are read from copies, n8n's deduplication store is not touched (no
 *     claim), and what the run learns stays in this execution (a row given twice is planned as a
 *     real run would do it: created once); Retry On Fail's memory of the node run too. A row this
 *     node does not know is recalled from another Create or Update node of the workflow (a node
 *     kept for previews, such as the agents' preview tool, plans what the node beside it would do).
 * What a dry run cannot know: whether n8n's deduplication store holds a claim of a row's creation
 * (an earlier execution created it and its memory was not saved); n8n offers no way to read that
 * store without writing to it. A planned creation says so (`notChecked`).
 */
import type { ContextType, ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Remembered } from '../../../memory';
import { CandidateMemory, retryMemory } from '../../../memory';
import { FIELD, decodeRow, encodeRow } from '../../../memory/store';
import type { ServiceResponse } from '../../../transport';
import type { InterceptedRequest } from '../../../transport/execution';
import type { Output, PreparedOperation, RunContext, Send } from '../../context';
import { itemParameter } from '../../shared/parameters';

/** The slug a dry run gives a candidate it would create (in the output and the planned requests). */
export const NEW_SLUG = '(new)';

/** The message of every write a dry run answers (a record's result carries it). */
export const NOT_SENT = 'Dry run: not sent';

const CANDIDATE_PATH = '/gin/v1/company/candidate';

/** What a planned creation could not check (only where n8n has the deduplication store). */
export const NOT_CHECKED =
	'Whether an earlier execution already sent this row\'s creation without n8n saving its memory (a manual run, one that stopped or ran at the same time): a real run then refuses the row as "may already exist" instead of creating it. n8n\'s deduplication store, which holds that, cannot be read without writing to it.';

/** One write a real run would send. */
export interface PlannedRequest extends IDataObject {
	method: string;
	path: string;
	body: IDataObject;
}

/** Whether this node run is a dry run (asked by `upsert.operation.ts` for its memory): its writes are intercepted. */
export const isDryRun = (run: RunContext): boolean => run.session.intercept !== undefined;

/**
 * The node's context as the memory reads it, where every write stays in this execution: the
 * workflow's static data and the node's context are copies (`copies`, shared by the views of one
 * dry run), and n8n's deduplication helpers are absent (the memory then neither claims nor
 * releases, and decides as where n8n has none). With `nodeId`: as the node of that id sees it.
 */
function readOnlyView(context: IExecuteFunctions, copies = new Map<string, IDataObject>(), nodeId?: string): IExecuteFunctions {
	const copy = (name: string, read: () => IDataObject) => {
		let found = copies.get(name);
		if (!found) {
			found = JSON.parse(JSON.stringify(read() ?? {})) as IDataObject;
			copies.set(name, found);
		}
		return found;
	};
	const own: Record<string, unknown> = {
		getWorkflowStaticData: (type: string) => copy(`static ${type}`, () => context.getWorkflowStaticData(type)),
		getContext: (type: ContextType) => copy(`context ${type}`, () => context.getContext(type)),
		helpers: {},
		...(nodeId === undefined ? {} : { getNode: () => ({ ...context.getNode(), id: nodeId }) }),
	};
	return new Proxy(context, {
		get(target, property) {
			if (typeof property === 'string' && property in own) return own[property];
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

/**
 * The other nodes of the workflow whose memory n8n saved (in the workflow's static data), read as
 * this node's credential sees them: where a row is recalled when this node's memory does not know it.
 */
async function otherMemories(context: IExecuteFunctions, copies: Map<string, IDataObject>, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory[]> {
	const saved = readOnlyView(context, copies).getWorkflowStaticData('global')[FIELD] as IDataObject | undefined;
	const ids = Object.keys(saved ?? {}).filter((id) => id !== context.getNode().id);
	return await Promise.all(ids.map(async (id) => await CandidateMemory.open(readOnlyView(context, copies, id), credentials)));
}

/**
 * The dry run's memory: it recalls as a real run's does, and what the run would remember (or
 * forget) is kept for this execution only. No claim, no write to n8n's static data or store.
 *
 * A row this node's memory does not know is recalled from another Create or Update node of the
 * workflow that knows it under the same credential: a node kept for previews (Dry Run always on,
 * such as the preview tool beside the tool that files) never remembers anything itself, and plans
 * what the node beside it would do.
 */
export async function planMemory(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): Promise<CandidateMemory> {
	const copies = new Map<string, IDataObject>();
	const base = await CandidateMemory.open(readOnlyView(context, copies), credentials);
	const others = await otherMemories(context, copies, credentials);
	/** Row key → the row as this dry run would have left it (undefined: forgotten). */
	const learned = new Map<string, string | undefined>();
	const recall = (key: string): Remembered | undefined => {
		if (learned.has(key)) return decodeRow(learned.get(key));
		return base.recall(key) ?? others.map((memory) => memory.recall(key)).find((row) => row !== undefined);
	};
	const overrides: Partial<CandidateMemory> = {
		recall,
		claim: async () => true,
		unclaim: async () => undefined,
		remember: (key: string, entry: Remembered) => {
			if (typeof entry.s === 'string' && entry.s !== '') learned.set(key, encodeRow(entry));
		},
		forget: async (key: string) => {
			const known = recall(key) !== undefined;
			learned.set(key, undefined);
			return known;
		},
		// Never asked: a dry run answers Forget All Rows itself (`withDryRun`).
		clear: async () => 0,
		repair: async () => {
			await Promise.all(others.map(async (memory) => await memory.repair()));
			return await base.repair();
		},
	};
	return Object.assign(Object.create(base) as CandidateMemory, overrides);
}

/** What a dry run answers a write with, as the service would: a creation gets the slug `(new)`. */
function plannedAnswer(request: InterceptedRequest): ServiceResponse {
	const created = request.method === 'POST' && request.path === CANDIDATE_PATH;
	const body: IDataObject = created ? { message: NOT_SENT, status: 201, data: { slug: NEW_SLUG } } : { message: NOT_SENT, status: 200 };
	return { httpStatus: created ? 201 : 200, status: body.status as number, message: NOT_SENT, data: body.data, body };
}

const isRead = (request: InterceptedRequest) => request.method === 'GET' || request.method === 'HEAD';

const DRY_PREFIX = 'Dry run: nothing was sent or remembered.';

/** One node run's dry run: the writes each item would send. */
class DryRun {
	private readonly items = new Map<number, PlannedRequest[]>();

	/** Whether n8n has the deduplication store (where a real run claims creations there). */
	constructor(private readonly claims: boolean) {}

	/** The transport's interceptor: notes a write for its item and answers it; a read is sent. */
	answer(request: InterceptedRequest): ServiceResponse | undefined {
		if (isRead(request)) return undefined;
		const body = JSON.parse(JSON.stringify(request.body ?? {})) as IDataObject;
		this.items.get(request.itemIndex ?? -1)?.push({ method: request.method, path: request.path, body });
		return plannedAnswer(request);
	}

	/** Sends one item's prepared row with its writes noted, and answers with its plan. */
	async send(itemIndex: number, run: RunContext, send: Send): Promise<Output> {
		const requests: PlannedRequest[] = [];
		this.items.set(itemIndex, requests);
		try {
			const output = await send();
			return Array.isArray(output) ? output.map((json) => this.planned(json, requests)) : this.planned(output, requests);
		} catch (error) {
			throw refused(error, requests);
		} finally {
			this.items.delete(itemIndex);
			// Nothing was created: a run that stops lists no "(new)" candidate as created.
			for (let index = run.created.length - 1; index >= 0; index--) if (run.created[index].item === itemIndex) run.created.splice(index, 1);
		}
	}

	/** A row's output as a plan: marked, without a Sync State (nothing was sent: none to write back), with its requests. */
	private planned(output: IDataObject, requests: PlannedRequest[]): IDataObject {
		const fields = Object.fromEntries(Object.entries(output).filter(([name]) => name !== 'syncState'));
		const plan: IDataObject = { dryRun: true, ...('action' in fields ? { action: fields.action } : {}), ...fields, requests };
		const said = typeof output.message === 'string' && output.message !== '' ? ` A real run: ${output.message}` : '';
		plan.message = `${DRY_PREFIX}${said}`;
		if (output.action === 'created' && this.claims) plan.notChecked = NOT_CHECKED;
		return plan;
	}
}

/** A failed row of a dry run: its error item (continue on fail) says it is one, with the writes planned before it failed. */
function refused(error: unknown, requests: PlannedRequest[]): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const partial = (error.context.partialResult as IDataObject | undefined) ?? {};
	const fields = Object.fromEntries(Object.entries(partial).filter(([name]) => name !== 'syncState'));
	error.context.partialResult = { dryRun: true, ...fields, requests };
	return error;
}

/** The node run's dry run, set up by its first item (Dry Run is one setting of the node, not per item). */
async function dryRunOf(context: IExecuteFunctions, run: RunContext): Promise<DryRun | undefined> {
	return await run.once('candidateDryRun', async () => {
		if (context.getNodeParameter('options.dryRun', 0, false) !== true) return undefined;
		const plan = new DryRun(typeof context.helpers.checkProcessedAndRecord === 'function');
		run.session.intercept = (request) => plan.answer(request);
		// Retry On Fail's memory of this node run, on a copy of the node's context: nothing was created, so a later try plans it all again.
		await retryMemory(readOnlyView(context), run);
		return plan;
	});
}

/** Create or Update with Dry Run: the operation as it is, its writes planned instead of sent when Dry Run is on. */
export function withDryRun(operation: PreparedOperation): PreparedOperation {
	return {
		...operation,
		async prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
			const plan = await dryRunOf(this, run);
			if (!plan) return await operation.prepare.call(this, itemIndex, run);
			if (itemParameter<string>(this, 'memoryAction', itemIndex, 'remember') === 'clearAll') {
				return async () => ({ dryRun: true, action: 'cleared', requests: [], message: `${DRY_PREFIX} A real run forgets every row of this node.` });
			}
			let send: Send;
			try {
				send = await operation.prepare.call(this, itemIndex, run);
			} catch (error) {
				throw refused(error, []);
			}
			return async () => await plan.send(itemIndex, run, send);
		},
	};
}
