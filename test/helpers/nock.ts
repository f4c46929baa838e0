/**
 * For the engine tests (test/engine/, the node through n8n-core against nock): call
 * `setUpNock()` at the top of a test file. No real connection is allowed while the file runs,
 * every test starts without interceptors, and afterwards nock is restored and n8n-core's
 * timers are stopped.
 */
import nock from 'nock';

import { stopEngineTimers } from './harness';

export function setUpNock() {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
		stopEngineTimers();
	});
}
