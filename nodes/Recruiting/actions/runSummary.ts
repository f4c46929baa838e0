/**
 * Trouble shows where n8n users look (issue 47, item 3): after a production execution (not a
 * manual run, whose output the user has in front of them) of Import or Create or Update, the
 * rows counted by what happened to them, from each row's `action` and from each failed row's
 * error:
 * - in n8n's execution custom data (`$execution.customData`, as n8n's Execution Data node sets
 *   it), which the executions list filters on: one key per count that is not zero (`created`,
 *   `updated`, `unchanged`, `partly`, `failed`, `refused`, `held`), its value the number as
 *   text, added to what an earlier run of the node in the same execution recorded (what an earlier
 *   try of the same run recorded is taken back: a count it had and the rerun has not shows 0, since
 *   custom data keys cannot be removed). n8n-core
 *   (execution-metadata) keeps at most 10 keys per execution, keys of `A-Za-z0-9_` up to 50
 *   characters, values cut at 255 (512 in 2.x); outside manual runs it drops what does not fit
 *   without failing;
 * - as an execution hint, when rows were partly done, failed, refused or held: how many, and
 *   what to do. Under On Error → Continue such an execution shows as succeeded.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** What happened to one row, as counted. */
export type Tally = 'created' | 'updated' | 'unchanged' | 'partly' | 'failed' | 'refused' | 'held';

const ORDER: readonly Tally[] = ['created', 'updated', 'unchanged', 'partly', 'failed', 'refused', 'held'];

/** The operations whose rows are counted ("resource:operation"), by the name the hint gives them. */
const COUNTED: Record<string, string> = { 'candidate:import': 'Import', 'candidate:upsert': 'Create or Update' };

/** Whether the rows of this operation are counted. */
export const countsRows = (resource: string, operation: string): boolean => COUNTED[`${resource}:${operation}`] !== undefined;

const BY_ACTION: Record<string, Tally> = {
	created: 'created',
	updated: 'updated',
	unchanged: 'unchanged',
	'partly created': 'partly',
	'partly updated': 'partly',
	failed: 'failed',
	notSent: 'held',
};

/** Whether the row holds something of unknown outcome: a record whose post got no answer, now or in an earlier run. */
function holdsUnknown(json: IDataObject): boolean {
	if (Array.isArray(json.outcomeUnknown) && json.outcomeUnknown.length > 0) return true;
	return Array.isArray(json.records) && (json.records as IDataObject[]).some((record) => record?.outcomeUnknown === true);
}

/** A row's output (or an error's partial result), counted by its `action`; a plan (Dry Run) and the memory actions are not counted. */
export function tallyOfOutput(output: unknown): Tally | undefined {
	if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
	const json = output as IDataObject;
	if (json.dryRun === true || typeof json.action !== 'string') return undefined;
	const tally = BY_ACTION[json.action];
	return (tally === 'partly' || tally === 'failed') && holdsUnknown(json) ? 'held' : tally;
}

/**
 * A failed row: refused before anything was sent (the operation marks it: `context.refusal`),
 * held when its creation was sent and the answer lost (`context.mayExist`), else as its partial
 * result says (a candidate kept with records failed: partly), else failed.
 */
export function tallyOfError(context: IDataObject): Tally | undefined {
	if (typeof context.refusal === 'string') return 'refused';
	if (context.mayExist === true) return 'held';
	const partial = context.partialResult as IDataObject | undefined;
	if (partial?.dryRun === true) return undefined;
	return tallyOfOutput(partial) ?? 'failed';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The hint: how many rows did not fully go through, and what to do about each kind. */
function hintOf(operation: string, counts: Map<Tally, number>, errorOutput: boolean): string | undefined {
	const count = (tally: Tally) => counts.get(tally) ?? 0;
	const troubled = count('partly') + count('failed') + count('refused') + count('held');
	if (troubled === 0) return undefined;
	const total = [...counts.values()].reduce((sum, value) => sum + value, 0);
	const kinds = [
		count('partly') > 0 ? `${count('partly')} partly done` : '',
		count('failed') > 0 ? `${count('failed')} failed` : '',
		count('refused') > 0 ? `${count('refused')} refused` : '',
		count('held') > 0 ? `${count('held')} held (outcome unknown or not sent)` : '',
	].filter(Boolean);
	const advice = [
		`${operation}: ${troubled} of ${plural(total, 'row', 'rows')} did not fully go through (${kinds.join(', ')}), although the execution counts as succeeded.`,
		`Each such row says what in its "action" and "error" columns${errorOutput ? ' (failed rows are on the error output)' : ''}.`,
	];
	if (count('partly') + count('failed') > 0) {
		advice.push(
			operation === 'Import'
				? 'Import creates a new candidate on every run: correct those rows and run them again, each with its "slug" (when it has one) as Candidate Slug so that it is not created twice; Create or Update does this by itself.'
				: 'The next run sends again what did not go through; correct the rows whose input was refused by the service.',
		);
	}
	if (count('refused') > 0) {
		advice.push(
			'Refused rows sent nothing; each one\'s error says why: for "may already exist", give the rows their slugs and run Memory Action → Adopt Given Slugs once.',
		);
	}
	if (count('held') > 0) advice.push('Held rows may or may not be in the service: check them there before sending them again; each row\'s message says how.');
	return advice.join(' ');
}

/** Records the counts in the execution's custom data and adds the hint; nothing for a manual run or an operation whose rows are not counted. */
export function reportRun(
	context: IExecuteFunctions,
	{ resource, operation, tallies, errorOutput }: { resource: string; operation: string; tallies: ReadonlyArray<Tally | undefined>; errorOutput: boolean },
): void {
	const name = COUNTED[`${resource}:${operation}`];
	if (name === undefined || context.getMode() === 'manual') return;
	const counts = new Map<Tally, number>();
	for (const tally of tallies) if (tally !== undefined) counts.set(tally, (counts.get(tally) ?? 0) + 1);
	if (counts.size === 0) return;
	recordCounts(context, counts);
	const hint = hintOf(name, counts, errorOutput);
	if (hint !== undefined && typeof context.addExecutionHints === 'function') context.addExecutionHints({ message: hint, location: 'outputPane' });
}

/** Where in the node's context each run of the node keeps what it counted (n8n's Retry On Fail runs the same run again). */
const COUNTED_KEY = 'recruitingCounted';

/**
 * The counts in n8n's execution custom data, added to those a run of the node earlier in the same
 * execution recorded (a loop runs the node again with the next `$runIndex`); what an earlier try of
 * this same run counted is taken back first (Retry On Fail runs it again with the same `$runIndex`).
 */
function recordCounts(context: IExecuteFunctions, counts: Map<Tally, number>): void {
	try {
		const proxy = context.getWorkflowDataProxy(0);
		const customData = proxy.$execution?.customData;
		if (typeof customData?.setAll !== 'function') return;
		const nodeContext = context.getContext('node');
		nodeContext[COUNTED_KEY] ??= {};
		const counted = nodeContext[COUNTED_KEY] as Record<string, Partial<Record<Tally, number>>>;
		const run = String(proxy.$runIndex ?? 0);
		const earlierTry = counted[run] ?? {};
		const values: Record<string, string> = {};
		for (const tally of ORDER) {
			const count = counts.get(tally) ?? 0;
			const taken = earlierTry[tally] ?? 0;
			if (count === 0 && taken === 0) continue;
			const before = Number(customData.get(tally) ?? 0);
			values[tally] = String(Math.max(0, (Number.isSafeInteger(before) ? before : 0) - taken) + count);
		}
		counted[run] = Object.fromEntries(counts);
		customData.setAll(values);
	} catch {
		// Custom data is a convenience of the executions list: a run never fails for it.
	}
}
