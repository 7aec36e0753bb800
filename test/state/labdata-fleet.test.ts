// Three labdata-mcp processes (the built bin over streamable HTTP, 2026-07-28 clients) sharing one Redis,
// called in turn as a round-robin load balancer would: one OAuth token for the fleet, one remote page per
// tool page whichever replica answers, one rate budget, and no call lost when Redis dies mid-run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseHttpsBaseUrl } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import { credentialId } from "../../packages/lab-mcp/src/services/labdata/auth/credential.js";
import {
  connectModernHttp,
  type HttpServerProcess,
  type ModernConnected,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { servedEndingWith } from "../support/labdata.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

const REPLICAS = 3;
const PREFIX = "lab-mcp:fleet-test:";

describe.skipIf(!REDIS_SERVER)("a fleet of labdata-mcp replicas sharing Redis", () => {
  const emulator = useLabdataEmulator();
  let redis: RunningRedis;
  let replicas: HttpServerProcess[] = [];
  let clients: ModernConnected[] = [];
  let turn = 0;

  /** The next replica's client, round-robin. */
  const next = () => clients[turn++ % clients.length] as ModernConnected;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await next().client.callTool({ name, arguments: args }));

  async function startFleet() {
    const { demo } = emulator;
    replicas = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        startHttpBin("labdata-mcp", {
          MCP_TOOLSETS: "all",
          LABDATA_BASE_URL: demo.baseUrl,
          LABDATA_CLIENT_ID: demo.app.clientId,
          LABDATA_CLIENT_SECRET: demo.app.clientSecret,
          REDIS_URL: redis.url,
          MCP_STATE_PREFIX: PREFIX,
          MCP_STATE_KEY: TEST_STATE_KEY_HEX,
        }),
      ),
    );
    clients = await Promise.all(replicas.map((replica) => connectModernHttp(replica.url)));
  }

  async function stopFleet() {
    for (const connected of clients) await connected.close().catch(() => undefined);
    for (const replica of replicas) await replica.stop();
    clients = [];
    replicas = [];
  }

  describe("with Redis up", () => {
    beforeAll(async () => {
      // A tight limit from the start: the replicas learn it from the platform's first answers.
      emulator.admin.updateSettings(emulator.demo.tenant, { rateLimit: { requests: 20, windowMs: 2000 } });
      redis = await startRedis();
      await startFleet();
    });
    afterAll(async () => {
      await stopFleet();
      await redis?.stop();
      emulator.admin.updateSettings(emulator.demo.tenant, { rateLimit: { requests: 100, windowMs: 10_000 } });
    });

    it("fetches one OAuth token for the whole fleet, even when a replica died holding the renewal", async () => {
      const { demo } = emulator;
      // A replica that took the renewal lock and died: the lock runs out and another replica renews.
      const dead = await openRedisState(redis, { prefix: PREFIX });
      const id = credentialId("client_credentials", `${demo.app.clientId}:${demo.app.clientSecret}`);
      const lockName = `labdata:token:${parseHttpsBaseUrl(demo.baseUrl).href}:${id}:renewal`;
      const heldUntil = Date.now() + 1500;
      expect(await dead.secrets.tryLock(lockName, 1500)).toBeDefined();
      await dead.close();
      emulator.requests.clear();

      const answers = await Promise.all(
        Array.from({ length: 12 }, () => call("labdata_list_projects", { response_format: "json" })),
      );
      for (const answer of answers) expect(answer.isError).toBe(false);
      const tokenRequests = emulator.requests
        .entries()
        .filter((entry) => entry.path.endsWith("/api/v2/token"));
      expect(tokenRequests).toHaveLength(1);
      // Nobody renewed while the dead replica's lock held.
      expect(tokenRequests[0]?.at.getTime()).toBeGreaterThanOrEqual(heldUntil - 50);
      expect(servedEndingWith(emulator, "/api/v2/projects")).toBe(12);
    });

    it("pages at one remote page per tool page while each page is answered by another replica", async () => {
      const projectId = emulator.demo.projects["Plasmid Library"];
      emulator.requests.clear();
      const seen = new Set<string>();
      for (let offset = 0; offset < 200; offset += 20) {
        const { text, isError } = await call("labdata_list_entities", {
          project_id: projectId,
          limit: 20,
          offset,
          response_format: "json",
        });
        expect(isError).toBe(false);
        for (const sequence of JSON.parse(text).entities) seen.add(sequence.id);
      }
      expect(seen.size).toBe(200);
      expect(servedEndingWith(emulator, "/api/v2/dna-sequences")).toBe(10);
    });

    it("keeps the whole fleet inside one rate budget: no 429 from the platform", async () => {
      const { demo } = emulator;
      emulator.requests.clear();
      emulator.admin.clearAuditLog(demo.tenant);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call("labdata_list_projects", { limit: 1, response_format: "json" }),
        ),
      );
      for (const answer of answers) expect(answer.isError).toBe(false);
      const remote = servedEndingWith(emulator, "/api/v2/projects");
      const accepted = emulator.admin
        .auditLog(demo.tenant)
        .filter((entry) => entry.path.endsWith("/projects"));
      const refused = remote - accepted.length;
      expect(remote).toBe(50);
      expect(refused).toBe(0);
    });
  });

  it("loses no call when Redis dies mid-run, warns once per replica, and shares again when it returns", async () => {
    redis = await startRedis();
    await startFleet();
    try {
      const calls: Array<Promise<{ isError: boolean }>> = [];
      for (let i = 0; i < 30; i++) {
        if (i === 10) await redis.kill();
        calls.push(call("labdata_list_projects", { limit: 2, response_format: "json" }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const answer of await Promise.all(calls)) expect(answer.isError).toBe(false);
      const warnings = replicas.map((replica) => replica.stderr().match(/is unreachable/g)?.length ?? 0);
      expect(warnings).toEqual(Array(REPLICAS).fill(1));
      // Still serving, but not ready: a balancer may prefer the replicas that share.
      const readyz = (replica: HttpServerProcess) => fetch(new URL("/readyz", replica.url));
      const down = await readyz(replicas[0] as HttpServerProcess);
      expect(down.status).toBe(503);
      // Says what, never where: the Redis address is for the log, not for whoever can reach /readyz.
      expect(await down.json()).toEqual({ status: "not ready", reason: "shared state unreachable" });

      await redis.restart();
      for (let i = 0; i < 100 && !replicas.every((r) => r.stderr().includes("sharing resumed")); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const replica of replicas) expect(replica.stderr()).toContain("sharing resumed");
      expect((await readyz(replicas[0] as HttpServerProcess)).status).toBe(200);
      for (let i = 0; i < 6; i++)
        expect((await call("labdata_list_projects", { limit: 1 })).isError).toBe(false);
      // Never a secret in what the replicas logged.
      for (const replica of replicas) expect(replica.stderr()).not.toContain(emulator.demo.app.clientSecret);
    } finally {
      await stopFleet();
      await redis.stop();
    }
  });
});

if (!REDIS_SERVER)
  describe("a fleet of labdata-mcp replicas sharing Redis", () => it.skip(NO_REDIS, () => {}));
