#!/usr/bin/env node
// npm start: the whole product on this machine, against emulated services.
import { parseArgs } from "node:util";
import { startSandbox } from "../sandbox/sandbox.js";

const USAGE = `Usage: lab-sandbox [--port <n>]

Starts the emulated remote services with demo data and the MCP tool servers on them, over
streamable HTTP on 127.0.0.1, and prints the endpoints and client configuration.

  --port <n>   port of the first tool server (default 3100, or LAB_SANDBOX_PORT)
  --help       show this help`;

function fail(message: string): never {
  process.stderr.write(`lab-sandbox: ${message}\n`);
  process.exit(2);
}

let values: { port?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { port: { type: "string" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  fail(`${(error as Error).message.split("\n")[0]} (see --help)`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const rawPort = values.port ?? process.env.LAB_SANDBOX_PORT ?? "3100";
if (!/^\d+$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535) {
  fail(`--port must be a whole number from 1 to 65535, got "${rawPort}"`);
}

try {
  const sandbox = await startSandbox({ basePort: Number(rawPort) });
  process.stdout.write(`${sandbox.banner}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write("Stopping lab-sandbox...\n");
    await sandbox.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
} catch (error) {
  const message = (error as Error).message;
  if (/port \d+ is in use/.test(message)) {
    fail(`port ${rawPort} is in use; choose another with --port <n> or LAB_SANDBOX_PORT`);
  }
  fail(message.split("\n")[0] ?? "could not start");
}
