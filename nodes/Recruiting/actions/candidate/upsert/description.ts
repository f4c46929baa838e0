/** The form of Candidate → Create or Update (its parameters, in the order the editor shows them). */
import type { INodeProperties } from 'n8n-workflow';

import { importParameters } from '../import/description';

const show = { resource: ['candidate'], operation: ['upsert'] };
const remembering = { memoryAction: ['remember'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'For an exact sync wherever it runs (manual test runs, queue mode, after a restart): write each output\'s "slug" and "syncState" back to the row (a sheet column, a Data table) and map them to Candidate Slug and Sync State.',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName:
			'Safe to test: with Options → Dry Run on, a run (a manual test run too) writes nothing to the service and remembers nothing. Each output item shows what a real run would do and the requests it would send.',
		name: 'dryRunNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, ...remembering } },
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
	...withSyncState(
		importParameters(
			'upsert',
			'Empty: the remembered candidate, or a new one. A slug: use that candidate and remember it for this row (Source and Employee are not sent). With Sync State: the slug this row\'s earlier output carried.',
			remembering,
		),
	),
];

/** Sync State, right after Candidate Slug (the two go together). */
function withSyncState(properties: INodeProperties[]): INodeProperties[] {
	const [slug, ...rest] = properties;
	const syncState: INodeProperties = {
		displayName: 'Sync State',
		name: 'syncState',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.syncState }}',
		description:
			'The "syncState" an earlier run output for this row, written back to it. With Candidate Slug, the node sends only what changed since that state, whatever its memory holds. Empty: the memory decides.',
		displayOptions: { show: { ...show, ...remembering } },
	};
	return [slug, syncState, ...rest];
}
