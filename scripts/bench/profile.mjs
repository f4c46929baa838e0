// Reads the V8 CPU profiles the clients write with --profile and splits their CPU time into
// parts (whose code ran: the node's, n8n's expression engine, the HTTP stack, ...), so that the
// benchmark can say where the node's CPU per request beyond the helper's goes.
import fs from 'node:fs';

/** The parts, first match wins; `test` gets the script URL of a sampled function. */
const PARTS = [
	{ part: 'the node (nodes/, credentials/)', test: (url) => /\/(nodes|credentials)\/[^/]/.test(url) && !url.includes('node_modules') },
	{ part: "n8n's expression engine (n8n-workflow, @n8n/tournament, luxon)", test: (url) => /node_modules\/(n8n-workflow|@n8n\/tournament|luxon)\//.test(url) },
	{ part: 'zod (the node\'s input schemas)', test: (url) => /node_modules\/zod\//.test(url) },
	{ part: 'n8n-core (engine, request helper)', test: (url) => /node_modules\/n8n-core\//.test(url) },
	{ part: 'HTTP stack (axios, follow-redirects, proxy-from-env, Node http/net)', test: (url) => /node_modules\/(axios|follow-redirects|proxy-from-env)\//.test(url) || url.startsWith('node:') },
];
const GC = 'garbage collector';
const OTHER = 'other (harness, benchmark, other packages, V8)';

/**
 * Self time in ms per part of one profile: { [part]: ms }. `parts` (default: the node-vs-helper
 * parts above) is a list of { part, test(url) }, first match wins.
 */
export function cpuByPart(file, parts = PARTS) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const partOf = new Map();
	// A function without a script (native: connect, JSON.parse, a getter) counts for the part of
	// the code that called it; idle time and the profiler's "(program)" for none.
	const resolve = (id) => {
		if (partOf.has(id)) return partOf.get(id);
		const { url, functionName } = byId.get(id).callFrame;
		let part;
		if (url) part = parts.find((p) => p.test(url))?.part ?? OTHER;
		else if (functionName === '(garbage collector)') part = GC;
		else if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') part = undefined;
		else part = parentOf.has(id) ? resolve(parentOf.get(id)) ?? OTHER : OTHER;
		partOf.set(id, part);
		return part;
	};
	for (const node of profile.nodes) resolve(node.id);
	const ms = {};
	profile.samples.forEach((id, index) => {
		const part = partOf.get(id);
		if (part) ms[part] = (ms[part] ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000;
	});
	return ms;
}

/**
 * Rows of "where the node's CPU per request beyond the helper's goes": per part, ms per request
 * of the helper client, of the node client and the difference, largest difference first.
 */
export function extraCpuByPart(helperFile, helperRequests, nodeFile, nodeRequests) {
	const helper = cpuByPart(helperFile);
	const node = cpuByPart(nodeFile);
	const parts = [...new Set([...Object.keys(helper), ...Object.keys(node)])];
	return parts
		.map((part) => {
			const h = (helper[part] ?? 0) / helperRequests;
			const n = (node[part] ?? 0) / nodeRequests;
			return { part, helperMsPerRequest: h, nodeMsPerRequest: n, extraMsPerRequest: n - h };
		})
		.sort((a, b) => b.extraMsPerRequest - a.extraMsPerRequest);
}
