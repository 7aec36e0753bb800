#!/usr/bin/env node
// npm run fleet: several replicas of each tool server behind a load balancer, sharing state in Redis.
import { readFlagsOrExit } from "../common/argv.js";
import { FLEET_PORTS_TAKEN, type Fleet, MissingProgramsError, startFleet } from "../fleet/fleet.js";
import { missingProgramsLine } from "../fleet/programs.js";
import { SANDBOX_SERVERS } from "../sandbox/servers.js";
import { PortInUseError } from "../sandbox/tool-server-process.js";

const DEFAULT_PORT = 3200;
const DEFAULT_REPLICAS = 3;
const MAX_REPLICAS = 16;
const serverPorts = SANDBOX_SERVERS.map(
  (server, index) => `${server.serverName} on the first port${index ? ` + ${index}` : ""}`,
).join(", ");

const USAGE = `Usage: lab-fleet [--port <n>] [--replicas <n>]

Starts a fleet on this machine, against the emulated services with demo data: Redis (Debian's
redis-server, nothing saved to disk), several replicas of each MCP tool server sharing their state
(rate budgets, the lab platform app's token, cursors) through it, and HAProxy (Debian's haproxy) in
front of each server's replicas: round-robin with health checks on /healthz; 2025-11-25 MCP
sessions stay with the replica that opened them. Prints each server's one endpoint, how to connect,
and the replicas' health URLs. Ctrl-C stops everything. Needs redis-server and haproxy installed
(sudo apt-get install redis-server haproxy), no account and no settings.

Options:
  --port <n>       first port of the load balancer (default ${DEFAULT_PORT}; 0 picks free ports); it takes
                   ${FLEET_PORTS_TAKEN} consecutive ports: ${serverPorts}, then its statistics page
  --replicas <n>   replicas of each server, 1 to ${MAX_REPLICAS} (default ${DEFAULT_REPLICAS}); they listen on free ports
  -h, --help       show this help

A replica or redis-server that stops by itself is reported and the others go on, as in a real
fleet: HAProxy takes the replica out of rotation, the replicas fall back to their own state.

Exit codes: 0 stopped by Ctrl-C or SIGTERM, 1 haproxy stopped by itself, 2 a bad option, a port in
use, redis-server or haproxy missing, or a start-up failure.`;

function fail(message: string): never {
  process.stderr.write(`lab-fleet: ${message}\n`);
  process.exit(2);
}

const values = readFlagsOrExit("lab-fleet", USAGE, { port: "string", replicas: "string" });
const rawPort = values.port ?? String(DEFAULT_PORT);
const lastFirstPort = 65536 - FLEET_PORTS_TAKEN;
if (!/^\d+$/.test(rawPort) || Number(rawPort) > lastFirstPort || (Number(rawPort) < 1 && rawPort !== "0")) {
  fail(`--port must be a whole number from 1 to ${lastFirstPort} (or 0 for free ports), got "${rawPort}"`);
}
const rawReplicas = values.replicas ?? String(DEFAULT_REPLICAS);
if (!/^\d+$/.test(rawReplicas) || Number(rawReplicas) < 1 || Number(rawReplicas) > MAX_REPLICAS) {
  fail(`--replicas must be a whole number from 1 to ${MAX_REPLICAS}, got "${rawReplicas}"`);
}
const basePort = Number(rawPort);

let stopping = false;
const starting = startFleet({
  basePort,
  replicas: Number(rawReplicas),
  onExit: ({ kind, name, code, signal }) => {
    if (stopping) return;
    const how = signal ?? `exit code ${code}`;
    if (kind === "haproxy") {
      process.stderr.write(`lab-fleet: haproxy stopped by itself (${how}); stopping everything\n`);
      return void stop(1);
    }
    // What a fleet is for: the others go on. A replica stopped on purpose (Ctrl-C in the terminal
    // reaches the replicas too, maybe before it reaches us) needs no word.
    if (
      kind === "replica" &&
      (code === 0 || signal === "SIGINT" || signal === "SIGTERM" || signal === "SIGHUP")
    )
      return;
    process.stderr.write(
      kind === "redis"
        ? `lab-fleet: redis-server stopped by itself (${how}); the replicas go on with their own state\n`
        : `lab-fleet: ${name} stopped by itself (${how}); HAProxy sends its requests to the other replicas\n`,
    );
  },
});

/** Stops once, after the start has finished or failed, so nothing is left behind. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write("Stopping lab-fleet...\n");
  const fleet: Fleet | undefined = await starting.catch(() => undefined);
  await fleet?.stop();
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));

try {
  const fleet = await starting;
  if (!stopping) process.stdout.write(`${fleet.banner}\n`);
} catch (error) {
  if (stopping) process.exit(0);
  if (error instanceof MissingProgramsError) fail(missingProgramsLine(error.programs));
  if (error instanceof PortInUseError) {
    const range = `${basePort}-${basePort + FLEET_PORTS_TAKEN - 1}`;
    fail(
      error.port === basePort
        ? `port ${error.port} is in use; choose another with --port <n>`
        : `port ${error.port} (for ${error.serverName}) is in use; the fleet takes ports ${range}: ` +
            "choose another first port with --port <n>",
    );
  }
  fail((error as Error).message.split("\n")[0] ?? "could not start");
}
