/**
 * Create or Update's actions on its memory, and what keeps a mode that syncs nothing visible
 * (issue 39): Adopt Given Slugs (rows refused as "may already exist" whose candidates exist),
 * Forget Each Input Row (candidates deleted in the service), Forget All Rows; the hint of a
 * production execution in such a mode; and the rows a manual run holds back because n8n never
 * saves what a manual run learns.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CandidateMemory } from '../../../memory';
import { adoptThroughMemory, forgetWithTwins } from '../../../memory';
import type { SentState } from '../../../memory/syncState';
import { encodeState, fieldBlock, profilePrint, recordPrint, unknownPrint } from '../../../memory/syncState';
import type { RunContext, Send } from '../../context';
import { itemParameter } from '../../shared/parameters';
import type { ImportInput } from '../import.operation';
import { resolveRecordNames, updatableProfile } from '../import.operation';
import { describeRecord } from '../import/plan';
import { ADOPT_NOT_CHECKED, isDryRun } from './dryRun';
import type { Lead } from './outcome';
import { RESEND_UNKNOWN_LABEL, leadFields } from './outcome';
import type { Plan } from './plan';
import { contentOf, PROFILE_ORDER } from './plan';

interface Row {
	key: string;
	lead: Lead;
	aliases: string[];
}

/** What each mode that syncs nothing does, in the words of the execution hint and of each item's `warning`. */
const MODES: Record<string, string> = {
	adopt: 'Memory Action is Adopt Given Slugs: this node remembers the slugs it is given and sends nothing',
	forget: 'Memory Action is Forget Each Input Row: this node forgets every row it is given and sends nothing (the next Sync Rows run creates them again)',
	clearAll: 'Memory Action is Forget All Rows: this node forgets every row it knows and sends nothing (the next Sync Rows run creates them all again)',
	dryRun: 'Options → Dry Run is on: this node writes nothing to the service and remembers nothing',
};

const modeOf = (context: IExecuteFunctions, action: string): string | undefined =>
	MODES[action] ?? (itemParameter(context, 'options.dryRun', 0, false) === true ? MODES.dryRun : undefined);

/** A production execution (not a manual run) in a mode that syncs nothing says so, once per execution (issue 39, trap 2). */
export function hintMode(context: IExecuteFunctions, run: RunContext, action: string): void {
	void run.once('candidateMemory.modeHint', async () => {
		const mode = modeOf(context, action);
		if (typeof context.addExecutionHints !== 'function') return;
		if (context.getMode() === 'manual') {
			if (action === 'adopt' && !isDryRun(run)) context.addExecutionHints({ message: MANUAL_ADOPT_HINT, location: 'outputPane' });
		} else if (mode !== undefined) context.addExecutionHints({ message: productionWarning(mode), location: 'outputPane' });
	});
}

/** The execution hint of Adopt Given Slugs run by hand. */
export const MANUAL_ADOPT_HINT =
	'Adopted by hand: this n8n process remembers the adopted rows at once, and the next production execution of this node saves them (n8n never saves what a manual run learns). If n8n restarts before that, adopt them again; or write each output\'s "slug" and "syncState" back to the rows (Candidate Slug, Sync State), which holds anywhere.';

const productionWarning = (mode: string) => `${mode}, in a production execution: every execution of the active workflow does the same. Switch it back (Sync Rows, Dry Run off) and publish the workflow again.`;

/** The `warning` of an item of a production execution in a mode that syncs nothing. */
const warningOf = (context: IExecuteFunctions, action: string): IDataObject => {
	const mode = modeOf(context, action);
	return mode === undefined || context.getMode() === 'manual' ? {} : { warning: productionWarning(mode) };
};

/**
 * Adopt Given Slugs: the row's Candidate Slug is remembered as its candidate, nothing is sent.
 * With its Sync State, what that says was sent. A row this node already knows as that candidate
 * keeps what it knows, and its records whose post got no answer are marked as added (the way out
 * for a record of unknown outcome that the service did store). Any other row is taken as the
 * candidate holds it now: its profile and records as sent (the run that created the candidate sent
 * them), so that the next Sync Rows run is `unchanged` when nothing changed (issue 47).
 */
export async function adoptRow(context: IExecuteFunctions, itemIndex: number, run: RunContext, memory: CandidateMemory, row: Row, input: ImportInput, given: SentState | undefined): Promise<IDataObject> {
	const slug = input.givenSlug;
	if (slug === '') {
		return {
			action: 'notAdopted',
			...leadFields(row.lead),
			error: '',
			...warningOf(context, 'adopt'),
			message: 'No Candidate Slug for this row: nothing adopted. Map Candidate Slug to the "slug" of the output of the execution that created this row.',
		};
	}
	await resolveRecordNames(context, itemIndex, run, input.planned);
	const valid = input.planned.filter((record) => record.body !== undefined && record.problem === undefined);
	const fields = updatableProfile(input.profile);
	const profile = profilePrint(fields, PROFILE_ORDER);
	const records = valid.map((record) => ({ print: recordPrint(record.kind.type, record.body!), unknown: unknownPrint(record.kind.type, record.body!) }));
	const adoption = await adoptThroughMemory(memory, {
		key: row.key,
		aliases: row.aliases,
		slug,
		content: contentOf(input, profile),
		profile,
		whole: [...fieldBlock(profile, fields, PROFILE_ORDER), ...records.map((record) => record.print)],
		records,
		given,
	});
	const count = (n: number, what: string) => `${n} ${n === 1 ? 'record' : 'records'}${what}`;
	const taken = {
		given: 'its Sync State says what was sent',
		known: adoption.marked > 0 ? `${count(adoption.marked, '')} of unknown outcome marked as added` : 'this node already knew it as this candidate, what it knew was sent is kept',
		held: `${count(valid.length, '')} of unknown outcome (this n8n sent the row's creation and got no answer: if that made this candidate, none was sent; the next runs list them in outcomeUnknown: Options → ${RESEND_UNKNOWN_LABEL} sends them, Adopt Given Slugs once more marks them as added)`,
		same: `its profile and ${count(valid.length, '')} taken as the candidate holds them`,
		changed: `${count(valid.length, ' of the row taken as added')}, its profile sent by the next run`,
	}[adoption.how];
	return {
		action: 'adopted',
		...leadFields(row.lead),
		error: '',
		slug,
		syncState: encodeState(memory.stateScope, adoption.entry, slug),
		// A dry run cannot read n8n's store: whether it says the row was sent with this content (`same`) is not known to the plan.
		...(isDryRun(run) && adoption.how === 'changed' && typeof context.helpers.checkProcessedAndRecord === 'function' ? { notChecked: ADOPT_NOT_CHECKED } : {}),
		...warningOf(context, 'adopt'),
		message: `Adopted candidate ${slug}: nothing sent, ${taken}; the next Sync Rows run sends only what is new`,
	};
}

/** Whether a forget was confirmed (Forget Now): without it, a forget only says what it would do. */
const confirmed = (context: IExecuteFunctions, itemIndex: number) => itemParameter(context, 'confirmForget', itemIndex, false) === true;

/** What a forget does to the live workflow, in the words of its outputs. */
const LIVE =
	'for every execution at once, the published workflow\'s too: its next Sync Rows run creates the candidate again (a duplicate unless it was deleted in the service)';

/**
 * Forget Each Input Row: the row's output keeps its e-mail (phone, key) and the slug it had, and
 * says what the next run does. Without Forget Now it only says what it would forget.
 */
export async function forgetRow(context: IExecuteFunctions, itemIndex: number, memory: CandidateMemory, row: Row): Promise<IDataObject> {
	if (!confirmed(context, itemIndex)) {
		const slug = memory.recall(row.key)?.s;
		return {
			action: 'wouldForget',
			...leadFields(row.lead),
			error: '',
			...(slug ? { slug } : {}),
			message: `Nothing forgotten (Forget Now is off). With Forget Now on, this row${slug ? ` (candidate ${slug})` : ''} is forgotten ${LIVE}.`,
		};
	}
	const { slug, known } = await forgetWithTwins(memory, row.key, row.aliases);
	const message = known
		? `Forgotten${slug ? `: candidate ${slug}` : ''}. Nothing was sent: the candidate still exists in the service unless you deleted it there, and the next Sync Rows run creates this row again (a duplicate if it exists), the published workflow's too.`
		: 'This node did not know this row: nothing forgotten.';
	return { action: 'forgotten', ...leadFields(row.lead), error: '', ...(slug ? { slug } : {}), known, ...warningOf(context, 'forget'), message };
}

/** Forget All Rows: one output item for the whole run (paired with the first input item), however many rows came in. Without Forget Now it only says what it would forget. */
export function clearAllRows(context: IExecuteFunctions, itemIndex: number, run: RunContext, memory: CandidateMemory): Send {
	return async () => {
		if (itemIndex !== 0) return [];
		if (!confirmed(context, itemIndex)) {
			const { rows, entries } = await memory.count();
			return {
				action: 'wouldClear',
				remembered: rows,
				storeEntries: entries,
				message: `Nothing forgotten (Forget Now is off). With Forget Now on, every row of this node is forgotten (${rows} remembered by this n8n, ${entries} entries in n8n's deduplication store) ${LIVE.replace('the candidate', 'every candidate')}.`,
			};
		}
		const { rows, entries } = await run.once('candidateMemory.clear', async () => await memory.clear());
		return {
			action: 'cleared',
			forgotten: rows,
			storeEntries: entries,
			...warningOf(context, 'clearAll'),
			message: `Forgot every row of this node (${rows} remembered by this n8n, ${entries} entries in n8n's deduplication store). Nothing was sent: the candidates still exist in the service, and the next Sync Rows run creates every row again (a duplicate of each candidate not deleted there), the published workflow's too.`,
		};
	};
}

/** The execution hint of a manual run that held rows back (Create in Manual Runs off). */
export const MANUAL_HOLD_HINT =
	'A manual run of Create or Update: it creates no candidate and adds no record of a row its memory decides (those rows answer "notSent"), because n8n never saves what a manual run learns: after an n8n restart a production run could not tell that these candidates exist. Rows that bring their Candidate Slug and Sync State, and profile updates of known rows, are sent. A production run of the active workflow sends the rest; Options → Dry Run shows the requests; Options → Create in Manual Runs sends them now.';

/**
 * Whether a manual run holds this row back: Options → Create in Manual Runs off, no Sync State
 * given, and the row would create a candidate or add records (a profile update can be sent again
 * harmlessly; a creation or a record cannot). A dry run by hand plans the same.
 */
export function heldInManualRun(context: IExecuteFunctions, itemIndex: number, run: RunContext, { slug, given, plan }: { slug: string | undefined; given: SentState | undefined; plan: Plan }): boolean {
	// A dry run by hand plans what this manual run does (issue 47): the same rows held back. A node kept for previews of the
	// live sync (Plan From: Other Create or Update Nodes, as the spreadsheet example's) plans the live run instead.
	if (context.getMode() !== 'manual' || given !== undefined) return false;
	if (isDryRun(run) && itemParameter(context, 'options.planFrom', 0, 'thisNode') === 'otherNodes') return false;
	if (itemParameter(context, 'options.createInManualRuns', itemIndex, false) === true) return false;
	return slug === undefined || plan.records.some((record) => record.body !== undefined && record.problem === undefined);
}

/** The output of a row a manual run held back: what a production run will send. */
export function notSentResult(lead: Lead, slug: string | undefined, plan: Plan): IDataObject {
	const records = plan.records.filter((record) => record.body !== undefined && record.problem === undefined).map(describeRecord);
	const wouldSend = [...(slug === undefined ? ['the candidate (created)'] : []), ...records];
	return {
		action: 'notSent',
		...leadFields(lead),
		error: '',
		...(slug === undefined ? {} : { slug }),
		message: `Not sent in a manual run: ${wouldSend.join(', ')}. n8n never saves what a manual run learns, so a manual run creates nothing and adds no record unless Options → Create in Manual Runs is on; the next production run sends it.`,
		wouldSend,
	};
}
