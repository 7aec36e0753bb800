// `labdata-mcp check` (the built bin, as a user runs it) tries the warehouse: a login minted with the
// credential, a connection over verified TLS, SELECT 1; and names the fix when it cannot. A warehouse
// that is not configured is a note, never a failure: not every tenant has one. And the built bin
// answers a query over stdio: PostgreSQL's parser (WebAssembly) loads from the bundle.
import { beforeAll, describe, expect, it } from "vitest";
import { closedPort, runBin } from "../support/bin-run.js";
import { callText, connectStdio } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";

const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"] } });
let good: Record<string, string>;

beforeAll(async () => {
  const warehouse = await emulator.warehouse("acme");
  good = {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_API_KEY: emulator.demo.user.apiKey,
    LABDATA_WAREHOUSE_URL: warehouse.url,
    NODE_EXTRA_CA_CERTS: testCa().caFile,
  };
}, 60_000);

const check = (env: Record<string, string>) => runBin("labdata-mcp", ["check"], env);

describe("labdata-mcp check and the warehouse", () => {
  it("mints a login, connects over verified TLS and runs SELECT 1", async () => {
    const result = await check(good);
    expect(result.stdout).toMatch(
      /ok {4}warehouse {4}minted a login, connected to 127\.0\.0\.1:\d+ over verified TLS, SELECT 1 answered/,
    );
    expect(result.stdout).toContain("All checks passed");
    expect(result.code).toBe(0);
  });

  it("names a warehouse that refuses connections, and the setting to fix", async () => {
    const port = await closedPort();
    const result = await check({ ...good, LABDATA_WAREHOUSE_URL: `postgres://127.0.0.1:${port}/warehouse` });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `FAIL  warehouse    ConnectionRefusedError: the warehouse 127.0.0.1:${port} refused the connection (ECONNREFUSED)`,
    );
    expect(result.stdout).toContain("fix: check LABDATA_WAREHOUSE_URL (postgres://host:5432/warehouse)");
  });

  it("refuses a warehouse address that would lower TLS, at start", async () => {
    const result = await check({
      ...good,
      LABDATA_WAREHOUSE_URL: `${good.LABDATA_WAREHOUSE_URL}?sslmode=disable`,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL  settings");
    expect(result.stdout).toContain("must not lower TLS (sslmode)");
  });

  it("only notes a tenant without a warehouse address", async () => {
    const { LABDATA_WAREHOUSE_URL: _, ...without } = good;
    const result = await check(without);
    expect(result.stdout).toMatch(
      /ok {4}warehouse {4}no address: set LABDATA_WAREHOUSE_URL to use the warehouse tools/,
    );
    expect(result.code).toBe(0);
  });
});

describe("the built labdata-mcp over stdio", () => {
  it("checks a query with PostgreSQL's parser and answers it by default, no toolset named", async () => {
    const { NODE_EXTRA_CA_CERTS: _, ...settings } = good;
    const server = await connectStdio("labdata-mcp", settings);
    try {
      const answer = await callText(server, "labdata_query_warehouse", {
        sql: "SELECT count(*) AS n FROM project",
      });
      expect(answer.text).toMatch(/^1 row\.\n\n\| n \|\n\| --- \|\n\| \d+ \|$/);
      const refused = await callText(server, "labdata_query_warehouse", { sql: "SELECT 1 FROM" });
      expect(refused.text).toContain("PostgreSQL's parser refused it: syntax error at end of input");
    } finally {
      await server.close();
    }
  });
});
