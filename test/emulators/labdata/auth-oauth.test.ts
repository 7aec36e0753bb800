// OAuth 2.0 client credentials: the token endpoint's answers and refusals, and access tokens that act
// as the app's service user and really expire by the emulator clock.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, startTestLabdata, useLabdataEmulator } from "../../support/emulator.js";
import { accessToken, basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
});

const tokenRequest = (form: Record<string, string>, authorization?: string) =>
  fetchReply(`${api}/token`, { form, authorization });

describe("labdata auth: token endpoint", () => {
  it("issues a Bearer access token for client id and secret in the form body", async () => {
    const { app } = demoOf(emulator);
    const reply = await tokenRequest({
      grant_type: "client_credentials",
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(reply.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(reply.body.access_token).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
    expect(reply.headers.get("cache-control")).toBe("no-store");
  });

  it("takes the client id and secret as HTTP Basic too", async () => {
    const { app } = demoOf(emulator);
    const reply = await tokenRequest(
      { grant_type: "client_credentials" },
      basic(app.clientId, app.clientSecret),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe("Bearer");
  });

  it("refuses another grant type with unsupported_grant_type and a missing one with invalid_request", async () => {
    const { app } = demoOf(emulator);
    const credentials = { client_id: app.clientId, client_secret: app.clientSecret };
    const password = await tokenRequest({ grant_type: "password", ...credentials });
    expect(password.status).toBe(400);
    expect(password.body.error.type).toBe("unsupported_grant_type");
    const missing = await tokenRequest(credentials);
    expect(missing.status).toBe(400);
    expect(missing.body.error.type).toBe("invalid_request");
  });

  it("refuses an unknown client or a wrong secret with 401 invalid_client, echoing neither", async () => {
    const { app } = demoOf(emulator);
    const cases: Record<string, string>[] = [
      { grant_type: "client_credentials", client_id: "no-such-client", client_secret: app.clientSecret },
      { grant_type: "client_credentials", client_id: app.clientId, client_secret: "cs_wrong_secret_value" },
      { grant_type: "client_credentials", client_id: app.clientId },
      { grant_type: "client_credentials" },
    ];
    for (const form of cases) {
      const reply = await tokenRequest(form);
      expect(reply.status, JSON.stringify(form)).toBe(401);
      expect(reply.body.error.type).toBe("invalid_client");
      expect(typeof reply.body.error.message).toBe("string");
      expect(reply.text).not.toContain(app.clientSecret);
      expect(reply.text).not.toContain("cs_wrong_secret_value");
    }
    const badBasic = await tokenRequest(
      { grant_type: "client_credentials" },
      basic(app.clientId, "cs_wrong"),
    );
    expect(badBasic.status).toBe(401);
    expect(badBasic.headers.get("www-authenticate")).toContain("Basic");
  });

  it("refuses two client authentication methods at once, a JSON body and a GET", async () => {
    const { app } = demoOf(emulator);
    const both = await tokenRequest(
      { grant_type: "client_credentials", client_secret: app.clientSecret },
      basic(app.clientId, app.clientSecret),
    );
    expect(both.status).toBe(400);
    const json = await fetchReply(`${api}/token`, {
      json: { grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret },
    });
    expect(json.status).toBe(400);
    expect(json.body.error.type).toBe("invalid_request");
    const get = await fetchReply(`${api}/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("labdata auth: access tokens", () => {
  it("act as the app's service user, which /users/me returns", async () => {
    const { app } = demoOf(emulator);
    const token = await accessToken(api, app.clientId, app.clientSecret);
    const reply = await fetchReply(`${api}/users/me`, { authorization: bearer(token) });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: app.serviceUserId,
      name: "Sequence Sync",
      email: "sequence-sync@apps.acme.example",
      handle: "app-sequence-sync",
    });
  });

  it("answers 401 to an unknown access token", async () => {
    const reply = await fetchReply(`${api}/users/me`, {
      authorization: bearer("at_not_a_token_that_was_issued"),
    });
    expectError(reply, 401, "authentication_error");
    expect(reply.body.error.message).toBe("Invalid access token");
  });

  it("expire after expires_in seconds by the emulator clock; a new token then works", async () => {
    const other = await startTestLabdata();
    try {
      const { app } = demoOf(other);
      const otherApi = other.tenant("acme").apiUrl;
      const token = await accessToken(otherApi, app.clientId, app.clientSecret);
      other.clock.advance(3599_000);
      expect((await fetchReply(`${otherApi}/users/me`, { authorization: bearer(token) })).status).toBe(200);
      other.clock.advance(1_000);
      const expired = await fetchReply(`${otherApi}/users/me`, { authorization: bearer(token) });
      expectError(expired, 401, "authentication_error");
      expect(expired.body.error.message).toContain("expired");
      const fresh = await accessToken(otherApi, app.clientId, app.clientSecret);
      expect((await fetchReply(`${otherApi}/users/me`, { authorization: bearer(fresh) })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("live for the tenant's configured lifetime", async () => {
    const other = await startTestLabdata();
    try {
      const { app } = demoOf(other);
      const otherApi = other.tenant("acme").apiUrl;
      other.admin.updateSettings("acme", { accessTokenLifetimeSec: 60 });
      const reply = await fetchReply(`${otherApi}/token`, {
        form: { grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret },
      });
      expect(reply.body.expires_in).toBe(60);
      const advanced = await fetchReply(`${other.url}/_admin/clock`, {
        authorization: bearer(other.adminSecret),
        json: { advanceMs: 60_000 },
      });
      expect(advanced.status).toBe(200);
      const expired = await fetchReply(`${otherApi}/users/me`, {
        authorization: bearer(reply.body.access_token),
      });
      expect(expired.status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
