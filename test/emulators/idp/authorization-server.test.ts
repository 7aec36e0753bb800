// The identity provider as the OAuth 2.1 authorization server MCP clients sign in with: the SDK v2
// client's own auth functions discover it, use a client ID metadata document or register, start the
// authorization with PKCE, follow the redirect (auto-approved), and exchange the code for a JWT access
// token that verifies against the JWKS with jose. Then every refusal, with its OAuth error code.
import {
  type AuthorizationServerMetadata,
  auth,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  type OAuthClientInformationFull,
  OAuthError,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/client";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type RunningHttpsServer,
  startHttpsServer,
} from "../../../packages/emulators/src/common/https-server.js";
import { writeResponse } from "../../../packages/emulators/src/common/response.js";
import {
  DEMO_PEOPLE,
  type IdentityProvider,
  startIdentityProvider,
} from "../../../packages/emulators/src/idp/index.js";
import { testCa } from "../../support/emulator.js";
import { HeadlessOAuthProvider, signInHeadless } from "../../support/oauth-client.js";

const REDIRECT = "http://127.0.0.1:8976/callback";
const [MIRA, TOM] = DEMO_PEOPLE as [(typeof DEMO_PEOPLE)[0], (typeof DEMO_PEOPLE)[0]];

let idp: IdentityProvider;
let metadata: AuthorizationServerMetadata;
/** A loopback HTTPS site: an MCP server's protected resource metadata and clients' metadata documents. */
let site: RunningHttpsServer;
const documents = new Map<string, unknown>();

beforeAll(async () => {
  const { certPem, keyPem } = testCa();
  idp = await startIdentityProvider({ ca: { certPem, keyPem } });
  site = await startHttpsServer({
    ca: { certPem, keyPem },
    handler: (_req, res, url) => {
      const doc = documents.get(url.pathname);
      const text = typeof doc === "string" ? doc : JSON.stringify(doc);
      writeResponse(
        res,
        doc === undefined
          ? { status: 404 }
          : { status: 200, body: { kind: "text", text, contentType: "application/json" } },
      );
    },
  });
  documents.set("/.well-known/oauth-protected-resource/mcp", {
    resource: resource(),
    authorization_servers: [idp.issuer],
    scopes_supported: ["mcp"],
  });
  const found = await discoverAuthorizationServerMetadata(idp.issuer);
  if (!found) throw new Error("no metadata");
  metadata = found;
});

afterAll(async () => {
  await site?.close();
  await idp?.close();
});

beforeEach(() => {
  idp.admin.autoApprove(null);
});

/** The MCP server the tokens are for (only its metadata is served). */
function resource(): string {
  return `${site.url}/mcp`;
}

const keys = () => createRemoteJWKSet(new URL(idp.jwksUri));

async function verifyAccessToken(token: string, audience = resource()) {
  return jwtVerify(token, keys(), {
    issuer: idp.issuer,
    audience,
    currentDate: new Date(idp.clock.now()),
    typ: "at+jwt",
  });
}

async function registerPublic(redirect = REDIRECT): Promise<OAuthClientInformationFull> {
  return registerClient(idp.issuer, {
    metadata,
    clientMetadata: {
      client_name: "A test client",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    },
  });
}

/** Opens the authorization URL as a browser would and returns the redirect's query. */
async function follow(url: URL | string): Promise<URLSearchParams> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location") ?? "").searchParams;
}

/** A code for `client` approved as `person`, with the verifier that redeems it. */
async function codeFor(client: OAuthClientInformationFull, person = MIRA, extra: { scope?: string } = {}) {
  idp.admin.autoApprove(person.email, { clientId: client.client_id });
  const { authorizationUrl, codeVerifier } = await startAuthorization(idp.issuer, {
    metadata,
    clientInformation: client,
    redirectUrl: REDIRECT,
    resource: resource(),
    state: "s-1",
    ...extra,
  });
  const back = await follow(authorizationUrl);
  idp.admin.autoApprove(null, { clientId: client.client_id });
  return { code: back.get("code") ?? "", iss: back.get("iss") ?? "", codeVerifier, back };
}

async function tokenRequest(params: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OAuthError) return error.code;
    throw error;
  }
  throw new Error("expected an OAuth error");
}

describe("metadata", () => {
  it("serves the same authorization server metadata at the RFC 8414 and OpenID paths", async () => {
    const oauth = await (await fetch(idp.metadataUrl)).json();
    const openid = await (await fetch(idp.configurationUrl)).json();
    expect(idp.metadataUrl).toBe(`${idp.issuer}/.well-known/oauth-authorization-server`);
    expect(oauth).toEqual(openid);
    expect(oauth).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}/authorize`,
      token_endpoint: `${idp.issuer}/token`,
      registration_endpoint: `${idp.issuer}/register`,
      revocation_endpoint: `${idp.issuer}/revoke`,
      introspection_endpoint: `${idp.issuer}/introspect`,
      jwks_uri: idp.jwksUri,
      response_types_supported: ["code"],
      grant_types_supported: [
        "authorization_code",
        "refresh_token",
        "urn:ietf:params:oauth:grant-type:token-exchange",
      ],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["mcp", "openid", "email", "profile", "offline_access"],
    });
    expect(metadata.issuer).toBe(idp.issuer);
  });

  it("lets browser-based clients call from another origin, but not the sign-in page", async () => {
    const preflight = await fetch(`${idp.issuer}/token`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    expect((await fetch(idp.metadataUrl)).headers.get("access-control-allow-origin")).toBe("*");
    const page = await fetch(`${idp.issuer}/authorize`, { method: "OPTIONS" });
    expect(page.status).toBe(405);
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("the SDK's sign-in", () => {
  it("registers, authorizes with PKCE and exchanges the code for a JWT the JWKS verifies", async () => {
    const client = await registerPublic();
    expect(client.client_secret).toBeUndefined();
    const { code, iss, codeVerifier, back } = await codeFor(client, MIRA, { scope: "mcp openid email" });
    expect(back.get("state")).toBe("s-1");
    expect(iss).toBe(idp.issuer);
    const tokens = await exchangeAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: code,
      iss,
      codeVerifier,
      redirectUri: REDIRECT,
      resource: resource(),
    });
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 600, scope: "mcp openid email" });

    const { payload, protectedHeader } = await verifyAccessToken(tokens.access_token);
    expect(protectedHeader).toMatchObject({ alg: "RS256", typ: "at+jwt" });
    const published = (await (await fetch(idp.jwksUri)).json()) as { keys: { kid: string }[] };
    expect(published.keys.map((k) => k.kid)).toContain(protectedHeader.kid);
    expect(payload).toMatchObject({
      iss: idp.issuer,
      sub: MIRA.subject,
      aud: resource(),
      client_id: client.client_id,
      scope: "mcp openid email",
      email: "mira.patel@acme.example",
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    expect(typeof payload.jti).toBe("string");

    // openid in the scope: an ID token for the client, with the person's email.
    const idToken = await jwtVerify(tokens.id_token ?? "", keys(), {
      issuer: idp.issuer,
      audience: client.client_id,
    });
    expect(idToken.payload).toMatchObject({
      sub: MIRA.subject,
      email: "mira.patel@acme.example",
      name: "Mira Patel",
    });
  });

  it("runs the whole auth() flow with a client ID metadata document, from the resource's metadata", async () => {
    const clientId = `${site.url}/clients/cimd-client.json`;
    documents.set("/clients/cimd-client.json", {
      client_id: clientId,
      client_name: "CIMD client",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    });
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT, clientMetadataUrl: clientId });
    idp.admin.autoApprove(TOM.subject);
    const tokens = await signInHeadless(provider, resource());
    expect(provider.clientInformation()?.client_id).toBe(clientId);
    const { payload } = await verifyAccessToken(tokens.access_token);
    expect(payload).toMatchObject({
      sub: TOM.subject,
      aud: resource(),
      client_id: clientId,
      email: TOM.email,
    });
    // offline_access is offered, so the SDK asks for it with its scope, and gets a refresh token.
    expect(payload.scope).toBe("mcp offline_access");
    expect(tokens.refresh_token).toBeTruthy();

    // The next auth() refreshes: a new access token, a rotated refresh token.
    expect(await auth(provider, { serverUrl: resource() })).toBe("AUTHORIZED");
    const refreshed = provider.tokens();
    expect(refreshed?.refresh_token).not.toBe(tokens.refresh_token);
    expect((await verifyAccessToken(refreshed?.access_token ?? "")).payload.sub).toBe(TOM.subject);
  });

  it("runs the whole auth() flow with dynamic registration when the client has no metadata document", async () => {
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT, clientName: "Registered client" });
    idp.admin.autoApprove(MIRA.email);
    const tokens = await signInHeadless(provider, resource());
    const clientId = provider.clientInformation()?.client_id ?? "";
    expect(clientId).toMatch(/^idp-client-/);
    const { payload } = await verifyAccessToken(tokens.access_token);
    expect(payload).toMatchObject({ sub: MIRA.subject, aud: resource(), client_id: clientId });
  });

  it("echoes the nonce in the ID token", async () => {
    const client = await registerPublic();
    idp.admin.autoApprove(MIRA.subject, { clientId: client.client_id });
    const { authorizationUrl, codeVerifier } = await startAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl: REDIRECT,
      resource: resource(),
      scope: "openid",
    });
    authorizationUrl.searchParams.set("nonce", "n-0S6_WzA2Mj");
    const back = await follow(authorizationUrl);
    const response = await tokenRequest({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: back.get("code") ?? "",
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
    });
    expect(decodeJwt(response.body.id_token ?? "").nonce).toBe("n-0S6_WzA2Mj");
  });

  it("registers a confidential client that authenticates with its secret", async () => {
    const client = await registerClient(idp.issuer, {
      metadata,
      clientMetadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" },
    });
    expect(client.client_secret).toBeTruthy();
    const { code, iss, codeVerifier } = await codeFor(client);
    const tokens = await exchangeAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: code,
      iss,
      codeVerifier,
      redirectUri: REDIRECT,
    });
    expect((await verifyAccessToken(tokens.access_token)).payload.sub).toBe(MIRA.subject);

    const again = await codeFor(client);
    const wrong = await tokenRequest(
      {
        grant_type: "authorization_code",
        code: again.code,
        code_verifier: again.codeVerifier,
        redirect_uri: REDIRECT,
      },
      { authorization: `Basic ${Buffer.from(`${client.client_id}:wrong`).toString("base64")}` },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    const none = await tokenRequest({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: again.code,
      code_verifier: again.codeVerifier,
      redirect_uri: REDIRECT,
    });
    expect(none.body.error).toBe("invalid_client");
  });
});

describe("refusals at /token", () => {
  let client: OAuthClientInformationFull;
  beforeAll(async () => {
    client = await registerPublic();
  });
  const exchange = (code: string, codeVerifier: string, extra: Record<string, string> = {}) =>
    tokenRequest({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
      ...extra,
    });

  it("refuses a code_verifier that does not match the challenge (invalid_grant), then takes the right one", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const wrong = await exchange(code, "x".repeat(43));
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(wrong.body.error_description).toMatch(/code_verifier does not match/);
    expect((await exchange(code, codeVerifier)).status).toBe(200);
  });

  it("refuses a missing code_verifier (invalid_request)", async () => {
    const { code } = await codeFor(client);
    const response = await tokenRequest({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code,
      redirect_uri: REDIRECT,
    });
    expect(response).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });

  it("refuses another redirect_uri than the authorization request's (invalid_grant)", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const response = await exchange(code, codeVerifier, { redirect_uri: "http://127.0.0.1:8976/other" });
    expect(response.body).toMatchObject({ error: "invalid_grant" });
    expect(response.body.error_description).toMatch(/redirect_uri/);
  });

  it("refuses another resource than the authorization request's (invalid_target)", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const response = await exchange(code, codeVerifier, { resource: "https://other.example/mcp" });
    expect(response.body.error).toBe("invalid_target");
  });

  it("refuses a code redeemed twice, and revokes what the first redemption got", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const first = await exchange(code, codeVerifier);
    expect(first.status).toBe(200);
    const second = await exchange(code, codeVerifier);
    expect(second.body).toMatchObject({ error: "invalid_grant" });
    expect(second.body.error_description).toMatch(/already been used/);
    const jti = decodeJwt(first.body.access_token ?? "").jti;
    expect(idp.admin.issuedTokens().find((t) => t.jti === jti)?.active).toBe(false);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: first.body.refresh_token ?? "",
    });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("refuses a code after its 60 seconds on the provider's clock", async () => {
    const { code, codeVerifier } = await codeFor(client);
    idp.clock.advance(61_000);
    const response = await exchange(code, codeVerifier);
    expect(response.body).toMatchObject({
      error: "invalid_grant",
      error_description: "The authorization code has expired.",
    });
  });

  it("refuses a code to another client", async () => {
    const other = await registerPublic();
    const { code, codeVerifier } = await codeFor(other);
    const response = await exchange(code, codeVerifier);
    expect(response.body.error).toBe("invalid_grant");
  });

  it("rotates refresh tokens; reusing an old one revokes the whole sign-in", async () => {
    const { code, iss, codeVerifier } = await codeFor(client);
    const first = await exchangeAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: code,
      iss,
      codeVerifier,
      redirectUri: REDIRECT,
      resource: resource(),
    });
    const second = await refreshAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      refreshToken: first.refresh_token ?? "",
      resource: resource(),
    });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await verifyAccessToken(second.access_token)).payload.sub).toBe(MIRA.subject);

    const replay = refreshAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      refreshToken: first.refresh_token ?? "",
    });
    expect(await oauthErrorOf(replay)).toBe("invalid_grant");
    // The family is gone: the newest refresh token too, and both access tokens are inactive.
    const newest = refreshAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      refreshToken: second.refresh_token ?? "",
    });
    expect(await oauthErrorOf(newest)).toBe("invalid_grant");
    const jtis = [first.access_token, second.access_token].map((t) => decodeJwt(t).jti);
    const listed = idp.admin.issuedTokens().filter((t) => jtis.includes(t.jti));
    expect(listed.map((t) => t.active)).toEqual([false, false]);
  });

  it("refuses a refresh token after its day on the provider's clock", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const first = await exchange(code, codeVerifier);
    idp.clock.advance(86_400_000);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: first.body.refresh_token ?? "",
    });
    expect(refresh.body).toMatchObject({
      error: "invalid_grant",
      error_description: "The refresh token has expired.",
    });
  });

  it("refuses a refresh that widens the scope (invalid_scope)", async () => {
    const { code, codeVerifier } = await codeFor(client);
    const first = await exchange(code, codeVerifier);
    const widened = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: first.body.refresh_token ?? "",
      scope: "mcp openid",
    });
    expect(widened.body.error).toBe("invalid_scope");
  });

  it("refuses unknown grant types and a missing grant_type", async () => {
    expect((await tokenRequest({ grant_type: "password", client_id: client.client_id })).body.error).toBe(
      "unsupported_grant_type",
    );
    expect((await tokenRequest({ client_id: client.client_id })).body.error).toBe("invalid_request");
    expect((await tokenRequest({ grant_type: "authorization_code", client_id: "nobody" })).status).toBe(401);
  });
});

describe("revocation (RFC 7009) and introspection (RFC 7662)", () => {
  let client: OAuthClientInformationFull;
  let resourceServer: OAuthClientInformationFull;
  beforeAll(async () => {
    client = await registerPublic();
    resourceServer = await registerClient(idp.issuer, {
      metadata,
      clientMetadata: { redirect_uris: ["https://127.0.0.1/unused"], client_name: "resource server" },
    });
  });

  async function signIn(person = MIRA) {
    const { code, codeVerifier } = await codeFor(client, person);
    const response = await tokenRequest({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
    });
    return response.body as { access_token: string; refresh_token: string };
  }

  const post = (endpoint: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(params),
    });
  const revoke = (token: string, clientId = client.client_id) =>
    post(`${idp.issuer}/revoke`, { client_id: clientId, token });
  const introspect = async (token: string) => {
    const basic = Buffer.from(`${resourceServer.client_id}:${resourceServer.client_secret}`).toString(
      "base64",
    );
    const response = await post(`${idp.issuer}/introspect`, { token }, { authorization: `Basic ${basic}` });
    return (await response.json()) as { active: boolean; sub?: string; aud?: string };
  };

  it("revokes a refresh token with its sign-in's access tokens", async () => {
    const tokens = await signIn();
    expect(await introspect(tokens.access_token)).toMatchObject({
      active: true,
      sub: MIRA.subject,
      aud: resource(),
    });
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("revokes an access token alone; answers 200 to an unknown token; refuses another client's", async () => {
    const tokens = await signIn();
    const other = await registerPublic();
    const foreign = await revoke(tokens.access_token, other.client_id);
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { error: string }).error).toBe("unauthorized_client");
    expect((await introspect(tokens.access_token)).active).toBe(true);

    expect((await revoke(tokens.access_token)).status).toBe(200);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    expect((await revoke("not-a-token")).status).toBe(200);
    // The refresh token still works.
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.status).toBe(200);
  });

  it("introspection needs a confidential client; an expired token is inactive", async () => {
    const tokens = await signIn();
    const publicCall = await post(`${idp.issuer}/introspect`, {
      client_id: client.client_id,
      token: tokens.access_token,
    });
    expect(publicCall.status).toBe(401);
    idp.clock.advance(601_000);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    await expect(verifyAccessToken(tokens.access_token)).rejects.toThrow(/exp/);
  });

  it("admin.revokeSubject revokes one person's tokens and not another's", async () => {
    const mira = await signIn(MIRA);
    const tom = await signIn(TOM);
    expect(idp.admin.revokeSubject(MIRA.email)).toBeGreaterThanOrEqual(1);
    expect((await introspect(mira.access_token)).active).toBe(false);
    expect((await introspect(tom.access_token)).active).toBe(true);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: mira.refresh_token,
    });
    expect(refresh.body.error).toBe("invalid_grant");
    const listed = idp.admin.issuedTokens().find((t) => t.jti === decodeJwt(tom.access_token).jti);
    expect(listed).toMatchObject({
      subject: TOM.subject,
      clientId: client.client_id,
      audience: resource(),
      active: true,
    });
  });
});

describe("refusals at /authorize", () => {
  let client: OAuthClientInformationFull;
  beforeAll(async () => {
    client = await registerPublic();
  });

  function authorizeUrl(params: Record<string, string>): string {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      resource: resource(),
      state: "st",
      ...params,
    });
    for (const [name, value] of Object.entries(params)) if (value === "") query.delete(name);
    return `${idp.issuer}/authorize?${query}`;
  }

  it("sends errors back to the redirect_uri with state and iss", async () => {
    idp.admin.autoApprove(MIRA.subject);
    const cases: Array<[Record<string, string>, string]> = [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "", code_challenge_method: "" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ resource: "" }, "invalid_target"],
      [{ resource: "https://x.example/mcp#frag" }, "invalid_target"],
      [{ scope: "mcp admin" }, "invalid_scope"],
    ];
    for (const [params, error] of cases) {
      const back = await follow(authorizeUrl(params));
      expect({ params, error: back.get("error") }).toEqual({ params, error });
      expect(back.get("state")).toBe("st");
      expect(back.get("iss")).toBe(idp.issuer);
      expect(back.get("code")).toBeNull();
    }
  });

  it("shows an error page, never a redirect, for an unknown client or redirect_uri", async () => {
    const requests: Record<string, string>[] = [
      { client_id: "nobody" },
      { redirect_uri: "http://127.0.0.1:8976/elsewhere" },
    ];
    for (const params of requests) {
      const response = await fetch(authorizeUrl(params), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    }
  });

  it("shows the sign-in page listing the people, with no script allowed and no framing", async () => {
    const response = await fetch(authorizeUrl({}), { redirect: "manual" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    for (const person of DEMO_PEOPLE) expect(html).toContain(person.email);
    expect(html).not.toContain("<script");
    // The form's ticket is bound to this browser's cookie: a POST without it is refused.
    const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const forged = await fetch(`${idp.issuer}/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ticket, decision: "approve", subject: MIRA.subject }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Sign-in form expired");
  });
});

describe("client registration and metadata documents", () => {
  const register = async (body: unknown) => {
    const response = await fetch(`${idp.issuer}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("takes https and loopback http redirect URIs, and refuses others", async () => {
    for (const uri of [
      "https://app.example/cb",
      "http://127.0.0.1:1234/cb",
      "http://[::1]:1/cb",
      "http://localhost/cb",
    ]) {
      expect((await register({ redirect_uris: [uri], token_endpoint_auth_method: "none" })).status).toBe(201);
    }
    for (const uri of [
      "http://app.example/cb",
      "https://app.example/cb#x",
      "javascript:alert(1)",
      "not a url",
    ]) {
      const refused = await register({ redirect_uris: [uri] });
      expect({ uri, ...refused }).toMatchObject({
        uri,
        status: 400,
        body: { error: "invalid_redirect_uri" },
      });
    }
    expect((await register({})).body.error).toBe("invalid_redirect_uri");
    expect(
      (
        await register({
          redirect_uris: ["https://a.example/cb"],
          token_endpoint_auth_method: "private_key_jwt",
        })
      ).body.error,
    ).toBe("invalid_client_metadata");
    expect(
      (await register({ redirect_uris: ["https://a.example/cb"], grant_types: ["password"] })).body.error,
    ).toBe("invalid_client_metadata");
  });

  it("refuses metadata documents that are too large, name another client_id, or hold a secret method", async () => {
    idp.admin.autoApprove(MIRA.subject);
    const serve = (name: string, doc: unknown) => {
      documents.set(`/clients/${name}`, doc);
      return `${site.url}/clients/${name}`;
    };
    const base = { redirect_uris: [REDIRECT], client_name: "x" };
    const cases: Array<[string, RegExp]> = [
      [
        serve("big.json", { ...base, client_id: `${site.url}/clients/big.json`, padding: "x".repeat(6000) }),
        /could not be read \(response too large\)/,
      ],
      [
        serve("other.json", { ...base, client_id: `${site.url}/clients/someone-else.json` }),
        /another client_id/,
      ],
      [
        serve("secret.json", {
          ...base,
          client_id: `${site.url}/clients/secret.json`,
          token_endpoint_auth_method: "client_secret_post",
        }),
        /must use token_endpoint_auth_method none/,
      ],
      [serve("not-json.json", "<html>"), /could not be read \(not JSON\)/],
      [`${site.url}/clients/missing.json`, /could not be read \(status 404\)/],
    ];
    for (const [clientId, problem] of cases) {
      const query = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
        resource: resource(),
      });
      const response = await fetch(`${idp.issuer}/authorize?${query}`, { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(problem);
    }
  });
});

describe("the admin API", () => {
  it("sets auto-approval, lists tokens and people, and revokes a subject over HTTP", async () => {
    const admin = (path: string, body?: unknown) =>
      fetch(`${idp.issuer}/_admin${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${idp.adminSecret}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await admin("/auto-approve", { person: "nobody@acme.example" })).status).toBe(404);
    expect((await admin("/auto-approve", { person: TOM.email })).status).toBe(200);
    const client = await registerPublic();
    const { authorizationUrl } = await startAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl: REDIRECT,
      resource: resource(),
    });
    expect((await follow(authorizationUrl)).get("code")).toBeTruthy();
    const people = (await (await admin("/people")).json()) as { people: { name: string }[] };
    expect(people.people.map((p) => p.name)).toEqual([
      "Mira Patel",
      "Tom Becker",
      "Dana Whitfield",
      "Lin Zhou",
    ]);
    expect((await admin("/revoke-subject", { person: TOM.subject })).status).toBe(200);
    const listed = (await (await admin("/tokens")).json()) as {
      tokens: { subject: string; active: boolean }[];
    };
    expect(listed.tokens.filter((t) => t.subject === TOM.subject && t.active)).toEqual([]);
  });
});

it("keys: the access token's kid names a published key, also after a rotation", async () => {
  const client = await registerPublic();
  await idp.rotateKeys();
  const { code, codeVerifier } = await codeFor(client);
  const response = await tokenRequest({
    grant_type: "authorization_code",
    client_id: client.client_id,
    code,
    code_verifier: codeVerifier,
    redirect_uri: REDIRECT,
  });
  const kid = decodeProtectedHeader(response.body.access_token ?? "").kid;
  const published = (await (await fetch(idp.jwksUri)).json()) as { keys: { kid: string }[] };
  expect(published.keys[0]?.kid).toBe(kid);
  expect((await verifyAccessToken(response.body.access_token ?? "")).payload.sub).toBe(MIRA.subject);
});
