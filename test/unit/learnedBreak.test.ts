/**
 * Review 3 of the day's change to the process's learned rows (registry.ts `Shared.learn` stamps `seq`, `forget(key,
 * since)`; contest.ts `ask` notes `since`): a row whose claim was gone when the journal asked it loses what the process
 * learned of it before the ask and keeps what it learned during the ask (Adopt Given Slugs by hand, say). Over the real
 * classes (`CandidateMemory.openIn`, the registry's `Shared` and `Journal`) with a deduplication store kept in a Set, on
 * the system clock (the journal's wait is about a second).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CandidateMemory } from '../../nodes/Recruiting/memory';
import type { MemoryHost } from '../../nodes/Recruiting/memory';
import { accountScope } from '../../nodes/Recruiting/memory/keys';
import { claimOf, raceOf } from '../../nodes/Recruiting/memory/marks';
import { Registry } from '../../nodes/Recruiting/memory/registry';
import type { StoreHelpers } from '../../nodes/Recruiting/memory/storeCalls';
import { until } from '../helpers/upsert';

const CREDENTIALS: ICredentialDataDecryptedObject = { authentication: 'accessToken', baseUrl: 'https://service.example', accessToken: 'token' };
const CREDENTIAL_ID = 'cred';

/** n8n's deduplication store for one node, as a set of values. */
function storeOf() {
	const list = new Set<string>();
	const helpers = {
		checkProcessedAndRecord: async (values: unknown[]) => {
			const processed = values.filter((value) => list.has(String(value)));
			const fresh = values.filter((value) => !list.has(String(value)));
			for (const value of values) list.add(String(value));
			return { new: fresh, processed };
		},
		removeProcessed: async (values: unknown[]) => {
			for (const value of values) list.delete(String(value));
		},
		clearAllProcessedItems: async () => list.clear(),
		getProcessedDataCount: async () => list.size,
	} as unknown as StoreHelpers;
	return { list, helpers };
}

/** An execution of a queue-mode worker (no saved copy): what the process learned is all it has. */
const hostOf = (helpers: StoreHelpers): MemoryHost => ({
	workflowId: 'wf',
	nodeId: 'node',
	credentialId: CREDENTIAL_ID,
	staticData: {},
	nodeStaticData: {},
	nodeContext: {},
	helpers,
	writable: false,
});

/**
 * Execution 1 creates the row (slug S1) and ends; another worker forgets it (its claim and race leave the store); the
 * next execution asks the row afresh and, while that ask runs, `during` remembers a slug for it (Adopt Given Slugs).
 * Returns what that execution recalls once the journal answered.
 */
async function rememberDuringAsk(during: string) {
	const registry = new Registry();
	const store = storeOf();
	const first = CandidateMemory.openIn(registry, CREDENTIALS, hostOf(store.helpers));
	const key = first.keyOf('email', 'learned.break@example.test');
	expect(await first.claim(key)).toBe(true);
	first.remember(key, { s: 'S1' });
	await first.repair();
	expect(store.list.has(claimOf(key))).toBe(true);
	// Forget Each Input Row on another worker: the row's claim (and race) leave n8n's store.
	store.list.delete(claimOf(key));
	store.list.delete(raceOf(key));
	const second = CandidateMemory.openIn(registry, CREDENTIALS, hostOf(store.helpers));
	second.keyOf('email', 'learned.break@example.test');
	const shared = registry.peek('wf', 'node', accountScope(CREDENTIALS, CREDENTIAL_ID))!;
	expect(shared.journal.answered(key)).toBeUndefined();
	// During the ask: the user adopts a slug for the row.
	second.remember(key, { s: during });
	expect(await until(() => shared.journal.answered(key) !== undefined, 10_000)).toBe(true);
	const answer = shared.journal.answered(key);
	const recalled = second.recall(key)?.s;
	await second.repair();
	return { answer, recalled };
}

describe('learned break: what the process learned during the ask stays', () => {
	it('a slug adopted during the ask (another one than the process knew) stays once the journal answers "mine"', async () => {
		expect(await rememberDuringAsk('S2')).toEqual({ answer: 'mine', recalled: 'S2' });
	}, 20_000);

	it('the same slug as the process knew, adopted during the ask, stays too (the adoption is what was learned during the ask)', async () => {
		expect(await rememberDuringAsk('S1')).toEqual({ answer: 'mine', recalled: 'S1' });
	}, 20_000);

	it('without anything remembered during the ask, what the process learned before it is void', async () => {
		const registry = new Registry();
		const store = storeOf();
		const first = CandidateMemory.openIn(registry, CREDENTIALS, hostOf(store.helpers));
		const key = first.keyOf('email', 'learned.void@example.test');
		expect(await first.claim(key)).toBe(true);
		first.remember(key, { s: 'S1' });
		await first.repair();
		store.list.delete(claimOf(key));
		store.list.delete(raceOf(key));
		const second = CandidateMemory.openIn(registry, CREDENTIALS, hostOf(store.helpers));
		second.keyOf('email', 'learned.void@example.test');
		const shared = registry.peek('wf', 'node', accountScope(CREDENTIALS, CREDENTIAL_ID))!;
		expect(await until(() => shared.journal.answered(key) !== undefined, 10_000)).toBe(true);
		expect({ answer: shared.journal.answered(key), recalled: second.recall(key)?.s }).toEqual({ answer: 'mine', recalled: undefined });
		await second.repair();
	}, 20_000);
});
