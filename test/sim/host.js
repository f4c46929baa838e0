// What the simulation takes from Node itself (plain JS: n8n's lint rules, which forbid `process`
// and `setImmediate`, apply to every .ts file of the repository).
module.exports = {
	/** CLAIMS_SEEDS, CLAIMS_SEED, CLAIMS_SCENARIO, CLAIMS_TRACE as given (undefined: not set). */
	setting: (name) => process.env[name],
	/** Writes a line to the test's standard output. */
	print: (line) => process.stdout.write(`${line}\n`),
	/** Resolves after every pending promise reaction of this turn ran (the simulation's step). */
	settled: () => new Promise((resolve) => setImmediate(resolve)),
};
