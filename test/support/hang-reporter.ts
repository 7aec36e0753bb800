// Names a test file that runs far longer than any file should, and ends the run when one runs past the
// limit. A test stuck in a synchronous call (execFileSync on a child that never exits) blocks its worker,
// so no test or hook timeout fires, and CI would wait silently for its own limit: this runs in the main
// process, whose timers still fire. LAB_MCP_TEST_STUCK_MINUTES sets the limit (default 20).
import type { Reporter, TestCase, TestModule } from "vitest/node";

const MINUTE = 60_000;
const REPORT_AFTER = 5 * MINUTE;
const limitMinutes = Number.parseFloat(process.env.LAB_MCP_TEST_STUCK_MINUTES ?? "");
const STUCK_AFTER = (Number.isFinite(limitMinutes) && limitMinutes > 0 ? limitMinutes : 20) * MINUTE;

interface Running {
  started: number;
  test: string;
}

export default class HangReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  /** The last file to end, and when: a run that waits with no file running is stuck between files. */
  private lastEnded = { file: "(none yet)", at: Date.now() };

  onTestRunStart() {
    this.timer = setInterval(() => this.check(), MINUTE);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule) {
    this.running.set(module.moduleId, { started: Date.now(), test: "(before its first test)" });
  }

  onTestCaseReady(test: TestCase) {
    const running = this.running.get(test.module.moduleId);
    if (running) running.test = test.fullName;
  }

  onTestModuleEnd(module: TestModule) {
    this.running.delete(module.moduleId);
    this.lastEnded = { file: module.moduleId, at: Date.now() };
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  private check() {
    const now = Date.now();
    if (this.running.size === 0 && now - this.lastEnded.at >= STUCK_AFTER) {
      const minutes = Math.round((now - this.lastEnded.at) / MINUTE);
      process.stdout.write(
        `\ntests: stuck: no file ran for ${minutes} min after ${this.lastEnded.file}; ending the run\n`,
      );
      process.exit(1);
    }
    for (const [file, { started, test }] of this.running) {
      const minutes = Math.round((now - started) / MINUTE);
      if (now - started >= STUCK_AFTER) {
        process.stdout.write(`\ntests: stuck: ${file} ran ${minutes} min, at "${test}"; ending the run\n`);
        process.exit(1);
      }
      if (now - started >= REPORT_AFTER) {
        process.stdout.write(`\ntests: still running after ${minutes} min: ${file}, at "${test}"\n`);
      }
    }
  }
}
