// GET /view/<protocol_uri>.pdf: a real PDF (pages, text, footers) for public protocols to anyone and for
// private ones to tokens that may see them; JSON errors otherwise. The PDF limits have their own tests.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { type ApiError, api, type Fixture, LEGACY, seedFixture } from "../../support/protocols-http.js";
import { pageObjectCount, pageTreeCount, shownText, squash } from "./pdf-bytes.js";

const emulator = useProtocolsEmulator(LEGACY);
let fx: Fixture;

beforeAll(async () => {
  emulator.admin.updateSettings({
    rateLimits: { pdfAnonymousPerMinute: 10_000, pdfSignedInPerMinute: 10_000 },
  });
  fx = await seedFixture(emulator);
});

async function download(
  uri: string,
  token?: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${emulator.url}/view/${uri}.pdf`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function uriOf(id: number, token: string): Promise<string> {
  return (await api<{ payload: { uri: string } }>(emulator, `/api/v4/protocols/${id}`, token)).body.payload
    .uri;
}

function expectPdf(pdf: { status: number; headers: Headers; bytes: Buffer }): void {
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  expect(pdf.headers.get("content-length")).toBe(String(pdf.bytes.length));
  expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.bytes.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
}

describe("PDF content", () => {
  it("renders a long public protocol for an anonymous caller: title, authors, DOI, numbered steps, pages", async () => {
    const { sampleProtocol } = demoOf(emulator);
    const pdf = await download(sampleProtocol.uri);
    expectPdf(pdf);
    const full = await api<{
      payload: { title: string; doi: string; authors: { name: string }[]; steps: { step: string }[] };
    }>(emulator, `/api/v4/protocols/${sampleProtocol.id}`, fx.clientToken);
    const { title, doi, authors, steps } = full.body.payload;

    const pages = pageObjectCount(pdf.bytes);
    expect(pages).toBeGreaterThan(1);
    expect(pageTreeCount(pdf.bytes)).toBe(pages);

    const text = squash(shownText(pdf.bytes));
    expect(text).toContain(squash(title));
    expect(text).toContain(squash(`DOI: ${doi}`));
    for (const author of authors) expect(text).toContain(squash(author.name));
    expect(text).toContain("Steps");
    steps.forEach((step, i) => {
      expect(text).toContain(`${i + 1}.${squash(step.step).slice(0, 40)}`);
    });
    for (let page = 1; page <= pages; page++) expect(text).toContain(`page${page}of${pages}`);
  });

  it("fits a short protocol on one page and spreads forty long steps over many", async () => {
    const short = emulator.admin.createProtocol({
      title: "Short buffer prep",
      creator: "lab-owner",
      public: true,
      steps: ["Weigh 5.84 g NaCl.", "Dissolve in 1 L water."],
    });
    const shortPdf = await download(short.uri);
    expectPdf(shortPdf);
    expect(pageObjectCount(shortPdf.bytes)).toBe(1);
    expect(squash(shownText(shortPdf.bytes))).toContain("page1of1");

    const paragraph = "Mix gently and incubate while keeping the sample on ice. ".repeat(25);
    const long = emulator.admin.createProtocol({
      title: "Very long protocol",
      creator: "lab-owner",
      public: true,
      steps: Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: ${paragraph}`),
    });
    const longPdf = await download(long.uri);
    const pages = pageObjectCount(longPdf.bytes);
    expect(pages).toBeGreaterThanOrEqual(10);
    expect(pageTreeCount(longPdf.bytes)).toBe(pages);
    expect(squash(shownText(longPdf.bytes))).toContain(`page${pages}of${pages}`);
  });

  it("prints characters outside the standard fonts' encoding as readable text", async () => {
    const protocol = emulator.admin.createProtocol({
      title: "Symbols",
      creator: "lab-owner",
      public: true,
      steps: ["Use ≥ 5 µL of α-tubulin antibody at 37 °C → then wash."],
    });
    const text = shownText((await download(protocol.uri)).bytes);
    expect(text).toContain(">= 5 µL of alpha-tubulin antibody at 37 °C -> then wash.");
  });
});

describe("PDF access", () => {
  it("serves private protocols only to tokens that may see them, and answers 404 JSON otherwise", async () => {
    const uri = await uriOf(fx.ids.ownerPrivate, fx.clientToken);
    expectPdf(await download(uri, fx.clientToken));
    for (const token of [undefined, fx.oauthToken]) {
      const denied = await fetch(`${emulator.url}/view/${uri}.pdf`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(denied.status).toBe(404);
      expect(await denied.json()).toEqual({ status_code: 1404, error_message: "Protocol not found." });
    }
    const sharedUri = await uriOf(fx.ids.memberSharedWithOwner, fx.clientToken);
    expectPdf(await download(sharedUri, fx.clientToken));
  });

  it("refuses an invalid token even for a public protocol, and unknown URIs and methods", async () => {
    const { sampleProtocol } = demoOf(emulator);
    const invalid = await api<ApiError>(emulator, `/view/${sampleProtocol.uri}.pdf`, "0".repeat(64));
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ status_code: 1218, error_message: "Invalid access token." });
    expect((await api(emulator, "/view/no-such-protocol-abcdefg.pdf")).status).toBe(404);
    expect((await api(emulator, `/view/${sampleProtocol.id}.pdf`)).status).toBe(404);
    expect((await api(emulator, `/view/${sampleProtocol.uri}`)).status).toBe(404);
    const post = await api<ApiError>(emulator, `/view/${sampleProtocol.uri}.pdf`, undefined, {
      method: "POST",
    });
    expect(post.status).toBe(405);
    expect(post.body.status_code).toBe(1405);
  });
});
