// Each dialect knob and both presets, through raw HTTPS requests: the answers have the shapes the fact
// sheet's examples show (fixtures/recorded-shapes.ts, sections named there), and the rules stay the same.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DialectPatch } from "../../../packages/emulators/src/protocols/index.js";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import {
  admin,
  api,
  authorizePath,
  browse,
  CookieJar,
  exchangeCode,
  LEGACY,
  signInAs,
  tokenRequest,
} from "../../support/protocols-http.js";
import {
  DRAFT_JS,
  ERROR_V3_EXPIRED,
  ERROR_V4,
  INVALID_TOKEN_TEXT,
  LIST_ENVELOPE_2019,
  LIST_ENVELOPE_TOP_LEVEL,
  LIST_ITEM_2019,
  TOKEN_RESPONSE,
  V4_PAYLOAD,
  V4_STEP,
  WARNING_ANSWER,
} from "./fixtures/recorded-shapes.js";
import { expectSameShape, expectShapeIncludes } from "./shape.js";

// Answers are checked field by field below; `any` keeps those reads short.
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of raw HTTP answers
type Json = Record<string, any>;

const emulator = useProtocolsEmulator(LEGACY);
let token: string;
let protocolId: number;
let privateOfOther: number;
const STEPS = [
  { step: "Add 200 µL of lysis buffer & mix.", section: "Lysis <cold>" },
  { step: "Incubate 5 min at room temperature.", section: "Lysis <cold>" },
  { step: "Centrifuge for 15 min.", section: "Spin" },
  { step: "Keep the supernatant.", section: "Spin" },
  { step: "Add 1 mL of ethanol.", section: "Wash" },
  { step: "Spin 30 s.", section: "Wash" },
  { step: "Dry the pellet.", section: null },
];
const LINKED_TEXTS = STEPS.map((s) => s.step);

beforeAll(async () => {
  token = demoOf(emulator).clientAccessToken;
  const owner = demoOf(emulator).application.owner;
  protocolId = emulator.admin.createProtocol({
    title: "RNA & DNA <fast> clean-up zebrafinch",
    creator: owner,
    public: true,
    description: "Add 200 µL buffer.\nWait 5 min.",
    guidelines: "Work on ice.",
    steps: STEPS,
    authors: [
      { name: "Ada Okafor", affiliation: "Lab A", username: owner },
      { name: "Maria de la Cruz", affiliation: "Lab B" },
    ],
    versionCount: 3,
  }).id;
  privateOfOther = emulator.admin.createProtocol({ title: "Hidden", creator: "mei-chen", public: false }).id;
});

beforeEach(async () => {
  await setDialect({ preset: "legacy" });
});

/** Legacy with the knobs given, unless a preset is named. */
async function setDialect(patch: DialectPatch): Promise<void> {
  const reply = await admin(emulator, "PUT", "/dialect", { preset: "legacy", ...patch });
  expect(reply.status).toBe(200);
}

async function get(
  path: string,
  bearer: string | undefined = token,
): Promise<{ status: number; body: Json }> {
  const reply = await api<Json>(emulator, path, bearer);
  return { status: reply.status, body: reply.body };
}

const search = (query = "") => get(`/api/v3/protocols?filter=public&key=zebrafinch${query}`);
const protocol = (query = "") => get(`/api/v4/protocols/${protocolId}${query}`);
const steps = (query = "") => get(`/api/v4/protocols/${protocolId}/steps${query}`);

/** Step texts in the order the previous_guid links give. */
function walk(list: Json[]): string[] {
  const byPrevious = new Map(list.map((s) => [s.previous_guid as string | null, s]));
  const order: string[] = [];
  for (let s = byPrevious.get(null); s && order.length <= list.length; s = byPrevious.get(s.guid))
    order.push(s.step);
  return order;
}

function draftText(value: string): string {
  return (JSON.parse(value) as { blocks: { text: string }[] }).blocks.map((b) => b.text).join("\n");
}

describe("legacy preset: the shapes the emulator always sent", () => {
  it("lists with a pagination object, booleans and names", async () => {
    const { body } = await search();
    expect(Object.keys(body).sort()).toEqual(["items", "pagination", "status_code"]);
    expect(body.pagination).toEqual({ current_page: 1, total_pages: 1, total_results: 1, page_size: 10 });
    expect(body.items[0]).toMatchObject({
      title: "RNA & DNA <fast> clean-up zebrafinch",
      public: true,
      creator: { name: "Ada Okafor" },
      description: "Add 200 µL buffer.\nWait 5 min.",
    });
  });

  it("returns the protocol with its steps in linked order, plain text", async () => {
    const { body } = await protocol();
    expect(body.payload.steps.map((s: Json) => s.step)).toEqual(LINKED_TEXTS);
    expect(body.payload.steps[0]).toMatchObject({ previous_id: null, previous_guid: null, number: "1" });
    expect(body.payload.steps[0].section).toBe("Lysis <cold>");
    expect(body.payload.doi).toMatch(/^dx\.doi\.org\/10\.17504\/protocols\.io\.[a-z0-9]+$/);
    expect(body.payload.title_html).toBeUndefined();
    expect((await protocol("?content_format=json")).body.payload.description).toBe(
      "Add 200 µL buffer.\nWait 5 min.",
    );
  });
});

describe("recorded preset: every recorded shape at once", () => {
  beforeEach(async () => {
    await setDialect({ preset: "recorded" });
  });

  it("lists in the 2019 envelope, counting pages from 1, next_page a URL (§3.2 b, §3.4)", async () => {
    const first = await get("/api/v3/protocols?filter=public&page_size=2");
    expectSameShape({ ...first.body, items: [] }, LIST_ENVELOPE_2019);
    expect(first.body.pagination).toMatchObject({ current_page: 1, prev_page: null, page_size: 2, first: 0 });
    const next = new URL(first.body.pagination.next_page);
    expect(next.searchParams.get("page_id")).toBe("2");
    const second = await get(`${next.pathname}${next.search}`);
    expect(second.body.pagination.current_page).toBe(2);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(new URL(second.body.pagination.prev_page).searchParams.get("page_id")).toBe("1");
  });

  it("sends v3 list items with 0/1 flags and named people (§3.3)", async () => {
    const { body } = await search();
    expectShapeIncludes(body.items[0], LIST_ITEM_2019);
    expect(body.items[0].public).toBe(1);
    expect(body.items[0].title).toBe("RNA &amp; DNA &lt;fast&gt; clean-up zebrafinch");
  });

  it("sends the v4 payload: Draft.js text, /vN DOI, split people with a blank author, steps null (§4.1)", async () => {
    const { body } = await protocol();
    const payload = body.payload;
    expectShapeIncludes({ ...payload, steps: V4_PAYLOAD.steps }, V4_PAYLOAD);
    expect(payload.steps).toBeNull();
    expect(payload.public).toBe(true);
    expect(payload.doi).toMatch(/^dx\.doi\.org\/10\.17504\/protocols\.io\.[a-z0-9]+\/v3$/);
    expect(payload.title_html).toBe("<p>RNA &amp; DNA &lt;fast&gt; clean-up zebrafinch</p>");
    expect(payload.creator).toEqual({
      first_name: "Ada",
      last_name: "Okafor",
      username: "ada-okafor",
      affiliation: expect.any(String),
    });
    expect(payload.authors).toEqual([
      { first_name: "Ada", last_name: "Okafor", username: "ada-okafor", affiliation: "Lab A" },
      { first_name: "Maria", last_name: "de la Cruz", username: null, affiliation: "Lab B" },
      { first_name: "", last_name: "", username: null, affiliation: null },
    ]);
    const description = JSON.parse(payload.description);
    expectSameShape({ ...description, entityMap: {} }, { ...DRAFT_JS, entityMap: {} });
    expect(draftText(payload.description)).toBe("Add 200 µL buffer.\nWait 5 min.");
    expect(Object.values(description.entityMap)).toEqual([
      { type: "amount", mutability: "IMMUTABLE", data: { amount: "200", unit: 2, title: "" } },
      { type: "duration", mutability: "IMMUTABLE", data: { duration: "300", title: "" } },
    ]);
    expect(description.blocks[0].entityRanges).toEqual([{ offset: 4, length: 6, key: 0 }]);
  });

  it("sends steps under payload, shuffled but linked, numbered, sections in <p> (§5.1-5.3)", async () => {
    const { body } = await steps();
    const list = body.payload as Json[];
    for (const step of list) expectSameShape(step, V4_STEP);
    expect(list.map((s) => draftText(s.step))).not.toEqual(LINKED_TEXTS);
    expect(walk(list).map(draftText)).toEqual(LINKED_TEXTS);
    const first = list.find((s) => s.previous_guid === null);
    expect(first).toMatchObject({ previous_id: 0, number: "1", section: "<p>Lysis &lt;cold&gt;</p>" });
    expect(list.find((s) => s.number === "7")?.section).toBeNull();
  });

  it("honours content_format=markdown and html (§4.1)", async () => {
    const markdown = (await steps("?content_format=markdown")).body.payload as Json[];
    expect(walk(markdown)[0]).toBe("Add 200 µL of lysis buffer & mix.");
    const html = (await protocol("?content_format=html")).body.payload;
    expect(html.description).toBe(
      '<div class = "text-blocks"><p>Add 200 µL buffer.</p><p>Wait 5 min.</p></div>',
    );
    expect(JSON.parse((await protocol("?content_format=md")).body.payload.description)).toHaveProperty(
      "blocks",
    );
  });

  it("answers bad and expired tokens with HTTP 400 and 1218 / 1219 (§10)", async () => {
    const invalid = await get("/api/v3/protocols?filter=public", "f".repeat(64));
    expect(invalid).toEqual({ status: 400, body: { status_code: 1218, error_message: INVALID_TOKEN_TEXT } });
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 10 * 24 * 3600 });
    const oauth = await signInAs(emulator, "mei-chen", demoOf(emulator).application);
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 31_536_000 });
    const warned = await get(
      "/api/v3/protocols?filter=user_private&key=nothing-matches-this",
      oauth.access_token,
    );
    expectSameShape({ ...warned.body, items: [] }, { ...LIST_ENVELOPE_2019, ...WARNING_ANSWER });
    expect(warned.body.warning_message).toBe("Your access token expires in 10 days");
    emulator.clock.advance(11 * 24 * 3600 * 1000);
    const expired = await get("/api/v3/protocols?filter=public", oauth.access_token);
    expect(expired).toEqual({ status: 400, body: ERROR_V3_EXPIRED });
    const expiredV4 = await get(`/api/v4/protocols/${protocolId}`, oauth.access_token);
    expect(expiredV4).toEqual({ status: 400, body: { status_code: 1219, status_text: "token is expired" } });
  });

  it("words v3 errors with error_message and v4 errors with status_text (§1, §10)", async () => {
    const v4 = await get("/api/v4/protocols/999999999");
    expect(v4.status).toBe(404);
    expectSameShape(v4.body, ERROR_V4);
    const v3 = await get("/api/v3/protocols?filter=everything");
    expect(v3.status).toBe(400);
    expectSameShape(v3.body, ERROR_V3_EXPIRED);
  });

  it("answers the token endpoint as documented (§2.2) and takes redirect_url (§2.1)", async () => {
    const app = demoOf(emulator).application;
    emulator.admin.updateSettings({ browserSessionUser: "tomas-garcia" });
    const jar = new CookieJar();
    const query = {
      client_id: app.clientId,
      redirect_url: app.redirectUri,
      response_type: "code",
      state: "s1",
    };
    const consent = await browse(emulator, jar, authorizePath(query));
    expect(consent.status).toBe(200);
    const ticket = /name="ticket" value="([^"]+)"/.exec(consent.body)?.[1] ?? "";
    const approved = await browse(emulator, jar, "/api/v3/oauth/authorize", { ticket, decision: "approve" });
    const redirect = new URL(approved.headers.get("location") ?? "");
    expect(`${redirect.origin}${redirect.pathname}`).toBe(app.redirectUri);
    const exchanged = await exchangeCode(emulator, app, redirect.searchParams.get("code") ?? "");
    expect(exchanged.status).toBe(200);
    expectSameShape(exchanged.body, { ...TOKEN_RESPONSE, user: { ...TOKEN_RESPONSE.user, affiliation: "" } });
    expect(exchanged.body).toMatchObject({
      token_type: "bearer",
      expires_in: "31536000",
      scope: "readwrite",
    });
    expect((exchanged.body as Json).user).toMatchObject({ username: "tomas-garcia", name: "Tomás García" });
    const both = { ...query, redirect_uri: "https://elsewhere.example/cb" };
    expect((await browse(emulator, new CookieJar(), authorizePath(both))).status).toBe(400);
    emulator.admin.updateSettings({ browserSessionUser: null });
  });

  it("keeps the rules: private protocols of others stay hidden, limits and PDFs work", async () => {
    expect((await get(`/api/v4/protocols/${privateOfOther}`)).status).toBe(404);
    const uri = (await protocol()).body.payload.uri;
    const pdf = await api(emulator, `/view/${uri}.pdf`, token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    emulator.admin.updateSettings({ rateLimits: { apiPerMinute: 1 } });
    try {
      emulator.admin.resetRateLimits();
      await get("/api/v3/session/profile");
      const limited = await get(`/api/v4/protocols/${protocolId}`);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        status_code: 1429,
        status_text: expect.stringMatching(/^Too many requests/),
      });
    } finally {
      emulator.admin.updateSettings({ rateLimits: { apiPerMinute: 100 } });
      emulator.admin.resetRateLimits();
    }
  });
});

describe("each knob on its own (from legacy)", () => {
  it('flags: true, 1 and "1" (§3.3, §12)', async () => {
    for (const [flags, value] of [
      ["boolean", true],
      ["integer", 1],
      ["string", "1"],
    ] as const) {
      await setDialect({ flags });
      expect((await search()).body.items[0].public).toBe(value);
      expect((await protocol()).body.payload.public).toBe(value);
    }
    await setDialect({ flags: "by-version" });
    expect((await search()).body.items[0].public).toBe(1);
    expect((await protocol()).body.payload.public).toBe(true);
  });

  it("listEra: 2019, top-level totals, absent totals (§3.2)", async () => {
    await setDialect({ listEra: "2019" });
    expectSameShape({ ...(await search()).body, items: [] }, LIST_ENVELOPE_2019);
    await setDialect({ listEra: "top-level" });
    expectSameShape({ ...(await search()).body, items: [] }, LIST_ENVELOPE_TOP_LEVEL);
    await setDialect({ listEra: "absent" });
    expect(Object.keys((await search()).body).sort()).toEqual(["items", "status_code"]);
  });

  it("pageOrigin: page_id 0 is the first page, or refused (§3.4)", async () => {
    expect((await get("/api/v3/protocols?filter=public&page_id=0")).status).toBe(400);
    const firstOfOne = (await get("/api/v3/protocols?filter=public&page_size=1&page_id=1")).body;
    await setDialect({ pageOrigin: 0 });
    const zero = (await get("/api/v3/protocols?filter=public&page_size=1&page_id=0")).body;
    // current_page still counts from 1 ([HQN]: page_id 2 answered current_page 3).
    expect(zero.pagination.current_page).toBe(1);
    expect(zero.items[0].id).toBe(firstOfOne.items[0].id);
    const second = (await get("/api/v3/protocols?filter=public&page_size=1&page_id=1")).body;
    expect(second.pagination.current_page).toBe(2);
    expect(second.items[0].id).not.toBe(firstOfOne.items[0].id);
    expect((await get("/api/v3/protocols?filter=public&page_size=1")).body.pagination.current_page).toBe(1);
  });

  it("people: split without name, with a blank author (§4.1, §12)", async () => {
    await setDialect({ people: "split" });
    const item = (await search()).body.items[0];
    expect(item.creator).not.toHaveProperty("name");
    expect(item.creator).toMatchObject({ first_name: "Ada", last_name: "Okafor" });
    expect(item.authors.at(-1)).toEqual({ first_name: "", last_name: "", username: null, affiliation: null });
  });

  it("doi: /vN on the v4 protocol only (§4.1)", async () => {
    await setDialect({ doi: "versioned" });
    expect((await protocol()).body.payload.doi).toMatch(/\/v3$/);
    expect((await search()).body.items[0].doi).not.toMatch(/\/v\d+$/);
  });

  it("markup: entities in titles, <p> sections (§4.1, §5.1)", async () => {
    await setDialect({ markup: "html" });
    const payload = (await protocol()).body.payload;
    expect(payload.title).toBe("RNA &amp; DNA &lt;fast&gt; clean-up zebrafinch");
    expect(payload.steps[0].section).toBe("<p>Lysis &lt;cold&gt;</p>");
  });

  it("richText: a default format, overridden by content_format (§6)", async () => {
    await setDialect({ richText: "html" });
    expect((await protocol()).body.payload.guidelines).toBe(
      '<div class = "text-blocks"><p>Work on ice.</p></div>',
    );
    expect((await protocol("?content_format=json")).body.payload.guidelines).toBe(
      JSON.stringify({
        blocks: [
          {
            key: "b0000",
            text: "Work on ice.",
            type: "unstyled",
            depth: 0,
            inlineStyleRanges: [],
            entityRanges: [],
            data: {},
          },
        ],
        entityMap: {},
      }),
    );
    await setDialect({ richText: "markdown" });
    expect((await protocol()).body.payload.description).toBe("Add 200 µL buffer.\n\nWait 5 min.");
    await setDialect({ richText: "draftjs" });
    expect(draftText((await search()).body.items[0].description)).toBe("Add 200 µL buffer.\nWait 5 min.");
  });

  it("protocolKey and protocolSteps: protocol, steps null or absent (§4, §12)", async () => {
    await setDialect({ protocolKey: "protocol", protocolSteps: "absent" });
    const body = (await protocol()).body;
    expect(body).not.toHaveProperty("payload");
    expect(body.protocol.id).toBe(protocolId);
    expect(body.protocol).not.toHaveProperty("steps");
    await setDialect({ protocolSteps: "null" });
    expect((await protocol()).body.payload.steps).toBeNull();
  });

  it("stepsKey, stepOrder and firstPreviousId (§5.1-5.3)", async () => {
    await setDialect({ stepsKey: "steps", stepOrder: "shuffled", firstPreviousId: 0 });
    const body = (await steps()).body;
    expect(body).not.toHaveProperty("payload");
    expect(body.steps.map((s: Json) => s.step)).not.toEqual(LINKED_TEXTS);
    expect(walk(body.steps)).toEqual(LINKED_TEXTS);
    expect([...body.steps].sort((a, b) => Number(a.number) - Number(b.number)).map((s) => s.step)).toEqual(
      LINKED_TEXTS,
    );
    expect(body.steps.find((s: Json) => s.previous_guid === null).previous_id).toBe(0);
    // The same shuffle every time, so tests can rely on it.
    expect((await steps()).body).toEqual(body);
  });

  it("errorKey: status_text everywhere, or by API version (§1, §10)", async () => {
    await setDialect({ errorKey: "status_text" });
    expect((await get("/api/v3/protocols?filter=nope")).body).toEqual({
      status_code: 1,
      status_text: expect.stringMatching(/^filter/),
    });
    await setDialect({ errorKey: "by-version" });
    expect((await get("/api/v3/protocols?filter=nope")).body).toHaveProperty("error_message");
    expect((await get("/api/v4/protocols/999999999")).body).toEqual({
      status_code: 1404,
      status_text: "Protocol not found.",
    });
  });

  it("authErrors: HTTP 400 with the recorded texts, on the API and the PDF view (§10)", async () => {
    await setDialect({ authErrors: "http400" });
    const reply = await api(emulator, "/api/v3/session/profile", "f".repeat(64));
    expect(reply.status).toBe(400);
    expect(reply.headers.get("www-authenticate")).toBeNull();
    expect(reply.body).toEqual({ status_code: 1218, error_message: INVALID_TOKEN_TEXT });
    expect((await api(emulator, "/api/v3/session/profile")).status).toBe(400);
    const uri = (await protocol()).body.payload.uri;
    expect((await api(emulator, `/view/${uri}.pdf`, "f".repeat(64))).status).toBe(400);
  });

  it("expiryWarning: only within 30 days of expiry, never for client tokens (§1)", async () => {
    await setDialect({ expiryWarning: true });
    expect((await get("/api/v3/session/profile")).body).not.toHaveProperty("warning_code");
    const yearLong = await signInAs(emulator, "priya-natarajan", demoOf(emulator).application);
    expect((await get("/api/v3/session/profile", yearLong.access_token)).body).not.toHaveProperty(
      "warning_code",
    );
    emulator.clock.advance(340 * 24 * 3600 * 1000);
    expect((await get("/api/v3/session/profile", yearLong.access_token)).body).toMatchObject({
      user: { username: "priya-natarajan" },
      status_code: 0,
      warning_code: 1,
      warning_message: "Your access token expires in 25 days",
    });
  });

  it("tokenResponse and redirectParam stay the spec's in legacy (§2.1, §2.2)", async () => {
    const app = demoOf(emulator).application;
    const query = { client_id: app.clientId, redirect_url: app.redirectUri, response_type: "code" };
    expect((await browse(emulator, new CookieJar(), authorizePath(query))).status).toBe(400);
    const tokens = await signInAs(emulator, "kwame-asante", app);
    expect(Object.keys(tokens).sort()).toEqual(["access_token", "expires_in", "refresh_token", "token_type"]);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 31_536_000 });
    await setDialect({ tokenResponse: "recorded" });
    const refreshed = await tokenRequest(emulator, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expectSameShape(refreshed.body, { ...TOKEN_RESPONSE, user: { ...TOKEN_RESPONSE.user, affiliation: "" } });
  });
});
