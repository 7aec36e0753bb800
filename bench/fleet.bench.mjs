// Fleet: one rate budget for replicas behind a load balancer. 1 and 3 replicas of each server, sharing
// one Debian redis-server, behind one HAProxy (round-robin, as `npm run fleet` runs them), driven by
// 2026-07-28 MCP clients (stateless: every request may land on another replica):
//  - labdata: 8 agents each page through all live sequences of "Plasmid Library" the demo's OAuth app
//    may read (limit 20) under the platform's 100 requests per 10 s, signed in as that app (client
//    credentials);
//  - protocols: 10 PDF downloads asked at once under the repository's 5 per minute.
// Measured on the emulators' side (in this process): achieved rate against the limit, 429s received,
// token requests, remote pages per tool page, wall time against the theoretical minimum.
// Goals (issue 15): >= 97 % of the allowed rate, zero 429s, exactly one token request, one remote page
// per tool page, on one replica and on three.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { caFromEnv, positiveInteger, print, startHttpBin, textOf, watchdog } from "./lib.mjs";

const AGENTS = positiveInteger("BENCH_AGENTS", 8);
const LIMIT = 20;
const WINDOW_S = 10;
const PER_WINDOW = 100;
const PDFS = 10;
const PDF_PER_MINUTE = 5;
const REPLICA_COUNTS = (process.env.BENCH_REPLICAS ?? "1,3").split(",").map(Number);

const { findProgram, missingProgramsLine } = await import("../packages/emulators/dist/fleet/programs.js");
const { startRedis } = await import("../packages/emulators/dist/fleet/redis.js");
const { startBalancer, readStats } = await import("../packages/emulators/dist/fleet/haproxy.js");
const { startLabdataEmulator } = await import("../packages/emulators/dist/labdata/index.js");
const { startProtocolsEmulator } = await import("../packages/emulators/dist/protocols/index.js");

/** A 2026-07-28 client over streamable HTTP: no session, so the balancer spreads every request. */
async function connectModern(url) {
  const client = new Client(
    { name: "lab-mcp-bench", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Redis, `replicas` processes of `bin` with `env`, and HAProxy in front; the one endpoint. */
async function startFleet(name, bin, replicas, env, programs, dir) {
  const redis = await startRedis(programs.redis, mkdtempSync(join(dir, `${name}-redis-`)));
  const state = {
    REDIS_URL: redis.url,
    MCP_STATE_PREFIX: `bench:${name}:`,
    MCP_STATE_KEY: randomBytes(32).toString("hex"),
  };
  const servers = await Promise.all(
    Array.from({ length: replicas }, () => startHttpBin(bin, { ...env, ...state })),
  );
  const ports = servers.map((server) => Number(new URL(server.url).port));
  const { freePort } = await import("../packages/emulators/dist/fleet/redis.js");
  const [port, statsPort] = [await freePort(), await freePort()];
  const balancer = await startBalancer(
    programs.haproxy,
    mkdtempSync(join(dir, `${name}-haproxy-`)),
    [{ name, port, replicaPorts: ports }],
    statsPort,
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** Requests each replica was given by the balancer. */
    spread: async () => (await readStats(balancer.statsUrl)).map((row) => row.sessions),
    async stop() {
      await balancer.process.stop();
      for (const server of servers) await server.stop();
      await redis.process.stop();
    },
  };
}

async function pageAllSequences(replicas, programs, dir, ca) {
  const emulator = await startLabdataEmulator({ ca });
  const { demo } = emulator;
  const fleet = await startFleet(
    `labdata${replicas}`,
    "labdata-mcp",
    replicas,
    {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_CLIENT_ID: demo.app.clientId,
      LABDATA_CLIENT_SECRET: demo.app.clientSecret,
    },
    programs,
    dir,
  );
  const agents = [];
  try {
    const projectId = demo.projects["Plasmid Library"];
    for (let i = 0; i < AGENTS; i++) agents.push(await connectModern(fleet.url));
    emulator.requests.clear();
    emulator.admin.clearAuditLog(demo.tenant);
    let toolCalls = 0;
    const started = performance.now();
    let sequences;
    const seen = await Promise.all(
      agents.map(async (client) => {
        const ids = new Set();
        let offset = 0;
        for (let page = 0; offset !== null && page < 1000; page++) {
          const result = await client.callTool(
            {
              name: "labdata_list_entities",
              arguments: { project_id: projectId, limit: LIMIT, offset, response_format: "json" },
            },
            { timeout: 120_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
          );
          toolCalls++;
          const body = JSON.parse(textOf(result));
          sequences ??= body.total;
          for (const sequence of body.entities) ids.add(sequence.id);
          offset = body.next_offset;
        }
        return ids.size;
      }),
    );
    const wall = (performance.now() - started) / 1000;
    if (seen.some((count) => count !== sequences)) throw new Error(`an agent missed sequences: ${seen}`);
    const entries = emulator.requests.entries();
    if (process.env.BENCH_DEBUG) {
      // Bursts of requests as they reached the emulator (a pause of over a second starts a new one).
      const times = entries.filter((e) => e.path.endsWith("/dna-sequences")).map((e) => e.at.getTime());
      let start = 0;
      for (let i = 1; i <= times.length; i++) {
        if (i === times.length || times[i] - times[i - 1] > 1000) {
          const from = ((times[start] - times[0]) / 1000).toFixed(3);
          const to = ((times[i - 1] - times[0]) / 1000).toFixed(3);
          process.stderr.write(`burst of ${i - start}: ${from} s to ${to} s\n`);
          start = i;
        }
      }
    }
    const listRequests = entries.filter((e) => e.path.endsWith("/api/v2/dna-sequences")).length;
    const tokenRequests = entries.filter((e) => e.path.endsWith("/api/v2/token")).length;
    const served = emulator.admin
      .auditLog(demo.tenant)
      .filter((e) => e.path.endsWith("/dna-sequences")).length;
    // The platform counts the app's token requests in its window too.
    const windows = Math.ceil((served + tokenRequests) / PER_WINDOW);
    const minimum = (windows - 1) * WINDOW_S;
    return {
      replicas,
      sequences,
      toolCalls,
      listRequests,
      refused: listRequests - served,
      tokenRequests,
      wall,
      minimum,
      efficiency: minimum / wall,
      achieved: (served + tokenRequests) / wall,
      allowed: (served + tokenRequests) / minimum,
      spread: await fleet.spread(),
    };
  } finally {
    for (const client of agents) await client.close().catch(() => undefined);
    await fleet.stop();
    await emulator.close();
  }
}

async function downloadPdfs(replicas, programs, dir, ca) {
  const emulator = await startProtocolsEmulator({ ca });
  const fleet = await startFleet(
    `protocols${replicas}`,
    "protocols-mcp",
    replicas,
    { PROTOCOLS_BASE_URL: emulator.url, PROTOCOLS_ACCESS_TOKEN: emulator.demo.clientAccessToken },
    programs,
    dir,
  );
  const clients = [];
  try {
    for (let i = 0; i < PDFS; i++) clients.push(await connectModern(fleet.url));
    const found = JSON.parse(
      textOf(
        await clients[0].callTool({
          name: "protocols_search",
          arguments: { limit: PDFS, response_format: "json" },
        }),
      ),
    );
    const ids = found.protocols.map((protocol) => String(protocol.id)).slice(0, PDFS);
    if (ids.length !== PDFS) throw new Error(`found ${ids.length} protocols`);
    emulator.requests.clear();
    const started = performance.now();
    const answers = await Promise.all(
      ids.map((protocol, i) =>
        clients[i].callTool(
          { name: "protocols_download_pdf", arguments: { protocol, response_format: "json" } },
          { timeout: 150_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
        ),
      ),
    );
    const wall = (performance.now() - started) / 1000;
    const failed = answers.filter((answer) => answer.isError).length;
    const pdfRequests = emulator.requests.entries().filter((e) => e.path.startsWith("/view/")).length;
    const minimum = (Math.ceil(PDFS / PDF_PER_MINUTE) - 1) * 60;
    return {
      replicas,
      failed,
      pdfRequests,
      refused: pdfRequests - (PDFS - failed),
      wall,
      minimum,
      spread: await fleet.spread(),
    };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await fleet.stop();
    await emulator.close();
  }
}

async function main() {
  const programs = { redis: findProgram("redis-server"), haproxy: findProgram("haproxy") };
  const missing = Object.entries({ "redis-server": programs.redis, haproxy: programs.haproxy })
    .filter(([, path]) => !path)
    .map(([name]) => name);
  if (missing.length > 0) {
    process.stdout.write(`fleet: skipped. ${missingProgramsLine(missing)}\n`);
    return;
  }
  watchdog("fleet", 15 * 60_000);
  const ca = caFromEnv();
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-bench-fleet-"));
  try {
    const paging = [];
    const pdfs = [];
    for (const replicas of REPLICA_COUNTS) {
      paging.push(await pageAllSequences(replicas, programs, dir, ca));
      if (!process.env.BENCH_SKIP_PDFS) pdfs.push(await downloadPdfs(replicas, programs, dir, ca));
    }
    const met = (ok) => (ok ? "met" : "NOT met");
    print(
      [
        "replicas",
        "tool calls",
        "remote pages",
        "pages per tool page",
        "429s",
        "token requests",
        "wall s",
        "minimum s",
        "achieved req/s",
        "allowed req/s",
        "of the allowed rate",
        "requests per replica (HAProxy)",
      ],
      paging.map((r) => [
        r.replicas,
        r.toolCalls,
        r.listRequests,
        (r.listRequests / r.toolCalls).toFixed(2),
        r.refused,
        r.tokenRequests,
        r.wall.toFixed(2),
        r.minimum.toFixed(2),
        r.achieved.toFixed(2),
        r.allowed.toFixed(2),
        `${(100 * r.efficiency).toFixed(1)} %`,
        r.spread.join(" / "),
      ]),
      [
        `labdata: ${AGENTS} agents (2026-07-28 clients, no session) each read all ${paging[0]?.sequences} live sequences of "Plasmid Library"`,
        `the demo's OAuth app may read (limit ${LIMIT}, json) through HAProxy (round-robin) over the replicas, which share one`,
        `Redis; the app signs in with client credentials. The emulator allows ${PER_WINDOW} requests per fixed ${WINDOW_S} s window (opened by the first request`,
        `after the last one closed; it counts the app's token requests too), so N requests need ceil(N / ${PER_WINDOW}) windows: at best`,
        `(windows - 1) x ${WINDOW_S} s from the first request to the start of the last window.`,
        "Row 1 (one replica) is the baseline measured in the same run. Goals per row: >= 97 % of the allowed rate",
        ...paging.map(
          (r) =>
            `  ${r.replicas} replica(s): rate ${met(r.efficiency >= 0.97)}, zero 429s ${met(r.refused === 0)}, one token request ${met(r.tokenRequests === 1)}, one remote page per tool page ${met(r.listRequests === r.toolCalls)}.`,
        ),
      ],
    );
    print(
      [
        "replicas",
        "PDFs asked at once",
        "failed",
        "PDF requests",
        "429s",
        "wall s",
        "minimum s",
        "over the minimum",
        "requests per replica (HAProxy)",
      ],
      pdfs.map((r) => [
        r.replicas,
        PDFS,
        r.failed,
        r.pdfRequests,
        r.refused,
        r.wall.toFixed(2),
        r.minimum.toFixed(2),
        `${((100 * (r.wall - r.minimum)) / r.minimum).toFixed(1)} %`,
        r.spread.join(" / "),
      ]),
      [
        `protocols: ${PDFS} protocols_download_pdf calls asked at once, one client each, signed in with one client token, under`,
        `the repository's ${PDF_PER_MINUTE} PDFs per minute: the second window opens 60 s after the first, so at least ${pdfs[0]?.minimum ?? 60} s.`,
        ...pdfs.map(
          (r) =>
            `  ${r.replicas} replica(s): all succeed ${met(r.failed === 0)}, zero 429s ${met(r.refused === 0)}, within 5 % of the minimum ${met(r.wall <= r.minimum * 1.05)}.`,
        ),
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
