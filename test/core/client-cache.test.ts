// ClientCache: one client per credential, bounded to the most recently used credentials.
import { describe, expect, it } from "vitest";
import { ClientCache } from "../../packages/lab-mcp/src/core/http/client-cache.js";

describe("ClientCache", () => {
  it("makes a credential's value once and hands the same one back", () => {
    const cache = new ClientCache<{ id: string }>();
    let made = 0;
    const create = () => ({ id: `client ${++made}` });
    const first = cache.obtain("key-a", create);
    expect(cache.obtain("key-a", create)).toBe(first);
    expect(made).toBe(1);
  });

  it("keeps at most its bound, dropping the least recently used", () => {
    const cache = new ClientCache<string>(3);
    for (const key of ["a", "b", "c"]) cache.obtain(key, () => key.toUpperCase());
    cache.obtain("a", () => "never"); // a is now the most recently used
    cache.obtain("d", () => "D");
    expect(cache.size).toBe(3);
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBe("A");
    expect(cache.peek("c")).toBe("C");
    expect(cache.peek("d")).toBe("D");
  });

  it("stays bounded however many credentials come (a key per HTTP session, a sign-in per person)", () => {
    const cache = new ClientCache<number>(100);
    for (let n = 0; n < 10_000; n++) cache.obtain(`session-key-${n}`, () => n);
    expect(cache.size).toBe(100);
    expect(cache.peek("session-key-9999")).toBe(9999);
    expect(cache.peek("session-key-0")).toBeUndefined();
  });

  it("set() replaces a value and counts as a use", () => {
    const cache = new ClientCache<string>(2);
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("a", "3");
    cache.set("c", "4");
    expect(cache.peek("a")).toBe("3");
    expect(cache.peek("b")).toBeUndefined();
  });
});
