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
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { MatchBy, Remembered } from '../../../memory';
import { CandidateMemory, readOnlyRetryMemory } from '../../../memory';
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
	'Whether an earlier execution already sent this row\'s creation without n8n saving its memory (a manual run, one that stopped or ran at the same time), or another one is deciding it: a real run then finds it `unchanged` (sent with exactly this content) or refuses it ("may already exist", "another execution was deciding this row at the same moment", or "too slow to be sure") instead of creating it. n8n\'s deduplication store, which holds that, cannot be read without writing to it.';

/** What a planned Forget of a row this process does not know could not check. */
export const FORGET_NOT_CHECKED =
	'Whether n8n\'s deduplication store holds this row\'s claim (another execution or n8n process created it, or claimed it and was stopped or killed): a real Forget Now then removes that claim and answers known: true. The store cannot be read without writing to it.';

/** What a planned adoption of a row taken as changed could not check. */
export const ADOPT_NOT_CHECKED =
	'Whether n8n\'s deduplication store says this row was sent before with exactly this content: a real run then takes its profile and records as the candidate holds them (the next Sync Rows run is `unchanged`) instead of leaving its profile to be sent. The store cannot be read without writing to it.';

/** One write a real run would send. */
export interface PlannedRequest extends IDataObject {
	method: string;
	path: string;
	body: IDataObject;
}

/** Whether this node run is a dry run (asked by `upsert.operation.ts` for its memory): its writes are intercepted. */
export const isDryRun = (run: RunContext): boolean => run.session.intercept !== undefined;

/** Options → Plan From: whose memory a dry run plans from (a node kept only for previews plans from the node beside it). */
export type PlanFrom = 'thisNode' | 'otherNodes';

/**
 * The dry run's memory, through the read-only door of memory/ (`CandidateMemory.readOnly`): it
 * recalls what a real run of this node recalls, and what the run would remember (or forget) is
 * kept for this execution only. Nothing shared is touched: no claim, no write to n8n's static data
 * or store, nothing handed to the process's memory of the node (a real execution running beside
 * it behaves as it would alone).
 *
 * A row this node's memory does not know is planned as this node's real run would do it (created);
 * where another Create or Update node of the workflow knows it, the row says so (`alsoKnownBy`).
 * Only with Plan From: Other Create or Update Nodes (a node kept for previews, Dry Run always on,
 * such as the preview tool beside the tool that files) is such a row planned from that memory.
 */
export async function planMemory(context: IExecuteFunctions, credentials: ICredentialDataDecryptedObject, run: RunContext): Promise<CandidateMemory> {
	const others = CandidateMemory.otherNodes(context).map((id) => CandidateMemory.readOnly(context, credentials, id));
	const borrow = itemParameter<PlanFrom>(context, 'options.planFrom', 0, 'thisNode') === 'otherNodes';
	const plan = await dryRunOf(context, run);
	// A row this node does not know: noted where another node knows it, and planned from it only with Plan From: Other Nodes.
	const elsewhere = (key: string): Remembered | undefined => {
		const other = others.map((memory) => memory.recall(key)).find((row) => row !== undefined);
		if (other) plan?.noteElsewhere(key, other.s, borrow);
		return borrow ? other : undefined;
	};
	const memory = CandidateMemory.readOnly(context, credentials, undefined, plan ? elsewhere : undefined);
	if (plan) plan.keyOf = (matchBy, value) => memory.keyOf(matchBy, value);
	return memory;
}

/** What a dry run answers a write with, as the service would: a creation gets the slug `(new)`. */
function plannedAnswer(request: InterceptedRequest): ServiceResponse {
	const created = request.method === 'POST' && request.path === CANDIDATE_PATH;
	const body: IDataObject = created ? { message: NOT_SENT, status: 201, data: { slug: NEW_SLUG } } : { message: NOT_SENT, status: 200 };
	return { httpStatus: created ? 201 : 200, status: body.status as number, message: NOT_SENT, data: body.data, body };
}

const isRead = (request: InterceptedRequest) => request.method === 'GET' || request.method === 'HEAD';

const DRY_PREFIX = 'Dry run: nothing was sent or remembered.';

/** What a plan says of a row this node does not know and another Create or Update node of the workflow does. */
export const ALSO_KNOWN =
	'Another Create or Update node of this workflow created this candidate (slug in alsoKnownBy). Each node keeps its own memory: a real run of this node creates the candidate again. To update it from this node, map the slug to Candidate Slug; for a node kept only for previews, set Options → Plan From to the other nodes.';

/** One node run's dry run: the writes each item would send. */
class DryRun {
	private readonly items = new Map<number, PlannedRequest[]>();

	/** Rows known only to another node's memory: row key → that node's slug, and whether the plan took it. */
	private readonly elsewhere = new Map<string, { slug: string; borrowed: boolean }>();

	/** The row key of an output's lead (set by the plan's memory). */
	keyOf: (matchBy: MatchBy, value: unknown) => string = () => '';

	noteElsewhere(key: string, slug: string, borrowed: boolean): void {
		this.elsewhere.set(key, { slug, borrowed });
	}

	/** What the plan says of a row another node knows: taken from that node (a preview node), or to be created again here. */
	private otherNode(output: IDataObject): IDataObject {
		const matchBy = output.matchedBy as MatchBy | undefined;
		const field = matchBy === 'key' ? 'matchKey' : matchBy;
		const known = field === undefined ? undefined : this.elsewhere.get(this.keyOf(matchBy!, output[field]));
		if (!known) return {};
		return known.borrowed ? { plannedFrom: 'otherNode' } : output.created === true ? { alsoKnownBy: known.slug, warning: ALSO_KNOWN } : {};
	}

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
		if (this.claims) {
			// A creation, or a row planned from a creation planned earlier in this input (its slug `(new)`): n8n's store decides.
			if (output.created === true || output.slug === NEW_SLUG) plan.notChecked = NOT_CHECKED;
			if (output.action === 'forgotten' && output.known === false) plan.notChecked = FORGET_NOT_CHECKED;
		}
		return { ...plan, ...this.otherNode(output) };
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
		// Retry On Fail's memory of this node run, read-only: nothing was created, so a later try plans it all again.
		await readOnlyRetryMemory(context, run);
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
				// As the real run: one output item for the whole run, paired with the first input item.
				if (itemIndex !== 0) return async () => [];
				const confirmed = itemParameter(this, 'confirmForget', 0, false) === true;
				return async () => ({
					dryRun: true,
					action: confirmed ? 'cleared' : 'wouldClear',
					requests: [],
					message: `${DRY_PREFIX} ${confirmed ? 'A real run forgets every row of this node.' : 'A real run only says what it would forget (Forget Now is off).'}`,
				});
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
