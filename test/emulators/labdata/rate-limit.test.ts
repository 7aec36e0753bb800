// The request limit per user or app: 100 per 10 s by default, configurable per tenant or lifted;
// x-rate-limit-* headers on every authenticated answer, 429 with Retry-After past the limit, and a
// fresh window once the emulator clock has moved past the old one.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { accessToken, basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
});

beforeEach(() => {
  // A new limit starts every caller on a fresh window.
  emulator.admin.updateSettings("acme", { rateLimit: { requests: 100, windowMs: 10_000 } });
  emulator.admin.updateSettings("acme", { rateLimit: { requests: 5, windowMs: 10_000 } });
});

const me = (authorization: string) => fetchReply(`${api}/users/me`, { authorization });
const rateHeaders = (reply: { headers: Headers }) => ({
  limit: reply.headers.get("x-rate-limit-limit"),
  remaining: reply.headers.get("x-rate-limit-remaining"),
  reset: reply.headers.get("x-rate-limit-reset"),
});

describe("labdata rate limit", () => {
  it("allows 100 requests per 10 s by default and counts them down in the headers", async () => {
    emulator.admin.updateSettings("acme", { rateLimit: { requests: 100, windowMs: 10_000 } });
    const auth = basic(demoOf(emulator).reader.apiKey);
    const first = await me(auth);
    expect(rateHeaders(first)).toEqual({ limit: "100", remaining: "99", reset: "10" });
    for (let i = 2; i <= 100; i++) expect((await me(auth)).status).toBe(200);
    const over = await me(auth);
    expectError(over, 429, "rate_limit_error");
    expect(rateHeaders(over).remaining).toBe("0");
  });

  it("answers 429 with Retry-After and the headers past the limit, and serves again after the window", async () => {
    const auth = basic(demoOf(emulator).user.apiKey);
    for (let i = 1; i <= 5; i++) {
      const reply = await me(auth);
      expect(reply.status).toBe(200);
      expect(rateHeaders(reply).remaining).toBe(String(5 - i));
    }
    const over = await fetchReply(`${api}/dna-sequences`, { authorization: auth });
    expectError(over, 429, "rate_limit_error");
    expect(rateHeaders(over)).toMatchObject({ limit: "5", remaining: "0" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("retry-after")).toBe(over.headers.get("x-rate-limit-reset"));

    emulator.clock.advance(4_000);
    const stillOver = await me(auth);
    expect(stillOver.status).toBe(429);
    expect(Number(stillOver.headers.get("x-rate-limit-reset"))).toBeLessThanOrEqual(6);
    emulator.clock.advance(6_000);
    const fresh = await me(auth);
    expect(fresh.status).toBe(200);
    expect(rateHeaders(fresh)).toMatchObject({ remaining: "4", reset: "10" });
  });

  it("counts per user, whichever credential, and per app, separately", async () => {
    const { user, colleague, app } = demoOf(emulator);
    const extra = emulator.admin.createApiKey("acme", { userId: user.id });
    for (let i = 0; i < 3; i++) await me(basic(user.apiKey));
    for (let i = 0; i < 2; i++) await me(basic(extra.key));
    expect((await me(basic(user.apiKey))).status).toBe(429);
    expect((await me(basic(extra.key))).status).toBe(429);
    expect((await me(basic(colleague.apiKey))).status).toBe(200);
    // The token request counts for the app too.
    const token = await accessToken(api, app.clientId, app.clientSecret);
    const appReply = await me(bearer(token));
    expect(appReply.status).toBe(200);
    expect(rateHeaders(appReply).remaining).toBe("3");
  });

  it("sends no rate headers and never 429 once the limit is lifted", async () => {
    emulator.admin.updateSettings("acme", { rateLimit: null });
    const auth = basic(demoOf(emulator).admin.apiKey);
    for (let i = 0; i < 8; i++) {
      const reply = await me(auth);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-rate-limit-limit")).toBeNull();
    }
  });

  it("puts the headers on refusals of authenticated callers too (403, 404)", async () => {
    const auth = basic(demoOf(emulator).user.apiKey);
    const missing = await fetchReply(`${api}/dna-sequences/seq_nothing`, { authorization: auth });
    expect(missing.status).toBe(404);
    expect(rateHeaders(missing).limit).toBe("5");
  });
});
