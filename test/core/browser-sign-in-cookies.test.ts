// The cookies of a team server's browser sign-in (core/pages/browser-sign-in.ts) as a browser gets them:
// `__Host-` (Secure, Path=/, no Domain: no sibling site can write one), HttpOnly, SameSite=Lax, on an
// https origin and on plain-http loopback alike (the flows themselves are in test/team and
// test/browser); a cookie binds one browser to one pending sign-in by a random value whose digest the
// shared state keeps: no good for another sign-in, nor in another fleet, nor once unbound.
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

  for (const audience of ["https://mcp.lab.example/mcp", "http://127.0.0.1:8080/mcp"]) {
    it(`are __Host- cookies on ${new URL(audience).protocol}, HttpOnly, SameSite=Lax and short-lived`, async () => {
      const signIn = new BrowserSignIn(settings(audience), new MemoryState(), key);
      const cookie = await signIn.bindCookie("lab_mcp_connect", "sign-in one", 300);
      expect(cookie).toMatch(
        /^__Host-lab_mcp_connect=[A-Za-z0-9_-]{43}; Max-Age=300; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
      expect(cookie).not.toMatch(/Domain=/i);
    });
  }

  it("bind one browser to one pending sign-in, by a random value (not one derived from the sign-in)", async () => {
    const state = new MemoryState();
    const signIn = new BrowserSignIn(settings("https://mcp.lab.example/mcp"), state, key);
    const first = await signIn.bindCookie("lab_mcp_connect", "sign-in one", 300);
    expect(await signIn.hasBoundCookie(sentBack(first), "lab_mcp_connect", "sign-in one")).toBe(true);
    expect(await signIn.hasBoundCookie(sentBack(first), "lab_mcp_connect", "sign-in two")).toBe(false);
    // Without the prefix, the name a sibling site can write under the parent domain, it counts for nothing.
    const unprefixed = first.replace("__Host-", "");
    expect(await signIn.hasBoundCookie(sentBack(unprefixed), "lab_mcp_connect", "sign-in one")).toBe(false);

    // The same sign-in bound again (another browser): a new value, and the first browser's is no good.
    const second = await signIn.bindCookie("lab_mcp_connect", "sign-in one", 300);
    expect(second.split(";")[0]).not.toBe(first.split(";")[0]);
    expect(await signIn.hasBoundCookie(sentBack(first), "lab_mcp_connect", "sign-in one")).toBe(false);
    expect(await signIn.hasBoundCookie(sentBack(second), "lab_mcp_connect", "sign-in one")).toBe(true);

    const otherFleet = new BrowserSignIn(settings("https://mcp.lab.example/mcp"), new MemoryState(), key);
    expect(await otherFleet.hasBoundCookie(sentBack(second), "lab_mcp_connect", "sign-in one")).toBe(false);

    expect(await signIn.unbind("lab_mcp_connect", "sign-in one")).toMatch(
      /^__Host-lab_mcp_connect=; Max-Age=0;/,
    );
    expect(await signIn.hasBoundCookie(sentBack(second), "lab_mcp_connect", "sign-in one")).toBe(false);
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
