// The steps of `<bin> check` and how they are printed: one line per step, what works or what failed,
// and under a failure the one thing to do about it.
import { ActionableError, ConnectionError, errorText, RemoteStatusError } from "../errors.js";
import { NetworkError } from "../http/network-error.js";

export interface CheckStep {
  name: string;
  ok: boolean;
  /** What was found (ok) or what failed. */
  detail: string;
  /** What to do about a failure. */
  fix?: string;
  /** Informational: shown, never a failure (e.g. no rate headers seen). */
  note?: boolean;
}

export const passed = (name: string, detail: string): CheckStep => ({ name, ok: true, detail });
export const failed = (name: string, detail: string, fix?: string): CheckStep => ({
  name,
  ok: false,
  detail,
  ...(fix ? { fix } : {}),
});

/** What to say for each refusal of the remote, by status; the service names its own settings. */
export interface StatusFixes {
  401: string;
  403?: string;
  404?: string;
}

/** A failed step from what a call threw: the text the agent would read, and the fix. */
export function stepFromError(name: string, error: unknown, fixes: StatusFixes): CheckStep {
  if (error instanceof NetworkError) return failed(name, `${error.name}: ${error.reason}`, error.remedy);
  const text = errorText(error);
  if (error instanceof RemoteStatusError) {
    const fix = (fixes as unknown as Record<number, string | undefined>)[error.status];
    return failed(
      name,
      text,
      fix ?? `the remote answered ${error.status}; check the address and the credential`,
    );
  }
  if (error instanceof ActionableError) return failed(name, text);
  if (error instanceof ConnectionError) return failed(name, `${text} (${error.message})`);
  return failed(name, text);
}

const WIDTH = 12;

/** The report as lines, and the last line: all passed, or how many failed. */
export function formatReport(command: string, steps: CheckStep[]): string {
  const lines = [`${command} check`];
  for (const step of steps) {
    const mark = step.ok ? "ok  " : "FAIL";
    lines.push(`  ${mark}  ${step.name.padEnd(WIDTH)} ${step.detail}`);
    if (step.fix) lines.push(`        ${"".padEnd(WIDTH)} fix: ${step.fix}`);
  }
  const failures = steps.filter((step) => !step.ok).length;
  lines.push(
    failures === 0
      ? "All checks passed: the server will reach the remote with these settings."
      : `${failures} check${failures === 1 ? "" : "s"} failed: fix the first one and run '${command} check' again.`,
  );
  return lines.join("\n");
}
