/**
 * The import graph of nodes/: the shared layers (actions/shared, referenceData, transport) never
 * import from the operations above them, and no module imports itself through others.
 */
import { sourcesBelow } from './nodeSources';

const sources = sourcesBelow('nodes');

/** `import ... from './x'` and `export ... from './x'`, also spread over several lines. */
const IMPORT = /^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'/gm;

function resolve(from: string, specifier: string): string | undefined {
	if (!specifier.startsWith('.')) return undefined; // a package
	const parts = from.split('/').slice(0, -1);
	for (const part of specifier.split('/')) {
		if (part === '..') parts.pop();
		else if (part !== '.') parts.push(part);
	}
	const base = parts.join('/');
	return [`${base}.ts`, `${base}/index.ts`].find((candidate) => candidate in sources) ?? `${base} (missing)`;
}

const graph = new Map<string, string[]>(
	Object.entries(sources).map(([file, text]) => [
		file,
		[...text.matchAll(IMPORT)].map((match) => resolve(file, match[1])).filter((target): target is string => target !== undefined),
	]),
);

const ACTIONS = 'nodes/Recruiting/actions/';
const SHARED = 'nodes/Recruiting/actions/shared/';
const REFERENCE_DATA = 'nodes/Recruiting/referenceData/';
const TRANSPORT = 'nodes/Recruiting/transport/';

const arrows = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

/** Every cycle a depth-first walk meets, as `a → b → a`. */
function cyclesOf(edges: Map<string, string[]>): string[] {
	const state = new Map<string, 'open' | 'done'>();
	const cycles: string[] = [];
	const visit = (file: string, trail: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
			return;
		}
		state.set(file, 'open');
		for (const target of edges.get(file) ?? []) visit(target, [...trail, file]);
		state.set(file, 'done');
	};
	for (const file of edges.keys()) visit(file, []);
	return cycles;
}

/** Arrows from a lower layer up into the operations (actions/ outside actions/shared). */
function upward(list: Array<{ from: string; to: string }>) {
	const intoOperations = (to: string) => to.startsWith(ACTIONS) && !to.startsWith(SHARED);
	return list.filter(
		({ from, to }) =>
			((from.startsWith(SHARED) || from.startsWith(REFERENCE_DATA)) && intoOperations(to)) ||
			(from.startsWith(REFERENCE_DATA) && to.startsWith(SHARED)) ||
			(from.startsWith(TRANSPORT) && (to.startsWith(ACTIONS) || to.startsWith(REFERENCE_DATA))),
	);
}

describe('the import graph of nodes/', () => {
	it('is read from every source file, and every relative import names a file that exists', () => {
		expect(graph.size).toBeGreaterThan(40);
		expect(arrows.length).toBeGreaterThan(100);
		expect(arrows.filter(({ to }) => to.endsWith('(missing)'))).toEqual([]);
	});

	it('has no arrow from actions/shared or referenceData back up into actions/ (nor from transport)', () => {
		expect(upward(arrows)).toEqual([]);
		expect(arrows.some(({ from }) => from.startsWith(SHARED))).toBe(true);
		expect(arrows.some(({ from, to }) => from.startsWith(REFERENCE_DATA) && to.startsWith(TRANSPORT))).toBe(true);
	});

	it('has no cycle', () => {
		expect(cyclesOf(graph)).toEqual([]);
	});

	it('finds a cycle and an upward arrow when there is one (the checks above are not blind)', () => {
		const a = `${SHARED}a.ts`;
		const b = `${REFERENCE_DATA}b.ts`;
		expect(cyclesOf(new Map([[a, [b]], [b, [a]]]))).toEqual([`${a} → ${b} → ${a}`]);
		expect(upward([{ from: a, to: `${ACTIONS}context.ts` }, { from: b, to: a }, { from: a, to: b }])).toEqual([
			{ from: a, to: `${ACTIONS}context.ts` },
			{ from: b, to: a },
		]);
		const text = "import { a } from './b';\nimport type {\n\tX,\n} from '../context';\nexport { c } from 'lodash';";
		expect([...text.matchAll(IMPORT)].map((match) => match[1])).toEqual(['./b', '../context', 'lodash']);
		expect(resolve('nodes/Recruiting/actions/shared/options.ts', '../context')).toBe('nodes/Recruiting/actions/context.ts');
		expect(resolve('nodes/Recruiting/actions/registry.ts', './candidateRecord')).toBe('nodes/Recruiting/actions/candidateRecord/index.ts');
	});
});
