/**
 * Create or Update's refusals before anything is sent: a row without the value it is matched by,
 * a Sync State that cannot be used, a row whose candidate may already exist. Each says what to do.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Admission, CandidateMemory, MatchBy } from '../../../memory';
import { MATCH_BY_LABEL, MAX_TRUST_MS, MIN_WAIT_MS, normaliseKey, retryMemory } from '../../../memory';
import type { SentState, StateProblem } from '../../../memory/syncState';
import { decodeState } from '../../../memory/syncState';
import type { PreparedOperation, RunContext, Send } from '../../context';
import { itemParameter } from '../../shared/parameters';
import { readImport } from '../import.operation';
import type { Lead } from './outcome';
import { failedFields, leadFields } from './outcome';
import type { Plan } from './plan';

/** What the row is matched by, and its value as the row gives it (trimmed text). */
export function leadOf(context: IExecuteFunctions, itemIndex: number): Lead {
	const matchBy = itemParameter<MatchBy>(context, 'matchBy', itemIndex, 'email');
	const field = matchBy === 'key' ? 'matchKey' : matchBy;
	const value = itemParameter<unknown>(context, field, itemIndex, '');
	return { matchedBy: matchBy, field, value: typeof value === 'string' ? value.trim() : (value ?? '') };
}

/**
 * The operation with every row that fails before it is sent (an impossible birthday, no e-mail
 * nor phone, an unusable Sync State) keeping its identity: its error item leads with
 * `action: failed`, `matchedBy` and the value it was matched by, as every other row's output.
 */
export function keepingIdentity(operation: PreparedOperation): PreparedOperation {
	return {
		...operation,
		check(this: IExecuteFunctions, itemIndex: number): void {
			const lead = leadOf(this, itemIndex);
			if (normaliseKey(lead.matchedBy, lead.value) === '') throw noMatchValue(this, itemIndex, lead.matchedBy);
			if (itemParameter<string>(this, 'memoryAction', itemIndex, 'remember') === 'remember') readImport(this, itemIndex);
		},
		async prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
			try {
				return await operation.prepare.call(this, itemIndex, run);
			} catch (error) {
				// A row an earlier try created or updated that this try could not even read (an expression that fails now) says so.
				const tries = await retryMemory(this, run);
				if (!tries.didEarlier(itemIndex)) throw withIdentity(this, itemIndex, error);
				const failed = withIdentity(this, itemIndex, error instanceof NodeOperationError || error instanceof NodeApiError ? error : new NodeOperationError(this.getNode(), error instanceof Error ? error.message : String(error), { itemIndex }));
				const partial = (failed as NodeOperationError).context.partialResult as IDataObject | undefined;
				tries.afterFailedTry(itemIndex, partial);
				noteCreated(run, itemIndex, partial);
				throw failed;
			}
		},
	};
}

/** A row whose output says its candidate was created in this node run (by this try or an earlier one): a stop's error lists it. */
export function noteCreated(run: RunContext, itemIndex: number, output: IDataObject | undefined): void {
	if ((output?.action !== 'created' && output?.action !== 'partly created') || typeof output.slug !== 'string') return;
	if (!run.created.some(({ item }) => item === itemIndex)) run.created.push({ item: itemIndex, slug: output.slug });
}

/** The error of a row that failed before it was sent, with the row's identity as its partial result. */
function withIdentity(context: IExecuteFunctions, itemIndex: number, error: unknown): unknown {
	if (!(error instanceof NodeOperationError || error instanceof NodeApiError) || error.context.partialResult !== undefined) return error;
	try {
		error.context.partialResult = failedFields(leadOf(context, itemIndex));
	} catch {
		// The match value itself cannot be read (a broken expression): the error says so.
	}
	return error;
}

/** The row's memory key and what it was matched by; fails the item when the value it is matched by is empty. */
export function rowKeyOf(context: IExecuteFunctions, itemIndex: number, memory: CandidateMemory): { key: string; lead: Lead } {
	const lead = leadOf(context, itemIndex);
	const { matchedBy: matchBy } = lead;
	const key = memory.keyOf(matchBy, lead.value);
	if (key !== '') return { key, lead };
	throw noMatchValue(context, itemIndex, matchBy);
}

function noMatchValue(context: IExecuteFunctions, itemIndex: number, matchBy: MatchBy): NodeOperationError {
	return new NodeOperationError(context.getNode(), `This row has no ${MATCH_BY_LABEL[matchBy]} to match it by`, {
		itemIndex,
		description: `"${MATCH_BY_LABEL[matchBy]}" is empty. Create or Update recognises a row by its ${MATCH_BY_LABEL[matchBy]} (Match By), so every row needs one${matchBy === 'email' ? ' (an e-mail address such as jane.doe@example.com)' : ''}; for rows without it, set Match By to another value of the row. Nothing was sent.`,
	});
}

const STATE_PROBLEMS: Record<StateProblem, { message: string; description: string }> = {
	garbled: {
		message: 'Sync State is not a state this node output (changed or cut off)',
		description:
			'Map the "syncState" of this row\'s earlier output unchanged (for example the sheet column it was written to), or leave Sync State empty: the node\'s memory then decides. Nothing was sent.',
	},
	version: {
		message: 'Sync State was written by another version of this node',
		description: 'Leave Sync State empty for this row once: the node\'s memory decides, and the output carries a state of this version. Nothing was sent.',
	},
	account: {
		message: 'Sync State belongs to another account',
		description:
			'This row\'s Sync State (and its Candidate Slug) were output for another service account than this credential\'s (another service address, login e-mail or authentication mode). Use a credential of the account they were written with, or empty both Candidate Slug and Sync State to create the candidate in this account. Nothing was sent.',
	},
	candidate: {
		message: 'Sync State belongs to another candidate than Candidate Slug',
		description:
			'This row\'s Sync State was output with another slug (Candidate Slug was changed, or the two columns come from different rows): it says what was sent to that other candidate, not to this one. Map the "slug" and "syncState" of the same earlier output together. To send everything of this row to the candidate in Candidate Slug (every record is then added to it), leave Sync State empty for this row once. Nothing was sent.',
	},
};

/** The row's Sync State, checked before anything is sent: what was sent for its candidate (undefined: none given). */
export function readState(context: IExecuteFunctions, itemIndex: number, memory: CandidateMemory, givenSlug: string): SentState | undefined {
	const value = itemParameter<unknown>(context, 'syncState', itemIndex, '');
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : undefined;
	if (text === '') return undefined;
	// Asked first: a state checked against an empty slug would be called another candidate's.
	if (givenSlug === '') {
		throw new NodeOperationError(context.getNode(), 'Sync State needs the Candidate Slug it was output with', {
			itemIndex,
			description:
				'A state says what was sent to one candidate: map the "slug" written back with it to Candidate Slug, or leave Sync State empty (the node\'s memory then decides). Nothing was sent.',
		});
	}
	const decoded = text === undefined ? ({ problem: 'garbled' } as const) : decodeState(text, memory.stateScope, givenSlug);
	if ('problem' in decoded) throw new NodeOperationError(context.getNode(), STATE_PROBLEMS[decoded.problem].message, { itemIndex, description: STATE_PROBLEMS[decoded.problem].description });
	return decoded.state;
}

/** Marks a refusal in the error's context, so that the run's error (under Stop Workflow) counts the rows refused for it once. */
export const MAY_EXIST_REFUSAL = 'their candidate may already exist and n8n has no slug for it (nothing was sent for them)';

export function mayExistError(context: IExecuteFunctions, itemIndex: number, lead: Lead): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), `This row's candidate may already exist, and n8n has no slug for it (${MATCH_BY_LABEL[lead.matchedBy]} ${String(lead.value)})`, {
		itemIndex,
		description: [
			'An earlier execution (or an earlier row of this one) created it, or sent its creation and never learned the outcome, and n8n did not keep what it learned: a manual execution (n8n never saves what a manual run learns), an execution that ran at the same time as this one, one that stopped before it ended (a worker that died), or an answer that was lost. Nothing was sent, so nothing is created twice.',
			'To go on with the candidates that exist, adopt their slugs, for every refused row at once: the output of the execution that created them lists each row\'s "slug" beside its ' +
				`${MATCH_BY_LABEL[lead.matchedBy]} (Executions: that execution, this node; a manual run with Create in Manual Runs, or a stopped execution's error, which lists the slugs it created). ` +
				'Give the refused rows their slugs (for a sheet: write that output\'s "slug" back to the rows and map it to Candidate Slug), set Memory Action to Adopt Given Slugs and run once: nothing is sent, each row is remembered as its candidate, and Sync Rows goes on from there.',
			'Only for a candidate that does not exist in the service (deleted there): Forget Each Input Row with Forget Now on, and the next run creates it again, a duplicate if it does exist.',
		].join(' '),
	});
	error.context.refusal = MAY_EXIST_REFUSAL;
	// With On Error: Continue, the error item says which row it is.
	error.context.partialResult = failedFields(lead);
	return error;
}

/** Marks a refusal of a row the journal could not decide in time (its own store calls were too slow to trust). */
export const UNSURE_REFUSAL = "n8n's deduplication store answered too slowly to be sure no other execution created them at the same moment (nothing was sent for them)";

export function unsureError(context: IExecuteFunctions, itemIndex: number, lead: Lead, slowestMs: number): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), `This row was not created: n8n's deduplication store was too slow to be sure no other execution creates it (${MATCH_BY_LABEL[lead.matchedBy]} ${String(lead.value)})`, {
		itemIndex,
		description: [
			`Before it creates a candidate, the node claims the row in n8n's deduplication store and waits for any other execution's claim to land. Every execution counts on each call to that store taking less than ${MIN_WAIT_MS} ms, more for a large list (about 2 s at 100,000 remembered rows, ${MAX_TRUST_MS} ms at most). One of this n8n process's calls took ${Math.round(slowestMs)} ms, longer than that, so the node cannot tell whether another execution claimed this row at the same moment. Nothing was sent, so nothing is created twice.`,
			"The row's claim stays (releasing it could let a second candidate be created, if another execution did claim it): a later run refuses it as \"may already exist\". If no candidate of it exists in the service, run this row once with Memory Action → Forget Each Input Row and Forget Now on: the next run creates it. If one exists, Adopt Given Slugs with its slug.",
		].join(' '),
	});
	error.context.refusal = UNSURE_REFUSAL;
	error.context.partialResult = failedFields(lead);
	return error;
}

/** Marks a refusal of a row another execution was reading at the same moment. */
export const BUSY_REFUSAL = 'another execution of this node was deciding them at the same moment (nothing was sent for them here)';

export function busyError(context: IExecuteFunctions, itemIndex: number, lead: Lead): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), `Another execution of this node was deciding this row at the same moment (${MATCH_BY_LABEL[lead.matchedBy]} ${String(lead.value)})`, {
		itemIndex,
		description:
			"Another execution (on this n8n or another worker) was reading this row's state in n8n's deduplication store at the same moment, so this one could not tell whether the row changed. Nothing was sent here, so nothing is created twice. Nothing to do: a run two minutes or more later decides it (an execution that reads a row marks it for the minute it began and the next; this one is not asked again sooner, since another reader's passing writes could then be taken for the row's content).",
	});
	error.context.refusal = BUSY_REFUSAL;
	error.context.partialResult = failedFields(lead);
	return error;
}

/** The error of a row not claimed for a creation, for the reason `CandidateMemory.whyNot` gave. */
export function refusal(context: IExecuteFunctions, itemIndex: number, lead: Lead, why: Exclude<Admission, 'create' | 'same'>, memory: CandidateMemory): NodeOperationError {
	if (why === 'unsure') return unsureError(context, itemIndex, lead, memory.slowestMs);
	if (why === 'busy') return busyError(context, itemIndex, lead);
	return mayExistError(context, itemIndex, lead);
}

/** A row whose slug this process does not know, sent before with exactly this content (by any execution): nothing to send. */
export function unchangedWithoutSlug(lead: Lead, plan: Plan): IDataObject {
	return {
		action: 'unchanged',
		...leadFields(lead),
		error: '',
		message:
			'Unchanged: this row was sent with exactly this content before (by another execution of this node), nothing sent. This n8n process does not know its candidate\'s slug; to have it in the output, write "slug" and "syncState" back to the row (Candidate Slug, Sync State).',
		summary: { records: 0, added: 0, failed: 0, unchanged: plan.records.length + plan.unchanged },
	};
}
