/**
 * What a row's run reached, remembered (and given back as the row's `syncState`), and the row's
 * output: it leads with the result (`action`, then what the row was matched by, then `error`
 * whenever something did not go through), then the candidate and its state, then Import's fields.
 */
import { omit } from 'lodash';
import type { IDataObject } from 'n8n-workflow';

import type { CandidateMemory, MatchBy } from '../../../memory';
import type { SentState } from '../../../memory/syncState';
import { encodeState, fieldBlock, recordPrint, unknownPrint, withoutBlock } from '../../../memory/syncState';
import type { CandidateField } from '../../shared/candidateProfile';
import { candidateWireName } from '../../shared/candidateProfile';
import type { ImportInput, RecordResult } from '../import.operation';
import { profileUpdateOf } from '../import.operation';
import { describeRecord } from '../import/plan';
import type { Known, Plan } from './plan';
import { PROFILE_LABELS, PROFILE_ORDER } from './plan';

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
	const outcome = profileOutcome(input, result, result.created === true, plan);
	let p = known?.p;
	let prints = known?.r ?? [];
	if (outcome !== 'kept') {
		prints = withoutBlock(prints, known?.p, PROFILE_ORDER);
		p = outcome === 'sent' ? plan.profile : undefined;
		if (p !== undefined) prints = [...fieldBlock(p, plan.fields, PROFILE_ORDER), ...prints];
	}
	const entry = { p, r: [...new Set([...prints, ...added, ...unknown])] };
	for (const key of keys) memory.remember(key, { s: result.slug as string, ...entry });
	return entry;
}

/** Created, updated (something reached the service) or unchanged (nothing did: nothing new, only invalid records, or refused). */
function actionOf(result: IDataObject, created: boolean): string {
	if (created) return 'created';
	const added = ((result.records as RecordResult[] | undefined) ?? []).some((record) => record.ok);
	return result.profileUpdated === true || added ? 'updated' : 'unchanged';
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
		...results.filter((done) => !done.ok).map((done) => `${described(done)}: ${(done.error as string | undefined) ?? 'failed'}`),
		...plan.outcomeUnknown.map((record) => `${describeRecord(record)}: an earlier post got no answer (it may have been added), not sent again`),
	];
}

/** The row's one-sentence result, then what the node could not do. */
function messageOf(action: string, result: IDataObject, plan: Plan, failures: string[]): string {
	const results = (result.records as RecordResult[] | undefined) ?? [];
	const slug = result.slug as string;
	const head = action === 'created' ? `Created candidate ${slug}` : action === 'updated' ? `Updated candidate ${slug}` : `Unchanged: candidate ${slug}`;
	const done: string[] = [];
	if (result.profileUpdated === true) done.push(action === 'created' ? 'profile sent' : 'profile updated');
	if (result.profileError !== undefined) done.push('profile update failed');
	if (results.length > 0) done.push(`${results.filter((record) => record.ok).length} of ${results.length} new ${results.length === 1 ? 'record' : 'records'} added`);
	if (plan.unchanged > 0) done.push(`${plan.unchanged} ${plan.unchanged === 1 ? 'record' : 'records'} sent before`);
	if (action === 'unchanged' && failures.length === 0) done.push('nothing new, nothing sent');
	const notes: string[] = [];
	if (Array.isArray(result.notSent)) notes.push(`Not sent: ${result.notSent.join(', ')} (the service takes them only when it creates a candidate)`);
	if (plan.notCleared.length > 0) {
		const labels = plan.notCleared.map((field) => PROFILE_LABELS[candidateWireName(field as CandidateField)] ?? field);
		notes.push(`${labels.join(', ')} left empty in the row: the service cannot clear a field, it keeps its value`);
	}
	if (plan.outcomeUnknown.length > 0) {
		notes.push(
			`Not sent again: ${plan.outcomeUnknown.map(describeRecord).join(', ')} (an earlier post may have added it; check the candidate, and add it with the Add operation of its kind if it is missing)`,
		);
	}
	if (failures.length > 0) notes.push(`Failed: ${failures.join('; ')}`);
	return [`${head}: ${done.join(', ')}`, ...notes].join('. ');
}

/**
 * The row's output: `action`, `matchedBy` and the value the row was matched by (under its
 * parameter's name: `email`, `phone` or `matchKey`), `error` when anything did not go through,
 * `slug`, `syncState`, `message`, `notCleared` and `outcomeUnknown` when they apply, then Import's
 * fields (`created`, `profileUpdated`, `profileError`, `notSent`, `records`, `summary`).
 */
export function outputOf(memory: CandidateMemory, lead: Lead, result: IDataObject, created: boolean, plan: Plan, state: SentState): IDataObject {
	const action = actionOf(result, created);
	const failures = failuresOf(result, plan);
	const slug = result.slug as string;
	return {
		action,
		...leadFields(lead),
		...(failures.length > 0 ? { error: failures.join('; ') } : {}),
		slug,
		syncState: encodeState(memory.stateScope, state, slug),
		message: messageOf(action, result, plan, failures),
		...(plan.notCleared.length > 0 ? { notCleared: plan.notCleared } : {}),
		...(plan.outcomeUnknown.length > 0 ? { outcomeUnknown: plan.outcomeUnknown.map(describeRecord) } : {}),
		...omit(result, ['slug', 'message']),
	};
}

/** `matchedBy` and the value the row was matched by, under its parameter's name. */
export const leadFields = (lead: Lead): IDataObject => ({ matchedBy: lead.matchedBy, [lead.field]: lead.value as IDataObject[string] });

/** The result of a row with nothing to send (before Import's fields are known). */
export function unchangedResult(slug: string, unchanged: number): IDataObject {
	return { slug, created: false, profileUpdated: false, records: [], summary: { records: 0, added: 0, failed: 0, unchanged } };
}
