// The tenant's warehouse is a real PostgreSQL, and PostgreSQL itself holds each minted login to what
// its user may read, to reading, and to its expiry; it serves TLS only, with the emulator CA's
// certificate; it is loaded from the tenant and follows writes made through the API. Every test runs
// on each engine found (test/support/warehouse.ts): the npm registry's PostgreSQL and Debian's.
import { beforeAll, describe, expect, it } from "vitest";
import type { WarehouseHandle } from "../../../packages/emulators/src/labdata/index.js";
import { OpenApiContract } from "../../contract/openapi.js";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { basic, fetchReply } from "../../support/labdata-http.js";
import {
  asAdmin,
  connectAs,
  mintCredentials,
  requestCredentials,
  WAREHOUSE_ENGINES,
} from "../../support/warehouse.js";

describe.each(WAREHOUSE_ENGINES)("the warehouse on PostgreSQL $name", (engine) => {
  const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"], postgresBinDir: engine.binDir } });
  const demo = () => demoOf(emulator);
  let warehouse: WarehouseHandle;
  let api: string;

  beforeAll(async () => {
    warehouse = await emulator.warehouse("acme");
    api = emulator.tenant("acme").apiUrl;
    emulator.admin.updateSettings("acme", { rateLimit: null });
  });

  /** The ids of what a user's API key lists, all pages. */
  async function listedIds(apiKey: string, path: string, key: string): Promise<string[]> {
    const ids: string[] = [];
    let next = "";
    for (let page = 0; page < 100; page++) {
      const separator = path.includes("?") ? "&" : "?";
      const reply = await fetchReply(
        `${api}${path}${separator}pageSize=100${next ? `&nextToken=${next}` : ""}`,
        {
          authorization: basic(apiKey),
        },
      );
      expect(reply.status).toBe(200);
      ids.push(...reply.body[key].map((item: { id: string }) => item.id));
      next = reply.body.nextToken;
      if (!next) break;
    }
    return ids.sort();
  }

  async function queryAs(apiKey: string, sql: string): Promise<Record<string, unknown>[]> {
    const client = await connectAs(warehouse, await mintCredentials(emulator, apiKey));
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it("reports its address and engine, and serves the emulator CA's certificate", async () => {
    expect(warehouse.url).toBe(`postgres://127.0.0.1:${warehouse.port}/warehouse`);
    expect(warehouse.engine).toMatch(/^PostgreSQL \d+/);
    if (engine.binDir) expect(warehouse.engine).toContain(engine.binDir);
    const credentials = await mintCredentials(emulator, demo().user.apiKey);
    // A client that trusts no extra CA refuses the certificate: it is the emulator CA's, not a public one.
    const untrusting = await import("pg").then(
      ({ default: pg }) =>
        new pg.Client({
          host: warehouse.host,
          port: warehouse.port,
          database: "warehouse",
          user: credentials.username,
          password: credentials.password,
          ssl: { ca: [] as string[], rejectUnauthorized: true },
        }),
    );
    await expect(untrusting.connect()).rejects.toThrow(/self-signed|unable to verify|certificate/i);
    await untrusting.end().catch(() => undefined);
    const client = await connectAs(warehouse, credentials);
    const { rows } = await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
    expect(rows).toEqual([{ ssl: true }]);
    await client.end();
  });

  it("refuses a login without TLS, and a login to another database", async () => {
    const credentials = await mintCredentials(emulator, demo().user.apiKey);
    await expect(connectAs(warehouse, credentials, { tls: false })).rejects.toThrow(/no encryption/);
    for (const database of ["postgres", "template1"]) {
      const elsewhere = { host: warehouse.host, port: warehouse.port, caPem: warehouse.caPem, database };
      await expect(connectAs(elsewhere, credentials)).rejects.toThrow(/permission denied for database/);
    }
  });

  it("mints credentials as the reference says, and checks expiresIn", async () => {
    const reply = await requestCredentials(emulator, demo().user.apiKey, { expiresIn: 900 });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["expiresAt", "password", "username"]);
    expect(reply.body.username).toMatch(/^u\$mpatel_[0-9a-f]{12}$/);
    const lifetime = Date.parse(reply.body.expiresAt) - emulator.clock.now();
    expect(lifetime).toBeGreaterThan(890_000);
    expect(lifetime).toBeLessThanOrEqual(900_000);
    for (const body of [
      {},
      { expiresIn: 3600 },
      { expiresIn: 0 },
      { expiresIn: 1.5 },
      { expiresIn: "60" },
      { expiresIn: 60, label: "x" },
    ]) {
      const refused = await requestCredentials(emulator, demo().user.apiKey, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.type).toBe("invalid_request_error");
    }
    const anonymous = await fetchReply(`${api}/warehouse-credentials`, {
      method: "POST",
      json: { expiresIn: 60 },
    });
    expect(anonymous.status).toBe(401);
  });

  it("answers as the platform's OpenAPI document describes", async () => {
    const contract = await OpenApiContract.load();
    const exchanges: Array<[string, string, unknown]> = [
      ["POST", "/warehouse-credentials", { expiresIn: 120 }],
      ["POST", "/warehouse-credentials", { expiresIn: 4000 }],
      ["GET", `/users/${demo().user.id}/warehouse-credentials`, undefined],
    ];
    for (const [method, path, json] of exchanges) {
      const reply = await fetchReply(`${api}${path}`, {
        method,
        authorization: basic(demo().user.apiKey),
        json,
      });
      const problems = contract.check({
        method,
        path,
        query: {},
        requestHeaders: json === undefined ? {} : { "content-type": "application/json" },
        requestBody: json,
        status: reply.status,
        responseHeaders: Object.fromEntries(reply.headers),
        responseBody: reply.body,
      });
      // The second request is wrong on purpose: only the answer is held to the document.
      const ofAnswer = problems.filter((problem) => problem.where !== "request" || reply.status < 400);
      expect(ofAnswer, `${method} ${path} ${reply.status}`).toEqual([]);
    }
  });

  it("lists a user's own warehouse credentials, never another's", async () => {
    const credentials = await mintCredentials(emulator, demo().reader.apiKey);
    const own = await fetchReply(`${api}/users/${demo().reader.id}/warehouse-credentials`, {
      authorization: basic(demo().reader.apiKey),
    });
    expect(own.status).toBe(200);
    const usernames = own.body.warehouseCredentials.map((c: { username: string }) => c.username);
    expect(usernames).toContain(credentials.username);
    expect(JSON.stringify(own.body)).not.toContain(credentials.password);
    const other = await fetchReply(`${api}/users/${demo().user.id}/warehouse-credentials`, {
      authorization: basic(demo().reader.apiKey),
    });
    expect(other.status).toBe(404);
  });

  it("shows each login the rows its user may read, as the API does", async () => {
    for (const person of [demo().user, demo().reader, demo().colleague]) {
      const projects = await queryAs(person.apiKey, "SELECT id FROM project ORDER BY id");
      expect(projects.map((row) => row.id)).toEqual(await listedIds(person.apiKey, "/projects", "projects"));
      const sequences = await queryAs(person.apiKey, 'SELECT id FROM "dna_sequence" ORDER BY id');
      expect(sequences.map((row) => row.id)).toEqual(
        await listedIds(person.apiKey, "/dna-sequences", "dnaSequences"),
      );
      const entries = await queryAs(person.apiKey, "SELECT id FROM entry ORDER BY id");
      expect(entries.map((row) => row.id)).toEqual(await listedIds(person.apiKey, "/entries", "entries"));
    }
    const [mine] = await queryAs(demo().user.apiKey, 'SELECT count(*)::int AS n FROM "dna_sequence$raw"');
    const [theirs] = await queryAs(demo().reader.apiKey, 'SELECT count(*)::int AS n FROM "dna_sequence$raw"');
    expect(mine?.n).toBeGreaterThan(1000);
    expect(theirs?.n).toBeGreaterThan(0);
    expect(theirs?.n).toBeLessThan(mine?.n as number);
    // Naming another project's rows outright finds nothing: the database filters, not the query.
    const plasmids = demo().projects["Plasmid Library"];
    const named = await queryAs(
      demo().reader.apiKey,
      `SELECT count(*)::int AS n FROM "dna_sequence$raw" WHERE project_id = '${plasmids}'`,
    );
    expect(named).toEqual([{ n: 0 }]);
  });

  it("holds assay results per schema with units, and the catalog", async () => {
    const rows = await queryAs(
      demo().admin.apiKey,
      "SELECT table_name, column_name, display_name, unit, links_to FROM column_catalog WHERE unit IS NOT NULL OR links_to = 'dna_sequence' ORDER BY 1, 2",
    );
    expect(rows.some((row) => row.unit === "°C")).toBe(true);
    expect(rows.some((row) => row.links_to === "dna_sequence")).toBe(true);
    const tables = await queryAs(demo().admin.apiKey, "SELECT table_name FROM table_catalog");
    const names = tables.map((row) => row.table_name);
    for (const name of [
      "user",
      "project",
      "folder",
      "dna_sequence",
      "aa_sequence",
      "custom_entity",
      "plasmid",
      "entry",
      "assay_run",
      "plasmid_yield",
      "container",
      "box",
      "location",
      "plate",
      "workflow_task",
      "request",
      "schema",
      "schema_field",
    ]) {
      expect(names).toContain(name);
    }
    const results = await queryAs(demo().admin.apiKey, "SELECT count(*)::int AS n FROM editing_efficiency");
    expect(results[0]?.n).toBeGreaterThan(0);
    const comment = await queryAs(
      demo().admin.apiKey,
      "SELECT col_description('public.\"dna_sequence$raw\"'::regclass, 1) AS c",
    );
    expect(comment).toEqual([{ c: "ID" }]);
  });

  it("refuses writes, DDL and the server's files in the database itself", async () => {
    const client = await connectAs(warehouse, await mintCredentials(emulator, demo().admin.apiKey));
    const refused = async (sql: string, pattern: RegExp) => {
      await expect(client.query(sql), sql).rejects.toThrow(pattern);
      await client.query("ROLLBACK").catch(() => undefined);
    };
    const readOnly = /permission denied|read-only transaction/;
    await refused("INSERT INTO project (id, name) VALUES ('p', 'p')", readOnly);
    await refused(
      'WITH gone AS (DELETE FROM "dna_sequence$raw" RETURNING id) SELECT count(*) FROM gone',
      readOnly,
    );
    await refused("CREATE TABLE mine (x int)", readOnly);
    await refused("CREATE TEMP TABLE mine (x int)", readOnly);
    await refused(
      "SELECT set_config('statement_timeout', '0', false)",
      /permission denied for function set_config/,
    );
    await refused("SELECT pg_read_file('/etc/passwd')", /permission denied/);
    await refused("SELECT lo_import('/etc/passwd')", /permission denied/);
    await refused(
      "COPY (SELECT 1) TO PROGRAM 'id'",
      /read-only|permission denied|superuser|pg_execute_server_program/,
    );
    await refused("SELECT dblink_connect('host=127.0.0.1')", /does not exist/);
    // Leaving read-only mode does not help: the grants allow nothing but SELECT.
    await client.query("BEGIN READ WRITE");
    await refused("INSERT INTO \"project$raw\" (id, name) VALUES ('p', 'p')", /permission denied/);
    await client.query("BEGIN READ WRITE");
    await refused("UPDATE \"dna_sequence$raw\" SET name = 'x'", /permission denied/);
    await client.query("BEGIN READ WRITE");
    await refused("CREATE TABLE public.mine (x int)", /permission denied/);
    await client.query("BEGIN READ WRITE");
    await refused("CREATE TEMP TABLE mine (x int)", /permission denied/);
    await client.query("BEGIN READ WRITE");
    await refused("SELECT * FROM acl.login", /permission denied/);
    await client.query("BEGIN READ WRITE");
    await refused('SELECT * FROM "dna_sequence$raw" LIMIT 1 FOR UPDATE', /permission denied/);
    const settings = await client.query(
      "SELECT current_setting('statement_timeout') AS t, current_setting('default_transaction_read_only') AS r, current_setting('temp_file_limit') AS f",
    );
    expect(settings.rows).toEqual([{ t: "30s", r: "on", f: "1GB" }]);
    await refused("SET temp_file_limit = -1", /permission denied to set parameter/);
    await client.end();
    const [count] = await asAdmin(
      warehouse,
      async (admin) => (await admin.query('SELECT count(*)::int AS n FROM "project$raw"')).rows,
    );
    expect(count?.n).toBe(emulator.admin.listProjects("acme").length);
  });

  it("refuses an expired login, and keeps refusing after expireLogins", async () => {
    const shortLived = await mintCredentials(emulator, demo().user.apiKey, 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(connectAs(warehouse, shortLived)).rejects.toThrow(/password authentication failed/);

    const credentials = await mintCredentials(emulator, demo().user.apiKey);
    const open = await connectAs(warehouse, credentials);
    await warehouse.expireLogins();
    await expect(connectAs(warehouse, credentials)).rejects.toThrow(/password authentication failed/);
    // As the reference says, open sessions are not ended by expiry...
    expect((await open.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    // ...unless asked to.
    await warehouse.expireLogins({ terminateSessions: true });
    await expect(open.query("SELECT 1")).rejects.toThrow();
    await open.end().catch(() => undefined);
  });

  it("follows writes made through the API", async () => {
    const folderId = demo().folders.Backbones;
    const created = await fetchReply(`${api}/dna-sequences`, {
      method: "POST",
      authorization: basic(demo().user.apiKey),
      json: { name: "pWarehouse-sync", bases: "ATGCATGCATGC", isCircular: false, folderId },
    });
    expect(created.status).toBe(201);
    await warehouse.synced();
    const found = await queryAs(
      demo().user.apiKey,
      "SELECT id, length, folder_id FROM dna_sequence WHERE name = 'pWarehouse-sync'",
    );
    expect(found).toEqual([{ id: created.body.id, length: 12, folder_id: folderId }]);

    const archived = await fetchReply(`${api}/dna-sequences:archive`, {
      method: "POST",
      authorization: basic(demo().user.apiKey),
      json: { dnaSequenceIds: [created.body.id], reason: "Made in error" },
    });
    expect(archived.status).toBe(200);
    await warehouse.synced();
    const after = await queryAs(
      demo().user.apiKey,
      `SELECT (SELECT count(*)::int FROM dna_sequence WHERE id = '${created.body.id}') AS live, (SELECT archive_purpose$ FROM "dna_sequence$raw" WHERE id = '${created.body.id}') AS reason`,
    );
    expect(after).toEqual([{ live: 0, reason: "Made in error" }]);
  });

  it("follows a membership change for a login already minted", async () => {
    const reader = demo().reader;
    const client = await connectAs(warehouse, await mintCredentials(emulator, reader.apiKey));
    const count = async () =>
      (await client.query("SELECT count(*)::int AS n FROM project")).rows[0].n as number;
    expect(await count()).toBe(1);
    const plasmids = demo().projects["Plasmid Library"] as string;
    emulator.admin.setMembership("acme", { userId: reader.id, resourceId: plasmids, role: "read" });
    await warehouse.synced();
    expect(await count()).toBe(2);
    emulator.admin.removeMembership("acme", reader.id, plasmids);
    await warehouse.synced();
    expect(await count()).toBe(1);
    // A suspended user has no access by any method: their open session sees nothing.
    emulator.admin.updateUser("acme", reader.id, { status: "suspended" });
    await warehouse.synced();
    expect(await count()).toBe(0);
    emulator.admin.updateUser("acme", reader.id, { status: "active" });
    await warehouse.synced();
    expect(await count()).toBe(1);
    await client.end();
  });
});
