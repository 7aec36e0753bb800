// Latency of one example_search_users call (query "chen", limit 20) against the example emulator, four
// ways in the same run: the remote request made directly with fetch (the baseline), and the tool
// called through the SDK's Client in memory, over stdio and over streamable HTTP.
//
// The example server keeps a client-side token bucket of 100 requests / 10 s per service instance
// (one per process, or one per prepare() in memory). So calls run in sessions, each against a fresh
// server with a fresh bucket, never spending more than SESSION_CALLS tokens of it. Sessions of the
// four variants take turns (round-robin), so that drift of the machine hits all of them alike.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { prepare } from "../dist/core/run.js";
import { createMcpServer } from "../dist/core/server.js";
import { startExampleEmulator } from "../dist/emulators/example/index.js";
import { exampleService } from "../dist/services/example/index.js";

const BIN = join(import.meta.dirname, "..", "dist", "bin", "example-mcp.js");
const TOOL = "example_search_users";
const ARGS = { query: "chen", limit: 20 };

const ITERATIONS = positiveInteger("BENCH_ITERATIONS", 500);
/** Unmeasured calls before a variant's first measured call. */
const WARMUP = 50;
/** Calls made on one fresh server: below the 100-token bucket, so no call ever waits for a token. */
const SESSION_CALLS = 90;
/** Unmeasured calls at the start of every later session (new process: JIT, TLS to the emulator). */
const REWARM = 10;
/** The whole benchmark must end by then; a hang is a failure, not a wait. */
const WATCHDOG_MS = 170_000;

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return Number(raw);
}

function caFromEnv() {
  const certPem = process.env.BENCH_CA_CERT;
  const keyPem = process.env.BENCH_CA_KEY;
  if (!certPem || !keyPem || !process.env.NODE_EXTRA_CA_CERTS) {
    throw new Error(
      "BENCH_CA_CERT, BENCH_CA_KEY and NODE_EXTRA_CA_CERTS must be set: run through bench/run.mjs",
    );
  }
  return { certPem, keyPem };
}

function newClient() {
  return new Client({ name: "lab-mcp-bench", version: "1.0.0" }, { capabilities: {} });
}

/** One tool call, failing loudly on anything but the expected search result. */
async function callTool(client) {
  const result = await client.callTool({ name: TOOL, arguments: ARGS });
  const text = result.content?.[0]?.text;
  if (result.isError || typeof text !== "string" || !text.startsWith("# User Search Results")) {
    throw new Error(`unexpected tool result: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

const liveChildren = new Set();
// Interrupted: take the HTTP servers down too (stdio servers end by themselves when their stdin closes).
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of liveChildren) child.kill("SIGTERM");
    process.exit(130);
  });
}

/** The example-mcp bin serving streamable HTTP on a free loopback port; resolves once it listens. */
async function startHttpServer(env) {
  const child = spawn(process.execPath, [BIN], {
    env: { ...env, MCP_TRANSPORT: "http", MCP_PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line; stderr: ${stderr}`)), 15_000);
    child.stderr.on("data", (chunk) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`example-mcp exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Each variant opens a session (outside the timed region) whose call() is what gets timed. */
function variants(emulator) {
  const serverEnv = {
    PATH: process.env.PATH ?? "",
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS,
    EXAMPLE_BASE_URL: emulator.url,
    EXAMPLE_API_KEY: emulator.apiKey,
  };
  const searchUrl = `${emulator.url}/users/search?q=chen&limit=20&offset=0`;
  const headers = { authorization: `Bearer ${emulator.apiKey}`, accept: "application/json" };

  return [
    {
      name: "direct fetch (baseline)",
      async open() {
        return {
          async call() {
            const response = await fetch(searchUrl, { headers });
            const body = await response.json();
            if (!response.ok || !Array.isArray(body.users)) {
              throw new Error(
                `unexpected response ${response.status}: ${JSON.stringify(body).slice(0, 300)}`,
              );
            }
          },
          async close() {},
        };
      },
    },
    {
      name: "MCP in memory",
      async open() {
        // As the bin would read its settings, but from this env only: a fresh service, a fresh bucket.
        const prepared = prepare(exampleService, [], {
          EXAMPLE_BASE_URL: emulator.url,
          EXAMPLE_API_KEY: emulator.apiKey,
        });
        const server = createMcpServer(exampleService, prepared.service, prepared.core);
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const client = newClient();
        await client.connect(clientSide);
        return {
          call: () => callTool(client),
          async close() {
            await client.close();
            await server.close();
          },
        };
      },
    },
    {
      name: "MCP over stdio",
      async open() {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [BIN],
          env: serverEnv,
          stderr: "pipe",
        });
        let stderr = "";
        transport.stderr?.on("data", (chunk) => {
          stderr += chunk.toString();
        });
        const client = newClient();
        try {
          await client.connect(transport);
        } catch (error) {
          throw new Error(`stdio connect failed: ${error}; stderr: ${stderr}`);
        }
        return { call: () => callTool(client), close: () => client.close() };
      },
    },
    {
      name: "MCP over streamable HTTP",
      async open() {
        const server = await startHttpServer(serverEnv);
        const transport = new StreamableHTTPClientTransport(new URL(server.url));
        const client = newClient();
        try {
          await client.connect(transport);
        } catch (error) {
          await server.stop();
          throw error;
        }
        return {
          call: () => callTool(client),
          async close() {
            await transport.terminateSession().catch(() => undefined);
            await client.close();
            await server.stop();
          },
        };
      },
    },
  ];
}

/** Session plan shared by all variants: [warm-up calls, measured calls] per fresh server. */
function sessionPlan() {
  const plan = [];
  let left = ITERATIONS;
  for (let first = true; left > 0; first = false) {
    const warmup = first ? WARMUP : REWARM;
    const measured = Math.min(left, SESSION_CALLS - warmup);
    plan.push([warmup, measured]);
    left -= measured;
  }
  return plan;
}

async function runSession(variant, warmup, measured, samples) {
  const session = await variant.open();
  try {
    for (let i = 0; i < warmup; i++) await session.call();
    for (let i = 0; i < measured; i++) {
      const started = performance.now();
      await session.call();
      samples.push(performance.now() - started);
    }
  } finally {
    await session.close();
  }
}

/** Nearest-rank percentile of ascending samples. */
function percentile(sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function summarise(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { name, calls: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

function table(rows) {
  const baseline = rows[0].p50;
  const header = ["variant", "calls", "p50 ms", "p99 ms", "mean ms", "p50 ratio vs direct fetch"];
  const body = rows.map((row) => [
    row.name,
    String(row.calls),
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    row.mean.toFixed(3),
    `${(row.p50 / baseline).toFixed(2)}x`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => cells[column].length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `:${"-".repeat(width + 1)}` : `${"-".repeat(width + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

async function main() {
  const watchdog = setTimeout(() => {
    process.stderr.write(`call-overhead did not finish within ${WATCHDOG_MS / 1000} s\n`);
    for (const child of liveChildren) child.kill("SIGKILL");
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();

  const emulator = await startExampleEmulator({ ca: caFromEnv() });
  try {
    const all = variants(emulator);
    const samples = all.map(() => []);
    const plan = sessionPlan();
    // Round-robin: session r of every variant, rotating which goes first.
    for (const [round, [warmup, measured]] of plan.entries()) {
      for (let k = 0; k < all.length; k++) {
        const index = (round + k) % all.length;
        await runSession(all[index], warmup, measured, samples[index]);
      }
    }

    // Every call, measured or not, must have been exactly one remote request: no retry, no extra call.
    const callsPerVariant = plan.reduce((sum, [warmup, measured]) => sum + warmup + measured, 0);
    const expected = callsPerVariant * all.length;
    const served = emulator.requests.count();
    if (served !== expected) throw new Error(`the emulator served ${served} requests, expected ${expected}`);

    process.stdout.write(`${table(all.map((variant, i) => summarise(variant.name, samples[i])))}\n\n`);
    const sessions = plan.length;
    process.stdout.write(
      [
        `One call: ${TOOL} {query: "chen", limit: 20}; baseline: GET users/search?q=chen&limit=20&offset=0`,
        "with the same bearer key, body read as JSON, over keep-alive HTTPS. The emulator runs in this",
        "process; stdio and HTTP servers are child processes of it. Times are per sequential call",
        "(performance.now), percentiles by nearest rank.",
        `Rate limiter: example-mcp allows 100 requests / 10 s per server process, so each variant ran ${sessions}`,
        `sessions on a fresh server (new process, or new prepare() in memory) of at most ${SESSION_CALLS} calls:`,
        `the first with ${WARMUP} warm-up calls, the others with ${REWARM} (new process: JIT, TLS to the emulator),`,
        "then the measured calls. The baseline follows the same plan. Spawning, connecting and closing are",
        "outside the timed region; sessions of the four variants alternate. So no call can wait for a token,",
        `and the emulator served exactly ${served} requests, one per call (none retried).`,
      ].join("\n"),
    );
    process.stdout.write("\n");
  } finally {
    await emulator.close();
  }
}

await main();
