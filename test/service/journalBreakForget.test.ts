/**
 * Trying to break issue 46 item 6 (commit b672b2c): rows prepared ahead are asked lazily once the
 * store's calls take LAZY_FROM_MS or longer. Forget Each Input Row awaits a prepared row's answer
 * (journal.ts `forget`: `await asked.answer`) without hurrying it. A row that joined the queue while
 * the process was not lazy yet (batch 1: no timer set), while the first call was in flight, and the
 * process became lazy with that call: nothing asks it until the queue holds half of `ahead`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleepWithAbort } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Recruiting/memory/registry';
import { Harness } from '../helpers/harness';
import { slowStore } from '../helpers/claimsAhead';
import { upsertParameters } from '../helpers/upsert';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const upsert = (extra: INodeParameters = {}): INodeParameters => upsertParameters(extra, { firstName: '={{ $json.first }}' });
const rows = (count: number, tag: string) =>
	Array.from({ length: count }, (_, index) => ({
		email: `${tag}.${index}@example.test`,
		first: `F${index}`,
		skills: 'SQL: 3',
	}));

/** Resolves with the run's result, or 'hung' when it has not ended after `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | 'hung'> {
	const timer = new AbortController();
	const hung = sleepWithAbort(ms, timer.signal).then(
		() => 'hung' as const,
		() => 'hung' as const,
	);
	try {
		return await Promise.race([work, hung]);
	} finally {
		timer.abort();
	}
}

/** Forget Each Input Row (Forget Now) over `items`, the store taking 350 ms a call; 'hung' when it has not ended after 30 s (without the lazy queue: a few calls and the contest's wait, a few seconds). */
async function forgetOverSlowStore(harness: Harness, items: IDataObject[]) {
	const restore = slowStore(350);
	try {
		return await within(30_000, harness.run({ parameters: upsert({ memoryAction: 'forget', confirmForget: true }), items, onError: 'continueRegularOutput' }));
	} finally {
		restore();
	}
}

beforeEach(() => forgetProcessMemory());

describe('journal break: Forget Each Input Row with a store that turns slow (LAZY_FROM_MS, 300 ms a call, or more)', () => {
	it('a fresh process forgets 6 rows over a store taking 350 ms a call: the execution ends (no row waits forever in the lazy queue)', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		// The rows are known (a first run, fast store), then the process restarts.
		await harness.run({
			parameters: upsert(),
			items: rows(6, 'lazyforget'),
			onError: 'continueRegularOutput',
		});
		forgetProcessMemory();
		const result = await forgetOverSlowStore(harness, rows(6, 'lazyforget'));
		expect(result).not.toBe('hung');
		if (result !== 'hung') expect(result.items.map((item) => item.json.action)).toEqual(Array(6).fill('forgotten'));
	}, 60_000);

	it('a fresh process forgets 6 rows it never knew, the store taking 350 ms a call: the execution ends', async () => {
		const harness = new Harness(emailCredential(sandbox(), ALICE));
		expect(await forgetOverSlowStore(harness, rows(6, 'lazyforget2'))).not.toBe('hung');
	}, 60_000);
});
