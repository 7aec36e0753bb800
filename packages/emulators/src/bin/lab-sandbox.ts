#!/usr/bin/env node
// npm start: the whole product on this machine, against emulated services.
import { readFlagsOrExit } from "../common/argv.js";
import { type Sandbox, startSandbox } from "../sandbox/sandbox.js";
import { PORTS_TAKEN, SANDBOX_SERVERS } from "../sandbox/servers.js";
import { PortInUseError } from "../sandbox/tool-server-process.js";

const DEFAULT_PORT = 3100;
const serverPorts = SANDBOX_SERVERS.map(
  (server) => `${server.serverName} on the first port${server.portOffset ? ` + ${server.portOffset}` : ""}`,
).join(", ");

const USAGE = `Usage: lab-sandbox [--port <n>]

Starts the emulated remote services (the lab data platform with its OpenID provider, the protocol
repository, the example service) with demo data, and the MCP tool servers signed in to them, over
streamable HTTP on 127.0.0.1. Prints each endpoint, the demo identities and client configuration
for Claude Desktop, VS Code and Cursor. Ctrl-C stops everything. Needs no account and no settings.

Options:
  --port <n>   first port of the tool servers (default ${DEFAULT_PORT}; 0 picks free ports); the sandbox
               takes ${PORTS_TAKEN} consecutive ports: ${serverPorts}
  -h, --help   show this help

Environment:
  LAB_SANDBOX_PORT        the same as --port (the flag wins)
  PROTOCOLS_DOWNLOAD_DIR  where protocols_mcp saves PDFs (default ~/Downloads/lab-mcp-protocols)

Other LABDATA_*, PROTOCOLS_*, EXAMPLE_* and MCP_* settings of your shell are not passed on: the
sandbox's servers always use the demo identities. The emulators' CA certificate is made at start
in the OS temp folder and removed on exit.

Exit codes: 0 stopped by Ctrl-C or SIGTERM, 1 a tool server stopped by itself, 2 a bad option, a
port in use, or a start-up failure.`;

function fail(message: string): never {
  process.stderr.write(`lab-sandbox: ${message}\n`);
  process.exit(2);
}

const values = readFlagsOrExit("lab-sandbox", USAGE, { port: "string" });
const portSetting = values.port !== undefined ? "--port" : "LAB_SANDBOX_PORT";
const rawPort = values.port ?? process.env.LAB_SANDBOX_PORT ?? String(DEFAULT_PORT);
const lastFirstPort = 65536 - PORTS_TAKEN;
if (!/^\d+$/.test(rawPort) || Number(rawPort) > lastFirstPort || (Number(rawPort) < 1 && rawPort !== "0")) {
  fail(
    `${portSetting} must be a whole number from 1 to ${lastFirstPort} (or 0 for free ports), got "${rawPort}"`,
  );
}
const basePort = Number(rawPort);

let stopping = false;
const starting = startSandbox({
  basePort,
  onServerExit: (serverName, code, signal) => {
    if (stopping) return;
    // Ctrl-C in a terminal reaches the tool servers too (one process group), maybe before it reaches us.
    if (code === 0 || signal === "SIGINT" || signal === "SIGTERM" || signal === "SIGHUP") return void stop(0);
    process.stderr.write(
      `lab-sandbox: ${serverName} stopped by itself (${signal ?? `exit code ${code}`}); stopping everything\n`,
    );
    void stop(1);
  },
});

/** Stops once, after the start has finished or failed, so nothing is left behind. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write("Stopping lab-sandbox...\n");
  const sandbox: Sandbox | undefined = await starting.catch(() => undefined);
  await sandbox?.stop();
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));

try {
  const sandbox = await starting;
  if (!stopping) process.stdout.write(`${sandbox.banner}\n`);
} catch (error) {
  if (stopping) process.exit(0);
  if (error instanceof PortInUseError) {
    const range = `${basePort}-${basePort + PORTS_TAKEN - 1}`;
    fail(
      error.port === basePort
        ? `port ${error.port} is in use; choose another with --port <n> or LAB_SANDBOX_PORT`
        : `port ${error.port} (for ${error.serverName}) is in use; the sandbox takes ports ${range}: ` +
            "choose another first port with --port <n> or LAB_SANDBOX_PORT",
    );
  }
  fail((error as Error).message.split("\n")[0] ?? "could not start");
}
