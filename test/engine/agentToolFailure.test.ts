/**
 * A failed item of a node that AI Agent 3 runs as its tool (`rewireOutputLogTo: ai_tool`) is
 * answered as an error item the agent passes to the model (n8n 1.x would otherwise fail the
 * whole execution), unless the node's On Error is "Stop Workflow". Bad input: nothing is sent.
 */
import nock from 'nock';

import { Harness, stopEngineTimers } from '../helpers/harness';

const BASE = 'https://recruiting.example.test';
const credential = { baseUrl: BASE, authentication: 'apiKey', apiKey: 'key-for-agent-test' };
const parameters = {
	resource: 'candidate',
	operation: 'upsert',
	email: 'ada@example.com',
	additionalFields: { birthday: '31.02.2024' },
};

describe('a failed item of the node run as an AI Agent 3 tool', () => {
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
		stopEngineTimers();
	});

	it('comes out as an error item the model can read, and nothing is sent', async () => {
		const harness = new Harness(credential);
		const result = await harness.run({ parameters, asAgentTool: true });
		expect(result.error).toBeUndefined();
		// n8n logs a tool node's output to the agent's connection.
		const items = result.run.data.resultData.runData.Recruiting[0].data?.ai_tool?.[0] ?? [];
		expect(items).toHaveLength(1);
		expect(String(items[0].json.error)).toContain('31.02.2024');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('stops the run when the node\'s On Error is "Stop Workflow", as a plain node does', async () => {
		const asTool = await new Harness(credential).run({ parameters, asAgentTool: true, onError: 'stopWorkflow' });
		const plain = await new Harness(credential).run({ parameters });
		for (const result of [asTool, plain]) {
			expect(result.items).toHaveLength(0);
			expect(String(result.error?.message ?? '') + String(result.error?.description ?? '')).toContain('31.02.2024');
		}
	});
});
