// The shared state of one process (core/state/memory-state.ts) frees what expired even when nobody reads
// it again: secrets written with a lifetime (a pending sign-in, a page's answer) by one person's
// abandoned attempts must not pile up in memory, while another person's live secret stays.
import { describe, expect, it } from "vitest";
import { MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";

describe("the in-memory shared state", () => {
  it("drops expired secrets no one reads again, and keeps live ones", async () => {
    let now = 1_000_000;
    const state = new MemoryState(() => now);
    await state.secrets.write("mira's sign-in", "live", { ttlMs: 60 * 60_000 });
    for (let n = 0; n < 5_000; n++) {
      await state.secrets.write(`tom's abandoned sign-in ${n}`, "x", { ttlMs: 10 * 60_000 });
    }
    expect(state.secrets.held).toBe(5_001);
    now += 11 * 60_000;
    await state.secrets.write("lin's sign-in", "new", { ttlMs: 10 * 60_000 });
    expect(state.secrets.held).toBe(2);
    expect((await state.secrets.read("mira's sign-in"))?.value).toBe("live");
    expect(await state.secrets.read("tom's abandoned sign-in 0")).toBeUndefined();
  });
});
