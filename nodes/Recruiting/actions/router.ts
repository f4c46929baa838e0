/**
 * Runs the chosen operation for every input item: with bounded concurrency (p-limit), output in
 * input order, every output item paired with its input item, and errors handled once for all
 * operations: with "continue on fail" a failed item becomes one error item, otherwise the run
 * stops with the first failing item's error (by item order).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import pLimit from 'p-limit';

import { TransportSession, redact } from '../transport';
import { requestSettings } from './common/options';
import type { OperationModule } from './context';
import { createRunContext } from './context';
import { operations } from './operations';

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(context.getNode(), redact(message), { itemIndex });
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
function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
	errorOutput: boolean,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.errorDescription = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const partial = (error.context as IDataObject).partialResult;
	if (!partial || typeof partial !== 'object') return { json, error, pairedItem: { item: itemIndex } };
	const { error: message, ...details } = json;
	return {
		json: errorOutput ? { error: { ...partial, message, ...details } } : { ...json, ...partial, error: message },
		pairedItem: { item: itemIndex },
	};
}

export function getOperation(resource: string, operation: string): OperationModule | undefined {
	return operations[resource]?.[operation];
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
	);
	const run = createRunContext(session);
	const limit = pLimit(settings.concurrency);
	const signal = this.getExecutionCancelSignal?.();
	const continueOnFail = this.continueOnFail();
	const errorOutput = this.getNode().onError === 'continueErrorOutput';

	const results: INodeExecutionData[][] = new Array(items.length);
	const failures = new Map<number, NodeApiError | NodeOperationError>();
	let stopped = false;

	await Promise.all(
		items.map(async (_item, itemIndex) =>
			await limit(async () => {
				if (stopped || signal?.aborted) return;
				try {
					const output = await module.execute.call(this, itemIndex, run);
					results[itemIndex] = this.helpers.constructExecutionMetaData(
						this.helpers.returnJsonArray(output),
						{ itemData: { item: itemIndex } },
					);
				} catch (error) {
					const nodeError = asNodeError(this, error, itemIndex);
					if (continueOnFail) {
						results[itemIndex] = [errorItem(nodeError, itemIndex, errorOutput)];
					} else {
						failures.set(itemIndex, nodeError);
						stopped = true;
					}
				}
			}),
		),
	);

	if (failures.size > 0) {
		throw failures.get(Math.min(...failures.keys()))!;
	}
	if (signal?.aborted) {
		throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
	}
	return [results.flat()];
}
