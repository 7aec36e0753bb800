import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { accessToken, basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";
import { plainHttpGet, rawExchange } from "../../support/plain-http.js";

const emulator = useLabdataEmulator();
let acme: string;
let globex: string;

beforeAll(async () => {
  acme = emulator.tenant("acme").apiUrl;
  globex = emulator.tenant("globex").apiUrl;
});

describe("labdata tenants", () => {
  it("serves each tenant at its own base URL below the origin", () => {
    expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.tenant("acme")).toEqual({
      name: "acme",
      baseUrl: `${emulator.url}/acme`,
      apiUrl: `${emulator.url}/acme/api/v2`,
    });
    expect(() => emulator.tenant("initech")).toThrow(/no tenant/);
  });

  it("answers 401 to any credential of one tenant on another", async () => {
    const { user, app, globex: other } = demoOf(emulator);
    expect((await fetchReply(`${globex}/users/me`, { authorization: basic(other.user.apiKey) })).status).toBe(
      200,
    );
    expectError(
      await fetchReply(`${globex}/users/me`, { authorization: basic(user.apiKey) }),
      401,
      "authentication_error",
    );
    expectError(
      await fetchReply(`${acme}/users/me`, { authorization: basic(other.user.apiKey) }),
      401,
      "authentication_error",
    );
    const token = await accessToken(acme, app.clientId, app.clientSecret);
    expectError(
      await fetchReply(`${globex}/users/me`, { authorization: bearer(token) }),
      401,
      "authentication_error",
    );
    const foreignClient = await fetchReply(`${globex}/token`, {
      form: { grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret },
    });
    expect(foreignClient.status).toBe(401);
  });

  it("keeps each tenant's data apart", async () => {
    const { user, globex: other } = demoOf(emulator);
    const mine = await fetchReply(`${globex}/dna-sequences?pageSize=100&archiveReason=ANY`, {
      authorization: basic(other.user.apiKey),
    });
    expect(mine.headers.get("result-count")).toBe("20");
    for (const seq of mine.body.dnaSequences) expect(seq.folderId).toBe(other.folderId);
    const acmeSeq = await fetchReply(`${acme}/dna-sequences?pageSize=1`, {
      authorization: basic(user.apiKey),
    });
    const id = acmeSeq.body.dnaSequences[0].id;
    expectError(
      await fetchReply(`${globex}/dna-sequences/${id}`, { authorization: basic(other.user.apiKey) }),
      404,
      "invalid_request_error",
    );
  });

  it("answers 404 with the error body to an unknown tenant and to paths outside the API", async () => {
    expectError(await fetchReply(`${emulator.url}/initech/api/v2/users/me`), 404, "invalid_request_error");
    expectError(await fetchReply(`${emulator.url}/acme/api/v1/users/me`), 404, "invalid_request_error");
    expectError(await fetchReply(`${emulator.url}/acme`), 404, "invalid_request_error");
    expectError(await fetchReply(`${emulator.url}/`), 404, "invalid_request_error");
  });

  it("authenticates before routing: 401 for an unknown path without credentials, 404 with them, 405 for a wrong method", async () => {
    const auth = basic(demoOf(emulator).user.apiKey);
    expectError(await fetchReply(`${acme}/no-such-endpoint`), 401, "authentication_error");
    expectError(
      await fetchReply(`${acme}/no-such-endpoint`, { authorization: auth }),
      404,
      "invalid_request_error",
    );
    const wrongMethod = await fetchReply(`${acme}/users/me`, { authorization: auth, method: "DELETE" });
    expectError(wrongMethod, 405, "invalid_request_error");
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const put = await fetchReply(`${acme}/dna-sequences`, { authorization: auth, method: "PUT", body: "{}" });
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});

describe("labdata IP allowlist", () => {
  it("answers 403 to callers outside the tenant's allowed ranges, for the API and the token endpoint", async () => {
    const { user, app } = demoOf(emulator);
    const auth = basic(user.apiKey);
    try {
      emulator.admin.updateSettings("acme", { ipAllowlist: ["10.0.0.0/8", "2001:db8::/32"] });
      const refused = await fetchReply(`${acme}/users/me`, { authorization: auth });
      expectError(refused, 403, "permission_error");
      expect(refused.body.error.message).toContain("allowlist");
      const token = await fetchReply(`${acme}/token`, {
        form: { grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret },
      });
      expectError(token, 403, "permission_error");
      // Other tenants are not affected.
      expect(
        (
          await fetchReply(`${globex}/users/me`, {
            authorization: basic(demoOf(emulator).globex.user.apiKey),
          })
        ).status,
      ).toBe(200);

      emulator.admin.updateSettings("acme", { ipAllowlist: ["10.0.0.0/8", "127.0.0.0/8"] });
      expect((await fetchReply(`${acme}/users/me`, { authorization: auth })).status).toBe(200);
      emulator.admin.updateSettings("acme", { ipAllowlist: ["127.0.0.1"] });
      expect((await fetchReply(`${acme}/users/me`, { authorization: auth })).status).toBe(200);
    } finally {
      emulator.admin.updateSettings("acme", { ipAllowlist: [] });
    }
    expect((await fetchReply(`${acme}/users/me`, { authorization: auth })).status).toBe(200);
  });

  it("refuses a setting that is not a CIDR", () => {
    expect(() => emulator.admin.updateSettings("acme", { ipAllowlist: ["10.0.0.0/33"] })).toThrow(/CIDR/);
    expect(() => emulator.admin.updateSettings("acme", { ipAllowlist: ["localhost"] })).toThrow(/CIDR/);
  });
});

describe("labdata transport", () => {
  it("never serves data over plain HTTP", async () => {
    const port = Number(new URL(emulator.url).port);
    const authorization = basic(demoOf(emulator).user.apiKey);
    expect(await plainHttpGet(port, "/acme/api/v2/users/me", { authorization })).toMatch(/^error /);
    const raw = await rawExchange(port, "GET /acme/api/v2/dna-sequences HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(raw).not.toContain("HTTP/");
    expect(raw).not.toContain("seq_");
  });

  it("takes injected faults on a path, and logs requests with credentials redacted", async () => {
    const auth = basic(demoOf(emulator).user.apiKey);
    emulator.requests.clear();
    emulator.faults.inject({ kind: "status", status: 502 }, { path: "/acme/api/v2/users/me", times: 1 });
    expect((await fetchReply(`${acme}/users/me`, { authorization: auth })).status).toBe(502);
    expect((await fetchReply(`${acme}/users/me`, { authorization: auth })).status).toBe(200);
    const log = emulator.admin.requestLog();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      method: "GET",
      path: "/acme/api/v2/users/me",
      headers: { authorization: "REDACTED" },
    });
    expect(JSON.stringify(log)).not.toContain(demoOf(emulator).user.apiKey);
  });
});
