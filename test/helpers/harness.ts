/**
 * Runs the Recruiting node through n8n's real execution engine (n8n-core's WorkflowExecute):
 * a workflow "Input Items" → "Recruiting", with a credentials helper that does what n8n's
 * server does (packages/cli/src/credentials-helper.ts): resolves `authenticate` (function or
 * generic template through the workflow's expression engine), runs `preAuthentication` when the
 * expirable field is empty or after a 401 and stores what it returns with the credential.
 * Dropdown loaders run through n8n-core's LoadOptionsContext.
 */
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import { DataDeduplicationService } from 'n8n-core/dist/data-deduplication-service';

import { InMemoryDeduplicator } from './deduplicator';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	ExecutionError,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
	createDeferredPromise,
	sleep,
	createRunExecutionData,
} from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { openSessionToken } from '../../nodes/Recruiting/transport/token';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';

export const NODE_TYPE = 'n8n-nodes-recruiting.recruiting';
export const CREDENTIAL_ID = 'cred-1';

/** The workflow's first node: emits the items given in its parameter (stands where a trigger or a spreadsheet node would). */
class InputItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Input Items',
		name: 'inputItems',
		group: ['input'],
		version: 1,
		description: 'Emits the given items',
		defaults: { name: 'Input Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [list.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}

class TestNodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType>;

	/** `recruiting`: the node type run as the Recruiting node (a test may give a probe built on it). */
	constructor(recruiting: INodeType = new Recruiting()) {
		this.types = { [NODE_TYPE]: recruiting, 'test.inputItems': new InputItems() };
	}

	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const found = this.types[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found;
	}

	getKnownTypes() {
		return {};
	}
}

function withDefaults(properties: INodeProperties[], data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	const out: ICredentialDataDecryptedObject = {};
	for (const property of properties) {
		if (property.type === 'notice') continue;
		if (property.default !== undefined) out[property.name] = property.default as string;
	}
	return { ...out, ...data };
}

/** Counts what the credentials helper did, for assertions. */
export interface CredentialEvents {
	preAuthentications: number;
	logins: number;
	updates: number;
}

export class TestCredentialsHelper extends ICredentialsHelper {
	readonly events: CredentialEvents = { preAuthentications: 0, logins: 0, updates: 0 };

	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	/**
	 * How long a login's token takes to reach the store (0: at once). In queue mode n8n writes it
	 * to its database, and another worker's execution reads it only after that write.
	 */
	storeDelayMs = 0;

	private readonly types: Record<string, ICredentialType> = { recruitingApi: new RecruitingApi() };

	setCredential(id: string, data: ICredentialDataDecryptedObject) {
		this.stored.set(id, { ...data });
	}

	/** The credential as stored (as n8n would keep it in its database). */
	stored_(id = CREDENTIAL_ID): ICredentialDataDecryptedObject | undefined {
		const data = this.stored.get(id);
		return data ? { ...data } : undefined;
	}

	/** The session token stored with the credential, as the node would send it ('' if none). */
	session(id = CREDENTIAL_ID): string {
		const data = this.stored.get(id);
		return data ? openSessionToken(data) : '';
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions;
		const type = this.types[typeName];
		const authenticate = type?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate && authenticate.type === 'generic') {
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					const resolve = (text: string) =>
						text.startsWith('=')
							? String(
									workflow.expression.getSimpleParameterValue(node, text, 'internal', { $credentials: credentials }, undefined, '') ?? '',
								)
							: text;
					const target = ((requestOptions as unknown as IDataObject)[outerKey] ??= {}) as IDataObject;
					target[resolve(key)] = resolve(String(value));
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types[typeName];
		const expirable = type?.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		this.events.preAuthentications++;
		const output = (await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		this.events.logins++;
		const reference = node.credentials?.[typeName];
		if (reference?.id) {
			await this.updateCredentials(reference, typeName, { ...(this.stored.get(reference.id) ?? {}), ...output });
		}
		return Object.assign(credentials, output);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const data = this.stored.get(nodeCredentials.id ?? '') ?? {};
		return {
			id: nodeCredentials.id ?? '',
			name: nodeCredentials.name,
			type,
			data: undefined,
			getData: () => ({ ...data }),
			getDataToSave: () => ({ id: nodeCredentials.id, name: nodeCredentials.name, type, data: '' }),
			setData: () => undefined,
		} as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credential ${nodeCredentials.id ?? ''}`);
		return withDefaults(this.getCredentialsProperties(type), { ...data });
	}

	async updateCredentials(nodeCredentials: INodeCredentialsDetails, _type: string, data: ICredentialDataDecryptedObject) {
		this.events.updates++;
		if (this.storeDelayMs > 0) await sleep(this.storeDelayMs);
		this.stored.set(nodeCredentials.id ?? '', { ...data });
	}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

const nodeTypes = new TestNodeTypes();

export function additionalDataFor(credentialsHelper: TestCredentialsHelper, hooks?: ExecutionLifecycleHooks, currentNodeParameters?: INodeParameters) {
	const unavailable = async () => {
		throw new Error('not available in tests');
	};
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: unavailable,
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		variables: {},
		logAiEvent: () => undefined,
		startRunnerTask: unavailable,
		currentNodeParameters,
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunOptions {
	/** Parameters of the Recruiting node. */
	parameters: INodeParameters;
	/** Input items (their `json`). Default: one empty item. */
	items?: IDataObject[];
	/** 'continueRegularOutput' (continue on fail), 'continueErrorOutput' (error output), or stop. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Called with the running execution, e.g. to cancel it. */
	onStart?: (execution: { cancel(): void }) => void;
	/** The workflow's time zone (its setting "Timezone"; what `getTimezone()` gives the node). */
	timezone?: string;
	/** The node's setting "Retry On Fail": how many tries (n8n takes 2 to 5) and the wait between them. */
	retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	/**
	 * A manual execution: as n8n's server does (execution-lifecycle-hooks: `!isManualMode`), the
	 * workflow's static data is not saved afterwards. Default: saved, as for an active workflow.
	 */
	manual?: boolean;
	/** Runs this node type in the Recruiting node's place (a probe with the Recruiting node's description). */
	nodeType?: INodeType;
	/** The Recruiting node's version in the workflow (default 1, as the workflows saved before version 1.1). */
	typeVersion?: number;
	/**
	 * false: the execution starts with EMPTY static data, as a queue-mode worker of n8n 2.40+
	 * (workflow-runner `shouldReloadStaticData`) or a retry "with the original workflow"
	 * (execution.service `retry`) starts it; if anything changed it, it is saved over the kept copy
	 * all the same. Default true: the saved copy is loaded.
	 */
	loadStaticData?: boolean;
	/** Runs the node as AI Agent 3 runs a tool: a node of its own whose output n8n logs to the agent (`rewireOutputLogTo: ai_tool`). */
	asAgentTool?: boolean;
	/**
	 * The workflow's active status as n8n gives it to the node (`getWorkflow().active`). Default:
	 * true, as for a production execution of an active workflow on a regular instance; false when
	 * `loadStaticData` is false (a 2.40+ queue worker builds the workflow from the execution's
	 * snapshot, which keeps neither `active` nor `activeVersionId`: scaling/job-processor).
	 */
	active?: boolean;
}

export interface RunResult {
	/** Items of the main output. */
	items: INodeExecutionData[];
	/** Items of the error output (onError 'continueErrorOutput'). */
	errorItems: INodeExecutionData[];
	/** The node's error when the run stopped on it. */
	error?: ExecutionError;
	run: IRun;
	/** Whether n8n would have saved the static data (it changed, and the execution is not manual). */
	staticDataSaved: boolean;
}

let workflowCount = 0;

/**
 * n8n's deduplication helpers (`this.helpers.checkProcessedAndRecord` ...) ask the process-wide
 * DataDeduplicationService, which n8n's server initialises with its database-backed store. Here it
 * gets the in-memory one of ./deduplicator (the e2e tests use n8n's own).
 */
export const deduplicator = new InMemoryDeduplicator();

export function useDeduplicationStore(): void {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		void DataDeduplicationService.init(deduplicator);
	}
}

export class Harness {
	readonly credentials = new TestCredentialsHelper();

	/** The workflow's id: its own per harness, so that n8n's deduplication store keeps each harness apart. */
	readonly workflowId = `wf-test-${++workflowCount}`;

	/** The workflow's static data, as n8n keeps it in the workflow's row between executions. */
	staticData: IDataObject = {};

	/** The Recruiting node's name (n8n keys node static data by it; a rename changes it, never the node's id). */
	nodeName = 'Recruiting';

	/** The Recruiting node's id (a copied node gets a new one). */
	nodeId = 'node-recruiting';

	/** The id of the n8n credential the node refers to (another id: another credential of n8n). */
	credentialId = CREDENTIAL_ID;

	constructor(credential?: ICredentialDataDecryptedObject) {
		if (credential) this.credentials.setCredential(CREDENTIAL_ID, credential);
	}

	setCredential(data: ICredentialDataDecryptedObject) {
		this.credentials.setCredential(this.credentialId, data);
	}

	recruitingNode(parameters: INodeParameters, onError?: RunOptions['onError'], retryOnFail?: RunOptions['retryOnFail'], typeVersion = 1): INode {
		return {
			...(retryOnFail ? { retryOnFail: true, maxTries: retryOnFail.maxTries, waitBetweenTries: retryOnFail.waitBetweenTries ?? 0 } : {}),
			id: this.nodeId,
			name: this.nodeName,
			type: NODE_TYPE,
			typeVersion,
			position: [200, 0],
			parameters,
			credentials: { recruitingApi: { id: this.credentialId, name: 'Recruiting API' } },
			...(onError ? { onError } : {}),
		};
	}

	async run(options: RunOptions): Promise<RunResult> {
		const items = options.items ?? [{}];
		const nodes: INode[] = [
			{
				id: 'node-input',
				name: 'Input Items',
				type: 'test.inputItems',
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: JSON.stringify(items) },
			},
			{
				...this.recruitingNode(options.parameters, options.onError, options.retryOnFail, options.typeVersion),
				...(options.asAgentTool ? { rewireOutputLogTo: NodeConnectionTypes.AiTool } : {}),
			},
		];
		const settings = options.timezone ? { timezone: options.timezone } : {};
		const connections = {
			'Input Items': { main: [[{ node: this.nodeName, type: NodeConnectionTypes.Main, index: 0 }]] },
		};
		useDeduplicationStore();
		// n8n loads the saved static data with the workflow and saves it after a non-manual execution.
		const staticData = (options.loadStaticData === false ? {} : JSON.parse(JSON.stringify(this.staticData))) as IDataObject;
		const types = options.nodeType ? new TestNodeTypes(options.nodeType) : nodeTypes;
		const active = options.active ?? options.loadStaticData !== false;
		const workflow = new Workflow({ id: this.workflowId, nodes, connections, nodeTypes: types, active, settings, staticData });
		// The execution's mode as n8n gives it to the node (`getMode()`): 'manual' for a test run, else as an active workflow's webhook.
		const mode = options.manual ? 'manual' : 'webhook';
		const hooks = new ExecutionLifecycleHooks(mode, 'exec-test', {
			id: this.workflowId,
			name: 'test',
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes,
			connections,
			settings,
		} as never);
		const done = createDeferredPromise<IRun>();
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => done.resolve(fullRunData));

		const runExecutionData: IRunExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
			},
		});
		const execute = new WorkflowExecute(additionalDataFor(this.credentials, hooks), mode, runExecutionData);
		const execution = execute.processRunExecutionData(workflow);
		options.onStart?.(execution);
		try {
			await execution;
		} catch {
			// a cancelled execution rejects; its run data comes through the hook below
		}
		const run = await done.promise;
		// n8n saves it only when something marked it changed (workflow-execute: `__dataChanged`), replacing the whole copy.
		const staticDataSaved = !options.manual && workflow.staticData.__dataChanged === true;
		if (staticDataSaved) this.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const taskData = run.data.resultData.runData[this.nodeName]?.[0];
		return {
			items: taskData?.data?.main?.[0] ?? [],
			errorItems: taskData?.data?.main?.[1] ?? [],
			error: taskData?.error ?? run.data.resultData.error,
			run,
			staticDataSaved,
		};
	}

	/** Runs a dropdown loader of the node through n8n-core's LoadOptionsContext. */
	async loadOptions(method: string, parameters: INodeParameters = {}) {
		const node = this.recruitingNode(parameters);
		const workflow = new Workflow({ id: 'wf-load', nodes: [node], connections: {}, nodeTypes, active: false, settings: {} });
		const context = new LoadOptionsContext(workflow, node, additionalDataFor(this.credentials, undefined, parameters), 'parameters');
		const loaders = new Recruiting().methods.loadOptions as Record<string, (this: unknown) => Promise<unknown>>;
		return await loaders[method].call(context);
	}
}

/** Stops n8n-core's SSH client cleanup interval so that jest can exit; call in afterAll. */
export function stopEngineTimers() {
	Container.get(SSHClientsManager).onShutdown();
}
