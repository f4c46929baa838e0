/**
 * The stored form of the sync memory (nodes/Recruiting/memory/store.ts) on n8n's own observable
 * static data (n8n-workflow's Workflow): rows round-trip, at most 64 records a row, at most
 * 100,000 rows a node (the rows changed longest ago go first), and nothing is marked changed
 * when nothing changed.
 */
import type { IDataObject, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { recordPrint, profilePrint } from '../../nodes/Recruiting/memory';
import { forgetProcessMemory, MAX_SCOPES, registrySize, sharedMemory } from '../../nodes/Recruiting/memory/registry';
import { decodeRow, encodeRow, MAX_ENTRIES, MAX_RECORDS, NodeStore } from '../../nodes/Recruiting/memory/store';

const nodeTypes = { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) } as unknown as INodeTypes;
const workflowOf = (staticData: IDataObject = {}) => new Workflow({ id: 'wf', nodes: [], connections: {}, active: true, nodeTypes, staticData });
const globalOf = (workflow: Workflow) => workflow.getStaticData('global') as IDataObject;
const SLUG = '0b7f3c1e-8f5a-4c2d-9e6b-1a2b3c4d5e6f';

describe('the sync memory as stored', () => {
	it('a row round-trips: UUID slug or any other, with or without a profile print', () => {
		const row = { s: SLUG, p: profilePrint({ city: 'Berlin' }, ['city']), r: [recordPrint('itSkill', { skill_name: 'SQL' }), recordPrint('language', { language_id: 26 })] };
		expect(decodeRow(encodeRow(row))).toEqual(row);
		expect(decodeRow(encodeRow({ s: 'slug-ü-42', r: [] }))).toEqual({ s: 'slug-ü-42', r: [] });
		expect(encodeRow(row).length).toBeLessThanOrEqual(48);
		expect(decodeRow('')).toBeUndefined();
	});

	it(`a row keeps its last ${MAX_RECORDS} record prints`, () => {
		const prints = Array.from({ length: MAX_RECORDS + 6 }, (_, index) => recordPrint('itSkill', { skill_name: `S${index}` }));
		expect(decodeRow(encodeRow({ s: SLUG, r: prints }))!.r).toEqual(prints.slice(-MAX_RECORDS));
	});

	it('a row written as it is stored marks nothing changed; a changed row does', () => {
		const first = workflowOf();
		new NodeStore(globalOf(first), 'node-1', true).set('k1', encodeRow({ s: SLUG, r: [] }));
		const workflow = workflowOf(JSON.parse(JSON.stringify(first.staticData)) as IDataObject);
		const store = new NodeStore(globalOf(workflow), 'node-1', true);
		expect(store.set('k1', encodeRow({ s: SLUG, r: [] }))).toBe(false);
		expect(workflow.staticData.__dataChanged).toBe(false);
		expect(store.set('k1', encodeRow({ s: SLUG, r: [recordPrint('itSkill', {})] }))).toBe(true);
		expect(workflow.staticData.__dataChanged).toBe(true);
	});

	it('a store that may not write (the saved copy was not loaded) assigns nothing', () => {
		const workflow = workflowOf();
		const store = new NodeStore(globalOf(workflow), 'node-1', false);
		expect(store.set('k1', encodeRow({ s: SLUG }))).toBe(false);
		expect(store.forget('k1')).toBe(false);
		expect(workflow.staticData.__dataChanged).toBe(false);
		expect(workflow.staticData).toEqual({ global: {} });
	});

	it(`past ${MAX_ENTRIES} rows the rows changed longest ago go first`, () => {
		const workflow = workflowOf();
		const store = new NodeStore(globalOf(workflow), 'node-1', true);
		const encoded = encodeRow({ s: SLUG });
		for (let index = 0; index < MAX_ENTRIES; index++) store.set(`k${index}`, encoded);
		// Row k0 changes: now the newest.
		store.set('k0', encodeRow({ s: SLUG, r: [recordPrint('itSkill', {})] }));
		store.set('one-more', encoded);
		expect(store.count).toBeLessThanOrEqual(MAX_ENTRIES);
		expect(store.raw('k0')).toBeDefined();
		expect(store.raw('one-more')).toBe(encoded);
		expect(store.raw('k1')).toBeUndefined();
		expect(store.raw(`k${MAX_ENTRIES - 1}`)).toBe(encoded);
	});
});

describe("the process's registry", () => {
	afterEach(() => forgetProcessMemory());

	it(`holds at most ${MAX_SCOPES} nodes × accounts: the least recently used go, never one whose execution runs`, () => {
		const running = sharedMemory('wf', 'node', 'running');
		running.running = 1;
		const idle = sharedMemory('wf', 'node', 'idle');
		for (let index = 0; index < MAX_SCOPES + 10; index++) sharedMemory('wf', 'node', `scope-${index}`);
		expect(registrySize()).toBeLessThanOrEqual(MAX_SCOPES);
		expect(sharedMemory('wf', 'node', 'running')).toBe(running);
		expect(sharedMemory('wf', 'node', 'idle')).not.toBe(idle);
	});

	it('keeps one workflow, node and account apart from every other', () => {
		const one = sharedMemory('wf-1', 'node', 'scope');
		expect(sharedMemory('wf-2', 'node', 'scope')).not.toBe(one);
		expect(sharedMemory('wf-1', 'node-2', 'scope')).not.toBe(one);
		expect(sharedMemory('wf-1', 'node', 'scope-2')).not.toBe(one);
		expect(sharedMemory('wf-1', 'node', 'scope')).toBe(one);
	});
});
