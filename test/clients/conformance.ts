// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned), run as its CLI runs:
// `conformance server --url <endpoint> --scenario <name> -o <dir>`, its verdicts read from checks.json.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** 0.1.16 needs Node 22 (fs.globSync); 0.1.13 runs the same server scenarios on Node 20. */
export const CONFORMANCE_VERSION = "0.1.13";

const require = createRequire(import.meta.url);

function conformanceCli(): string {
  const packageFile = require.resolve("@modelcontextprotocol/conformance/package.json");
  const manifest = JSON.parse(readFileSync(packageFile, "utf8")) as {
    version: string;
    bin: Record<string, string>;
  };
  if (manifest.version !== CONFORMANCE_VERSION) {
    throw new Error(
      `@modelcontextprotocol/conformance ${manifest.version} is installed; the tests pin ${CONFORMANCE_VERSION}`,
    );
  }
  return join(dirname(packageFile), manifest.bin.conformance as string);
}

export interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
  details?: unknown;
}

export interface ScenarioRun {
  code: number | null;
  checks: Check[];
  output: string;
}

/** Runs one server scenario against an MCP endpoint; killed after `timeoutMs`. */
export async function runScenario(url: string, scenario: string, timeoutMs = 45_000): Promise<ScenarioRun> {
  const outDir = mkdtempSync(join(tmpdir(), "conformance-"));
  try {
    const child = spawn(
      process.execPath,
      [conformanceCli(), "server", "--url", url, "--scenario", scenario, "-o", outDir],
      {
        env: { PATH: process.env.PATH ?? "", HOME: outDir, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const [code] = (await once(child, "exit")) as [number | null];
    clearTimeout(killer);
    const checks = readdirSync(outDir).flatMap((run) => {
      try {
        return JSON.parse(readFileSync(join(outDir, run, "checks.json"), "utf8")) as Check[];
      } catch {
        return [];
      }
    });
    return { code, checks, output };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** "id: STATUS (message)" for each check that did not succeed. */
export function problems(run: ScenarioRun): string[] {
  return run.checks
    .filter((check) => check.status !== "SUCCESS")
    .map((check) => `${check.id}: ${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ""}`);
}
