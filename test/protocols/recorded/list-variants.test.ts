// protocols_search and protocols_list_my_protocols against the list answers the repository has been
// recorded to send (fact sheet 3.2 to 3.4): three item eras, three envelopes and none, pages numbered
// from 1 (as documented) or from 0 (as observed), next_page as a URL string. Walking has_more and
// next_offset must give every protocol exactly once, in order, with its total.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, callText } from "../../support/clients.js";
import { CLIENT_TOKEN, connectWithClientToken, type Listening, NEVER_SHOWN } from "./connect.js";
import { type FakeRepository, type Seen, startFakeRepository } from "./fake-repository.js";
import { envelopeA, envelopeB, envelopeBare, envelopeC, item2017, item2019, item2026 } from "./fixtures.js";

type Era = (id: number, title: string) => Record<string, unknown>;
type Envelope = "a" | "b" | "c" | "none";

interface Variant {
  name: string;
  era: Era;
  envelope: Envelope;
  /** The page_id of the first page. */
  origin: 0 | 1;
  /** What current_page says: page_id itself, or page_id + 1 ([HQN]: "returns page 2 if page 1 is requested"). */
  currentPage: "page_id" | "page_id + 1";
}

/** The list endpoint of a repository with `count` protocols, paging as the variant does. */
function pagedList(variant: Variant, count: number) {
  const all = Array.from({ length: count }, (_, i) => variant.era(100 + i, `Protocol &amp; number ${i + 1}`));
  return (request: Seen) => {
    const size = Number(request.query.page_size ?? 10);
    const pageId = Number(request.query.page_id ?? variant.origin);
    const place = pageId - variant.origin;
    const items = place < 0 ? [] : all.slice(place * size, place * size + size);
    const totalPages = Math.ceil(count / size);
    const link = (id: number) =>
      `https://www.protocols.io/api/v3/protocols?key=&page_size=${size}&page_id=${id}`;
    const current = variant.currentPage === "page_id" ? pageId : pageId + 1;
    const page = { current, totalPages, total: count, size };
    const next = place + 1 < totalPages ? link(pageId + 1) : null;
    const prev = place > 0 ? link(pageId - 1) : null;
    if (variant.envelope === "a") return { body: envelopeA(items, count, totalPages) };
    if (variant.envelope === "b") return { body: envelopeB(items, { ...page, next, prev }) };
    if (variant.envelope === "c") return { body: envelopeC(items, page) };
    return { body: envelopeBare(items) };
  };
}

const VARIANTS: Variant[] = [
  {
    name: "2017 items, top-level totals, pages from 1",
    era: item2017,
    envelope: "a",
    origin: 1,
    currentPage: "page_id",
  },
  {
    name: "2019 recording: both totals, next_page URLs, pages from 1",
    era: item2019,
    envelope: "b",
    origin: 1,
    currentPage: "page_id",
  },
  {
    name: "current items, pagination only, pages from 0 and current_page = page_id + 1",
    era: item2026,
    envelope: "c",
    origin: 0,
    currentPage: "page_id + 1",
  },
  {
    name: "2019 recording, pages from 0 (seen in prev_page)",
    era: item2019,
    envelope: "b",
    origin: 0,
    currentPage: "page_id",
  },
  {
    name: "no totals and no pagination at all",
    era: item2017,
    envelope: "none",
    origin: 1,
    currentPage: "page_id",
  },
];

const COUNT = 23;

let fake: FakeRepository;
let conn: Listening;

beforeAll(async () => {
  fake = await startFakeRepository();
});

afterAll(async () => {
  await conn?.close();
  await fake?.close();
});

describe.each(VARIANTS)("protocols_search: $name", (variant) => {
  beforeAll(async () => {
    await conn?.close();
    fake.on("list", pagedList(variant, COUNT));
    // A new server each time: the page numbering is learnt once per server.
    conn = await connectWithClientToken(fake);
  });

  it("pages through every protocol exactly once, in order, with the total", async () => {
    const ids: number[] = [];
    let offset: number | null = 0;
    for (let calls = 0; offset !== null && calls < 10; calls++) {
      const page: {
        total: number;
        protocols: Array<{ id: number }>;
        next_offset: number | null;
        has_more: boolean;
      } = await callJson(conn, "protocols_search", { keyword: "protocol", limit: 10, offset });
      ids.push(...page.protocols.map((p) => p.id));
      if (variant.envelope !== "none" || !page.has_more) expect(page.total).toBe(COUNT);
      offset = page.next_offset;
    }
    expect(ids).toEqual(Array.from({ length: COUNT }, (_, i) => 100 + i));
    const sent = fake.seen.filter((r) => r.route === "list").at(-1);
    expect(sent?.authorization).toBe(`Bearer ${CLIENT_TOKEN}`);
  });

  it("finds the numbering when the first call starts mid-list", async () => {
    await conn.close();
    conn = await connectWithClientToken(fake);
    const ids = async (offset: number) =>
      (
        await callJson<{ protocols: Array<{ id: number }> }>(conn, "protocols_search", {
          keyword: "protocol",
          limit: 10,
          offset,
        })
      ).protocols.map((p) => p.id);
    expect(await ids(10)).toEqual(Array.from({ length: 10 }, (_, i) => 110 + i));
    expect(await ids(0)).toEqual(Array.from({ length: 10 }, (_, i) => 100 + i));
  });

  it("reads each protocol's title, people, DOI and visibility", async () => {
    const { text, isError } = await callText(conn, "protocols_search", { keyword: "protocol", limit: 3 });
    expect(isError).toBe(false);
    expect(text).not.toMatch(NEVER_SHOWN);
    const lines = text.split("\n").filter((line) => line.startsWith("- **"));
    expect(lines).toHaveLength(3);
    const first = variant.era(100, "x");
    const who = {
      [item2017.name]: "Ann Lee",
      [item2019.name]: "Bea Kim, Cy Ortiz",
      [item2026.name]: "Dee Ng",
    }[variant.era.name];
    expect(lines[0]).toMatch(new RegExp(`^- \\*\\*Protocol & number 1 \\(100\\)\\*\\*: ${who}; `));
    expect(lines[0]).toContain(`uri ${first.uri}`);
    expect(lines[0]).not.toContain("private");

    const json = await callJson<{ protocols: Array<Record<string, unknown>> }>(conn, "protocols_search", {
      keyword: "protocol",
      limit: 1,
    });
    const [protocol] = json.protocols;
    expect(protocol?.title).toBe("Protocol & number 1");
    expect(protocol?.public).toBe(true);
    expect(protocol?.doi).toBe(String(first.doi).replace("dx.doi.org/", ""));
    expect(JSON.stringify(protocol)).not.toMatch(/"name":""|<strong>|"blocks"/);
  });
});

describe("protocols_search: items the repository repeats", () => {
  it("keeps one of each id", async () => {
    await conn?.close();
    const one = item2019(7, "Once");
    fake.on("list", {
      body: envelopeC([one, one, item2019(8, "Twice")], { current: 1, totalPages: 1, total: 2, size: 10 }),
    });
    conn = await connectWithClientToken(fake);
    const page = await callJson<{ protocols: Array<{ id: number }>; total: number }>(
      conn,
      "protocols_search",
      {
        keyword: "once",
      },
    );
    expect(page.protocols.map((p) => p.id)).toEqual([7, 8]);
    expect(page.total).toBe(2);
  });
});

describe("protocols_list_my_protocols on recorded list answers", () => {
  it("lists private ones (2019 items, int flags) then public ones (current items), in both formats", async () => {
    await conn?.close();
    const mine = [item2019(1, "Mine &amp; private"), item2019(2, "Mine too")].map((p) => ({
      ...p,
      public: 0,
    }));
    const published = [item2026(3, "Published one")];
    fake.on("list", (request) =>
      request.query.filter === "user_private"
        ? { body: envelopeB(mine, { current: 1, totalPages: 1, total: 2, size: 10, next: null, prev: null }) }
        : { body: envelopeC(published, { current: 1, totalPages: 1, total: 1, size: 10 }) },
    );
    conn = await connectWithClientToken(fake);
    const { text } = await callText(conn, "protocols_list_my_protocols", {});
    expect(text).not.toMatch(NEVER_SHOWN);
    expect(text).toContain("Found 3 protocols of yours, private ones first (showing 1–3)");
    const lines = text.split("\n").filter((line) => line.startsWith("- **"));
    expect(lines.map((line) => /\((\d+)\)\*\*/.exec(line)?.[1])).toEqual(["1", "2", "3"]);
    expect(lines[0]).toMatch(/^- \*\*Mine & private \(1\)\*\*: Bea Kim, Cy Ortiz; .*; private; /);
    expect(lines[2]).toMatch(/^- \*\*Published one \(3\)\*\*: Dee Ng; created 2023-11-14 22:13 UTC; uri /);

    const json = await callJson<{ total: number; protocols: Array<{ id: number; public: boolean }> }>(
      conn,
      "protocols_list_my_protocols",
      {},
    );
    expect(json.total).toBe(3);
    expect(json.protocols.map((p) => [p.id, p.public])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });
});
