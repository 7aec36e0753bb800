// Offset paging over a cursor API: how many remote pages each tool page costs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CursorPager, type FetchPage } from "../../packages/lab-mcp/src/core/cursor-pager.js";
import { MAX_CURSOR_QUERIES, MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";
import type { CursorStore, SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { NO_REDIS, openRedisState, REDIS_SERVER, type RunningRedis, startRedis } from "../support/redis.js";

/** A remote of `total` numbered items whose cursors are opaque; it counts the pages it serves. */
function cursorRemote(initialTotal: number) {
  let total = initialTotal;
  const served: Array<{ from: number; size: number }> = [];
  const fetchPage: FetchPage<number> = async (cursor, pageSize) => {
    const from = cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString());
    served.push({ from, size: pageSize });
    const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - from)) }, (_, i) => from + i);
    const next = from + items.length;
    return {
      items,
      total,
      nextCursor: next < total ? Buffer.from(String(next)).toString("base64url") : undefined,
    };
  };
  return {
    fetchPage,
    served,
    /** Items archived: the list is `left` long from now on. */
    shrinkTo(left: number) {
      total = left;
    },
  };
}

function pagerSuite(backend: string, cursorsOf: () => CursorStore) {
  describe(`CursorPager (cursors in ${backend})`, () => {
    it("costs one remote page per tool page when reading sequentially", async () => {
      const remote = cursorRemote(95);
      const pager = new CursorPager({ maxPageSize: 100, cursors: cursorsOf() });
      const seen: number[] = [];
      for (let offset = 0; offset < 95; offset += 20) {
        const { items, total } = await pager.page("q", offset, 20, remote.fetchPage);
        expect(total).toBe(95);
        seen.push(...items);
      }
      expect(seen).toEqual(Array.from({ length: 95 }, (_, i) => i));
      expect(remote.served).toHaveLength(5);
    });

    it("walks to a far offset in maximal pages, reporting progress, then reads from there", async () => {
      const remote = cursorRemote(2000);
      const pager = new CursorPager({ maxPageSize: 100, cursors: cursorsOf() });
      const walked: number[] = [];
      const { items } = await pager.page("q", 1900, 20, remote.fetchPage, (done) => walked.push(done));
      expect(items).toEqual(Array.from({ length: 20 }, (_, i) => 1900 + i));
      expect(remote.served.slice(0, -1).every((page) => page.size === 100)).toBe(true);
      expect(remote.served).toHaveLength(20);
      expect(walked[0]).toBe(0);
      expect(walked.at(-1)).toBe(1800);

      // The walk left cursors behind: a page near it costs little.
      remote.served.length = 0;
      await pager.page("q", 1950, 20, remote.fetchPage);
      expect(remote.served).toEqual([
        { from: 1920, size: 30 },
        { from: 1950, size: 20 },
      ]);
    });

    it("reads a list that shrank since its cursors were remembered from the start again, never taking a remembered position for its end", async () => {
      const remote = cursorRemote(95);
      const pager = new CursorPager({ maxPageSize: 100, cursors: cursorsOf() });
      await pager.page("shrinking", 0, 20, remote.fetchPage);
      await pager.page("shrinking", 20, 20, remote.fetchPage);
      await pager.page("shrinking", 40, 20, remote.fetchPage);
      // Items archived between calls: 30 are left, and the cursor remembered at 60 now points past them.
      remote.shrinkTo(30);
      remote.served.length = 0;
      const after = await pager.page("shrinking", 60, 20, remote.fetchPage);
      expect(after.items).toEqual([]);
      expect(after.end).toBe(30);
      expect(remote.served[0]).toEqual({ from: 60, size: 20 });
      expect(remote.served.slice(1)).toEqual([{ from: 0, size: 60 }]);
      // The next page from the fresh start is read as the list is now.
      const first = await pager.page("shrinking", 20, 20, remote.fetchPage);
      expect(first.items).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
      expect(first.end).toBe(30);
    });

    it("keeps the cursors of one query apart from another's", async () => {
      const remote = cursorRemote(200);
      const pager = new CursorPager({ maxPageSize: 100, cursors: cursorsOf() });
      await pager.page("a", 100, 10, remote.fetchPage);
      remote.served.length = 0;
      await pager.page("b", 100, 10, remote.fetchPage);
      expect(remote.served[0]).toEqual({ from: 0, size: 100 });
    });

    it("answers an offset past the end with no items and the total", async () => {
      const remote = cursorRemote(30);
      const pager = new CursorPager({ maxPageSize: 100, cursors: cursorsOf() });
      expect(await pager.page("q", 50, 10, remote.fetchPage)).toEqual({ items: [], total: 30, end: 30 });
    });
  });
}

pagerSuite("memory", () => new MemoryState().cursors);

describe.skipIf(!REDIS_SERVER)("CursorPager, cursors in Redis", () => {
  let redis: RunningRedis;
  const states: SharedState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    states.push(await openRedisState(redis), await openRedisState(redis));
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis?.stop();
  });
  let prefix = 0;
  pagerSuite("Redis", () => {
    // Each test its own queries: a fresh prefix per pager.
    const state = states[0] as SharedState;
    const run = ++prefix;
    return {
      nearest: (query, offset) => state.cursors.nearest(`${run}:${query}`, offset),
      remember: (query, position, cursor) => state.cursors.remember(`${run}:${query}`, position, cursor),
    };
  });

  it("shares the cursors between processes: the next page costs one remote page on the other replica", async () => {
    const remote = cursorRemote(100);
    const [first, second] = states.map(
      (state) => new CursorPager({ maxPageSize: 100, cursors: state.cursors }),
    );
    await first?.page("shared", 0, 20, remote.fetchPage);
    await second?.page("shared", 20, 20, remote.fetchPage);
    await first?.page("shared", 40, 20, remote.fetchPage);
    expect(remote.served).toEqual([
      { from: 0, size: 20 },
      { from: 20, size: 20 },
      { from: 40, size: 20 },
    ]);
  });

  it("keeps no query text in Redis's keys", async () => {
    const remote = cursorRemote(100);
    const pager = new CursorPager({ maxPageSize: 100, cursors: (states[0] as SharedState).cursors });
    await pager.page("name contains: secret-project-x", 0, 20, remote.fetchPage);
    const keys = await (states[0] as unknown as { redis: { keys(p: string): Promise<string[]> } }).redis.keys(
      "*",
    );
    expect(keys.some((key) => key.includes("cursors:"))).toBe(true);
    expect(keys.join(" ")).not.toContain("secret-project-x");
  });
});

if (!REDIS_SERVER) describe("CursorPager, cursors in Redis", () => it.skip(NO_REDIS, () => {}));

describe("CursorPager, cursors in memory", () => {
  it("forgets the least recently used query past its bound", async () => {
    const remote = cursorRemote(200);
    const pager = new CursorPager({ maxPageSize: 100, cursors: new MemoryState().cursors });
    await pager.page("a", 100, 10, remote.fetchPage);
    for (let i = 0; i < MAX_CURSOR_QUERIES; i++) await pager.page(`other ${i}`, 100, 10, remote.fetchPage);
    remote.served.length = 0;
    await pager.page("a", 100, 10, remote.fetchPage);
    expect(remote.served[0]).toEqual({ from: 0, size: 100 });
  });
});
