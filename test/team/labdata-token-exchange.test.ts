// OpenID Connect pass-through on a 2025-11-25 session over real HTTP (the built bin in team mode): the
// session stays its opener's, and each request passes through the access token that came with it, so
// that a client that renews its token mid-session keeps working after the old one expired.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { type HttpServerProcess, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { accessTokenHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const TWO_HOURS_MS = 2 * 3600 * 1000;

const emulator = useLabdataEmulator();
let idp: IdentityProvider;
let server: HttpServerProcess;
let endpoint: string;

beforeAll(async () => {
  // One clock for the identity provider and the platform: moving it on expires the tokens it issued.
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}/mcp`;
  emulator.admin.updateSettings(emulator.demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience: endpoint },
  });
  server = await startHttpBin("labdata-mcp", {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_OIDC_PASS_THROUGH: "true",
    MCP_PORT: String(port),
    MCP_AUTH_ISSUER: idp.issuer,
    MCP_AUTH_AUDIENCE: endpoint,
  });
});

afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

it("passes through the token each request of a 2025 session came with, after the first one expired", async () => {
  const mira = emulator.demo.user;
  const headers: Record<string, string> = {
    authorization: `Bearer ${await accessTokenHeadless(idp, mira.email, endpoint, REDIRECT)}`,
  };
  // The transport reads these headers on every request: the test swaps the token as a client would.
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } });
  const client = new Client({ name: "pass-through-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const whoAmI = async () =>
      textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
    expect((await whoAmI()).text).toContain(`- **User**: ${mira.name} (${mira.id})`);
    expect(transport.sessionId).toBeDefined();

    // The first token expires at the platform (and the provider); the client signs in again.
    emulator.clock.advance(TWO_HOURS_MS);
    headers.authorization = `Bearer ${await accessTokenHeadless(idp, mira.email, endpoint, REDIRECT)}`;
    const renewed = await whoAmI();
    expect(renewed.isError, renewed.text).toBe(false);
    expect(renewed.text).toContain(`- **User**: ${mira.name} (${mira.id})`);
    expect(transport.sessionId).toBeDefined();
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
});
