// The warehouse against the REST tools' paging, on a lab's analytic questions (issue 35): a count over
// a month, a maximum of averages across runs, values over a threshold, failures per plate. Each is
// answered twice by the same labdata_mcp on the emulator's demo tenant (its warehouse a real
// PostgreSQL): by labdata_describe_warehouse + labdata_query_warehouse, and by paging the REST list
// tools (json, as the arithmetic needs the values) and computing here. Counted side by side: tool calls,
// remote requests (platform API requests from the emulator's log; SQL statements), the bytes of the text
// the agent reads and on the wire, and its o200k tokens. Both answers must agree.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
import { caFromEnv, connectInMemory, print, textOf, watchdog, wireBytes } from "./lib.mjs";

async function main() {
  watchdog("warehouse", 300_000);
  const emulator = await startLabdataEmulator({ ca: caFromEnv(), warehouse: { tenants: ["acme"] } });
  let connection;
  try {
    const { demo } = emulator;
    const warehouse = await emulator.warehouse(demo.tenant);
    emulator.admin.updateSettings(demo.tenant, { rateLimit: null });
    connection = await connectInMemory(labdataService, {
      MCP_TOOLSETS: "all",
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
      LABDATA_WAREHOUSE_URL: warehouse.url,
    });
    const { client } = connection;
    // The login is minted once a conversation; minted here first so that each question counts alike.
    textOf(await client.callTool({ name: "labdata_query_warehouse", arguments: { sql: "SELECT 1" } }));

    /** A path's tally: calls, API requests, SQL statements, text bytes, wire bytes, tokens. */
    const tally = () => ({ calls: 0, api: 0, sql: 0, text: 0, wire: 0, tokens: 0 });
    const call = async (counts, name, args) => {
      const before = emulator.requests.count();
      const result = await client.callTool({ name, arguments: args });
      const text = textOf(result);
      counts.calls++;
      counts.api += emulator.requests.count() - before;
      if (name === "labdata_query_warehouse") counts.sql++;
      counts.text += Buffer.byteLength(text);
      counts.wire += wireBytes(result);
      counts.tokens += countTokens(text);
      return text;
    };
    /** Every page of a REST list tool, as json. */
    const pageAll = async (counts, name, args, key) => {
      const items = [];
      let offset = 0;
      for (let page = 0; page < 200; page++) {
        const body = JSON.parse(
          await call(counts, name, { ...args, limit: 100, offset, response_format: "json" }),
        );
        items.push(...body[key]);
        if (!body.has_more) break;
        offset = body.next_offset;
      }
      return items;
    };
    /** A warehouse answer: the catalog for one word, then the query (json, to compare). */
    const warehouseAnswer = async (counts, word, sql) => {
      await call(counts, "labdata_describe_warehouse", { search: word });
      await call(counts, "labdata_query_warehouse", { sql });
      return JSON.parse(
        textOf(
          await client.callTool({
            name: "labdata_query_warehouse",
            arguments: { sql, response_format: "json" },
          }),
        ),
      ).rows;
    };

    const plasmidLibrary = demo.projects["Plasmid Library"];
    const schemas = demo.notebook.assaySchemas;
    const value = (item, field) => item.fields?.[field]?.value;
    const questions = [
      {
        question: "How many DNA sequences were created in Plasmid Library in May 2025?",
        async rest(counts) {
          const items = await pageAll(
            counts,
            "labdata_list_entities",
            { project_id: plasmidLibrary },
            "entities",
          );
          return items.filter((item) => String(item.createdAt).startsWith("2025-05")).length;
        },
        async sql(counts) {
          const rows = await warehouseAnswer(
            counts,
            "dna_sequence",
            `SELECT count(*) AS created FROM dna_sequence WHERE project_id = '${plasmidLibrary}' AND created_at >= '2025-05-01' AND created_at < '2025-06-01'`,
          );
          return rows[0][0];
        },
      },
      {
        question: "Which NGS run had the highest mean editing efficiency?",
        async rest(counts) {
          const items = await pageAll(
            counts,
            "labdata_list_assay_results",
            { schema_id: schemas["Editing Efficiency"] },
            "assay_results",
          );
          const byRun = new Map();
          for (const item of items) {
            const run = item.fields?.["Assay run"]?.displayValue;
            const values = byRun.get(run) ?? [];
            values.push(value(item, "Editing efficiency"));
            byRun.set(run, values);
          }
          const means = [...byRun].map(([run, values]) => [
            run,
            values.reduce((a, b) => a + b, 0) / values.length,
          ]);
          means.sort((a, b) => b[1] - a[1]);
          return `${Number(String(means[0][0]).replace(/\D+/g, ""))} ${means[0][1].toFixed(1)}`;
        },
        async sql(counts) {
          const rows = await warehouseAnswer(
            counts,
            "editing",
            "SELECT r.run_number, round(avg(e.editing_efficiency)::numeric, 1) AS mean FROM editing_efficiency e JOIN ngs_amplicon_run r ON r.id = e.assay_run GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
          );
          return `${rows[0][0]} ${Number(rows[0][1]).toFixed(1)}`;
        },
      },
      {
        question: "Which plasmid yields were above 150 ng/µL?",
        async rest(counts) {
          const items = await pageAll(
            counts,
            "labdata_list_assay_results",
            { schema_id: schemas["Plasmid Yield"] },
            "assay_results",
          );
          return items.filter((item) => value(item, "Concentration") > 150).length;
        },
        async sql(counts) {
          const rows = await warehouseAnswer(
            counts,
            "yield",
            "SELECT p.name, y.concentration FROM plasmid_yield y JOIN dna_sequence p ON p.id = y.plasmid WHERE y.concentration > 150 ORDER BY 2 DESC",
          );
          return rows.length;
        },
      },
      {
        question: "How many results failed QC (A260/A280 < 1.8) per plate reader run?",
        async rest(counts) {
          const items = await pageAll(
            counts,
            "labdata_list_assay_results",
            { schema_id: schemas["Plasmid Yield"] },
            "assay_results",
          );
          const failed = new Map();
          for (const item of items) {
            const run = Number(String(item.fields?.["Assay run"]?.displayValue).replace(/\D+/g, ""));
            failed.set(run, (failed.get(run) ?? 0) + (value(item, "A260/A280") < 1.8 ? 1 : 0));
          }
          return [...failed]
            .sort((a, b) => a[0] - b[0])
            .map(([run, n]) => `${run}:${n}`)
            .join(" ");
        },
        async sql(counts) {
          const rows = await warehouseAnswer(
            counts,
            "plate",
            "SELECT r.run_number, count(*) FILTER (WHERE y.a260_a280 < 1.8) AS failed FROM plasmid_yield y JOIN plate_reader_run r ON r.id = y.assay_run GROUP BY 1 ORDER BY 1",
          );
          return rows.map(([run, n]) => `${run}:${n}`).join(" ");
        },
      },
    ];

    const rows = [];
    for (const { question, rest, sql } of questions) {
      const viaRest = tally();
      const viaSql = tally();
      const restAnswer = await rest(viaRest);
      const sqlAnswer = await sql(viaSql);
      const agree = String(restAnswer) === String(sqlAnswer);
      if (!agree) throw new Error(`${question}: REST says ${restAnswer}, the warehouse ${sqlAnswer}`);
      const line = (path, counts, shown) => [
        question,
        path,
        counts.calls,
        `${counts.api} API${counts.sql ? ` + ${counts.sql} SQL` : ""}`,
        counts.text.toLocaleString("en"),
        counts.wire.toLocaleString("en"),
        counts.tokens.toLocaleString("en"),
        shown,
      ];
      rows.push(
        line("REST paging (json)", viaRest, String(restAnswer)),
        line(
          "warehouse (describe + query)",
          viaSql,
          `same; ${Math.round(viaRest.tokens / viaSql.tokens)}x fewer tokens`,
        ),
      );
    }
    print(
      [
        "question",
        "path",
        "tool calls",
        "remote requests",
        "text bytes",
        "wire bytes",
        "o200k tokens",
        "answer",
      ],
      rows,
      [
        "One labdata_mcp (in memory) on the emulator's demo tenant as Mira Patel; its warehouse is a real PostgreSQL.",
        "REST: the list tools paged to the end with limit 100 and response_format json (the values the arithmetic",
        "needs), computed here. Warehouse: labdata_describe_warehouse with a word, then labdata_query_warehouse",
        "(markdown); the login was minted before (one POST /warehouse-credentials a conversation). Text: what the",
        "agent reads; wire: the whole tools/call result (text + structured copy). Both paths' answers agree.",
      ],
      2,
    );
  } finally {
    await connection?.close();
    await emulator.close();
  }
}

await main();
