// A team server: each signed-in person (ClientSession.person, as the OAuth resource server fills it)
// acts on the lab data platform as themselves. Their own API key, asked once and stored encrypted in
// the shared state (a real Redis, two replicas that share nothing but it), or their own MCP access
// token exchanged at the identity provider for an ID token issued for the platform (RFC 8693), kept
// sealed in the shared state. The emulator's audit log says who acted.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_PEOPLE,
  type IdentityProvider,
  startIdentityProvider,
  TOKEN_PATH,
} from "../../packages/emulators/src/idp/index.js";
import type { ClientSession } from "../../packages/lab-mcp/src/core/caller.js";
import type { ServerFactory } from "../../packages/lab-mcp/src/core/server/factory.js";
import { ConfigError } from "../../packages/lab-mcp/src/core/start/config.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import type { SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { runForget } from "../../packages/lab-mcp/src/services/labdata/cli.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import {
  connectInMemory,
  connectModernInMemory,
  inMemoryFactory,
  type ModernConnected,
  textOf,
} from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { accessTokenHeadless, registerConfidentialClient } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

const [MIRA, TOM, DANA, LIN] = DEMO_PEOPLE as [
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
  (typeof DEMO_PEOPLE)[0],
];
/** The MCP server the people sign in to: their access tokens' audience. */
const MCP_RESOURCE = "https://mcp.lab.example/mcp";
/** The platform's client at the identity provider: the audience of the ID tokens the tenant takes. */
const PLATFORM_CLIENT = "labdata-platform";
const REDIRECT = "http://127.0.0.1:8976/callback";
const PREFIX = "lab-mcp:people:";
const INVALID_AUTH = "Error: Invalid API authentication";

let idp: IdentityProvider;
let redis: RunningRedis;
let replicaA: SharedState;
let replicaB: SharedState;
const opened: Array<Pick<ModernConnected, "close">> = [];
/** Every text any client read, to prove no key ever reached one. */
const outputs: string[] = [];

describe.skipIf(!REDIS_SERVER)(`per-person credentials${REDIS_SERVER ? "" : ` (${NO_REDIS})`}`, () => {
  const emulator = useLabdataEmulator();
  beforeAll(async () => {
    idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
    emulator.admin.updateSettings(emulator.demo.tenant, {
      oidc: { configurationUrl: idp.configurationUrl, audience: PLATFORM_CLIENT },
    });
    redis = await startRedis();
    replicaA = await openRedisState(redis, { prefix: PREFIX });
    replicaB = await openRedisState(redis, { prefix: PREFIX });
  });
  afterAll(async () => {
    for (const connection of opened) await connection.close().catch(() => undefined);
    await replicaA?.close();
    await replicaB?.close();
    await redis?.stop();
    await idp?.close();
  });

  const env = (extra: Record<string, string> = {}) => ({
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-people-")), "labdata.json"),
    MCP_TRANSPORT: "http",
    REDIS_URL: redis.url,
    MCP_STATE_KEY: TEST_STATE_KEY_HEX,
    MCP_STATE_PREFIX: PREFIX,
    // Quiet: the call log's lines are another test's subject.
    MCP_LOG_CALLS: "false",
    ...extra,
  });

  const sessionOf = (person: (typeof DEMO_PEOPLE)[0], accessToken = "checked-by-the-resource-server") => ({
    caller: `person:${person.subject}`,
    isolated: true,
    person: { subject: `${idp.issuer} ${person.subject}`, email: person.email, accessToken },
  });

  /**
   * A client of `replica` for `clientSession` whose user types `key` on any page it is sent to (once
   * per page); `asked` collects the pages' messages and URLs.
   */
  async function connect(
    replica: SharedState,
    clientSession: ClientSession,
    key: string,
    extraEnv: Record<string, string> = {},
    factory?: ServerFactory,
  ) {
    const connection = await connectModernInMemory(
      labdataService,
      env(extraEnv),
      { elicitation: { url: {} } },
      { clientSession, state: replica, factory },
    );
    opened.push(connection);
    const asked: Array<{ message: string; url: string; page?: string }> = [];
    connection.client.setRequestHandler("elicitation/create", async (request) => {
      const { url, message } = request.params as { url: string; message: string };
      const first = !asked.some((page) => page.url === url);
      if (!first) {
        asked.push({ message, url });
        return { action: "accept" };
      }
      const page = await (await fetch(url)).text();
      asked.push({ message, url, page });
      await fetch(url, { method: "POST", body: new URLSearchParams({ secret: key }) });
      return { action: "accept" };
    });
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await connection.client.callTool({ name, arguments: args });
      const text = textOf(result);
      outputs.push(text.text, JSON.stringify(result.structuredContent ?? {}));
      return { ...text, structured: result.structuredContent as Record<string, unknown> | undefined };
    };
    return { connection, asked, call, whoAmI: () => call("labdata_get_current_user") };
  }

  /** Who the platform's audit log says made the newest request. */
  const lastActor = () => {
    const entries = emulator.admin.auditLog(emulator.demo.tenant);
    const last = entries.at(-1);
    return { userId: last?.actorUserId, method: last?.authMethod };
  };

  /** Every key and value in Redis, as text. */
  async function redisDump(): Promise<string> {
    const client = new Redis(redis.url);
    try {
      const parts: string[] = [];
      for (const key of await client.keys("*")) {
        const type = await client.type(key);
        const value =
          type === "hash"
            ? JSON.stringify(await client.hgetall(key))
            : type === "string"
              ? await client.get(key)
              : type === "zset"
                ? JSON.stringify(await client.zrange(key, "0", "-1", "WITHSCORES"))
                : type;
        parts.push(`${key} ${value}`);
      }
      return parts.join("\n");
    } finally {
      client.disconnect();
    }
  }

  describe("each person's own API key", () => {
    it("asks Mira once, then every replica acts as her; Tom gets his own page and acts as Tom", async () => {
      const { user: mira, colleague: tom } = emulator.demo;
      const miraOnA = await connect(replicaA, sessionOf(MIRA), mira.apiKey);
      const first = await miraOnA.whoAmI();
      expect(first.isError).toBe(false);
      expect(first.text).toContain(`- **User**: ${mira.name} (${mira.id})`);
      expect(miraOnA.asked).toHaveLength(1);
      expect(miraOnA.asked[0]?.message).toMatch(
        /your own API key .*kept for you alone, encrypted, usable from any replica of this server, until you sign out/,
      );
      // The page says so too, and offers no "remember on this computer".
      expect(miraOnA.asked[0]?.page).toContain("kept for you alone, encrypted, usable from any replica");
      expect(miraOnA.asked[0]?.page).not.toContain('name="remember"');
      expect(lastActor()).toEqual({ userId: mira.id, method: "api_key" });

      // The other replica: no page, Mira's key from the shared state.
      const miraOnB = await connect(replicaB, sessionOf(MIRA), "never-asked");
      const projects = await miraOnB.call("labdata_list_projects");
      expect(projects.isError).toBe(false);
      expect(miraOnB.asked).toHaveLength(0);
      expect(lastActor()).toEqual({ userId: mira.id, method: "api_key" });

      // Tom, on replica B too: his own page, his own identity.
      const tomOnB = await connect(replicaB, sessionOf(TOM), tom.apiKey);
      expect((await tomOnB.whoAmI()).text).toContain(`- **User**: ${tom.name} (${tom.id})`);
      expect(tomOnB.asked).toHaveLength(1);
      expect(lastActor()).toEqual({ userId: tom.id, method: "api_key" });
      // ... and Mira's calls still act as Mira.
      await miraOnA.whoAmI();
      expect(lastActor()).toEqual({ userId: mira.id, method: "api_key" });

      // The keys are in Redis sealed only; neither the keys nor the subjects nor emails show in clear.
      const dump = await redisDump();
      expect(dump).toContain("labdata:person-key:");
      for (const secret of [mira.apiKey, tom.apiKey, MIRA.subject, TOM.subject, MIRA.email, TOM.email]) {
        expect(dump).not.toContain(secret);
      }
      for (const text of outputs) {
        expect(text).not.toContain(mira.apiKey);
        expect(text).not.toContain(tom.apiKey);
      }
    });

    it("shares one page between concurrent calls of one person's client, whatever object each request gets", async () => {
      const lin = emulator.demo.reader;
      // One replica, two servers built for Lin's calls, each with its own ClientSession object (as a
      // stateless transport makes one per request), the same caller (her bearer token's identity).
      const replica = inMemoryFactory(labdataService, env(), replicaA);
      const first = await connect(replicaA, sessionOf(LIN), lin.apiKey, {}, replica);
      const second = await connect(replicaA, sessionOf(LIN), lin.apiKey, {}, replica);
      const [one, two] = await Promise.all([first.whoAmI(), second.call("labdata_list_projects")]);
      expect(one.text).toContain(lin.name);
      expect(two.isError).toBe(false);
      expect(new Set([...first.asked, ...second.asked].map((page) => page.url)).size).toBe(1);
    });

    it("asks a 2025-11-25 client through a URL elicitation, and the other replica's 2026 client uses the key", async () => {
      const dana = emulator.demo.admin;
      const legacy = await connectInMemory(
        labdataService,
        env(),
        { elicitation: { url: {} } },
        { clientSession: sessionOf(DANA), state: replicaA },
      );
      opened.push(legacy);
      const asked: string[] = [];
      legacy.client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const { url } = request.params as { url: string };
        asked.push(url);
        setTimeout(
          () => void fetch(url, { method: "POST", body: new URLSearchParams({ secret: dana.apiKey }) }),
          5,
        );
        return { action: "accept" };
      });
      const me = textOf(await legacy.client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(me.text).toContain(`- **User**: ${dana.name} (${dana.id})`);
      expect(asked).toHaveLength(1);
      const danaOnB = await connect(replicaB, sessionOf(DANA), "never-asked");
      expect((await danaOnB.whoAmI()).text).toContain(dana.name);
      expect(danaOnB.asked).toHaveLength(0);
      expect(lastActor()).toEqual({ userId: dana.id, method: "api_key" });
    });

    it("signs Mira out on every replica, and leaves Tom alone", async () => {
      const { user: mira, colleague: tom } = emulator.demo;
      const miraOnA = await connect(replicaA, sessionOf(MIRA), "never-asked");
      const out = await miraOnA.call("labdata_sign_out");
      expect(out.isError).toBe(false);
      expect(out.structured).toEqual({
        removed: ["person_key"],
        next: "ask",
        base_url: emulator.demo.baseUrl,
      });
      expect(out.text).toContain("Removed your API key stored for you on this server (every replica)");
      expect(out.text).toContain("The next labdata call asks for an API key again");
      // Idempotent: nothing left the second time.
      expect((await miraOnA.call("labdata_sign_out")).structured?.removed).toEqual([]);

      const miraOnB = await connect(replicaB, sessionOf(MIRA), mira.apiKey);
      expect((await miraOnB.whoAmI()).text).toContain(mira.name);
      expect(miraOnB.asked).toHaveLength(1);

      const tomOnA = await connect(replicaA, sessionOf(TOM), "never-asked");
      expect((await tomOnA.whoAmI()).text).toContain(tom.name);
      expect(tomOnA.asked).toHaveLength(0);
    });

    it("lets an operator forget Tom's key with `labdata-mcp forget`", async () => {
      const lines: string[] = [];
      const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
      const forgetEnv = {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: emulator.demo.baseUrl,
        REDIS_URL: redis.url,
        MCP_STATE_KEY: TEST_STATE_KEY_HEX,
        MCP_STATE_PREFIX: PREFIX,
      };
      const argv = ["--subject", TOM.subject, "--issuer", idp.issuer];
      expect(await runForget(argv, forgetEnv, output)).toBe(0);
      expect(lines.pop()).toMatch(/^Forgotten: deleted the person's stored API key/);
      expect(await runForget(argv, forgetEnv, output)).toBe(0);
      expect(lines.pop()).toMatch(/^Nothing to forget/);

      const tomOnB = await connect(replicaB, sessionOf(TOM), emulator.demo.colleague.apiKey);
      expect((await tomOnB.whoAmI()).text).toContain(emulator.demo.colleague.name);
      expect(tomOnB.asked).toHaveLength(1);

      // Usage problems exit 2, an unreachable Redis 1; nothing printed holds the state key.
      expect(await runForget(["--issuer", idp.issuer], forgetEnv, output)).toBe(2);
      expect(lines.pop()).toMatch(/forget needs --subject/);
      expect(await runForget(argv, { LABDATA_BASE_URL: emulator.demo.baseUrl }, output)).toBe(2);
      expect(lines.pop()).toMatch(/set REDIS_URL and MCP_STATE_KEY/);
      const { MCP_STATE_KEY: _key, ...withoutKey } = forgetEnv;
      expect(await runForget(argv, withoutKey, output)).toBe(2);
      const gone = { ...forgetEnv, REDIS_URL: `redis://127.0.0.1:${await freePort()}` };
      expect(await runForget(argv, gone, output)).toBe(1);
      expect(lines.pop()).toMatch(/cannot reach Redis .*Nothing was deleted\.$/);
      expect(lines.join("\n")).not.toContain(TEST_STATE_KEY_HEX);
    });

    it("drops a stored key the platform refuses later, and asks again on the next call", async () => {
      const { tenant, user: mira } = emulator.demo;
      const fresh = emulator.admin.createApiKey(tenant, { userId: mira.id });
      const miraSession = sessionOf(MIRA);
      await connect(replicaA, miraSession, "never-asked").then((c) => c.call("labdata_sign_out"));
      const miraOnA = await connect(replicaA, miraSession, fresh.key);
      expect((await miraOnA.whoAmI()).text).toContain(mira.name);

      emulator.admin.deleteApiKey(tenant, fresh.id);
      const miraOnB = await connect(replicaB, miraSession, mira.apiKey);
      expect(await miraOnB.call("labdata_list_projects")).toMatchObject({
        text: INVALID_AUTH,
        isError: true,
      });
      expect(miraOnB.asked).toHaveLength(0);
      // Dropped for every replica: the next call, on A, asks again.
      const again = await connect(replicaA, miraSession, mira.apiKey);
      expect((await again.whoAmI()).text).toContain(mira.name);
      expect(again.asked).toHaveLength(1);
    });

    it("acts as the operator's configured credential for everyone (a service account), asking no one", async () => {
      const { app, user: mira } = emulator.demo;
      const tomOnA = await connect(replicaA, sessionOf(TOM), "never-asked", {
        LABDATA_CLIENT_ID: app.clientId,
        LABDATA_CLIENT_SECRET: app.clientSecret,
      });
      const me = await tomOnA.whoAmI();
      expect(me.isError).toBe(false);
      expect(tomOnA.asked).toHaveLength(0);
      const entry = emulator.admin.auditLog(emulator.demo.tenant).at(-1);
      expect(entry?.authMethod).toBe("oauth_client_credentials");
      expect(entry?.appId).toBe(app.id);
      expect(entry?.actorUserId).not.toBe(mira.id);
      const out = await tomOnA.call("labdata_sign_out");
      expect(out.structured?.next).toBe("configured");
      expect(out.text).toContain("acts as the operator's OAuth 2.0 client credentials (app), which stays");
    });
  });

  describe("without a person", () => {
    it("signs an HTTP session out of the key it typed", async () => {
      const session = { caller: "session-1", isolated: true };
      const client = await connect(replicaA, session, emulator.demo.user.apiKey);
      await client.whoAmI();
      const out = await client.call("labdata_sign_out");
      expect(out.structured?.removed).toEqual(["session_key"]);
      await client.whoAmI();
      expect(client.asked).toHaveLength(2);
    });

    it("signs the stdio user out of the remembered key file", async () => {
      const file = join(mkdtempSync(join(tmpdir(), "labdata-people-")), "labdata.json");
      writeFileSync(
        file,
        JSON.stringify({ baseUrl: emulator.demo.baseUrl, apiKey: emulator.demo.user.apiKey }),
      );
      const connection = await connectModernInMemory(labdataService, {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: emulator.demo.baseUrl,
        LABDATA_CREDENTIALS_FILE: file,
      });
      opened.push(connection);
      const out = await connection.client.callTool({ name: "labdata_sign_out", arguments: {} });
      expect(out.structuredContent).toMatchObject({ removed: ["remembered_key"], next: "ask" });
      expect(textOf(out).text).toContain("Removed the API key remembered on this computer");
      const again = textOf(
        await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
      );
      expect(again.text).toMatch(/^Error: No credentials for the lab data platform\./);
    });
  });

  describe("token exchange", () => {
    /** An access token of this MCP server for `person`, through the authorization code flow. */
    const accessTokenFor = (person: (typeof DEMO_PEOPLE)[0]) =>
      accessTokenHeadless(idp, person.email, MCP_RESOURCE, REDIRECT);
    let exchange: Record<string, string>;
    beforeAll(async () => {
      const client = await registerConfidentialClient(idp);
      exchange = {
        LABDATA_TOKEN_EXCHANGE_AUDIENCE: PLATFORM_CLIENT,
        LABDATA_TOKEN_EXCHANGE_CLIENT_ID: client.id,
        LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET: client.secret,
        MCP_AUTH_ISSUER: idp.issuer,
        MCP_AUTH_AUDIENCE: MCP_RESOURCE,
      };
    });
    const exchanges = () =>
      idp.requests.entries().filter((entry) => entry.path === TOKEN_PATH && entry.method === "POST").length;

    it("exchanges each person's own token, kept sealed for every replica: the audit log names each of them", async () => {
      const { user: mira, colleague: tom } = emulator.demo;
      const miraToken = await accessTokenFor(MIRA);
      const tomToken = await accessTokenFor(TOM);
      const miraOnA = await connect(replicaA, sessionOf(MIRA, miraToken), "never-asked", exchange);
      const tomOnB = await connect(replicaB, sessionOf(TOM, tomToken), "never-asked", exchange);
      const before = exchanges();

      const miraMe = await miraOnA.whoAmI();
      expect(miraMe.text).toContain(`- **User**: ${mira.name} (${mira.id})`);
      expect(miraMe.text).toContain("your sign-in to this MCP server, exchanged at the identity provider");
      expect(lastActor()).toEqual({ userId: mira.id, method: "oidc" });
      expect((await tomOnB.whoAmI()).text).toContain(`- **User**: ${tom.name} (${tom.id})`);
      expect(lastActor()).toEqual({ userId: tom.id, method: "oidc" });
      expect(exchanges() - before).toBe(2);
      // Mira on the other replica uses the token exchanged on the first one.
      const miraOnB = await connect(replicaB, sessionOf(MIRA, miraToken), "never-asked", exchange);
      expect((await miraOnB.call("labdata_list_projects")).isError).toBe(false);
      expect(lastActor()).toEqual({ userId: mira.id, method: "oidc" });
      expect(exchanges() - before).toBe(2);
      expect([...miraOnA.asked, ...tomOnB.asked, ...miraOnB.asked]).toEqual([]);
      // Sealed: no token in Redis, neither theirs to this server nor an exchanged one; no token in any output.
      const dump = await redisDump();
      expect(dump).not.toMatch(/eyJ[\w-]+\.eyJ/);
      for (const token of [miraToken, tomToken]) {
        for (const text of outputs) expect(text).not.toContain(token);
      }
      const out = await miraOnA.call("labdata_sign_out");
      expect(out.structured).toMatchObject({ removed: ["exchanged_token"], next: "token_exchange" });
      expect(out.text).toContain("exchanges your sign-in to this server at the identity provider");
      await miraOnB.whoAmI();
      expect(exchanges() - before).toBe(3);
    });

    it("says to sign in again when the identity provider revoked the person's sign-in", async () => {
      const token = await accessTokenFor(LIN);
      idp.admin.revokeSubject(LIN.email);
      const client = await connect(replicaA, sessionOf(LIN, token), "never-asked", exchange);
      const result = await client.whoAmI();
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        "Error: The identity provider refused the token exchange (invalid_grant). Your sign-in to this server " +
          "has expired or was revoked: sign in to this server again. If it persists, the operator checks that " +
          "MCP_AUTH_ISSUER issues the tokens people sign in with",
      );
      expect(client.asked).toHaveLength(0);
    });

    it("names the settings to check when the identity provider refuses this server's client", async () => {
      const token = await accessTokenFor(DANA);
      const wrongSecret = { ...exchange, LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET: "not-the-secret" };
      const client = await connect(replicaA, sessionOf(DANA, token), "never-asked", wrongSecret);
      const result = await client.whoAmI();
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        "Error: The identity provider refused the token exchange (invalid_client). " +
          `The operator checks LABDATA_TOKEN_EXCHANGE_CLIENT_ID (${exchange.LABDATA_TOKEN_EXCHANGE_CLIENT_ID}) ` +
          "and its secret (LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET or LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE)",
      );
    });

    it("says what it needs when no person signed in, at start-up over stdio and per call over HTTP", async () => {
      const client = await connect(
        replicaA,
        { caller: "anonymous", isolated: true },
        "never-asked",
        exchange,
      );
      const result = await client.whoAmI();
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^Error: LABDATA_TOKEN_EXCHANGE_AUDIENCE .*MCP_AUTH_ISSUER/);
      expect(client.asked).toHaveLength(0);
      const { MCP_AUTH_ISSUER: _issuer, MCP_AUTH_AUDIENCE: _audience, ...settings } = exchange;
      const stdio = { MCP_TOOLSETS: "all", LABDATA_BASE_URL: emulator.demo.baseUrl, ...settings };
      expect(() => prepare(labdataService, [], stdio)).toThrow(ConfigError);
      expect(() => prepare(labdataService, [], stdio)).toThrow(
        /LABDATA_TOKEN_EXCHANGE_AUDIENCE needs MCP_TRANSPORT=http with MCP_AUTH_ISSUER/,
      );
      expect(() => prepare(labdataService, [], { ...stdio, LABDATA_TOKEN_EXCHANGE_CLIENT_ID: "" })).toThrow(
        /^Token exchange needs LABDATA_TOKEN_EXCHANGE_AUDIENCE, LABDATA_TOKEN_EXCHANGE_CLIENT_ID and/,
      );
      expect(() =>
        prepare(labdataService, [], { ...stdio, ...exchange, MCP_TRANSPORT: "http", LABDATA_API_KEY: "k" }),
      ).toThrow(/Two authentication methods .*LABDATA_TOKEN_EXCHANGE_AUDIENCE/);
      // Pass-through is gone: setting it stops the start, naming what replaces it.
      expect(() => prepare(labdataService, [], { ...stdio, LABDATA_OIDC_PASS_THROUGH: "true" })).toThrow(
        /^LABDATA_OIDC_PASS_THROUGH is no longer supported: .*Set LABDATA_TOKEN_EXCHANGE_AUDIENCE/,
      );
    });

    // Last: it moves the emulators' shared clock past the token's lifetime.
    it("says to sign in again when the person's token has expired", async () => {
      const token = await accessTokenFor(DANA);
      emulator.clock.advance(601_000);
      const client = await connect(replicaB, sessionOf(DANA, token), "never-asked", exchange);
      const result = await client.whoAmI();
      expect(result.isError).toBe(true);
      expect(result.text).toContain("(invalid_grant)");
      expect(result.text).toContain("sign in to this server again");
    });
  });

  describe("a sign-out while Redis is away", () => {
    it("is an error that says so, never 'nothing to remove', for the person who asked", async () => {
      const { user: mira, colleague: tom } = emulator.demo;
      const miraOnA = await connect(replicaA, sessionOf(MIRA), mira.apiKey);
      expect((await miraOnA.whoAmI()).text).toContain(mira.name);
      const tomOnB = await connect(replicaB, sessionOf(TOM), tom.apiKey);
      expect((await tomOnB.whoAmI()).text).toContain(tom.name);
      await redis.kill();
      try {
        const out = await miraOnA.call("labdata_sign_out");
        expect(out.isError).toBe(true);
        expect(out.text).toBe(
          "Error: The shared state (Redis) is out of reach, so the removal could not be confirmed: what is " +
            "stored there stays and is used again once it answers. Try again when it is back.",
        );
      } finally {
        await redis.restart();
      }
    });
  });
});
