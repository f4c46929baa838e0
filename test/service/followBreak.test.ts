/**
 * A review of 2f717bd (`Journal.follow`: a row forgotten while another execution of the process runs, then created again or
 * adopted, claims its other key too; memory/dropped.ts, journal.ts, way.ts). Shapes of test/service/forgetOtherKey.test.ts.
 *
 * Two tests failed on 2f717bd (the findings, each traced and run against 2f717bd~1 too); both pass since the fix that followed:
 * - "created during another execution, forgotten, then run by hand (held back, notSent): the next Sync Rows run creates it
 *   again": the next run answered `unchanged` (no slug, nothing created) for the forgotten row. journal.ts kept the row's content
 *   pair in `contents` (written by `done` when the row was created) and neither `forget` nor `release` took it out; every `end`
 *   adds each key of `contents` to the keys it checks and leaves out only the dropped ones. The run by hand prepared the row
 *   (asked afresh: no longer dropped), and then its end (and the long execution's) wrote `claim:` and the old `done`/`done2`
 *   pair back; the next run's `explain` found them: `same`. Not new in 2f717bd. Fixed: `Journal.forget` takes the row out of
 *   `contents`.
 * - "the same with Forget All Rows: …": the same result, new in 2f717bd (a fresh ask now revives a row after a Forget All,
 *   dropped.ts). Fixed: `Journal.clear` empties `contents`.
 * PASSING (coverage of the fix): Adopt instead of a creation after the Forget; the creation again on a queue worker; the creation again held (no answer); two people sharing
 * a phone; the control of the first finding (no run by hand: created again).
 * Seen on the way, not judged (also on 2f717bd~1): a Forget All Rows during a Sync Rows run refuses the rows that run had
 * prepared ahead as "may already exist", though none was ever created (8 of 30 here).
 *
 * Run through n8n's real engine against the sandbox over real HTTP; the queue worker is a second process (test/helpers/processes.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { BY_EMAIL, BY_PHONE, CANDIDATE, STORED_NO_ANSWER, adoptBy, forgetAllBy, forgetBy } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

useProcesses(sandbox);

const { run, storedOf, whileAnotherRuns, hereAndOnWorker } = syncRuns(sandbox);

const person = (tag: string, phone: string): IDataObject => ({ email: `fbk.${tag}@example.test`, phone, first: tag, city: 'Bonn', skills: '' });

type Ran = Awaited<ReturnType<typeof run>>;

describe('a row forgotten while another execution of the process runs, then taken again (review of Journal.follow)', () => {
	// docs/create-or-update.md, Match By: "Switching Match By from Email to Phone or back finds the candidates the node knows (it
	// keeps each row under its e-mail and its phone too ...)"; Adopt Given Slugs: "each row is remembered as that candidate".
	it('adopted again by Email after the Forget: after a switch to Phone this process finds the adopted candidate (no creation), a queue worker refuses or finds it', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('ada', '+49 30 5710001');
		const first = await run(h, [row], BY_EMAIL);
		expect(first.actions).toEqual(['created']);
		const slug = first.outputs[0].slug;
		let adopted: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'ada', async () => {
			expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
			// Forgotten by mistake (the candidate was not deleted): given its slug again.
			adopted = await run(h, [{ ...row, slug }], adoptBy(BY_EMAIL));
		});
		expect(overlapped).toBe(true);
		expect(adopted?.actions).toEqual(['adopted']);
		const { here: byPhone, onWorker, creations } = await hereAndOnWorker(h, [row], BY_PHONE);
		expect({
			byPhone: [['unchanged', 'updated'].includes(byPhone.actions[0]), byPhone.outputs[0].slug === slug],
			onWorker: onWorker.actions[0] === 'unchanged' || mayExist(onWorker.outputs[0]),
			creations,
			stored: storedOf(row.email).length,
		}).toEqual({ byPhone: [true, true], onWorker: true, creations: [], stored: 1 });
	}, 60_000);

	// docs/create-or-update.md: Forget Each Input Row removes the claim "for every process"; "Where the slug is not known ... after a
	// switch such rows are refused as "may already exist"" (never created twice).
	it('forgotten in the main process while it runs, created again on a queue worker: after a switch to Phone, neither process creates it again', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('dora', '+49 30 5710004');
		expect((await run(h, [row], BY_EMAIL)).actions).toEqual(['created']);
		let again: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'dora', async () => {
			expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
			inProcess('worker');
			again = await run(h, [row], BY_EMAIL, worker);
			inProcess('main');
		});
		expect(overlapped).toBe(true);
		expect(again?.actions).toEqual(['created']);
		const slug = again?.outputs[0].slug;
		const { here: byPhone, onWorker, creations } = await hereAndOnWorker(h, [row], BY_PHONE);
		expect({
			byPhone: byPhone.actions[0] === 'unchanged' || mayExist(byPhone.outputs[0]),
			onWorker: [onWorker.actions[0], onWorker.outputs[0].slug === slug],
			creations,
			stored: storedOf(row.email).length,
		}).toEqual({ byPhone: true, onWorker: ['unchanged', true], creations: [], stored: 2 });
	}, 60_000);

	// docs/create-or-update.md, Match By: "A row held after a creation without an answer is refused under its other key too: as held
	// in the n8n process that sent it ..., and as "may already exist" in any other".
	it('created again after the Forget without an answer (held): after a switch to Phone it is refused in this process and on a queue worker, never created again', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('edda', '+49 30 5710005');
		expect((await run(h, [row], BY_EMAIL)).actions).toEqual(['created']);
		let again: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(
			h,
			'edda',
			async () => {
				expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
				sandbox().setFaults({ ...STORED_NO_ANSWER, latencyMs: 400 });
				again = await run(h, [row], BY_EMAIL);
				sandbox().setFaults({ latencyMs: 400, paths: [CANDIDATE] });
			},
			{ strict: false },
		);
		expect(overlapped).toBe(true);
		expect(again?.outputs[0].action).toBe('failed');
		expect(mayExist(again!.outputs[0])).toBe(true);
		const { here: byPhone, onWorker, creations } = await hereAndOnWorker(h, [row], BY_PHONE);
		expect({
			byPhone: byPhone.actions[0],
			onWorker: mayExist(onWorker.outputs[0]),
			creations,
			// The first candidate, and the one the held creation stored.
			stored: storedOf(row.email).length,
		}).toEqual({ byPhone: 'failed', onWorker: true, creations: [], stored: 2 });
	}, 60_000);

	// docs/create-or-update.md, Match By: a Forget of one person "by that person's e-mail, leaves" the other's row; two people sharing
	// a phone are one candidate only under Match By Phone (stated), so by Email the other person's row stays its own candidate.
	it('two people sharing a phone (by Email): one forgotten and created again while another execution runs, the other updated meanwhile: by Email each keeps its own candidate, nothing is created twice', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const jo = person('jo', '+49 30 5710009');
		const ivy = person('ivy', '+49 30 5710009');
		const first = await run(h, [jo, ivy], BY_EMAIL);
		expect(first.actions).toEqual(['created', 'created']);
		const joSlug = first.outputs[0].slug;
		let again: Ran | undefined;
		let joUpdated: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'ivy', async () => {
			expect((await run(h, [ivy], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
			again = await run(h, [ivy], BY_EMAIL);
			joUpdated = await run(h, [{ ...jo, city: 'Köln' }], BY_EMAIL);
		});
		expect(overlapped).toBe(true);
		expect(again?.actions).toEqual(['created']);
		expect(joUpdated?.actions).toEqual(['updated']);
		const ivySlug = again?.outputs[0].slug;
		const { here: both, onWorker, creations } = await hereAndOnWorker(h, [{ ...jo, city: 'Köln' }, ivy], BY_EMAIL);
		expect({
			both: [both.actions, both.outputs[0].slug === joSlug, both.outputs[1].slug === ivySlug],
			onWorker: onWorker.outputs.map((json) => json.action === 'unchanged' || mayExist(json)),
			creations,
			stored: [storedOf(jo.email).length, storedOf(ivy.email).length],
		}).toEqual({ both: [['unchanged', 'unchanged'], true, true], onWorker: [true, true], creations: [], stored: [1, 2] });
	}, 60_000);

	// docs/create-or-update.md, Forget Each Input Row: "each input row is forgotten at once, for every process and the published
	// workflow (its output ... says that the next Sync Rows run creates it again ...)". Ana's sync ended before the Forget; only
	// another execution of the process (other rows) runs: not "Forget during a claim".
	it('control: created during another execution, forgotten after that sync ended: the next Sync Rows run creates it again', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('fay', '+49 30 5710006');
		let created: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'fay', async () => {
			created = await run(h, [row], BY_EMAIL);
			expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		});
		expect(overlapped).toBe(true);
		expect(created?.actions).toEqual(['created']);
		const next = await run(h, [row], BY_EMAIL);
		expect({ next: next.actions, slug: typeof next.outputs[0].slug, creations: next.creations }).toEqual({ next: ['created'], slug: 'string', creations: [row.email] });
	}, 60_000);

	// The same promise: a run by hand (Create in Manual Runs off holds a new row back, `notSent`) after the Forget, while the other
	// execution still runs, must not bring the forgotten row's claim back.
	it('created during another execution, forgotten, then run by hand (held back, notSent): the next Sync Rows run creates it again', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('gina', '+49 30 5710007');
		let created: Ran | undefined;
		let byHand: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'gina', async () => {
			created = await run(h, [row], BY_EMAIL);
			expect((await run(h, [row], forgetBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'forgotten', known: true });
			byHand = await run(h, [row], BY_EMAIL, { manual: true });
		});
		expect(overlapped).toBe(true);
		expect(created?.actions).toEqual(['created']);
		expect(byHand?.actions).toEqual(['notSent']);
		const next = await run(h, [row], BY_EMAIL);
		expect({ next: next.actions, slug: typeof next.outputs[0].slug, creations: next.creations }).toEqual({ next: ['created'], slug: 'string', creations: [row.email] });
	}, 60_000);

	it('the same with Forget All Rows: created during another execution, all rows forgotten, run by hand: the next Sync Rows run creates it again', async () => {
		const h = new Harness(emailCredential(sandbox(), ALICE));
		const row = person('hedy', '+49 30 5710008');
		let created: Ran | undefined;
		let byHand: Ran | undefined;
		const { overlapped } = await whileAnotherRuns(h, 'hedy', async () => {
			created = await run(h, [row], BY_EMAIL);
			expect((await run(h, [row], forgetAllBy(BY_EMAIL))).outputs[0]).toMatchObject({ action: 'cleared' });
			byHand = await run(h, [row], BY_EMAIL, { manual: true });
		});
		expect(overlapped).toBe(true);
		expect(created?.actions).toEqual(['created']);
		expect(byHand?.actions).toEqual(['notSent']);
		const next = await run(h, [row], BY_EMAIL);
		expect({ next: next.actions, slug: typeof next.outputs[0].slug, creations: next.creations }).toEqual({ next: ['created'], slug: 'string', creations: [row.email] });
	}, 60_000);
});
