// Open asks are counted per person over HTTP: one person who leaves their key page open in session after
// session (2025-11-25 sessions, each a caller of its own) fills only their own quota, their own oldest
// page giving way; another person still gets their key page, signs in on it and acts as themselves.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { MAX_PENDING_PER_CALLER } from "../../packages/lab-mcp/src/core/pages/pending-asks.js";
import { type HttpServerProcess, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { accessTokenHeadless, registerServerClient } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { CookieJar, followRedirects } from "../support/protocols-http.js";

const REDIRECT = "http://127.0.0.1:9/callback";

const emulator = useLabdataEmulator();
let idp: IdentityProvider;
let server: HttpServerProcess;
let publicUrl: string;
const opened: Client[] = [];

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}/mcp`;
  server = await startHttpBin("labdata-mcp", {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    MCP_AUTH_ISSUER: idp.issuer,
    MCP_AUTH_AUDIENCE: publicUrl,
    MCP_PORT: String(port),
    MCP_LOG_CALLS: "false",
    ...(await registerServerClient(idp, new URL(publicUrl).origin)),
  });
});

afterAll(async () => {
  for (const client of opened) await client.close().catch(() => undefined);
  await server?.stop();
  await idp?.close();
});

/** A 2025-11-25 session of the person whose access token is `token`; `onPage` hears each page URL. */
async function session(token: string, onPage: (url: string) => Promise<void>) {
  const client = new Client(
    { name: "ask-quota-test", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    await onPage((request.params as { url: string }).url);
    return { action: "accept" };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(publicUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  opened.push(client);
  return client;
}

const whoAmI = (client: Client) =>
  client
    .callTool({ name: "labdata_get_current_user", arguments: {} }, undefined, { timeout: 60_000 })
    .then((result) => textOf(result).text);

describe("open asks over HTTP, counted per person", () => {
  it("Mira's abandoned pages push out her own oldest only; Tom still gets his page and signs in with it", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    idp.admin.autoApprove(mira.email);
    const miraToken = await accessTokenHeadless(idp, mira.email, publicUrl, REDIRECT);
    // Mira opens one more session than her quota, each asking for her key, and never answers a page.
    const pages: string[] = [];
    const calls: Array<Promise<string>> = [];
    for (let i = 0; i <= MAX_PENDING_PER_CALLER; i++) {
      const client = await session(miraToken, async (url) => {
        pages.push(url);
      });
      calls.push(whoAmI(client).catch((error: unknown) => String(error)));
      await vi.waitFor(() => expect(pages).toHaveLength(i + 1), { timeout: 10_000 });
    }
    expect(new Set(pages).size).toBe(MAX_PENDING_PER_CALLER + 1);
    // Her first ask gave way to her seventeenth: that call ended, the others still wait for their page.
    const first = await Promise.race([
      calls[0],
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 5000)),
    ]);
    expect(first).not.toBe("waiting");
    expect(first).not.toContain(mira.name);
    const stillOpen = await Promise.race([
      calls[1],
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 200)),
    ]);
    expect(stillOpen).toBe("waiting");

    // Tom: his own page, signed in there as himself, and his key works.
    idp.admin.autoApprove(tom.email);
    const tomToken = await accessTokenHeadless(idp, tom.email, publicUrl, REDIRECT);
    const answered: number[] = [];
    const tomSession = await session(tomToken, async (url) => {
      const jar = new CookieJar();
      const shown = await followRedirects(jar, url);
      expect(shown.text).toContain('type="password"');
      expect(shown.text).toContain(`This page is for ${tom.email} alone.`);
      const posted = await fetch(url, {
        method: "POST",
        headers: {
          ...jar.header(),
          origin: new URL(publicUrl).origin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ secret: tom.apiKey }),
      });
      answered.push(posted.status);
    });
    expect(await whoAmI(tomSession)).toContain(`- **User**: ${tom.name} (${tom.id})`);
    expect(answered).toEqual([200]);
  }, 90_000);
});
