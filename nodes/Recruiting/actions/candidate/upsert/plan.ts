/**
 * Create or Update's decision for one row: what it would send, from what was sent for its
 * candidate before (the row's state or the memory). Sends nothing itself (the run, and a dry
 * run, build on it).
 */
import type { IDataObject } from 'n8n-workflow';

import type { SentState } from '../../../memory/syncState';
import { fieldsHeld, profileFields, profilePrint, recordPrint, sentBefore, unknownPrint } from '../../../memory/syncState';
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
 * What the row sends: everything for a new candidate; for a known one, what differs from what was
 * sent. `written`: each record's body as written (before its names were resolved), for the prints
 * of earlier versions.
 */
export function planFor(input: ImportInput, known: Known | undefined, written: Map<PlannedRecord, IDataObject>) {
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
	return { fields, profile, sendProfile: changed && !onlyEmptied, notCleared: emptied.map(parameterOf), records, outcomeUnknown, unchanged };
}

export type Plan = ReturnType<typeof planFor>;
