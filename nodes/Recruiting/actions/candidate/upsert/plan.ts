/**
 * Create or Update's decision for one row: what it would send, from what was sent for its
 * candidate before (the row's state or the memory). Sends nothing itself (the run, and a dry
 * run, build on it).
 */
import type { IDataObject } from 'n8n-workflow';

import type { SentState } from '../../../memory/syncState';
import { contentPrint, fieldsHeld, profileFields, profilePrint, recordPrint, sentBefore, unknownPrint } from '../../../memory/syncState';
import { CANDIDATE_UPDATE_FIELDS, candidateLabels, candidateWireName } from '../../shared/candidateProfile';
import type { ImportInput } from '../import.operation';
import { updatableProfile } from '../import.operation';
import type { PlannedRecord } from '../import/plan';

/** The profile's wire fields an update carries, in a fixed order (the profile fingerprint says which it held). */
export const PROFILE_ORDER = CANDIDATE_UPDATE_FIELDS.map(candidateWireName);
export const PROFILE_LABELS = candidateLabels(CANDIDATE_UPDATE_FIELDS);
const parameterOf = (wire: string) => CANDIDATE_UPDATE_FIELDS.find((field) => candidateWireName(field) === wire) ?? wire;

/** What was sent for the row's candidate before, as the row's state or the memory holds it. */
export type Known = { s: string } & SentState;

/**
 * The profile fields (parameter names) whose value differs from what was last sent: each field's
 * print says so where the memory or state holds them; without them, every field the update carries.
 */
function changedFields(known: Known | undefined, fields: IDataObject): string[] {
	const given = PROFILE_ORDER.filter((field) => fields[field] !== undefined);
	return given.filter((field) => !fieldsHeld(known?.r ?? [], known?.p, { [field]: fields[field] }, PROFILE_ORDER)).map(parameterOf);
}

/**
 * What the row sends: everything for a new candidate; for a known one, what differs from what was
 * sent. `written`: each record's body as written (before its names were resolved), for the prints
 * of earlier versions. `resendUnknown` (Options → Send Unknown-Outcome Records Again): the records
 * whose earlier post got no answer are posted again instead of held back.
 */
export function planFor(input: ImportInput, known: Known | undefined, written: Map<PlannedRecord, IDataObject>, resendUnknown = false) {
	const fields = updatableProfile(input.profile);
	const profile = profilePrint(fields, PROFILE_ORDER);
	const changed = known?.p !== profile && !sentBefore([known?.p], 'profile', fields);
	// Fields the last profile sent held and the row leaves empty: the service offers no way to clear them.
	const emptied = changed ? (profileFields(known?.p, PROFILE_ORDER) ?? []).filter((field) => fields[field] === undefined) : [];
	// Only emptied fields, the others as sent: nothing the service can take, nothing to send.
	const onlyEmptied = emptied.length > 0 && fieldsHeld(known?.r ?? [], known?.p, fields, PROFILE_ORDER);
	const sent = new Set(known?.r ?? []);
	const records: PlannedRecord[] = [];
	const outcomeUnknown: PlannedRecord[] = [];
	/** Records of unknown outcome posted again (with `resendUnknown`). */
	const resent: PlannedRecord[] = [];
	let unchanged = 0;
	for (const record of input.planned) {
		// Invalid records are kept: they fail (or are reported) as in Import, and are never remembered.
		const body = record.problem === undefined ? record.body : undefined;
		const earlier = written.get(record);
		if (!body) records.push(record);
		else if (sent.has(recordPrint(record.kind.type, body)) || (earlier && sentBefore(sent, record.kind.type, earlier))) unchanged += 1;
		else if (!sent.has(unknownPrint(record.kind.type, body))) records.push(record);
		else if (resendUnknown) {
			records.push(record);
			resent.push(record);
		} else outcomeUnknown.push(record);
	}
	const sendProfile = changed && !onlyEmptied;
	return {
		fields,
		profile,
		sendProfile,
		/** The fields the update carries that changed (parameter names; none for a new candidate). */
		changedFields: sendProfile && known !== undefined ? changedFields(known, fields) : [],
		notCleared: emptied.map(parameterOf),
		records,
		outcomeUnknown,
		resent,
		unchanged,
	};
}

export type Plan = ReturnType<typeof planFor>;

/** The print of everything the row gives: its profile and its valid records (names resolved), as the journal's content mark holds it. */
export const contentOf = (input: ImportInput, profile: string): string =>
	contentPrint(
		profile,
		input.planned.filter((record) => record.body !== undefined && record.problem === undefined).map((record) => recordPrint(record.kind.type, record.body!)),
	);
