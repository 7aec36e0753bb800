// Latency of one labdata_get_entity call on a DNA sequence (markdown answer) against the lab data platform emulator,
// six ways in the same run: the remote request made directly with fetch on keep-alive HTTPS (the
// baseline), and the tool called through the SDK's Client in memory, over stdio and over streamable
// HTTP (a 2025-11-25 session), and through a 2026-07-28 client over stdio and over stateless HTTP
// (a fresh server per request). Goals (issue 26): stdio p50 <= 2.5x the direct request, stateless HTTP
// <= 4x.
//
// The tenant's limit is raised to 1,000,000 requests / 10 s: the server's token bucket follows the
// x-rate-limit-* headers, so no call ever waits for a token, and the direct requests go through the
// same rate accounting on the emulator as the tool's. Calls run in blocks that alternate between the
// variants (rotating which goes first), so drift of the machine hits all of them alike.
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
import {
  basicAuth,
  caFromEnv,
  connectHttp,
  connectInMemory,
  connectModern,
  connectStdio,
  percentile,
  positiveInteger,
  print,
  sequenceIds,
  spawnScript,
  startHttpBin,
  startListening,
  stopChild,
  textOf,
  watchdog,
} from "./lib.mjs";

const TOOL = "labdata_get_entity";
const ITERATIONS = positiveInteger("BENCH_ITERATIONS", 1000);
const WARMUP = 200;
const BLOCK = 100;
const DISTINCT_IDS = 50;
const DELAY_MS = positiveInteger("BENCH_REMOTE_DELAY_MS", 5);
const DELAYED_ITERATIONS = 200;

/** Runs every variant `iterations` times in alternating blocks; one row of figures per variant. */
async function measure(variants, ids, iterations) {
  const samples = variants.map(() => []);
  const blocks = Math.ceil(iterations / BLOCK);
  for (let block = 0; block < blocks; block++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (block + k) % variants.length;
      for (let i = 0; i < BLOCK; i++) {
        const id = ids[(block * BLOCK + i) % ids.length];
        const started = performance.now();
        await variants[index].call(id);
        samples[index].push(performance.now() - started);
      }
    }
  }
  return variants.map((variant, i) => {
    const sorted = samples[i].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
    return {
      name: variant.name,
      calls: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mean,
    };
  });
}

function printRows(rows, notes) {
  const baseline = rows[0].p50;
  print(
    ["variant", "calls", "p50 ms", "p99 ms", "mean ms", "p50 ratio vs direct fetch"],
    rows.map((row) => [
      row.name,
      row.calls,
      row.p50.toFixed(3),
      row.p99.toFixed(3),
      row.mean.toFixed(3),
      `${(row.p50 / baseline).toFixed(2)}x`,
    ]),
    notes,
  );
}

/**
 * The 2026-07-28 client's tools/call POST, recorded once and sent again by fetch with another id: the
 * server's share of a stateless call without the SDK client's (which parses, validates and checks the
 * result against the tool's output schema on every call).
 */
async function replayedPost(url, firstId) {
  let recorded;
  const recorder = (input, init) => {
    if (init?.method === "POST" && String(init.body).includes('"tools/call"')) {
      recorded = { headers: Object.fromEntries(new Headers(init.headers)), body: JSON.parse(init.body) };
    }
    return fetch(input, init);
  };
  const session = await connectModern("http", url, {}, { fetch: recorder });
  await session.client.callTool({ name: TOOL, arguments: { id: firstId } });
  await session.close();
  if (!recorded) throw new Error("the 2026-07-28 client sent no tools/call POST");
  let next = 0;
  return async (id) => {
    const body = {
      ...recorded.body,
      id: `replay-${++next}`,
      params: { ...recorded.body.params, arguments: { id } },
    };
    const response = await fetch(url, {
      method: "POST",
      headers: recorded.headers,
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    const text = answer.result?.content?.[0]?.text ?? "";
    if (!text.includes(`(${id})`))
      throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 200)}`);
  };
}

/**
 * bare-server.mjs, the floor: the same remote request made by a process with nothing of MCP or of ours,
 * called over stdio (a line each way) or over HTTP (a POST by fetch). `call(id)` checks the answer.
 */
async function startBare(mode, env) {
  const script = join(import.meta.dirname, "bare-server.mjs");
  const checked = (id, answer) => {
    if (!answer.result?.content?.[0]?.text?.includes(`(${id})`))
      throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 200)}`);
  };
  let next = 0;
  const message = (id) => ({
    jsonrpc: "2.0",
    id: ++next,
    method: "tools/call",
    params: { name: TOOL, arguments: { id } },
  });
  if (mode === "stdio") {
    const child = spawnScript(script, ["stdio"], env, ["pipe", "pipe", "inherit"]);
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return {
      stop: () => stopChild(child),
      call: async (id) => {
        child.stdin.write(`${JSON.stringify(message(id))}\n`);
        checked(id, JSON.parse((await lines.next()).value));
      },
    };
  }
  const server = await startListening(script, ["http"], env);
  return {
    stop: server.stop,
    call: async (id) => {
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(message(id)),
      });
      checked(id, await response.json());
    },
  };
}

async function main() {
  watchdog("labdata-overhead", 300_000);
  const ca = caFromEnv();
  const emulator = await startLabdataEmulator({ ca });
  const servers = [];
  const sessions = [];
  try {
    const { demo } = emulator;
    const api = emulator.tenant(demo.tenant).apiUrl;
    emulator.admin.updateSettings(demo.tenant, { rateLimit: { requests: 1_000_000, windowMs: 10_000 } });
    const ids = await sequenceIds(
      api,
      demo.user.apiKey,
      demo.projects["Plasmid Library"],
      DISTINCT_IDS,
      ca.certPem,
    );
    const env = { LABDATA_BASE_URL: demo.baseUrl, LABDATA_API_KEY: demo.user.apiKey };
    const bareEnv = { REMOTE_URL: api, REMOTE_AUTHORIZATION: basicAuth(demo.user.apiKey) };
    const headers = { authorization: basicAuth(demo.user.apiKey), accept: "application/json" };

    const callTool = (client) => async (id) => {
      const text = textOf(await client.callTool({ name: TOOL, arguments: { id } }));
      if (!text.includes(`(${id})`)) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
    };
    const refused = (client) => async (id) => {
      const text = textOf(await client.callTool({ name: TOOL, arguments: { id: `../${id}` } }), true);
      if (!text.startsWith(`Error: Invalid input for ${TOOL}`)) throw new Error(`unexpected answer: ${text}`);
    };
    const http = await startHttpBin("labdata-mcp", env);
    servers.push(http);
    const inMemory = await connectInMemory(labdataService, env);
    const stdio = await connectStdio({ bin: "labdata-mcp", env });
    const overHttp = await connectHttp(http.url);
    const modernStdio = await connectModern("stdio", "labdata-mcp", env);
    const stateless = await connectModern("http", http.url);
    const bareStdio = await startBare("stdio", bareEnv);
    const bareHttp = await startBare("http", bareEnv);
    servers.push(bareStdio, bareHttp);
    sessions.push(inMemory, stdio, overHttp, modernStdio, stateless);
    const variants = [
      {
        name: "direct fetch (baseline)",
        call: async (id) => {
          const response = await fetch(`${api}/dna-sequences/${id}`, { headers });
          const body = await response.json();
          if (!response.ok || body.id !== id) throw new Error(`unexpected ${response.status}`);
        },
      },
      { name: "MCP in memory", call: callTool(inMemory.client) },
      { name: "MCP over stdio", call: callTool(stdio.client) },
      { name: "MCP over streamable HTTP", call: callTool(overHttp.client) },
      { name: "MCP over stdio, 2026-07-28", call: callTool(modernStdio.client) },
      { name: "MCP over stateless HTTP, 2026-07-28", call: callTool(stateless.client) },
      { name: "stateless HTTP, the same POST by fetch", call: await replayedPost(http.url, ids[0]) },
      { name: "floor: bare process over stdio, no MCP", call: bareStdio.call },
      { name: "floor: bare node:http server, POST by fetch", call: bareHttp.call },
    ];

    const reference = [
      // What the MCP layers cost without any remote request: the same tool, its input refused.
      { name: "ref: MCP in memory, no remote (input refused)", call: refused(inMemory.client) },
      { name: "ref: MCP over stdio, no remote (input refused)", call: refused(stdio.client) },
    ];

    for (const variant of [...variants, ...reference]) {
      for (let i = 0; i < WARMUP; i++) await variant.call(ids[i % ids.length]);
    }
    emulator.requests.clear();
    const rows = await measure([...variants, ...reference], ids, ITERATIONS);
    const remoteCalls = rows.slice(0, variants.length).reduce((sum, row) => sum + row.calls, 0);
    if (emulator.requests.count() !== remoteCalls)
      throw new Error(`the emulator served ${emulator.requests.count()} requests, expected ${remoteCalls}`);

    // The same, with every remote answer held back DELAY_MS: a remote on the network, not on loopback.
    emulator.faults.inject({ kind: "delay", ms: DELAY_MS }, { path: "/", times: 1_000_000 });
    const delayed = await measure(variants, ids, DELAYED_ITERATIONS);
    emulator.faults.clear();

    const bytes = (await (await fetch(`${api}/dna-sequences/${ids[0]}`, { headers })).arrayBuffer())
      .byteLength;
    const stdioRatio = rows[2].p50 / rows[0].p50;
    const delayedRatio = delayed[2].p50 / delayed[0].p50;
    const ratio = (name) => rows.find((row) => row.name === name).p50 / rows[0].p50;
    const goal = (value, most) => `${value.toFixed(2)}x (<= ${most}x: ${value <= most ? "met" : "NOT met"})`;
    process.stdout.write("On loopback (the emulator answers in microseconds):\n\n");
    printRows(rows);
    process.stdout.write(
      `With ${DELAY_MS} ms added to every remote answer (the emulator's delay fault):\n\n`,
    );
    printRows(delayed, [
      `One call: ${TOOL} {id} (markdown), ${DISTINCT_IDS} sequences of "Plasmid Library" in turn (a record is`,
      `~${Math.round(bytes / 1024)} KiB of JSON); baseline: GET {tenant}/api/v2/dna-sequences/{id} with the same API key`,
      "(HTTP Basic), body read as JSON, fetch's keep-alive pool. Emulator in this process; stdio and HTTP",
      `servers are child processes. ${WARMUP} warm-up calls per variant, then blocks of ${BLOCK} that alternate;`,
      `every tool call was exactly one remote request (${remoteCalls} on loopback). "ref" rows: the tool with an`,
      'id it refuses (no remote request): the cost of the MCP layers alone. "the same POST by fetch": the',
      "2026-07-28 client's tools/call request, recorded once and sent by fetch (the server's share alone).",
      '"floor" rows: bench/bare-server.mjs, a process with no MCP SDK and no code of ours making the same',
      "remote request (node:https) and answering a line or a POST: what two processes cost before any MCP.",
      `Goals of issue 26, on loopback: stdio p50 ${goal(stdioRatio, 2.5)}, stdio 2026-07-28`,
      `${goal(ratio("MCP over stdio, 2026-07-28"), 2.5)}, stateless HTTP ${goal(ratio("MCP over stateless HTTP, 2026-07-28"), 4)}.`,
      `Issue 7's goal, stdio within 1.30x: ${stdioRatio.toFixed(2)}x on loopback, ${delayedRatio.toFixed(2)}x with ${DELAY_MS} ms of remote latency.`,
    ]);
  } finally {
    for (const session of sessions) await session.close().catch(() => undefined);
    for (const server of servers) await server.stop();
    await emulator.close();
  }
}

await main();
