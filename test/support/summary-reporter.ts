// Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI reads whatever the runner.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
      // A file that failed outside its tests (a beforeAll, an import) leaves them skipped: it counts as one.
      const failedTests = [...module.children.allTests()].filter((t) => t.result().state === "failed");
      if (module.state() === "failed" && failedTests.length === 0) counts.failed++;
    }
    counts.failed += unhandledErrors.length;
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
