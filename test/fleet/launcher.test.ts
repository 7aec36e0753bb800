// npm run fleet: the built lab-fleet bin starts Redis, three replicas of each tool server and HAProxy
// in front of them. Through each server's one endpoint, SDK v2 clients (2026-07-28, stateless) are
// spread over the replicas and SDK v1 clients (2025-11-25) keep their session on the replica that
// opened it; HAProxy's own statistics say which replica served what. Ctrl-C, or the fleet killed
// outright, leaves no redis-server, haproxy or replica behind.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { basename } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLEET_PORTS_TAKEN } from "../../packages/emulators/src/fleet/fleet.js";
import { type ReplicaStats, readStats } from "../../packages/emulators/src/fleet/haproxy.js";
import { findProgram } from "../../packages/emulators/src/fleet/programs.js";
import { freePorts, isFree, type RunningBin, runBin, waitFor } from "../sandbox/processes.js";
import { connectHttp, connectModernHttp, textOf } from "../support/clients.js";

const MISSING = (["redis-server", "haproxy"] as const).filter((name) => !findProgram(name));
const NO_FLEET = `${MISSING.join(" and ")} not found (apt-get install redis-server haproxy): fleet tests skipped`;
if (MISSING.length > 0) console.warn(NO_FLEET);

/** One cheap call per server, answered from its emulator. */
const CALLS: Record<string, { name: string; arguments: Record<string, unknown>; says: string }> = {
  labdata_mcp: {
    name: "labdata_get_current_user",
    arguments: {},
    says: "OAuth 2.0 client credentials (app)",
  },
  protocols_mcp: { name: "protocols_get_profile", arguments: {}, says: "ada-okafor" },
  example_mcp: { name: "example_search_users", arguments: { query: "chen" }, says: "User Search Results" },
};
const CALLS_PER_CLIENT = 6;

const bannerDone = (output: string) => /Cursor \(HTTP\)[\s\S]*\n\}\n/.test(output);

/** The fleet's processes of these commands, by pid, from /proc: its direct children. */
function childrenOf(parent: number, commands: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const stat = readStat(Number(entry));
    if (stat && stat.ppid === parent && commands.includes(stat.command)) found.push(Number(entry));
  }
  return found;
}

function readStat(pid: number): { command: string; state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // Node 24 names its main thread "MainThread", which is what /proc shows for the process: its
    // executable says it is node.
    const command = name === "MainThread" ? basename(readlinkSync(`/proc/${pid}/exe`)) : name;
    const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { command, state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Gone, or a zombie nobody reaped yet: either way no longer running. */
const running = (pid: number) => {
  const state = readStat(pid)?.state;
  return state !== undefined && state !== "Z";
};

async function untilGone(pids: number[]): Promise<number[]> {
  for (let attempt = 0; attempt < 100 && pids.some(running); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(running);
}

/** What each replica of a backend was given between two readings of the statistics. */
function servedBetween(
  before: ReplicaStats[],
  after: ReplicaStats[],
  backend: string,
): Record<string, number> {
  const was = new Map(before.map((row) => [`${row.backend}/${row.replica}`, row.sessions]));
  return Object.fromEntries(
    after
      .filter((row) => row.backend === backend)
      .map((row) => [row.replica, row.sessions - (was.get(`${row.backend}/${row.replica}`) ?? 0)]),
  );
}
const busy = (served: Record<string, number>) => Object.values(served).filter((count) => count > 0).length;

describe.skipIf(MISSING.length > 0)("lab-fleet", () => {
  let port: number;
  let fleet: RunningBin;
  let statsUrl: string;
  const endpoints: Record<string, string> = {};

  beforeAll(async () => {
    port = await freePorts(FLEET_PORTS_TAKEN);
    fleet = runBin("lab-fleet", ["--port", String(port)]);
    await waitFor(() => bannerDone(fleet.stdout()) || fleet.child.exitCode !== null, "the banner", 40_000);
    expect(fleet.child.exitCode, fleet.output()).toBe(null);
    for (const match of fleet.stdout().matchAll(/^ {2}(\w+_mcp) +(http:\/\/\S+\/mcp) /gm)) {
      endpoints[match[1] as string] = match[2] as string;
    }
    statsUrl = /Load balancer statistics: (\S+)/.exec(fleet.stdout())?.[1] as string;
  }, 60_000);

  afterAll(async () => {
    if (fleet?.child.exitCode === null) fleet.child.kill("SIGKILL");
  });

  it("prints one endpoint per server on consecutive ports, and three healthy replicas each", async () => {
    expect(endpoints).toEqual({
      labdata_mcp: `http://127.0.0.1:${port}/mcp`,
      protocols_mcp: `http://127.0.0.1:${port + 1}/mcp`,
      example_mcp: `http://127.0.0.1:${port + 2}/mcp`,
    });
    expect(statsUrl).toBe(`http://127.0.0.1:${port + 3}/`);
    const health = [
      ...fleet.stdout().matchAll(/^ {2}(\w+_mcp-\d) +(http:\S+\/healthz) +(http:\S+\/readyz)$/gm),
    ];
    expect(health.map((match) => match[1])).toEqual(
      Object.keys(endpoints).flatMap((server) => [1, 2, 3].map((n) => `${server}-${n}`)),
    );
    for (const [, , healthUrl, readyUrl] of health) {
      expect(await (await fetch(healthUrl as string)).json()).toEqual({ status: "ok" });
      expect(await (await fetch(readyUrl as string)).json()).toEqual({ status: "ready" });
    }
    // The client snippets point at the load balancer, and the run's state key is printed nowhere.
    expect(fleet.stdout()).toContain(
      `npx @modelcontextprotocol/inspector@2.12.0 --cli ${endpoints.labdata_mcp}`,
    );
    expect(fleet.stdout()).toContain(`"lab-data": { "type": "http", "url": "${endpoints.labdata_mcp}" }`);
    const [replica] = childrenOf(fleet.child.pid as number, ["node"]);
    const key = /(?:^|\0)MCP_STATE_KEY=([0-9a-f]{64})\0/.exec(
      readFileSync(`/proc/${replica}/environ`, "latin1"),
    )?.[1];
    expect(key).toBeDefined();
    expect(fleet.output()).not.toContain(key);
  });

  it("spreads stateless 2026-07-28 calls over the replicas of each server", { timeout: 40_000 }, async () => {
    for (const [server, url] of Object.entries(endpoints)) {
      const call = CALLS[server] as (typeof CALLS)[string];
      const before = await readStats(statsUrl);
      const client = await connectModernHttp(url);
      try {
        for (let i = 0; i < CALLS_PER_CLIENT; i++) {
          const result = textOf(await client.client.callTool({ name: call.name, arguments: call.arguments }));
          expect(result.isError, result.text).toBe(false);
          expect(result.text).toContain(call.says);
        }
      } finally {
        await client.close();
      }
      const served = servedBetween(before, await readStats(statsUrl), server);
      expect(busy(served), `${server}: ${JSON.stringify(served)}`).toBeGreaterThan(1);
    }
  });

  it("keeps each 2025-11-25 session on the replica that opened it, and spreads the sessions", {
    timeout: 40_000,
  }, async () => {
    for (const [server, url] of Object.entries(endpoints)) {
      const call = CALLS[server] as (typeof CALLS)[string];
      const sessionsOn = new Set<string>();
      for (let session = 0; session < 3; session++) {
        const before = await readStats(statsUrl);
        const connected = await connectHttp(url);
        try {
          // Any request of the session on another replica would answer "Session not found".
          for (let i = 0; i < CALLS_PER_CLIENT; i++) {
            const result = textOf(
              await connected.client.callTool({ name: call.name, arguments: call.arguments }),
            );
            expect(result.isError, result.text).toBe(false);
            expect(result.text).toContain(call.says);
          }
        } finally {
          await connected.close();
        }
        const served = servedBetween(before, await readStats(statsUrl), server);
        expect(busy(served), `${server} session ${session + 1}: ${JSON.stringify(served)}`).toBe(1);
        const [replica] = Object.entries(served).find(([, count]) => count > 0) ?? [];
        sessionsOn.add(replica as string);
      }
      expect(sessionsOn.size, `${server} sessions on ${[...sessionsOn].join(", ")}`).toBeGreaterThan(1);
    }
  });

  it("goes on when a replica dies: the others serve its requests", { timeout: 40_000 }, async () => {
    const [victim] = childrenOf(fleet.child.pid as number, ["node"]);
    process.kill(victim as number, "SIGKILL");
    await waitFor(() => /stopped by itself \(SIGKILL\)/.test(fleet.output()), "the fleet's word on it");
    expect(fleet.output()).toMatch(
      /lab-fleet: \w+_mcp-\d stopped by itself \(SIGKILL\); HAProxy sends its requests to the other replicas\n/,
    );
    // Before the health checks tell, a refused connection is retried on another replica.
    for (const [server, url] of Object.entries(endpoints)) {
      const call = CALLS[server] as (typeof CALLS)[string];
      const client = await connectModernHttp(url);
      try {
        for (let i = 0; i < CALLS_PER_CLIENT; i++) {
          const result = textOf(await client.client.callTool({ name: call.name, arguments: call.arguments }));
          expect(result.isError, result.text).toBe(false);
        }
      } finally {
        await client.close();
      }
    }
    expect(fleet.child.exitCode).toBe(null);
  });

  it("stops everything on Ctrl-C: no redis-server, haproxy or replica left", {
    timeout: 40_000,
  }, async () => {
    const pid = fleet.child.pid as number;
    const helpers = childrenOf(pid, ["redis-server", "haproxy"]);
    const replicas = childrenOf(pid, ["node"]);
    expect(helpers).toHaveLength(2);
    expect(replicas).toHaveLength(8); // nine, less the one killed above
    fleet.child.kill("SIGINT");
    expect(await fleet.exited()).toBe(0);
    expect(fleet.stdout()).toContain("Stopping lab-fleet...");
    expect(await untilGone([...helpers, ...replicas])).toEqual([]);
    for (let i = 0; i < FLEET_PORTS_TAKEN; i++) expect(await isFree(port + i)).toBe(true);
  });
});

describe.skipIf(MISSING.length > 0)("lab-fleet in a terminal", () => {
  it("stops cleanly when Ctrl-C reaches its whole process group, replicas included", {
    timeout: 60_000,
  }, async () => {
    const port = await freePorts(FLEET_PORTS_TAKEN);
    const fleet = runBin("lab-fleet", ["--port", String(port), "--replicas", "2"], {}, { ownGroup: true });
    const group = fleet.child.pid as number;
    let helpers: number[] = [];
    try {
      await waitFor(() => bannerDone(fleet.stdout()) || fleet.child.exitCode !== null, "the banner", 40_000);
      helpers = childrenOf(group, ["redis-server", "haproxy"]);
      expect(helpers).toHaveLength(2);
      // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group. Redis and
      // HAProxy are in groups of their own: the fleet stops them.
      process.kill(-group, "SIGINT");
      expect(await fleet.exited()).toBe(0);
      expect(fleet.output()).not.toContain("stopped by itself");
      expect(await untilGone(helpers)).toEqual([]);
      for (let i = 0; i < FLEET_PORTS_TAKEN; i++) expect(await isFree(port + i)).toBe(true);
    } finally {
      for (const leader of [group, ...helpers]) {
        try {
          process.kill(-leader, "SIGKILL");
        } catch {
          // Nothing left in that group: as it should be.
        }
      }
    }
  });
});

describe.skipIf(MISSING.length > 0)("lab-fleet killed outright", () => {
  it("leaves no redis-server, haproxy or replica behind", { timeout: 60_000 }, async () => {
    const port = await freePorts(FLEET_PORTS_TAKEN);
    const fleet = runBin("lab-fleet", ["--port", String(port), "--replicas", "2"], {}, { ownGroup: true });
    const group = fleet.child.pid as number;
    let helpers: number[] = [];
    try {
      await waitFor(() => bannerDone(fleet.stdout()) || fleet.child.exitCode !== null, "the banner", 40_000);
      helpers = childrenOf(group, ["redis-server", "haproxy"]);
      const replicas = childrenOf(group, ["node"]);
      expect(helpers).toHaveLength(2);
      expect(replicas).toHaveLength(6);

      process.kill(group, "SIGKILL"); // the fleet alone: nothing gets to stop its children for it
      await fleet.exited();
      expect(await untilGone([...helpers, ...replicas])).toEqual([]);
      for (let i = 0; i < FLEET_PORTS_TAKEN; i++) expect(await isFree(port + i)).toBe(true);
    } finally {
      // Whatever is left, should the test fail: the fleet's group, and redis and haproxy in theirs.
      for (const leader of [group, ...helpers]) {
        try {
          process.kill(-leader, "SIGKILL");
        } catch {
          // Nothing left in that group: as it should be.
        }
      }
    }
  });
});

describe("lab-fleet start-up errors", () => {
  // No PATH: the fleet looks for them there, and in the sbin folders a user's PATH may lack.
  const missingWithoutPath = (["redis-server", "haproxy"] as const).filter((name) => !findProgram(name, ""));
  it.skipIf(missingWithoutPath.length === 0)(
    "names what to install when a program is not found",
    async () => {
      const run = runBin("lab-fleet", ["--port", "0"], { PATH: "" });
      expect(await run.exited()).toBe(2);
      const missing = missingWithoutPath;
      expect(run.output().trim()).toBe(
        `lab-fleet: ${missing.join(" and ")} not found; install Debian's: sudo apt-get install ${missing.join(" ")}`,
      );
    },
  );

  it.skipIf(MISSING.length > 0)("names the port and its server when a port is taken", async () => {
    const port = await freePorts(FLEET_PORTS_TAKEN);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port + 1, "127.0.0.1", resolve));
    try {
      const run = runBin("lab-fleet", ["--port", String(port)]);
      expect(await run.exited()).toBe(2);
      expect(run.output().trim()).toBe(
        `lab-fleet: port ${port + 1} (for protocols_mcp) is in use; the fleet takes ports ${port}-${port + 3}: ` +
          "choose another first port with --port <n>",
      );
    } finally {
      blocker.close();
    }
  });
});

describe("lab-fleet options", () => {
  it("refuses a bad --replicas in one line", async () => {
    const run = runBin("lab-fleet", ["--replicas", "0"]);
    expect(await run.exited()).toBe(2);
    expect(run.output().trim()).toBe('lab-fleet: --replicas must be a whole number from 1 to 16, got "0"');
  });

  it("documents itself in --help", async () => {
    const run = runBin("lab-fleet", ["--help"]);
    expect(await run.exited()).toBe(0);
    expect(run.stdout()).toMatch(/^Usage: lab-fleet \[--port <n>\] \[--replicas <n>\]/);
  });
});
