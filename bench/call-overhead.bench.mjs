// Latency of one example_search_users call (query "chen", limit 20) against the example emulator, five
// ways in the same run: the remote request made directly with fetch (the baseline), and the tool
// called through the SDK's Client in memory, over stdio and over streamable HTTP (a 2025-11-25
// session), and through a 2026-07-28 client over stateless HTTP (a fresh server per request).
//
// The example server keeps a client-side token bucket of 100 requests / 10 s per service instance
// (one per process, or one per prepare() in memory). So calls run in sessions, each against a fresh
// server with a fresh bucket, never spending more than SESSION_CALLS tokens of it. Sessions of the
// five variants take turns (round-robin), so that drift of the machine hits all of them alike.
import { startExampleEmulator } from "../packages/emulators/dist/example/index.js";
import { exampleService } from "../packages/lab-mcp/dist/services/example/index.js";
import {
  caFromEnv,
  connectHttp,
  connectInMemory,
  connectModern,
  connectStdio,
  percentile,
  positiveInteger,
  print,
  startHttpBin,
  watchdog,
} from "./lib.mjs";

const BIN = "example-mcp";
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

/** One tool call, failing loudly on anything but the expected search result. */
async function callTool(client) {
  const result = await client.callTool({ name: TOOL, arguments: ARGS });
  const text = result.content?.[0]?.text;
  if (result.isError || typeof text !== "string" || !text.startsWith("# User Search Results")) {
    throw new Error(`unexpected tool result: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/** Each variant opens a session (outside the timed region) whose call() is what gets timed. */
function variants(emulator) {
  // PATH and NODE_EXTRA_CA_CERTS are added by connectStdio and startHttpBin.
  const serverEnv = {
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
        const { client, close } = await connectInMemory(exampleService, serverEnv);
        return { call: () => callTool(client), close };
      },
    },
    {
      name: "MCP over stdio",
      async open() {
        const { client, close } = await connectStdio({ bin: BIN, env: serverEnv });
        return { call: () => callTool(client), close };
      },
    },
    {
      name: "MCP over streamable HTTP",
      open: () => openOverHttp(serverEnv, connectHttp),
    },
    {
      name: "MCP over stateless HTTP, 2026-07-28",
      open: () => openOverHttp(serverEnv, (url) => connectModern("http", url)),
    },
  ];
}

/** A fresh HTTP server process and a client connected to it by `connect`; both closed together. */
async function openOverHttp(serverEnv, connect) {
  const server = await startHttpBin(BIN, serverEnv);
  let connection;
  try {
    connection = await connect(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    call: () => callTool(connection.client),
    async close() {
      await connection.close();
      await server.stop();
    },
  };
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

function summarise(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { name, calls: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

const HEADER = ["variant", "calls", "p50 ms", "p99 ms", "mean ms", "p50 ratio vs direct fetch"];

function tableRows(rows) {
  const baseline = rows[0].p50;
  return rows.map((row) => [
    row.name,
    row.calls,
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    row.mean.toFixed(3),
    `${(row.p50 / baseline).toFixed(2)}x`,
  ]);
}

async function main() {
  watchdog("call-overhead", WATCHDOG_MS);

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

    const sessions = plan.length;
    print(HEADER, tableRows(all.map((variant, i) => summarise(variant.name, samples[i]))), [
      `One call: ${TOOL} {query: "chen", limit: 20}; baseline: GET users/search?q=chen&limit=20&offset=0`,
      "with the same bearer key, body read as JSON, over keep-alive HTTPS. The emulator runs in this",
      "process; stdio and HTTP servers are child processes of it. Times are per sequential call",
      "(performance.now), percentiles by nearest rank.",
      `Rate limiter: example-mcp allows 100 requests / 10 s per server process, so each variant ran ${sessions}`,
      `sessions on a fresh server (new process, or new prepare() in memory) of at most ${SESSION_CALLS} calls:`,
      `the first with ${WARMUP} warm-up calls, the others with ${REWARM} (new process: JIT, TLS to the emulator),`,
      "then the measured calls. The baseline follows the same plan. Spawning, connecting and closing are",
      "outside the timed region; sessions of the five variants alternate. So no call can wait for a token,",
      `and the emulator served exactly ${served} requests, one per call (none retried).`,
    ]);
  } finally {
    await emulator.close();
  }
}

await main();
