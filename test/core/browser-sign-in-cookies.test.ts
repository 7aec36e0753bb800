// The cookies of a team server's browser sign-in (core/pages/browser-sign-in.ts) as a browser gets them:
// HttpOnly, SameSite=Lax, only under their path, Secure where the public origin is https (the flows
// themselves, on plain-http loopback, are in test/team and test/browser); a cookie bound to one
// pending sign-in is no good for another, nor under another server's key.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { BrowserSignIn, safePath } from "../../packages/lab-mcp/src/core/pages/browser-sign-in.js";
import { MemoryState } from "../../packages/lab-mcp/src/core/state/memory-state.js";

const settings = (audience: string) => ({
  issuer: "https://login.lab.example",
  audience,
  clientId: "lab-mcp",
  clientSecret: "not-used-here",
});

/** What a browser sends back: the name=value part of a Set-Cookie line. */
const sentBack = (setCookie: string): IncomingMessage =>
  ({ headers: { cookie: setCookie.split(";")[0] } }) as IncomingMessage;

describe("a team server's browser sign-in cookies", () => {
  const key = randomBytes(32);

  it("are Secure on an https origin, and HttpOnly, SameSite=Lax, short-lived and under their path", () => {
    const signIn = new BrowserSignIn(settings("https://mcp.lab.example/mcp"), new MemoryState(), key);
    const cookie = signIn.bindCookie("lab_mcp_connect", "sign-in one", 300, "/oauth/protocols/");
    expect(cookie).toMatch(
      /^lab_mcp_connect=[A-Za-z0-9_-]{43}; Max-Age=300; Path=\/oauth\/protocols\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("are not Secure on a plain-http loopback origin, where a browser would drop them", () => {
    const signIn = new BrowserSignIn(settings("http://127.0.0.1:8080/mcp"), new MemoryState(), key);
    expect(signIn.bindCookie("lab_mcp_connect", "sign-in one", 300, "/")).not.toContain("Secure");
  });

  it("bind to one pending sign-in, under this fleet's key only", () => {
    const signIn = new BrowserSignIn(settings("https://mcp.lab.example/mcp"), new MemoryState(), key);
    const cookie = signIn.bindCookie("lab_mcp_connect", "sign-in one", 300, "/");
    expect(signIn.hasBoundCookie(sentBack(cookie), "lab_mcp_connect", "sign-in one")).toBe(true);
    expect(signIn.hasBoundCookie(sentBack(cookie), "lab_mcp_connect", "sign-in two")).toBe(false);
    expect(signIn.hasBoundCookie(sentBack("lab_mcp_connect=x"), "lab_mcp_connect", "sign-in one")).toBe(
      false,
    );
    const otherFleet = new BrowserSignIn(
      settings("https://mcp.lab.example/mcp"),
      new MemoryState(),
      randomBytes(32),
    );
    expect(otherFleet.hasBoundCookie(sentBack(cookie), "lab_mcp_connect", "sign-in one")).toBe(false);
  });
});

describe("where a browser goes after signing in (?to=)", () => {
  it("a path of this server only: another site, however written, goes to / instead", () => {
    expect(safePath("/secret/abc?x=1")).toBe("/secret/abc?x=1");
    for (const elsewhere of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example/",
      "\\\\evil.example/",
      "/\t/evil.example/",
      "/\n/evil.example/",
      "/ok\r\nSet-Cookie: x=1",
      "evil.example",
    ]) {
      expect(safePath(elsewhere), JSON.stringify(elsewhere)).toBe("/");
    }
  });
});
