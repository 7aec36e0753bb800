// Error answers of the token-protected API: {status_code, error_message} with 401 (1218 invalid or
// missing token, 1219 expired), 404 (1404), 405 (1405), always JSON and never echoing the token.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { type ApiError, api, LEGACY, signInAs } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let token: string;

beforeAll(async () => {
  token = demoOf(emulator).clientAccessToken;
});

function expectError(
  reply: { status: number; headers: Headers; body: unknown },
  status: number,
  body: ApiError,
): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(reply.body).toEqual(body);
}

describe("401: tokens", () => {
  it("answers 1218 without a token, asking for a bearer token", async () => {
    for (const path of [
      "/api/v3/protocols?filter=public",
      "/api/v3/session/profile",
      "/api/v4/protocols/12001",
    ]) {
      const reply = await api(emulator, path);
      expectError(reply, 401, {
        status_code: 1218,
        error_message: "Missing access token: send Authorization: Bearer <ACCESS_TOKEN>.",
      });
      expect(reply.headers.get("www-authenticate")).toBe('Bearer realm="protocols", error="invalid_token"');
    }
  });

  it("answers 1218 to an unknown token or another scheme, without echoing it", async () => {
    const wrong = "f".repeat(64);
    const unknown = await api(emulator, "/api/v3/session/profile", wrong);
    expectError(unknown, 401, { status_code: 1218, error_message: "Invalid access token." });
    expect(unknown.text).not.toContain(wrong);
    const basic = await api(emulator, "/api/v3/session/profile", undefined, {
      headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString("base64")}` },
    });
    expectError(basic, 401, { status_code: 1218, error_message: "Invalid access token." });
    const empty = await api(emulator, "/api/v3/session/profile", undefined, {
      headers: { authorization: "Bearer " },
    });
    expect(empty.status).toBe(401);
  });

  it("answers 1219 to an expired token", async () => {
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 60 });
    const tokens = await signInAs(emulator, "mei-chen", demoOf(emulator).application);
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 31_536_000 });
    emulator.clock.advance(61_000);
    expectError(await api(emulator, "/api/v3/protocols?filter=public", tokens.access_token), 401, {
      status_code: 1219,
      error_message: "Token is expired.",
    });
  });
});

describe("404 and 405", () => {
  it("answers 1404 to an unknown API endpoint, after checking the token", async () => {
    expectError(await api(emulator, "/api/v3/protocols/extra/more", token), 404, {
      status_code: 1404,
      error_message: "No such API endpoint.",
    });
    expect((await api(emulator, "/api/v3/unknown")).status).toBe(401);
    expectError(await api(emulator, "/elsewhere", token), 404, {
      status_code: 1404,
      error_message: "Not found.",
    });
  });

  it("answers 1405 with Allow to a method other than GET", async () => {
    const reply = await api(emulator, "/api/v3/protocols?filter=public", token, { method: "POST" });
    expectError(reply, 405, { status_code: 1405, error_message: "Method not allowed; use GET." });
    expect(reply.headers.get("allow")).toBe("GET");
  });
});
