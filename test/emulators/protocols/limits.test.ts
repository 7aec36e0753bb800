// The repository's rate limits on the emulator clock: 100 API requests per minute per user (per address
// without a valid token), PDFs 5 per minute per signed-in user and 3 per minute per anonymous address;
// 429 beyond, with Retry-After and the error body; configurable and resettable through the admin API.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { type ApiError, admin, api, LEGACY, signInAs } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let ada: string;
let mei: string;
let pdfPath: string;

beforeAll(async () => {
  const demo = demoOf(emulator);
  ada = demo.clientAccessToken;
  mei = (await signInAs(emulator, "mei-chen", demo.application)).access_token;
  pdfPath = `/view/${demo.sampleProtocol.uri}.pdf`;
});

beforeEach(() => {
  emulator.admin.updateSettings({
    rateLimits: { apiPerMinute: 100, pdfSignedInPerMinute: 5, pdfAnonymousPerMinute: 3 },
  });
  emulator.admin.resetRateLimits();
});

function expect429(
  reply: { status: number; headers: Headers; body: unknown },
  what: string,
  limit: number,
): number {
  expect(reply.status).toBe(429);
  const retryAfter = Number(reply.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(reply.body).toEqual({
    status_code: 1429,
    error_message: `Too many requests: ${what} are limited to ${limit} per minute. Retry in ${retryAfter} s.`,
  });
  return retryAfter;
}

describe("API limit", () => {
  it("allows 100 requests a minute per user, then 429 with Retry-After until the window frees", async () => {
    for (let i = 1; i <= 100; i++) {
      const reply = await api(emulator, "/api/v3/session/profile", ada);
      expect(reply.status, `request ${i}`).toBe(200);
      expect(reply.headers.get("x-rate-limit-remaining")).toBe(String(100 - i));
    }
    const first = expect429(
      await api<ApiError>(emulator, "/api/v3/protocols?filter=public", ada),
      "API requests",
      100,
    );
    expect(first).toBeGreaterThanOrEqual(50);

    // Per user: another user's token is not affected.
    expect((await api(emulator, "/api/v3/session/profile", mei)).status).toBe(200);

    emulator.clock.advance(20_000);
    const later = expect429(await api(emulator, "/api/v3/session/profile", ada), "API requests", 100);
    expect(later).toBeLessThanOrEqual(40);
    expect(later).toBeGreaterThanOrEqual(30);

    emulator.clock.advance(later * 1000);
    expect((await api(emulator, "/api/v3/session/profile", ada)).status).toBe(200);
  });

  it("counts requests without a valid token per address", async () => {
    for (let i = 0; i < 100; i++) expect((await api(emulator, "/api/v3/session/profile")).status).toBe(401);
    expect429(await api(emulator, "/api/v3/session/profile", "0".repeat(64)), "API requests", 100);
    expect((await api(emulator, "/api/v3/session/profile", ada)).status).toBe(200);
  });
});

describe("PDF limits", () => {
  it("allows 5 PDFs a minute per signed-in user, apart from the API limit and other users", async () => {
    for (let i = 0; i < 5; i++) expect((await api(emulator, pdfPath, ada)).status).toBe(200);
    expect429(await api(emulator, pdfPath, ada), "PDF downloads", 5);
    expect((await api(emulator, pdfPath, mei)).status).toBe(200);
    const apiCall = await api(emulator, "/api/v3/session/profile", ada);
    expect(apiCall.status).toBe(200);
    expect(apiCall.headers.get("x-rate-limit-remaining")).toBe("99");
    emulator.clock.advance(60_000);
    expect((await api(emulator, pdfPath, ada)).status).toBe(200);
  });

  it("allows 3 PDFs a minute per anonymous address, apart from signed-in users", async () => {
    for (let i = 0; i < 3; i++) expect((await api(emulator, pdfPath)).status).toBe(200);
    const retryAfter = expect429(await api(emulator, pdfPath), "PDF downloads", 3);
    expect((await api(emulator, pdfPath, ada)).status).toBe(200);
    emulator.clock.advance(retryAfter * 1000);
    expect((await api(emulator, pdfPath)).status).toBe(200);
  });
});

describe("limit settings", () => {
  it("takes new limits and a reset through the admin API", async () => {
    const patched = await admin<{ rateLimits: Record<string, number> }>(emulator, "PATCH", "/settings", {
      rateLimits: { apiPerMinute: 3, pdfAnonymousPerMinute: 1 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.rateLimits).toEqual({
      apiPerMinute: 3,
      pdfSignedInPerMinute: 5,
      pdfAnonymousPerMinute: 1,
    });
    for (let i = 0; i < 3; i++)
      expect((await api(emulator, "/api/v3/session/profile", ada)).status).toBe(200);
    expect429(await api(emulator, "/api/v3/session/profile", ada), "API requests", 3);
    expect((await api(emulator, pdfPath)).status).toBe(200);
    expect429(await api(emulator, pdfPath), "PDF downloads", 1);

    expect((await admin(emulator, "POST", "/rate-limits/reset")).status).toBe(204);
    expect((await api(emulator, "/api/v3/session/profile", ada)).status).toBe(200);
    expect((await api(emulator, pdfPath)).status).toBe(200);
  });
});
