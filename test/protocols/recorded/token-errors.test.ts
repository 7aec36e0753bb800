// The token endpoint refusing a refresh in the repository's own error shape (fact sheet 2.2: "a client
// should expect {status_code: <non-zero>, error_message: ...} like other v3 calls"; body shape of 10),
// with HTTP 400 or even 200, rather than an RFC 6749 error: the sign-in has ended and the agent is told
// to sign in again, once, not "API request failed" or an unexpected error.
import { afterEach, describe, expect, it } from "vitest";
import { callText } from "../../support/clients.js";
import { connectWithOAuth, type Listening, useFakeRepository } from "./connect.js";
import { expiredToken } from "./fixtures.js";

const SIGN_IN_AGAIN =
  "Error: The sign-in to the protocol repository has expired or was revoked. Call protocols_sign_in (your " +
  "client opens the sign-in page), or run 'protocols-mcp login' in a terminal to sign in again.";

const fake = useFakeRepository();
let conn: Listening | undefined;

afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

describe("a refresh refused with status_code and error_message (2.2, 10)", () => {
  it.each([
    ["HTTP 400", 400],
    ["HTTP 200", 200],
  ])("with %s: says to sign in again, and does not try the dead pair again", async (_, status) => {
    fake.on("list", { status: 400, body: expiredToken });
    fake.on("token", { status, body: { status_code: 1219, error_message: "refresh token is expired" } });
    conn = await connectWithOAuth(fake, { access: "old-access", refresh: "old-refresh" });
    expect(await callText(conn, "protocols_search", { keyword: "lysis" })).toEqual({
      isError: true,
      text: SIGN_IN_AGAIN,
    });
    expect(fake.seen.map((r) => r.route)).toEqual(["list", "token"]);
    expect(await callText(conn, "protocols_search", { keyword: "lysis" })).toEqual({
      isError: true,
      text: SIGN_IN_AGAIN,
    });
    expect(fake.seen.map((r) => r.route)).toEqual(["list", "token"]);
  });
});
