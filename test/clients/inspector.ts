// The MCP Inspector's CLI (a client we did not write), pinned, run as a user runs it: one process per
// request, `--format json`, its exit code telling success (0), a tool error (5), missing auth (3),
// an unreachable server (4) or another failure (1).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runToEnd } from "../support/processes.js";

export const INSPECTOR_VERSION = "2.12.0";

const require = createRequire(import.meta.url);

/** The launcher script of the installed Inspector, checked to be the pinned version. */
export function inspectorLauncher(): string {
  const packageFile = require.resolve("@modelcontextprotocol/inspector/package.json");
  const manifest = JSON.parse(readFileSync(packageFile, "utf8")) as {
    version: string;
    bin: Record<string, string>;
  };
  if (manifest.version !== INSPECTOR_VERSION) {
    throw new Error(
      `@modelcontextprotocol/inspector ${manifest.version} is installed; the tests pin ${INSPECTOR_VERSION}`,
    );
  }
  return join(dirname(packageFile), manifest.bin["mcp-inspector"] as string);
}

export interface InspectorRun {
  code: number | null;
  /** The one JSON object `--format json` prints on stdout, when it printed one. */
  result?: unknown;
  /** The error envelope it prints on stderr on failure. */
  error?: { code: string; message: string };
  stdout: string;
  stderr: string;
}

/** `mcp-inspector --cli --format json <args>`, killed after `timeoutMs`. */
export async function inspect(args: string[], timeoutMs = 45_000): Promise<InspectorRun> {
  // A home of its own, removed after: the Inspector may keep a catalog and OAuth state in ~/.mcp-inspector.
  const home = mkdtempSync(join(tmpdir(), "inspector-home-"));
  try {
    return await run(args, home, timeoutMs);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function run(args: string[], home: string, timeoutMs: number): Promise<InspectorRun> {
  const { code, stdout, stderr } = await runToEnd(
    process.execPath,
    [inspectorLauncher(), "--cli", "--format", "json", ...args],
    // No NODE_EXTRA_CA_CERTS of the test run: a stdio server gets what -e gives it, as from a user.
    { PATH: process.env.PATH ?? "", HOME: home, CI: "true" },
    timeoutMs,
  );
  return {
    code,
    stdout,
    stderr,
    result: lastJson(stdout, "result"),
    error: lastJson(stderr, "error") as InspectorRun["error"],
  };
}

/** The last line of `text` that is a JSON object with `key`, unwrapped. */
function lastJson(text: string, key: string): unknown {
  for (const line of text.trim().split("\n").reverse()) {
    try {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (value && typeof value === "object" && key in value) return value[key];
    } catch {
      // Not JSON: a status line.
    }
  }
  return undefined;
}

/** The text of the one text block of a tools/call result. */
export function toolText(result: unknown): { text: string; isError: boolean } {
  const { content, isError } = result as {
    content: Array<{ type: string; text?: string }>;
    isError?: boolean;
  };
  if (content.length !== 1 || content[0]?.type !== "text")
    throw new Error(`not one text block: ${JSON.stringify(content)}`);
  return { text: content[0].text ?? "", isError: isError === true };
}
