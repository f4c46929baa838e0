/**
 * A row forgotten while another execution of the same n8n process runs, then created again: its other key (the phone, when it is
 * matched by e-mail) must be claimed with the new candidate, so that a run after a switch of Match By finds it.
 *
 * Found by the whole-memory simulation (seed 71021 of "Match By switched", 2,000 seeds): the Forget marks the row's keys as
 * forgotten in the process while executions run (journal.ts, dropped.ts), so that one that knew the row before does not claim it
 * back; a run that asked the row afresh and created it took its own key back, but its other key stayed marked, so its claim was
 * never written. After a switch to Phone, the process asked the phone, won its claim afresh and created the row a second time.
 * Since: `Journal.follow` (memory/way.ts after a send or an Adopt) keeps the other keys of a row whose own key was asked afresh.
 *
 * Run through n8n's real engine against the sandbox over real HTTP; the queue worker is a second process (test/helpers/processes.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { BY_EMAIL, BY_PHONE, CANDIDATE, forgetBy, withOptions } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { creationEmails, until } from '../helpers/upsert';

const sandbox = useSandbox();

useProcesses(sandbox);

const { run, storedOf } = syncRuns(sandbox);

const person = (tag: string, phone: string): IDataObject => ({ email: `fok.${tag}@example.test`, phone, first: tag, city: 'Bonn', skills: '' });

/** A long Sync Rows run of other new rows in this process (slow creations, one at a time): under way until it resolves. */
async function whileAnotherRuns(h: Harness, tag: string, work: () => Promise<void>): Promise<{ overlapped: boolean }> {
	const others = Array.from({ length: 12 }, (_, index) => person(`${tag}.other${index}`, `+49 30 559${tag.length}${index.toString().padStart(3, '0')}`));
	const from = sandbox().requests.length;
	sandbox().setFaults({ latencyMs: 400, paths: [CANDIDATE] });
	let ended = false;
	const long = run(h, others, withOptions(BY_EMAIL, { concurrency: 1 })).finally(() => (ended = true));
	expect(await until(() => sandbox().requests.slice(from).some((request) => request.method === 'POST' && request.path === CANDIDATE))).toBe(true);
	await work();
	const overlapped = !ended;
	const done = await long;
	sandbox().setFaults({});
	expect(done.actions).toEqual(Array(others.length).fill('created'));
	return { overlapped };
}

describe('a row forgotten and created again while another execution of the process runs', () => {
	it('created again by Email: after a switch to Phone, this process finds it (no second creation), and a queue worker by Phone refuses it instead of creating it', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('ana', '+49 30 5590001');
		expect((await run(h, [row], BY_EMAIL)).actions).toEqual(['created']);
		let again: Awaited<ReturnType<typeof run>> | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'a', async () => {
			// The user deleted Ana's candidate in the service and forgets her row (Forget Now), then the next Sync Rows run creates her again.
			expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
			again = await run(h, [row], BY_EMAIL);
		});
		expect(overlapped).toBe(true);
		expect(again?.actions).toEqual(['created']);
		const slug = again?.outputs[0].slug;
		const from = sandbox().requests.length;
		// Match By switched to Phone: this process knows Ana under her phone too (docs/create-or-update.md, Match By).
		const byPhone = await run(h, [row], BY_PHONE);
		inProcess('worker');
		const onWorker = await run(h, [row], BY_PHONE, worker);
		inProcess('main');
		expect({
			byPhone: [byPhone.actions[0], byPhone.outputs[0].slug === slug],
			onWorker: onWorker.actions[0] === 'unchanged' || mayExist(onWorker.outputs[0]),
			creations: creationEmails(sandbox(), from),
			// The first candidate, then the one created after the Forget (the user deleted the first one in the service).
			stored: storedOf(row.email).length,
		}).toEqual({ byPhone: ['unchanged', true], onWorker: true, creations: [], stored: 2 });
	}, 90_000);
});
