// Token exchange on a team server over real HTTP (the built bin, a real MCP client, the identity
// provider emulator signing people in): each person's access token for this MCP server never reaches
// the platform; the server, a confidential client of the provider, exchanges it (RFC 8693) for an ID
// token issued for the platform, and each person acts as themselves. The platform refuses the MCP
// token sent directly; a refused exchange says what to fix; a 2025 session keeps working after its
// first token and the exchanged one expired (the refused token is exchanged again, once).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type IdentityProvider,
  startIdentityProvider,
  TOKEN_PATH,
} from "../../packages/emulators/src/idp/index.js";
import { type HttpServerProcess, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { bearer, expectError, fetchReply } from "../support/labdata-http.js";
import { accessTokenHeadless, registerConfidentialClient } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const TWO_HOURS_MS = 2 * 3600 * 1000;
/** The platform's client at the identity provider: the audience of the ID tokens the tenant takes. */
const PLATFORM_CLIENT = "labdata-platform";

const emulator = useLabdataEmulator();
let idp: IdentityProvider;
let server: HttpServerProcess;
let endpoint: string;

/** The bin in team mode, exchanging with `client` (its secret from a file, as an operator mounts it). */
async function startServer(client: { id: string; secret: string }) {
  const secretFile = join(mkdtempSync(join(tmpdir(), "labdata-exchange-")), "client-secret");
  writeFileSync(secretFile, `${client.secret}\n`, { mode: 0o600 });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const bin = await startHttpBin("labdata-mcp", {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_TOKEN_EXCHANGE_AUDIENCE: PLATFORM_CLIENT,
    LABDATA_TOKEN_EXCHANGE_CLIENT_ID: client.id,
    LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE: secretFile,
    MCP_PORT: String(port),
    MCP_AUTH_ISSUER: idp.issuer,
    MCP_AUTH_AUDIENCE: url,
  });
  return { bin, url };
}

/** A 2025-11-25 client of `url` whose Authorization header the test may swap, as a client renews. */
async function connectAs(url: string, token: string) {
  const headers: Record<string, string> = { authorization: bearer(token) };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "token-exchange-test", version: "1.0.0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name, arguments: args }));
  return {
    headers,
    transport,
    call,
    whoAmI: () => call("labdata_get_current_user"),
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

const tokenFor = (email: string, resource = endpoint) => accessTokenHeadless(idp, email, resource, REDIRECT);

/** Who the platform's audit log says made the newest request. */
const lastActor = () => {
  const last = emulator.admin.auditLog(emulator.demo.tenant).at(-1);
  return { userId: last?.actorUserId, method: last?.authMethod };
};

const exchanges = () => idp.requests.count(TOKEN_PATH);

beforeAll(async () => {
  // One clock for the identity provider and the platform: moving it on expires the tokens it issued.
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  emulator.admin.updateSettings(emulator.demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience: PLATFORM_CLIENT },
  });
  ({ bin: server, url: endpoint } = await startServer(await registerConfidentialClient(idp)));
});

afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

it("acts as each signed-in person with a token exchanged for the platform, never the MCP token", async () => {
  const { user: mira, colleague: tom } = emulator.demo;
  const miraToken = await tokenFor(mira.email);
  const tomToken = await tokenFor(tom.email);
  const miraClient = await connectAs(endpoint, miraToken);
  const tomClient = await connectAs(endpoint, tomToken);
  try {
    const before = exchanges();
    const miraMe = await miraClient.whoAmI();
    expect(miraMe.text).toContain(`- **User**: ${mira.name} (${mira.id})`);
    expect(miraMe.text).toContain("exchanged at the identity provider");
    expect(lastActor()).toEqual({ userId: mira.id, method: "oidc" });
    expect((await tomClient.whoAmI()).text).toContain(`- **User**: ${tom.name} (${tom.id})`);
    expect(lastActor()).toEqual({ userId: tom.id, method: "oidc" });
    expect(exchanges() - before).toBe(2);
    // Kept until shortly before it expires: Mira's next calls exchange nothing.
    expect((await miraClient.call("labdata_list_projects")).isError).toBe(false);
    expect(lastActor()).toEqual({ userId: mira.id, method: "oidc" });
    expect(exchanges() - before).toBe(2);
    const out = await miraClient.call("labdata_sign_out", { response_format: "json" });
    expect(JSON.parse(out.text)).toMatchObject({ removed: ["exchanged_token"], next: "token_exchange" });
  } finally {
    await miraClient.close();
    await tomClient.close();
  }
});

it("the platform refuses the person's MCP access token sent to it directly", async () => {
  const token = await tokenFor(emulator.demo.user.email);
  const reply = await fetchReply(`${emulator.demo.baseUrl}/api/v2/users/me`, {
    authorization: bearer(token),
  });
  expectError(reply, 401, "authentication_error");
  expect(reply.body.error.message).toMatch(/^Bearer token is an OAuth access token \(typ at\+jwt\)/);
  // Also when the tenant is set up the way pass-through once asked, with this server as the audience.
  emulator.admin.updateSettings(emulator.demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience: endpoint },
  });
  try {
    const again = await fetchReply(`${emulator.demo.baseUrl}/api/v2/users/me`, {
      authorization: bearer(token),
    });
    expectError(again, 401, "authentication_error");
  } finally {
    emulator.admin.updateSettings(emulator.demo.tenant, {
      oidc: { configurationUrl: idp.configurationUrl, audience: PLATFORM_CLIENT },
    });
  }
});

it("says what to fix when the identity provider does not let this server's client exchange", async () => {
  const notAllowed = await registerConfidentialClient(idp, ["authorization_code"]);
  const { bin, url } = await startServer(notAllowed);
  const client = await connectAs(url, await tokenFor(emulator.demo.user.email, url));
  try {
    const result = await client.whoAmI();
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^Error: The identity provider refused the token exchange \(unauthorized_client/,
    );
    expect(result.text).toContain(`The operator allows the client ${notAllowed.id} to use token exchange`);
    // The provider's own words are not repeated to the agent (a hostile one could echo the client secret).
    expect(result.text).not.toContain("This client is not allowed to exchange tokens");
    expect(result.text).not.toMatch(/undefined|null|\[object Object\]/);
  } finally {
    await client.close();
    await bin.stop();
  }
});

// Last: it moves the shared clock past every token's lifetime.
it("exchanges again once the platform refuses the kept token, with the token the request came with", async () => {
  const mira = emulator.demo.user;
  const client = await connectAs(endpoint, await tokenFor(mira.email));
  try {
    expect((await client.whoAmI()).text).toContain(`- **User**: ${mira.name} (${mira.id})`);
    expect(client.transport.sessionId).toBeDefined();

    // Both the MCP token and the exchanged one expire (the server's own clock does not know it yet);
    // the client signs in again and goes on in the same session.
    emulator.clock.advance(TWO_HOURS_MS);
    client.headers.authorization = bearer(await tokenFor(mira.email));
    const before = exchanges();
    const renewed = await client.whoAmI();
    expect(renewed.isError, renewed.text).toBe(false);
    expect(renewed.text).toContain(`- **User**: ${mira.name} (${mira.id})`);
    expect(exchanges() - before).toBe(1);
    expect(client.transport.sessionId).toBeDefined();
  } finally {
    await client.close();
  }
});
