/**
 * What the editor shows, checked on the node's and the credential's descriptions (issue 15):
 * short descriptions, warnings in notices, date fields that show what the workflow holds,
 * placeholders on the "JSON or Text" fields, required and unmasked credential fields, short
 * dropdown labels, and the codex categories.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import codex from '../../nodes/Recruiting/Recruiting.node.json';

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

interface Found {
	path: string;
	entry: Entry;
}

/** Every property, option and fixed-collection group, with a readable path. */
function walk(entries: readonly Entry[], prefix: string, out: Found[] = []): Found[] {
	for (const entry of entries) {
		const key = 'value' in entry && !('type' in entry) ? String(entry.value) : entry.name;
		const here = `${prefix}/${key}`;
		out.push({ path: here, entry });
		if ('options' in entry && Array.isArray(entry.options)) walk(entry.options as Entry[], here, out);
		if ('values' in entry && Array.isArray(entry.values)) walk(entry.values, here, out);
	}
	return out;
}

const node = new Recruiting().description;
const credential = new RecruitingApi();
const nodeEntries = walk(node.properties, 'node');
const credentialEntries = walk(credential.properties, 'credential');
const all = [...nodeEntries, ...credentialEntries];

const descriptionOf = (entry: Entry): string | undefined =>
	'description' in entry && typeof entry.description === 'string' ? entry.description : undefined;

const properties = (name: string) =>
	nodeEntries.filter((found) => 'type' in found.entry && found.entry.name === name).map((found) => found.entry as INodeProperties);

describe('descriptions', () => {
	it('every description in the editor is under 200 characters (they clip after two lines)', () => {
		const long = all
			.filter(({ entry }) => (descriptionOf(entry)?.length ?? 0) >= 200)
			.map(({ path: where, entry }) => `${where} (${descriptionOf(entry)!.length})`);
		expect(long).toEqual([]);
		expect(all.filter(({ entry }) => descriptionOf(entry) !== undefined).length).toBeGreaterThan(100);
	});

	it('the warnings that descriptions used to hide are notices, shown for their operation', () => {
		const notices = node.properties.filter((property) => property.type === 'notice');
		const noticeFor = (resource: string, operation: string) =>
			notices
				.filter((notice) => notice.displayOptions?.show?.resource?.includes(resource) && notice.displayOptions?.show?.operation?.includes(operation))
				.map((notice) => notice.displayName)
				.join(' ');
		expect(noticeFor('candidate', 'import')).toMatch(/cannot detect duplicates/i);
		expect(noticeFor('session', 'login')).toMatch(/only with Email and Password/i);
		expect(noticeFor('session', 'logout')).toMatch(/other workflows .*lose the session/i);
	});

	it('"Retry Delay (ms)" writes the unit as n8n does', () => {
		const labels = nodeEntries.filter(({ entry }) => 'type' in entry && entry.name === 'retryDelayMs').map(({ entry }) => (entry as INodeProperties).displayName);
		expect(labels.length).toBeGreaterThan(10);
		expect(new Set(labels)).toEqual(new Set(['Retry Delay (ms)']));
	});
});

describe('date fields', () => {
	it('Start Date, End Date and Birthday are text fields that show a date-only value, with an example and the accepted forms', () => {
		const dates = [...properties('startDate'), ...properties('endDate'), ...properties('birthday')];
		expect(dates.length).toBeGreaterThanOrEqual(10);
		for (const field of dates) {
			expect(field.type).toBe('string');
			expect(field.placeholder).toBe('e.g. 2024-03-05');
			expect(field.description).toMatch(/YYYY-MM-DD/);
			expect(field.description).toMatch(/DD\.MM\.YYYY/);
		}
	});
});

describe('Candidate → Import, "JSON or Text" fields', () => {
	const lists = ['jobList', 'universityList', 'itSkillList', 'languageList', 'additionalInfoList'];

	it('each has a short placeholder with a working example and no escaped line break', () => {
		for (const name of lists) {
			const [field] = properties(name);
			expect(field).toBeDefined();
			expect(field.placeholder).toMatch(/^e\.g\. /);
			expect(field.placeholder).not.toContain('\\n');
			expect(field.placeholder!.length).toBeLessThan(120);
			expect(field.description).not.toContain('\\n');
		}
	});
});

describe('Business Area and the dropdown language rule', () => {
	it('has a short label', () => {
		const dropdowns = properties('businessAreaDivision').filter((field) => field.type === 'options');
		expect(dropdowns.length).toBeGreaterThan(0);
		for (const field of dropdowns) expect(field.displayName).toBe('Business Area Name or ID');
		const locators = properties('businessAreaDivision').filter((field) => field.type === 'resourceLocator');
		expect(locators.length).toBe(dropdowns.length);
		for (const field of locators) expect(field.displayName).toBe('Business Area');
	});
});

describe('credential', () => {
	const field = (name: string) => credential.properties.find((property) => property.name === name)!;

	it('marks the required value of each mode as required', () => {
		for (const name of ['baseUrl', 'email', 'password', 'accessToken', 'apiKey']) expect(field(name).required).toBe(true);
		for (const name of ['tokenPath', 'apiKeyHeader']) expect(field(name).required).toBeFalsy();
	});

	it('masks only secrets: Token Path and API Key Header are shown in clear', () => {
		for (const name of ['password', 'accessToken', 'apiKey', 'sessionToken']) expect(field(name).typeOptions?.password).toBe(true);
		for (const name of ['tokenPath', 'apiKeyHeader', 'email', 'baseUrl']) expect(field(name).typeOptions?.password).toBeFalsy();
	});

	it('points its documentation at no made-up organisation', () => {
		expect(credential.documentationUrl).toBe('https://www.npmjs.com/package/n8n-nodes-recruiting#credentials');
	});
});

describe('codex', () => {

	// n8n-io/n8n packages/nodes-base: Hubspot and Pipedrive (CRM) are "Sales"; BambooHr and
	// Workable (HR) are "Miscellaneous".
	it('uses the categories n8n gives its CRM and HR nodes, not HITL ("human in the loop")', () => {
		expect(codex.categories).not.toContain('HITL');
		expect(codex.categories).toEqual(['Sales', 'Miscellaneous']);
		expect('subcategories' in codex).toBe(false);
		expect(JSON.stringify(codex)).not.toMatch(/github\.com\/n8n-nodes-recruiting/);
	});
});

/** Issue 34: what a new user meets in the editor, checked with n8n-workflow's own display rules and expression engine. */
describe('issue 34: the editor path', () => {
	const nodeTypes = {
		getByName: () => new Recruiting(),
		getByNameAndVersion: () => new Recruiting(),
		getKnownTypes: () => ({}),
	};
	const nodeOf = (parameters: INodeParameters, typeVersion = 1.1): INode => ({
		id: 'n1',
		name: 'Recruiting',
		type: 'n8n-nodes-recruiting.recruiting',
		typeVersion,
		position: [0, 0],
		parameters,
	});
	/** The parameters n8n keeps for a node (defaults filled, values its display rules hide dropped), as a workflow loads it. */
	const loaded = (parameters: INodeParameters, typeVersion = 1.1) =>
		NodeHelpers.getNodeParameters(node.properties, parameters, true, false, nodeOf(parameters, typeVersion), node) as INodeParameters;
	const optionsFor = (typeVersion: number) =>
		node.properties.filter(
			(property) =>
				property.name === 'options' &&
				property.displayOptions?.show?.operation?.includes('create') &&
				property.displayOptions.show.resource?.includes('candidate') &&
				NodeHelpers.displayParameter({ resource: 'candidate', operation: 'create' }, property, nodeOf({}, typeVersion), node),
		);
	const shownInOptions = (values: INodeParameters, typeVersion: number) => {
		const [options] = optionsFor(typeVersion);
		return (options.options as INodeProperties[])
			.filter((option) => NodeHelpers.displayParameter(values, option, nodeOf({}, typeVersion), node))
			.map((option) => option.name);
	};

	it('the canvas subtitle shows the dropdown labels, not internal values (point 8)', () => {
		const subtitle = (parameters: INodeParameters) => {
			const workflow = new Workflow({ nodes: [nodeOf(parameters)], connections: {}, active: false, nodeTypes });
			return workflow.expression.getSimpleParameterValue(nodeOf(parameters), node.subtitle, 'internal', {});
		};
		expect(subtitle({ resource: 'candidate', operation: 'upsert' })).toBe('Create or Update: Candidate');
		expect(subtitle({ resource: 'candidateJob', operation: 'add' })).toBe('Add: Candidate Job');
		expect(subtitle({ resource: 'referenceList', operation: 'getJobTypes' })).toMatch(/^Get Job Types: Reference List/i);
	});

	it('issue 39, trap 2: a mode that syncs nothing shows on the canvas subtitle, and a notice beside the setting says to switch it back', () => {
		const subtitle = (parameters: INodeParameters) => {
			const workflow = new Workflow({ nodes: [nodeOf(parameters)], connections: {}, active: false, nodeTypes });
			return workflow.expression.getSimpleParameterValue(nodeOf(parameters), node.subtitle, 'internal', {});
		};
		const upsert = { resource: 'candidate', operation: 'upsert' };
		expect(subtitle({ ...upsert, memoryAction: 'remember' })).toBe('Create or Update: Candidate');
		expect(subtitle({ ...upsert, memoryAction: 'forget' })).toBe('⚠ Forgets Rows · Create or Update: Candidate');
		expect(subtitle({ ...upsert, memoryAction: 'clearAll' })).toBe('⚠ Forgets All Rows · Create or Update: Candidate');
		expect(subtitle({ ...upsert, memoryAction: 'adopt' })).toBe('⚠ Adopts Slugs · Create or Update: Candidate');
		expect(subtitle({ ...upsert, options: { dryRun: true } })).toBe('⚠ Dry Run · Create or Update: Candidate');
		expect(subtitle({ resource: 'candidateJob', operation: 'add', options: {} })).toBe('Add: Candidate Job');
		const notices = (values: INodeParameters) =>
			node.properties.filter((property) => property.type === 'notice' && NodeHelpers.displayParameter(values, property, nodeOf(values, 1.2), node)).map((property) => property.displayName);
		for (const action of ['forget', 'clearAll', 'adopt']) {
			expect(notices({ ...upsert, memoryAction: action }).filter((text) => /Switch Memory Action back to Sync Rows/.test(text))).toHaveLength(1);
		}
		expect(notices({ ...upsert, memoryAction: 'remember' }).some((text) => /Switch Memory Action back/.test(text))).toBe(false);
		expect(notices({ ...upsert, memoryAction: 'forget' }).join(' ')).toMatch(/still exist in the service.*creates each forgotten row again \(a duplicate/);
		const dryRun = properties('options').flatMap((options) => (options.options as INodeProperties[]).filter((option) => option.name === 'dryRun'));
		expect(dryRun.length).toBeGreaterThan(0);
		for (const option of dryRun) expect(option.hint).toMatch(/Turn it off to sync/);
	});

	it('Max Requests per Second does not show "0.00" and says 0 is no cap; Request Timeout has its unit (point 8)', () => {
		const rates = properties('options').flatMap((options) => (options.options as INodeProperties[]).filter((option) => option.name === 'requestsPerSecond'));
		expect(rates.length).toBeGreaterThan(10);
		for (const rate of rates) {
			expect(rate.typeOptions?.numberPrecision).toBeUndefined();
			expect(rate.hint).toBe('0 = no cap');
		}
		const timeouts = properties('options').flatMap((options) => (options.options as INodeProperties[]).filter((option) => option.name === 'timeout'));
		expect(new Set(timeouts.map((timeout) => timeout.displayName))).toEqual(new Set(['Request Timeout (ms)']));
	});

	it('a new node (1.1) shows that it runs with Auto without opening Options; version 1 keeps empty Options (point 6)', () => {
		expect(loaded({ resource: 'candidate', operation: 'create', email: 'a@b.test' }).options).toEqual({ concurrencyMode: 'auto' });
		expect(loaded({ resource: 'candidate', operation: 'create', email: 'a@b.test' }, 1).options).toEqual({});
		// Saved Options keep their values (Concurrent Requests alone still means Fixed in 1.1).
		expect(loaded({ resource: 'candidate', operation: 'create', options: { concurrency: 8 } }).options).toEqual({ concurrency: 8 });
		expect(optionsFor(1)).toHaveLength(1);
		expect(optionsFor(1.1)).toHaveLength(1);
	});

	it('Concurrent Requests only with Fixed, Max Concurrency only with Auto (point 6)', () => {
		for (const version of [1, 1.1]) {
			expect(shownInOptions({ concurrencyMode: 'auto' }, version)).toEqual(expect.arrayContaining(['maxConcurrency']));
			expect(shownInOptions({ concurrencyMode: 'auto' }, version)).not.toContain('concurrency');
			expect(shownInOptions({ concurrencyMode: 'fixed' }, version)).toContain('concurrency');
			expect(shownInOptions({ concurrencyMode: 'fixed' }, version)).not.toContain('maxConcurrency');
		}
		// Without a mode: version 1 is Fixed (no Max Concurrency); 1.1 is Auto unless Concurrent Requests is set (both offered).
		expect(shownInOptions({}, 1)).toContain('concurrency');
		expect(shownInOptions({}, 1)).not.toContain('maxConcurrency');
		expect(shownInOptions({}, 1.1)).toEqual(expect.arrayContaining(['concurrency', 'maxConcurrency']));
		// What a mode hides is not kept, and was never used by that mode.
		const kept = loaded({ resource: 'candidate', operation: 'create', options: { concurrencyMode: 'auto', concurrency: 9, maxConcurrency: 20 } }).options;
		expect(kept).toEqual({ concurrencyMode: 'auto', maxConcurrency: 20 });
	});

	describe('Create or Update form (point 3)', () => {
		const upsert = node.properties.filter((property) => property.displayOptions?.show?.operation?.includes('upsert'));
		const order = upsert.map((property) => property.name);

		it('in the order a user fills it: match, profile, records, the state from an earlier run, Memory Action, Options', () => {
			const at = (name: string) => order.indexOf(name);
			expect(order.slice(0, 5)).toEqual(['matchBy', 'matchKey', 'email', 'phone', 'additionalFields']);
			expect(at('recordInput')).toBeGreaterThan(at('additionalFields'));
			expect(at('earlierRunNotice')).toBeGreaterThan(at('languageList'));
			expect(order.slice(at('earlierRunNotice'))).toEqual(['earlierRunNotice', 'candidateSlug', 'syncState', 'memoryAction', 'confirmForget', 'adoptNotice', 'forgetNotice', 'clearAllNotice', 'manualRunNotice', 'dryRunNotice', 'outputNotice', 'options', 'options']);
			const section = upsert.find((property) => property.name === 'earlierRunNotice')!;
			expect(section.displayName.split(/[.!?](\s|$)/).filter((part) => part.trim().length > 1)).toHaveLength(1);
			expect(upsert.filter((property) => property.type === 'notice').map((property) => property.name)).toEqual(['earlierRunNotice', 'adoptNotice', 'forgetNotice', 'clearAllNotice', 'manualRunNotice', 'dryRunNotice', 'outputNotice']);
		});

		it("Memory Action's default is not labelled like the operation, and switching it hides (so drops) nothing", () => {
			const action = upsert.find((property) => property.name === 'memoryAction')!;
			const label = (action.options as INodePropertyOptions[]).find((option) => option.value === action.default)!.name;
			expect(label).not.toBe('Create or Update');
			// Only notices (which hold no value) depend on it, and Forget Now (issue 47): a confirmation that switching back is meant to drop.
			expect(JSON.stringify(upsert.filter((property) => property.type !== 'notice' && property.name !== 'confirmForget').map((property) => property.displayOptions))).not.toContain('memoryAction');
			const values = {
				resource: 'candidate',
				operation: 'upsert',
				memoryAction: 'forget',
				email: 'a@b.test',
				additionalFields: { firstName: 'Ada' },
				recordInput: 'lists',
				languageList: 'English: 4',
			};
			expect(loaded(values)).toMatchObject({ additionalFields: { firstName: 'Ada' }, recordInput: 'lists', languageList: 'English: 4' });
		});
	});

	it('node version 1.2: Job Type, Language, University Degree and Business Area are resource locators (From List / By Name / By ID); 1.1 keeps its dropdowns (point 7)', () => {
		const shown = (name: string, typeVersion: number, values: INodeParameters) =>
			nodeEntries
				.filter(({ entry }) => 'type' in entry && entry.name === name)
				.map(({ entry }) => entry as INodeProperties)
				.filter((field) => NodeHelpers.displayParameter(values, field, nodeOf(values, typeVersion), node));
		expect(node.defaultVersion).toBe(1.2);
		const cases: Array<[string, INodeParameters, string[]]> = [
			['jobTypeId', {}, ['list', 'name', 'id']],
			['universityDegreeId', {}, ['list', 'name', 'id']],
			['businessAreaDivision', {}, ['list', 'name']],
			['languageId', { resource: 'candidateLanguage', operation: 'add' }, ['list', 'name', 'id']],
		];
		for (const [name, values, modes] of cases) {
			const newer = shown(name, 1.2, values);
			expect(newer.length).toBeGreaterThan(0);
			for (const field of newer) {
				expect(field.type).toBe('resourceLocator');
				expect(field.modes?.map((mode) => mode.name)).toEqual(modes);
				expect(field.default).toEqual({ mode: 'list', value: '' });
			}
			for (const field of shown(name, 1.1, values)) expect(field.type).toBe('options');
			expect(shown(name, 1.1, values).length).toBe(newer.length);
		}
		const searches = new Recruiting().methods.listSearch;
		for (const field of nodeEntries.map(({ entry }) => entry as INodeProperties).filter((entry) => entry.type === 'resourceLocator')) {
			expect(Object.keys(searches)).toContain(field.modes![0].typeOptions!.searchListMethod);
		}
	});
});
