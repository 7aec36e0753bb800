// What the views (MCP Apps pictures) cost. Agents: the tokens the `_meta` links add to labdata_mcp's
// tools/list (o200k_base, the tools array as JSON, with and without the links), and each view tool's
// answer for a client without the extension against one that declares it: the text is the same, byte for
// byte; only the structured copy the view draws from grows. The pages: each view's HTML as served
// (bytes, and gzipped), almost all of it the extension's App (its protocol and schemas).
// Goals: the text unchanged for both clients; the links <= 20 tokens a tool; a page <= 320 KiB.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
import { caFromEnv, connectInMemory, print, ROOT, textOf, watchdog, wireBytes } from "./lib.mjs";

const RENDERS_VIEWS = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};
const tokens = (value) => countTokens(JSON.stringify(value));
const withoutLinks = (tools) => tools.map(({ _meta, ...tool }) => tool);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

async function main() {
  watchdog("views-cost", 180_000);
  // The warehouse (a real PostgreSQL) too: labdata_query_warehouse's answers draw as the results chart.
  const labdata = await startLabdataEmulator({ ca: caFromEnv(), warehouse: { tenants: ["acme"] } });
  const { demo } = labdata;
  const warehouse = await labdata.warehouse(demo.tenant);
  const env = {
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_API_KEY: demo.user.apiKey,
    LABDATA_WAREHOUSE_URL: warehouse.url,
  };
  const plain = await connectInMemory(labdataService, { ...env, MCP_TOOLSETS: "all" });
  const viewing = await connectInMemory(labdataService, { ...env, MCP_TOOLSETS: "all" }, RENDERS_VIEWS);
  try {
    const listRows = [];
    let worstLink = 0;
    for (const [surface, extra] of [
      ["default", {}],
      ["all", { MCP_TOOLSETS: "all" }],
    ]) {
      const connection = await connectInMemory(labdataService, { ...env, ...extra });
      const { tools } = await connection.client.listTools();
      await connection.close();
      const linked = tools.filter((tool) => tool._meta?.ui);
      for (const tool of linked)
        worstLink = Math.max(worstLink, tokens(tool) - tokens(withoutLinks([tool])[0]));
      listRows.push([
        surface,
        `${linked.length} of ${tools.length}`,
        Buffer.byteLength(JSON.stringify(tools)) - Buffer.byteLength(JSON.stringify(withoutLinks(tools))),
        tokens(tools) - tokens(withoutLinks(tools)),
        tokens(tools),
      ]);
    }
    print(["surface", "tools with a view", "added bytes", "added tokens", "tools/list tokens"], listRows, [
      "labdata_mcp's tools/list with the links to the views against the same list without them.",
      `Goal: <= 20 tokens a linked tool: ${worstLink <= 20 ? "met" : "NOT met"} (heaviest link ${worstLink}).`,
    ]);

    const plasmid = demo.registry.shRnaPlasmids["pLKO-shRNA-1"];
    const calls = [
      ["labdata_get_entity", { id: plasmid }],
      ["labdata_export_dna_sequence", { id: plasmid, format: "genbank" }],
      ["labdata_get_box_contents", { id: demo.registry.glycerolBoxId }],
      [
        "labdata_list_assay_results",
        { schema_id: demo.notebook.assaySchemas["Editing Efficiency"], limit: 18 },
      ],
      [
        "labdata_query_warehouse",
        {
          sql: `SELECT 'Run ' || r.run_number AS run, round(avg(e.editing_efficiency)::numeric, 1) AS mean_efficiency
                  FROM editing_efficiency e JOIN ngs_amplicon_run r ON r.id = e.assay_run GROUP BY r.run_number`,
        },
      ],
    ];
    const answerRows = [];
    let unchanged = true;
    for (const [name, args] of calls) {
      const before = await plain.client.callTool({ name, arguments: args });
      const after = await viewing.client.callTool({ name, arguments: args });
      const same = textOf(before) === textOf(after);
      unchanged &&= same;
      answerRows.push([
        name,
        same ? "same" : "DIFFERENT",
        countTokens(textOf(before)),
        wireBytes(before),
        wireBytes(after),
      ]);
    }
    process.stdout.write("\n");
    print(
      ["tool", "text", "text tokens", "wire bytes, no extension", "wire bytes, with the extension"],
      answerRows,
      [
        "One markdown call of each tool with a view, by a client without the extension and by one that declares it",
        `(its structured copy then whole, as the view draws it). Goal: the same text: ${unchanged ? "met" : "NOT met"}.`,
      ],
    );

    const require = createRequire(`${ROOT}/packages/lab-mcp/package.json`);
    const pageRows = ["plasmid-map", "box-map", "results-chart"].map((name) => {
      const html = readFileSync(require.resolve(`lab-mcp/views/labdata/${name}.html`));
      return [name, html.length, kib(html.length), kib(gzipSync(html).length)];
    });
    const largest = Math.max(...pageRows.map((row) => row[1]));
    process.stdout.write("\n");
    print(["view", "page bytes", "page", "gzipped"], pageRows, [
      "Each view's page as resources/read serves it: one HTML file, its script (the extension's App and the",
      `drawing) and style inline. Goal: <= 320 KiB: ${largest <= 320 * 1024 ? "met" : "NOT met"}.`,
    ]);
  } finally {
    await plain.close();
    await viewing.close();
    await labdata.close();
  }
}

await main();
