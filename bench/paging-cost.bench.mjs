// Paging cost: how many remote requests (cursor pages of the lab data platform) labdata_list_entities
// makes per tool page, reading the 2,000 live sequences of "Plasmid Library" page after page to the end,
// and jumping straight to offset 1,900. Goal: exactly one remote page per tool page sequentially.
// Remote requests are counted in the emulator's request log; the server runs in this process (in
// memory: the transport does not change what it asks the remote).
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
import { caFromEnv, connectInMemory, print, textOf, watchdog } from "./lib.mjs";

const TOOL = "labdata_list_entities";

async function main() {
  watchdog("paging-cost", 120_000);
  const emulator = await startLabdataEmulator({ ca: caFromEnv() });
  const connections = [];
  try {
    const { demo } = emulator;
    const projectId = demo.projects["Plasmid Library"];
    // The server's bucket follows the announced limit, so no page waits for a token (counts only here).
    emulator.admin.updateSettings(demo.tenant, { rateLimit: { requests: 1_000_000, windowMs: 10_000 } });
    const env = { LABDATA_BASE_URL: demo.baseUrl, LABDATA_API_KEY: demo.user.apiKey };
    const fresh = async () => {
      const connection = await connectInMemory(labdataService, env);
      connections.push(connection);
      return connection.client;
    };
    const remote = () => emulator.requests.entries().filter((e) => e.path.endsWith("/dna-sequences")).length;

    /** Reads the offsets in order; returns the tool pages, remote requests and items read. */
    const read = async (client, offsets, limit) => {
      emulator.requests.clear();
      const ids = new Set();
      let pages = 0;
      for (const offset of offsets) {
        const page = JSON.parse(
          textOf(
            await client.callTool({
              name: TOOL,
              arguments: { project_id: projectId, limit, offset, response_format: "json" },
            }),
          ),
        );
        if (page.offset !== offset) throw new Error(`asked offset ${offset}, got ${page.offset}`);
        for (const sequence of page.entities) ids.add(sequence.id);
        pages++;
      }
      return { pages, requests: remote(), items: ids.size };
    };
    const sequential = (limit, from = 0) =>
      Array.from({ length: Math.ceil((2000 - from) / limit) }, (_, i) => from + i * limit);

    const rows = [];
    const row = (scenario, { pages, requests, items }, goal) =>
      rows.push([scenario, pages, requests, (requests / pages).toFixed(2), items, goal]);

    const warm = await fresh();
    const seq20 = await read(warm, sequential(20), 20);
    row(
      "sequential to the end, limit 20 (default)",
      seq20,
      seq20.requests === seq20.pages ? "1 per page: met" : "NOT met",
    );
    const seq100 = await read(await fresh(), sequential(100), 100);
    row(
      "sequential to the end, limit 100",
      seq100,
      seq100.requests === seq100.pages ? "1 per page: met" : "NOT met",
    );
    const seq7 = await read(await fresh(), sequential(7), 7);
    row("sequential to the end, limit 7", seq7, seq7.requests === seq7.pages ? "1 per page: met" : "NOT met");
    const jumpCold = await read(await fresh(), [1900], 20);
    row("jump to offset 1,900 (fresh server), limit 20", jumpCold, "walks 19 pages of 100, then 1");
    const jumpWarm = await read(warm, [1900], 20);
    row("jump to offset 1,900 after reading sequentially", jumpWarm, "1 (cursor cached)");
    const backwards = await read(warm, sequential(20).reverse(), 20);
    row("backwards from the end after reading sequentially", backwards, "1 per page (cursors cached)");
    const nextAfterJump = await read(await fresh(), [1900, 1920, 1940, 1960, 1980], 20);
    row("jump to 1,900 then on to the end (fresh server)", nextAfterJump, "20 for the jump, then 1 per page");

    print(
      ["scenario", "tool pages", "remote requests", "remote per tool page", "distinct items", "expected"],
      rows,
      [
        `Tool: ${TOOL} {project_id of "Plasmid Library", limit, offset, json}; 2,000 live sequences. The remote pages`,
        "with pageSize (max 100) and nextToken; the server keeps a bounded cache of the cursors it has seen per",
        "(credential, query), so the next page starts from a known cursor, and a far offset is walked to in pages",
        "of 100 from the nearest known one. Remote requests counted in the emulator's request log.",
      ],
    );
  } finally {
    for (const connection of connections) await connection.close();
    await emulator.close();
  }
}

await main();
