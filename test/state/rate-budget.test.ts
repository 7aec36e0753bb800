// The rate budget of a credential, counted by window: in one process (MemoryState, on a fake clock, so
// every wait is exact), and in Redis shared by processes (real redis-server, on Redis's clock).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RemoteStatusError } from "../../packages/lab-mcp/src/core/errors.js";
import { MAX_WAIT_MS, RateBudget } from "../../packages/lab-mcp/src/core/state/budget.js";
import { MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";
import type { BudgetStore, SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { MAX_PAUSE_MS, PAUSE_WINDOWS } from "../../packages/lab-mcp/src/core/state/window.js";
import { NO_REDIS, openRedisState, REDIS_SERVER, type RunningRedis, startRedis } from "../support/redis.js";

const TEN_SECONDS = { requests: 100, windowMs: 10_000 };

/** Takes `count` slots at once; the answers (0: counted, else the wait) in order. */
async function takeMany(store: BudgetStore, count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => takeOne(store)));
}

/** One slot's wait (0: counted). */
async function takeOne(store: BudgetStore): Promise<number> {
  return (await store.take()).waitMs;
}

describe("rate budget in one process", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function budget(limit = TEN_SECONDS, share = 1) {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2026-11-23T12:00:00Z"));
    return new MemoryState(Date.now, () => share).budget("credential", limit);
  }

  it("lets the whole window through at once, then nothing until the window ends", async () => {
    const store = budget({ requests: 3, windowMs: 1000 });
    const rate = new RateBudget(store);
    const finished: number[] = [];
    const waits: number[] = [];
    const start = Date.now();
    const calls = Array.from({ length: 5 }, () =>
      rate.take(undefined, (ms) => waits.push(ms)).then(() => finished.push(Date.now() - start)),
    );
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(calls);
    // Our own estimate of the window's end keeps a margin (the remote's window opens when our first
    // request reaches it, a little after we send it).
    expect(finished).toEqual([0, 0, 0, 1050, 1050]);
    expect(waits).toEqual([1050, 1050]);
  });

  it("counts the requests in flight: an answer saying what is left never frees slots already granted", async () => {
    const store = budget();
    expect((await takeMany(store, 100)).every((wait) => wait === 0)).toBe(true);
    // The first answers come back while 99 requests are still on their way.
    await store.observe({ limit: 100, remaining: 99, resetMs: 10_000 });
    await store.observe({ limit: 100, remaining: 98, resetMs: 10_000 });
    expect(await takeOne(store)).toBeGreaterThan(0);
  });

  it("with nothing in flight, takes the remote's count as it is, whatever order the answers came in", async () => {
    const store = budget({ requests: 10, windowMs: 1000 });
    const tickets = await Promise.all([store.take(), store.take(), store.take()]);
    // Answered out of order: the fewest left (7) is the latest count.
    for (const remaining of [8, 7, 9]) await store.observe({ remaining, resetMs: 1000 }, tickets[0]?.ticket);
    expect(await takeMany(store, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 1000]);

    // A remote that counted one request less than we sent: the slot comes back once all are answered.
    const lenient = budget({ requests: 3, windowMs: 1000 });
    const [first, second] = [await lenient.take(), await lenient.take()];
    await lenient.observe({ remaining: 2, resetMs: 1000 }, first.ticket);
    expect(await takeOne(lenient)).toBe(0); // 3 granted, 1 answered: no more until the others answer
    expect(await takeOne(lenient)).toBeGreaterThan(0);
    await lenient.observe({ remaining: 2, resetMs: 1000 }, second.ticket);
    await lenient.observe({ remaining: 1, resetMs: 1000 }, first.ticket);
    expect(await takeOne(lenient)).toBe(0);
  });

  it("waits for the tightest window end the remote tells, not for a rounded-up reset", async () => {
    const store = budget();
    const start = Date.now();
    // The remote opened its window 5 ms after our first request left, so it ends at start + 10,005.
    const remoteEnd = start + 10_005;
    const resetAt = () => Math.ceil((remoteEnd - Date.now()) / 1000) * 1000;
    for (let i = 0; i < 100; i++) {
      expect(await takeOne(store)).toBe(0);
      await vi.advanceTimersByTimeAsync(10); // a burst of 100 answers over a second
      await store.observe({ limit: 100, remaining: 99 - i, resetMs: resetAt() });
    }
    // Each answer bounds the end from above; the tightest is within 10 ms (one answer's spacing) of it.
    const wait = await takeOne(store);
    expect(Date.now() + wait).toBeGreaterThanOrEqual(remoteEnd);
    expect(Date.now() + wait).toBeLessThanOrEqual(remoteEnd + 10);
  });

  it("takes what someone else used of the window into account", async () => {
    const store = budget();
    expect(await takeMany(store, 5)).toEqual([0, 0, 0, 0, 0]);
    // The remote counted 90: 85 came from elsewhere (another client of the same key).
    await store.observe({ limit: 100, remaining: 10, resetMs: 9000 });
    const answers = await takeMany(store, 11);
    expect(answers.filter((wait) => wait === 0)).toHaveLength(10);
    expect(answers.at(-1)).toBe(9000);
  });

  it("follows a stricter limit the remote tells", async () => {
    const store = budget();
    await takeOne(store);
    await store.observe({ limit: 5, remaining: 4, resetMs: 2000 });
    const answers = await takeMany(store, 5);
    expect(answers).toEqual([0, 0, 0, 0, 2000]);
  });

  it("a 429's Retry-After spends the window until then", async () => {
    const store = budget();
    await takeOne(store);
    await store.pause(2000);
    expect(await takeOne(store)).toBe(2000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await takeOne(store)).toBe(0);
  });

  it("joins the remote's window when an answer says it is still open after ours ended", async () => {
    const store = budget({ requests: 10, windowMs: 1000 });
    expect(await takeOne(store)).toBe(0);
    await vi.advanceTimersByTimeAsync(1100);
    // A request that left just before our window ended reached the remote in its next window.
    await store.observe({ limit: 10, remaining: 7, resetMs: 1000 });
    const answers = await takeMany(store, 8);
    expect(answers.filter((wait) => wait === 0)).toHaveLength(7);
    expect(answers.at(-1)).toBe(1000);
  });

  it("a late answer of the previous window neither ends nor spends the window just opened", async () => {
    const store = budget();
    const { ticket: previous } = await store.take();
    await vi.advanceTimersByTimeAsync(10);
    await store.observe({ limit: 100, remaining: 99, resetMs: 10_000 }, previous);
    await vi.advanceTimersByTimeAsync(10_000);
    const { waitMs, ticket: current } = await store.take();
    expect(waitMs).toBe(0);
    expect(current).not.toBe(previous);
    // A request of the previous window, answered now: its window is over in a second, and spent.
    await store.observe({ limit: 100, remaining: 0, resetMs: 1000 }, previous);
    expect(await takeMany(store, 99)).toEqual(Array(99).fill(0));
    // The same answer to a request of this window would be someone else's window: followed.
    await store.observe({ limit: 100, remaining: 0, resetMs: 1000 }, current);
    expect(await takeOne(store)).toBe(1000);
  });

  it("as one of several processes without the shared state, uses only its share", async () => {
    const store = budget(TEN_SECONDS, 1 / 3);
    const answers = await takeMany(store, 34);
    expect(answers.filter((wait) => wait === 0)).toHaveLength(33);
    // The remote says the window is spent (the other processes used theirs): nothing until its end.
    const fresh = budget(TEN_SECONDS, 1 / 3);
    await takeOne(fresh);
    await fresh.observe({ limit: 100, remaining: 0, resetMs: 4000 });
    expect(await takeOne(fresh)).toBe(4000);
  });

  it("tells a waiting caller again when the wait grows, and holds it back", async () => {
    const store = budget({ requests: 1, windowMs: 2000 });
    const rate = new RateBudget(store);
    await rate.take();
    const waits: number[] = [];
    let doneAt = -1;
    const start = Date.now();
    const waiting = rate
      .take(undefined, (ms) => waits.push(ms))
      .then(() => {
        doneAt = Date.now() - start;
      });
    await vi.advanceTimersByTimeAsync(500);
    await rate.pause(3500); // the remote said: nothing more until 4 s
    await vi.advanceTimersByTimeAsync(4000);
    await waiting;
    expect(doneAt).toBe(4000);
    // Told 2,100 ms at first; on waking at 2,100 it finds the pause and is told the 1,900 ms left.
    expect(waits).toEqual([2100, 1900]);
  });

  it("a caller that cancels while waiting counts nothing", async () => {
    const store = budget({ requests: 1, windowMs: 1000 });
    const rate = new RateBudget(store);
    await rate.take();
    const controller = new AbortController();
    const cancelled = rate.take(controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(cancelled).rejects.toThrow("cancelled");
    await vi.advanceTimersByTimeAsync(1050);
    expect(await takeOne(store)).toBe(0);
  });

  it("a wait past the bound is the 429 error at once", async () => {
    const store = budget({ requests: 10, windowMs: 1000 });
    const rate = new RateBudget(store, 1000);
    await rate.pause(99_999_999_000); // Retry-After: 99999999, believed for 2 s
    const refused = await rate.take().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RemoteStatusError);
    expect((refused as RemoteStatusError).status).toBe(429);
    expect(MAX_PAUSE_MS).toBeGreaterThan(MAX_WAIT_MS);
  });

  it("an absurd Retry-After pauses a few of the service's windows, then one request probes", async () => {
    const store = budget(TEN_SECONDS);
    await store.pause(99_999_999_000); // Retry-After: 99999999
    expect(await takeOne(store)).toBe(10_000 * PAUSE_WINDOWS);
    await vi.advanceTimersByTimeAsync(10_000 * PAUSE_WINDOWS);
    // One request goes; the rest wait for its answer (or the window's end).
    const probe = await store.take();
    expect(probe.waitMs).toBe(0);
    expect(await takeOne(store)).toBeGreaterThan(0);
    await store.observe({ limit: 100, remaining: 99, resetMs: 10_000 }, probe.ticket);
    expect(await takeMany(store, 99)).toEqual(Array(99).fill(0));
    // A Retry-After within the bound is believed as it is, and no probe follows it.
    await vi.advanceTimersByTimeAsync(10_000);
    await store.pause(15_000);
    expect(await takeOne(store)).toBe(15_000);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await takeMany(store, 3)).toEqual([0, 0, 0]);
  });

  it("ignores headers that say nothing sensible", async () => {
    const store = budget({ requests: 2, windowMs: 1000 });
    await store.observe({ limit: Number.NaN, remaining: -3, resetMs: Number.POSITIVE_INFINITY });
    await store.observe({ limit: 0, remaining: Number.NaN, resetMs: -1 });
    expect(await takeMany(store, 3)).toEqual([0, 0, 1050]);
  });
});

describe.skipIf(!REDIS_SERVER)("rate budget shared in Redis", () => {
  let redis: RunningRedis;
  let replicas: SharedState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    replicas = [await openRedisState(redis), await openRedisState(redis), await openRedisState(redis)];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await redis?.stop();
  });
  let run = 0;
  const stores = (limit = TEN_SECONDS) => {
    const name = `credential-${++run}`;
    return replicas.map((replica) => replica.budget(name, limit));
  };

  it("three processes taking at once get exactly one window's worth between them", async () => {
    const all = stores({ requests: 50, windowMs: 60_000 });
    const answers = (await Promise.all(all.map((store) => takeMany(store, 40)))).flat();
    expect(answers.filter((wait) => wait === 0)).toHaveLength(50);
    for (const wait of answers.filter((w) => w > 0)) {
      expect(wait).toBeGreaterThan(58_000);
      expect(wait).toBeLessThanOrEqual(60_500);
    }
  });

  it("what one process hears from the remote, every process obeys", async () => {
    const [first, second, third] = stores() as [BudgetStore, BudgetStore, BudgetStore];
    expect(await takeOne(first)).toBe(0);
    await first.observe({ limit: 100, remaining: 3, resetMs: 7000 });
    expect(await takeMany(second, 3)).toEqual([0, 0, 0]);
    const wait = await takeOne(third);
    expect(wait).toBeGreaterThan(6000);
    expect(wait).toBeLessThanOrEqual(7000);
    await third.pause(20_000);
    const paused = await takeOne(first);
    expect(paused).toBeGreaterThan(19_000);
    expect(paused).toBeLessThanOrEqual(20_000);
  });

  it("bounds an absurd Retry-After by the service's window as one process does, then lets one request probe", async () => {
    const limit = { requests: 5, windowMs: 300 };
    const [first, second] = stores(limit) as [BudgetStore, BudgetStore];
    await first.pause(99_999_999_000); // Retry-After: 99999999
    const wait = await takeOne(second);
    expect(wait).toBeGreaterThan(limit.windowMs * PAUSE_WINDOWS - 100);
    expect(wait).toBeLessThanOrEqual(limit.windowMs * PAUSE_WINDOWS);
    await new Promise((resolve) => setTimeout(resolve, wait + 20));
    const probe = await second.take();
    expect(probe.waitMs).toBe(0);
    expect(await takeOne(first)).toBeGreaterThan(0);
    await second.observe({ limit: 5, remaining: 4, resetMs: 300 }, probe.ticket);
    expect(await takeMany(first, 4)).toEqual([0, 0, 0, 0]);
  });

  it("follows the same rules as one process: a stricter limit, the tightest end, a late answer", async () => {
    const [first, second] = stores() as [BudgetStore, BudgetStore];
    await takeOne(first);
    await first.observe({ limit: 5, remaining: 4, resetMs: 9000 });
    await second.observe({ limit: 5, remaining: 3, resetMs: 8000 }); // tighter: 8 s
    const answers = await takeMany(second, 4);
    expect(answers.slice(0, 3)).toEqual([0, 0, 0]);
    expect(answers[3]).toBeGreaterThan(7000);
    expect(answers[3]).toBeLessThanOrEqual(8000);
    await first.observe({ remaining: 0, resetMs: 20_000 }); // a later window than ours: followed
    const later = await takeOne(first);
    expect(later).toBeGreaterThan(19_000);
  });

  it("counts the requests in flight of every process: an answer saying what is left never frees a granted slot", async () => {
    const [first, second] = stores() as [BudgetStore, BudgetStore];
    expect(await takeMany(first, 50)).toEqual(Array(50).fill(0));
    expect(await takeMany(second, 50)).toEqual(Array(50).fill(0));
    await first.observe({ limit: 100, remaining: 99, resetMs: 10_000 });
    await second.observe({ limit: 100, remaining: 98, resetMs: 10_000 });
    expect(await takeOne(first)).toBeGreaterThan(0);
    expect(await takeOne(second)).toBeGreaterThan(0);
  });

  it("with nothing in flight, takes the remote's count as it is, whatever order the answers came in", async () => {
    const [first, second] = stores({ requests: 10, windowMs: 60_000 }) as [BudgetStore, BudgetStore];
    const tickets = [await first.take(), await second.take(), await first.take()];
    for (const [i, remaining] of [8, 7, 9].entries())
      await (i % 2 ? second : first).observe({ remaining, resetMs: 60_000 }, tickets[i]?.ticket);
    const answers = await takeMany(second, 8);
    expect(answers.slice(0, 7)).toEqual(Array(7).fill(0));
    expect(answers[7]).toBeGreaterThan(58_000);

    // A remote that counted one request less than the processes sent: the slot comes back once all
    // are answered.
    const [one, two] = stores({ requests: 3, windowMs: 60_000 }) as [BudgetStore, BudgetStore];
    const [a, b] = [await one.take(), await two.take()];
    await one.observe({ remaining: 2, resetMs: 60_000 }, a.ticket);
    expect(await takeOne(two)).toBe(0); // 3 granted, 1 answered: no more until the others answer
    expect(await takeOne(one)).toBeGreaterThan(0);
    await two.observe({ remaining: 2, resetMs: 60_000 }, b.ticket);
    await one.observe({ remaining: 1, resetMs: 60_000 }, a.ticket);
    expect(await takeOne(two)).toBe(0);
  });

  it("a late answer of the previous window neither ends nor spends the window another process just opened", async () => {
    // Windows of 2 s: long enough that a loaded machine does not see this one end before the last check.
    const [first, second] = stores({ requests: 10, windowMs: 2000 }) as [BudgetStore, BudgetStore];
    const { ticket: previous } = await first.take();
    await new Promise((resolve) => setTimeout(resolve, 2200)); // the window (and its margin) is over
    const { waitMs, ticket: current } = await second.take();
    expect(waitMs).toBe(0);
    expect(current).not.toBe(previous);
    // The request of the previous window answers now: its window is spent, and over in 100 ms.
    await first.observe({ limit: 10, remaining: 0, resetMs: 100 }, previous);
    expect(await takeMany(first, 9)).toEqual(Array(9).fill(0));
    // The same answer to a request of this window is the remote's word on this one: followed.
    await second.observe({ limit: 10, remaining: 0, resetMs: 1500 }, current);
    expect(await takeOne(first)).toBeGreaterThan(0);
  });

  it("joins the remote's window when an answer says it is still open after ours ended", async () => {
    const [first, second] = stores({ requests: 10, windowMs: 2000 }) as [BudgetStore, BudgetStore];
    expect(await takeOne(first)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    // A request that left just before our window ended reached the remote in its next window.
    await first.observe({ limit: 10, remaining: 7, resetMs: 2000 });
    const answers = await takeMany(second, 8);
    expect(answers.slice(0, 7)).toEqual(Array(7).fill(0));
    expect(answers[7]).toBeGreaterThan(0);
    expect(answers[7]).toBeLessThanOrEqual(2000);
  });

  it("ignores headers that say nothing sensible", async () => {
    const [first] = stores({ requests: 2, windowMs: 1000 }) as [BudgetStore];
    await first.observe({ limit: Number.NaN, remaining: -3, resetMs: -1 });
    const answers = await takeMany(first, 3);
    expect(answers.slice(0, 2)).toEqual([0, 0]);
    expect(answers[2]).toBeGreaterThan(0);
  });
});

if (!REDIS_SERVER) describe("rate budget shared in Redis", () => it.skip(NO_REDIS, () => {}));
