// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned), run as its CLI runs:
// `conformance server --url <endpoint> --scenario <name> --spec-version <era> -o <dir>`, its verdicts
// read from checks.json. It needs Node 22, which the tests take from the npm registry (registry-node).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { registryNode } from "../support/registry-node.mjs";

/**
 * The suite per protocol era: its newest release, 0.1.16, knows revisions up to 2025-11-25; the
 * 2026-07-28 scenarios exist only in the 0.2.0 alphas, installed beside it under another name.
 */
export const SUITES: Record<string, { packageName: string; version: string }> = {
  "2025-11-25": { packageName: "@modelcontextprotocol/conformance", version: "0.1.16" },
  "2026-07-28": { packageName: "@modelcontextprotocol/conformance-next", version: "0.2.0-alpha.12" },
};

/** 0.1.16 uses fs.globSync (Node 22); the product itself stays on Node 20 and later. */
export const CONFORMANCE_NODE_MAJOR = 22;

/** The Node binary the suite runs on: the pinned Node 22 from the npm registry. */
export const conformanceNode = (): Promise<string> => registryNode(CONFORMANCE_NODE_MAJOR);

const require = createRequire(import.meta.url);

function conformanceCli(specVersion: string): string {
  const suite = SUITES[specVersion];
  if (!suite) throw new Error(`no conformance suite is pinned for ${specVersion}`);
  const packageFile = require.resolve(`${suite.packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(packageFile, "utf8")) as {
    version: string;
    bin: Record<string, string>;
  };
  if (manifest.version !== suite.version) {
    throw new Error(`${suite.packageName} ${manifest.version} is installed; the tests pin ${suite.version}`);
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

export interface SuiteOptions {
  /** The Node binary that runs the suite (conformanceNode()). */
  node: string;
  /** The protocol revision ("era") whose scenarios and expectations apply, e.g. "2025-11-25". */
  specVersion: string;
}

/** Runs the suite's CLI with `args`; killed after `timeoutMs`. */
async function runCli(
  options: SuiteOptions,
  args: string[],
  home: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  const cli = conformanceCli(options.specVersion);
  const child = spawn(options.node, [cli, ...args, "--spec-version", options.specVersion], {
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  return { code, output };
}

/** Runs one server scenario of the era against an MCP endpoint. */
export async function runScenario(
  url: string,
  scenario: string,
  options: SuiteOptions,
  timeoutMs = 45_000,
): Promise<ScenarioRun> {
  const outDir = mkdtempSync(join(tmpdir(), "conformance-"));
  try {
    const { code, output } = await runCli(
      options,
      ["server", "--url", url, "--scenario", scenario, "-o", outDir],
      outDir,
      timeoutMs,
    );
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

/** The names of every server scenario the suite has for the era (`conformance list --server`). */
export async function serverScenarios(options: SuiteOptions): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), "conformance-"));
  try {
    const { code, output } = await runCli(options, ["list", "--server"], home, 30_000);
    if (code !== 0) throw new Error(`conformance list failed (${code}): ${output}`);
    return [...output.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * "id: STATUS (message)" for each check that did not succeed, leaving out INFO (a remark, not a
 * verdict) and the checks `ignored` names, each with why it does not apply.
 */
export function problems(run: ScenarioRun, ignored: Record<string, string> = {}): string[] {
  return run.checks
    .filter((check) => check.status !== "SUCCESS" && check.status !== "INFO" && !(check.id in ignored))
    .map((check) => `${check.id}: ${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ""}`);
}
