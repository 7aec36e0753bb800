// The warehouse on a team server: each signed-in person queries as themselves. Their login is minted
// with their own platform key, kept sealed in the shared state (a real Redis, two replicas sharing
// nothing else) and reused by every replica; their connections are theirs alone; and PostgreSQL's
// row-level security hides from one person the rows another may see, even when the query names them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PEOPLE } from "../../packages/emulators/src/idp/index.js";
import type { DemoUser, WarehouseHandle } from "../../packages/emulators/src/labdata/index.js";
import type { SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { runForget } from "../../packages/lab-mcp/src/services/labdata/cli.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { connectModernInMemory, type ModernConnected, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { servedEndingWith } from "../support/labdata.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";
import { asAdmin } from "../support/warehouse.js";

const [MIRA, , , LIN] = DEMO_PEOPLE as [
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
];
const PREFIX = "lab-mcp:warehouse-people:";

describe.skipIf(!REDIS_SERVER)(`the warehouse per person${REDIS_SERVER ? "" : ` (${NO_REDIS})`}`, () => {
  const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"] } });
  let warehouse: WarehouseHandle;
  let redis: RunningRedis;
  let replicaA: SharedState;
  let replicaB: SharedState;
  const opened: ModernConnected[] = [];
  /** Everything any client read. */
  const outputs: string[] = [];

  beforeAll(async () => {
    warehouse = await emulator.warehouse("acme");
    emulator.admin.updateSettings("acme", { rateLimit: null });
    redis = await startRedis();
    replicaA = await openRedisState(redis, { prefix: PREFIX });
    replicaB = await openRedisState(redis, { prefix: PREFIX });
  }, 60_000);
  afterAll(async () => {
    for (const connection of opened) await connection.close().catch(() => undefined);
    await replicaA?.close();
    await replicaB?.close();
    await redis?.stop();
  });

  /** A client of `replica` for `person`, who types `user`'s own key on the page they are sent to. */
  async function connect(replica: SharedState, person: (typeof DEMO_PEOPLE)[0], user: DemoUser) {
    const connection = await connectModernInMemory(
      labdataService,
      {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: emulator.demo.baseUrl,
        LABDATA_WAREHOUSE_URL: warehouse.url,
        LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-wh-")), "labdata.json"),
        MCP_TRANSPORT: "http",
        REDIS_URL: redis.url,
        MCP_STATE_KEY: TEST_STATE_KEY_HEX,
        MCP_STATE_PREFIX: PREFIX,
        MCP_LOG_CALLS: "false",
      },
      { elicitation: { url: {} } },
      {
        clientSession: {
          caller: `person:${person.subject}`,
          isolated: true,
          person: {
            subject: `https://idp.example ${person.subject}`,
            email: person.email,
            accessToken: "checked",
          },
        },
        state: replica,
      },
    );
    opened.push(connection);
    connection.client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      await fetch(url, { method: "POST", body: new URLSearchParams({ secret: user.apiKey }) });
      return { action: "accept" };
    });
    const query = async (sql: string) => {
      const result = await connection.client.callTool({
        name: "labdata_query_warehouse",
        arguments: { sql },
      });
      const text = textOf(result);
      outputs.push(text.text, JSON.stringify(result.structuredContent ?? {}));
      return text;
    };
    const signOut = async () =>
      (await connection.client.callTool({ name: "labdata_sign_out", arguments: {} })).structuredContent;
    return Object.assign(query, { signOut });
  }

  /** The logins connected now from this server, by their user's handle. */
  async function connectedLogins(): Promise<string[]> {
    return asAdmin(warehouse, async (client) =>
      (
        await client.query<{ usename: string }>(
          "SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name = 'labdata-mcp' ORDER BY 1",
        )
      ).rows.map((row) => row.usename),
    );
  }

  it("each person queries as themselves: their own login, their own rows, on every replica", async () => {
    const { user: mira, reader: lin } = emulator.demo;
    const plasmidLibrary = emulator.demo.projects["Plasmid Library"] as string;
    const mints = () => servedEndingWith(emulator, "/warehouse-credentials");
    const before = mints();

    const miraOnA = await connect(replicaA, MIRA, mira);
    const count = `SELECT count(*) AS sequences FROM dna_sequence WHERE project_id = '${plasmidLibrary}'`;
    const hers = await miraOnA(count);
    expect(hers.isError).toBe(false);
    const seen = Number(/\| (\d+) \|$/.exec(hers.text)?.[1]);
    expect(seen).toBeGreaterThan(1000);
    const [one] = await asAdmin(
      warehouse,
      async (client) =>
        (await client.query(`SELECT id FROM dna_sequence$raw WHERE project_id = '${plasmidLibrary}' LIMIT 1`))
          .rows,
    );

    // Lin reads Cas9 Engineering only: the same query, and one naming Mira's row by id, show nothing.
    const linOnB = await connect(replicaB, LIN, lin);
    expect(await linOnB(count)).toEqual({ isError: false, text: "1 row.\n\n| sequences |\n| --- |\n| 0 |" });
    expect(await linOnB(`SELECT id, name FROM dna_sequence$raw WHERE id = '${one?.id}'`)).toEqual({
      isError: false,
      text: "The query returned no rows.",
    });
    expect(mints()).toBe(before + 2);

    // Two logins, one per person, each named after its own user.
    const logins = await connectedLogins();
    expect(logins.some((name) => name.startsWith(`u$${mira.handle}_`))).toBe(true);
    expect(logins.some((name) => name.startsWith(`u$${lin.handle}_`))).toBe(true);

    // Mira on the other replica: her login from the shared state, nothing minted.
    const miraOnB = await connect(replicaB, MIRA, mira);
    expect((await miraOnB(count)).text).toBe(`1 row.\n\n| sequences |\n| --- |\n| ${seen} |`);
    expect(mints()).toBe(before + 2);

    // The shared state holds the logins sealed, under keyed names: no username, no email, no subject.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${PREFIX}*`);
      const names = keys.filter((key) => key.includes("warehouse-login"));
      expect(names).toHaveLength(2);
      const dump = [...keys, ...(await Promise.all(keys.map((key) => client.dump(key))))].join("\n");
      for (const login of logins) expect(dump).not.toContain(login);
      for (const secretish of [MIRA.email, LIN.email, MIRA.subject, LIN.subject])
        expect(dump).not.toContain(secretish);
    } finally {
      client.disconnect();
    }
    // No answer ever showed a login.
    expect(outputs.join("\n")).not.toMatch(/u\$\w+_/);

    // The ways out: Mira signs out (her key and her login go, for every replica); an operator forgets Lin.
    expect(await miraOnA.signOut()).toMatchObject({
      removed: ["person_key", "warehouse_login"],
      next: "ask",
    });
    const lines: string[] = [];
    const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const forgetEnv = {
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      REDIS_URL: redis.url,
      MCP_STATE_KEY: TEST_STATE_KEY_HEX,
      MCP_STATE_PREFIX: PREFIX,
    };
    expect(
      await runForget(["--subject", LIN.subject, "--issuer", "https://idp.example"], forgetEnv, output),
    ).toBe(0);
    expect(lines).toEqual([
      "Forgotten: deleted the person's stored API key. Their next call asks for a key again.",
      "Also deleted their warehouse login.",
    ]);
    const after = new Redis(redis.url);
    try {
      expect((await after.keys(`${PREFIX}*`)).filter((key) => key.includes("warehouse-login"))).toEqual([]);
    } finally {
      after.disconnect();
    }
  });
});
