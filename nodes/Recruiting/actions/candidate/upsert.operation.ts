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
 * Memory Action also forgets one row (the next run creates it again) or the node's whole memory.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { MatchBy } from '../../memory';
import { CandidateMemory, MATCH_BY_LABEL } from '../../memory';
import type { SentState } from '../../memory/syncState';
import { decodeState, encodeState, profileFields, profilePrint, recordPrint, sentBefore, unknownPrint } from '../../memory/syncState';
import type { RunContext, Send } from '../context';
import type { CandidateField } from '../shared/candidateProfile';
import { CANDIDATE_UPDATE_FIELDS, candidateLabels, candidateWireName } from '../shared/candidateProfile';
import { itemParameter } from '../shared/parameters';
import type { ImportInput, RecordResult } from './import.operation';
import { failOnInvalidRecords, importRow, readImport, resolveRecordNames, updatableProfile } from './import.operation';
import type { PlannedRecord } from './import/plan';
import { describeRecord } from './import/plan';
import { isDryRun, planMemory } from './upsert/plan';

export { description } from './upsert/description';

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
		const memory = await (isDryRun(run) ? planMemory : CandidateMemory.open)(context, await run.session.getCredentials(context));
		run.atEnd(async () => await memory.repair());
		return memory;
	});
}

/** The profile's wire fields an update carries, in a fixed order (the profile fingerprint says which it held). */
const PROFILE_ORDER = CANDIDATE_UPDATE_FIELDS.map(candidateWireName);
const PROFILE_LABELS = candidateLabels(CANDIDATE_UPDATE_FIELDS);
const parameterOf = (wire: string) => CANDIDATE_UPDATE_FIELDS.find((field) => candidateWireName(field) === wire) ?? wire;

/** What was sent for the row's candidate before, as the row's state or the memory holds it. */
type Known = { s: string } & SentState;

/** What the row sends: everything for a new candidate; for a known one, what differs from what was sent. */
function planFor(input: ImportInput, known: Known | undefined, written: Map<PlannedRecord, IDataObject>) {
	const fields = updatableProfile(input.profile);
	const profile = profilePrint(fields, PROFILE_ORDER);
	const sendProfile = known?.p !== profile && !sentBefore([known?.p], 'profile', fields);
	// Fields the last profile sent held and the row leaves empty: the service offers no way to clear them.
	const before = sendProfile ? profileFields(known?.p, PROFILE_ORDER) : undefined;
	const notCleared = (before ?? []).filter((field) => fields[field] === undefined).map(parameterOf);
	const sent = new Set(known?.r ?? []);
	const records: PlannedRecord[] = [];
	const outcomeUnknown: PlannedRecord[] = [];
	let unchanged = 0;
	for (const record of input.planned) {
		// Invalid records are kept: they fail (or are reported) as in Import, and are never remembered.
		const body = record.problem === undefined ? record.body : undefined;
		const earlier = written.get(record);
		if (!body) records.push(record);
		else if (sent.has(recordPrint(record.kind.type, body)) || (earlier && sentBefore(sent, record.kind.type, earlier))) unchanged += 1;
		else if (sent.has(unknownPrint(record.kind.type, body))) outcomeUnknown.push(record);
		else records.push(record);
	}
	return { profile, sendProfile, notCleared, records, outcomeUnknown, unchanged };
}

type Plan = ReturnType<typeof planFor>;

/**
 * What reached the service, remembered (and returned, for the row's state): the slug; the
 * profile when its update went through (no print when its outcome is unknown or it failed, so
 * that the next run sends it again: an update is idempotent); each record added; each record
 * whose post had an unknown outcome, under its own print (a post is not idempotent: it is not sent
 * again, and reported while the row holds it).
 */
function rememberOutcome(memory: CandidateMemory, key: string, known: Known | undefined, result: IDataObject, plan: Plan): SentState {
	const results = (result.records as RecordResult[] | undefined) ?? [];
	const printsOf = (outcome: (done: RecordResult) => boolean, print: typeof recordPrint) =>
		plan.records
			.filter((record) => record.body && results.some((done) => done.type === record.kind.type && done.index === record.index && outcome(done)))
			.map((record) => print(record.kind.type, record.body!));
	const added = printsOf((done) => done.ok, recordPrint);
	const unknown = printsOf((done) => !done.ok && done.outcomeUnknown === true, unknownPrint);
	let p = known?.p;
	if (plan.sendProfile) p = result.profileError === undefined ? plan.profile : undefined;
	const entry = { p, r: [...new Set([...(known?.r ?? []), ...added, ...unknown])] };
	memory.remember(key, { s: result.slug as string, ...entry });
	return entry;
}

/** Created, updated (something reached the service) or unchanged (nothing did: nothing new, or only invalid records). */
function actionOf(result: IDataObject, created: boolean): string {
	if (created) return 'created';
	const added = ((result.records as RecordResult[] | undefined) ?? []).some((record) => record.ok);
	return result.profileUpdated === true || added ? 'updated' : 'unchanged';
}

/** The row's output besides Import's: the action, the state, and what the node could not do. */
function finish(memory: CandidateMemory, result: IDataObject, created: boolean, plan: Plan, state: SentState): IDataObject {
	const output: IDataObject = { ...result, action: actionOf(result, created), syncState: encodeState(memory.stateScope, state) };
	const notes: string[] = [];
	if (plan.notCleared.length > 0) {
		output.notCleared = plan.notCleared;
		const labels = plan.notCleared.map((field) => PROFILE_LABELS[candidateWireName(field as CandidateField)] ?? field);
		notes.push(`${labels.join(', ')} left empty in the row: the service cannot clear a field, it keeps its value`);
	}
	if (plan.outcomeUnknown.length > 0) {
		const unknown = plan.outcomeUnknown.map(describeRecord);
		output.outcomeUnknown = unknown;
		notes.push(
			`not sent again: ${unknown.join(', ')} (an earlier post may have added it; check the candidate, and add it with the Add operation of its kind if it is missing)`,
		);
	}
	if (notes.length > 0) output.message = [output.message, ...notes].filter(Boolean).join('. ');
	return output;
}

function unchangedResult(slug: string, unchanged: number): IDataObject {
	return {
		slug,
		created: false,
		profileUpdated: false,
		records: [],
		summary: { records: 0, added: 0, failed: 0, unchanged },
		message: `Unchanged: nothing new for candidate ${slug}, nothing sent`,
	};
}

const STATE_PROBLEMS = {
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
};

/** The row's Sync State, checked before anything is sent: what was sent for its candidate (undefined: none given). */
function readState(context: IExecuteFunctions, itemIndex: number, memory: CandidateMemory, givenSlug: string): SentState | undefined {
	const value = itemParameter<unknown>(context, 'syncState', itemIndex, '');
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : undefined;
	if (text === '') return undefined;
	const decoded = text === undefined ? ({ problem: 'garbled' } as const) : decodeState(text, memory.stateScope);
	if ('problem' in decoded) throw new NodeOperationError(context.getNode(), STATE_PROBLEMS[decoded.problem].message, { itemIndex, description: STATE_PROBLEMS[decoded.problem].description });
	if (givenSlug === '') {
		throw new NodeOperationError(context.getNode(), 'Sync State needs the Candidate Slug it was output with', {
			itemIndex,
			description:
				'A state says what was sent to one candidate: map the "slug" written back with it to Candidate Slug, or leave Sync State empty (the node\'s memory then decides). Nothing was sent.',
		});
	}
	return decoded.state;
}

/** Rows whose creation this execution sent without learning the outcome: a later row with the same key must not create it again. */
const uncertainCreations = async (run: RunContext) => await run.once('candidateMemory.uncertain', async () => new Set<string>());

function mayExistError(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), "This row's candidate may already exist, and n8n has no slug for it", {
		itemIndex,
		description:
			'An earlier execution (or an earlier row of this one) created it, or sent its creation and never learned the outcome, and its memory was not saved: a manual execution, one that ran at the same time as this one, one that stopped before it ended (a worker that died), or an answer that was lost. Nothing was sent, so nothing is created twice. Give the candidate\'s slug as Candidate Slug (and its Sync State, if you keep it) to go on with it, or use Memory Action "Forget This Row" to let the node create it again.',
	});
}

async function createOrUpdate(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	memory: CandidateMemory,
	key: string,
	input: ImportInput,
	given: SentState | undefined,
): Promise<IDataObject> {
	// Prints of what the service receives: names resolved to IDs (the earlier versions' prints, of the bodies as written, still count).
	const written = new Map(input.planned.flatMap((record) => (record.body && !record.problem ? [[record, { ...record.body }] as const] : [])));
	await resolveRecordNames(context, itemIndex, run, input.planned);
	// A name that matches nothing fails the row before its candidate is created (readImport failed the other invalid records).
	if (input.failOnRecordError) failOnInvalidRecords(context, itemIndex, input.planned);
	const remembered = memory.recall(key);
	let known: Known | undefined;
	if (given) {
		// The row's state wins over the memory. Only a record the memory knows it added to this same
		// candidate is not posted again (a row given twice with the same state adds it once).
		const added = remembered?.s === input.givenSlug ? (remembered.r ?? []) : [];
		known = { s: input.givenSlug, p: given.p, r: [...new Set([...(given.r ?? []), ...added])] };
	} else {
		// A given slug that differs from the remembered one starts the row afresh with that candidate.
		known = input.givenSlug && input.givenSlug !== remembered?.s ? undefined : remembered;
	}
	const slug = input.givenSlug || known?.s;
	const plan = planFor(input, known, written);
	const uncertain = await uncertainCreations(run);
	if (slug !== undefined && !plan.sendProfile && plan.records.length === 0) {
		const state = rememberOutcome(memory, key, known, { slug }, plan);
		return finish(memory, unchangedResult(slug, plan.unchanged), false, plan, state);
	}
	if (slug === undefined && (uncertain.has(key) || !(await memory.claim(key)))) throw mayExistError(context, itemIndex);
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
			const state = rememberOutcome(memory, key, known, partial, plan);
			nodeError.context.partialResult = finish(memory, partial, slug === undefined, plan, state);
		} else if (slug === undefined && nodeError.context.mayExist === true) {
			uncertain.add(key);
		} else if (slug === undefined) {
			// Refused before anything was created: the row may be created in a later run.
			await memory.unclaim(key);
		}
		throw nodeError;
	}
	const state = rememberOutcome(memory, key, known, result, plan);
	return finish(memory, { ...result, summary: { ...(result.summary as IDataObject), unchanged: plan.unchanged } }, slug === undefined, plan, state);
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
	const given = readState(this, itemIndex, memory, input.givenSlug);
	return async () => await memory.inTurn(key, async () => await createOrUpdate(this, itemIndex, run, memory, key, input, given));
}
