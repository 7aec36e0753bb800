// Rate-limit efficiency: eight concurrent agents (MCP clients, one streamable-HTTP session each, on one
// labdata-mcp process) each page through all 2,000 live sequences of the demo project "Plasmid Library"
// with labdata_list_entities, under the emulator's limit of 100 requests per 10 s per user.
// Goal: at least 95 % of the rate the limit allows, and zero 429s received.
//
// 429s are counted on the emulator's side, which runs in this process: a subscriber to Node's
// "http.server.response.finish" diagnostics channel sees the status of every response it sends
// (no product code involved). Cross-check: requests in the emulator's request log minus requests in
// its audit log (which records every request that passed the limit and was served).
import dc from "node:diagnostics_channel";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { caFromEnv, connectHttp, positiveInteger, print, startHttpBin, textOf, watchdog } from "./lib.mjs";

const AGENTS = positiveInteger("BENCH_AGENTS", 8);
const LIMIT = positiveInteger("BENCH_PAGE_LIMIT", 20);
const WINDOW_S = 10;
const PER_WINDOW = 100;

const statuses = new Map();
const timeline = [];
dc.subscribe("http.server.response.finish", ({ request, response }) => {
  if (!request.url?.includes("/api/v2/")) return;
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  if (process.env.BENCH_DEBUG)
    timeline.push([
      performance.now(),
      response.statusCode,
      /x-rate-limit-remaining: (\d+)/.exec(response._header ?? "")?.[1],
      /x-rate-limit-reset: (\d+)/.exec(response._header ?? "")?.[1],
    ]);
});

async function main() {
  watchdog("rate-limit", 240_000);
  const ca = caFromEnv();
  const emulator = await startLabdataEmulator({ ca });
  let server;
  const agents = [];
  try {
    const { demo } = emulator;
    const projectId = demo.projects["Plasmid Library"];
    const settings = emulator.admin.getSettings(demo.tenant).rateLimit;
    if (settings?.requests !== PER_WINDOW || settings.windowMs !== WINDOW_S * 1000)
      throw new Error(`unexpected emulator limit ${JSON.stringify(settings)}`);
    server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
    });
    for (let i = 0; i < AGENTS; i++) agents.push(await connectHttp(server.url));
    emulator.requests.clear();
    emulator.admin.clearAuditLog(demo.tenant);
    statuses.clear();

    let toolCalls = 0;
    let progressNotes = 0;
    const started = performance.now();
    const finished = await Promise.all(
      agents.map(async ({ client }) => {
        const seen = new Set();
        let offset = 0;
        for (let page = 0; offset !== null && page < 2 * (2000 / LIMIT); page++) {
          const result = await client.callTool(
            {
              name: "labdata_list_entities",
              arguments: { project_id: projectId, limit: LIMIT, offset, response_format: "json" },
            },
            undefined,
            { timeout: 120_000, onprogress: () => progressNotes++ },
          );
          toolCalls++;
          const body = JSON.parse(textOf(result));
          for (const sequence of body.entities) seen.add(sequence.id);
          offset = body.next_offset;
        }
        return { seen: seen.size, at: performance.now() };
      }),
    );
    const wall = (Math.max(...finished.map((f) => f.at)) - started) / 1000;
    if (finished.some((f) => f.seen !== 2000))
      throw new Error(`an agent did not see 2,000 sequences: ${finished.map((f) => f.seen)}`);

    if (process.env.BENCH_DEBUG) {
      const t0 = timeline[0]?.[0] ?? 0;
      for (const [t, status, remaining, reset] of timeline) {
        if (status !== 200 || Number(remaining) >= 97 || Number(remaining) <= 2)
          process.stderr.write(
            `${((t - t0) / 1000).toFixed(3)} ${status} remaining=${remaining} reset=${reset}\n`,
          );
      }
    }
    const requests = emulator.requests.count();
    const served = emulator.admin.auditLog(demo.tenant).length;
    const refused = statuses.get(429) ?? 0;
    const others = [...statuses].filter(([status]) => status !== 200 && status !== 429);
    // Refused requests do not use up a window; the served ones set the minimum.
    const windows = Math.ceil(served / PER_WINDOW);
    const minWall = (windows - 1) * WINDOW_S;
    const efficiency = minWall / wall;
    const achieved = served / wall;
    const allowed = served / minWall;
    print(
      ["measure", "value"],
      [
        ["agents (sessions on one server)", AGENTS],
        [`tool calls (pages of ${LIMIT})`, toolCalls],
        ["remote requests", requests],
        ["429s received (emulator statuses)", refused],
        ["429s (request log minus audit log)", requests - served],
        ["other non-200 statuses", others.length ? others.map(([s, n]) => `${s}: ${n}`).join(", ") : "none"],
        ["wall time s", wall.toFixed(2)],
        ["theoretical minimum s", minWall.toFixed(2)],
        ["achieved rate req/s (served / wall)", achieved.toFixed(2)],
        ["rate the limit allows req/s", allowed.toFixed(2)],
        ["efficiency (minimum / wall)", `${(100 * efficiency).toFixed(1)} %`],
        ["progress notifications heard", progressNotes],
      ],
      [
        `Each agent reads all 2,000 live sequences of "Plasmid Library" (limit ${LIMIT}, json) from offset 0 until`,
        "next_offset is null, all agents at once, through one labdata-mcp process over streamable HTTP (one",
        `token bucket for the shared API key). The emulator allows ${PER_WINDOW} requests per fixed ${WINDOW_S} s window,`,
        `a window opening with the first request after the last one closed: ${served} served requests need`,
        `${windows} windows, so at best ${minWall} s from the first request to the start of the last window.`,
        "Goals: efficiency " +
          `>= 95 % (${efficiency >= 0.95 ? "met" : "NOT met"}), zero 429s (${refused === 0 ? "met" : "NOT met"}).`,
      ],
    );
  } finally {
    for (const agent of agents) await agent.close().catch(() => undefined);
    await server?.stop();
    await emulator.close();
  }
}

await main();
