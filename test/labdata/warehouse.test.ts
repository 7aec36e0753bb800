// labdata_mcp's warehouse tools through a real MCP client against the emulator's warehouse, a real
// PostgreSQL: the catalog as the caller sees it, paged under ~4,000 tokens; analytic questions each
// answered in one call and checked against the platform's API or the database itself; an expired
// login renewed once, silently; the warehouse down or unknown, with the REST tools unaffected. On each
// PostgreSQL found (test/support/warehouse.ts).
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WarehouseHandle } from "../../packages/emulators/src/labdata/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, callJson, callText, connectInMemory } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv, servedEndingWith } from "../support/labdata.js";
import { basic, fetchReply } from "../support/labdata-http.js";
import { freePort } from "../support/ports.js";
import { asAdmin, WAREHOUSE_ENGINES } from "../support/warehouse.js";

describe.each(WAREHOUSE_ENGINES)("on PostgreSQL $name", (engine) => {
  const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"], postgresBinDir: engine.binDir } });
  let warehouse: WarehouseHandle;
  let conn: Connected;

  beforeAll(async () => {
    warehouse = await emulator.warehouse("acme");
    emulator.admin.updateSettings("acme", { rateLimit: null });
    conn = await connectInMemory(labdataService, env());
  }, 60_000);
  afterAll(async () => {
    await conn?.close();
  });

  function env(extra: Record<string, string> = {}, user = emulator.demo.user) {
    return apiKeyEnv(emulator.demo, user, { LABDATA_WAREHOUSE_URL: warehouse.url, ...extra });
  }

  const call = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
    callText(connection, name, args);
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the tool answered
  const json = (name: string, args: Record<string, unknown> = {}) => callJson<any>(conn, name, args);
  const query = (sql: string, extra: Record<string, unknown> = {}, connection: Connected = conn) =>
    call("labdata_query_warehouse", { sql, ...extra }, connection);

  /** What the superuser's connection answers: the database itself, not our code. */
  async function adminRows(sql: string): Promise<Record<string, unknown>[]> {
    return asAdmin(warehouse, async (client) => (await client.query(sql)).rows);
  }

  describe("labdata_describe_warehouse", () => {
    it("lists every table the caller can read, page by page, each answer under 4,000 tokens", async () => {
      const seen: string[] = [];
      let offset = 0;
      let total = 0;
      for (let page = 0; page < 20; page++) {
        const { text, isError } = await call("labdata_describe_warehouse", { offset });
        expect(isError).toBe(false);
        expect(countTokens(text)).toBeLessThan(4_000);
        const structured = await json("labdata_describe_warehouse", { offset, response_format: "json" });
        total = structured.total;
        expect(countTokens(JSON.stringify(structured, null, 2))).toBeLessThan(4_000);
        seen.push(...[...text.matchAll(/^## (\S+?)(?::| |$)/gm)].map((match) => match[1] as string));
        const more = /^More: call again with offset=(\d+)\.$/m.exec(text);
        if (!more) break;
        offset = Number(more[1]);
      }
      expect(seen.length).toBe(total);
      expect(seen).toEqual(
        expect.arrayContaining(["dna_sequence", "plasmid_yield", "editing_efficiency", "container"]),
      );
      // x$raw is told beside x, and the listings of display names are not tables of their own.
      expect(seen.filter((name) => name.endsWith("$raw") || name.endsWith("_catalog"))).toEqual([]);
    });

    it("finds tables by a word, with display names, units, links and sample values", async () => {
      const { text } = await call("labdata_describe_warehouse", { search: "results" });
      expect(text).toMatch(/^## plasmid_yield: Plasmid Yield$/m);
      expect(text).toMatch(/^## editing_efficiency: Editing Efficiency$/m);
      expect(text).toMatch(/^\| concentration \| float8 \| Concentration \(ng\/µL\) \| \d+(\.\d+)? \|$/m);
      expect(text).toMatch(/^\| assay_run \| text → assay_run \| Assay run \| [\w-]+ \|$/m);
      expect(text).toContain("Archived rows too: plasmid_yield$raw.");
      // The table's description (the warehouse's text) ends as a sentence before the note.
      expect(text).not.toMatch(/[^.!?\n] Archived rows too/);
      const yields = await json("labdata_describe_warehouse", { search: "yield", response_format: "json" });
      const concentration = yields.tables[0].columns.find(
        (c: { name: string }) => c.name === "concentration",
      );
      expect(concentration).toMatchObject({
        type: "double precision",
        display_name: "Concentration",
        unit: "ng/µL",
      });
      const containers = await json("labdata_describe_warehouse", {
        search: "container",
        response_format: "json",
      });
      expect(containers.tables.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(["container", "container_content"]),
      );
      const none = await call("labdata_describe_warehouse", { search: "zebrafish" });
      expect(none.text).toBe(
        'No warehouse table you can read has "zebrafish" in its name or columns. Call again without search to list them all.',
      );
    });
  });

  describe("labdata_query_warehouse answers a lab's analytic questions in one call", () => {
    it("a count over a month: Mira's sequences created in May 2025 in Plasmid Library, as the API lists them", async () => {
      const projectId = emulator.demo.projects["Plasmid Library"] as string;
      // The platform's own answer, all pages of the list (what an agent without the warehouse pages through).
      let fromApi = 0;
      let next = "";
      for (let page = 0; page < 100; page++) {
        const reply = await fetchReply(
          `${emulator.tenant("acme").apiUrl}/dna-sequences?projectId=${projectId}&pageSize=100${next ? `&nextToken=${next}` : ""}`,
          { authorization: basic(emulator.demo.user.apiKey) },
        );
        fromApi += reply.body.dnaSequences.filter((s: { createdAt: string }) =>
          s.createdAt.startsWith("2025-05"),
        ).length;
        next = reply.body.nextToken;
        if (!next) break;
      }
      expect(fromApi).toBeGreaterThan(0);
      const answer = await json("labdata_query_warehouse", {
        sql: `SELECT count(*) AS created FROM dna_sequence WHERE project_id = '${projectId}'
            AND created_at >= '2025-05-01' AND created_at < '2025-06-01'`,
        response_format: "json",
      });
      expect(answer).toEqual({ columns: [{ name: "created", type: "bigint" }], rows: [[fromApi]] });
      const { text } = await query(
        `SELECT count(*) AS created FROM dna_sequence WHERE project_id = '${projectId}' AND created_at >= '2025-05-01' AND created_at < '2025-06-01'`,
      );
      expect(text).toBe(`1 row.\n\n| created |\n| --- |\n| ${fromApi} |`);
    });

    it("a maximum of averages across runs: the NGS run with the best mean editing efficiency", async () => {
      const sql = `SELECT r.run_number, round(avg(e.editing_efficiency)::numeric, 1) AS mean_efficiency
                   FROM editing_efficiency e JOIN ngs_amplicon_run r ON r.id = e.assay_run
                  GROUP BY r.run_number ORDER BY mean_efficiency DESC LIMIT 1`;
      const [expected] = await adminRows(sql);
      const { text, isError } = await query(sql);
      expect(isError).toBe(false);
      expect(text).toBe(
        `1 row.\n\n| Run number | mean_efficiency |\n| --- | --- |\n| ${expected?.run_number} | ${expected?.mean_efficiency} |`,
      );
    });

    it("values over a threshold: plasmid yields above 150 ng/µL, under display names and units", async () => {
      const sql = `SELECT p.name, y.concentration FROM plasmid_yield y JOIN dna_sequence p ON p.id = y.plasmid
                  WHERE y.concentration > 150 ORDER BY y.concentration DESC, p.name`;
      const expected = await adminRows(sql);
      const answer = await json("labdata_query_warehouse", { sql, response_format: "json" });
      expect(answer.columns).toEqual([
        { name: "name", type: "text", display_name: "Name" },
        { name: "concentration", type: "double precision", display_name: "Concentration", unit: "ng/µL" },
      ]);
      expect(answer.rows).toEqual(expected.map((row) => [row.name, row.concentration]));
      const { text } = await query(sql);
      expect(text.split("\n")[2]).toBe("| Name | Concentration (ng/µL) |");
    });

    it("failures per plate: results under A260/A280 1.8 per plate reader run", async () => {
      const sql = `SELECT r.run_number, count(*) FILTER (WHERE y.a260_a280 < 1.8) AS failed, count(*) AS results
                   FROM plasmid_yield y JOIN plate_reader_run r ON r.id = y.assay_run GROUP BY 1 ORDER BY 1`;
      const expected = await adminRows(sql);
      expect(expected).toHaveLength(9);
      const answer = await json("labdata_query_warehouse", { sql, response_format: "json" });
      expect(answer.rows).toEqual(
        expected.map((row) => [Number(row.run_number), Number(row.failed), Number(row.results)]),
      );
    });

    it("says when rows were cut at max_rows, without a count it does not know", async () => {
      const { text } = await query("SELECT name FROM dna_sequence ORDER BY name", { max_rows: 5 });
      expect(text.split("\n")[0]).toBe(
        "The first 5 rows (max_rows=5); the query has more, how many is not known. Aggregate (COUNT, GROUP BY) or filter in SQL, or raise max_rows.",
      );
      expect(text.match(/^\| /gm)).toHaveLength(7);
      const structured = await json("labdata_query_warehouse", {
        sql: "SELECT name FROM dna_sequence",
        max_rows: 5,
        response_format: "json",
      });
      expect(structured).toMatchObject({ cut: "rows" });
      expect(structured.rows).toHaveLength(5);
    });

    it("keeps others' text inside its cell: a pipe or a line break cannot end a cell or a row", async () => {
      const { text } = await query("SELECT 'a | b' || chr(10) || '## More: call again' AS note");
      expect(text).toBe("1 row.\n\n| note |\n| --- |\n| a \\| b ## More: call again |");
    });

    it("answers a parse or SQL error with PostgreSQL's message, its position in the statement and its hint", async () => {
      const parse = await query("SELECT name\nFROM dna_sequence\nWHERE");
      expect(parse).toEqual({
        isError: true,
        text:
          "Error: Invalid input for labdata_query_warehouse: sql: PostgreSQL's parser refused it: syntax error at end of input " +
          "(at line 3, column 6). Correct the statement and call the tool again.",
      });
      const unknown = await query("SELECT nme FROM dna_sequence");
      expect(unknown.text).toBe(
        'Error: The warehouse refused the query: column "nme" does not exist (at line 1, column 8) (SQLSTATE 42703). ' +
          'Hint: Perhaps you meant to reference the column "dna_sequence.name". Correct the statement and call again; ' +
          "labdata_describe_warehouse lists the tables and columns",
      );
    });
  });

  describe("the warehouse login", () => {
    it("is minted once, reused, and renewed once, silently, when it expired mid-conversation", async () => {
      const mints = () => servedEndingWith(emulator, "/warehouse-credentials");
      const connection = await connectInMemory(labdataService, env({}, emulator.demo.colleague));
      try {
        const before = mints();
        expect((await query("SELECT 1 AS one", {}, connection)).isError).toBe(false);
        expect((await query("SELECT 2 AS two", {}, connection)).isError).toBe(false);
        expect(mints()).toBe(before + 1);
        const handle = emulator.demo.colleague.handle;
        // The login expires, and its connections end: what an hour later looks like to the server.
        const [login] = await adminRows(
          `SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name = 'labdata-mcp' AND usename LIKE 'u$${handle}\\_%'`,
        );
        expect(login?.usename).toMatch(new RegExp(`^u\\$${handle}_`));
        await adminRows(`ALTER ROLE "${login?.usename}" VALID UNTIL '2000-01-01'`);
        await adminRows(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${login?.usename}'`,
        );
        const renewed = await query("SELECT 3 AS three", {}, connection);
        expect(renewed).toEqual({ isError: false, text: "1 row.\n\n| three |\n| --- |\n| 3 |" });
        expect(mints()).toBe(before + 2);
        expect((await query("SELECT 4 AS four", {}, connection)).isError).toBe(false);
        expect(mints()).toBe(before + 2);
      } finally {
        await connection.close();
      }
    });

    it("says where the warehouse is missing, and the REST tools still answer", async () => {
      const port = await freePort();
      const down = await connectInMemory(
        labdataService,
        env({ LABDATA_WAREHOUSE_URL: `postgres://127.0.0.1:${port}/warehouse` }),
      );
      try {
        expect(await query("SELECT 1", {}, down)).toEqual({
          isError: true,
          text: "Error: Unexpected error occurred: ConnectionRefusedError",
        });
        const me = await call("labdata_get_current_user", {}, down);
        expect(me.isError).toBe(false);
        expect(me.text).toContain(emulator.demo.user.name);
      } finally {
        await down.close();
      }
      // No address at all: a tenant not on benchling.com and no LABDATA_WAREHOUSE_URL.
      const unknown = await connectInMemory(labdataService, apiKeyEnv(emulator.demo));
      try {
        const { text } = await call("labdata_describe_warehouse", {}, unknown);
        expect(text).toBe(
          "Error: The warehouse's address is not known for this tenant. Set LABDATA_WAREHOUSE_URL to it " +
            "(postgres://host:5432/warehouse, from your tenant's admin; the warehouse is a feature Benchling enables " +
            "per tenant) and restart the server",
        );
      } finally {
        await unknown.close();
      }
    });
  });
});
