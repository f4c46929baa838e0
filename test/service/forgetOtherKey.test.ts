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
import { useProcesses } from '../helpers/processes';
import { mayExist, syncRuns } from '../helpers/sync';
import { BY_EMAIL, BY_PHONE, forgetAllBy, forgetBy } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

useProcesses(sandbox);

const { run, storedOf, whileAnotherRuns, hereAndOnWorker } = syncRuns(sandbox);

const person = (tag: string, phone: string): IDataObject => ({ email: `fok.${tag}@example.test`, phone, first: tag, city: 'Bonn', skills: '' });

// docs/create-or-update.md, Match By: "Switching Match By from Email to Phone or back finds the candidates the node knows (it keeps
// each row under its e-mail and its phone too ...)"; Forget All Rows "does the same for the node's whole memory". The second and
// third cases are from the review of the fix (test/service/followBreak.test.ts).
const CASES = [
	{ how: 'forgotten by Email, created again by Email, then matched by Phone', tag: 'a', by: BY_EMAIL, forget: forgetBy(BY_EMAIL), then: BY_PHONE, long: {} },
	// A Forget All Rows during the other run refuses the rows it had prepared ahead ("may already exist"): its rows are not judged.
	{ how: 'all rows forgotten (Forget All Rows), created again by Email, then matched by Phone', tag: 'bea', by: BY_EMAIL, forget: forgetAllBy(BY_EMAIL), then: BY_PHONE, long: { count: 30, strict: false } },
	{ how: 'forgotten by Phone, created again by Phone, then matched by Email', tag: 'cleo', by: BY_PHONE, forget: forgetBy(BY_PHONE), then: BY_EMAIL, long: { by: BY_PHONE } },
];

describe('a row forgotten and created again while another execution of the process runs', () => {
	it.each(CASES)('$how: this process finds it (no second creation), a queue worker finds it or refuses it instead of creating it', async ({ tag, by, forget, then, long }) => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person(tag, `+49 30 55900${tag.length}${tag.charCodeAt(0) % 10}`);
		expect((await run(h, [row], by)).actions).toEqual(['created']);
		let again: Awaited<ReturnType<typeof run>> | undefined;
		const { overlapped } = await whileAnotherRuns(
			h,
			tag,
			async () => {
				// The user deleted the candidate in the service and forgets the row (Forget Now), then the next Sync Rows run creates it again.
				expect((await run(h, [row], forget)).outputs[0].action).toMatch(/^(forgotten|cleared)$/);
				again = await run(h, [row], by);
			},
			long,
		);
		expect(overlapped).toBe(true);
		expect(again?.actions).toEqual(['created']);
		const slug = again?.outputs[0].slug;
		// Match By switched: this process knows the row under its other identifier too.
		const { here, onWorker, creations } = await hereAndOnWorker(h, [row], then);
		expect({
			here: [here.actions[0], here.outputs[0].slug === slug],
			onWorker: onWorker.actions[0] === 'unchanged' || mayExist(onWorker.outputs[0]),
			creations,
			// The first candidate, then the one created after the Forget (the user deleted the first one in the service).
			stored: storedOf(row.email).length,
		}).toEqual({ here: ['unchanged', true], onWorker: true, creations: [], stored: 2 });
	}, 90_000);
});
