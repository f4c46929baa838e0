/**
 * Runs the chosen operation for every input item: with bounded concurrency (a few workers that
 * each take the next item, prepared ahead by `lookahead.ts` while requests are in flight), output in
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
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { TransportSession, notSentStopping, redact, redactValues } from '../transport';
import { requestSettings } from './shared/options';
import type { RunContext, Send } from './context';
import { createRunContext } from './context';
import { Lookahead } from './lookahead';
import { getOperation } from './registry';

type NodeError = NodeApiError | NodeOperationError;

/** The error as an n8n node error with its item index, its texts redacted. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number, secrets: string[]): NodeError {
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
function errorItem(error: NodeError, itemIndex: number, errorOutput: boolean, secrets: string[]): INodeExecutionData {
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
	if (parts.length > 0) error.description = [error.description, ...parts].filter(Boolean).join('\n\n');
	return error;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = getOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}

	const settings = requestSettings(this);
	const session = new TransportSession(
		{ maxRetries: settings.maxRetries, initialDelayMs: settings.retryDelayMs },
		settings.requestsPerSecond,
		settings.timeoutMs,
	);
	const run = createRunContext(session);
	const signal = this.getExecutionCancelSignal?.();
	const continueOnFail = this.continueOnFail();
	const errorOutput = this.getNode().onError === 'continueErrorOutput';

	const results: INodeExecutionData[][] = new Array(items.length);
	const failures = new Map<number, NodeError>();

	// Items are prepared (parameters read, validated, names resolved) ahead of the ones in flight.
	const prepare = async (itemIndex: number): Promise<Send> =>
		module.prepare !== undefined
			? await module.prepare.call(this, itemIndex, run)
			: async () => await module.execute.call(this, itemIndex, run);
	const lookahead = new Lookahead<Send>(
		items.length,
		module.prepare !== undefined ? 2 * settings.concurrency : 0,
		prepare,
		() => session.stopped || signal?.aborted === true,
	);

	const runItem = async (itemIndex: number) => {
		try {
			const prepared = await lookahead.take(itemIndex);
			if (!prepared.ok) throw prepared.error;
			const answer = await prepared.value();
			const output = module.outputIsSecret ? answer : redactValues(answer, await session.secrets());
			results[itemIndex] = this.helpers.constructExecutionMetaData(asItems(output), {
				itemData: { item: itemIndex },
			});
		} catch (error) {
			const secrets = await session.secrets();
			const nodeError = asNodeError(this, error, itemIndex, secrets);
			if (continueOnFail) {
				results[itemIndex] = [errorItem(nodeError, itemIndex, errorOutput, secrets)];
			} else {
				failures.set(itemIndex, nodeError);
				session.stop();
			}
		}
	};
	// `concurrency` workers take the next item in input order until none is left (or the run stops).
	let next = 0;
	const worker = async () => {
		while (next < items.length && !session.stopped && !signal?.aborted) await runItem(next++);
	};
	try {
		await Promise.all(Array.from({ length: Math.min(settings.concurrency, items.length) }, worker));
	} finally {
		await lookahead.close();
	}
	await run.finish();

	if (failures.size > 0) {
		// Items that were refused only because the run was stopping are not the cause.
		const causes = [...failures.keys()].filter((index) => !notSentStopping(failures.get(index)));
		const first = Math.min(...(causes.length > 0 ? causes : [...failures.keys()]));
		throw stoppingError(failures.get(first)!, run, failures);
	}
	if (signal?.aborted) {
		throw stoppingError(new NodeOperationError(this.getNode(), 'The execution was cancelled'), run, failures);
	}
	return [results.flat()];
}
