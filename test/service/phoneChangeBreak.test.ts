/**
 * A review of Create or Update's memory when a person's phone (or e-mail) changes between runs, under Match By Email and Match By
 * Phone, across n8n processes, written against docs/create-or-update.md (Match By, "What a switch does not cover", Memory Action:
 * Adopt Given Slugs, Forget Each Input Row; Dry Run) and docs/sync-memory.md ("A row's life": a row's other key). Each test runs
 * Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP; a second n8n process (a queue worker,
 * no saved static data) is modelled as holdOwnersBreak.test.ts does it (test/helpers/processes.ts).
 *
 * The promises tried: no candidate created twice for one person; a row never sent is not refused once nothing runs; no person's
 * candidate updated with another person's data; a held row let go by Adopt, or by Forget by either key in its process, with its hold
 * under the phone it had when its creation went out; a Dry Run plans what the real run right after it does.
 *
 * On 3c724ca, 7 of its 7 tests failed. Fixed since: the dry run (PlannedMemory settles holds as a real run learns a slug). Kept
 * failing, stated limits (docs/create-or-update.md, "What a switch does not cover"): a corrected identifier is a new person to a
 * process that does not hold the row; the old one keeps leading to the candidate after a switch; the old phone's claim stays.
 */
import type { IDataObject } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { adoptBy, BY_EMAIL, BY_PHONE, dry, forgetBy, NEVER_STORED, STORED_NO_ANSWER, withOptions } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

useProcesses(sandbox);

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

const { run, storedOf, candidateOf } = syncRuns(sandbox);

/** What a row's output says, for comparing a plan with the real run: its action, whether it is a "may already exist" refusal, its slug. */
const decision = (json: IDataObject) => [json.action, mayExist(json), json.slug];

/** The writes (method and path) a dry run's output plans, in the order planned. */
const planned = (outputs: IDataObject[]) => outputs.flatMap((output) => ((output.requests as IDataObject[] | undefined) ?? []).map((request) => `${String(request.method)} ${String(request.path)}`));

const person = (tag: string, phone: string, more: IDataObject = {}): IDataObject => ({ email: `pcb.${tag}@example.test`, phone, first: tag, city: 'Kiel', skills: '', ...more });

/** What the service holds of a candidate: e-mail, first name, phone. */
const holds = (slug: unknown) => {
	const candidate = candidateOf(slug);
	return [candidate?.email, candidate?.first_name, candidate?.phone];
};

// ---------------------------------------------------------------------------------------------
// 1. A held row whose other key changes, then a run in another n8n process
// ---------------------------------------------------------------------------------------------

describe('phone change break: a held row comes back with a new phone or e-mail, in another process', () => {
	// A stated limit (docs/create-or-update.md, "What a switch does not cover": an e-mail or phone corrected in the sheet): kept failing.
	it.failing('held by Email (stored, answer lost); the sheet corrects the phone; a queue worker by Phone with the new phone: refused, as this process refuses it, not created a second time', async () => {
		const h = harness();
		const row = person('held.newphone', '+49 40 7710101');
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [row], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		expect(storedOf(row.email)).toHaveLength(1);
		const corrected = { ...row, phone: '+49 40 7710199' };
		const here = await run(h, [corrected], BY_PHONE);
		inProcess('worker');
		const onWorker = await run(h, [corrected], BY_PHONE, worker);
		inProcess('main');
		// docs/create-or-update.md, Match By: a row held after a creation without an answer "is refused under its other key too: as held in
		// the n8n process that sent it …, and as "may already exist" in any other and after a restart". This process refuses the row with its
		// new phone as held (its e-mail, one of its keys, is held: aliasBreak2.test.ts "the row comes back with the person's new phone"); the
		// cases a switch does not cover name no changed phone.
		expect({
			here: [here.actions[0], mayExist(here.outputs[0]), here.creations],
			onWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0]), onWorker.creations],
			stored: storedOf(row.email).length,
		}).toEqual({
			here: ['failed', true, []],
			onWorker: ['failed', true, []],
			stored: 1,
		});
	}, 60_000);

	// A stated limit (docs/create-or-update.md, "What a switch does not cover": an e-mail or phone corrected in the sheet): kept failing.
	it.failing('held by Phone (stored, answer lost; its e-mail given); the sheet corrects the e-mail; a queue worker by Email with the new e-mail: refused, as this process refuses it, not created a second time', async () => {
		const h = harness();
		const row = person('held.oldmail', '+49 40 7710201');
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [row], BY_PHONE)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = sandbox()
			.candidates(1)
			.filter((candidate) => candidate.email === row.email);
		expect(stored).toBeDefined();
		const corrected = { ...row, email: 'pcb.held.newmail@example.test' };
		const here = await run(h, [corrected], BY_EMAIL);
		inProcess('worker');
		const onWorker = await run(h, [corrected], BY_EMAIL, worker);
		inProcess('main');
		// The same promise with the identifiers swapped: the e-mail is the other key of a row matched by phone.
		expect({
			here: [here.actions[0], mayExist(here.outputs[0]), here.creations],
			onWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0]), onWorker.creations],
			withThatPhone: sandbox()
				.candidates(1)
				.filter((candidate) => candidate.phone === row.phone || candidate.email === corrected.email).length,
		}).toEqual({
			here: ['failed', true, []],
			onWorker: ['failed', true, []],
			withThatPhone: 1,
		});
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. A held row let go after its phone was corrected: the old phone is free again
// ---------------------------------------------------------------------------------------------

describe('phone change break: the phone a held row had when its creation went out', () => {
	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('Anna held by Email with a mistyped phone (Ben\'s; stored, answer lost); the sheet corrects it; Anna adopted by Email with her slug; Ben, new, by Phone on a worker and here: created once, Anna\'s candidate untouched', async () => {
		const h = harness();
		const bensPhone = '+49 40 7720101';
		const anna = person('adopt.anna', bensPhone);
		const ben = person('adopt.ben', bensPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = storedOf(anna.email);
		const corrected = { ...anna, phone: '+49 40 7720102' };
		const adopted = await run(h, [{ ...corrected, slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		inProcess('worker');
		const onWorker = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		const here = await run(h, [ben], BY_PHONE);
		// docs/create-or-update.md, Match By: "Forget Each Input Row by either key in that process, or Adopt Given Slugs, lets it go (and its hold
		// under the phone it had when its creation went out)"; a row "that was never sent is not held under either key". Anna no longer has
		// that phone, and she was adopted: Ben's row was never sent and shares no phone with a held row.
		expect({
			onWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0])],
			here: [here.actions[0], mayExist(here.outputs[0])],
			created: [...onWorker.creations, ...here.creations],
			anna: holds(stored.slug)[0],
		}).toEqual({
			onWorker: ['created', false],
			here: ['unchanged', false],
			created: [ben.email],
			anna: anna.email,
		});
	}, 60_000);

	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('Anna held by Email with a mistyped phone (Wanda\'s; connection broke: no candidate); the sheet corrects it; Anna forgotten by Phone, her new phone, with her e-mail (Forget Now, this process); Wanda, new, by Phone: created; Anna by Email created once', async () => {
		const h = harness();
		const wandasPhone = '+49 40 7720201';
		const anna = person('forget.anna', wandasPhone);
		const wanda = person('forget.wanda', wandasPhone);
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const corrected = { ...anna, phone: '+49 40 7720202' };
		const plannedForget = await run(h, [corrected], dry(forgetBy(BY_PHONE)));
		const forgot = await run(h, [corrected], forgetBy(BY_PHONE));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect(plannedForget.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		inProcess('worker');
		const onWorker = await run(h, [wanda], BY_PHONE, worker);
		inProcess('main');
		const here = await run(h, [wanda], BY_PHONE);
		const annaAgain = await run(h, [corrected], BY_EMAIL);
		// docs/create-or-update.md, Match By: a held row: "Forget Each Input Row by either key in that process … lets it go (and its hold under
		// the phone it had when its creation went out)". Anna's keys are her e-mail and her (corrected) phone: forgotten by the phone here.
		expect({
			onWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0])],
			here: [here.actions[0], mayExist(here.outputs[0])],
			anna: [annaAgain.actions[0], annaAgain.creations],
			created: [...onWorker.creations, ...here.creations],
		}).toEqual({
			onWorker: ['created', false],
			here: ['unchanged', false],
			anna: ['created', [anna.email]],
			created: [wanda.email],
		});
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. A phone or e-mail that moved to another person: the old key's candidate
// ---------------------------------------------------------------------------------------------

describe('phone change break: a key that moved from one person to another', () => {
	// A stated limit (docs/create-or-update.md, "What a switch does not cover": an e-mail or phone corrected in the sheet): kept failing.
	it.failing('Anna created by Email; her phone corrected (updated on her candidate); the node switched to Phone; Ben, new, with Anna\'s old phone: created, Anna\'s candidate keeps her e-mail and name (the Dry Run before plans the same)', async () => {
		const h = harness();
		const oldPhone = '+49 40 7730101';
		const anna = person('moved.anna', oldPhone);
		const made = await run(h, [anna], BY_EMAIL);
		expect(made.actions).toEqual(['created']);
		const slugA = made.outputs[0].slug;
		const annaNow = { ...anna, phone: '+49 40 7730102' };
		const update = await run(h, [annaNow], BY_EMAIL);
		expect([update.actions[0], update.outputs[0].slug]).toEqual(['updated', slugA]);
		expect(holds(slugA)[2]).toBe(annaNow.phone);
		const ben = person('moved.ben', oldPhone);
		const plan = await run(h, [annaNow, ben], dry(BY_PHONE));
		const byPhone = await run(h, [annaNow, ben], BY_PHONE);
		// docs/create-or-update.md, Match By: "Switching Match By from Email to Phone or back finds the candidates the node knows (it keeps each
		// row under its e-mail and its phone too …)": Anna's row is under her phone now. The stated limit is about "two people who share a phone";
		// Anna and Ben never did: the node itself sent Anna's new phone to her candidate before Ben's row came.
		expect({
			anna: [byPhone.actions[0], byPhone.outputs[0].slug],
			ben: [byPhone.actions[1], byPhone.creations],
			annasCandidate: holds(slugA),
			plan: [decision(plan.outputs[1])[0], planned(plan.outputs)],
		}).toEqual({
			anna: ['unchanged', slugA],
			ben: ['created', [ben.email]],
			annasCandidate: [anna.email, anna.first, annaNow.phone],
			plan: [byPhone.actions[1], byPhone.writes],
		});
	}, 60_000);

	// A stated limit (docs/create-or-update.md, "What a switch does not cover": an e-mail or phone corrected in the sheet): kept failing.
	it.failing('matched by Phone, Anna\'s row carries Carl\'s e-mail by mistake; the e-mail corrected (updated on her candidate); the node switched to Email; Carl, new, with that e-mail: created, Anna\'s candidate keeps her e-mail and name', async () => {
		const h = harness();
		const carlsMail = 'pcb.mail.carl@example.test';
		const anna = person('mail.anna', '+49 40 7730201', { email: carlsMail, first: 'Anna' });
		const made = await run(h, [anna], BY_PHONE);
		expect(made.actions).toEqual(['created']);
		const slugA = made.outputs[0].slug;
		const annaNow = { ...anna, email: 'pcb.mail.anna@example.test' };
		const update = await run(h, [annaNow], BY_PHONE);
		expect([update.actions[0], update.outputs[0].slug]).toEqual(['updated', slugA]);
		expect(holds(slugA)[0]).toBe(annaNow.email);
		const carl = person('mail.carl', '+49 40 7730202', { email: carlsMail, first: 'Carl' });
		const byMail = await run(h, [annaNow, carl], BY_EMAIL);
		// docs/create-or-update.md, Match By: Email identifies a row from one run to the next; a switch "finds the candidates the node knows (it
		// keeps each row under its e-mail and its phone too)". No limit is stated for an e-mail that moved or is shared.
		expect({
			anna: [byMail.actions[0], byMail.outputs[0].slug],
			carl: [byMail.actions[1], byMail.creations],
			annasCandidate: holds(slugA),
		}).toEqual({
			anna: ['unchanged', slugA],
			carl: ['created', [carlsMail]],
			annasCandidate: [annaNow.email, 'Anna', anna.phone],
		});
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. A Dry Run after a phone correction
// ---------------------------------------------------------------------------------------------

describe('phone change break: the Dry Run after a phone correction', () => {
	it('Zoe known by Email; Xaver held by Email with her phone by mistake (stored, answer lost); his phone corrected; one input by Phone, one row at a time: Xaver with his slug (Candidate Slug), then Zoe: the Dry Run plans what the real run then does', async () => {
		const h = harness();
		const zoesPhone = '+49 40 7740101';
		const zoe = person('plan.zoe', zoesPhone);
		const made = await run(h, [zoe], BY_EMAIL);
		expect(made.actions).toEqual(['created']);
		const xaver = person('plan.xaver', zoesPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [xaver], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = storedOf(xaver.email);
		const sheet = [{ ...xaver, phone: '+49 40 7740102', slug: stored.slug }, zoe];
		const oneAtATime = { ...withOptions(BY_PHONE, { concurrency: 1 }), candidateSlug: '={{ $json.slug }}' };
		const plan = await run(h, sheet, withOptions(oneAtATime, { concurrency: 1, dryRun: true }));
		const real = await run(h, sheet, oneAtATime);
		// docs/create-or-update.md, Options → Dry Run: "each row is decided as a real run decides it (Sync State or this node's memory …)";
		// "the real run after it does exactly what it would have done". Zoe's row is decided by this process's memory alone (her slug is
		// known here), so no `notChecked` case applies.
		expect({
			plan: plan.outputs.map((json) => decision(json).slice(0, 2)),
			writes: planned(plan.outputs),
		}).toEqual({
			plan: real.outputs.map((json) => decision(json).slice(0, 2)),
			writes: real.writes,
		});
		expect(real.creations).toEqual([]);
	}, 60_000);
});
