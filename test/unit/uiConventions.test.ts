/**
 * What the editor shows, checked on the node's and the credential's descriptions (issue 15):
 * short descriptions, warnings in notices, date fields that show what the workflow holds,
 * placeholders on the "JSON or Text" fields, required and unmasked credential fields, short
 * dropdown labels, and the codex categories.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

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
		const labels = properties('businessAreaDivision').map((field) => field.displayName);
		expect(labels.length).toBeGreaterThan(0);
		for (const label of labels) {
			expect(label).toBe('Business Area Name or ID');
		}
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
