// The pieces of RemoteClient that decide when to wait and what to refuse.
import { afterEach, describe, expect, it, vi } from "vitest";
import { noAuth } from "../../packages/lab-mcp/src/core/http/auth.js";
import { RemoteClient } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import {
  DEFAULT_RETRY_POLICY,
  parseRateLimitReset,
  parseRetryAfter,
  retryDelay,
} from "../../packages/lab-mcp/src/core/http/retry.js";
import { MAX_TIMER_MS, sleep } from "../../packages/lab-mcp/src/core/sleep.js";

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

describe("sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
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
