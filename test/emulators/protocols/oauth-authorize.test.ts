// The browser side of the authorization code flow (the first row of the spec's states table): request
// validation, the sign-in form, the consent page, approve and deny, and the forms' CSRF protection.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DemoSetup } from "../../../packages/emulators/src/protocols/index.js";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import {
  type App,
  approveAs,
  authorizePath,
  browse,
  CookieJar,
  codeRequest,
  decideConsent,
  LEGACY,
  signInOnForm,
  ticketOf,
} from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let demo: DemoSetup;
let app: App;

beforeAll(async () => {
  demo = demoOf(emulator);
  app = demo.application;
});

beforeEach(() => {
  emulator.admin.updateSettings({ browserSessionUser: null });
});

function expectErrorPage(reply: { status: number; headers: Headers; body: string }, text: string): void {
  expect(reply.status).toBe(400);
  expect(reply.headers.get("content-type")).toContain("text/html");
  expect(reply.headers.get("location")).toBeNull();
  expect(reply.body).toContain(text);
}

function password(username: string): string {
  const user = demo.users.find((u) => u.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return user.password;
}

describe("authorize: request validation", () => {
  it("shows an error page, never a redirect, for a missing or unknown client_id", async () => {
    const jar = new CookieJar();
    expectErrorPage(
      await browse(emulator, jar, authorizePath({ ...codeRequest(app), client_id: undefined })),
      "exactly one client_id",
    );
    expectErrorPage(
      await browse(emulator, jar, authorizePath({ ...codeRequest(app), client_id: "pr_live_id_nope" })),
      "No application is registered",
    );
  });

  it("shows an error page for a missing redirect_uri or one that differs from the registered one", async () => {
    const jar = new CookieJar();
    expectErrorPage(
      await browse(emulator, jar, authorizePath({ ...codeRequest(app), redirect_uri: undefined })),
      "exactly one redirect_uri",
    );
    for (const other of [
      "https://attacker.example/callback",
      `${app.redirectUri}/`,
      `${app.redirectUri}?x=1`,
      app.redirectUri.replace("127.0.0.1", "localhost"),
    ]) {
      const reply = await browse(emulator, jar, authorizePath({ ...codeRequest(app), redirect_uri: other }));
      expectErrorPage(reply, "not the one registered");
      expect(reply.body).not.toContain("attacker.example");
    }
  });

  it("sends a response_type other than code back to the registered redirect_uri, with the state", async () => {
    const jar = new CookieJar();
    const token = await browse(
      emulator,
      jar,
      authorizePath({ ...codeRequest(app, "s1"), response_type: "token" }),
    );
    expect(token.status).toBe(302);
    const location = new URL(token.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(app.redirectUri);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "unsupported_response_type",
      state: "s1",
    });
    expect(location.searchParams.has("code")).toBe(false);

    const missing = await browse(
      emulator,
      jar,
      authorizePath({ ...codeRequest(app), response_type: undefined }),
    );
    const missingLocation = new URL(missing.headers.get("location") ?? "");
    expect(missingLocation.searchParams.get("error")).toBe("invalid_request");
    expect(missingLocation.searchParams.has("state")).toBe(false);
  });
});

describe("authorize: sign-in form", () => {
  it("shows a real sign-in form when nobody is signed in", async () => {
    const page = await browse(emulator, new CookieJar(), authorizePath(codeRequest(app, "abc")));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.body).toContain('<form method="post" action="/api/v3/oauth/authorize">');
    expect(page.body).toContain('name="username"');
    expect(page.body).toContain('type="password"');
    expect(page.body).toContain("Sign in to continue to Lab MCP demo");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses a wrong password, then signs in and continues to consent, then approves", async () => {
    const jar = new CookieJar();
    const form = await browse(emulator, jar, authorizePath(codeRequest(app, "st-9")));
    const wrong = await signInOnForm(emulator, jar, form.body, "mei-chen", "not-her-password");
    expect(wrong.status).toBe(200);
    expect(wrong.body).toContain("Wrong username or password.");
    expect(wrong.body).toContain('value="mei-chen"');

    const signedIn = await signInOnForm(emulator, jar, wrong.body, "mei-chen", password("mei-chen"));
    expect(signedIn.status).toBe(303);
    const back = signedIn.headers.get("location") ?? "";
    expect(back).toBe(authorizePath(codeRequest(app, "st-9")));
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(
      /protocols_session=.+; Path=\/;.*Secure; HttpOnly/,
    );

    const consent = await browse(emulator, jar, back);
    expect(consent.body).toContain("Signed in as <strong>Mei Chen</strong> (mei-chen)");
    const approved = await decideConsent(emulator, jar, consent.body, "approve");
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get("location") ?? "");
    expect(location.searchParams.get("state")).toBe("st-9");
    expect(location.searchParams.get("code")).toMatch(/^[0-9a-f]{40}$/);
  });

  it("refuses a sign-in post without the cookie of the browser that was shown the form", async () => {
    const form = await browse(emulator, new CookieJar(), authorizePath(codeRequest(app)));
    const forged = await signInOnForm(emulator, new CookieJar(), form.body, "mei-chen", password("mei-chen"));
    expectErrorPage(forged, "Sign-in form expired");
  });
});

describe("authorize: consent", () => {
  it("names the application and the signed-in user, with Approve and Deny posting a hidden ticket", async () => {
    emulator.admin.updateSettings({ browserSessionUser: "tomas-garcia" });
    const page = await browse(emulator, new CookieJar(), authorizePath(codeRequest(app, "x")));
    expect(page.status).toBe(200);
    expect(page.body).toContain("Lab MCP demo wants to access your account");
    expect(page.body).toContain("Signed in as <strong>Tomás García</strong> (tomas-garcia)");
    expect(page.body).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
    expect(page.body).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
    expect(page.body).toMatch(/<input type="hidden" name="ticket" value="[\w-]{20,}">/);
  });

  it("approve redirects to redirect_uri with a code and the state", async () => {
    const location = await approveAs(emulator, "mei-chen", app, "state-123");
    expect(`${location.origin}${location.pathname}`).toBe(app.redirectUri);
    expect([...location.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(location.searchParams.get("state")).toBe("state-123");
  });

  it("approve without a state redirects with the code alone", async () => {
    const location = await approveAs(emulator, "mei-chen", app);
    expect([...location.searchParams.keys()]).toEqual(["code"]);
  });

  it("deny redirects with error=access_denied and the state, or without a state when none was sent", async () => {
    emulator.admin.updateSettings({ browserSessionUser: "mei-chen" });
    for (const state of ["deny-me", undefined]) {
      const jar = new CookieJar();
      const page = await browse(emulator, jar, authorizePath(codeRequest(app, state)));
      const denied = await decideConsent(emulator, jar, page.body, "deny");
      expect(denied.status).toBe(302);
      const location = new URL(denied.headers.get("location") ?? "");
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.has("code")).toBe(false);
      expect(location.searchParams.get("state")).toBe(state ?? null);
    }
  });

  it("refuses a consent post with a forged, reused or other user's ticket", async () => {
    emulator.admin.updateSettings({ browserSessionUser: "mei-chen" });
    const jar = new CookieJar();
    const page = await browse(emulator, jar, authorizePath(codeRequest(app)));
    const ticket = ticketOf(page.body);

    expectErrorPage(
      await browse(emulator, jar, "/api/v3/oauth/authorize", { ticket: "forged", decision: "approve" }),
      "Consent form expired",
    );
    // The ticket was shown to mei-chen's browser; signed in as someone else it is worthless.
    emulator.admin.updateSettings({ browserSessionUser: "kwame-asante" });
    expectErrorPage(
      await browse(emulator, jar, "/api/v3/oauth/authorize", { ticket, decision: "approve" }),
      "Consent form expired",
    );
    emulator.admin.updateSettings({ browserSessionUser: "mei-chen" });
    const used = await browse(emulator, jar, authorizePath(codeRequest(app)));
    const usedTicket = ticketOf(used.body);
    expect(
      (await browse(emulator, jar, "/api/v3/oauth/authorize", { ticket: usedTicket, decision: "approve" }))
        .status,
    ).toBe(302);
    expectErrorPage(
      await browse(emulator, jar, "/api/v3/oauth/authorize", { ticket: usedTicket, decision: "approve" }),
      "Consent form expired",
    );
    emulator.admin.updateSettings({ browserSessionUser: null });
    expectErrorPage(
      await browse(emulator, new CookieJar(), "/api/v3/oauth/authorize", {
        ticket: "x",
        decision: "approve",
      }),
      "Consent form expired",
    );
  });
});
