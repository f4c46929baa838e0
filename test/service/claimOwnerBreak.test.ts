/**
 * A review of who owns the claim under a held row's old phone (8334662: journal.ts `keep` tells `won` when its ask of a row's other
 * key wrote the claim; memory/holds.ts `OtherHolds` remembers such keys, `claimed`/`wroteClaim`; index.ts `onlyHoldsOf`; way.ts
 * `adoptThroughMemory` and `forgetWithTwins` forget the old phone's claim, for every process, only where it is the row's alone),
 * written against docs/create-or-update.md (Match By, "What a switch does not cover" and its bullet on a corrected e-mail or phone;
 * Memory Action: Adopt Given Slugs, Forget Each Input Row; Dry Run) and docs/sync-memory.md ("A row's life"). Each test runs
 * Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP; other n8n processes (queue workers, no
 * saved static data) are modelled as phoneChangeBreak2.test.ts does it (test/helpers/processes.ts).
 *
 * The promises tried: no candidate created twice for one person (under the Match By in use); "its claim there where that process
 * wrote it" goes, so a new person with that phone is created; "a claim another person's row made there first stays, so that person
 * is never created twice"; a held row "is refused under its other key too … as 'may already exist' in any other [process] … (its
 * other key is claimed in n8n's deduplication store then)".
 *
 * On 8334662, 5 of the 7 tests failed: four created a person twice (a claim this process wrote is one another process's row may
 * count on since; n8n's store cannot say whose a claim is), one refused a new person. The claim's removal was taken out: the old
 * phone's claim stays, its hold goes. The tests of duplicates pass; those that expect a new person with the old phone to be created
 * are the stated limit (docs/create-or-update.md), kept failing; its way out, a Forget of that person's row by Phone, is pinned last.
 */
import type { DeduplicationItemTypes, IDataObject } from 'n8n-workflow';

import { Harness, deduplicator } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { adoptBy, BY_EMAIL, BY_PHONE, dry, forgetBy, NEVER_STORED, STORED_NO_ANSWER } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

useProcesses(sandbox);

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

const { run, storedOf } = syncRuns(sandbox);

const person = (tag: string, phone: string, more: IDataObject = {}): IDataObject => ({ email: `cob.${tag}@example.test`, phone, first: tag, city: 'Kiel', skills: '', ...more });

/** What a row's output says of it: its action, whether it is a "may already exist" refusal, the creations its run sent. */
const outcome = (result: { outputs: IDataObject[]; creations: string[] }) => [result.outputs[0].action, mayExist(result.outputs[0]), result.creations];

afterEach(() => jest.restoreAllMocks());

// ---------------------------------------------------------------------------------------------
// 1. Another process relies on the claim this process wrote first
// ---------------------------------------------------------------------------------------------

describe('claim owner break: another process relies on the old phone\'s claim this process wrote', () => {
	it('Anna held by Email here with Ben\'s phone by mistake (stored, answer lost); Ben, new, created by Email on a queue worker (remembered there under his phone too); Anna\'s phone corrected, adopted here by Email: a third process by Phone refuses or finds Ben, never creates him twice', async () => {
		const h = harness();
		const bensPhone = '+49 431 7710101';
		const anna = person('made.anna', bensPhone);
		const ben = person('made.ben', bensPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		inProcess('worker');
		const benMade = await run(h, [ben], BY_EMAIL, worker);
		inProcess('main');
		expect(benMade.actions).toEqual(['created']);
		const [stored] = storedOf(anna.email);
		const adopted = await run(h, [{ ...anna, phone: '+49 431 7710102', slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		inProcess('third');
		const benByPhone = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		// docs/create-or-update.md, Match By: Phone identifies Ben's row; "What a correction does cover": "a claim another person's row made
		// there first stays, so that person is never created twice". Ben's row was kept under his phone on the worker (its claim asked as
		// kept, journal.ts `keep`: found there, Anna's); a process without his slug refuses him as "may already exist" (Match By: "after a
		// switch such rows are refused … until a run that knows their slugs … has run them once") — never a second candidate.
		// On 8334662 (a first form, taken out since): the third process creates Ben a second time. Cause: way.ts `adoptThroughMemory` forgets the phone's claim because
		// this process's ask wrote it (`onlyHoldsOf` → holds.ts `wroteClaim`), though the worker's row relies on it since.
		expect({ ben: outcome(benByPhone).slice(2), bensCandidates: storedOf(ben.email).length }).toEqual({ ben: [[]], bensCandidates: 1 });
	}, 60_000);

	it('Anna held by Email here with a phone by mistake (stored, answer lost); Carl, with that phone, held by Email on a queue worker after it (stored, answer lost); Anna\'s phone corrected, adopted here by Email: a third process by Phone refuses Carl as "may already exist", not created twice', async () => {
		const h = harness();
		const phone = '+49 431 7720101';
		const anna = person('held.anna', phone);
		const carl = person('held.carl', phone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		inProcess('worker');
		expect(mayExist((await run(h, [carl], BY_EMAIL, worker)).outputs[0])).toBe(true);
		inProcess('main');
		sandbox().setFaults({});
		expect([storedOf(anna.email).length, storedOf(carl.email).length]).toEqual([1, 1]);
		const [stored] = storedOf(anna.email);
		const adopted = await run(h, [{ ...anna, phone: '+49 431 7720102', slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		inProcess('third');
		const carlByPhone = await run(h, [carl], BY_PHONE, worker);
		inProcess('main');
		// docs/create-or-update.md, Match By: a held row "is refused under its other key too: … as 'may already exist' in any other [process]
		// and after a restart (its other key is claimed in n8n's deduplication store then)"; an Adopt lets go "only that row's hold". Carl is
		// held on the worker; nobody adopted or forgot him. (phoneChangeBreak2 tries the other order: Carl's hold first. Here Anna's came first.)
		// On 8334662 (a first form, taken out since): the third process creates Carl a second time. Cause: `adoptThroughMemory` forgets the phone's claim this process wrote, whatever
		// another process's hold counts on it (`onlyHoldsOf` asks this process's holds only).
		expect({ carl: outcome(carlByPhone), carlsCandidates: storedOf(carl.email).length }).toEqual({ carl: ['failed', true, []], carlsCandidates: 1 });
	}, 60_000);

	it('Anna held by Email here with Ben\'s phone by mistake (connection broke: no candidate); Ben, new, created by Email on a queue worker; Anna\'s phone corrected, forgotten here by Email: a third process by Phone never creates Ben twice', async () => {
		const h = harness();
		const bensPhone = '+49 431 7730101';
		const anna = person('forget.anna', bensPhone);
		const ben = person('forget.ben', bensPhone);
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		inProcess('worker');
		expect((await run(h, [ben], BY_EMAIL, worker)).actions).toEqual(['created']);
		inProcess('main');
		const forgot = await run(h, [{ ...anna, phone: '+49 431 7730102' }], forgetBy(BY_EMAIL));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		inProcess('third');
		const benByPhone = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		// As the first test, by Forget Each Input Row: "a claim another person's row made there first stays, so that person is never created
		// twice"; Ben's row counts on the phone's claim (kept under it on the worker).
		// On 8334662 (a first form, taken out since): the third process creates Ben a second time. Cause: way.ts `forgetWithTwins` takes the old phone as a twin by
		// `onlyHoldsOf` (this process's ask wrote the claim) and forgets it for every process.
		expect({ ben: outcome(benByPhone).slice(2), bensCandidates: storedOf(ben.email).length }).toEqual({ ben: [[]], bensCandidates: 1 });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. The `won` flag outlives the claim it was told of
// ---------------------------------------------------------------------------------------------

describe('claim owner break: the claim this process wrote was replaced since', () => {
	it('Anna held by Email here with Ben\'s phone by mistake (stored, answer lost); on a queue worker Ben by Phone is refused, forgotten by Phone (Forget Now), then created; Anna\'s phone corrected, adopted here: Ben by Phone in a third process is not created twice', async () => {
		const h = harness();
		const bensPhone = '+49 431 7740101';
		const anna = person('again.anna', bensPhone);
		const ben = person('again.ben', bensPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		inProcess('worker');
		const refused = await run(h, [ben], BY_PHONE, worker);
		expect(mayExist(refused.outputs[0])).toBe(true);
		// The refusal's way out for a row whose candidate does not exist (refusals.ts): Forget Each Input Row, then the next run creates it.
		expect((await run(h, [ben], forgetBy(BY_PHONE), worker)).outputs[0]).toMatchObject({ action: 'forgotten' });
		const benMade = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		expect(benMade.actions).toEqual(['created']);
		const [stored] = storedOf(anna.email);
		const adopted = await run(h, [{ ...anna, phone: '+49 431 7740102', slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		inProcess('third');
		const benAgain = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		// docs/create-or-update.md: "its claim there where that process wrote it" goes; the claim under Ben's phone now is Ben's own row's
		// (written by the worker when it created him by Phone, the key he is matched by), not the one this process wrote (the worker's
		// Forget took that off). A third process by Phone finds Ben `unchanged` (his content was written under that key).
		// On 8334662 (a first form, taken out since): the third process creates Ben a second time. Cause: holds.ts `wrote` keeps the phone from Anna's hold on (it goes only when the
		// last hold there goes), so `onlyHoldsOf` still says this process wrote the claim, and `adoptThroughMemory` forgets Ben's.
		expect({ ben: outcome(benAgain).slice(2), bensCandidates: storedOf(ben.email).length }).toEqual({ ben: [[]], bensCandidates: 1 });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. The claim written without a told win (a store call failed)
// ---------------------------------------------------------------------------------------------

describe('claim owner break: the keep\'s ask failed, the end wrote the claim', () => {
	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('Anna held by Email with Ben\'s phone by mistake (stored, answer lost), the store failing the ask of her phone; phone corrected, adopted: Ben, new, by Phone is created once', async () => {
		const h = harness();
		const bensPhone = '+49 431 7750101';
		const anna = person('fail.anna', bensPhone);
		const ben = person('fail.ben', bensPhone);
		const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
		// Fails the two tries of the first call that asks a claim other than the first one this run asked (the row's e-mail): the
		// keep's ask of her phone, after her creation went out without an answer.
		let first: string | undefined;
		let failures = 0;
		jest.spyOn(deduplicator, 'checkProcessedAndRecord').mockImplementation(async (items: DeduplicationItemTypes[], ...rest) => {
			const claims = items.map(String).filter((item) => item.startsWith('claim:'));
			first ??= claims[0];
			if (failures < 2 && claims.length === 1 && items.length === 1 && claims[0] !== first) {
				failures += 1;
				throw new Error('the deduplication store is unavailable');
			}
			return await record(items, ...rest);
		});
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		jest.restoreAllMocks();
		expect(failures).toBe(2);
		const [stored] = storedOf(anna.email);
		const adopted = await run(h, [{ ...anna, phone: '+49 431 7750102', slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		inProcess('worker');
		const benOnWorker = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		// docs/create-or-update.md, "What a correction does cover, for a row sent by Email": Adopt lets go "the hold under the phone the row
		// had when its creation went out, and its claim there where that process wrote it, so a new person with that phone is created".
		// This process wrote it (the end of Anna's run writes a kept key's claim that is missing: journal.ts `end`); nobody else had.
		// On 8334662 (a first form, taken out since): Ben, never sent, is refused ("may already exist"). Cause: journal.ts `keep` tells `won` only
		// when its own ask answered `mine`; an ask that failed leaves the key to the end, which writes the claim without telling it, so
		// holds.ts never counts it as this process's and `adoptThroughMemory` leaves it for good.
		expect({ ben: outcome(benOnWorker), bensCandidates: storedOf(ben.email).length }).toEqual({ ben: ['created', false, [ben.email]], bensCandidates: 1 });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 4. Pins: what the change does cover
// ---------------------------------------------------------------------------------------------

describe('claim owner break: pins', () => {
	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('Anna held by Email with Ben\'s phone by mistake (stored, answer lost); phone corrected; a Dry Run of the Adopt, then the Adopt; Ben, new, by Phone on a queue worker: created once; Anna by Email here: her candidate', async () => {
		const h = harness();
		const bensPhone = '+49 431 7760101';
		const anna = person('pin.anna', bensPhone);
		const ben = person('pin.ben', bensPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = storedOf(anna.email);
		const corrected = { ...anna, phone: '+49 431 7760102' };
		const plan = await run(h, [{ ...corrected, slug: stored.slug }], dry(adoptBy(BY_EMAIL)));
		const adopted = await run(h, [{ ...corrected, slug: stored.slug }], adoptBy(BY_EMAIL));
		expect([plan.outputs[0].action, adopted.actions[0]]).toEqual(['adopted', 'adopted']);
		inProcess('worker');
		const benOnWorker = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		const annaNow = await run(h, [corrected], BY_EMAIL);
		expect({
			ben: outcome(benOnWorker),
			anna: [annaNow.actions[0] !== 'failed', annaNow.outputs[0].slug, annaNow.creations],
			candidates: [storedOf(anna.email).length, storedOf(ben.email).length],
		}).toEqual({
			ben: ['created', false, [ben.email]],
			anna: [true, stored.slug, []],
			candidates: [1, 1],
		});
	}, 60_000);

	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('Anna and Carl held by Email here with the same phone (stored, answers lost); Anna\'s phone corrected and adopted: Carl is still refused by Phone on a queue worker; Carl\'s phone corrected and adopted too: Ben, new, with that phone, created once there', async () => {
		const h = harness();
		const phone = '+49 431 7770101';
		const anna = person('two.anna', phone);
		const carl = person('two.carl', phone);
		const ben = person('two.ben', phone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		expect(mayExist((await run(h, [carl], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [annas] = storedOf(anna.email);
		const [carls] = storedOf(carl.email);
		expect((await run(h, [{ ...anna, phone: '+49 431 7770102', slug: annas.slug }], adoptBy(BY_EMAIL))).actions).toEqual(['adopted']);
		inProcess('worker');
		const carlOnWorker = await run(h, [carl], BY_PHONE, worker);
		inProcess('main');
		expect((await run(h, [{ ...carl, phone: '+49 431 7770103', slug: carls.slug }], adoptBy(BY_EMAIL))).actions).toEqual(['adopted']);
		inProcess('worker');
		const benOnWorker = await run(h, [ben], BY_PHONE, worker);
		inProcess('main');
		expect({ carl: outcome(carlOnWorker), ben: outcome(benOnWorker), candidates: [storedOf(carl.email).length, storedOf(ben.email).length] }).toEqual({
			carl: ['failed', true, []],
			ben: ['created', false, [ben.email]],
			candidates: [1, 1],
		});
	}, 60_000);
});

describe('claim owner break: the way out of the old phone\'s claim', () => {
	it('Anna held by Email with Ben\'s phone by mistake (stored, answer lost); phone corrected, adopted; Ben, new, by Phone is refused "may already exist"; Ben\'s row forgotten by Phone (Forget Now): Ben created once, Anna\'s candidate untouched', async () => {
		const h = harness();
		const bensPhone = '+49 431 7790101';
		const anna = person('out.anna', bensPhone);
		const ben = person('out.ben', bensPhone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [anna], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = storedOf(anna.email);
		const adopted = await run(h, [{ ...anna, phone: '+49 431 7790102', slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		const refused = await run(h, [ben], BY_PHONE);
		expect(outcome(refused)).toEqual(['failed', true, []]);
		const forgotten = await run(h, [ben], forgetBy(BY_PHONE));
		expect(forgotten.actions).toEqual(['forgotten']);
		const created = await run(h, [ben], BY_PHONE);
		expect({ ben: outcome(created), bensCandidates: storedOf(ben.email).length, annas: storedOf(anna.email).map((one) => one.slug) }).toEqual({ ben: ['created', false, [ben.email]], bensCandidates: 1, annas: [stored.slug] });
	}, 60_000);
});
