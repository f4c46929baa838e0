/**
 * Candidate → Import's row as Create or Update words it (issue 47, trap 8): the output leads with
 * `action` (created, updated or unchanged when everything went through; partly created, partly
 * updated or failed when something did not) and `error` (what did not go through, empty when
 * nothing failed), then Import's own fields.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlannedRecord } from './plan';
import { describeRecord } from './plan';

/** One record's result in the output (import.operation.ts `RecordResult`). */
interface Done {
	type: string;
	index: number;
	name: string;
	ok: boolean;
	error?: unknown;
}

const doneOf = (result: IDataObject): Done[] => (Array.isArray(result.records) ? (result.records as unknown as Done[]) : []);

/** What did not go through, profile update first, each record named as in the row's message. */
export function failuresOf(result: IDataObject, planned: readonly PlannedRecord[]): string[] {
	const named = (done: Done) => {
		const record = planned.find((candidate) => candidate.kind.type === done.type && candidate.index === done.index);
		return record ? describeRecord(record) : `${done.type} ${done.index}`;
	};
	return [
		...(result.profileError !== undefined ? [`profile update: ${String(result.profileError)}`] : []),
		...doneOf(result)
			.filter((done) => !done.ok)
			.map((done) => `${named(done)}: ${typeof done.error === 'string' ? done.error : 'failed'}`),
	];
}

/**
 * The row's `action`: a created candidate is `created` (or `partly created`); a given one
 * `updated` (or `partly updated`) when anything reached it, `failed` when something failed and
 * nothing did, `unchanged` when there was nothing to send.
 */
export function actionOf(result: IDataObject, failed: boolean): string {
	if (result.created === true) return failed ? 'partly created' : 'created';
	const reached = result.profileUpdated === true || doneOf(result).some((done) => done.ok);
	if (!reached) return failed ? 'failed' : 'unchanged';
	return failed ? 'partly updated' : 'updated';
}

/** The row's output: `action`, `error`, then Import's fields. */
export function importOutput(result: IDataObject, planned: readonly PlannedRecord[]): IDataObject {
	const failures = failuresOf(result, planned);
	return { action: actionOf(result, failures.length > 0), error: failures.join('; '), ...result };
}

/** The error of a row whose candidate exists (created or given) but not everything went through; its output is kept in the error item. */
export function incompleteError(context: IExecuteFunctions, itemIndex: number, result: IDataObject, firstFailure: string): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), `Import incomplete: ${firstFailure}`, {
		itemIndex,
		description: `${String(result.message)}. The candidate ${result.created === true ? 'was created and ' : ''}is kept (slug ${String(result.slug)}); its results per record are in this error item.`,
	});
	error.context.partialResult = result;
	return error;
}

/** The first fields of a row that failed as a whole (nothing kept: no candidate, or nothing sent). */
export const FAILED_ROW: IDataObject = { action: 'failed' };
