// The pieces of RemoteClient that decide when to wait and what to refuse.
import { afterEach, describe, expect, it, vi } from "vitest";
import { RemoteStatusError } from "../../packages/lab-mcp/src/core/errors.js";
import { noAuth } from "../../packages/lab-mcp/src/core/http/auth.js";
import {
  MAX_PAUSE_MS,
  MAX_TIMER_MS,
  MAX_WAIT_MS,
  MAX_WINDOW_MS,
  sleep,
  TokenBucket,
} from "../../packages/lab-mcp/src/core/http/rate-limiter.js";
import { RemoteClient } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import {
  DEFAULT_RETRY_POLICY,
  parseRateLimitReset,
  parseRetryAfter,
  retryDelay,
} from "../../packages/lab-mcp/src/core/http/retry.js";

describe("HTTPS only", () => {
  it.each(["http://127.0.0.1:8443/api", "ftp://example.org/", "not a url", "https://user:pw@example.org/"])(
    "refuses the base URL %s",
    (baseUrl) => {
      expect(() => new RemoteClient({ baseUrl, auth: noAuth })).toThrow();
    },
  );

  it("joins paths under the base path", () => {
    const client = new RemoteClient({ baseUrl: "https://lab.example/api/v2", auth: noAuth });
    expect(client.baseUrl.href).toBe("https://lab.example/api/v2/");
  });
});

describe("TokenBucket", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a burst of its capacity through, then serves waiting callers in order at the refill rate", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 2, windowMs: 1000 });
    const finished: Array<[number, number]> = [];
    const waits: number[] = [];
    const start = Date.now();
    const calls = [0, 1, 2, 3, 4].map((i) =>
      bucket.take(undefined, (ms) => waits.push(ms)).then(() => finished.push([i, Date.now() - start])),
    );
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(calls);
    expect(finished).toEqual([
      [0, 0],
      [1, 0],
      [2, 500],
      [3, 1000],
      [4, 1500],
    ]);
    expect(waits).toEqual([500, 1000, 1500]);
  });

  it("gives back the reservation of a caller that cancels", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 1, windowMs: 1000 });
    await bucket.take();
    const controller = new AbortController();
    const cancelled = bucket.take(controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(cancelled).rejects.toThrow("cancelled");
    const next = bucket.take();
    let done = false;
    void next.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it("holds everyone back while paused, and follows the remote's remaining count", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 100, windowMs: 10_000 });
    bucket.pause(2000);
    const waits: number[] = [];
    const taken = bucket.take(undefined, (ms) => waits.push(ms));
    await vi.advanceTimersByTimeAsync(2000);
    await taken;
    expect(waits).toEqual([2000]);

    bucket.observe({ limit: 100, remaining: 0, resetMs: 3000 });
    const afterReset = bucket.take(undefined, (ms) => waits.push(ms));
    await vi.advanceTimersByTimeAsync(3000);
    await afterReset;
    expect(waits[1]).toBe(3000);
  });

  it("holds back a caller already waiting when a pause starts", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 1, windowMs: 1000 });
    await bucket.take();
    let doneAt = -1;
    const waits: number[] = [];
    const start = Date.now();
    const waiting = bucket
      .take(undefined, (ms) => waits.push(ms))
      .then(() => {
        doneAt = Date.now() - start;
      });
    await vi.advanceTimersByTimeAsync(500);
    bucket.pause(2000); // the remote said: nothing more until 2.5 s
    await vi.advanceTimersByTimeAsync(3000);
    await waiting;
    expect(doneAt).toBe(2500);
    // told once at the start, and again when the pause made the wait longer
    expect(waits).toEqual([1000, 1500]);
  });

  it("learns a stricter limit and its window from the remote's headers", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 100, windowMs: 10_000 });
    bucket.observe({ limit: 5, remaining: 4, resetMs: 2000 });
    const finished: number[] = [];
    const start = Date.now();
    const calls = Array.from({ length: 6 }, () =>
      bucket.take().then(() => finished.push(Date.now() - start)),
    );
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(calls);
    // 4 left now, then one every 2000 / 5 = 400 ms
    expect(finished).toEqual([0, 0, 0, 0, 400, 800]);
  });
});

describe("TokenBucket against absurd rate headers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a wait past the bound is the 429 error at once, and the reservation is given back", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 10, windowMs: 1000 });
    bucket.pause(99_999_999_000); // Retry-After: 99999999
    const refused = await bucket.take().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RemoteStatusError);
    expect((refused as RemoteStatusError).status).toBe(429);
    // The pause itself is bounded: after it, calls go through again (all 10 tokens still there).
    await vi.advanceTimersByTimeAsync(MAX_PAUSE_MS);
    for (let i = 0; i < 10; i++) await bucket.take();
  });

  it("a learnt window is bounded, and shrinks back when the remote reports a shorter one", async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ requests: 100, windowMs: 10_000 });
    bucket.observe({ limit: 1, remaining: 1, resetMs: 1_000_000_000 });
    await bucket.take();
    const waits: number[] = [];
    await expect(bucket.take(undefined, (ms) => waits.push(ms))).rejects.toBeInstanceOf(RemoteStatusError);
    expect(MAX_WINDOW_MS).toBeGreaterThan(MAX_WAIT_MS);
    bucket.observe({ limit: 1, remaining: 1, resetMs: 1000 });
    const next = bucket.take(undefined, (ms) => waits.push(ms));
    await vi.advanceTimersByTimeAsync(1000);
    await next;
    expect(waits).toEqual([1000]);
  });

  it("never arms a timer past 2^31-1 ms (Node would fire it at once)", async () => {
    vi.useFakeTimers();
    const armed: number[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((handler: () => void, ms?: number) => {
      armed.push(ms ?? 0);
      return original(handler, ms);
    }) as typeof setTimeout);
    try {
      const controller = new AbortController();
      const sleeping = sleep(5 * MAX_TIMER_MS, controller.signal);
      await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 10);
      controller.abort(new Error("stop"));
      await expect(sleeping).rejects.toThrow("stop");
      expect(armed.length).toBe(2);
      expect(Math.max(...armed)).toBeLessThanOrEqual(MAX_TIMER_MS);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("x-rate-limit-reset", () => {
  const now = Date.parse("2026-11-23T00:00:00Z");
  it("reads seconds from now, or a Unix time in seconds or milliseconds", () => {
    expect(parseRateLimitReset("10", now)).toBe(10_000);
    expect(parseRateLimitReset(String(now / 1000 + 30), now)).toBe(30_000);
    expect(parseRateLimitReset(String(now + 5000), now)).toBe(5000);
    expect(parseRateLimitReset(String(now / 1000 - 30), now)).toBe(0);
    expect(parseRateLimitReset("-5", now)).toBeUndefined();
    expect(parseRateLimitReset("soon", now)).toBeUndefined();
    expect(parseRateLimitReset(null, now)).toBeUndefined();
  });
});

describe("retry after 429", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", Date.parse("2026-01-01T00:00:00Z"))).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("waits what the remote asked plus a little jitter", () => {
    expect(retryDelay(0, 2000, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(
      2000 + 0.5 * DEFAULT_RETRY_POLICY.baseDelayMs,
    );
  });

  it("otherwise backs off exponentially with full jitter, capped", () => {
    const top = (attempt: number) => retryDelay(attempt, undefined, DEFAULT_RETRY_POLICY, () => 1);
    expect([0, 1, 2, 3, 10].map(top)).toEqual([500, 1000, 2000, 4000, DEFAULT_RETRY_POLICY.maxDelayMs]);
    expect(retryDelay(3, undefined, DEFAULT_RETRY_POLICY, () => 0.25)).toBe(1000);
  });
});
