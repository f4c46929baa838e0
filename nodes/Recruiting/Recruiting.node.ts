import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { properties, RESOURCES } from './actions/registry';
import { LOCATORS_SINCE_VERSION, withLocators } from './actions/shared/locators';
import { versionedOptions, versionNotice } from './actions/shared/options';
import { router } from './actions/router';
import { listSearch, loadOptions } from './methods';
import { CREDENTIAL_TYPE } from './transport';

/**
 * The modes of Create or Update that change what a run writes, on the canvas (issue 39, trap 2;
 * issue 47, trap 7): Dry Run, a Memory Action other than Sync Rows, Create in Manual Runs, Send
 * Unknown-Outcome Records Again; a few words each, behind one warning sign, before the operation
 * (the canvas cuts a subtitle after about 30 characters). Empty for other operations.
 */
const RISKY_MODES = [
	'(o.dryRun === true ? "Dry Run" : "")',
	`(${JSON.stringify({ adopt: 'Adopts Slugs', forget: 'Forgets Rows', clearAll: 'Forgets All Rows' })}[$parameter["memoryAction"]] || "")`,
	'(o.createInManualRuns === true ? "Creates in Manual Runs" : "")',
	'(o.resendUnknownRecords === true ? "Resends Unknown Records" : "")',
];
/** The modes on, joined: n8n's expression gives `o` the node's options (an arrow function's parameter, the one way to name a value there). */
const MODE_SUBTITLE = `($parameter["operation"] === "upsert" ? ((o) => [${RISKY_MODES.join(', ')}].filter((mode) => mode !== "").join(", "))($parameter["options"] || {}) : "")`;

/**
 * The canvas subtitle, in the words of the dropdowns ("Create or Update: Candidate", "Add: Candidate
 * Job"), not the internal values: a map of "resource:operation" to the label, looked up by n8n's
 * expression; an unknown pair (a newer saved workflow) shows its values.
 */
function subtitleExpression(): string {
	const labels: Record<string, string> = {};
	for (const { option, operations } of RESOURCES) {
		for (const operation of operations) labels[`${option.value}:${operation.option.value}`] = `${operation.option.name}: ${option.name}`;
	}
	const key = '$parameter["resource"] + ":" + $parameter["operation"]';
	return `={{ ((modes) => (modes === "" ? "" : "⚠ " + modes + " · "))(${MODE_SUBTITLE}) + (${JSON.stringify(labels)}[${key}] || ${key}) }}`;
}

export class Recruiting implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recruiting',
		name: 'recruiting',
		icon: { light: 'file:../../icons/recruiting.svg', dark: 'file:../../icons/recruiting.dark.svg' },
		group: ['transform'],
		// 1.1: Concurrency Mode Auto by default (version 1 workflows keep a fixed 5; see actions/shared/options.ts).
		// 1.2: Job Type, Language, University Degree and Business Area as resource locators (actions/shared/locators.ts).
		version: [1, 1.1, LOCATORS_SINCE_VERSION],
		defaultVersion: LOCATORS_SINCE_VERSION,
		subtitle: subtitleExpression(),
		description:
			'Create and update candidates, attach jobs, studies, skills and languages, manage API keys and read reference lists of the recruiting service',
		defaults: { name: 'Recruiting' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [versionNotice, ...withLocators(properties).flatMap(versionedOptions)],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
