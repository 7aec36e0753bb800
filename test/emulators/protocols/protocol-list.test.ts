// GET /api/v3/protocols: keyword search over title, description and steps, the five orders, paging, and
// the 400 answers to bad parameters.
import { beforeAll, describe, expect, it } from "vitest";
import type { ProtocolsEmulator } from "../../../packages/emulators/src/protocols/index.js";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { type ApiError, api, LEGACY, list } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let token: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  token = demoOf(emulator).clientAccessToken;
  // Limits have their own tests; here one token reads many protocols.
  emulator.admin.updateSettings({ rateLimits: { apiPerMinute: 100_000 } });
  const create = (name: string, input: Parameters<ProtocolsEmulator["admin"]["createProtocol"]>[0]): void => {
    ids[name] = emulator.admin.createProtocol(input).id;
  };
  create("inTitle", {
    title: "Capybarin staining of root hairs",
    creator: "mei-chen",
    public: true,
    steps: ["Stain."],
    stats: { views: 5 },
  });
  create("inStep", {
    title: "Root hair imaging",
    creator: "mei-chen",
    public: true,
    steps: ["Fix the roots.", "Add capybarin and image."],
    stats: { views: 9_000_000 },
  });
  create("inDescription", {
    title: "Leaf disc assay",
    creator: "mei-chen",
    public: true,
    description: "Uses capybarin as a tracer.",
    steps: ["Cut discs."],
  });
  create("privateOther", {
    title: "Capybarin secret method",
    creator: "kwame-asante",
    public: false,
    steps: ["Hidden."],
  });
});

describe("search", () => {
  it("finds a key in titles, descriptions and steps, and not in protocols the caller may not see", async () => {
    const body = await list(emulator, token, "filter=public&key=capybarin&order_field=id&order_dir=asc");
    expect(body.items.map((p) => p.id)).toEqual([ids.inTitle, ids.inStep, ids.inDescription]);
    expect(body.pagination).toEqual({ current_page: 1, total_pages: 1, total_results: 3, page_size: 10 });
    expect(body.status_code).toBe(0);
    const mine = await list(emulator, token, "filter=user_private&key=capybarin");
    expect(mine.pagination.total_results).toBe(0);
  });

  it("matches every word of the key, case-insensitively", async () => {
    const body = await list(emulator, token, "filter=public&key=WESTERN%20Blot&page_size=100");
    expect(body.pagination.total_results).toBeGreaterThan(10);
    const lower = await list(emulator, token, "filter=public&key=western%20blot&page_size=100");
    expect(lower.items).toEqual(body.items);
    for (const item of body.items) {
      const full = await api<{ payload: { title: string; description: string; steps: { step: string }[] } }>(
        emulator,
        `/api/v4/protocols/${item.id}`,
        token,
      );
      const text = JSON.stringify(full.body.payload).toLowerCase();
      expect(text).toContain("western");
      expect(text).toContain("blot");
    }
  });

  it("answers an empty page for a key nothing matches", async () => {
    const body = await list(emulator, token, "filter=public&key=xylophonase");
    expect(body).toEqual({
      items: [],
      pagination: { current_page: 1, total_pages: 0, total_results: 0, page_size: 10 },
      status_code: 0,
    });
  });
});

describe("order", () => {
  it("orders by relevance (title matches first) or by activity (the default)", async () => {
    const relevance = await list(emulator, token, "filter=public&key=capybarin&order_field=relevance");
    expect(relevance.items[0]?.id).toBe(ids.inTitle);
    const byActivity = await list(emulator, token, "filter=public&key=capybarin&order_field=activity");
    expect(byActivity.items[0]?.id).toBe(ids.inStep);
    const byDefault = await list(emulator, token, "filter=public&key=capybarin");
    expect(byDefault.items).toEqual(byActivity.items);
    const all = await list(emulator, token, "filter=public&page_size=3");
    expect(all.items[0]?.id).toBe(ids.inStep);
  });

  it("orders by name, id and date in either direction", async () => {
    const byName = (await list(emulator, token, "filter=public&order_field=name&order_dir=asc&page_size=100"))
      .items;
    const names = byName.map((p) => p.title.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const ascending = (await list(emulator, token, "filter=public&order_field=id&order_dir=asc&page_size=50"))
      .items;
    expect(ascending.map((p) => p.id)).toEqual([...ascending.map((p) => p.id)].sort((a, b) => a - b));
    const descending = (
      await list(emulator, token, "filter=public&order_field=id&order_dir=desc&page_size=5")
    ).items;
    expect(descending[0]?.id).toBe(ids.inDescription);

    const byDate = (await list(emulator, token, "filter=public&order_field=date&page_size=100")).items;
    const dates = byDate.map((p) => p.published_on ?? 0);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });
});

describe("paging", () => {
  it("walks every result exactly once, page by page", async () => {
    const whole = await list(emulator, token, "filter=public&key=elisa&order_field=name&page_size=100");
    const total = whole.pagination.total_results;
    expect(total).toBeGreaterThan(14);
    expect(total).toBeLessThanOrEqual(100);
    const pages = Math.ceil(total / 7);
    const seen: number[] = [];
    for (let page = 1; page <= pages; page++) {
      const body = await list(
        emulator,
        token,
        `filter=public&key=elisa&order_field=name&page_size=7&page_id=${page}`,
      );
      expect(body.pagination).toEqual({
        current_page: page,
        total_pages: pages,
        total_results: total,
        page_size: 7,
      });
      seen.push(...body.items.map((p) => p.id));
    }
    expect(seen).toEqual(whole.items.map((p) => p.id));
    const past = await list(emulator, token, `filter=public&key=elisa&page_size=7&page_id=${pages + 1}`);
    expect(past.items).toEqual([]);
    expect(past.pagination.current_page).toBe(pages + 1);
  });

  it("pages 10 at a time by default and at most 100", async () => {
    const body = await list(emulator, token, "filter=public");
    expect(body.items).toHaveLength(10);
    expect(body.pagination.page_size).toBe(10);
    expect((await list(emulator, token, "filter=public&page_size=100")).items).toHaveLength(100);
  });
});

describe("bad parameters", () => {
  it.each([
    ["", 1, "filter is required and must be one of public, user_public, user_private, shared_with_user"],
    [
      "filter=everything",
      1,
      "filter is required and must be one of public, user_public, user_private, shared_with_user",
    ],
    [
      "filter=public&order_field=popularity",
      1302,
      "order_field must be one of activity, relevance, date, name, id",
    ],
    ["filter=public&order_dir=up", 1, "order_dir must be asc or desc"],
    ["filter=public&page_size=0", 1, "page_size must be an integer from 1 to 100"],
    ["filter=public&page_size=101", 1, "page_size must be an integer from 1 to 100"],
    ["filter=public&page_size=1e1", 1, "page_size must be an integer from 1 to 100"],
    ["filter=public&page_id=0", 1, "page_id must be an integer of at least 1"],
    ["filter=public&page_id=-2", 1, "page_id must be an integer of at least 1"],
  ])("answers 400 to '%s'", async (query, code, message) => {
    const reply = await api<ApiError>(emulator, `/api/v3/protocols?${query}`, token);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status_code: code, error_message: message });
  });
});
