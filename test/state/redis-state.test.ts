// The shared state in a real Redis: secrets sealed at rest and compare-and-set, locks that expire, the
// start-up error, and what a process does when Redis goes away at run time and comes back.
import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";
import { RedisState, RedisUnreachableError } from "../../packages/lab-mcp/src/core/state/redis-state.js";
import { parseStateKey, SecretBox } from "../../packages/lab-mcp/src/core/state/secret-box.js";
import type { SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { binPath } from "../support/clients.js";
import { freePort } from "../support/ports.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

const SECRET = "access-token-0123456789abcdef";

function secretSuite(backend: string, open: () => Promise<SharedState>) {
  describe(`secrets and locks in ${backend}`, () => {
    let state: SharedState;
    beforeAll(async () => {
      state = await open();
    });
    afterAll(() => state.close());

    it("compare-and-set: only the writer that saw the current version wins", async () => {
      const { secrets } = state;
      expect(await secrets.write("cas", "first", { ifVersion: null })).toBe(true);
      expect(await secrets.write("cas", "second", { ifVersion: null })).toBe(false);
      const first = await secrets.read("cas");
      expect(first?.value).toBe("first");
      expect(first?.version).not.toContain("first");
      expect(await secrets.write("cas", "second", { ifVersion: first?.version })).toBe(true);
      // A writer still holding the first version is told it lost, and reloads.
      expect(await secrets.write("cas", "third", { ifVersion: first?.version })).toBe(false);
      expect((await secrets.read("cas"))?.value).toBe("second");
      expect(await secrets.remove("cas", first?.version)).toBe(false);
      expect(await secrets.remove("cas")).toBe(true);
      expect(await secrets.read("cas")).toBeUndefined();
    });

    it("a secret with a lifetime is gone after it", async () => {
      await state.secrets.write("short", SECRET, { ttlMs: 50 });
      expect((await state.secrets.read("short"))?.value).toBe(SECRET);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(await state.secrets.read("short")).toBeUndefined();
    });

    it("a lock is held by one at a time, and expires when its holder never releases it", async () => {
      const held = await state.secrets.tryLock("renewal", 100);
      expect(held).toBeDefined();
      expect(await state.secrets.tryLock("renewal", 100)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 150));
      const taken = await state.secrets.tryLock("renewal", 10_000);
      expect(taken).toBeDefined();
      // The first holder, back late, must not release the lock someone else holds now.
      await held?.release();
      expect(await state.secrets.tryLock("renewal", 100)).toBeUndefined();
      await taken?.release();
      expect(await state.secrets.tryLock("renewal", 100)).toBeDefined();
    });
  });
}

secretSuite("memory", async () => new MemoryState());

describe("MCP_STATE_KEY", () => {
  it("is 64 hex characters or 32 bytes of base64", () => {
    expect(parseStateKey(TEST_STATE_KEY_HEX)?.length).toBe(32);
    expect(parseStateKey(Buffer.alloc(32, 7).toString("base64"))?.length).toBe(32);
    expect(parseStateKey(Buffer.alloc(32, 7).toString("base64url"))?.length).toBe(32);
    expect(parseStateKey("too short")).toBeUndefined();
    expect(parseStateKey(Buffer.alloc(16).toString("base64"))).toBeUndefined();
  });

  it("seals a value for one name only, and refuses an altered one", () => {
    const box = new SecretBox(parseStateKey(TEST_STATE_KEY_HEX) as Buffer);
    const sealed = box.seal("token", SECRET);
    expect(sealed).not.toContain(SECRET);
    expect(box.open("token", sealed)).toBe(SECRET);
    expect(box.open("other", sealed)).toBeUndefined();
    const altered = `${sealed.slice(0, -4)}${sealed.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(box.open("token", altered)).toBeUndefined();
  });
});

describe.skipIf(!REDIS_SERVER)("shared state in Redis", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  secretSuite("Redis", () => openRedisState(redis, { prefix: "lab-mcp:secrets:" }));

  it("keeps secrets sealed at rest: no value in Redis, and another key opens nothing", async () => {
    const state = await openRedisState(redis, { prefix: "lab-mcp:sealed:" });
    const raw = new Redis(redis.url);
    try {
      await state.secrets.write("labdata:token", SECRET);
      const keys = await raw.keys("lab-mcp:sealed:*");
      const dump = JSON.stringify(await Promise.all(keys.map((key) => raw.hgetall(key).catch(() => ({})))));
      expect(keys.length).toBeGreaterThan(0);
      expect(dump).not.toContain(SECRET);
      const stranger = await openRedisState(redis, { prefix: "lab-mcp:sealed:", key: Buffer.alloc(32, 1) });
      expect(await stranger.secrets.read("labdata:token")).toBeUndefined();
      await stranger.close();
    } finally {
      raw.disconnect();
      await state.close();
    }
  });

  it("a second process sees the first one's secret, version and lock", async () => {
    const [one, two] = [await openRedisState(redis), await openRedisState(redis)];
    try {
      await one.secrets.write("shared", SECRET);
      expect(await two.secrets.read("shared")).toEqual(await one.secrets.read("shared"));
      const lock = await one.secrets.tryLock("shared-lock", 10_000);
      expect(await two.secrets.tryLock("shared-lock", 10_000)).toBeUndefined();
      await lock?.release();
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("refuses to start when Redis cannot be reached, naming where and what to do", async () => {
    const port = await freePort();
    const opening = RedisState.open({
      url: `redis://:hunter2-password@127.0.0.1:${port}`,
      prefix: "x:",
      box: new SecretBox(Buffer.alloc(32)),
      warn: () => undefined,
    });
    await expect(opening).rejects.toBeInstanceOf(RedisUnreachableError);
    const message = await opening.catch((error: Error) => error.message);
    expect(message).toContain(`redis://127.0.0.1:${port}`);
    expect(message).toContain("unset REDIS_URL");
    expect(message).not.toContain("hunter2");
  });

  it("the server bin exits with one clear line when REDIS_URL cannot be reached or MCP_STATE_KEY is missing", async () => {
    const port = await freePort();
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [binPath("example-mcp")], {
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            EXAMPLE_BASE_URL: "https://127.0.0.1:9/api",
            EXAMPLE_API_KEY: "example-key",
            ...env,
          },
          stdio: ["pipe", "pipe", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on("exit", (code) => resolve({ code, stderr }));
      });
    const down = await run({ REDIS_URL: `redis://127.0.0.1:${port}`, MCP_STATE_KEY: TEST_STATE_KEY_HEX });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(new RegExp(`cannot reach Redis at redis://127\\.0\\.0\\.1:${port}`));
    const keyless = await run({ REDIS_URL: redis.url });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain("MCP_STATE_KEY");
    expect(keyless.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("Redis lost at run time: one warning, this process's share of each budget, and sharing again when it returns", async () => {
    const own = await startRedis();
    const warnings: string[] = [];
    // The second opens first, so that the first counts two replicas alive when it opens.
    const two = await openRedisState(own);
    const one = await openRedisState(own, { warnings });
    try {
      const limit = { requests: 10, windowMs: 60_000 };
      expect((await one.budget("lost", limit).take()).waitMs).toBe(0);
      await own.kill();
      // Every call still gets an answer, from this process's own state: half of the 10 (two replicas seen).
      const local = await Promise.all(
        Array.from({ length: 8 }, async () => (await one.budget("lost", limit).take()).waitMs),
      );
      expect(local.filter((wait) => wait === 0)).toHaveLength(5);
      await one.secrets.write("while-lost", SECRET);
      expect((await one.secrets.read("while-lost"))?.value).toBe(SECRET);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/unreachable .*own state \(1\/2 of each rate budget\)/);
      expect((await one.health()).ready).toBe(false);

      await own.restart();
      await waitFor(async () => (await one.health()).ready && warnings.length === 2);
      expect(warnings[1]).toMatch(/reachable again; sharing resumed/);
      // Shared again: what one takes, the other sees.
      expect((await one.budget("back", { requests: 1, windowMs: 60_000 }).take()).waitMs).toBe(0);
      expect((await two.budget("back", { requests: 1, windowMs: 60_000 }).take()).waitMs).toBeGreaterThan(0);
    } finally {
      await one.close();
      await two.close();
      await own.stop();
    }
  });
});

if (!REDIS_SERVER) describe("shared state in Redis", () => it.skip(NO_REDIS, () => {}));

/** Polls `check` every 50 ms for at most 10 s. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("condition not met in 10 s");
}
