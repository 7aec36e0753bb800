// The young heap of a server stays at V8's first size (core/start/young-heap.ts): start-up's long-lived
// objects must not grow it to 32 MiB that an idle server then keeps. Every bin loads that module
// first, before anything that builds them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectStdio, ROOT } from "../support/clients.js";
import { closedPort } from "../support/processes.js";

const PRODUCT = join(ROOT, "packages", "lab-mcp");

/** The young generation's size (MiB) after `script` builds 24 MiB of objects that survive, in a fresh node. */
function youngHeapAfterStartUp(preload: string[]): number {
  const script = `
    ${preload.map((path) => `await import(${JSON.stringify(path)});`).join("\n")}
    const { getHeapSpaceStatistics } = await import("node:v8");
    const kept = [];
    for (let i = 0; i < 200_000; i++) kept.push({ name: "field " + i, shape: { type: "string", index: i } });
    const young = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1024 / 1024) + " " + kept.length);
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return Number(out.split(" ")[0]);
}

describe("the young heap", () => {
  it("stays at its first size while long-lived objects are built (and grows without young-heap.js)", () => {
    expect(
      youngHeapAfterStartUp([join(PRODUCT, "dist", "core", "start", "young-heap.js")]),
    ).toBeLessThanOrEqual(2);
    expect(youngHeapAfterStartUp([])).toBeGreaterThan(2);
  });

  it("is the first module every bin loads", () => {
    const bins = readdirSync(join(PRODUCT, "src", "bin")).filter((name) => name.endsWith(".ts"));
    expect(bins.length).toBeGreaterThanOrEqual(4);
    for (const bin of bins) {
      const source = readFileSync(join(PRODUCT, "src", "bin", bin), "utf8");
      const first = /^import\s+(?:[^;]*?from\s+)?"([^"]+)";?$/m.exec(source)?.[1];
      expect(first, bin).toBe("../core/start/young-heap.js");
    }
  });

  // The bins ship bundled (rolldown.config.mjs): the flag must still be set before start-up builds.
  // Measured after tools/list: 8 MiB with it, 16 to 32 without (a bundle that lost it).
  it.each(["labdata-mcp", "protocols-mcp"])("stays small in the built %s, bundled", async (bin) => {
    const dir = mkdtempSync(join(tmpdir(), "young-heap-"));
    const report = join(dir, "report.cjs");
    writeFileSync(
      report,
      `process.on("exit", () => {
  const young = require("node:v8").getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  process.stderr.write("new_space_mib=" + young.space_size / 1024 / 1024 + "\\n");
});`,
    );
    const remote = `https://127.0.0.1:${await closedPort()}`;
    const connection = await connectStdio(bin, {
      LABDATA_BASE_URL: remote,
      LABDATA_API_KEY: "sk_unused",
      PROTOCOLS_BASE_URL: remote,
      PROTOCOLS_ACCESS_TOKEN: "unused",
      NODE_OPTIONS: `--require=${report}`,
    });
    await connection.client.listTools();
    await connection.close();
    const size = Number(/new_space_mib=([\d.]+)/.exec(connection.stderr())?.[1] ?? Number.NaN);
    expect(size).toBeLessThan(16);
  });
});
