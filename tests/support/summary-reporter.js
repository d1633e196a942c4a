// Jest reporter that ends the run with one plain line, `N passed, N failed, N skipped`, which CI
// reads; a suite that cannot even start (a compile error, a failing beforeAll) counts as failed.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

module.exports = SummaryReporter;
