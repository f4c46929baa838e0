/**
 * Issue 47, trap 7: the modes of Create or Update that change what a run writes show on the
 * canvas, short enough to read before the canvas cuts the subtitle (about 30 characters), with
 * n8n-workflow's own expression engine evaluating the node's subtitle.
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';

const node = new Recruiting().description;
const nodeTypes = { getByName: () => new Recruiting(), getByNameAndVersion: () => new Recruiting(), getKnownTypes: () => ({}) };
const nodeOf = (parameters: INodeParameters): INode => ({ id: 'n1', name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting', typeVersion: 1.2, position: [0, 0], parameters });
const subtitle = (parameters: INodeParameters) => {
	const workflow = new Workflow({ nodes: [nodeOf(parameters)], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(nodeOf(parameters), node.subtitle, 'internal', {});
};
const upsert = { resource: 'candidate', operation: 'upsert' };
const LABEL = 'Create or Update: Candidate';

describe('issue 47, trap 7: risky options show on the canvas', () => {
	it('the defaults show only the operation', () => {
		expect(subtitle(upsert)).toBe(LABEL);
		expect(subtitle({ ...upsert, memoryAction: 'remember', options: { createInManualRuns: false, resendUnknownRecords: false, dryRun: false } })).toBe(LABEL);
	});

	it('Create in Manual Runs and Send Unknown-Outcome Records Again show, each in a few words, before the operation', () => {
		expect(subtitle({ ...upsert, options: { createInManualRuns: true } })).toBe(`⚠ Creates in Manual Runs · ${LABEL}`);
		expect(subtitle({ ...upsert, options: { resendUnknownRecords: true } })).toBe(`⚠ Resends Unknown Records · ${LABEL}`);
	});

	it('Dry Run and every Memory Action other than Sync Rows show too; several modes share one warning sign', () => {
		expect(subtitle({ ...upsert, options: { dryRun: true } })).toBe(`⚠ Dry Run · ${LABEL}`);
		expect(subtitle({ ...upsert, memoryAction: 'adopt' })).toBe(`⚠ Adopts Slugs · ${LABEL}`);
		expect(subtitle({ ...upsert, memoryAction: 'forget' })).toBe(`⚠ Forgets Rows · ${LABEL}`);
		expect(subtitle({ ...upsert, memoryAction: 'clearAll' })).toBe(`⚠ Forgets All Rows · ${LABEL}`);
		expect(subtitle({ ...upsert, memoryAction: 'forget', options: { dryRun: true, createInManualRuns: true, resendUnknownRecords: true } })).toBe(
			`⚠ Dry Run, Forgets Rows, Creates in Manual Runs, Resends Unknown Records · ${LABEL}`,
		);
	});

	it('each mode alone fits in the part of the subtitle the canvas shows', () => {
		for (const parameters of [{ options: { createInManualRuns: true } }, { options: { resendUnknownRecords: true } }, { memoryAction: 'clearAll' }, { options: { dryRun: true } }]) {
			const text = String(subtitle({ ...upsert, ...parameters }));
			expect(text.indexOf(' · ')).toBeGreaterThan(0);
			expect(text.indexOf(' · ')).toBeLessThanOrEqual(26);
		}
	});

	it('other operations show no mode, even with such values left in their parameters', () => {
		expect(subtitle({ resource: 'candidate', operation: 'import', options: { dryRun: true, createInManualRuns: true } })).toBe('Import: Candidate');
		expect(subtitle({ resource: 'candidateJob', operation: 'add', options: {} })).toBe('Add: Candidate Job');
	});
});
