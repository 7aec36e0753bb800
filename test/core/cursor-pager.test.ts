// Offset paging over a cursor API: how many remote pages each tool page costs.
import { describe, expect, it } from "vitest";
import { CursorPager, type FetchPage } from "../../packages/lab-mcp/src/core/cursor-pager.js";

/** A remote of `total` numbered items whose cursors are opaque; it counts the pages it serves. */
function cursorRemote(total: number) {
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
  return { fetchPage, served };
}

describe("CursorPager", () => {
  it("costs one remote page per tool page when reading sequentially", async () => {
    const remote = cursorRemote(95);
    const pager = new CursorPager({ maxPageSize: 100 });
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
    const pager = new CursorPager({ maxPageSize: 100 });
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

  it("keeps the cursors of one query apart from another's", async () => {
    const remote = cursorRemote(200);
    const pager = new CursorPager({ maxPageSize: 100 });
    await pager.page("a", 100, 10, remote.fetchPage);
    remote.served.length = 0;
    await pager.page("b", 100, 10, remote.fetchPage);
    expect(remote.served[0]).toEqual({ from: 0, size: 100 });
  });

  it("forgets the least recently used query past its bound", async () => {
    const remote = cursorRemote(200);
    const pager = new CursorPager({ maxPageSize: 100, maxQueries: 2 });
    await pager.page("a", 100, 10, remote.fetchPage);
    await pager.page("b", 100, 10, remote.fetchPage);
    await pager.page("c", 100, 10, remote.fetchPage);
    remote.served.length = 0;
    await pager.page("a", 100, 10, remote.fetchPage);
    expect(remote.served[0]).toEqual({ from: 0, size: 100 });
  });

  it("answers an offset past the end with no items and the total", async () => {
    const remote = cursorRemote(30);
    const pager = new CursorPager({ maxPageSize: 100 });
    expect(await pager.page("q", 50, 10, remote.fetchPage)).toEqual({ items: [], total: 30 });
  });
});
