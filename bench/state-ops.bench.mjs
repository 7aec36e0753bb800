// What the shared state costs per remote request: one rate-budget take and one observe (what every
// request to a remote does), in this process's memory (the baseline, measured in the same run) and in a
// real Redis on loopback (the Lua scripts of core/state/redis-scripts.ts), one caller at a time and 8 at
// once; plus a secret read (the shared OAuth token is read only when a process's own copy is due).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, percentile, print, watchdog } from "./lib.mjs";

const OPERATIONS = 5000;
const CONCURRENT = 8;

const { findProgram, missingProgramsLine } = await import("../packages/emulators/dist/fleet/programs.js");
const { startRedis } = await import("../packages/emulators/dist/fleet/redis.js");
const { MemoryState } = await import("../packages/lab-mcp/dist/core/state/memory-state.js");
const { RedisState } = await import("../packages/lab-mcp/dist/core/state/redis-state.js");
const { SecretBox } = await import("../packages/lab-mcp/dist/core/state/secret-box.js");

/** Latencies (ms) of `count` runs of `operation`, `parallel` callers at once. */
async function measure(operation, count, parallel) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        const at = performance.now();
        await operation();
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: median(latencies), p99: percentile(latencies, 99) };
}

async function requestCost(state, name) {
  // A limit no run reaches: every take is granted, as in a window with room.
  const budget = state.budget(name, { requests: 1e9, windowMs: 10_000 });
  return async () => {
    const { ticket } = await budget.take();
    await budget.observe({ limit: 1e9, remaining: 1e9 - 1, resetMs: 9000 }, ticket);
  };
}

async function main() {
  const program = findProgram("redis-server");
  if (!program) {
    process.stdout.write(`state-ops: skipped. ${missingProgramsLine(["redis-server"])}\n`);
    return;
  }
  watchdog("state-ops", 120_000);
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-bench-state-"));
  const redis = await startRedis(program, dir);
  const memory = new MemoryState();
  const shared = await RedisState.open({
    url: redis.url,
    prefix: "bench:",
    box: new SecretBox(Buffer.alloc(32, 7)),
    warn: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    await shared.secrets.write("token", JSON.stringify({ value: "x".repeat(40), renewAt: 0, expiresAt: 0 }));
    await memory.secrets.write("token", JSON.stringify({ value: "x".repeat(40), renewAt: 0, expiresAt: 0 }));
    const rows = [];
    for (const [what, parallel] of [
      ["take + observe, one caller", 1],
      [`take + observe, ${CONCURRENT} callers`, CONCURRENT],
    ]) {
      const base = await measure(await requestCost(memory, `memory-${parallel}`), OPERATIONS, parallel);
      const lua = await measure(await requestCost(shared, `redis-${parallel}`), OPERATIONS, parallel);
      rows.push([
        what,
        "memory (baseline)",
        base.perSecond.toFixed(0),
        base.p50.toFixed(3),
        base.p99.toFixed(3),
        "1.0",
      ]);
      rows.push([
        what,
        "Redis (Lua)",
        lua.perSecond.toFixed(0),
        lua.p50.toFixed(3),
        lua.p99.toFixed(3),
        (lua.p50 / base.p50).toFixed(1),
      ]);
    }
    const readMemory = await measure(() => memory.secrets.read("token"), OPERATIONS, 1);
    const readRedis = await measure(() => shared.secrets.read("token"), OPERATIONS, 1);
    rows.push([
      "sealed secret read",
      "memory (baseline)",
      readMemory.perSecond.toFixed(0),
      readMemory.p50.toFixed(3),
      readMemory.p99.toFixed(3),
      "1.0",
    ]);
    rows.push([
      "sealed secret read",
      "Redis (AES-256-GCM)",
      readRedis.perSecond.toFixed(0),
      readRedis.p50.toFixed(3),
      readRedis.p99.toFixed(3),
      (readRedis.p50 / readMemory.p50).toFixed(1),
    ]);
    print(["operation", "state", "ops/s", "p50 ms", "p99 ms", "p50 vs memory"], rows, [
      `${OPERATIONS} operations each; Redis is Debian's redis-server on loopback, no persistence. A remote request to the`,
      "lab platform takes milliseconds to hundreds of milliseconds, and its budget allows 10 per second: the shared",
      "budget's cost per request is what the Redis rows add to it.",
    ]);
  } finally {
    await shared.close();
    await redis.process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
