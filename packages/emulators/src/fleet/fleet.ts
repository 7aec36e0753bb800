// The fleet: Redis, the emulators with demo data, several replicas of each tool server sharing state
// through that Redis, and HAProxy in front of each server's replicas on one loopback port.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type SandboxEmulators, startEmulators } from "../sandbox/emulators.js";
import { isPortFree } from "../sandbox/ports.js";
import { SANDBOX_SERVERS, type SandboxServerSpec } from "../sandbox/servers.js";
import { PortInUseError, startToolServer, type ToolServerProcess } from "../sandbox/tool-server-process.js";
import { fleetBanner } from "./banner.js";
import type { FleetServer } from "./fleet-server.js";
import { type FleetBalancer, startBalancer } from "./haproxy.js";
import { replicaName } from "./haproxy-config.js";
import type { HelperProcess } from "./helper-process.js";
import { prefixedLines } from "./lines.js";
import { type FleetProgram, findProgram } from "./programs.js";
import { type FleetRedis, freePort, startRedis } from "./redis.js";

/** The tool servers' bins: the built product package this package depends on (an npm workspace). */
const BIN_DIR = join(dirname(createRequire(import.meta.url).resolve("lab-mcp/package.json")), "dist", "bin");

/** The key prefix of the fleet's shared state in Redis. */
export const FLEET_STATE_PREFIX = "lab-mcp:fleet:";

/** How many consecutive ports the fleet takes from --port: one per server, then the statistics page. */
export const FLEET_PORTS_TAKEN = SANDBOX_SERVERS.length + 1;

export class MissingProgramsError extends Error {
  constructor(readonly programs: FleetProgram[]) {
    super(`${programs.join(" and ")} not found`);
    this.name = "MissingProgramsError";
  }
}

export interface FleetOptions {
  /** The load balancer's port for the first server; the others and the statistics page follow. 0: any free ports. */
  basePort: number;
  /** Replicas of each server. */
  replicas: number;
  /** Where the processes' log lines go, each prefixed with its name (default: this process's stderr). */
  logs?: NodeJS.WritableStream | "ignore";
  /** Told when a process of the fleet exits by itself while the fleet runs. */
  onExit?: (exit: FleetProcessExit) => void;
}

export interface FleetProcessExit {
  kind: "replica" | "redis" | "haproxy";
  /** E.g. "labdata_mcp-2", "redis". */
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export type { FleetReplica, FleetServer } from "./fleet-server.js";

export interface Fleet {
  servers: FleetServer[];
  emulators: SandboxEmulators;
  redisUrl: string;
  statePrefix: string;
  statsUrl: string;
  banner: string;
  stop(): Promise<void>;
}

/**
 * What a replica is given beyond the sandbox's settings: the lab data platform is reached as the demo's
 * OAuth app (client credentials), so that the fleet shares one access token and one app budget.
 */
function replicaSettings(spec: SandboxServerSpec, emulators: SandboxEmulators): Record<string, string> {
  if (spec.serverName !== "labdata_mcp") return spec.env(emulators);
  const { demo } = emulators.labdata;
  return {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_CLIENT_ID: demo.app.clientId,
    LABDATA_CLIENT_SECRET: demo.app.clientSecret,
  };
}

function identityOf(spec: SandboxServerSpec, emulators: SandboxEmulators): string {
  if (spec.serverName !== "labdata_mcp") return spec.identity(emulators);
  return `signed in as the OAuth app "${emulators.labdata.demo.app.name}" (client credentials)`;
}

/** The helper programs the fleet runs, or the error that names every missing one. */
function requirePrograms(): { redisServer: string; haproxy: string } {
  const redisServer = findProgram("redis-server");
  const haproxy = findProgram("haproxy");
  if (!redisServer || !haproxy) {
    const missing: FleetProgram[] = [];
    if (!redisServer) missing.push("redis-server");
    if (!haproxy) missing.push("haproxy");
    throw new MissingProgramsError(missing);
  }
  return { redisServer, haproxy };
}

/** Every port first: a taken one fails at once, naming it, before anything starts. */
async function reservePorts(basePort: number): Promise<number[]> {
  const names = [...SANDBOX_SERVERS.map((spec) => spec.serverName), "the load balancer's statistics"];
  const ports: number[] = [];
  for (const [index, name] of names.entries()) {
    if (basePort === 0) {
      // The OS may hand out a port it just gave: each must be another.
      let port = await freePort();
      for (let attempt = 0; attempt < 10 && ports.includes(port); attempt++) port = await freePort();
      ports.push(port);
      continue;
    }
    const port = basePort + index;
    if (!(await isPortFree(port))) throw new PortInUseError(port, name);
    ports.push(port);
  }
  return ports;
}

/** The servers' table: the load balancer's endpoint per server and its replicas, in start order. */
function fleetServers(
  emulators: SandboxEmulators,
  ports: readonly number[],
  replicaUrls: readonly string[],
  replicas: number,
): FleetServer[] {
  return SANDBOX_SERVERS.map((spec, serverIndex) => ({
    key: spec.key,
    serverName: spec.serverName,
    url: `http://127.0.0.1:${ports[serverIndex]}/mcp`,
    identity: identityOf(spec, emulators),
    replicas: replicaUrls.slice(serverIndex * replicas, (serverIndex + 1) * replicas).map((url, index) => ({
      name: replicaName(spec.serverName, index),
      url,
      healthUrl: new URL("/healthz", url).href,
      readyUrl: new URL("/readyz", url).href,
    })),
  }));
}

/**
 * Every replica of every server, started at once; each one that started is handed to `onStarted` (so
 * the fleet can stop it) before the first failure, if any, is thrown. Their URLs, in server order.
 */
async function startReplicas(
  emulators: SandboxEmulators,
  redisUrl: string,
  options: FleetOptions,
  run: {
    logs: NodeJS.WritableStream | "ignore";
    isStopping: () => boolean;
    onStarted: (replica: ToolServerProcess) => void;
  },
): Promise<string[]> {
  // One key per run, given to every replica and never printed: the secrets it encrypts in Redis
  // (the app's token) are readable by this fleet only.
  const shared = {
    REDIS_URL: redisUrl,
    MCP_STATE_PREFIX: FLEET_STATE_PREFIX,
    MCP_STATE_KEY: randomBytes(32).toString("hex"),
  };
  const starts = SANDBOX_SERVERS.flatMap((spec) =>
    Array.from({ length: options.replicas }, (_, index) => {
      const name = replicaName(spec.serverName, index);
      return startToolServer({
        binPath: join(BIN_DIR, spec.bin),
        serverName: name,
        port: 0,
        caFile: emulators.caFile,
        env: { ...replicaSettings(spec, emulators), ...shared },
        logs: run.logs === "ignore" ? "ignore" : prefixedLines(name, run.logs),
        onUnexpectedExit: (code, signal) => {
          if (!run.isStopping()) options.onExit?.({ kind: "replica", name, code, signal });
        },
      });
    }),
  );
  const started = await Promise.allSettled(starts);
  for (const result of started) {
    if (result.status === "fulfilled") run.onStarted(result.value);
  }
  const failed = started.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return (started as Array<PromiseFulfilledResult<ToolServerProcess>>).map(({ value }) => value.url);
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const { redisServer, haproxy } = requirePrograms();

  const ports = await reservePorts(options.basePort);

  let stopping = false;
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    stopping = true;
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  const logs = options.logs ?? process.stderr;
  const watch = (kind: "redis" | "haproxy", helper: HelperProcess) => {
    stops.push(() => helper.stop());
    helper.logTo(logs);
    void helper.exited.then(({ code, signal }) => {
      if (!stopping) options.onExit?.({ kind, name: helper.name, code, signal });
    });
  };

  const dir = mkdtempSync(join(tmpdir(), "lab-fleet-"));
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  try {
    const redisDir = join(dir, "redis");
    mkdirSync(redisDir);
    const redis: FleetRedis = await startRedis(redisServer, redisDir);
    watch("redis", redis.process);

    const emulators = await startEmulators();
    stops.push(() => emulators.stop());

    const replicaUrls = await startReplicas(emulators, redis.url, options, {
      logs,
      isStopping: () => stopping,
      onStarted: (replica) => stops.push(() => replica.stop()),
    });

    const servers = fleetServers(emulators, ports, replicaUrls, options.replicas);

    const balancer: FleetBalancer = await startBalancer(
      haproxy,
      dir,
      servers.map((server, index) => ({
        name: server.serverName,
        port: ports[index] as number,
        replicaPorts: server.replicas.map((replica) => Number(new URL(replica.url).port)),
      })),
      ports[servers.length] as number,
    );
    watch("haproxy", balancer.process);

    const fleet = {
      servers,
      emulators,
      redisUrl: redis.url,
      statePrefix: FLEET_STATE_PREFIX,
      statsUrl: balancer.statsUrl,
    };
    return { ...fleet, banner: fleetBanner(fleet), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
