/**
 * Candidate → Import: one input item in, one complete candidate out. Creates the candidate (or
 * takes the one a given slug names), updates its profile, then adds every job, university
 * record, IT skill, language and additional-information entry, one request after another.
 * All input is validated before the first request. A failing record (or profile update) never
 * loses the candidate: the output carries the slug and one result per record; with "Fail Item
 * on Record Error" the item fails instead and its error item keeps the same data. Its rows lead
 * with `action` and `error` as Create or Update's do (import/outcome.ts), and under "Continue
 * (using error output)" a row where something did not go through takes the error branch.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { notSentStopping } from '../../transport';
import { postRecord } from '../candidateRecord/record';
import type { RunContext, Send } from '../context';
import {
	CANDIDATE_CREATE_FIELDS,
	CANDIDATE_UPDATE_FIELDS,
	candidateLabels,
	candidateShape,
	candidateWireName,
	layoutFields,
	readCandidateFields,
	requirePhoneOrEmail,
} from '../shared/candidateProfile';
import { itemParameter } from '../shared/parameters';
import { retryMemory } from '../../memory';
import { text, validateBody } from '../shared/validation';
import { IMPORT_LAYOUT } from './import/description';
import type { PlannedRecord } from './import/plan';
import { describeRecord, planRecords } from './import/plan';
import { FAILED_ROW, failuresOf, importOutput, incompleteError } from './import/outcome';
import { createCandidate, readCreate, updateCandidate } from './requests';

export { description } from './import/description';

const labels = candidateLabels(layoutFields(IMPORT_LAYOUT));
const profileSchema = z.object(candidateShape(layoutFields(IMPORT_LAYOUT)));
const newCandidateSchema = profileSchema.superRefine(requirePhoneOrEmail);
const slugSchema = z.object({ user_slug: text() });
const SLUG_LABEL = { user_slug: 'Candidate Slug' };

/** Wire fields only Create takes (sent once, when the candidate is created). */
const CREATE_ONLY = CANDIDATE_CREATE_FIELDS.filter((field) => !CANDIDATE_UPDATE_FIELDS.includes(field)).map(candidateWireName);
/** Wire fields that Create already sent (not sent again in the update of a new candidate). */
const SENT_ON_CREATE = CANDIDATE_CREATE_FIELDS.map(candidateWireName);

export interface RecordResult extends IDataObject {
	type: string;
	index: number;
	name: string;
	ok: boolean;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function addRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	slug: string,
	record: PlannedRecord,
): Promise<RecordResult> {
	const result: RecordResult = { type: record.kind.type, index: record.index, name: record.name, ok: false };
	if (record.problem !== undefined || !record.body) return { ...result, error: record.problem ?? 'invalid input' };
	const memory = await retryMemory(context, run);
	// Its place in the list, its name (skill, language, company, …) and its candidate: a later try whose list or candidate says otherwise sends it.
	const key = `${record.kind.type} ${record.index} ${record.name} ${slug}`;
	const earlier = memory.recordAdded(itemIndex, key, record.body);
	if (earlier !== undefined) return { ...result, ok: true, message: earlier };
	try {
		const body = { ...record.body, user_slug: slug };
		if (!record.resolved) await record.kind.resolveNames(context, run.references, itemIndex, body);
		const sent = await memory.sendOnce(itemIndex, key, async () => await postRecord(context, itemIndex, run, record.kind.path, body), record.body);
		return { ...result, ok: true, message: sent.message };
	} catch (error) {
		// Not sent because another item stopped the run: this item was interrupted, it did not fail.
		const interrupted = notSentStopping(error);
		if (interrupted) throw interrupted;
		// Sent, and the answer lost (a gateway error, a broken connection): the service may have added it.
		return { ...result, error: messageOf(error), ...(outcomeUnknown(error) ? { outcomeUnknown: true } : {}) };
	}
}

const outcomeUnknown = (error: unknown) => (error instanceof NodeApiError || error instanceof NodeOperationError) && error.context.mayExist === true;

/**
 * Resolves the names in the valid records' bodies to IDs (a language's name, a job type's) before
 * anything is sent, so that Create or Update compares what the service receives. A name that
 * matches nothing makes that record invalid, as its post would have failed.
 */
export async function resolveRecordNames(context: IExecuteFunctions, itemIndex: number, run: RunContext, planned: PlannedRecord[]): Promise<void> {
	for (const record of planned) {
		if (record.problem !== undefined || !record.body || record.resolved) continue;
		try {
			await record.kind.resolveNames(context, run.references, itemIndex, record.body);
			record.resolved = true;
		} catch (error) {
			const interrupted = notSentStopping(error);
			if (interrupted) throw interrupted;
			record.problem = messageOf(error);
		}
	}
}

/** Everything the item sends, checked before the first request. */
function checkInput(context: IExecuteFunctions, itemIndex: number, givenSlug: string, failOnRecordError: boolean) {
	const fields = readCandidateFields(context, itemIndex, IMPORT_LAYOUT);
	const profile = validateBody(context, itemIndex, givenSlug ? profileSchema : newCandidateSchema, fields, labels);
	const planned = planRecords(context, itemIndex);
	if (failOnRecordError) failOnInvalidRecords(context, itemIndex, planned);
	return { profile, planned };
}

/**
 * With "Fail Item on Record Error": fails the item, before anything is sent, when a record cannot
 * be sent (the first one named, the others in the description). `partialResult`: what the error
 * item keeps (Create or Update: `action: failed` and what the row was matched by).
 */
export function failOnInvalidRecords(context: IExecuteFunctions, itemIndex: number, planned: PlannedRecord[], partialResult?: IDataObject): void {
	const invalid = planned.filter((record) => record.problem !== undefined);
	if (invalid.length === 0) return;
	const [first, ...rest] = invalid.map((record) => `${describeRecord(record)}: ${record.problem}`);
	const error = new NodeOperationError(context.getNode(), first, {
		itemIndex,
		description: `Nothing was sent. ${rest.length > 0 ? `Also: ${rest.join('; ')}` : ''}`.trim(),
	});
	if (partialResult !== undefined) error.context.partialResult = partialResult;
	throw error;
}

/** The profile fields an update can carry: all but the ones only Create takes (Source, Employee). */
export function updatableProfile(profile: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(profile).filter(([field]) => !CREATE_ONLY.includes(field)));
}

/** The fields the profile update carries: after a creation those Create did not send, for a given slug all but Create's own. */
export function profileUpdateOf(profile: IDataObject, created: boolean): IDataObject {
	const skip = created ? SENT_ON_CREATE : CREATE_ONLY;
	return Object.fromEntries(Object.entries(profile).filter(([field]) => !skip.includes(field)));
}

/** Sends the profile fields Create did not send (all of them for a given slug); records the outcome in `result`. */
async function updateProfile(context: IExecuteFunctions, itemIndex: number, run: RunContext, profile: IDataObject, result: IDataObject) {
	const fields = profileUpdateOf(profile, result.created === true);
	if (Object.keys(fields).length === 0) return;
	try {
		await updateCandidate(context, itemIndex, run, { user_slug: result.slug, ...fields });
		result.profileUpdated = true;
	} catch (error) {
		const interrupted = notSentStopping(error);
		if (interrupted) throw interrupted;
		result.profileError = messageOf(error);
	}
}

function summaryText(result: IDataObject, records: RecordResult[], failed: string[]): string {
	const parts = [
		result.created ? `Created candidate ${result.slug as string}` : `Used candidate ${result.slug as string}`,
		result.profileError ? 'profile update failed' : result.profileUpdated ? 'profile updated' : 'no profile fields to update',
		`${records.filter((record) => record.ok).length} of ${records.length} records added`,
	];
	if (Array.isArray(result.notSent)) {
		parts.push(`not sent: ${result.notSent.join(', ')} (the service takes them only when it creates a candidate)`);
	}
	const summary = parts.join('; ');
	return failed.length > 0 ? `${summary}. Failed: ${failed.join('; ')}` : summary;
}

/** Adds the records and completes `result` (records, summary, message); returns the failures, profile update first. */
async function addRecords(context: IExecuteFunctions, itemIndex: number, run: RunContext, planned: PlannedRecord[], result: IDataObject) {
	// In the result as they are added: a run stopped in between (Stop Workflow) keeps the ones added before.
	const records: RecordResult[] = [];
	result.records = records;
	for (const record of planned) records.push(await addRecord(context, itemIndex, run, result.slug as string, record));
	const failed = [
		...(result.profileError ? [`profile update: ${result.profileError as string}`] : []),
		...records.flatMap((record, position) => (record.ok ? [] : [`${describeRecord(planned[position])}: ${record.error as string}`])),
	];
	const added = records.filter((record) => record.ok).length;
	result.summary = { records: records.length, added, failed: records.length - added };
	result.message = summaryText(result, records, failed);
	return failed;
}

/** One row's input, read and checked before the first request. */
export interface ImportInput {
	/** The Candidate Slug given ('' when none). */
	givenSlug: string;
	failOnRecordError: boolean;
	/** The profile's wire fields. */
	profile: IDataObject;
	/** The creation's body, when no slug is given. */
	create?: IDataObject;
	planned: PlannedRecord[];
}

export function readImport(context: IExecuteFunctions, itemIndex: number): ImportInput {
	// A slug that is not text (an array, object or boolean from an expression) fails the item, as in Update.
	const slugInput = { user_slug: itemParameter<IDataObject[string]>(context, 'candidateSlug', itemIndex, '') };
	const givenSlug = (validateBody(context, itemIndex, slugSchema, slugInput, SLUG_LABEL).user_slug as string | undefined) ?? '';
	const failOnRecordError = itemParameter(context, 'options.failOnRecordError', itemIndex, false) === true;
	const checked = checkInput(context, itemIndex, givenSlug, failOnRecordError);
	return { givenSlug, failOnRecordError, ...checked, create: givenSlug ? undefined : readCreate(context, itemIndex) };
}

/** What to do for a row: the candidate to use (none: create it), whether to send the profile, which records. */
export interface ImportPlan {
	slug?: string;
	sendProfile?: boolean;
	records?: PlannedRecord[];
}

/**
 * Import's own row: its output leads with `action` and `error` as Create or Update's does; under
 * "Continue (using error output)" a row where something did not go through is an error item (its
 * output inside), so that it takes the error branch (issue 47, trap 8).
 */
export async function prepare(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<Send> {
	let input: ImportInput;
	try {
		input = readImport(this, itemIndex);
	} catch (error) {
		throw asFailedRow(this, itemIndex, error, []);
	}
	const errorBranch = this.getNode().onError === 'continueErrorOutput';
	return async () => {
		try {
			const result = await importRow(this, itemIndex, run, input, { slug: input.givenSlug || undefined });
			const failures = failuresOf(result, input.planned);
			if (errorBranch && failures.length > 0) throw incompleteError(this, itemIndex, result, failures[0]);
			return importOutput(result, input.planned);
		} catch (error) {
			throw asFailedRow(this, itemIndex, error, input.planned);
		}
	};
}

/** A failed row's error, its partial result worded as a row's output: with `action` and `error`, or `action: failed` when nothing was kept. */
function asFailedRow(context: IExecuteFunctions, itemIndex: number, error: unknown, planned: PlannedRecord[]): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeOperationError || error instanceof NodeApiError ? error : new NodeOperationError(context.getNode(), messageOf(error), { itemIndex });
	const partial = nodeError.context.partialResult as IDataObject | undefined;
	nodeError.context.partialResult = partial?.slug === undefined ? { ...FAILED_ROW, ...partial } : partial.action === undefined ? importOutput(partial, planned) : partial;
	return nodeError;
}

/**
 * Imports one row: creates the candidate (unless the plan names one), updates its profile, adds
 * its records, in that order. Create or Update calls it with what its memory says is new.
 */
export async function importRow(
	context: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
	{ failOnRecordError, profile, planned, create }: ImportInput,
	plan: ImportPlan,
): Promise<IDataObject> {
	const created = plan.slug === undefined;
	const slug = plan.slug ?? ((await createCandidate(context, itemIndex, run, create ?? readCreate(context, itemIndex))).slug as string);
	const result: IDataObject = { slug, created, profileUpdated: false };
	// The service takes Source and Employee only when it creates a candidate: say what was left out.
	const notSent = created ? [] : CREATE_ONLY.filter((field) => profile[field] !== undefined);
	if (notSent.length > 0) result.notSent = notSent;
	try {
		if (plan.sendProfile !== false) await updateProfile(context, itemIndex, run, profile, result);
		const failed = await addRecords(context, itemIndex, run, plan.records ?? planned, result);
		if (failOnRecordError && failed.length > 0) throw incompleteError(context, itemIndex, result, failed[0]);
		return result;
	} catch (error) {
		// Whatever fails after the creation, the slug is not lost.
		const nodeError =
			error instanceof NodeOperationError || error instanceof NodeApiError
				? error
				: new NodeOperationError(context.getNode(), messageOf(error), { itemIndex });
		nodeError.context.partialResult ??= result;
		throw nodeError;
	}
}
