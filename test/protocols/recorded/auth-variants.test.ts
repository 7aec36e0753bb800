// What the repository says about the caller's token (fact sheet 2.2, 7 and 10): 1218 and 1219 come
// with HTTP 400 (not 401), or even 200; an OAuth sign-in then refreshes (the answer's expires_in a
// string, token_type lowercase, extra fields) and sends once more, a client token reads as the
// authentication failure. A warning_code near expiry reaches the client as a log warning and the profile.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { callJson, callText } from "../../support/clients.js";
import {
  CLIENT_TOKEN,
  connectWithClientToken,
  connectWithOAuth,
  type Listening,
  OAUTH_APP,
  useFakeRepository,
} from "./connect.js";
import {
  envelopeC,
  expiredToken,
  invalidToken,
  item2026,
  profileNearExpiry,
  protocolV4,
  stepsV4,
  tokenAnswer,
} from "./fixtures.js";

const AUTH_FAILED = { isError: true, text: "Error: Invalid API authentication" };

const fake = useFakeRepository();
let conn: Listening | undefined;

afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

describe("with a client token", () => {
  it.each([
    ["1219 (expired) with HTTP 400", 400, expiredToken],
    ["1218 (not correct) with HTTP 400", 400, invalidToken],
    ["1219 with HTTP 200", 200, expiredToken],
  ])("reads %s as the authentication failure, asking once", async (_, status, body) => {
    fake.on("list", { status, body });
    conn = await connectWithClientToken(fake);
    expect(await callText(conn, "protocols_search", { keyword: "lysis" })).toEqual(AUTH_FAILED);
    expect(fake.seen.map((r) => r.route)).toEqual(["list"]);
  });

  it("fails protocols_get_protocol (overview and steps) the same way, in json too", async () => {
    fake.on("protocol", { status: 400, body: expiredToken });
    fake.on("steps", { status: 400, body: invalidToken });
    conn = await connectWithClientToken(fake);
    expect(
      await callText(conn, "protocols_get_protocol", { protocol: "1001", response_format: "json" }),
    ).toEqual(AUTH_FAILED);
    expect(await callText(conn, "protocols_get_protocol", { part: "steps", protocol: "1001" })).toEqual(
      AUTH_FAILED,
    );
  });
});

describe("with an OAuth sign-in", () => {
  /** Answers only to the new token; the old one is "token is expired" (HTTP 400). */
  const onlyNew = (body: unknown) => (request: { authorization: string | null }) =>
    request.authorization === "Bearer new-access" ? { body } : { status: 400, body: expiredToken };

  it("refreshes on 1219 and sends once more with the new token, then keeps the new pair", async () => {
    fake.on("protocol", onlyNew(protocolV4));
    fake.on("steps", onlyNew(stepsV4));
    fake.on("token", { body: tokenAnswer("new-access", "new-refresh") });
    conn = await connectWithOAuth(fake, { access: "old-access", refresh: "old-refresh" });
    const before = Math.floor(Date.now() / 1000);
    const { text, isError } = await callText(conn, "protocols_get_protocol", { protocol: "1001" });
    expect(isError).toBe(false);
    expect(text).toContain("# Lysis & clearing of E. coli <5 mL cultures (1001)");
    expect(fake.seen.map((r) => [r.route, r.authorization])).toEqual([
      ["protocol", "Bearer old-access"],
      ["token", null],
      ["protocol", "Bearer new-access"],
      ["steps", "Bearer new-access"],
    ]);
    expect(fake.seen[1]?.form).toMatchObject({
      grant_type: "refresh_token",
      refresh_token: "old-refresh",
      client_id: OAUTH_APP.clientId,
      client_secret: OAUTH_APP.clientSecret,
    });
    const stored = JSON.parse(readFileSync(conn.tokenFile, "utf8"));
    expect(stored).toMatchObject({ access_token: "new-access", refresh_token: "new-refresh" });
    // expires_in came as the string "30681976".
    expect(stored.expires_at - before).toBeGreaterThanOrEqual(30681976);
    expect(stored.expires_at - before).toBeLessThan(30681976 + 60);
  });

  it("gives the authentication failure when the new token is refused too (one retry only)", async () => {
    fake.on("list", { status: 400, body: invalidToken });
    fake.on("token", { body: tokenAnswer("new-access", "new-refresh") });
    conn = await connectWithOAuth(fake, { access: "old-access", refresh: "old-refresh" });
    expect(await callText(conn, "protocols_search", { keyword: "lysis" })).toEqual(AUTH_FAILED);
    expect(fake.seen.map((r) => r.route)).toEqual(["list", "token", "list"]);
  });

  it("lists with the renewed token as well", async () => {
    fake.on(
      "list",
      onlyNew(envelopeC([item2026(5, "After renewal")], { current: 1, totalPages: 1, total: 1, size: 10 })),
    );
    fake.on("token", { body: tokenAnswer("new-access", "new-refresh") });
    conn = await connectWithOAuth(fake, { access: "old-access", refresh: "old-refresh" });
    const page = await callJson<{ total: number; protocols: Array<{ title: string }> }>(
      conn,
      "protocols_search",
      {
        keyword: "renewal",
      },
    );
    expect(page.protocols.map((p) => p.title)).toEqual(["After renewal"]);
  });
});

describe("a warning_code near token expiry (7, 10)", () => {
  it("reaches the client as a log warning and shows on protocols_get_profile, in both formats", async () => {
    fake.on("profile", { body: profileNearExpiry });
    conn = await connectWithClientToken(fake);
    const { text } = await callText(conn, "protocols_get_profile");
    expect(text).toContain("- **User**: Ann Lee (ann-lee)");
    expect(text).toContain("- **Email**: ann@example.invalid");
    expect(text).not.toMatch(/Affiliation|null|undefined/);
    expect(text).toContain("- **Repository warning**: Your access token expires in 24 days (code 1)");
    expect(conn.logs).toEqual([
      {
        level: "warning",
        text: "The protocol repository warns (code 1): Your access token expires in 24 days",
      },
    ]);
    const json = await callJson(conn, "protocols_get_profile");
    expect(json).toMatchObject({
      username: "ann-lee",
      name: "Ann Lee",
      sign_in: "client_token",
      repository_warning: { code: 1, message: "Your access token expires in 24 days" },
    });
    expect(fake.seen.every((r) => r.authorization === `Bearer ${CLIENT_TOKEN}`)).toBe(true);
    // Said once, though every answer carries it.
    expect(conn.logs).toHaveLength(1);
  });

  it("is remembered from any answer for the profile", async () => {
    fake.on("list", {
      body: {
        ...envelopeC([], { current: 1, totalPages: 0, total: 0, size: 10 }),
        warning_code: 1,
        warning_message: "Your access token expires in 24 days",
      },
    });
    fake.on("profile", { body: { user: { username: "ann-lee", name: "Ann Lee" }, status_code: 0 } });
    conn = await connectWithClientToken(fake);
    await callText(conn, "protocols_search", { keyword: "lysis" });
    expect(conn.logs.map((l) => l.level)).toEqual(["warning"]);
    expect((await callText(conn, "protocols_get_profile")).text).toContain(
      "Your access token expires in 24 days",
    );
  });
});
