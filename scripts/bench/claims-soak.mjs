#!/usr/bin/env node
// The claims of the creation journal with real timers (a soak, not a test): n8n processes, each
// its own journal (the built dist/), over one list that loses updates as n8n's deduplication
// store does (a read, a real wait, then the whole list written back). It prints, per round, the
// rows each process won and the rows won twice, and exits 1 when a row was won twice. The
// deterministic proof is test/unit/claimsSimulation.test.ts; this shows the same on real time.
//
//   npm run bench:claims [-- --rounds 5 --rows 80 --processes 2 --gap-ms 2-12]
//   npm run bench:claims -- --smoke        (one short round, as CI runs it)
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { Shared } = require(path.join(here, '..', '..', 'dist', 'nodes', 'Recruiting', 'memory', 'registry.js'));

const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '5' },
		rows: { type: 'string', default: '80' },
		processes: { type: 'string', default: '2' },
		'gap-ms': { type: 'string', default: '2-12' },
		smoke: { type: 'boolean', default: false },
	},
});
const rounds = values.smoke ? 1 : Number(values.rounds);
const rowCount = values.smoke ? 20 : Number(values.rows);
const processes = Number(values.processes);
const [gapLow, gapHigh] = values['gap-ms'].split('-').map(Number);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const gap = () => gapLow + Math.random() * ((gapHigh ?? gapLow) - gapLow);

/** One scope's list: each call reads it, waits, then writes back what it read with its change. */
function lostUpdateList() {
	let list = [];
	return {
		async checkProcessedAndRecord(items) {
			const before = [...list];
			await sleep(gap());
			const seen = new Set(before);
			const answer = { new: [], processed: [] };
			for (const item of items.map(String)) {
				if (seen.has(item)) answer.processed.push(item);
				else {
					answer.new.push(item);
					before.push(item);
					seen.add(item);
				}
			}
			list = before;
			return answer;
		},
		async removeProcessed(items) {
			const before = [...list];
			await sleep(gap());
			const leaving = new Set(items.map(String));
			list = before.filter((value) => !leaving.has(value));
		},
		async clearAllProcessedItems() {
			list = [];
		},
		async getProcessedDataCount() {
			return list.length;
		},
	};
}

async function execution(shared, keys) {
	const won = new Set();
	let next = 0;
	// One execution's visit of the process's journal (nodes/Recruiting/memory/journal.ts).
	const visit = shared.journal.begin();
	await Promise.all(
		Array.from({ length: 4 }, async () => {
			while (next < keys.length) {
				const key = keys[next++];
				if (await shared.journal.claim(key, visit)) {
					won.add(key);
					shared.journal.keep(key, visit);
				}
			}
		}),
	);
	await shared.journal.end(visit);
	return won;
}

let twice = 0;
let refused = 0;
const started = Date.now();
for (let round = 0; round < rounds; round++) {
	const list = lostUpdateList();
	const keys = Array.from({ length: rowCount }, (_, index) => `r${round}-${index}`);
	const all = Array.from({ length: processes }, () => {
		const shared = new Shared();
		shared.journal.use(list);
		return shared;
	});
	const wins = await Promise.all(all.map(async (shared, index) => await execution(shared, index % 2 ? [...keys].reverse() : keys)));
	const doubled = keys.filter((key) => wins.filter((won) => won.has(key)).length > 1);
	const none = keys.filter((key) => wins.every((won) => !won.has(key))).length;
	twice += doubled.length;
	refused += none;
	console.log(`round ${round + 1}: ${keys.length} rows, won per process ${wins.map((won) => won.size).join(' / ')}, won twice ${doubled.length}${doubled.length ? ` (${doubled.join(', ')})` : ''}, refused by every process ${none}`);
}
console.log(`claims soak: ${rounds} round(s) x ${rowCount} rows x ${processes} processes, store calls ${gapLow}-${gapHigh} ms: won twice ${twice}, refused by every process ${refused}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(twice > 0 ? 1 : 0);
