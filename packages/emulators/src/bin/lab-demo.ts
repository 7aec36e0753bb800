#!/usr/bin/env node
// npm run demo: the sandbox on free ports, a scripted tour of it by a real MCP client, then a clean stop.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { readFlagsOrExit } from "../common/argv.js";
import { runTour } from "../demo/tour.js";
import { type Sandbox, startSandbox } from "../sandbox/sandbox.js";
import { proxyNotice } from "../sandbox/servers.js";

/** The whole tour, start-up included, ends by then. */
const DEMO_TIMEOUT_MS = 120_000;

const USAGE = `Usage: lab-demo [--download-dir <dir>]

Starts the sandbox (the emulators with demo data and the tool servers, on free loopback ports),
then an MCP client tours labdata_mcp and protocols_mcp as an agent would: lists the tools, verifies
the credentials, searches and pages through DNA sequences, exports one as GenBank, searches
protocols, reads steps and downloads a PDF, printing what the agent sees. Stops everything at the
end. Exit code 0 when every step worked, 1 otherwise.

  --download-dir <dir>  where the client saves the PDF resource (default: a temp folder, removed)
  -h, --help            show this help`;

const values = readFlagsOrExit("lab-demo", USAGE, { "download-dir": "string" });

const out = (line: string) => process.stdout.write(`${line}\n`);
const tempDir = values["download-dir"] ? undefined : mkdtempSync(join(tmpdir(), "lab-demo-"));
const downloadDir = values["download-dir"] ? resolve(values["download-dir"]) : (tempDir as string);
// The servers' own log lines are kept, and shown only if something goes wrong.
let serverLogs = "";
const logs = new PassThrough();
logs.on("data", (chunk: Buffer) => {
  serverLogs += chunk.toString();
});

out("lab-mcp demo: starting the emulators and the tool servers...");
const starting: Promise<Sandbox> = startSandbox({
  basePort: 0,
  logs,
  // Ctrl-C in a terminal reaches the tool servers too (one process group), maybe before it reaches us.
  onServerExit: (name, code, signal) =>
    void (code === 0 || signal
      ? finish(130, "interrupted")
      : finish(1, `${name} stopped by itself (exit code ${code})`)),
});

let finished = false;
/** Stops everything once, after the start has finished or failed, so that nothing is left behind. */
async function finish(code: number, problem?: string): Promise<never> {
  if (!finished) {
    finished = true;
    if (problem) {
      process.stderr.write(`lab-demo: ${problem}\n`);
      if (serverLogs.trim()) process.stderr.write(`Tool server logs:\n${serverLogs}`);
    }
    const sandbox = await starting.catch(() => undefined);
    await sandbox?.stop();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
  process.exit(code);
}
const timer = setTimeout(
  () => void finish(1, `the demo did not finish within ${DEMO_TIMEOUT_MS / 1000} s`),
  DEMO_TIMEOUT_MS,
);
timer.unref();
process.on("SIGINT", () => void finish(130, "interrupted"));
process.on("SIGHUP", () => void finish(129, "the terminal closed"));
process.on("SIGTERM", () => void finish(143, "terminated"));

try {
  const sandbox = await starting;
  const url = (serverName: string) => {
    const server = sandbox.servers.find((candidate) => candidate.serverName === serverName);
    if (!server) throw new Error(`the sandbox runs no ${serverName}`);
    out(`  ${serverName.padEnd(13)}  ${server.url}   ${server.identity}`);
    return server.url;
  };
  const endpoints = { labdata: url("labdata_mcp"), protocols: url("protocols_mcp") };
  for (const line of proxyNotice()) out(line);
  out("An MCP client (the SDK's Client over streamable HTTP) now does what an agent would.");
  out("Lines after '>' are its tool calls; lines after '|' are what the agent reads (trimmed here).");
  await runTour(endpoints, out, downloadDir);
  out("");
  out(
    tempDir
      ? "Done. The client saved the PDF in a temp folder, now removed: --download-dir <dir> keeps it."
      : `Done. The PDF is in ${downloadDir}.`,
  );
  out("Start the same servers for your own client with: npm start");
  await finish(0);
} catch (error) {
  await finish(1, (error as Error).message);
}
