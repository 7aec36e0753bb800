// One fixture shape for what a test file (or describe) starts once and closes after its tests: an
// emulator, an MCP client. Each `use…` helper of test/support is built on this.
import { afterAll, beforeAll } from "vitest";

/**
 * Starts what `start` makes in a beforeAll and closes it in an afterAll of the calling file or describe
 * (call it before that scope's own hooks: vitest runs beforeAll in order and afterAll in reverse, so
 * the scope's own hooks see it started and close their clients first). Returns a handle that reads
 * through to the started thing; reading it outside the hooks' span throws rather than reading stale.
 */
export function useStarted<T extends { close(): Promise<void> }>(what: string, start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    const closing = started;
    started = undefined;
    await closing?.close();
  });
  const current = (): T => {
    if (!started) throw new Error(`${what} is read before its beforeAll started it or after it closed`);
    return started;
  };
  return new Proxy({} as T, {
    get(_target, key) {
      const target = current();
      const value = Reflect.get(target, key, target);
      // Methods run on the started thing itself (private fields), not on the handle.
      return typeof value === "function" ? value.bind(target) : value;
    },
    has: (_target, key) => Reflect.has(current(), key),
  });
}
