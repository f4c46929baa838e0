/**
 * Runs the chosen operation for every input item: as many at once as the run's controller allows
 * (`transport/controller.ts`: fixed, or adapted to the service), in input order, each prepared
 * ahead by `lookahead.ts` while requests are in flight; output in
 * input order, every output item paired with its input item, and errors handled once for all
 * operations:
 * - every output item, and every error's message and description, pass through the transport's
 *   one redaction (but outputs that are a secret the user asked for: API keys, Log In's token);
 * - with "continue on fail" a failed item becomes one error item;
 * - otherwise the first failure stops the run: no new request starts, requests in flight finish,
 *   and the run fails with the first failing item's error (by item order), whose description
 *   lists every candidate created in this execution so the user can reconcile before a re-run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { notSentStopping, redact, redactValues } from '../transport';
import { requestSettings } from './shared/options';
import type { OperationModule, RunContext, Send } from './context';
import { createRunContext } from './context';
import { Lookahead } from './lookahead';
import { getOperation } from './registry';
import type { Tally } from './runSummary';
import { countsRows, reportRun, tallyOfError, tallyOfOutput } from './runSummary';

type NodeError = NodeApiError | NodeOperationError;

/** The error as an n8n node error with its item index, its texts redacted. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number, secrets: readonly string[]): NodeError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error instanceof Error ? error.message : String(error), { itemIndex });
	if (nodeError.context.itemIndex === undefined) nodeError.context.itemIndex = itemIndex;
	nodeError.message = redact(nodeError.message, secrets);
	if (typeof nodeError.description === 'string') nodeError.description = redact(nodeError.description, secrets);
	return nodeError;
}

/**
 * Output an error item carries: the message, the service's status if any, and partial results
 * (`error.context.partialResult`, e.g. the slug of a candidate an import created).
 *
 * n8n-core replaces the json of every item that carries `error` by `{ error: message }`, on
 * either output. So an item with partial results goes without `error`: on the regular output
 * with them beside `error`; on the error output (which takes only items whose json is just
 * `{ error }`) with them inside `error`, whose `message` is then the error's message.
 */
function errorItem(error: NodeError, itemIndex: number, errorOutput: boolean, secrets: readonly string[]): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.errorDescription = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const found = (error.context as IDataObject).partialResult;
	if (!found || typeof found !== 'object') return { json, error, pairedItem: { item: itemIndex } };
	// Partial results are answers of the service, redacted as every regular output is.
	const partial = redactValues(found, secrets);
	const { error: message, ...details } = json;
	return {
		json: errorOutput ? { error: { ...partial, message, ...details } } : { ...json, ...partial, error: message },
		pairedItem: { item: itemIndex },
	};
}

/** The output without an empty `error` field (see `runItem`). */
function withoutEmptyError(output: IDataObject | IDataObject[]): IDataObject | IDataObject[] {
	if (Array.isArray(output)) return output.map((json) => withoutEmptyError(json) as IDataObject);
	if (output.error !== '') return output;
	const rest = { ...output };
	delete rest.error;
	return rest;
}

/**
 * An operation's answer as output items, each element's json exactly as answered: not
 * n8n's `returnJsonArray`, which takes an element with a `json` key for an item (a service object
 * with a "json" field would lose its other fields) and passes `null` through as an item's json.
 * What is not an object (null, a number, text) becomes `{ value }`.
 */
function asItems(output: IDataObject | IDataObject[]): INodeExecutionData[] {
	const list: unknown[] = Array.isArray(output) ? output : [output];
	return list.map((json) => ({ json: typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as IDataObject) : { value: json as IDataObject } }));
}

/**
 * The error that stops the run, its description extended by the candidates this execution
 * created and the creations whose outcome is unknown (cut off by the cancellation, or by a
 * failure after they may have reached the service).
 */
function stoppingError(error: NodeError, run: RunContext, failures: Map<number, NodeError>): NodeError {
	const parts: string[] = [];
	if (run.created.length > 0) {
		const created = [...run.created].sort((a, b) => a.item - b.item).map(({ item, slug }) => `item ${item}: ${slug}`);
		parts.push(
			`Candidates created in this execution before it stopped (item index: slug): ${created.join(', ')}. Keep these slugs (pass one as Candidate Slug) so that a re-run does not create them again.`,
		);
	}
	const unknown = [...failures.entries()].filter(([, failure]) => failure.context.mayExist === true).map(([item]) => item);
	if (unknown.length > 0) {
		parts.push(
			`Creations under way when it stopped, which the service may or may not have stored (item index): ${unknown.sort((a, b) => a - b).join(', ')}. Check whether they exist before running these items again.`,
		);
	}
	// Rows refused for one reason (the operation marks it: `context.refusal`), counted once.
	const refused = new Map<string, number[]>();
	for (const [item, failure] of failures) {
		const reason = failure.context.refusal;
		if (typeof reason === 'string') refused.set(reason, [...(refused.get(reason) ?? []), item]);
	}
	for (const [reason, items] of refused) {
		parts.push(
			`${items.length} ${items.length === 1 ? 'row was' : 'rows were'} refused before the run stopped (item index: ${items.sort((a, b) => a - b).join(', ')}): ${reason}. The rows after them were not looked at.`,
		);
	}
	if (parts.length > 0) error.description = [error.description, ...parts].filter(Boolean).join(' ');
	return error;
}

/** One node run: what the router's steps share. */
interface Job {
	context: IExecuteFunctions;
	module: OperationModule;
	run: RunContext;
	count: number;
	signal?: AbortSignal;
	continueOnFail: boolean;
	errorOutput: boolean;
	/** n8n's Retry On Fail is on for the node. */
	retried: boolean;
	results: INodeExecutionData[][];
	failures: Map<number, NodeError>;
	/** How many items were started (the others were not reached when the run stopped). */
	started: number;
	/** Items not reached when the run stopped whose input fails the operation's check (`check`). */
	checked: Map<number, NodeError>;
	/** What happened to each row, for the operations whose rows are counted (`runSummary.ts`); empty for the others. */
	tallies?: Array<Tally | undefined>;
}

const halted = (job: Job): boolean => job.run.session.stopped || job.signal?.aborted === true;

/** Items are prepared (parameters read, validated, names resolved) ahead of the ones in flight. */
function lookaheadOf(job: Job): Lookahead<Send> {
	const { context, module, run } = job;
	const prepare = async (itemIndex: number): Promise<Send> =>
		module.prepare !== undefined
			? await module.prepare.call(context, itemIndex, run)
			: async () => await module.execute.call(context, itemIndex, run);
	// An operation that learns how many it needs (Create or Update: its memory's pace) says so; else twice the requests in flight.
	const window = module.prepare !== undefined ? () => run.ahead?.() ?? Math.max(2 * run.controller.limit, module.ahead ?? 0) : 0;
	return new Lookahead<Send>(job.count, window, prepare, () => halted(job));
}

/** Sends one item and keeps its output, or its error (continue on fail), or stops the run. */
async function runItem(job: Job, lookahead: Lookahead<Send>, itemIndex: number): Promise<void> {
	const { context, module, run } = job;
	try {
		const prepared = await lookahead.take(itemIndex);
		if (!prepared.ok) throw prepared.error;
		const answer = await prepared.value();
		const output = module.outputIsSecret ? answer : redactValues(answer, await run.session.secrets(context));
		// n8n's Retry On Fail runs the node again when its first item has any `error` (n8n 1.x: even ''): with it on, an
		// output that went through (Import's, Create or Update's) has no empty `error`.
		const shown = job.retried ? withoutEmptyError(output) : output;
		job.results[itemIndex] = context.helpers.constructExecutionMetaData(asItems(shown), { itemData: { item: itemIndex } });
		if (job.tallies) job.tallies[itemIndex] = tallyOfOutput(answer);
	} catch (error) {
		const secrets = await run.session.secrets(context);
		const nodeError = asNodeError(context, error, itemIndex, secrets);
		// A row only interrupted because the run was stopping is not counted.
		if (job.tallies && !notSentStopping(error)) job.tallies[itemIndex] = tallyOfError(nodeError.context);
		if (job.continueOnFail) {
			job.results[itemIndex] = [errorItem(nodeError, itemIndex, job.errorOutput, secrets)];
		} else {
			job.failures.set(itemIndex, nodeError);
			run.session.stop();
		}
	}
}

/**
 * Starts the items in input order, each when the run's controller gives it a slot, until none
 * is left or the run stops (Stop Workflow, cancellation: the controller ends the wait for a
 * slot); then waits for the items in flight.
 */
async function dispatch(job: Job, lookahead: Lookahead<Send>): Promise<void> {
	const { controller } = job.run;
	const running = new Set<Promise<void>>();
	const cancel = () => controller.close();
	job.signal?.addEventListener('abort', cancel);
	try {
		for (let index = 0; index < job.count && !halted(job); index++) {
			if (!(await controller.slot())) break;
			if (halted(job)) {
				controller.release();
				break;
			}
			job.started = index + 1;
			const item: Promise<void> = runItem(job, lookahead, index).finally(() => {
				controller.release();
				running.delete(item);
			});
			running.add(item);
		}
		await Promise.all(running);
	} finally {
		job.signal?.removeEventListener('abort', cancel);
	}
}

/** A row as the editor counts them (from 1), with n8n's item index (from 0) beside it. */
export const rowName = (itemIndex: number): string => `row ${itemIndex + 1} (item index ${itemIndex})`;

/**
 * The first failure named by its row (when the run has more than one), and the other rows that
 * failed on their own before the run stopped (not those only refused for it, nor those counted
 * under a refusal of their own): in the message how many and which, in the description each
 * with its reason.
 */
function namingRows(error: NodeError, first: number, job: Job, causes: number[]): NodeError {
	if (job.count <= 1) return error;
	const failed = new Map([...causes.filter((index) => typeof job.failures.get(index)?.context.refusal !== 'string').map((index) => [index, job.failures.get(index)!] as const), ...job.checked]);
	failed.delete(first);
	const others = [...failed.keys()].sort((a, b) => a - b);
	const shown = others.slice(0, ROWS_IN_MESSAGE).map((index) => `row ${index + 1}`);
	if (others.length > ROWS_IN_MESSAGE) shown.push('…');
	const also = others.length > 0 ? ` (${others.length} more ${others.length === 1 ? 'row fails' : 'rows fail'}: ${shown.join(', ')})` : '';
	error.message = `Row ${first + 1} (item index ${first}): ${error.message}${also}`;
	if (others.length > 0) {
		const listed = others.map((index) => `${rowName(index)}: ${failed.get(index)!.message}`);
		const checked = job.checked.size > 0 ? `; the rows after it were checked (up to ${CHECK_LIMIT}) and nothing was sent for them` : '';
		error.description = [error.description, `Also failing (rows in flight when the run stopped${checked}): ${listed.join('; ')}.`].filter(Boolean).join(' ');
	}
	return error;
}

/** Rows the message names beside the first failure (the description lists them all). */
const ROWS_IN_MESSAGE = 5;

/** How many of the rows a stopped run did not reach are checked for bad input. */
const CHECK_LIMIT = 1000;

/**
 * When the run stopped on a failure (Stop Workflow): the items it did not reach are checked
 * (the operation's `check`: their input only, nothing is sent or remembered), so that the run's
 * error names every row with bad input, not the first alone.
 */
async function checkUnreached(job: Job): Promise<void> {
	const { module, context } = job;
	if (module.check === undefined || job.signal?.aborted === true) return;
	const secrets = await job.run.session.secrets(context);
	const end = Math.min(job.count, job.started + CHECK_LIMIT);
	for (let index = job.started; index < end; index++) {
		try {
			module.check.call(context, index);
		} catch (error) {
			job.checked.set(index, asNodeError(context, error, index, secrets));
		}
	}
}

/** The run's error, if it stopped: the first failing item's (by item order), or the cancellation. */
function stopError(job: Job): NodeError | undefined {
	const { failures } = job;
	if (failures.size > 0) {
		// Items that were refused only because the run was stopping are not the cause.
		const causes = [...failures.keys()].filter((index) => !notSentStopping(failures.get(index)));
		const first = Math.min(...(causes.length > 0 ? causes : [...failures.keys()]));
		return namingRows(stoppingError(failures.get(first)!, job.run, failures), first, job, causes);
	}
	if (job.signal?.aborted) return stoppingError(new NodeOperationError(job.context.getNode(), 'The execution was cancelled'), job.run, failures);
	return undefined;
}

/** n8n's agents that run their tools in LangChain's AgentExecutor before these versions. */
const AGENTS_BEFORE_ENGINE_TOOLS: Record<string, number> = {
	'@n8n/n8n-nodes-langchain.agent': 3,
	'@n8n/n8n-nodes-langchain.agentTool': 3,
};

/**
 * Whether a failed item is answered as an error item although "continue on fail" is off, so
 * that an AI agent's model reads the failure (read in n8n 2.41.1 and 1.123.50):
 * - the node runs as a tool of an AI Agent (or AI Agent Tool) before version 3: the agent is the
 *   node running (its tools run inside its execution), in LangChain's AgentExecutor, which drops
 *   an error the tool throws (n8n sets no `handleToolRuntimeErrors`): the model would get an
 *   empty tool message;
 * - AI Agent 3 runs the tool as a node of its own (`rewireOutputLogTo: ai_tool`): n8n 2.x turns
 *   a thrown error into `{ error }` for the model unless the node's On Error is "Stop Workflow",
 *   but n8n 1.x fails the execution; the node answers as 2.x does, on both lines.
 * The MCP Server Trigger answers a thrown error as an MCP error: there the error is thrown.
 */
function failureAnswersAgent(context: IExecuteFunctions): boolean {
	const node = context.getNode();
	if (node.rewireOutputLogTo === NodeConnectionTypes.AiTool) return node.onError !== 'stopWorkflow';
	const running = context.getExecuteData?.()?.node;
	if (!running || running.name === node.name) return false;
	const before = AGENTS_BEFORE_ENGINE_TOOLS[running.type];
	return before !== undefined && running.typeVersion < before;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = getOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const count = this.getInputData().length;
	const job: Job = {
		context: this,
		module,
		run: createRunContext(requestSettings(this)),
		count,
		signal: this.getExecutionCancelSignal?.(),
		continueOnFail: this.continueOnFail() || failureAnswersAgent(this),
		errorOutput: this.getNode().onError === 'continueErrorOutput',
		retried: this.getNode().retryOnFail === true,
		results: new Array(count),
		failures: new Map(),
		started: 0,
		checked: new Map(),
		tallies: countsRows(resource, operation) ? new Array(count) : undefined,
	};
	await job.run.resumePace(this);
	const lookahead = lookaheadOf(job);
	try {
		await dispatch(job, lookahead);
	} finally {
		await lookahead.close();
	}
	await job.run.finish();
	if (job.failures.size > 0) await checkUnreached(job);
	if (job.tallies) reportRun(this, { resource, operation, tallies: job.tallies, errorOutput: job.errorOutput });
	const error = stopError(job);
	if (error) throw error;
	return [job.results.flat()];
}
