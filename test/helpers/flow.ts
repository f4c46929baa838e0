/**
 * Workflows of several nodes through n8n's real engine (n8n-core's WorkflowExecute), for tests of
 * the node inside real workflow shapes: Input Items → (Loop Over Items →) Recruiting → No Op, with
 * n8n's node settings (Retry On Fail, On Error, Execute Once, Always Output Data). Used by
 * test/service/flowsBreak.test.ts and test/service/retryBreak.test.ts.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IPairedItemData,
	IRun,
	IRunExecutionData,
	ITaskData,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createDeferredPromise, createRunExecutionData, deepCopy } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { NODE_TYPE, TestCredentialsHelper, additionalDataFor, useDeduplicationStore } from './harness';
import { upsertParameters } from './upsert';

// ---------------------------------------------------------------------------------------------
// Node types of the workflows
// ---------------------------------------------------------------------------------------------

/** Emits the items of its parameter (stands where a trigger or a sheet would), as the harness's. */
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
		const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as INodeExecutionData[];
		return [list.map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

/**
 * Loop Over Items (Split in Batches) version 3: the execute() of n8n-nodes-base 2.41.1
 * (dist/nodes/SplitInBatches/v3/SplitInBatchesV3.node.js), line for line: output 0 "done",
 * output 1 "loop".
 */
class LoopOverItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loop Over Items (Split in Batches)',
		name: 'splitInBatches',
		group: ['organization'],
		version: 3,
		description: 'Split data into batches and iterate over each batch',
		defaults: { name: 'Loop Over Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['done', 'loop'],
		usableAsTool: true,
		properties: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				default: 1,
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{
						displayName: 'Reset',
						name: 'reset',
						type: 'boolean',
						default: false,
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData().slice();
		const nodeContext = this.getContext('node');
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const returnItems: INodeExecutionData[] = [];
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		if (nodeContext.items === undefined || options.reset === true) {
			const sourceData = this.getInputSourceData();
			nodeContext.currentRunIndex = 0;
			nodeContext.maxRunIndex = Math.ceil(items.length / batchSize);
			nodeContext.sourceData = deepCopy(sourceData);
			returnItems.push(...items.splice(0, batchSize));
			nodeContext.items = [...items];
			nodeContext.processedItems = [];
		} else {
			nodeContext.currentRunIndex = (nodeContext.currentRunIndex as number) + 1;
			returnItems.push(...(nodeContext.items as INodeExecutionData[]).splice(0, batchSize));
			const addSourceOverwrite = (pairedItem: IPairedItemData | number) =>
				typeof pairedItem === 'number' ? { item: pairedItem, sourceOverwrite: nodeContext.sourceData } : { ...pairedItem, sourceOverwrite: nodeContext.sourceData };
			const getPairedItemInformation = (item: INodeExecutionData) => {
				if (item.pairedItem === undefined) return { item: 0, sourceOverwrite: nodeContext.sourceData };
				if (Array.isArray(item.pairedItem)) return item.pairedItem.map(addSourceOverwrite);
				return addSourceOverwrite(item.pairedItem);
			};
			const sourceOverwrite = this.getInputSourceData();
			const newItems = items.map((item, index) => ({
				...item,
				pairedItem: { sourceOverwrite, item: index },
			}));
			nodeContext.processedItems = [...(nodeContext.processedItems as INodeExecutionData[]), ...newItems];
			for (const item of returnItems) item.pairedItem = getPairedItemInformation(item) as INodeExecutionData['pairedItem'];
		}
		nodeContext.noItemsLeft = (nodeContext.items as INodeExecutionData[]).length === 0;
		if (returnItems.length === 0) {
			nodeContext.done = true;
			return [nodeContext.processedItems as INodeExecutionData[], []];
		}
		nodeContext.done = false;
		return [[], returnItems];
	}
}

/** No Operation, do nothing: passes its items on (the end of a branch). */
class NoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'Passes its items on',
		defaults: { name: 'No Operation' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

class FlowNodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType> = {
		[NODE_TYPE]: new Recruiting(),
		'test.inputItems': new InputItems(),
		'n8n-nodes-base.splitInBatches': new LoopOverItems(),
		'n8n-nodes-base.noOp': new NoOp(),
	};

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

const nodeTypes = new FlowNodeTypes();

// ---------------------------------------------------------------------------------------------
// A workflow of several nodes, run through n8n's engine
// ---------------------------------------------------------------------------------------------

let flowCount = 0;

/** Node settings of n8n (the node's Settings tab). */
export type Settings = Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError' | 'executeOnce' | 'alwaysOutputData'>;

export class Flow {
	readonly credentials = new TestCredentialsHelper();

	readonly workflowId = `wf-flows-${++flowCount}`;

	staticData: IDataObject = {};

	constructor(credential: ICredentialDataDecryptedObject) {
		this.credentials.setCredential('cred-1', credential);
	}

	/** A Recruiting node (Create or Update unless the parameters say otherwise). */
	recruiting(name: string, parameters: INodeParameters, settings: Settings = {}, id = `node-${name}`): INode {
		return {
			id,
			name,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [400, 0],
			parameters,
			credentials: { recruitingApi: { id: 'cred-1', name: 'Recruiting API' } },
			...settings,
		};
	}

	async run(nodes: INode[], connections: IConnections): Promise<FlowRun> {
		useDeduplicationStore();
		const settings = { executionOrder: 'v1' as const };
		const staticData = JSON.parse(JSON.stringify(this.staticData)) as IDataObject;
		const workflow = new Workflow({
			id: this.workflowId,
			nodes,
			connections,
			nodeTypes,
			active: true,
			settings,
			staticData,
		});
		const hooks = new ExecutionLifecycleHooks('webhook', `exec-${this.workflowId}`, {
			id: this.workflowId,
			name: 'flows',
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
		const execute = new WorkflowExecute(additionalDataFor(this.credentials, hooks), 'webhook', runExecutionData);
		try {
			await execute.processRunExecutionData(workflow);
		} catch {
			// the run data comes through the hook
		}
		const run = await done.promise;
		if (workflow.staticData.__dataChanged === true) this.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		return new FlowRun(run);
	}
}

export class FlowRun {
	constructor(readonly run: IRun) {}

	/** Every run of a node in this execution (runIndex 0, 1, …). */
	tasks(name: string): ITaskData[] {
		return this.run.data.resultData.runData[name] ?? [];
	}

	/** Output `output` of the node's run `runIndex`. */
	items(name: string, runIndex = 0, output = 0): INodeExecutionData[] {
		return this.tasks(name)[runIndex]?.data?.main?.[output] ?? [];
	}

	/** The execution's error (Stop Workflow). */
	get error() {
		return this.run.data.resultData.error;
	}
}

export const input = (rows: IDataObject[], extra: Partial<INode> = {}): INode => ({
	id: 'node-input',
	name: 'Input Items',
	type: 'test.inputItems',
	typeVersion: 1,
	position: [0, 0],
	parameters: { items: JSON.stringify(rows.map((json) => ({ json }))) },
	...extra,
});

export const loop = (batchSize: number): INode => ({
	id: 'node-loop',
	name: 'Loop Over Items',
	type: 'n8n-nodes-base.splitInBatches',
	typeVersion: 3,
	position: [200, 0],
	parameters: { batchSize, options: {} },
});

export const noOp = (name: string): INode => ({
	id: `node-${name}`,
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [600, 0],
	parameters: {},
});

export const to = (node: string, index = 0) => ({
	node,
	type: NodeConnectionTypes.Main,
	index,
});

/** Input Items → Loop Over Items (done → Done; loop → Recruiting → back to the loop; Recruiting's error output → Errors). */
export function loopConnections(): IConnections {
	return {
		'Input Items': { main: [[to('Loop Over Items')]] },
		'Loop Over Items': { main: [[to('Done')], [to('Recruiting')]] },
		Recruiting: { main: [[to('Loop Over Items')], [to('Errors')]] },
	};
}

/** The actions of a node run's output items. */
export const actionsOf = (items: INodeExecutionData[]) => items.map((item) => item.json.action);

/** `count` new rows of a sheet: e-mail `<tag>.<n>@example.test`, first name, city, IT skills as a list. */
export const flowRows = (count: number, tag: string, skills = ''): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({ email: `${tag}.${index}@example.test`, first: `F${index}`, city: 'Berlin', skills }));

/** Create or Update mapped on such a sheet (e-mail, first name, city, IT skills as a list), 4 requests at once. */
export const flowParams = (extra: INodeParameters = {}) =>
	upsertParameters({ options: { retryDelayMs: 1, concurrency: 4 }, ...extra }, { firstName: '={{ $json.first }}', city: '={{ $json.city }}' });
