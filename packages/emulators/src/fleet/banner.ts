// What lab-fleet prints once everything serves: one endpoint per server, how to connect, the replicas.
import { pretty } from "../sandbox/client-config.js";
import type { SandboxEmulators } from "../sandbox/emulators.js";
import { INSPECTOR } from "../sandbox/sandbox.js";
import type { FleetServer } from "./fleet-server.js";

/** Claude Desktop speaks stdio to its servers: this bridge carries it to an HTTP endpoint. */
export const MCP_REMOTE = "mcp-remote@0.15.1";

export function fleetBanner(fleet: {
  servers: FleetServer[];
  emulators: SandboxEmulators;
  redisUrl: string;
  statePrefix: string;
  statsUrl: string;
}): string {
  const { servers, emulators } = fleet;
  const width = Math.max(
    ...servers.flatMap((server) => server.replicas.map((replica) => replica.name.length)),
  );
  const entries = <T>(make: (server: FleetServer) => T) =>
    Object.fromEntries(servers.map((server) => [server.key, make(server)]));
  const first = servers[0];
  const replicas = servers[0]?.replicas.length ?? 0;
  return [
    `lab-fleet is running: ${replicas} replicas of each server behind HAProxy, sharing state in Redis. Ctrl-C stops everything.`,
    "",
    "MCP endpoints (streamable HTTP, through the load balancer):",
    ...servers.map((server) => `  ${server.serverName.padEnd(width)}  ${server.url}   ${server.identity}`),
    "",
    "Replicas (health and readiness):",
    ...servers.flatMap((server) =>
      server.replicas.map(
        (replica) => `  ${replica.name.padEnd(width)}  ${replica.healthUrl}  ${replica.readyUrl}`,
      ),
    ),
    "",
    `Shared state: ${fleet.redisUrl}, keys under ${fleet.statePrefix}, secrets encrypted with a key made for this run`,
    `Load balancer statistics: ${fleet.statsUrl}`,
    `Emulated services (demo data, new at every start): lab data platform ${emulators.labdata.demo.baseUrl},`,
    `  protocol repository ${emulators.protocols.url}, example service ${emulators.example.url}`,
    "",
    "Try it:",
    first
      ? `  npx ${INSPECTOR} --cli ${first.url} --transport http --method tools/list`
      : "  (no tool server)",
    "",
    "Claude Desktop (through the mcp-remote bridge), in claude_desktop_config.json:",
    pretty({ mcpServers: entries((server) => ({ command: "npx", args: ["-y", MCP_REMOTE, server.url] })) }),
    "",
    "VS Code (HTTP), in .vscode/mcp.json:",
    pretty({ servers: entries((server) => ({ type: "http", url: server.url })) }),
    "",
    "Cursor (HTTP), in ~/.cursor/mcp.json:",
    pretty({ mcpServers: entries((server) => ({ url: server.url })) }),
  ].join("\n");
}
