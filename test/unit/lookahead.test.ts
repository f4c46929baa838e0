/**
 * The router's lookahead on its own: what it prepares ahead, how far, and what it keeps of a
 * failed preparation (the engine tests in test/engine/lookahead.test.ts run it inside n8n).
 */
import { sleep } from 'n8n-workflow';

import { Lookahead } from '../../nodes/Recruiting/actions/lookahead';

const turns = async (count: number) => {
	for (let turn = 0; turn < count; turn++) await sleep(0);
};
/** Some time for the lookahead to prepare more than it should, if it would. */
const settled = async () => await sleep(30);
/** Waits (up to 5 s, for a loaded machine) until `done()` holds. */
const until = async (done: () => boolean) => {
	for (let waited = 0; !done() && waited < 5000; waited += 5) await sleep(5);
};

describe('Lookahead', () => {
	it('prepares the items after the taken ones in the background, never more than the window ahead', async () => {
		const prepared: number[] = [];
		const lookahead = new Lookahead(100, 3, async (index) => {
			prepared.push(index);
			return index * 10;
		}, () => false);
		await expect(lookahead.take(0)).resolves.toEqual({ ok: true, value: 0 });
		await until(() => prepared.length >= 4);
		await settled();
		// Item 0 was prepared when taken; 1, 2 and 3 ahead of it, and no more.
		expect(prepared).toEqual([0, 1, 2, 3]);
		await expect(lookahead.take(1)).resolves.toEqual({ ok: true, value: 10 });
		await until(() => prepared.length >= 5);
		await settled();
		expect(prepared).toEqual([0, 1, 2, 3, 4]);
		await lookahead.close();
		expect(prepared).toHaveLength(5);
	});

	it('keeps a failed preparation as the item\'s outcome, for when it is taken', async () => {
		const lookahead = new Lookahead(3, 2, async (index) => {
			if (index === 1) throw new Error('item 1 is invalid');
			return index;
		}, () => false);
		await lookahead.take(0);
		await settled();
		const outcome = await lookahead.take(1);
		expect(outcome.ok).toBe(false);
		expect(outcome.ok ? undefined : (outcome.error as Error).message).toBe('item 1 is invalid');
		await expect(lookahead.take(2)).resolves.toEqual({ ok: true, value: 2 });
		await lookahead.close();
	});

	it('prepares nothing more once the run halts, and close() waits for a preparation under way', async () => {
		let halted = false;
		let finished = 0;
		const prepared: number[] = [];
		const lookahead = new Lookahead(50, 10, async (index) => {
			prepared.push(index);
			await turns(3);
			finished++;
			return index;
		}, () => halted);
		await lookahead.take(0);
		halted = true;
		await settled();
		await lookahead.close();
		// At most the one preparation that had started when it halted, and it has finished.
		expect(prepared.length).toBeLessThanOrEqual(2);
		expect(finished).toBe(prepared.length);
	});

	it('an item taken before it was prepared ahead is prepared once, when taken', async () => {
		const prepared: number[] = [];
		const lookahead = new Lookahead(4, 2, async (index) => {
			prepared.push(index);
			return index;
		}, () => false);
		const all = await Promise.all([0, 1, 2, 3].map(async (index) => await lookahead.take(index)));
		expect(all.map((outcome) => (outcome.ok ? outcome.value : -1))).toEqual([0, 1, 2, 3]);
		await lookahead.close();
		expect(prepared.sort()).toEqual([0, 1, 2, 3]);
	});
});
