/**
 * A review of Adopt Given Slugs and Forget Each Input Row (530bad1: Adopt's memory part is memory/way.ts `adoptThroughMemory`,
 * run by upsert/memoryActions.ts `adoptRow`; Forget Each Input Row takes the row's turn, upsert.operation.ts `prepare`), written
 * against docs/create-or-update.md (Memory Action, Adopt Given Slugs, Forget, Match By) and docs/sync-memory.md ("A row's life").
 * Each test runs Candidate → Create or Update through n8n's real engine against the sandbox over real HTTP; a second n8n process
 * (a queue worker) is modelled as aliasBreak2.test.ts and planBreak2.test.ts do it (test/helpers/processes.ts): each process
 * keeps its own registry, n8n's deduplication store and the saved static data are shared.
 *
 * The promises tried: Adopt decides as documented in each case (a row known as that candidate, a row held after a creation
 * without an answer under the other Match By key, a row known only through n8n's store, a changed row, a row with a Sync
 * State) and the Sync Rows runs after it send what the docs say (never a record twice, never a second candidate, a content
 * counted as sent only while it is the last one sent); Adopt and Forget of a row twice in one input and while another execution
 * of the node syncs it; Forget of one of two rows sharing a phone leaves the other as it was.
 *
 * On the code it was written against, 4 of its 6 tests failed. Fixed since: a Forget or an Adopt of a row no longer lets go
 * another row's hold under a shared phone (memory/way.ts `forgetWithTwins`, `adoptThroughMemory`; registry.ts keeps each other
 * key's holds by the row they hold); Adopt with a Sync State keeps the records this memory knows it added to that candidate (as
 * Sync Rows does with a given state). Open, and stated in docs/sync-memory.md ("Reading without writing"): a content sent by a
 * process that did not know the row's content before leaves that earlier content counted as sent (`it.failing` below).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Harness } from '../helpers/harness';
import { inProcess, useProcesses } from '../helpers/processes';
import { mayExist, syncRuns, worker } from '../helpers/sync';
import { adoptBy, BY_EMAIL, BY_PHONE, CANDIDATE, forgetBy, STORED_NO_ANSWER, withOptions } from '../helpers/matchBy';
import { ALICE, emailCredential, useSandbox } from '../helpers/sandbox';
import { creationEmails, until } from '../helpers/upsert';

const sandbox = useSandbox();

useProcesses(sandbox);

const harness = () => new Harness(emailCredential(sandbox(), ALICE));

const { run, storedOf, candidateOf } = syncRuns(sandbox);

/** The IT skills of a candidate, sorted ("SQL:3"). */
const skillsOf = (slug: unknown) => (candidateOf(slug)?.records.itSkills ?? []).map((skill) => `${skill.skill_name}:${skill.skill_level_id}`).sort();

const person = (tag: string, phone: string, more: IDataObject = {}): IDataObject => ({ email: `afb.${tag}@example.test`, phone, first: tag, city: 'Bonn', skills: '', ...more });

/** The row's Candidate Slug and Sync State mapped from the sheet, as the sync examples write them back. */
const FROM_ROW: INodeParameters = { candidateSlug: '={{ $json.slug }}', syncState: '={{ $json.state }}' };

// ---------------------------------------------------------------------------------------------
// 1. Two people sharing a phone: Forget or Adopt of one of them
// ---------------------------------------------------------------------------------------------

describe('adopt/forget break: two rows sharing a phone', () => {
	it('Zoe known by Email; Xaver (same phone) held by Email (stored, answer lost); Zoe forgotten (Forget Now, her candidate deleted): a queue worker by Phone refuses Xaver ("may already exist"), it does not create him again; Zoe\'s next run creates her once', async () => {
		const h = harness();
		const phone = '+49 30 5581101';
		const zoe = person('fgt.zoe', phone);
		const xaver = person('fgt.xaver', phone);
		expect((await run(h, [zoe], BY_EMAIL)).actions).toEqual(['created']);
		sandbox().setFaults(STORED_NO_ANSWER);
		const held = await run(h, [xaver], BY_EMAIL);
		sandbox().setFaults({});
		expect(mayExist(held.outputs[0])).toBe(true);
		expect(storedOf(xaver.email)).toHaveLength(1);
		const forgot = await run(h, [zoe], forgetBy(BY_EMAIL));
		expect(forgot.outputs[0]).toMatchObject({ action: 'forgotten', known: true });
		inProcess('worker');
		const onWorker = await run(h, [xaver], BY_PHONE, worker);
		inProcess('main');
		const zoeAgain = await run(h, [zoe], BY_EMAIL);
		// docs/create-or-update.md, Match By: "A row held after a creation without an answer is refused under its other key too: … as "may
		// already exist" in any other [process] and after a restart (its other key is claimed in n8n's deduplication store then); Forget Each
		// Input Row by either key in that process, or Adopt Given Slugs, lets it go". Nobody forgot or adopted Xaver's row: only Zoe's.
		// FAILS on the current code: the worker creates Xaver a second time. Cause: memory/way.ts `forgetWithTwins` takes the shared phone key
		// for Zoe's twin (the memory recalls her slug there, remembered before Xaver's hold) and forgets it (rows.ts `forget` → journal.ts
		// `forget` removes its claim, registry.ts `forgotByUser` drops `unansweredOther`), without asking whether that key holds another
		// row's creation of unknown outcome (`heldUnderOther`), as its no-slug branch does for a key that knows another candidate.
		expect({
			xaverOnWorker: [onWorker.actions[0], mayExist(onWorker.outputs[0]), onWorker.creations],
			xaverStored: storedOf(xaver.email).length,
			zoe: [zoeAgain.actions[0], zoeAgain.creations],
		}).toEqual({ xaverOnWorker: ['failed', true, []], xaverStored: 1, zoe: ['created', [zoe.email]] });
	}, 60_000);

	it('Zoe known by Email; Xaver (same phone) held by Email (stored, answer lost); the sheet adopted with Zoe\'s slug (Adopt Given Slugs); then by Phone in the same process: Xaver refused as held, Zoe\'s candidate keeps her e-mail and name', async () => {
		const h = harness();
		const phone = '+49 30 5581201';
		const zoe = person('adp.zoe', phone);
		const xaver = person('adp.xaver', phone);
		const made = await run(h, [zoe], BY_EMAIL);
		expect(made.actions).toEqual(['created']);
		const slugZoe = made.outputs[0].slug;
		sandbox().setFaults(STORED_NO_ANSWER);
		expect(mayExist((await run(h, [xaver], BY_EMAIL)).outputs[0])).toBe(true);
		sandbox().setFaults({});
		const adopted = await run(h, [{ ...zoe, slug: slugZoe }], adoptBy(BY_EMAIL));
		expect(adopted.actions).toEqual(['adopted']);
		expect(String(adopted.outputs[0].message)).toMatch(/already knew it as this candidate/);
		const byPhone = await run(h, [xaver], BY_PHONE);
		// docs/create-or-update.md, Match By: a held row is "refused under its other key too: as held in the n8n process that sent it (a
		// candidate remembered there under that key, another person's sharing the phone …, is not taken for it)"; "A new row that shares the
		// phone of a row held in this process is refused as held there"; only Forget or Adopt of that row lets it go. aliasBreak2.test.ts
		// asserts this after Zoe's scheduled Sync Rows run; Adopt of Zoe's row must not do more than that run.
		// FAILS on the current code: Xaver's row updates Zoe's candidate (her e-mail and first name become Xaver's). Cause: memory/way.ts
		// `adoptThroughMemory` calls `letGoOther` on every key of the adopted row, the shared phone too, which lifts Xaver's hold under it
		// (index.ts `unansweredOther`); `throughMemory` then takes the slug recalled under the phone (Zoe's) as Xaver's candidate.
		expect({
			xaver: [byPhone.actions[0], mayExist(byPhone.outputs[0])],
			writes: byPhone.writes,
			zoe: [candidateOf(slugZoe)?.email, candidateOf(slugZoe)?.first_name],
		}).toEqual({ xaver: ['failed', true], writes: [], zoe: [zoe.email, zoe.first] });
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 2. Adopt's cases, and the Sync Rows runs after it
// ---------------------------------------------------------------------------------------------

describe('adopt/forget break: Adopt Given Slugs, case by case', () => {
	it('a row with its Sync State, written back before its last run added a record (the state is one run old): Adopt with slug and state, then Sync Rows with the sheet as it is: the record is not posted a second time', async () => {
		const h = harness();
		const row = person('state', '+49 30 5581301', { skills: 'SQL: 3' });
		const first = await run(h, [row], { ...BY_EMAIL, ...FROM_ROW });
		expect(first.actions).toEqual(['created']);
		const slug = first.outputs[0].slug;
		// The sheet keeps the first run's slug and state; the row gains a record; that run's output is not written back.
		const sheet = { ...row, skills: 'SQL: 3, Go: 2', slug, state: first.outputs[0].syncState };
		const more = await run(h, [sheet], { ...BY_EMAIL, ...FROM_ROW });
		expect(more.writes).toEqual([`POST ${CANDIDATE}/it-skill`]);
		const adopted = await run(h, [sheet], { ...adoptBy(BY_EMAIL), syncState: '={{ $json.state }}' });
		expect(adopted.actions).toEqual(['adopted']);
		const next = await run(h, [sheet], { ...BY_EMAIL, ...FROM_ROW });
		// docs/create-or-update.md, Adopt Given Slugs: "Nothing is created or posted twice; a row it knew as that candidate keeps what it knew".
		// Without the Adopt, the same sheet sends nothing: Sync Rows keeps "a record the memory knows it added to this same candidate"
		// (upsert.operation.ts `knownOf`; syncState.test.ts "the same row given twice with the same state").
		// FAILS on the current code: the next run posts Go a second time (the service cannot remove records). Cause: memory/way.ts
		// `adoptThroughMemory` takes the given state first and `remember`s it as the row's whole entry, over what the memory knew it added to
		// this same candidate (the `known` branch, which keeps it, is never reached with a Sync State).
		expect({ next: next.writes, skills: skillsOf(slug) }).toEqual({ next: [], skills: ['Go:2', 'SQL:3'] });
	}, 60_000);

	it.failing('open (stated): a row created on a queue worker, changed since, adopted here (taken as changed: the next run sends its profile); after that update another worker without the slug gets the row as it first was: refused, not `unchanged`', async () => {
		const h = harness();
		const row = person('moved', '+49 30 5581401', { skills: 'SQL: 3' });
		inProcess('worker-1');
		const made = await run(h, [row], BY_EMAIL, worker);
		expect(made.actions).toEqual(['created']);
		const slug = made.outputs[0].slug;
		inProcess('main');
		const changed = { ...row, city: 'Köln' };
		const adopted = await run(h, [{ ...changed, slug }], adoptBy(BY_EMAIL));
		expect(String(adopted.outputs[0].message)).toMatch(/taken as added, its profile sent by the next run/);
		const next = await run(h, [changed], BY_EMAIL);
		const again = await run(h, [changed], BY_EMAIL);
		// The next run sends only the profile, once: as documented.
		expect({ next: [next.actions[0], next.writes], again: [again.actions[0], again.writes], city: candidateOf(slug)?.city }).toEqual({
			next: ['updated', [`PUT ${CANDIDATE}`]],
			again: ['unchanged', []],
			city: 'Köln',
		});
		inProcess('worker-2');
		const back = await run(h, [row], BY_EMAIL, worker);
		// docs/create-or-update.md: a worker that does not know the row "is `unchanged` when n8n's deduplication store says it was last sent
		// with this content, and refused ("may already exist") rather than created twice when it changed"; docs/sync-memory.md (A row's life):
		// `unchanged` "when its content is the one last sent in full"; rowLife.test.ts "a changed row sent in full: the content it had before
		// no longer counts as sent". The content last sent is Köln; Bonn was sent before it.
		// FAILS (kept as it.failing, stated in docs/sync-memory.md): `unchanged` (the candidate keeps Köln, the row says Bonn: a change lost without a word). Cause: the Bonn
		// content pair written by worker 1 stays in n8n's store. Adopt's `changed` branch (memory/way.ts `adoptThroughMemory`) leaves the
		// row without its content print (`d`), so the update after it (rows.ts `settled` → journal.ts `done(key, print, before)`) has no
		// `before` to take off; only the process that sent Bonn knew it.
		expect({ action: back.actions[0], refused: mayExist(back.outputs[0]), writes: back.writes }).toEqual({ action: 'failed', refused: true, writes: [] });
	}, 60_000);

	it('held by Phone (its creation stored, the answer lost, its IT skill never sent); adopted by Email, the other key, in the same process: its record of unknown outcome is listed, not posted, Send Unknown-Outcome Records Again posts it once, by Phone it is then `unchanged`; one candidate', async () => {
		const h = harness();
		const row = person('heldphone', '+49 30 5581501', { skills: 'SQL: 3' });
		sandbox().setFaults(STORED_NO_ANSWER);
		const held = await run(h, [row], BY_PHONE);
		sandbox().setFaults({});
		expect(mayExist(held.outputs[0])).toBe(true);
		const [stored] = storedOf(row.email);
		expect(skillsOf(stored.slug)).toEqual([]);
		const adopted = await run(h, [{ ...row, slug: stored.slug }], adoptBy(BY_EMAIL));
		const byMail = await run(h, [row], BY_EMAIL);
		const resent = await run(h, [row], withOptions(BY_EMAIL, { resendUnknownRecords: true }));
		const byPhone = await run(h, [row], BY_PHONE);
		// docs/create-or-update.md, Adopt Given Slugs: "a row whose creation this n8n process sent without an answer (since it started) has its
		// records of unknown outcome instead …: the next runs list them in outcomeUnknown, Options → Send Unknown-Outcome Records Again sends them".
		const posts = (writes: string[]) => writes.filter((write) => write.startsWith('POST'));
		expect({
			adopted: [adopted.actions[0], /1 record of unknown outcome/.test(String(adopted.outputs[0].message))],
			byMail: [(byMail.outputs[0].outcomeUnknown as unknown[] | undefined)?.length ?? 0, posts(byMail.writes)],
			resent: posts(resent.writes),
			byPhone: [byPhone.actions[0], byPhone.writes, byPhone.outputs[0].slug],
			skills: skillsOf(stored.slug),
			stored: storedOf(row.email).length,
		}).toEqual({
			adopted: ['adopted', true],
			byMail: [1, []],
			resent: [`POST ${CANDIDATE}/it-skill`],
			byPhone: ['unchanged', [], stored.slug],
			skills: ['SQL:3'],
			stored: 1,
		});
	}, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 3. Adopt and Forget while another execution of the node syncs the row, each row twice in its input
// ---------------------------------------------------------------------------------------------

describe('adopt/forget break: overlapping executions of one n8n process', () => {
	it('a long Sync Rows run (8 new rows, then R and K changed) is under way; meanwhile one execution adopts R (twice in its input) and another forgets K (Forget Now, twice): R never created, its record once; K created exactly once after the forget; the runs after all that are `unchanged`', async () => {
		const h = harness();
		const r = person('ov.r', '+49 30 5581601', { skills: 'SQL: 3' });
		const k = person('ov.k', '+49 30 5581602');
		inProcess('worker');
		const madeR = await run(h, [r], BY_EMAIL, worker);
		inProcess('main');
		const madeK = await run(h, [k], BY_EMAIL);
		expect([madeR.actions, madeK.actions]).toEqual([['created'], ['created']]);
		const [slugR, slugK] = [madeR.outputs[0].slug, madeK.outputs[0].slug];
		const news = Array.from({ length: 8 }, (_, index) => person(`ov.new${index}`, `+49 30 55817${index}0`));
		const [r2, k2] = [{ ...r, city: 'Köln' }, { ...k, city: 'Köln' }];
		const from = sandbox().requests.length;
		sandbox().setFaults({ latencyMs: 150, paths: [CANDIDATE] });
		const long = run(h, [...news, r2, k2], withOptions(BY_EMAIL, { concurrency: 1 }));
		expect(await until(() => sandbox().requests.slice(from).some((request) => request.method === 'POST' && request.path === CANDIDATE))).toBe(true);
		const [adopt, forget] = await Promise.all([run(h, [{ ...r2, slug: slugR }, { ...r2, slug: slugR }], adoptBy(BY_EMAIL)), run(h, [k2, k2], forgetBy(BY_EMAIL))]);
		const sync = await long;
		sandbox().setFaults({});
		await run(h, [r2, k2], BY_EMAIL);
		const last = await run(h, [r2, k2], BY_EMAIL);
		const creationsOf = (email: unknown) => creationEmails(sandbox(), from).filter((created) => created === email).length;
		// docs/create-or-update.md: Adopt "Nothing is created or posted twice"; Forget Now forgets "at once, for every process" and "the next
		// Sync Rows run creates it again"; "Executions that overlap in one n8n process take turns per row: each row is created once"; the same
		// row twice in the input is forgotten once, then found forgotten (upsert.operation.ts `prepare`). Observed order (not asserted: timing):
		// the adopt and the forget took R's and K's turns before the long run reached them, which then updated R and created K. Passes.
		expect({
			news: sync.actions.slice(0, 8),
			adopt: adopt.actions,
			forget: forget.outputs.map((json) => [json.action, json.known]),
			forgotSlug: forget.outputs[0].slug,
			rCreated: creationsOf(r.email),
			rSkills: skillsOf(slugR),
			kCreated: creationsOf(k.email),
			last: [last.actions, last.writes],
			slugs: [last.outputs[0].slug, last.outputs[1].slug === slugK],
		}).toEqual({
			news: Array(8).fill('created'),
			adopt: ['adopted', 'adopted'],
			forget: [
				['forgotten', true],
				['forgotten', false],
			],
			forgotSlug: slugK,
			rCreated: 0,
			rSkills: ['SQL:3'],
			kCreated: 1,
			last: [['unchanged', 'unchanged'], []],
			slugs: [slugR, false],
		});
	}, 60_000);
});
