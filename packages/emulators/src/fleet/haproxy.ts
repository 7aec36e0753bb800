// The fleet's load balancer: Debian's HAProxy with the generated configuration, checked with
// `haproxy -c` before it starts, ready once its health checks found every replica up.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type BalancedServer, haproxyConfig } from "./haproxy-config.js";
import { type HelperProcess, startHelperProcess } from "./helper-process.js";

const START_TIMEOUT_MS = 20_000;

export interface FleetBalancer {
  process: HelperProcess;
  /** The statistics page; `<url>;csv` for machines. */
  statsUrl: string;
}

/** One row of HAProxy's CSV statistics: a replica (server) of a backend. */
export interface ReplicaStats {
  backend: string;
  replica: string;
  /** UP, DOWN, ... */
  status: string;
  /** The last health check's result: L7OK when /healthz answered 200. */
  check: string;
  /** Requests (HTTP sessions) it was given. */
  sessions: number;
}

export async function startBalancer(
  program: string,
  dir: string,
  servers: BalancedServer[],
  statsPort: number,
): Promise<FleetBalancer> {
  const configFile = join(dir, "haproxy.cfg");
  writeFileSync(configFile, haproxyConfig(servers, statsPort));
  try {
    await promisify(execFile)(program, ["-c", "-q", "-f", configFile]);
  } catch (error) {
    const said = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(`haproxy refused the generated configuration: ${said}`);
  }
  // -db: in the foreground, one process; its warnings (a replica going down) on stderr.
  const haproxy = startHelperProcess("haproxy", program, ["-db", "-f", configFile]);
  const statsUrl = `http://127.0.0.1:${statsPort}/`;
  const expected = servers.reduce((count, server) => count + server.replicaPorts.length, 0);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  void haproxy.exited.then(() => {
    exited = true;
  });
  let up = 0;
  while (!exited && Date.now() < deadline) {
    // Up as its health check found it, not only as assumed at start.
    const rows = await readStats(statsUrl).catch(() => []);
    up = rows.filter((row) => row.status === "UP" && row.check === "L7OK").length;
    if (up === expected) return { process: haproxy, statsUrl };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await haproxy.stop();
  const said = haproxy.output().trim().split("\n").at(-1);
  throw new Error(
    exited
      ? `haproxy stopped at start${said ? `: ${said}` : ""}`
      : `haproxy saw ${up} of ${expected} replicas healthy within ${START_TIMEOUT_MS / 1000} s`,
  );
}

/** The replicas' rows of HAProxy's statistics. */
export async function readStats(statsUrl: string): Promise<ReplicaStats[]> {
  const response = await fetch(`${statsUrl};csv`, { signal: AbortSignal.timeout(2_000) });
  const [header = "", ...rows] = (await response.text()).trim().split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const at = (name: string) => columns.indexOf(name);
  return rows
    .map((row) => row.split(","))
    .filter(
      (cells) =>
        !["FRONTEND", "BACKEND"].includes(cells[at("svname")] ?? "") && cells[at("pxname")] !== "stats",
    )
    .map((cells) => ({
      backend: cells[at("pxname")] ?? "",
      replica: cells[at("svname")] ?? "",
      status: cells[at("status")] ?? "",
      check: cells[at("check_status")] ?? "",
      sessions: Number(cells[at("stot")] ?? 0),
    }));
}
