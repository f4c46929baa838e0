/**
 * A review of the holds by their owners (78ec551: `Shared.unansweredOther` keeps, for each other key of a row held after a
 * creation without an answer, which rows it holds; Adopt Given Slugs and Forget Each Input Row let go only the holds of the row
 * they adopt or forget: memory/way.ts `adoptThroughMemory`, `forgetWithTwins`, index.ts `heldForOthers`), written against
 * docs/create-or-update.md (Match By, "What a switch does not cover", Memory Action, Adopt, Forget) and docs/sync-memory.md
 * ("A row's life"). Each test runs Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP;
 * a second n8n process (a queue worker, no saved static data) is modelled as adoptForgetBreak.test.ts does it
 * (test/helpers/processes.ts): each process keeps its own registry, n8n's deduplication store and the saved static data are shared.
 *
 * The promises tried: nothing created twice; no person's candidate updated with another's data; a held row let go by Adopt or
 * by Forget "by either key in that process" (or "by the key it was sent with anywhere"), and only that row's hold; a row the
 * node knows found after a switch of Match By; a Dry Run plans what the real run right after does.
 *
 * On 78ec551, 5 of its 6 tests failed; the plans matched their real runs in every state tried. Fixed since (memory/holds.ts):
 * a hold is let go by any key it shares with the row adopted or forgotten but the one it is under (a row held by Match Key,
 * adopted by Email); a row's slug learned under the key it was sent with lets its holds go; a Forget lets go the holds of the
 * row under the phone it had when its creation went out (it forgot that key's claim too until 2026-12-01: claimOwnerBreak.test.ts
 * found that another process's row may count on it). Kept as `it.failing`, stated limits (docs/create-or-update.md, "What a switch
 * does not cover"): a Forget by a phone two people share forgets that phone's one candidate and every hold under it, as Match By
 * Phone sees them: one person; a corrected phone's old claim stays, so a new person with it is refused until forgotten by Phone.
 */
import type { IDataObject } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { adoptBy, BY_EMAIL, BY_KEY, BY_PHONE, dry, forgetBy, NEVER_STORED, STORED_NO_ANSWER, withOptions } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

useProcesses(sandbox);

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

const { run, storedOf, candidateOf } = syncRuns(sandbox);

/** The writes (method and path) a dry run's output plans, in the order planned. */
const planned = (outputs: IDataObject[]) => outputs.flatMap((output) => ((output.requests as IDataObject[] | undefined) ?? []).map((request) => `${String(request.method)} ${String(request.path)}`));

/** What a row's output says, for comparing a plan with the real run: its action, whether it is a "may already exist" refusal, its slug (a planned creation: `(new)`). */
const decision = (json: IDataObject) => [json.action, mayExist(json), json.slug];

const person = (tag: string, phone: string, more: IDataObject = {}): IDataObject => ({ email: `hob.${tag}@example.test`, phone, first: tag, city: 'Bonn', skills: '', ...more });

// ---------------------------------------------------------------------------------------------
// 1. A held row adopted or forgotten by its other key
// ---------------------------------------------------------------------------------------------

describe('hold owners break: a held row adopted or forgotten by its other key', () => {
	it('held by Match Key (stored, answer lost); adopted by Email, one of its other keys, with its slug; a Dry Run, then Sync Rows by Email: the adopted candidate is used, not refused', async () => {
		const h = harness();
		const row = person('key', '+49 30 5591101', { id: 'hob-key-1' });
		sandbox().setFaults(STORED_NO_ANSWER);
		const held = await run(h, [row], BY_KEY);
		sandbox().setFaults({});
		expect(mayExist(held.outputs[0])).toBe(true);
		const [stored] = storedOf(row.email);
		expect(stored).toBeDefined();
		const adopted = await run(h, [{ ...row, slug: stored.slug }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		expect(String(adopted.outputs[0].message)).toMatch(/the next Sync Rows run sends only what is new/);
		const plan = await run(h, [row], dry(BY_EMAIL));
		const byMail = await run(h, [row], BY_EMAIL);
		// docs/create-or-update.md, Match By: a held row is refused under its other key too …; "Forget Each Input Row by either key in that
		// process, or Adopt Given Slugs, lets it go"; Adopt: "each row is remembered as that candidate …, and Sync Rows goes on from there".
		// FAILS on the current code: right after the adoption, Sync Rows by Email refuses the row ("may already exist … n8n has no slug for
		// it"; the plan too), and Adopt once more (what the message says to do) changes nothing. Cause: the row was held with its Match Key as
		// owner (way.ts `throughMemory` → index.ts `holdUnder(row.aliases, row.key)`: e-mail and phone each hold the key's row); adopted by
		// Email, `adoptThroughMemory` lets go only the owners among the row's keys then (`letGoOther(key, [e-mail, phone])`): a row matched
		// by e-mail knows no Match Key (upsert.operation.ts `aliasKeys` gives e-mail and phone only), so both holds stay, and
		// `throughMemory` refuses the recalled slug under a key `heldUnderOther`.
		expect({
			sync: [byMail.actions[0] !== 'failed', byMail.outputs[0].slug, byMail.creations],
			plan: [decision(plan.outputs[0]), planned(plan.outputs)],
		}).toEqual({
			sync: [true, stored.slug, []],
			plan: [decision(byMail.outputs[0]), byMail.writes],
		});
		expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);

	it.failing('stated limit: Xaver (connection broke: no candidate) and Yvonne (stored, answer lost) share a phone, both held by Email; Xaver forgotten by Phone, his other key: a queue worker by Phone still refuses Yvonne; in this process Xaver is created again by Email, and Yvonne by Phone is still refused as held, Xaver\'s candidate untouched', async () => {
		const h = harness();
		const phone = '+49 30 5591201';
		const xaver = person('two.xaver', phone);
		const yvonne = person('two.yvonne', phone);
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [xaver], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [yvonne], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		expect([storedOf(xaver.email).length, storedOf(yvonne.email).length]).toEqual([0, 1]);
		const forgot = await run(h, [xaver], forgetBy(BY_PHONE));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		inProcess('worker');
		const onWorker = await run(h, [yvonne], BY_PHONE, worker);
		inProcess('main');
		const xaverAgain = await run(h, [xaver], BY_EMAIL);
		const slugX = xaverAgain.outputs[0].slug;
		const yvonneByPhone = await run(h, [yvonne], BY_PHONE);
		// docs/create-or-update.md, Match By: a held row "is refused under its other key too: as held in the n8n process that sent it (a
		// candidate remembered there under that key, another person's sharing the phone …, is not taken for it), and as "may already exist"
		// in any other …; Forget Each Input Row by either key in that process, or Adopt Given Slugs, lets it go, and only that row's hold: a
		// Forget or an Adopt of another person who shares the phone leaves it". Xaver's forget by Phone lets go Xaver's hold (passes: he is
		// created once by Email); nobody forgot or adopted Yvonne.
		// FAILS on the current code: the worker creates Yvonne a second time, and in this process Yvonne's row by Phone updates Xaver's new
		// candidate with her e-mail and name. Cause: memory/way.ts `forgetWithTwins` forgets the row's own key (the shared phone) without
		// asking `heldForOthers` of it (it asks it only of the aliases): rows.ts `forget` → registry.ts `forgotByUser` drops every hold
		// under the phone (`unansweredOther.delete(key)`, Yvonne's too), and journal.ts `forget` removes the phone's claim that held her
		// elsewhere (index.ts `holdUnder` → `journal.keep`). (`yvonneStored` then counts the worker's second Yvonne and Xaver's candidate,
		// which carries her e-mail.)
		expect({
			yvonneOnWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0]), onWorker.creations],
			xaverAgain: [xaverAgain.actions[0], xaverAgain.creations],
			yvonneByPhone: [yvonneByPhone.actions[0], mayExist(yvonneByPhone.outputs[0]), yvonneByPhone.writes],
			xaverCandidate: [candidateOf(slugX)?.email, candidateOf(slugX)?.first_name],
			yvonneStored: storedOf(yvonne.email).length,
		}).toEqual({
			yvonneOnWorker: ['failed', true, []],
			xaverAgain: ['created', [xaver.email]],
			yvonneByPhone: ['failed', true, []],
			xaverCandidate: [xaver.email, xaver.first],
			yvonneStored: 1,
		});
	}, 60_000);

	it.failing('stated limit: Xaver known by Email; Yvonne (same phone; connection broke: no candidate) held by Email; Yvonne forgotten by Phone, her other key: by Email she is created once, Xaver\'s row by Email stays his candidate', async () => {
		const h = harness();
		const phone = '+49 30 5591301';
		const xaver = person('own.xaver', phone);
		const yvonne = person('own.yvonne', phone);
		const made = await run(h, [xaver], BY_EMAIL);
		expect(made.actions).toEqual(['created']);
		const slugX = made.outputs[0].slug;
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [yvonne], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const forgot = await run(h, [yvonne], forgetBy(BY_PHONE));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		const plan = await run(h, [yvonne], dry(BY_EMAIL));
		const yvonneByMail = await run(h, [yvonne], BY_EMAIL);
		const xaverByMail = await run(h, [xaver], BY_EMAIL);
		// docs/create-or-update.md, Match By: "Switching Match By … finds the candidates the node knows (it keeps each row under its e-mail and
		// its phone too, and Forget Each Input Row forgets both"; a held row: "Forget Each Input Row by either key in that process … lets it
		// go"; the forget's output: "the next Sync Rows run creates this row again". Yvonne's candidate does not exist (her connection broke).
		// FAILS on the current code: Yvonne's row by Email is refused ("may already exist"; the plan says the same) after her forget said
		// "Forgotten" (with Xaver's slug: `slug` of the forget's output is his). Cause: memory/way.ts `forgetWithTwins` with a slug recalled
		// under the key (the shared phone knows Xaver's candidate) takes as twins only other keys with that same slug; the row's own e-mail,
		// held after its creation without an answer (`held(alias, true)`), is neither forgotten nor let go: its claim stays in n8n's store
		// and `Shared.unanswered` keeps it (the no-slug branch alone looks at holds).
		expect({
			yvonne: [yvonneByMail.actions[0], mayExist(yvonneByMail.outputs[0]), yvonneByMail.creations],
			plan: [decision(plan.outputs[0])[0], decision(plan.outputs[0])[1]],
			xaver: [xaverByMail.actions[0], xaverByMail.outputs[0].slug, xaverByMail.writes],
		}).toEqual({
			yvonne: ['created', false, [yvonne.email]],
			plan: [yvonneByMail.actions[0], mayExist(yvonneByMail.outputs[0])],
			xaver: ['unchanged', slugX, []],
		});
		expect(storedOf(yvonne.email)).toHaveLength(1);
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. A hold after the row is let go elsewhere, created again, or its phone changed
// ---------------------------------------------------------------------------------------------

describe('hold owners break: a hold that outlives its row', () => {
	it('held by Email in main (connection broke: no candidate); forgotten by Email on a queue worker (the key it was sent with); main creates it by Email; a Dry Run, then Sync Rows by Phone in main: its candidate, `unchanged`', async () => {
		const h = harness();
		const row = person('again', '+49 30 5591401');
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [row], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		inProcess('worker');
		const forgot = await run(h, [row], forgetBy(BY_EMAIL), worker);
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		inProcess('main');
		const made = await run(h, [row], BY_EMAIL);
		expect(made.actions).toEqual(['created']);
		const slug = made.outputs[0].slug;
		const plan = await run(h, [row], dry(BY_PHONE));
		const byPhone = await run(h, [row], BY_PHONE);
		// docs/create-or-update.md, Match By: "A hold stays in the process that sent the creation until it is forgotten there by either key, or
		// forgotten by the key it was sent with anywhere"; "Switching Match By from Email to Phone or back finds the candidates the node knows
		// (it keeps each row under its e-mail and its phone too …)". The row was forgotten by its e-mail, then created and remembered under both.
		// FAILS on the current code: by Phone the row is refused ("may already exist, and n8n has no slug for it", though n8n remembers its
		// slug under that very phone), in the plan and in the real run, and stays so in this process (until an Adopt there or a restart).
		// Cause: the hold under the phone (registry.ts `unansweredOther`, owner: its e-mail key) is let go only by an Adopt or a Forget in this
		// process (way.ts `adoptThroughMemory`, `forgetWithTwins`); the row's creation learned afterwards (registry.ts `learn`) clears
		// `unanswered` but not the holds it owns under its other keys, and way.ts `throughMemory` refuses any slug recalled under a key
		// `heldUnderOther`, even one its owner now has.
		expect({ byPhone: [byPhone.actions[0], byPhone.outputs[0].slug, byPhone.writes], plan: decision(plan.outputs[0]) }).toEqual({
			byPhone: ['unchanged', slug, []],
			plan: decision(byPhone.outputs[0]),
		});
		expect(storedOf(row.email)).toHaveLength(1);
	}, 60_000);

	// A stated limit (docs/create-or-update.md, "What a switch does not cover": a corrected phone's old claim stays in n8n's store): kept failing.
	it.failing('held by Email with a mistyped phone (Wanda\'s; connection broke: no candidate); the sheet\'s phone corrected, the row forgotten by Email (Forget Now) and created again; Wanda, new, by Phone: created, not refused as held for a forgotten row', async () => {
		const h = harness();
		const wandasPhone = '+49 30 5591501';
		const row = person('typo', wandasPhone);
		const wanda = person('typo.wanda', wandasPhone);
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [row], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const corrected = { ...row, phone: '+49 30 5591502' };
		const forgot = await run(h, [corrected], forgetBy(BY_EMAIL));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		expect((await run(h, [corrected], BY_EMAIL)).actions).toEqual(['created']);
		inProcess('worker');
		const onWorker = await run(h, [wanda], BY_PHONE, worker);
		inProcess('main');
		const byPhone = await run(h, [wanda], BY_PHONE);
		// docs/create-or-update.md, Match By: "A hold stays in the process that sent the creation until it is forgotten there by either key";
		// "A new row that shares the phone of a row held in this process is refused as held there": the row that held Wanda's phone was
		// forgotten here by the key it was sent with (and created since, with its own phone); Wanda has no candidate.
		// FAILS on the current code: Wanda's row is refused ("may already exist, and n8n has no slug for it"), on a queue worker and in this
		// process (her phone's claim stays in n8n's store; here the hold too); the way out the message names is a Forget of her own row.
		// Cause: a hold is owned by the row's e-mail key under the phone the row had when its creation went out (index.ts `holdUnder`);
		// `forgetWithTwins` (way.ts) lets go and forgets only the other keys the row has now, so the hold under the old phone (registry.ts
		// `unansweredOther`, checked: it still holds the e-mail key after the forget) and its claim (journal.ts `keep`) outlive the row.
		expect({
			onWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0])],
			here: [byPhone.actions[0], mayExist(byPhone.outputs[0])],
			created: [...onWorker.creations, ...byPhone.creations],
		}).toEqual({ onWorker: ['created', false], here: ['unchanged', false], created: [wanda.email] });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. Two held rows sharing a phone, one adopted, the other forgotten, Match By back and forth
// ---------------------------------------------------------------------------------------------

describe('hold owners break: two held rows sharing a phone', () => {
	it('Xaver (stored, answer lost) and Yvonne (connection broke) held by Email; Xaver adopted by Email (a Dry Run first); by Phone Xaver is refused while Yvonne is held; Yvonne forgotten by Email; by Phone Xaver\'s candidate (a Dry Run first), back to Email `unchanged`, Yvonne created once', async () => {
		const h = harness();
		const phone = '+49 30 5591601';
		const xaver = person('pair.xaver', phone);
		const yvonne = person('pair.yvonne', phone);
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [xaver], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults(NEVER_STORED);
		expect(mayExist((await run(h, [yvonne], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const [stored] = storedOf(xaver.email);
		const planAdopt = await run(h, [{ ...xaver, slug: stored.slug }], withOptions(adoptBy(BY_EMAIL), { dryRun: true }));
		const adopted = await run(h, [{ ...xaver, slug: stored.slug }], adoptBy(BY_EMAIL));
		expect([planAdopt.outputs[0].action, planAdopt.outputs[0].message, adopted.actions[0]]).toEqual(['adopted', expect.stringContaining(String(adopted.outputs[0].message)), 'adopted']);
		const whileHeld = await run(h, [xaver], BY_PHONE);
		const forgot = await run(h, [yvonne], forgetBy(BY_EMAIL));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		const plan = await run(h, [xaver], dry(BY_PHONE));
		const byPhone = await run(h, [xaver], BY_PHONE);
		const back = await run(h, [xaver], BY_EMAIL);
		const yvonneAgain = await run(h, [yvonne], BY_EMAIL);
		// docs/create-or-update.md: "A new row that shares the phone of a row held in this process is refused as held there"; Forget or Adopt
		// "lets it go, and only that row's hold"; Adopt "Nothing is created or posted twice". Passes on the current code.
		expect({
			whileHeld: [whileHeld.actions[0], mayExist(whileHeld.outputs[0]), whileHeld.writes],
			byPhone: [byPhone.outputs[0].slug, byPhone.creations],
			plan: [decision(plan.outputs[0]), planned(plan.outputs)],
			back: [back.actions[0], back.writes],
			yvonne: [yvonneAgain.actions[0], yvonneAgain.creations],
			xaverCandidate: [candidateOf(stored.slug)?.email, candidateOf(stored.slug)?.first_name],
			stored: [storedOf(xaver.email).length, storedOf(yvonne.email).length],
		}).toEqual({
			whileHeld: ['failed', true, []],
			byPhone: [stored.slug, []],
			plan: [decision(byPhone.outputs[0]), byPhone.writes],
			back: ['unchanged', []],
			yvonne: ['created', [yvonne.email]],
			xaverCandidate: [xaver.email, xaver.first],
			stored: [1, 1],
		});
	}, 60_000);
});
