/**
 * Candidate → Create or Update: Import, plus a memory (nodes/Recruiting/memory/) of which
 * candidate each row became and what was last sent for it, kept in n8n's database per node and
 * per service account. An unknown row is imported and remembered; a known row gets only the
 * profile update (when a profile field changed) and the records not sent before; a row with
 * nothing new sends nothing (`action: unchanged`). A re-run, a retried execution or a
 * re-triggered schedule creates nothing twice.
 *
 * Each output carries `syncState` (memory/syncState.ts): what was sent for the row, as
 * fingerprints. Given back with the row's slug (Sync State), it decides instead of the memory.
 *
 * Memory Action also adopts given slugs (rows whose candidates exist), forgets each input row (the
 * next run creates it again) or the node's whole memory (upsert/memoryActions.ts). A manual run
 * creates nothing and adds no record of a row the memory decides, unless Options → Create in
 * Manual Runs is on: n8n never saves what a manual run learns (issue 39, trap 3).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { MatchBy } from '../../memory';
import { AHEAD, CandidateMemory, givenState, retryMemory, throughMemory } from '../../memory';
import type { SentState } from '../../memory/syncState';
import type { RunContext, Send } from '../context';
import { itemParameter } from '../shared/parameters';
import type { ImportInput } from './import.operation';
import { failOnInvalidRecords, importRow, readImport, resolveRecordNames } from './import.operation';
import type { Lead } from './upsert/outcome';
import { failedFields, outputOf, rememberOutcome, unchangedResult } from './upsert/outcome';
import { adoptRow, clearAllRows, forgetRow, heldInManualRun, hintMode, MANUAL_HOLD_HINT, notSentResult } from './upsert/memoryActions';
import type { Known } from './upsert/plan';
import { contentOf, planFor } from './upsert/plan';
import { noteCreated, readState, refusal, rowKeyOf, unchangedWithoutSlug } from './upsert/refusals';
import { isDryRun, planMemory } from './upsert/dryRun';

export { description } from './upsert/description';

/**
 * Rows prepared ahead: preparing a row asks n8n's store about it (memory.keyOf), and a new row's
 * claim is decided only after the journal's wait (at least 1 s, memory/journal.ts); with only
 * twice the requests in flight ahead, a first run would create at most about ten rows a second.
 * Once the memory is open, it says how many (more when n8n's store answers slowly: `memory.ahead`).
 */
export const ahead = AHEAD;
export { planFor } from './upsert/plan';

async function memoryOf(context: IExecuteFunctions, run: RunContext): Promise<CandidateMemory> {
	return await run.once('candidateMemory', async () => {
		const credentials = await run.session.getCredentials(context);
		const memory = isDryRun(run) ? await planMemory(context, credentials, run) : await CandidateMemory.open(context, credentials);
		run.atEnd(async () => await memory.repair());
		if (!isDryRun(run)) run.ahead = () => memory.ahead;
		return memory;
	});
}

/** The execution hint of a manual run that creates (Options → Create in Manual Runs): what n8n keeps of it and what not. */
export const MANUAL_RUN_HINT =
	'A manual run of Create or Update with Create in Manual Runs on: the candidates it creates and updates are real, and n8n keeps this output, but not what the node learned (which candidate each row became). Later executions of this n8n process still know these rows; after an n8n restart, or on a queue-mode worker, they are refused ("may already exist") until you adopt their slugs: map Candidate Slug to this output\'s "slug" and run Memory Action → Adopt Given Slugs. To test without writing to the service, turn on Options → Dry Run; to keep test runs exact, write "slug" and "syncState" back to your rows.';

function hintManualRun(context: IExecuteFunctions, run: RunContext, creates: boolean): void {
	void run.once('candidateMemory.manualHint', async () => {
		if (context.getMode() !== 'manual' || isDryRun(run) || typeof context.addExecutionHints !== 'function') return;
		context.addExecutionHints({ message: creates ? MANUAL_RUN_HINT : MANUAL_HOLD_HINT, location: 'outputPane' });
	});
}

/**
 * The row's keys under the identifiers it is not matched by (its e-mail, its phone): the memory
 * keeps it under them too, so that a run with another Match By finds its candidate instead of
 * creating it again. Looked up only when Match By is that identifier: a row matched by e-mail
 * never takes the candidate of another row that shares its phone.
 */
function aliasKeys(memory: CandidateMemory, matchBy: MatchBy, valueOf: (by: 'email' | 'phone') => unknown): string[] {
	return (['email', 'phone'] as const).filter((by) => by !== matchBy).map((by) => memory.keyOf(by, valueOf(by), true)).filter((key) => key !== '');
}

/** What was sent for the row's candidate before: the row's state (given with its slug) wins over the memory. */
export function knownOf(memory: CandidateMemory, key: string, input: ImportInput, given: SentState | undefined): Known | undefined {
	const remembered = memory.recall(key);
	if (given) return { s: input.givenSlug, ...givenState(remembered, input.givenSlug, given) };
	// A given slug that differs from the remembered one starts the row afresh with that candidate.
	return input.givenSlug && input.givenSlug !== remembered?.s ? undefined : remembered;
}

async function createOrUpdate(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	memory: CandidateMemory,
	{ key, lead, aliases }: { key: string; lead: Lead; aliases: string[] },
	input: ImportInput,
	given: SentState | undefined,
): Promise<IDataObject> {
	// Prints of what the service receives: names resolved to IDs (the earlier versions' prints, of the bodies as written, still count).
	const written = new Map(input.planned.flatMap((record) => (record.body && !record.problem ? [[record, { ...record.body }] as const] : [])));
	await resolveRecordNames(context, itemIndex, run, input.planned);
	// A name that matches nothing fails the row before its candidate is created (readImport failed the other invalid records).
	if (input.failOnRecordError) failOnInvalidRecords(context, itemIndex, input.planned, failedFields(lead));
	const known = knownOf(memory, key, input, given);
	const slug = input.givenSlug || known?.s;
	const plan = planFor(input, known, written, itemParameter(context, 'options.resendUnknownRecords', itemIndex, false) === true);
	const keys = [key, ...aliases];
	const row = { key, aliases, slug, content: contentOf(input, plan.profile), slugGiven: Boolean(input.givenSlug), nothingNew: !plan.sendProfile && plan.records.length === 0 };
	return await throughMemory<IDataObject>(memory, row, {
		unchanged: () => {
			const result = unchangedResult(slug!, plan.unchanged);
			const output = outputOf(memory, lead, result, false, plan, rememberOutcome(memory, keys, known, input, result, plan), known);
			return { output, clean: plan.outcomeUnknown.length === 0 };
		},
		heldBack: () => (heldInManualRun(context, itemIndex, run, { slug, given, plan }) ? notSentResult(lead, slug, plan) : undefined),
		same: () => unchangedWithoutSlug(lead, plan),
		refused: (why) => refusal(context, itemIndex, lead, why, memory),
		send: async () => {
			const result = await importRow(context, itemIndex, run, input, { slug, sendProfile: slug === undefined || plan.sendProfile, records: plan.records });
			const state = rememberOutcome(memory, keys, known, input, result, plan);
			const output = outputOf(memory, lead, { ...result, summary: { ...(result.summary as IDataObject), unchanged: plan.unchanged } }, slug === undefined, plan, state, known);
			return { output, clean: ['created', 'updated', 'unchanged'].includes(output.action as string) };
		},
		failed: (error) => {
			const nodeError =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(context.getNode(), error instanceof Error ? error.message : String(error), { itemIndex });
			const partial = nodeError.context.partialResult as IDataObject | undefined;
			if (partial?.slug) {
				const state = rememberOutcome(memory, keys, known, input, partial, plan);
				nodeError.context.partialResult = outputOf(memory, lead, partial, slug === undefined, plan, state, known);
			} else nodeError.context.partialResult ??= failedFields(lead);
			return { error: nodeError, slugGiven: Boolean(partial?.slug), mayExist: nodeError.context.mayExist === true };
		},
	});
}

/** Reads and checks the row (and its key); what the memory knows of it is asked when it is sent. */
export async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
	const memory = await memoryOf(this, run);
	const action = itemParameter<string>(this, 'memoryAction', itemIndex, 'remember');
	hintMode(this, run, action);
	if (action === 'clearAll') return clearAllRows(this, itemIndex, run, memory);
	const row = rowKeyOf(this, itemIndex, memory);
	if (action === 'forget') {
		// The row's e-mail and phone as written: a forget reads no other field (a row it cannot sync is forgotten too).
		const aliases = aliasKeys(memory, row.lead.matchedBy, (by) => itemParameter<unknown>(this, by, itemIndex, ''));
		// In the row's turn: the same row twice in the input (or in an overlapping execution) is forgotten once, then found forgotten.
		return async () => await memory.inTurn(row.key, async () => await forgetRow(this, itemIndex, memory, { ...row, aliases }), aliases);
	}
	const input = readImport(this, itemIndex);
	const given = readState(this, itemIndex, memory, input.givenSlug);
	const aliases = aliasKeys(memory, row.lead.matchedBy, (by) => input.profile[by]);
	if (action === 'adopt') return async () => await memory.inTurn(row.key, async () => await adoptRow(this, itemIndex, run, memory, { ...row, aliases }, input, given), aliases);
	hintManualRun(this, run, itemParameter(this, 'options.createInManualRuns', 0, false) === true);
	const tries = await retryMemory(this, run);
	return async () => {
		try {
			const output = tries.afterTries(itemIndex, await memory.inTurn(row.key, async () => await createOrUpdate(this, itemIndex, run, memory, { ...row, aliases }, input, given), aliases));
			// Created by an earlier try: the run's list of its candidates (a stop's error lists them) has it too.
			noteCreated(run, itemIndex, output);
			return output;
		} catch (error) {
			const nodeError =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error instanceof Error ? error.message : String(error), { itemIndex });
			const partial = nodeError.context.partialResult as IDataObject | undefined;
			tries.afterFailedTry(itemIndex, partial);
			noteCreated(run, itemIndex, partial);
			throw nodeError;
		}
	};
}
