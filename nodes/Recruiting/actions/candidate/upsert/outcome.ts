/**
 * What a row's run reached, remembered (and given back as the row's `syncState`), and the row's
 * output: it leads with the result (`action`, then what the row was matched by, then `error`
 * whenever something did not go through), then the candidate and its state, then Import's fields.
 */
import { omit } from 'lodash';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { CandidateMemory, MatchBy } from '../../../memory';
import type { SentState } from '../../../memory/syncState';
import { encodeState, fieldBlock, recordPrint, unknownPrint, withoutBlock } from '../../../memory/syncState';
import type { CandidateField } from '../../shared/candidateProfile';
import { candidateWireName } from '../../shared/candidateProfile';
import type { ImportInput, RecordResult } from '../import.operation';
import { profileUpdateOf } from '../import.operation';
import { quote } from '../../../referenceData/names';
import { describeRecord } from '../import/plan';
import type { Known, Plan } from './plan';
import { PROFILE_LABELS, PROFILE_ORDER } from './plan';

/** Above Options: what each output row's `action` says (issue 39: a sheet filters on it). */
export const outputNotice: INodeProperties = {
	displayName:
		'Each output row starts with "action": created, updated or unchanged when everything went through; partly created, partly updated or failed when something did not, named in "error" (the next column).',
	name: 'outputNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: ['candidate'], operation: ['upsert'] } },
};

/** The label of the option that posts records of unknown outcome again (shared/options.ts). */
export const RESEND_UNKNOWN_LABEL = 'Send Unknown-Outcome Records Again';

/** The output's first fields: how the row was matched and by what value, as the row gave it. */
export interface Lead {
	matchedBy: MatchBy;
	/** The parameter the value came from: `email`, `phone` or `matchKey`. */
	field: string;
	value: unknown;
}

/** Whether the profile update reached the service: sent, failed (it may have: sent again next time), or kept as it was (not sent, or cut off before it was sent). */
function profileOutcome(input: ImportInput, result: IDataObject, created: boolean, plan: Plan): 'sent' | 'failed' | 'kept' {
	if (!plan.sendProfile) return 'kept';
	if (result.profileUpdated === true) return 'sent';
	if (result.profileError !== undefined) return 'failed';
	// Nothing to update (Create carried every field): the profile is as sent. Else the update was never sent (the run stopped first).
	return Object.keys(profileUpdateOf(input.profile, created)).length === 0 ? 'sent' : 'kept';
}

/**
 * What reached the service, remembered (and returned, for the row's state): the slug; the
 * profile when its update went through (with its fields one by one), none when it failed (an
 * update is idempotent: sent again next time), as before when it was not sent; each record
 * added; each record whose post had an unknown outcome, under its own print (a post is not
 * idempotent: it is not sent again, and reported while the row holds it). Under every key of
 * `keys`: the row's, then its other identifiers' (so that a changed Match By finds it again).
 */
export function rememberOutcome(memory: CandidateMemory, keys: string[], known: Known | undefined, input: ImportInput, result: IDataObject, plan: Plan): SentState {
	const results = (result.records as RecordResult[] | undefined) ?? [];
	const printsOf = (outcome: (done: RecordResult) => boolean, print: typeof recordPrint) =>
		plan.records
			.filter((record) => record.body && results.some((done) => done.type === record.kind.type && done.index === record.index && outcome(done)))
			.map((record) => print(record.kind.type, record.body!));
	const added = printsOf((done) => done.ok, recordPrint);
	const unknown = printsOf((done) => !done.ok && done.outcomeUnknown === true, unknownPrint);
	// A record of unknown outcome sent again and added: no longer unknown.
	const settled = new Set(plan.resent.filter((record) => record.body && added.includes(recordPrint(record.kind.type, record.body))).map((record) => unknownPrint(record.kind.type, record.body!)));
	const outcome = profileOutcome(input, result, result.created === true, plan);
	let p = known?.p;
	let prints = (known?.r ?? []).filter((print) => !settled.has(print));
	if (outcome !== 'kept') {
		prints = withoutBlock(prints, known?.p, PROFILE_ORDER);
		p = outcome === 'sent' ? plan.profile : undefined;
		if (p !== undefined) prints = [...fieldBlock(p, plan.fields, PROFILE_ORDER), ...prints];
	}
	const entry = { p, r: [...new Set([...prints, ...added, ...unknown])] };
	for (const key of keys) memory.remember(key, { s: result.slug as string, ...entry });
	return entry;
}

/**
 * The row's `action`, one value a sheet can filter on: `created`, `updated` or `unchanged` when
 * everything went through (or nothing was to be sent); when something did not (`failures`):
 * `partly created` (the candidate was created), `partly updated` (something else reached the
 * service) or `failed` (nothing did). A row that fails as a whole is `failed` too (`failedFields`).
 */
export const ACTIONS = ['created', 'updated', 'unchanged', 'partly created', 'partly updated', 'failed'] as const;

function actionOf(result: IDataObject, created: boolean, failures: string[]): string {
	const added = ((result.records as RecordResult[] | undefined) ?? []).some((record) => record.ok);
	const reached = result.profileUpdated === true || added;
	if (failures.length === 0) return created ? 'created' : reached ? 'updated' : 'unchanged';
	return created ? 'partly created' : reached ? 'partly updated' : 'failed';
}

/** Everything of the row that did not go through: the profile update, each failed record, each record whose earlier outcome is unknown. */
function failuresOf(result: IDataObject, plan: Plan): string[] {
	const results = (result.records as RecordResult[] | undefined) ?? [];
	const described = (done: RecordResult) => {
		const record = plan.records.find((planned) => planned.kind.type === done.type && planned.index === done.index);
		return record ? describeRecord(record) : `${done.type} ${done.index}`;
	};
	return [
		...(result.profileError !== undefined ? [`profile update: ${result.profileError as string}`] : []),
		...results
			.filter((done) => !done.ok)
			.map(
				(done) =>
					`${described(done)}: ${(done.error as string | undefined) ?? 'failed'}${done.outcomeUnknown === true ? " (if the candidate has it: run this row once with Memory Action → Adopt Given Slugs and its slug, which marks it as added)" : ''}`,
			),
		...plan.outcomeUnknown.map(
			(record) =>
				`${describeRecord(record)}: an earlier post (or the row's creation) got no answer: it may have been added, not sent again (if it was added, Memory Action → Adopt Given Slugs with this row's slug marks it so, else Options → ${RESEND_UNKNOWN_LABEL} sends it, at the risk of a second copy)`,
		),
	];
}

/** How a level is written in the records whose level changes: the wire field and the levels there are. */
const LEVELS: Record<string, { field: string; max: number }> = {
	language: { field: 'language_level_id', max: 20 },
	itSkill: { field: 'skill_level_id', max: 4 },
};

/**
 * Records added to a known candidate beside one sent before with another level (German level 2,
 * now 3): the service cannot change or remove records, so the candidate now holds both. Found
 * where the memory holds the print of the same record with the other level.
 */
function secondRecordsOf(result: IDataObject, plan: Plan, known: Known | undefined, created: boolean): string[] {
	if (created || !known?.r?.length) return [];
	const sent = new Set(known.r);
	const results = (result.records as RecordResult[] | undefined) ?? [];
	return plan.records.flatMap((record) => {
		const level = LEVELS[record.kind.type];
		const added = results.some((done) => done.ok && done.type === record.kind.type && done.index === record.index);
		if (!level || !added || !record.body) return [];
		const now = Number(record.body[level.field]);
		for (let before = 1; before <= level.max; before++) {
			if (before !== now && sent.has(recordPrint(record.kind.type, { ...record.body, [level.field]: before }))) {
				return [`${record.kind.label} ${quote(record.name)} level ${before} → ${now}`];
			}
		}
		return [];
	});
}

/** What the row's output says of records added as a second one. */
const secondRecordNote = (seconds: string[]) =>
	`${seconds.join(', ')} ${seconds.length === 1 ? 'was added as a second record' : 'were added as second records'}: the service cannot change or remove records, the one sent before stays`;

const HEADS: Record<string, string> = {
	created: 'Created candidate',
	updated: 'Updated candidate',
	unchanged: 'Unchanged: candidate',
	'partly created': 'Created candidate',
	'partly updated': 'Partly updated candidate',
	failed: 'Not updated: candidate',
};

/** The row's one-sentence result, then what the node could not do. */
function messageOf(action: string, result: IDataObject, plan: Plan, failures: string[], seconds: string[]): string {
	const results = (result.records as RecordResult[] | undefined) ?? [];
	const created = action === 'created' || action === 'partly created';
	const head = `${HEADS[action]} ${result.slug as string}${action === 'partly created' ? ', not everything went through' : ''}`;
	const done: string[] = [];
	const labels = (fields: string[]) => fields.map((field) => PROFILE_LABELS[candidateWireName(field as CandidateField)] ?? field).join(', ');
	if (result.profileUpdated === true) {
		done.push(created ? 'profile sent' : `profile updated${plan.changedFields.length > 0 ? ` (${labels(plan.changedFields)})` : ''}`);
	}
	if (result.profileError !== undefined) done.push('profile update failed');
	if (results.length > 0) done.push(`${results.filter((record) => record.ok).length} of ${results.length} new ${results.length === 1 ? 'record' : 'records'} added`);
	if (plan.resent.length > 0) done.push(`${plan.resent.length} of unknown outcome sent again`);
	if (plan.unchanged > 0) done.push(`${plan.unchanged} ${plan.unchanged === 1 ? 'record' : 'records'} sent before`);
	if (action === 'unchanged') done.push('nothing new, nothing sent');
	if (action === 'failed' && done.length === 0) done.push('nothing was sent');
	const notes: string[] = [];
	if (seconds.length > 0) notes.push(secondRecordNote(seconds));
	if (Array.isArray(result.notSent)) notes.push(`Not sent: ${result.notSent.join(', ')} (the service takes them only when it creates a candidate)`);
	if (plan.notCleared.length > 0) notes.push(`${labels(plan.notCleared)} left empty in the row: the service cannot clear a field, it keeps its value`);
	if (plan.outcomeUnknown.length > 0) {
		notes.push(
			`Not sent again: ${plan.outcomeUnknown.map(describeRecord).join(', ')} (an earlier post may have added it; check the candidate: if it is there, run this row once with Memory Action → Adopt Given Slugs and Candidate Slug set to its slug, which marks it as added; if it is missing, turn on Options → ${RESEND_UNKNOWN_LABEL} for one run, which may add it twice)`,
		);
	}
	if (failures.length > 0) notes.push(`Failed: ${failures.join('; ')}`);
	return [`${head}: ${done.join(', ')}`, ...notes].join('. ');
}

/**
 * The row's output: `action`, `matchedBy` and the value the row was matched by (under its
 * parameter's name: `email`, `phone` or `matchKey`), `error` (empty when everything went through:
 * the column stays in its place in a table), `slug`, `syncState`, `message`, `updatedFields` (the
 * profile fields an update changed), `secondRecords` (records added beside one with another level),
 * `notCleared` and `outcomeUnknown` when they apply, then Import's fields (`created`,
 * `profileUpdated`, `profileError`, `notSent`, `records`, `summary`).
 */
export function outputOf(memory: CandidateMemory, lead: Lead, result: IDataObject, created: boolean, plan: Plan, state: SentState, known?: Known): IDataObject {
	const failures = failuresOf(result, plan);
	const action = actionOf(result, created, failures);
	const seconds = secondRecordsOf(result, plan, known, created);
	const slug = result.slug as string;
	return {
		action,
		...leadFields(lead),
		error: failures.join('; '),
		slug,
		syncState: encodeState(memory.stateScope, state, slug),
		message: messageOf(action, result, plan, failures, seconds),
		...(result.profileUpdated === true && !created ? { updatedFields: plan.changedFields } : {}),
		...(seconds.length > 0 ? { secondRecords: seconds } : {}),
		...(plan.notCleared.length > 0 ? { notCleared: plan.notCleared } : {}),
		...(plan.outcomeUnknown.length > 0 ? { outcomeUnknown: plan.outcomeUnknown.map(describeRecord) } : {}),
		...omit(result, ['slug', 'message']),
	};
}

/** `matchedBy` and the value the row was matched by, under its parameter's name. */
export const leadFields = (lead: Lead): IDataObject => ({ matchedBy: lead.matchedBy, [lead.field]: lead.value as IDataObject[string] });

/** The first fields of a row that failed as a whole (its error item): `action: failed`, and what it was matched by. */
export const failedFields = (lead: Lead): IDataObject => ({ action: 'failed', ...leadFields(lead) });

/** The result of a row with nothing to send (before Import's fields are known). */
export function unchangedResult(slug: string, unchanged: number): IDataObject {
	return { slug, created: false, profileUpdated: false, records: [], summary: { records: 0, added: 0, failed: 0, unchanged } };
}
