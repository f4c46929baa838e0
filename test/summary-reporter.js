// Prints one plain closing line that CI reads: "jest: N passed, N failed, N skipped".
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const line = `jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
		process.stdout.write(`\n${line}\n`);
	}
}
module.exports = SummaryReporter;
