/**
 * The form of Candidate → Create or Update, in the order a user fills it: how a row is matched
 * (Match By, then its e-mail, phone or key), the profile, the records, then the state an earlier
 * run output for the row (Candidate Slug, Sync State, under one sentence saying what they are),
 * Memory Action, and Options.
 *
 * Memory Action hides nothing: n8n drops the values of fields a choice hides, so switching it to a
 * forget action and back used to empty the profile and the records (issue 34, point 1). Its forget
 * actions read only the match fields; the others stay as they are. Only notices (which hold no
 * value) depend on it: each choice that sends nothing says what it does and to switch it back
 * (issue 39).
 */
import type { INodeProperties } from 'n8n-workflow';

import { importParameters } from '../import/description';
import { outputNotice } from './outcome';

const show = { resource: ['candidate'], operation: ['upsert'] };

const matchBy: INodeProperties = {
	displayName: 'Match By',
	name: 'matchBy',
	type: 'options',
	options: [
		{ name: 'Email', value: 'email', description: "The row's e-mail address (case and spaces ignored)" },
		{ name: 'Phone', value: 'phone', description: "The row's phone number (only its digits count)" },
		{ name: 'Match Key', value: 'key', description: 'Any stable value of the row, such as a row ID or a form submission ID' },
	],
	default: 'email',
	description: "What identifies a row's candidate from one run to the next",
	displayOptions: { show },
};

const matchKey: INodeProperties = {
	displayName: 'Match Key',
	name: 'matchKey',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.row_number }}',
	description: 'A value that stays the same for this row in every run (for example a spreadsheet row ID), usually from an expression',
	displayOptions: { show: { ...show, matchBy: ['key'] } },
};

/** Over Options, where Dry Run is: how to try the node without writing anything (issue 33). */
const dryRunNotice: INodeProperties = {
	displayName:
		'Safe to test: with Options → Dry Run on, a run (a manual test run too) writes nothing to the service and remembers nothing. Each output item shows what a real run would do and the requests it would send.',
	name: 'dryRunNotice',
	type: 'notice',
	default: '',
	displayOptions: { show },
};

/** The one sentence over the state from an earlier run. */
const earlierRun: INodeProperties = {
	displayName:
		'From an earlier run (optional): map the "slug" and "syncState" this row\'s earlier output carried, written back to the row, and the node decides from them instead of its memory, in every kind of run.',
	name: 'earlierRunNotice',
	type: 'notice',
	default: '',
	displayOptions: { show },
};

const syncState: INodeProperties = {
	displayName: 'Sync State',
	name: 'syncState',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.syncState }}',
	description:
		'The "syncState" of this row\'s earlier output. With Candidate Slug, only what changed since then is sent. Empty: the memory decides.',
	displayOptions: { show },
};

const memoryAction: INodeProperties = {
	displayName: 'Memory Action',
	name: 'memoryAction',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Sync Rows',
			value: 'remember',
			description: 'Import a new row, update a known one with what changed, skip an unchanged one',
		},
		{
			name: 'Adopt Given Slugs',
			value: 'adopt',
			description:
				"Take each input row's Candidate Slug as its candidate (nothing is sent): for rows refused as \"may already exist\" whose candidates exist",
		},
		{
			name: 'Forget Each Input Row',
			value: 'forget',
			description: 'For candidates deleted in the service: forget each input row (nothing is sent); the next Sync Rows run creates each one again',
		},
		{
			name: 'Forget All Rows',
			value: 'clearAll',
			description: "Clear this node's whole memory (nothing is sent); the next Sync Rows run creates every row again",
		},
	],
	default: 'remember',
	description: "What this node does with its memory. Adopt reads the match fields, Candidate Slug, Sync State and the records; the forget actions read only Match By and the row's e-mail, phone or key.",
	displayOptions: { show },
};

/**
 * The confirmation a forget needs before it acts (issue 47): off, the run lists what it would
 * forget and changes nothing, for a run by hand from a draft too; on, it forgets at once, for the
 * live workflow as well.
 */
const confirmForget: INodeProperties = {
	displayName: 'Forget Now',
	name: 'confirmForget',
	type: 'boolean',
	default: false,
	description:
		'Whether to forget at once, for the published workflow too (its next run creates each forgotten candidate again). Off: the run only lists what it would forget.',
	displayOptions: { show: { ...show, memoryAction: ['forget', 'clearAll'] } },
};

/** What a run by hand does (issue 47): the banner says it before the user runs it. */
const manualRunNotice: INodeProperties = {
	displayName:
		'Run by hand (Execute Workflow or Execute Step), this node creates no candidate and adds no record of a row its memory decides: such rows answer "notSent", and the published workflow sends them. Dry Run by hand plans the same. Options → Create in Manual Runs sends them by hand.',
	name: 'manualRunNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { ...show, memoryAction: ['remember'] } },
};

/** Beside Memory Action, for each mode that sends nothing: what it does, and to switch it back (issue 39, traps 1 and 2). */
const SWITCH_BACK = 'Switch Memory Action back to Sync Rows after this run: left on, every execution (a production one too) does this again and syncs nothing.';
const modeNotice = (value: string, text: string): INodeProperties => ({
	displayName: `${text} ${SWITCH_BACK}`,
	name: `${value}Notice`,
	type: 'notice',
	default: '',
	displayOptions: { show: { ...show, memoryAction: [value] } },
});
const modeNotices: INodeProperties[] = [
	modeNotice(
		'adopt',
		'Adopt Given Slugs: each input row with a Candidate Slug is remembered as that candidate, nothing is sent. Map Candidate Slug to the "slug" of the output of the execution that created the rows (written back to your rows); the records the row lists now are taken as added, and the next Sync Rows run sends the profile and later records only.',
	),
	modeNotice(
		'forget',
		'Forget Each Input Row is for candidates deleted in the service: the candidates still exist in the service unless you deleted them there, and the next Sync Rows run creates each forgotten row again (a duplicate if its candidate exists). Without Forget Now, the run only lists what it would forget. For rows refused as "may already exist", use Adopt Given Slugs instead.',
	),
	modeNotice(
		'clearAll',
		'Forget All Rows: the candidates still exist in the service, and the next Sync Rows run creates every row again (duplicates of every candidate not deleted there). Without Forget Now, the run only says what it would forget.',
	),
];

/** Import's parameters (slug first, options last), reordered: slug and state go to their section before Options. */
function ordered(): INodeProperties[] {
	const [slug, ...rest] = importParameters(
		'upsert',
		"The \"slug\" of this row's earlier output. Empty: the remembered candidate, or a new one. Given alone: use that candidate (Source and Employee are not sent).",
	);
	const options = rest.pop()!;
	return [matchBy, matchKey, ...rest, earlierRun, slug, syncState, memoryAction, confirmForget, ...modeNotices, manualRunNotice, dryRunNotice, outputNotice, options];
}

export const description: INodeProperties[] = ordered();
