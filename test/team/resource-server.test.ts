// Team mode: the server as an OAuth 2.1 resource server (MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE), the
// identity-provider emulator as the authorization server. A request without a valid access token gets
// 401 pointing at the protected resource metadata; a real SDK v2 client follows it, signs in (discovery,
// registration, PKCE, code exchange) and calls tools as its person; an expired token, a token for
// another resource, or a forged one stop access at once; a 2025 session stays its person's.
import { randomBytes } from "node:crypto";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../packages/emulators/src/common/clock.js";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import {
  type HttpServerProcess,
  MODERN_PROTOCOL,
  rawModernList,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { exampleEnv, testCa, useExampleEmulator } from "../support/emulator.js";
import { accessTokenHeadless, HeadlessOAuthProvider, signInHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";

/** The emulator's clock, which this test may also set back, to mint tokens that are already expired. */
class SettableClock extends Clock {
  offsetMs = 0;
  override now(): number {
    return Date.now() + this.offsetMs;
  }
}

const REDIRECT = "http://127.0.0.1:9/callback";

let idp: IdentityProvider;
const example = useExampleEmulator();
let server: HttpServerProcess;
let endpoint: string;
const clock = new SettableClock();

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa(), clock });
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}/mcp`;
  server = await startHttpBin(
    "example-mcp",
    exampleEnv(example, {
      MCP_PORT: String(port),
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: endpoint,
    }),
  );
});

afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

/** A person's SDK v2 client, signed in through the authorization server. */
async function signedInClient(person: string) {
  idp.admin.autoApprove(person);
  const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT, clientName: `${person}'s agent` });
  const tokens = await signInHeadless(provider, endpoint);
  const client = new ModernClient(
    { name: "team-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
  );
  await client.connect(
    new ModernStreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }),
  );
  return { client, tokens };
}

const search = (client: ModernClient) =>
  client.callTool({ name: "example_search_users", arguments: { query: "chen" } });

/** An access token of `person` for `resource`, by the authorization code flow (a public client). */
const tokenFor = (person: string, resource: string) => accessTokenHeadless(idp, person, resource, REDIRECT);

/** A raw 2026-07-28 tools/list, with the bearer token when given. */
const post = (token?: string) => rawModernList(endpoint, token ? { authorization: `Bearer ${token}` } : {});

/** A 2025-11-25 client's first request, which opens an MCP session. */
const LEGACY_INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
describe("team mode: an OAuth resource server", () => {
  it("answers 401 without a token, pointing at metadata that names the authorization server", async () => {
    const refused = await post();
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${new URL(endpoint).origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await (await fetch(metadataUrl as string)).json();
    expect(metadata).toMatchObject({ resource: endpoint, authorization_servers: [idp.issuer] });
  });

  it("lets a real MCP client sign in as its person and call tools", async () => {
    const { client, tokens } = await signedInClient("mira.patel@acme.example");
    try {
      const result = textOf(await search(client));
      expect(result.isError).toBe(false);
      expect(result.text).toContain("chen");
      // The token it got is for this server, and works on a raw request too.
      expect((await post(tokens.access_token)).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("refuses an expired token, a token for another resource, and a forged one, at once", async () => {
    idp.admin.autoApprove("tom.becker@acme.example");
    clock.offsetMs = -3_600_000; // tokens minted an hour ago
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    const expired = await signInHeadless(provider, endpoint).finally(() => {
      clock.offsetMs = 0;
    });
    const response = await post(expired.access_token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);

    const elsewhere = await tokenFor("tom.becker@acme.example", "https://other-server.example/mcp");
    expect((await post(elsewhere)).status).toBe(401);
    expect((await post(await tokenFor("tom.becker@acme.example", endpoint))).status).toBe(200);

    // Signed with a key that is not the authorization server's, claims all as they should be.
    const forged = await new SignJWT({ sub: "mira", client_id: "x", scope: "mcp" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(idp.issuer)
      .setAudience(endpoint)
      .setExpirationTime("10m")
      .sign(randomBytes(32));
    expect((await post(forged)).status).toBe(401);
    expect(server.stderr()).not.toContain(forged);
    expect(server.stderr()).not.toContain(expired.access_token);
  });

  it("keeps a 2025 session to the person who opened it", async () => {
    const mira = await signedInClient("mira.patel@acme.example");
    const tom = await signedInClient("tom.becker@acme.example");
    await mira.client.close();
    await tom.client.close();
    const initialize = (token: string) =>
      fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
        },
        body: LEGACY_INITIALIZE,
      });
    const opened = await initialize(mira.tokens.access_token);
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id") as string;
    await opened.body?.cancel();
    const asTom = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${tom.tokens.access_token}`,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    });
    expect(asTom.status).toBe(403);
  });

  it("lets a person hold at most a share of the 2025 sessions, so another still gets one", async () => {
    const port = await freePort();
    const capped = `http://127.0.0.1:${port}/mcp`;
    const small = await startHttpBin(
      "example-mcp",
      exampleEnv(example, {
        MCP_PORT: String(port),
        MCP_AUTH_ISSUER: idp.issuer,
        MCP_AUTH_AUDIENCE: capped,
        MCP_MAX_SESSIONS: "4",
      }),
    );
    const streams: AbortController[] = [];
    const headers = (token: string, session?: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
    });
    /** Opens a session and keeps it busy with a GET event stream; the initialize reply otherwise. */
    const holdSession = async (token: string) => {
      const opened = await fetch(capped, {
        method: "POST",
        headers: headers(token),
        body: LEGACY_INITIALIZE,
      });
      const text = await opened.text();
      const session = opened.headers.get("mcp-session-id");
      if (opened.status !== 200 || !session) return { status: opened.status, text };
      const stream = new AbortController();
      streams.push(stream);
      const listening = await fetch(capped, {
        headers: { ...headers(token, session), accept: "text/event-stream" },
        signal: stream.signal,
      });
      expect(listening.status).toBe(200);
      return { status: 200, text };
    };
    try {
      const mira = await tokenFor("mira.patel@acme.example", capped);
      const tom = await tokenFor("tom.becker@acme.example", capped);
      expect((await holdSession(mira)).status).toBe(200);
      const more = [await holdSession(mira), await holdSession(mira), await holdSession(mira)];
      for (const refused of more) {
        expect(refused.status).toBe(503);
        expect(JSON.parse(refused.text).error.message).toBe(
          "Too many sessions: you hold 1, your share of the 4 (MCP_MAX_SESSIONS), and all are in use; close one or try again later",
        );
      }
      expect((await holdSession(tom)).status).toBe(200);
    } finally {
      for (const stream of streams) stream.abort();
      await small.stop();
    }
  });

  it("with introspection (MCP_AUTH_CLIENT_ID), a token revoked before it expires stops at once", async () => {
    // The server's own confidential client at the authorization server.
    const client: { client_id: string; client_secret: string } = (await (
      await fetch(`${idp.issuer}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "lab-mcp resource server",
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "client_secret_basic",
        }),
      })
    ).json()) as never;
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const checking = await startHttpBin(
      "example-mcp",
      exampleEnv(example, {
        MCP_PORT: String(port),
        MCP_AUTH_ISSUER: idp.issuer,
        MCP_AUTH_AUDIENCE: audience,
        MCP_AUTH_CLIENT_ID: client.client_id,
        MCP_AUTH_CLIENT_SECRET: client.client_secret,
      }),
    );
    try {
      const token = await tokenFor("dana.whitfield@acme.example", audience);
      const list = (bearer: string) => rawModernList(audience, { authorization: `Bearer ${bearer}` });
      expect((await list(token)).status).toBe(200);
      expect(idp.admin.revokeSubject("dana.whitfield@acme.example")).toBeGreaterThan(0);
      const refused = await list(token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      // Without introspection the first server cannot know: the token stays good there until it expires.
    } finally {
      await checking.stop();
    }
  });
});
