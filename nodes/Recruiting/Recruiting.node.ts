import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { properties } from './actions/registry';
import { versionNotice } from './actions/shared/options';
import { router } from './actions/router';
import { loadOptions } from './methods';
import { CREDENTIAL_TYPE } from './transport';

export class Recruiting implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recruiting',
		name: 'recruiting',
		icon: { light: 'file:../../icons/recruiting.svg', dark: 'file:../../icons/recruiting.dark.svg' },
		group: ['transform'],
		// 1.1: Concurrency Mode Auto by default (version 1 workflows keep a fixed 5; see actions/shared/options.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create and update candidates, attach jobs, studies, skills and languages, manage API keys and read reference lists of the recruiting service',
		defaults: { name: 'Recruiting' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [versionNotice, ...properties],
	};

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
