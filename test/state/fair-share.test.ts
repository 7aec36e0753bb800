// A shared credential's rate budget serves its waiting callers in turn by share (a person, or a client
// session without one): in one process (MemoryState, on a fake clock, so that every wait is exact), and
// across processes in a real Redis (two RedisStates, as two replicas).
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RemoteStatusError } from "../../packages/lab-mcp/src/core/errors.js";
import { RateBudget } from "../../packages/lab-mcp/src/core/state/budget.js";
import { MAX_WAITING_PER_SHARE, PLACE_TTL_MS } from "../../packages/lab-mcp/src/core/state/fair-line.js";
import { MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";
import type { BudgetStore, SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { NO_REDIS, openRedisState, REDIS_SERVER, type RunningRedis, startRedis } from "../support/redis.js";

const ALICE = "person https://idp.example alice";
const BOB = "person https://idp.example bob";
const CAROL = "person https://idp.example carol";

/** A waiting call: its share and its place in line. */
interface Call {
  name: string;
  share: string;
  place: string;
}

const callsOf = (share: string, prefix: string, count: number): Call[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix}${i + 1}`,
    share,
    place: `${prefix}-place-${i}`,
  }));

/** Asks for each call once (joining the line); answers the names granted at once. */
async function join(store: BudgetStore, calls: Call[]): Promise<string[]> {
  const granted: string[] = [];
  for (const call of calls) {
    const { waitMs } = await store.take({ share: call.share, place: call.place });
    if (waitMs === 0) granted.push(call.name);
  }
  return granted;
}

/**
 * Every waiting call asks again, in the order given (which must not matter): the names granted, in
 * the order they asked; the rest stay in line.
 */
async function askAgain(store: BudgetStore, waiting: Call[]): Promise<string[]> {
  const granted: string[] = [];
  for (const call of [...waiting]) {
    const { waitMs } = await store.take({ share: call.share, place: call.place });
    if (waitMs === 0) {
      granted.push(call.name);
      waiting.splice(waiting.indexOf(call), 1);
    }
  }
  return granted;
}

describe("a fair line in one process", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function budget(limit = { requests: 2, windowMs: 1000 }) {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2026-11-23T12:00:00Z"));
    return new MemoryState().budget("shared-credential", limit);
  }

  it("lets anyone take a slot while the window has room", async () => {
    const store = budget({ requests: 3, windowMs: 1000 });
    expect(await join(store, [...callsOf(ALICE, "a", 2), ...callsOf(BOB, "b", 1)])).toEqual([
      "a1",
      "a2",
      "b1",
    ]);
  });

  it("serves waiting calls in turn by share, whatever order they ask again in", async () => {
    const store = budget();
    // Alice spends the window and queues six more; Bob, then Carol, come later with two and one.
    expect(await join(store, callsOf(ALICE, "a", 2))).toEqual(["a1", "a2"]);
    const alice = callsOf(ALICE, "x", 6);
    const bob = callsOf(BOB, "b", 2);
    const carol = callsOf(CAROL, "c", 1);
    expect(await join(store, [...alice, ...bob, ...carol])).toEqual([]);
    const waiting = [...alice, ...bob, ...carol].reverse();
    const windows: string[][] = [];
    for (let window = 0; window < 5; window++) {
      await vi.advanceTimersByTimeAsync(1050);
      windows.push((await askAgain(store, waiting)).sort());
    }
    // Round-robin: Alice's first, Bob's and Carol's each go before Alice's second.
    expect(windows).toEqual([["b1", "x1"], ["c1", "x2"], ["b2", "x3"], ["x4", "x5"], ["x6"]]);
  });

  it("bounds a newcomer's wait by the window: at most one call of each other waiting share goes first", async () => {
    const store = budget({ requests: 10, windowMs: 1000 });
    const flood = callsOf(ALICE, "a", 300);
    await join(store, flood);
    const waiting = flood.slice(10);
    // Bob asks once while 290 of Alice's calls wait: his wait is the rest of this window, not 29 windows.
    const { waitMs } = await store.take({ share: BOB, place: "bob" });
    expect(waitMs).toBeLessThanOrEqual(1050);
    await vi.advanceTimersByTimeAsync(waitMs);
    const granted = await askAgain(store, [...waiting, { name: "bob", share: BOB, place: "bob" }]);
    expect(granted).toContain("bob");
    expect(granted).toHaveLength(10);
  });

  it("a share's own later call queues behind its waiting ones, not ahead", async () => {
    const store = budget();
    await join(store, callsOf(ALICE, "a", 2));
    const first = callsOf(ALICE, "x", 3);
    await join(store, first);
    // A call of Alice's that only asks (no place): it would be fourth in line, so nothing now.
    await vi.advanceTimersByTimeAsync(1050);
    expect((await store.take({ share: ALICE })).waitMs).toBeGreaterThan(0);
    expect(await askAgain(store, [...first])).toEqual(["x1", "x2"]);
  });

  it("a cancelled call gives up its place, and a place not asked for again expires", async () => {
    const store = budget({ requests: 1, windowMs: 1000 });
    await join(store, callsOf(ALICE, "a", 1));
    const [gone, stale, next] = callsOf(ALICE, "x", 3) as [Call, Call, Call];
    await join(store, [gone, stale, next]);
    await store.leave(gone.place);
    // `stale` stops asking (a replica that crashed) while first in line; `next` keeps asking.
    const start = Date.now();
    let grantedAfter = -1;
    while (grantedAfter < 0 && Date.now() - start < PLACE_TTL_MS + 5000) {
      await vi.advanceTimersByTimeAsync(1050);
      if ((await store.take({ share: ALICE, place: next.place })).waitMs === 0)
        grantedAfter = Date.now() - start;
    }
    // Held back while the stale place held its turn, then served as soon as it expired.
    expect(grantedAfter).toBeGreaterThanOrEqual(PLACE_TTL_MS);
    expect(grantedAfter).toBeLessThanOrEqual(PLACE_TTL_MS + 2100);
  });

  it("refuses a share's call past the most that may wait, while another share still queues", async () => {
    const store = budget({ requests: 1, windowMs: 1000 });
    await join(store, callsOf(ALICE, "a", 1));
    const flood = callsOf(ALICE, "x", MAX_WAITING_PER_SHARE);
    await join(store, flood);
    const over = await store.take({ share: ALICE, place: "one-too-many" });
    expect(over.refused).toBe(true);
    const bob = await store.take({ share: BOB, place: "bob" });
    expect(bob.refused).toBeFalsy();
    // Behind Alice's first waiting call only: the window after next, of one slot each.
    expect(bob.waitMs).toBeLessThanOrEqual(2 * 1050);
  });

  it("does not keep a place whose wait is longer than the call would wait", async () => {
    const store = budget({ requests: 1, windowMs: 1000 });
    await join(store, callsOf(ALICE, "a", 1));
    const long = await store.take({ share: ALICE, place: "too-long", maxWaitMs: 500 });
    expect(long.waitMs).toBeGreaterThan(500);
    // Not in line: Alice's next call is first.
    const next = await store.take({ share: ALICE, place: "next" });
    expect(next.waitMs).toBeLessThanOrEqual(1050);
    await vi.advanceTimersByTimeAsync(next.waitMs);
    expect((await store.take({ share: ALICE, place: "next" })).waitMs).toBe(0);
  });

  it("RateBudget: Bob's one call under Alice's flood of 200 finishes in the first window with room", async () => {
    const store = budget({ requests: 10, windowMs: 1000 });
    const rate = new RateBudget(store);
    const done: Record<string, number> = {};
    const start = Date.now();
    const alice = Array.from({ length: 200 }, (_, i) =>
      rate.take(undefined, undefined, ALICE).then(() => {
        done[`a${i}`] = Date.now() - start;
      }),
    );
    await vi.advanceTimersByTimeAsync(10);
    const bob = rate.take(undefined, undefined, BOB).then(() => {
      done.bob = Date.now() - start;
    });
    await vi.advanceTimersByTimeAsync(25_000);
    await Promise.all([...alice, bob]);
    expect(done.bob).toBe(1050);
    // Alice still uses every slot: 10 a window, 20 windows.
    expect(Math.max(...Object.entries(done).map(([, at]) => at))).toBe(20 * 1050);
  });

  it("RateBudget: a call past the longest wait is the 429 error at once, and a cancelled one leaves the line", async () => {
    const store = budget({ requests: 1, windowMs: 1000 });
    const rate = new RateBudget(store, 10_000);
    await rate.take(undefined, undefined, ALICE);
    const outcome = (call: Promise<number>) =>
      call.then(
        () => Date.now() - start,
        (error: unknown) => (error instanceof RemoteStatusError ? `refused ${error.status}` : "cancelled"),
      );
    const start = Date.now();
    // One a window: nine fit within 10 s of waiting, the rest are refused at once.
    const alice = Array.from({ length: 12 }, () => outcome(rate.take(undefined, undefined, ALICE)));
    await vi.advanceTimersByTimeAsync(1);
    // Bob and Carol each come once; Bob cancels while he waits.
    const controller = new AbortController();
    const bob = outcome(rate.take(controller.signal, undefined, BOB));
    const carol = outcome(rate.take(undefined, undefined, CAROL));
    await vi.advanceTimersByTimeAsync(1);
    controller.abort(new Error("cancelled"));
    await vi.advanceTimersByTimeAsync(20_000);
    const outcomes = await Promise.all(alice);
    expect(outcomes.filter((o) => o === "refused 429")).toHaveLength(3);
    expect(await bob).toBe("cancelled");
    // Carol was third in line (Alice's first, then Bob): with Bob gone, she goes in the second window.
    expect(await carol).toBe(2 * 1050);
  });
});

describe.skipIf(!REDIS_SERVER)("a fair line shared in Redis", () => {
  let redis: RunningRedis;
  let replicas: SharedState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    replicas = [await openRedisState(redis), await openRedisState(redis)];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await redis?.stop();
  });
  let run = 0;
  const stores = (limit: { requests: number; windowMs: number }) => {
    const name = `shared-credential-${++run}`;
    return replicas.map((replica) => replica.budget(name, limit)) as [BudgetStore, BudgetStore];
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("serves the calls waiting on two replicas in turn by share, whatever order they ask again in", async () => {
    const [one, two] = stores({ requests: 2, windowMs: 600 });
    expect(await join(one, callsOf(ALICE, "a", 2))).toEqual(["a1", "a2"]);
    const alice = callsOf(ALICE, "x", 5);
    const bob = callsOf(BOB, "b", 2);
    expect(await join(one, alice)).toEqual([]);
    expect(await join(two, bob)).toEqual([]);
    const windows: string[][] = [];
    for (let window = 0; window < 4; window++) {
      // Past the end of the window the last round opened (600 ms and our margin of 30 ms).
      await sleep(700);
      // Alice's replica asks again first, Bob's after: the order of asking does not decide.
      const granted = [...(await askAgain(one, alice)), ...(await askAgain(two, bob))];
      windows.push(granted.sort());
    }
    expect(windows).toEqual([["b1", "x1"], ["b2", "x2"], ["x3", "x4"], ["x5"]]);
  });

  it("a newcomer on the other replica waits at most for the window, under a flood of 300", async () => {
    const [one, two] = stores({ requests: 10, windowMs: 60_000 });
    const flood = callsOf(ALICE, "a", 300);
    expect(await join(one, flood)).toHaveLength(10);
    const { waitMs } = await two.take({ share: BOB, place: "bob" });
    expect(waitMs).toBeLessThanOrEqual(60_500);
    // Alice's next call waits for the whole line: 29 windows.
    const { waitMs: alices } = await one.take({ share: ALICE, place: "next-call" });
    expect(alices).toBeGreaterThan(28 * 60_000);
  });

  it("a crashed replica's places expire, and keep no subject in Redis", async () => {
    const crashing = await openRedisState(redis);
    const name = `shared-credential-${++run}`;
    const limit = { requests: 1, windowMs: 1000 };
    const lost = crashing.budget(name, limit);
    const [, survivor] = [replicas[0]?.budget(name, limit), replicas[1]?.budget(name, limit)] as [
      BudgetStore,
      BudgetStore,
    ];
    expect(await join(lost, callsOf(ALICE, "a", 1))).toEqual(["a1"]);
    await join(lost, callsOf(ALICE, "x", 3));
    const dump = await redisText(redis.url);
    expect(dump).not.toContain("alice");
    expect(dump).not.toContain("idp.example");
    await crashing.close();
    const first = await survivor.take({ share: BOB, place: "bob" });
    // Behind Alice's first: the window after next.
    expect(first.waitMs).toBeGreaterThan(1000);
    // The crashed replica never asks again: its places are gone after PLACE_TTL_MS, and Bob's is first.
    const started = Date.now();
    for (;;) {
      const { waitMs } = await survivor.take({ share: BOB, place: "bob" });
      if (waitMs === 0) break;
      expect(Date.now() - started).toBeLessThan(PLACE_TTL_MS + 3000);
      await sleep(Math.min(waitMs, 1000));
    }
    // Every place asked for again is held by one waiter at most; none of Alice's was granted.
    expect(Date.now() - started).toBeGreaterThan(PLACE_TTL_MS - 3000);
  }, 30_000);

  it("refuses a share's call past the most that may wait", async () => {
    const [one, two] = stores({ requests: 1, windowMs: 60_000 });
    await join(one, callsOf(ALICE, "a", 1));
    await join(one, callsOf(ALICE, "x", MAX_WAITING_PER_SHARE));
    expect((await one.take({ share: ALICE, place: "one-too-many" })).refused).toBe(true);
    const bob = await two.take({ share: BOB, place: "bob" });
    expect(bob.refused).toBe(false);
    // A cancelled call frees its share's room.
    await one.leave("x-place-0");
    expect((await two.take({ share: ALICE, place: "again" })).refused).toBe(false);
  });
});

/** Every key and value in Redis, as text. */
async function redisText(url: string): Promise<string> {
  const client = new Redis(url);
  try {
    const parts: string[] = [];
    for (const key of await client.keys("*")) {
      const type = await client.type(key);
      const value =
        type === "hash"
          ? JSON.stringify(await client.hgetall(key))
          : type === "zset"
            ? JSON.stringify(await client.zrange(key, "0", "-1", "WITHSCORES"))
            : type === "string"
              ? await client.get(key)
              : type;
      parts.push(`${key} ${value}`);
    }
    return parts.join("\n");
  } finally {
    client.disconnect();
  }
}

if (!REDIS_SERVER) describe("a fair line shared in Redis", () => it.skip(NO_REDIS, () => {}));
