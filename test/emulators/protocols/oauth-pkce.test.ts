// PKCE (RFC 7636) in the emulator's authorization code flow: optional, since the real service documents
// none, but verified whenever the authorize request sent a code_challenge (S256 only). A code issued
// without a challenge is still exchanged without a verifier, and a verifier for such a code is refused
// (no downgrade: RFC 9700 section 2.1.1).
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import {
  type App,
  approveConsent,
  authorizePath,
  browse,
  CookieJar,
  codeRequest,
  exchangeCode,
  LEGACY,
  signInOnForm,
} from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let app: App;
beforeAll(async () => {
  app = demoOf(emulator).application;
});
beforeEach(() => {
  emulator.admin.updateSettings({ browserSessionUser: null });
});

const newVerifier = () => randomBytes(32).toString("base64url");
const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

function password(username: string): string {
  const user = demoOf(emulator).users.find((u) => u.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return user.password;
}

/** Signs in on the form as mei-chen (no shortcut), approves, and returns the redirect back to the app. */
async function approve(extra: Record<string, string>): Promise<URL> {
  const jar = new CookieJar();
  const form = await browse(emulator, jar, authorizePath({ ...codeRequest(app, "st"), ...extra }));
  expect(form.status).toBe(200);
  const signedIn = await signInOnForm(emulator, jar, form.body, "mei-chen", password("mei-chen"));
  expect(signedIn.status).toBe(303);
  return approveConsent(emulator, jar, signedIn.headers.get("location") ?? "");
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  exchangeCode(emulator, app, code, extra);

describe("PKCE", () => {
  it("refuses a wrong or missing code_verifier for a code requested with an S256 challenge, then takes the right one", async () => {
    const verifier = newVerifier();
    const back = await approve({ code_challenge: challengeOf(verifier), code_challenge_method: "S256" });
    expect(back.searchParams.get("state")).toBe("st");
    const code = back.searchParams.get("code") ?? "";

    const wrong = await exchange(code, { code_verifier: newVerifier() });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: "invalid_grant",
      error_description: "code_verifier does not match the code_challenge of the authorization request.",
    });
    const missing = await exchange(code);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: "invalid_grant",
      error_description: "code_verifier is required: the authorization request sent a code_challenge.",
    });

    const right = await exchange(code, { code_verifier: verifier });
    expect(right.status).toBe(200);
    expect(right.body.access_token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("stays optional: a code requested without a challenge needs no verifier, and refuses one", async () => {
    const first = (await approve({})).searchParams.get("code") ?? "";
    expect((await exchange(first)).status).toBe(200);

    const second = (await approve({})).searchParams.get("code") ?? "";
    const downgraded = await exchange(second, { code_verifier: newVerifier() });
    expect(downgraded.status).toBe(400);
    expect(downgraded.body).toEqual({
      error: "invalid_grant",
      error_description: "code_verifier was sent, but the authorization request had no code_challenge.",
    });
  });

  it("sends a challenge that is not S256, or not a base64url SHA-256, back as invalid_request", async () => {
    const challenge = challengeOf(newVerifier());
    const cases: Array<[Record<string, string>, string]> = [
      [{ code_challenge: challenge }, "code_challenge_method must be S256"],
      [{ code_challenge: challenge, code_challenge_method: "plain" }, "code_challenge_method must be S256"],
      [
        { code_challenge: "too-short", code_challenge_method: "S256" },
        "code_challenge must be 43 base64url characters (a SHA-256 digest)",
      ],
      [{ code_challenge_method: "S256" }, "code_challenge_method is sent without code_challenge"],
    ];
    for (const [extra, description] of cases) {
      const reply = await browse(
        emulator,
        new CookieJar(),
        authorizePath({ ...codeRequest(app, "s2"), ...extra }),
      );
      expect(reply.status).toBe(302);
      const location = new URL(reply.headers.get("location") ?? "");
      expect(`${location.origin}${location.pathname}`).toBe(app.redirectUri);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error: "invalid_request",
        error_description: description,
        state: "s2",
      });
    }
  });
});
