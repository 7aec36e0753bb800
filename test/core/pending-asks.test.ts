// The pages opened for a user across the rounds of a multi-round-trip request: only the caller who
// opened one may wait for it, and a page is closed when its ask ends, times out or gives way.
import { describe, expect, it } from "vitest";
import {
  MAX_PENDING,
  MAX_PENDING_PER_CALLER,
  PendingAsks,
} from "../../packages/lab-mcp/src/core/pages/pending-asks.js";

function page() {
  let closed = 0;
  let settle: (value: string) => void = () => {};
  const until = new Promise<string>((resolve) => {
    settle = resolve;
  });
  return { url: "http://127.0.0.1:1/p", until, close: () => void closed++, closed: () => closed, settle };
}

describe("PendingAsks", () => {
  it("gives an ask back to the caller who opened it, and to no other", async () => {
    const asks = new PendingAsks();
    const opened = page();
    const id = asks.add("session:a", opened, 60_000);
    expect(asks.get(id, "session:b")).toBeUndefined();
    expect(asks.get("another-id", "session:a")).toBeUndefined();
    const mine = asks.get<string>(id, "session:a");
    opened.settle("typed");
    expect(await mine?.page.until).toBe("typed");
    asks.finish(id);
    expect(opened.closed()).toBe(1);
    expect(asks.get(id, "session:a")).toBeUndefined();
    asks.finish(id);
    expect(opened.closed()).toBe(1);
  });

  it("closes a page whose time is up", async () => {
    const asks = new PendingAsks();
    const opened = page();
    const id = asks.add("stdio", opened, 20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(opened.closed()).toBe(1);
    expect(asks.get(id, "stdio")).toBeUndefined();
  });

  it("closes the caller's own oldest page when they have too many open", () => {
    const asks = new PendingAsks();
    const pages = Array.from({ length: MAX_PENDING_PER_CALLER + 1 }, () => page());
    const ids = pages.map((opened) => asks.add("stdio", opened, 60_000));
    expect(pages[0]?.closed()).toBe(1);
    expect(asks.get(ids[0] as string, "stdio")).toBeUndefined();
    expect(asks.get(ids.at(-1) as string, "stdio")).toBeDefined();
    expect(pages.slice(1).every((opened) => opened.closed() === 0)).toBe(true);
  });

  it("never closes another person's page, however many asks one person opens", () => {
    const asks = new PendingAsks();
    const bobs = page();
    const bobsId = asks.add("person:bob", bobs, 60_000);
    const alices = Array.from({ length: 100 }, () => page());
    for (const opened of alices) asks.add("person:alice", opened, 60_000);
    expect(bobs.closed()).toBe(0);
    expect(asks.get(bobsId, "person:bob")).toBeDefined();
    expect(alices.filter((opened) => opened.closed() === 0)).toHaveLength(MAX_PENDING_PER_CALLER);
  });

  it("counts a person's asks across all their sessions: abandoned sessions by the thousand leave room for everyone else", () => {
    const asks = new PendingAsks();
    const toms = Array.from({ length: MAX_PENDING + 100 }, () => page());
    // One session per ask, each abandoned after opening its page, all of them Tom's.
    toms.forEach((opened, n) => {
      asks.add(`session:${n}`, opened, 60_000, "person:tom");
    });
    expect(toms.filter((opened) => opened.closed() === 0)).toHaveLength(MAX_PENDING_PER_CALLER);
    const miras = page();
    const id = asks.add("session:mira", miras, 60_000, "person:mira");
    expect(asks.get(id, "session:mira")).toBeDefined();
    expect(miras.closed()).toBe(0);
  });
});
