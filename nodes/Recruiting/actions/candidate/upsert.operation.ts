/**
 * Candidate → Create or Update: Import, plus a memory (nodes/Recruiting/memory/) of which
 * candidate each row became and what was last sent for it, kept in n8n's database per node and
 * per service account. An unknown row is imported and remembered; a known row gets only the
 * profile update (when a profile field changed) and the records not sent before; a row with
 * nothing new sends nothing (`action: unchanged`). A re-run, a retried execution or a
 * re-triggered schedule creates nothing twice.
 *
 * Memory Action also forgets one row (the next run creates it again) or the node's whole memory.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { MatchBy } from '../../memory';
import { CandidateMemory, MATCH_BY_LABEL, profilePrint, recordPrint } from '../../memory';
import type { RunContext, Send } from '../context';
import { itemParameter } from '../shared/parameters';
import type { ImportInput } from './import.operation';
import { importRow, readImport, updatableProfile } from './import.operation';
import { importParameters } from './import/description';
import type { PlannedRecord } from './import/plan';

const show = { resource: ['candidate'], operation: ['upsert'] };
const remembering = { memoryAction: ['remember'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Remembers in n8n\'s database which candidate each row became and what was sent, so a re-run sends only what is new or changed. n8n saves this memory at the end of each execution that is not manual, and two executions of this workflow that overlap save over each other: rows created by a manual test run or by the overwritten execution are then stopped with "may already exist" instead of being created twice. In queue mode n8n 2.x gives workers no saved memory: rows are created once but not updated later. Do not let a sync overlap itself; see the README.',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Memory Action',
		name: 'memoryAction',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Create or Update',
				value: 'remember',
				description: 'Import a new row, update a known one with what changed, skip an unchanged one',
			},
			{
				name: 'Forget This Row',
				value: 'forget',
				description: 'Forget the candidate each input row is matched to (nothing is sent); a later run creates it again',
			},
			{
				name: 'Forget All Rows',
				value: 'clearAll',
				description: "Clear this node's whole memory (nothing is sent); later runs create every row again",
			},
		],
		default: 'remember',
		description: 'What to do with the memory of this node',
		displayOptions: { show },
	},
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		options: [
			{ name: 'Email', value: 'email', description: 'The row\'s e-mail address (case and spaces ignored)' },
			{ name: 'Phone', value: 'phone', description: 'The row\'s phone number (only its digits count)' },
			{ name: 'Match Key', value: 'key', description: 'Any stable value of the row, such as a row ID or a form submission ID' },
		],
		default: 'email',
		description: 'What identifies a row\'s candidate from one run to the next',
		displayOptions: { show: { ...show, memoryAction: ['remember', 'forget'] } },
	},
	{
		displayName: 'Match Key',
		name: 'matchKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.row_number }}',
		description: 'A value that stays the same for this row in every run (for example a spreadsheet row ID), usually from an expression',
		displayOptions: { show: { ...show, memoryAction: ['remember', 'forget'], matchBy: ['key'] } },
	},
	...importParameters(
		'upsert',
		'Empty: the remembered candidate, or a new one. A slug: use that candidate and remember it for this row (Source and Employee are not sent).',
		remembering,
	),
];

/** The row's memory key; fails the item when the value it is matched by is empty. */
function rowKeyOf(context: IExecuteFunctions, itemIndex: number, memory: CandidateMemory): string {
	const matchBy = itemParameter<MatchBy>(context, 'matchBy', itemIndex, 'email');
	const source = matchBy === 'key' ? 'matchKey' : matchBy;
	const key = memory.keyOf(matchBy, itemParameter<unknown>(context, source, itemIndex, ''));
	if (key !== '') return key;
	throw new NodeOperationError(context.getNode(), `This row has no ${MATCH_BY_LABEL[matchBy]} to match it by`, {
		itemIndex,
		description: `"${MATCH_BY_LABEL[matchBy]}" is empty. Create or Update recognises a row by its ${MATCH_BY_LABEL[matchBy]} (Match By), so every row needs one${matchBy === 'email' ? ' (an e-mail address such as jane.doe@example.com)' : ''}; for rows without it, set Match By to another value of the row. Nothing was sent.`,
	});
}

async function memoryOf(context: IExecuteFunctions, run: RunContext): Promise<CandidateMemory> {
	return await run.once('candidateMemory', async () => {
		const memory = await CandidateMemory.open(context, await run.session.getCredentials(context));
		run.atEnd(async () => await memory.repair());
		return memory;
	});
}

const recordKey = (record: PlannedRecord) => recordPrint(record.kind.type, record.body ?? {});

/** What the row sends: everything for a new candidate; for a known one, what differs from what was last sent. */
function planFor(input: ImportInput, known: { p?: string; r?: string[] } | undefined) {
	const profile = profilePrint(updatableProfile(input.profile));
	const sentBefore = new Set(known?.r ?? []);
	// Invalid records are kept: they fail (or are reported) as in Import, and are never remembered.
	const records = input.planned.filter((record) => record.body === undefined || !sentBefore.has(recordKey(record)));
	return { profile, sendProfile: known?.p !== profile, records, unchanged: input.planned.length - records.length };
}

/** Remembers what reached the service: the slug, the profile when its update went through (or had nothing to send), each record added. */
function rememberOutcome(memory: CandidateMemory, key: string, known: { p?: string; r?: string[] } | undefined, result: IDataObject, plan: ReturnType<typeof planFor>) {
	const added = ((result.records as IDataObject[] | undefined) ?? []).filter((record) => record.ok === true);
	const prints = plan.records
		.filter((record) => added.some((done) => done.type === record.kind.type && done.index === record.index))
		.map(recordKey);
	const profileSent = plan.sendProfile && result.profileError === undefined;
	memory.remember(key, {
		s: result.slug as string,
		p: profileSent ? plan.profile : known?.p,
		r: [...new Set([...(known?.r ?? []), ...prints])],
	});
}

function unchangedResult(slug: string, unchanged: number): IDataObject {
	return {
		slug,
		action: 'unchanged',
		created: false,
		profileUpdated: false,
		records: [],
		summary: { records: 0, added: 0, failed: 0, unchanged },
		message: `Unchanged: nothing new for candidate ${slug}, nothing sent`,
	};
}

async function createOrUpdate(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	memory: CandidateMemory,
	key: string,
	input: ImportInput,
): Promise<IDataObject> {
	const remembered = memory.recall(key);
	// A given slug that differs from the remembered one starts the row afresh with that candidate.
	const known = input.givenSlug && input.givenSlug !== remembered?.s ? undefined : remembered;
	const slug = input.givenSlug || known?.s;
	const plan = planFor(input, known);
	if (slug !== undefined && !plan.sendProfile && plan.records.length === 0) {
		memory.remember(key, { s: slug, p: known?.p ?? plan.profile, r: known?.r ?? [] });
		return unchangedResult(slug, plan.unchanged);
	}
	if (slug === undefined && !(await memory.claim(key))) {
		throw new NodeOperationError(context.getNode(), "This row's candidate may already exist, and n8n has no slug for it", {
			itemIndex,
			description:
				'An earlier execution created it, or sent its creation and never learned the outcome, and its memory was not saved: a manual execution (n8n keeps no memory of those), one that ran at the same time as this one, one that stopped before it ended (a worker that died), or an answer that was lost. Nothing was sent, so nothing is created twice. Give the candidate\'s slug as Candidate Slug in one run to remember it, or use Memory Action "Forget This Row" to let the node create it again.',
		});
	}
	let result: IDataObject;
	try {
		result = await importRow(context, itemIndex, run, input, { slug, sendProfile: slug === undefined || plan.sendProfile, records: plan.records });
	} catch (error) {
		const nodeError =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(context.getNode(), error instanceof Error ? error.message : String(error), { itemIndex });
		const partial = nodeError.context.partialResult as IDataObject | undefined;
		if (partial?.slug) {
			rememberOutcome(memory, key, known, partial, plan);
			partial.action = slug === undefined ? 'created' : 'updated';
		} else if (slug === undefined && nodeError.context.mayExist !== true) {
			// Refused before anything was created: the row may be created in a later run.
			await memory.unclaim(key);
		}
		throw nodeError;
	}
	rememberOutcome(memory, key, known, result, plan);
	return {
		...result,
		action: slug === undefined ? 'created' : 'updated',
		summary: { ...(result.summary as IDataObject), unchanged: plan.unchanged },
	};
}

/** Reads and checks the row (and its key); what the memory knows of it is asked when it is sent. */
export async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
	const memory = await memoryOf(this, run);
	const action = itemParameter<string>(this, 'memoryAction', itemIndex, 'remember');
	if (action === 'clearAll') {
		return async () => ({ action: 'cleared', forgotten: await run.once('candidateMemory.clear', async () => await memory.clear()) });
	}
	const key = rowKeyOf(this, itemIndex, memory);
	if (action === 'forget') return async () => ({ action: 'forgotten', known: await memory.forget(key) });
	const input = readImport(this, itemIndex);
	return async () => await memory.inTurn(key, async () => await createOrUpdate(this, itemIndex, run, memory, key, input));
}
