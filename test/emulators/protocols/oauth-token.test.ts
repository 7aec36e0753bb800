// The token endpoint and the token lifecycle (the other rows of the spec's states table): code exchange,
// single-use and short-lived codes, redirect_uri checks, refresh with rotation, expiry by the clock.
import { beforeAll, describe, expect, it } from "vitest";
import type { DemoSetup } from "../../../packages/emulators/src/protocols/index.js";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import {
  type ApiError,
  type App,
  api,
  approveAs,
  exchangeCode,
  LEGACY,
  signInAs,
  tokenRequest,
} from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let demo: DemoSetup;
let app: App;
let otherApp: App;

beforeAll(async () => {
  demo = demoOf(emulator);
  app = demo.application;
  otherApp = emulator.admin.createApplication({
    owner: "kwame-asante",
    redirectUri: "https://other.example/cb",
  });
});

async function newCode(username = "mei-chen", forApp: App = app): Promise<string> {
  const location = await approveAs(emulator, username, forApp);
  return location.searchParams.get("code") ?? "";
}

const exchange = (code: string, overrides: Record<string, string> = {}) =>
  exchangeCode(emulator, app, code, overrides);

function refresh(refreshToken: string, client: App = app) {
  return tokenRequest(emulator, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

async function profileStatus(token: string): Promise<{ status: number; code?: number; username?: string }> {
  const reply = await api<ApiError & { user?: { username: string } }>(
    emulator,
    "/api/v3/session/profile",
    token,
  );
  return { status: reply.status, code: reply.body.status_code, username: reply.body.user?.username };
}

describe("token: authorization_code", () => {
  it("exchanges a code for a one-year Bearer access token and a refresh token, never cached", async () => {
    const reply = await exchange(await newCode());
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual([
      "access_token",
      "expires_in",
      "refresh_token",
      "token_type",
    ]);
    expect(reply.body).toMatchObject({ token_type: "Bearer", expires_in: 31_536_000 });
    expect(reply.body.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(reply.body.refresh_token).not.toBe(reply.body.access_token);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(await profileStatus(reply.body.access_token)).toEqual({
      status: 200,
      code: 0,
      username: "mei-chen",
    });
  });

  it("takes a JSON body, and client credentials in HTTP Basic", async () => {
    const json = await tokenRequest(
      emulator,
      {
        grant_type: "authorization_code",
        code: await newCode(),
        redirect_uri: app.redirectUri,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      },
      { json: true },
    );
    expect(json.status).toBe(200);
    const basic = await tokenRequest(
      emulator,
      { grant_type: "authorization_code", code: await newCode(), redirect_uri: app.redirectUri },
      { basic: { id: app.clientId, secret: app.clientSecret } },
    );
    expect(basic.status).toBe(200);
    expect(basic.body.token_type).toBe("Bearer");
  });

  it("rejects a code used twice, and revokes the tokens issued for it", async () => {
    const code = await newCode();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      error: "invalid_grant",
      error_description:
        "The authorization code has already been used; the tokens issued for it are revoked.",
    });
    expect(await profileStatus(first.body.access_token)).toMatchObject({ status: 401, code: 1218 });
    expect((await refresh(first.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("rejects a code after its ten minutes, by the emulator clock", async () => {
    const code = await newCode();
    emulator.clock.advance(10 * 60 * 1000 + 1000);
    const reply = await exchange(code);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: "invalid_grant",
      error_description: "The authorization code has expired.",
    });
    const fresh = await newCode();
    emulator.clock.advance(9 * 60 * 1000);
    expect((await exchange(fresh)).status).toBe(200);
  });

  it("rejects a redirect_uri that differs from the authorized one, and keeps the code for the right one", async () => {
    const code = await newCode();
    for (const redirect of [`${app.redirectUri}/`, "https://attacker.example/cb"]) {
      const reply = await exchange(code, { redirect_uri: redirect });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        error: "invalid_grant",
        error_description: "redirect_uri does not match the one in the authorization request.",
      });
    }
    const missing = await tokenRequest(emulator, {
      grant_type: "authorization_code",
      code,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(missing.body).toMatchObject({
      error: "invalid_request",
      error_description: "redirect_uri is required.",
    });
    expect((await exchange(code)).status).toBe(200);
  });

  it("rejects a code issued to another client, and unknown codes", async () => {
    const code = await newCode("kwame-asante", otherApp);
    const stolen = await exchange(code, { redirect_uri: otherApp.redirectUri });
    expect(stolen.body).toMatchObject({
      error: "invalid_grant",
      error_description: "The authorization code was issued to another client.",
    });
    expect((await exchange("0".repeat(40))).body).toMatchObject({ error: "invalid_grant" });
    expect((await exchange("")).body).toMatchObject({
      error: "invalid_request",
      error_description: "code is required.",
    });
  });
});

describe("token: client authentication and request errors", () => {
  it("answers 401 invalid_client with WWW-Authenticate for an unknown client, a wrong secret or none", async () => {
    const code = await newCode();
    const overridden: Record<string, string>[] = [
      { client_id: "pr_live_id_unknown" },
      { client_secret: "pr_live_sc_wrong" },
      { client_secret: "" },
    ];
    for (const overrides of overridden) {
      const reply = await exchange(code, overrides);
      expect(reply.status, JSON.stringify(overrides)).toBe(401);
      expect(reply.body.error).toBe("invalid_client");
      expect(reply.headers.get("www-authenticate")).toBe('Basic realm="protocols"');
      expect(reply.text).not.toContain("pr_live_sc_wrong");
    }
    const noClient = await tokenRequest(emulator, { grant_type: "authorization_code", code });
    expect(noClient.status).toBe(401);
    const wrongBasic = await tokenRequest(
      emulator,
      { grant_type: "authorization_code", code, redirect_uri: app.redirectUri },
      { basic: { id: app.clientId, secret: "wrong" } },
    );
    expect(wrongBasic.status).toBe(401);
    expect((await exchange(code)).status).toBe(200);
  });

  it("answers 400 with an OAuth error body to bad grant types, bodies and methods", async () => {
    const creds = { client_id: app.clientId, client_secret: app.clientSecret };
    const missing = await tokenRequest(emulator, creds);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "invalid_request", error_description: "grant_type is required." });
    const password = await tokenRequest(emulator, { ...creds, grant_type: "password" });
    expect(password.body.error).toBe("unsupported_grant_type");

    const text = await fetch(`${emulator.url}/api/v3/oauth/token`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "grant_type=refresh_token",
    });
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({ error: "invalid_request" });
    const twice = await fetch(`${emulator.url}/api/v3/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${app.clientId}`,
    });
    expect(await twice.json()).toEqual({
      error: "invalid_request",
      error_description: "grant_type is sent more than once",
    });
    const get = await fetch(`${emulator.url}/api/v3/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("token: refresh and expiry", () => {
  it("refreshes into a new pair; the old access and refresh tokens stop working (rotation)", async () => {
    const first = await signInAs(emulator, "priya-natarajan", app);
    const renewed = await refresh(first.refresh_token);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ token_type: "Bearer", expires_in: 31_536_000 });
    expect(renewed.body.access_token).not.toBe(first.access_token);
    expect(renewed.body.refresh_token).not.toBe(first.refresh_token);
    expect(await profileStatus(renewed.body.access_token)).toEqual({
      status: 200,
      code: 0,
      username: "priya-natarajan",
    });

    expect(await profileStatus(first.access_token)).toMatchObject({ status: 401, code: 1218 });
    const again = await refresh(first.refresh_token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await refresh(renewed.body.refresh_token)).status).toBe(200);
  });

  it("refuses a refresh token presented by another client, or missing", async () => {
    const tokens = await signInAs(emulator, "priya-natarajan", app);
    const other = await refresh(tokens.refresh_token, otherApp);
    expect(other.body.error).toBe("invalid_grant");
    const missing = await tokenRequest(emulator, {
      grant_type: "refresh_token",
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(missing.body).toEqual({
      error: "invalid_request",
      error_description: "refresh_token is required.",
    });
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  it("expires access tokens by the clock (1219), and a refresh still works after expiry", async () => {
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 3600 });
    const tokens = await signInAs(emulator, "ingrid-johansson", app);
    expect(tokens.expires_in).toBe(3600);
    // A margin of seconds, so real time passing during the test cannot expire the token early.
    emulator.clock.advance(3590 * 1000);
    expect((await profileStatus(tokens.access_token)).status).toBe(200);
    emulator.clock.advance(10_000);
    const expired = await api<ApiError>(emulator, "/api/v3/session/profile", tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ status_code: 1219, error_message: "Token is expired." });

    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);
    expect(await profileStatus(renewed.body.access_token)).toMatchObject({
      status: 200,
      username: "ingrid-johansson",
    });
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 31_536_000 });
  });

  it("expires a default token after one year, while client tokens never expire", async () => {
    const tokens = await signInAs(emulator, "mei-chen", app);
    emulator.clock.advance(365 * 24 * 3600 * 1000);
    expect(await profileStatus(tokens.access_token)).toMatchObject({ status: 401, code: 1219 });
    expect(await profileStatus(demo.clientAccessToken)).toEqual({
      status: 200,
      code: 0,
      username: "ada-okafor",
    });
  });
});
