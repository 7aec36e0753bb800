// A hostile (or careless) agent cannot hurt the warehouse or the server through
// labdata_query_warehouse: writes and DDL in every disguise, several statements, SET, sleeping, files,
// connections out, side effects, a cross join of the largest tables, a result of a gigabyte. Each ends
// in a clear error or a capped answer, and the server keeps answering, others included. On each
// PostgreSQL found (test/support/warehouse.ts): the npm registry's, and Debian's where installed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WarehouseHandle } from "../../packages/emulators/src/labdata/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, callJson, callText, connectInMemory } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv, servedEndingWith } from "../support/labdata.js";
import { asAdmin, WAREHOUSE_ENGINES } from "../support/warehouse.js";

describe.each(WAREHOUSE_ENGINES)("on PostgreSQL $name", (engine) => {
  const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"], postgresBinDir: engine.binDir } });
  let warehouse: WarehouseHandle;
  let conn: Connected;
  const SIDE_EFFECT = "lab_touch_users";

  beforeAll(async () => {
    warehouse = await emulator.warehouse("acme");
    emulator.admin.updateSettings("acme", { rateLimit: null });
    // A function with a side effect, as a tenant's own database could hold one.
    await asAdmin(warehouse, (client) =>
      client.query(
        `CREATE FUNCTION public.${SIDE_EFFECT}() RETURNS int LANGUAGE sql VOLATILE AS $$ UPDATE public."user$raw" SET name = name || '!'; SELECT 1 $$`,
      ),
    );
    conn = await connectInMemory(labdataService, env());
  }, 60_000);
  afterAll(async () => {
    await conn?.close();
    await asAdmin(warehouse, (client) =>
      client.query(`DROP FUNCTION IF EXISTS public.${SIDE_EFFECT}()`),
    ).catch(() => undefined);
  });

  function env(extra: Record<string, string> = {}) {
    return apiKeyEnv(emulator.demo, emulator.demo.user, { LABDATA_WAREHOUSE_URL: warehouse.url, ...extra });
  }

  const query = (sql: string, extra: Record<string, unknown> = {}, connection: Connected = conn) =>
    callText(connection, "labdata_query_warehouse", { sql, ...extra });

  const refused = (problem: string) =>
    `Error: Invalid input for labdata_query_warehouse: sql: ${problem}. Correct the statement and call the tool again.`;
  const READ_ONLY = "the warehouse answers one read-only SELECT (or WITH ... SELECT)";
  const FUNCTIONS =
    "the warehouse tool refuses functions that sleep, read files, open connections, change settings or run SQL given as text";

  /** The server still answers a plain question, on this connection and on a fresh one. */
  async function stillAnswers(): Promise<void> {
    const { text, isError } = await query("SELECT count(*) AS sequences FROM dna_sequence");
    expect(isError).toBe(false);
    expect(text).toMatch(/^1 row\.\n\n\| sequences \|\n\| --- \|\n\| \d+ \|$/);
  }

  describe("refused before anything is sent", () => {
    const cases: Array<[string, string]> = [
      [
        "WITH added AS (INSERT INTO project (id, name) VALUES ('x', 'y') RETURNING id) SELECT * FROM added",
        "INSERT is not allowed, in a WITH clause or anywhere: the warehouse is read-only",
      ],
      [
        "WITH gone AS (DELETE FROM dna_sequence RETURNING id) SELECT count(*) FROM gone",
        "DELETE is not allowed, in a WITH clause or anywhere: the warehouse is read-only",
      ],
      [
        "SELECT * FROM (WITH u AS (UPDATE folder SET name = 'x' RETURNING 1) SELECT * FROM u) AS nested",
        "UPDATE is not allowed, in a WITH clause or anywhere: the warehouse is read-only",
      ],
      [
        "SELECT id FROM dna_sequence FOR UPDATE",
        "a locking clause (FOR UPDATE) is not allowed: the warehouse is read-only; leave it out",
      ],
      [
        "SELECT id FROM dna_sequence LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED",
        "a locking clause (FOR NO KEY UPDATE) is not allowed: the warehouse is read-only; leave it out",
      ],
      [
        "SELECT * INTO stolen FROM dna_sequence",
        "SELECT ... INTO creates a table and is not allowed; leave out INTO",
      ],
      ["SELECT 1; SELECT 2", "it holds 2 statements; send one SELECT (or WITH ... SELECT) per call"],
      [
        "SELECT 1; DROP TABLE dna_sequence$raw",
        "it holds 2 statements; send one SELECT (or WITH ... SELECT) per call",
      ],
      ["SET statement_timeout = 0", `SET is not allowed: ${READ_ONLY}`],
      ["RESET ALL", `SET is not allowed: ${READ_ONLY}`],
      ["DROP TABLE dna_sequence$raw", `DDL is not allowed: ${READ_ONLY}`],
      ["CREATE TABLE t AS SELECT 1", `CREATE TABLE AS is not allowed: ${READ_ONLY}`],
      ["COPY dna_sequence TO '/tmp/out'", `COPY is not allowed: ${READ_ONLY}`],
      ["DO $$ BEGIN PERFORM pg_sleep(60); END $$", `DO is not allowed: ${READ_ONLY}`],
      ["EXPLAIN ANALYZE DELETE FROM dna_sequence", `EXPLAIN is not allowed: ${READ_ONLY}`],
      ["BEGIN", `A transaction statement is not allowed: ${READ_ONLY}`],
      ["SELECT pg_sleep(60)", `the function pg_sleep() is not allowed: ${FUNCTIONS}`],
      [
        "SELECT pg_catalog.pg_sleep_for('1 minute')",
        `the function pg_catalog.pg_sleep_for() is not allowed: ${FUNCTIONS}`,
      ],
      ["SELECT * FROM PG_SLEEP(60)", `the function pg_sleep() is not allowed: ${FUNCTIONS}`],
      ["SELECT pg_read_file('/etc/passwd')", `the function pg_read_file() is not allowed: ${FUNCTIONS}`],
      [
        "SELECT pg_catalog.pg_ls_dir('.')",
        `the function pg_catalog.pg_ls_dir() is not allowed: ${FUNCTIONS}`,
      ],
      ["SELECT lo_import('/etc/passwd')", `the function lo_import() is not allowed: ${FUNCTIONS}`],
      [
        "SELECT * FROM dblink('host=198.51.100.7 dbname=x', 'SELECT 1') AS t(x int)",
        `the function dblink() is not allowed: ${FUNCTIONS}`,
      ],
      [
        "SELECT set_config('statement_timeout', '0', false)",
        `the function set_config() is not allowed: ${FUNCTIONS}`,
      ],
      [
        "SELECT query_to_xml('DELETE FROM dna_sequence', true, false, '')",
        `the function query_to_xml() is not allowed: ${FUNCTIONS}`,
      ],
      ["SELECT nextval('some_sequence')", `the function nextval() is not allowed: ${FUNCTIONS}`],
      [
        "SELECT name FROM dna_sequence WHERE id IN (SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity)",
        `the function pg_terminate_backend() is not allowed: ${FUNCTIONS}`,
      ],
    ];

    it("refuses writes, DDL, several statements, SET, sleeping, files and connections out, minting nothing", async () => {
      // A fresh server: had anything been sent, it would have minted a login first.
      const fresh = await connectInMemory(labdataService, env());
      const mints = servedEndingWith(emulator, "/warehouse-credentials");
      try {
        for (const [sql, problem] of cases) {
          expect(await query(sql, {}, fresh), sql).toEqual({ isError: true, text: refused(problem) });
        }
        expect(servedEndingWith(emulator, "/warehouse-credentials")).toBe(mints);
      } finally {
        await fresh.close();
      }
      await stillAnswers();
    });
  });

  describe("refused by what the database says of a function", () => {
    it("refuses a volatile function (one that may change something), the tenant's own or the catalog's", async () => {
      expect(await query(`SELECT ${SIDE_EFFECT}()`)).toEqual({
        isError: true,
        text: refused(
          `the function ${SIDE_EFFECT}() is volatile (it may change something or wait) and is not allowed; use plain columns, aggregates and stable functions`,
        ),
      });
      const catalog = await query("SELECT pg_stat_clear_snapshot()");
      expect(catalog.text).toContain("the function pg_stat_clear_snapshot() is volatile");
      // Nothing changed: no name gained its "!".
      const [changed] = await asAdmin(
        warehouse,
        async (client) =>
          (await client.query(`SELECT count(*)::int AS n FROM public."user$raw" WHERE name LIKE '%!'`)).rows,
      );
      expect(changed).toEqual({ n: 0 });
      // random() and the clock stay allowed.
      expect((await query("SELECT random() < 2 AS ok, clock_timestamp() IS NOT NULL AS now")).isError).toBe(
        false,
      );
      await stillAnswers();
    });
  });

  describe("capped by the database and the server", () => {
    it("stops a cross join of the largest tables at the statement timeout, while another caller is answered", async () => {
      const slow = await connectInMemory(labdataService, env({ MCP_REQUEST_TIMEOUT: "2" }));
      try {
        const started = Date.now();
        const crossJoin = query(
          "SELECT count(*) FROM dna_sequence a CROSS JOIN dna_sequence b CROSS JOIN dna_sequence c",
          {},
          slow,
        );
        // The other connection answers meanwhile.
        await stillAnswers();
        expect(await crossJoin).toEqual({
          isError: true,
          text:
            "Error: The query ran past the warehouse's time limit of 2 s and was stopped. Narrow it (a WHERE on a " +
            "date, a project or an id; fewer joins; an aggregate rather than rows) and call again",
        });
        expect(Date.now() - started).toBeLessThan(15_000);
        // The same connection answers the next question.
        expect((await query("SELECT 1 AS one", {}, slow)).text).toBe("1 row.\n\n| one |\n| --- |\n| 1 |");
      } finally {
        await slow.close();
      }
    });

    it("stops the statement in the database when the agent cancels the call, and the next call is answered", async () => {
      const patient = await connectInMemory(labdataService, env({ MCP_REQUEST_TIMEOUT: "120" }));
      const running = (where: string) =>
        asAdmin(
          warehouse,
          async (client) =>
            (
              await client.query(
                `SELECT pid FROM pg_stat_activity WHERE application_name = 'labdata-mcp' AND state = 'active' AND ${where}`,
              )
            ).rowCount ?? 0,
        );
      try {
        const stop = new AbortController();
        const call = patient.client
          .callTool(
            {
              name: "labdata_query_warehouse",
              arguments: {
                sql: "SELECT count(*) FROM dna_sequence a CROSS JOIN dna_sequence b CROSS JOIN dna_sequence c",
              },
            },
            undefined,
            { signal: stop.signal },
          )
          .catch((error: unknown) => error);
        const fetching = "query LIKE 'FETCH % FROM labdata_rows'";
        let seen = 0;
        for (let attempt = 0; attempt < 100 && seen === 0; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          seen = await running(fetching);
        }
        expect(seen).toBe(1);
        const cancelledAt = Date.now();
        stop.abort();
        expect(await call).toBeInstanceOf(Error);
        // Well before the 120 s time limit, the statement is gone from the database.
        let left = 1;
        while (left > 0 && Date.now() - cancelledAt < 10_000) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          left = await running(fetching);
        }
        expect(left).toBe(0);
        expect((await query("SELECT 1 AS one", {}, patient)).text).toBe("1 row.\n\n| one |\n| --- |\n| 1 |");
      } finally {
        await patient.close();
      }
    });

    it("answers a clear error when the warehouse ends the connection mid-query, and the next call is answered", async () => {
      const running = query(
        "SELECT count(*) FROM dna_sequence a CROSS JOIN dna_sequence b CROSS JOIN dna_sequence c",
      );
      // The warehouse restarts, or an admin ends the session: its backend is terminated under the query
      // (the rows are read by FETCH from a cursor: that is the statement running).
      let ended = 0;
      for (let attempt = 0; attempt < 50 && ended === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ended = await asAdmin(
          warehouse,
          async (client) =>
            (
              await client.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'labdata-mcp' AND query LIKE 'FETCH % FROM labdata_rows' AND state = 'active'",
              )
            ).rowCount ?? 0,
        );
      }
      expect(ended).toBe(1);
      expect(await running).toEqual({
        isError: true,
        text: "Error: Unexpected error occurred: ConnectionError",
      });
      await stillAnswers();
    });

    it("cuts a result of a gigabyte at the byte cap and says so, without a count", async () => {
      const started = Date.now();
      const { text, isError } = await query(
        "SELECT g AS n, repeat('x', 10000) AS filler FROM generate_series(1, 100000) AS g",
        { max_rows: 1000 },
      );
      expect(isError).toBe(false);
      const shown = text.match(/^\| \d+ \| x+… \(9700 more characters/gm)?.length ?? 0;
      expect(shown).toBeGreaterThan(0);
      expect(text.split("\n")[0]).toBe(
        `The first ${shown} rows: more would pass the answer's size limit (48 KB); the query may have more rows, how many ` +
          `is not known. Select fewer or shorter columns, aggregate, or read on with OFFSET ${shown} in SQL.`,
      );
      expect(text.length).toBeLessThan(60_000);
      expect(Date.now() - started).toBeLessThan(15_000);
      // biome-ignore lint/suspicious/noExplicitAny: the JSON the tool answered
      const structured = await callJson<any>(conn, "labdata_query_warehouse", {
        sql: "SELECT g AS n, repeat('x', 10000) AS filler FROM generate_series(1, 100000) AS g",
        max_rows: 1000,
        response_format: "json",
      });
      expect(structured.cut).toBe("bytes");
      expect(structured.rows.length).toBe(shown);
    });

    it("leaves a cell of 100 MB in the database and names it", async () => {
      const { text, isError } = await query("SELECT 1 AS n, repeat('x', 100000000) AS huge");
      expect(isError).toBe(false);
      expect(text).toBe(
        "1 row.\n\n1 cell is larger than 16 KB and left out (shown empty): select a part of it in SQL (left(), substring()).\n\n" +
          "| n | huge |\n| --- | --- |\n| 1 |  |",
      );
      await stillAnswers();
    });
  });
});
