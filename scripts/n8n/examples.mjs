// Runs the example workflows of examples/ in a started stack and describes what they did.
// Shared by the demo (scripts/demo.mjs) and the end-to-end test.

import { loadExample } from './stack.mjs';
import { nodeError, nodeOutput } from './server.mjs';

export const EXAMPLES = [
	{ key: 'form', file: 'form-candidates.json', title: 'Form rows → candidates with profile, job, IT skills and languages' },
	{ key: 'import', file: 'form-import.json', title: 'Form submission → one Candidate Import (profile and all records in one node)' },
	{ key: 'batch', file: 'spreadsheet-batch.json', title: 'Spreadsheet batch of 200 rows, failures on the error output' },
	{ key: 'lists', file: 'reference-lists.json', title: 'Export of the four reference lists' },
];

/** Imports and runs one example; returns { workflow, execution, seconds }. */
export async function runExample(rest, example) {
	const json = loadExample(example.file);
	const workflow = await rest.importWorkflow(json);
	const t0 = Date.now();
	const execution = await rest.runWorkflow(workflow.id);
	return { workflow, execution, seconds: (Date.now() - t0) / 1000 };
}

/** Output items (json) of a node: main output 0 by default, 1 = the error output. */
export const out = (execution, node, output = 0) => nodeOutput(execution, node, output).map((i) => i.json);

/** Failures collected by the "Failed: ..." nodes of the batch example. */
export function batchFailures(execution) {
	return Object.keys(execution.runData)
		.filter((name) => name.startsWith('Failed: '))
		.flatMap((name) => out(execution, name))
		.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
}

/** Node errors that stopped a run (so the summary can say why). */
export function stoppedBy(execution) {
	if (execution.status === 'success') return null;
	const node = execution.lastNodeExecuted;
	const err = (node && nodeError(execution, node)) ?? execution.error;
	return { node, message: err?.message ?? `execution ${execution.status}`, description: err?.description };
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Human-readable lines about one example run. */
export function describe(example, { execution, seconds }, { candidatesBefore = [], candidatesAfter = [], names = {} } = {}) {
	const lines = [];
	const head = `${example.title} (examples/${example.file}): ${execution.status} in ${seconds.toFixed(1)}s`;
	lines.push(head);
	const stop = stoppedBy(execution);
	if (stop) lines.push(`   stopped at node "${stop.node}": ${stop.message}${stop.description ? ` (${stop.description})` : ''}`);
	const before = new Set(candidatesBefore.map((c) => c.slug));
	const added = candidatesAfter.filter((c) => !before.has(c.slug));
	const records = (key) => added.reduce((n, c) => n + (c.records?.[key]?.length ?? 0), 0);

	if (example.key === 'import') {
		lines.push(
			`   candidates created: ${added.length}; records attached: ${plural(records('jobs'), 'job')}, ${plural(records('universities'), 'university record')}, ` +
				`${plural(records('itSkills'), 'IT skill')}, ${plural(records('languages'), 'language')}`,
		);
		for (const c of added) {
			const name = [c.first_name, c.last_name].filter(Boolean).join(' ') || '(no name)';
			lines.push(`     - ${name} <${c.email || c.phone}>, born ${c.birthday ?? '?'}, ${c.city ?? '?'}`);
		}
	} else if (example.key === 'form') {
		lines.push(
			`   candidates created: ${added.length}; profiles updated: ${out(execution, 'Update profile').length}; ` +
				`records attached: ${plural(records('jobs'), 'job')}, ${plural(records('itSkills'), 'IT skill')}, ${plural(records('languages'), 'language')}`,
		);
		for (const c of added) {
			const name = [c.first_name, c.last_name].filter(Boolean).join(' ') || '(no name)';
			const contact = c.email || c.phone;
			const langName = (id) => names.languages?.get(id) ?? `#${id}`;
			const jobType = (id) => names.jobTypes?.get(id) ?? `job type #${id ?? '-'}`;
			const langs = (c.records?.languages ?? []).map((l) => `${langName(l.language_id)} (level ${l.language_level_id})`).join(', ');
			const jobs = (c.records?.jobs ?? []).map((j) => `${j.job_title ?? j.company_name} at ${j.company_name}, ${jobType(j.job_type_id)}, from ${j.start_date}`).join('; ');
			const skills = (c.records?.itSkills ?? []).map((s) => `${s.skill_name} ${s.skill_level_id}/4`).join(', ');
			lines.push(`     - ${name} <${contact}>, born ${c.birthday ?? '?'}, ${c.city ?? '?'}: job ${jobs || '-'}; skills ${skills || '-'}; languages ${langs || '-'}`);
		}
	} else if (example.key === 'batch') {
		const rows = out(execution, 'Spreadsheet rows').length;
		const failures = batchFailures(execution);
		lines.push(
			`   ${rows} rows → ${plural(out(execution, 'Create candidate').length, 'candidate')} created, ` +
				`${out(execution, 'Update profile').length} profiles updated, ${plural(out(execution, 'Add language').length, 'language')} attached ` +
				`(sandbox: +${added.length} candidates, ${records('languages')} language records)`,
		);
		lines.push(`   ${plural(failures.length, 'row')} failed and were collected on the error outputs:`);
		for (const f of failures) {
			const who = f.email || f.phone || 'no email, no phone';
			lines.push(`     - row ${f.row} (${who}) at "${f.step}": ${oneLine(f.error)}`);
		}
	} else if (example.key === 'lists') {
		const areas = out(execution, 'Business areas');
		const areaCount = areas.reduce((n, d) => n + (Array.isArray(d.area) ? d.area.length : 0), 0);
		lines.push(
			`   ${areas.length} business area divisions (${areaCount} areas), ${out(execution, 'Job types').length} job types, ` +
				`${out(execution, 'Language skills').length} language skills, ${out(execution, 'University degrees').length} university degrees; ` +
				`exported as one document: ${out(execution, 'Export').length === 1 ? 'yes' : 'no'}`,
		);
	}
	return lines;
}

/** Names of languages and job types, read from the service (for a readable summary). */
export async function referenceNames(baseUrl) {
	const get = async (p) => (await (await fetch(`${baseUrl}${p}`)).json()).data ?? [];
	try {
		const [languages, jobTypes] = await Promise.all([get('/v1/general/language-skills?lang=en'), get('/v1/general/job-types')]);
		return {
			languages: new Map(languages.map((l) => [l.id, l.value])),
			jobTypes: new Map(jobTypes.map((j) => [j.id, j.name_eng])),
		};
	} catch {
		return {};
	}
}

function oneLine(text, max = 220) {
	const s = String(text ?? '').replace(/\s+/g, ' ').trim();
	return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
