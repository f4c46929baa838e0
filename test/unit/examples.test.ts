/**
 * The example workflows as the package ships them (issue 39, trap 9 and 8): every Recruiting node
 * at the node's newest version, its reference-list fields in that version's resource-locator form,
 * and the spreadsheet example's notes and sheet check working as written (no path with `~`, which
 * n8n does not expand; no Code node whose thrown error n8n suffixes with "[line N]").
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { sourcesBelow } from './nodeSources';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

const examples = Object.entries(sourcesBelow('examples', '.json')).map(([file, text]) => ({
	file: file.replace(/^examples\//, ''),
	workflow: JSON.parse(text) as { nodes: ExampleNode[]; connections: Record<string, unknown> },
}));

const description = new Recruiting().description;

/** Every resource-locator field of the node's newest version, by name, with its modes. */
function locators(properties: INodeProperties[], found = new Map<string, string[]>()): Map<string, string[]> {
	for (const property of properties) {
		if (property.type === 'resourceLocator') found.set(property.name, (property.modes ?? []).map((mode) => mode.name));
		const children = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
		for (const child of children) {
			if ('values' in child) locators(child.values, found);
			else if ('type' in child) locators([child], found);
		}
	}
	return found;
}

function fieldsOf(value: unknown, names: Set<string>, out: Array<[string, unknown]> = []): Array<[string, unknown]> {
	if (Array.isArray(value)) for (const entry of value) fieldsOf(entry, names, out);
	else if (typeof value === 'object' && value !== null) {
		for (const [key, entry] of Object.entries(value)) {
			if (names.has(key)) out.push([key, entry]);
			else fieldsOf(entry, names, out);
		}
	}
	return out;
}

describe('the example workflows', () => {
	const fields = locators(description.properties);

	it('use the node\'s newest version (1.2)', () => {
		expect(description.defaultVersion).toBe(1.2);
		const versions = examples.flatMap(({ file, workflow }) => workflow.nodes.filter((node) => node.type.startsWith('n8n-nodes-recruiting.')).map((node) => `${file}: ${node.name} ${node.typeVersion}`));
		expect(versions.length).toBeGreaterThan(10);
		expect(versions.filter((entry) => !entry.endsWith(' 1.2'))).toEqual([]);
	});

	it('give job types and languages in the resource-locator form of version 1.2', () => {
		expect([...fields.keys()].sort()).toEqual(['businessAreaDivision', 'jobTypeId', 'languageId', 'universityDegreeId']);
		const given = examples.flatMap(({ workflow }) =>
			workflow.nodes.filter((node) => node.type.startsWith('n8n-nodes-recruiting.')).flatMap((node) => fieldsOf(node.parameters, new Set(fields.keys()))),
		);
		expect(given.length).toBeGreaterThanOrEqual(4);
		for (const [name, value] of given) {
			expect(value).toMatchObject({ __rl: true, mode: expect.any(String), value: expect.any(String) });
			expect(fields.get(name)).toContain((value as { mode: string }).mode);
		}
	});

	it('spreadsheet-sync.json: the notes give no path with "~", and the missing sheet stops at a Stop and Error node that names the path', () => {
		const { workflow } = examples.find(({ file }) => file === 'spreadsheet-sync.json')!;
		const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').map((node) => String(node.parameters.content));
		for (const note of notes) expect(note).not.toMatch(/~\//);
		expect(notes.join('\n')).toMatch(/n8n does not expand `~`/);
		const paths = workflow.nodes.find((node) => node.name === 'File paths')!;
		expect(JSON.stringify(paths.parameters)).toContain('"/home/node/.n8n-files/candidates.csv"');
		expect(workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.code' && /throw /.test(String(node.parameters.jsCode)))).toEqual([]);
		const check = workflow.nodes.find((node) => node.name === 'Check the sheet')!;
		expect(check.type).toBe('n8n-nodes-base.stopAndError');
		expect(String(check.parameters.errorMessage)).toMatch(/^=\{\{ 'No sheet at ' \+ \$\('File paths'\)\.first\(\)\.json\.sheetFile/);
		expect(String(check.parameters.errorMessage)).toContain('n8n does not expand "~"');
		expect(workflow.connections['Sheet found?']).toEqual({
			main: [[{ node: 'Rows from the CSV', type: 'main', index: 0 }], [{ node: 'Check the sheet', type: 'main', index: 0 }]],
		});
	});
});
