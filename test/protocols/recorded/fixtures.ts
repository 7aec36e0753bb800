// Answers of the real protocol repository, copied from the recorded examples and shape sketches of the
// fact sheet (shared/reference/protocols-io-api.md; the section and its source tags are named on each).
// The fact sheet's own values are neutral inventions; only field names and value TYPES are the record.
// Where it shows a shape but no values, the values here are invented to match the types it gives.

/** A Draft.js raw document serialised into a string, as rich text arrives by default (section 6). */
export function draftString(
  blocks: Array<{
    text: string;
    type?: string;
    entityRanges?: Array<{ offset: number; length: number; key: number }>;
  }>,
  entityMap: Record<string, { type: string; mutability?: string; data: Record<string, unknown> }> = {},
): string {
  return JSON.stringify({
    blocks: blocks.map((block, i) => ({
      key: `b${i}`,
      text: block.text,
      type: block.type ?? "unstyled",
      depth: 0,
      inlineStyleRanges: [],
      entityRanges: block.entityRanges ?? [],
      data: {},
    })),
    entityMap: Object.fromEntries(
      Object.entries(entityMap).map(([key, entity]) => [key, { mutability: "IMMUTABLE", ...entity }]),
    ),
  });
}

// ---- People (3.3, 4.1, 12 "person name") ----

/** v3 list/get user object [SCINOTE-L]: `name`; username may be null, image members may be null. */
export const personV3 = (name: string, username: string | null, affiliation: string | null) => ({
  name,
  affiliation,
  affiliations: [],
  username,
  link: null,
  image: { source: null, placeholder: null },
  badges: [],
  research_interests: null,
  blocked_by_you: false,
  blocked_you: false,
});

/** v4 payload user [ASTOR]: first_name + last_name, "no `name` key". */
export const personV4 = (
  first_name: string,
  last_name: string,
  username: string,
  affiliation: string | null,
) => ({
  first_name,
  last_name,
  username,
  affiliation,
});

// ---- List items (3.3) ----

/** Era 2017 docs [DOC-2017]: flat, `public` a STRING, authors_list, DOI with resolver. */
export function item2017(id: number, title: string) {
  return {
    id,
    title,
    uri: `item-${id}-abc${id}`,
    created_on: 1513000000 + id,
    public: "1",
    first_name: "Ann",
    last_name: "Lee",
    full_name: "Ann Lee",
    username: "ann-lee",
    user_affiliation: "Lab",
    has_versions: 0,
    version_id: 0,
    doi: `dx.doi.org/10.17504/protocols.io.abc${id}`,
    link: "",
    published_on: 1513100000 + id,
    number_of_steps: 7,
    protocol_img: "https://example.invalid/img.png",
    authors_list: [{ name: "Ann Lee", affiliation: "Lab", username: null }],
  };
}

/** Recorded 2019 item [SCINOTE-L] (types exact): 0/1 flags, creator with `name`, HTML title_html. */
export function item2019(id: number, title: string) {
  return {
    id,
    title,
    title_html: `<strong>${title}</strong>`,
    image: { source: "https://example.invalid/a.png", placeholder: "https://example.invalid/b.png" },
    doi: `dx.doi.org/10.17504/protocols.io.z9cf${id}`,
    doi_status: 0,
    uri: `producing-item-${id}-z9cf${id}`,
    type_id: 1,
    published_on: 1556312593,
    stats: {
      number_of_views: 37,
      number_of_steps: 13,
      number_of_bookmarks: 0,
      number_of_comments: 0,
      number_of_exports: 0,
      number_of_runs: 0,
    },
    parent_protocols: [],
    parent_collections: [],
    version_id: 0,
    created_on: 1556012701,
    categories: null,
    creator: personV3("Bea Kim", "bea-kim", "Institute"),
    journal: "",
    journal_name: "",
    journal_link: null,
    article_citation: null,
    public: 1,
    has_versions: 0,
    link: "",
    total_collections: 0,
    number_of_steps: 13,
    authors: [personV3("Bea Kim", "bea-kim", "Institute"), personV3("Cy Ortiz", null, null)],
    versions: [],
    groups: [],
    has_subprotocols: 0,
    is_subprotocol: 0,
    is_bookmarked: 0,
    can_be_copied: 0,
    can_remove_fork: 0,
    forks_count: { private: 0, public: 0 },
    access: { can_download: 1 },
  };
}

/** A current item (3.3 "Current (2025) items", 12): `public` true, Draft.js description, v4 people. */
export function item2026(id: number, title: string) {
  return {
    id,
    title,
    uri: `current-item-${id}-x${id}`,
    url: `https://www.protocols.io/view/current-item-${id}-x${id}`,
    doi: `dx.doi.org/10.17504/protocols.io.x${id}/v2`,
    public: true,
    peer_reviewed: false,
    created_on: 1700000000,
    published_on: 0,
    creator: personV4("Dee", "Ng", "dee-ng", null),
    authors: [personV4("Dee", "Ng", "dee-ng", null), personV4("", "", "", null)],
    description: draftString([{ text: "A current description." }]),
    guidelines: "",
    before_start: "",
    warning: "",
    materials_text: "",
    stats: { number_of_views: 1, number_of_votes: 0 },
  };
}

// ---- List envelopes (3.2) ----

/** (a) 2017-2018 docs [DOC-2017] [DOC-2018]: totals at top level, no pagination object. */
export const envelopeA = (items: unknown[], total: number, totalPages: number) => ({
  items,
  total,
  total_pages: totalPages,
  status_code: 0,
});

/** (b) Recorded 2019 [SCINOTE-L] [COS]: both top-level totals and `pagination`, next_page a URL string. */
export const envelopeB = (
  items: unknown[],
  page: {
    current: number;
    totalPages: number;
    total: number;
    size: number;
    next: string | null;
    prev: string | null;
  },
) => ({
  items,
  total: page.total,
  total_results: page.total,
  total_pages: page.totalPages,
  extras: { "2": [{ id: 45, uri: "group-uri", title: "A group", image: {}, description: "<p>..</p>" }] },
  pagination: {
    current_page: page.current,
    total_pages: page.totalPages,
    total_results: page.total,
    next_page: page.next,
    prev_page: page.prev,
    page_size: page.size,
    first: 0,
    last: page.total,
    changed_on: null,
  },
  status_code: 0,
});

/** (c) What current clients read [HQN] [BIOC] [XPS]: `pagination` only, no top-level totals. */
export const envelopeC = (
  items: unknown[],
  page: { current: number; totalPages: number; total: number; size: number },
) => ({
  items,
  pagination: {
    current_page: page.current,
    total_pages: page.totalPages,
    total_results: page.total,
    page_size: page.size,
  },
  status_code: 0,
});

/** Pagination ABSENT [SCINOTE-C falls back to one page]; "some endpoints return status_code, some don't" [XPS]. */
export const envelopeBare = (items: unknown[]) => ({ items });

// ---- One protocol (4.1 v4, 4.2 v3) ----

/**
 * A Draft.js step with entity kinds of section 6 (amount, duration, temperature, link). The fact sheet
 * gives their kinds and that values are strings, not where ranges fall: here an amount covers its own
 * text, a duration (seconds) and a temperature cover a zero-width placeholder.
 */
const entityText = "Add 20 µL of buffer, incubate for \u200b at \u200b, then see protocol.";
const at = (needle: string, from = 0) => entityText.indexOf(needle, from);
export const draftStepWithEntities = draftString(
  [
    {
      text: entityText,
      entityRanges: [
        { offset: at("20 µL"), length: 5, key: 0 },
        { offset: at("\u200b"), length: 1, key: 1 },
        { offset: at("\u200b", at("\u200b") + 1), length: 1, key: 2 },
        { offset: at("protocol"), length: 8, key: 3 },
      ],
    },
    { text: "Keep on ice", type: "unordered-list-item" },
    { text: "Protect from light", type: "unordered-list-item" },
  ],
  {
    "0": { type: "amount", data: { amount: "20", unit: 3, title: "" } },
    "1": { type: "duration", data: { duration: "300", title: "" } },
    "2": { type: "temperature", data: { temperature: "4", unit: "°C", title: "" } },
    "3": { type: "link", data: { url: "https://example.invalid/protocol" } },
  },
);

/** The v4 shape sketch of 4.1 [ASTOR] [COS] [IDLIB] [HQN]: `payload`, entities in the title, DOI with
 * resolver and /vN, public true, people without `name` and a blank author, Draft.js text, `steps` null. */
export const protocolV4 = {
  payload: {
    id: 1001,
    uri: "some-title-abc123",
    url: "https://www.protocols.io/view/some-title-abc123",
    title: "Lysis &amp; clearing of E. coli &lt;5 mL cultures",
    title_html: "<p>Lysis &amp; clearing of <em>E. coli</em> &lt;5 mL cultures</p>",
    doi: "dx.doi.org/10.17504/protocols.io.abc123/v2",
    version_id: 2,
    created_on: 1700000000,
    published_on: 1700100000,
    public: true,
    peer_reviewed: null,
    license: null,
    creator: personV4("Ann", "Lee", "ann-lee", null),
    authors: [
      personV4("Ann", "Lee", "ann-lee", "Lab"),
      personV4("", "", "", null),
      personV4("Raj", "Patel", "raj-patel", null),
    ],
    description: draftString([
      { text: "Clears lysates of small cultures." },
      { text: "Works for 1–5 mL.", type: "unordered-list-item" },
    ]),
    guidelines: "",
    before_start: draftString([{ text: "Chill the centrifuge." }]),
    warning: "",
    materials_text: draftString([{ text: "Lysis buffer, 50 mM Tris" }]),
    materials: [],
    steps: null,
    stats: {
      number_of_views: 10,
      number_of_votes: 0,
      number_of_bookmarks: 0,
      number_of_protocol_comments: 0,
      number_of_forks: { private: 0, public: 0 },
    },
  },
  status_code: 0,
};

/** v4 steps (5.1) [IDLIB] [ASTOR]: a list under `payload`, out of array order, linked by previous_guid,
 * `number` a dotted STRING, `section` HTML repeated on each step, an empty step with only a section. */
export const GUID = {
  a: "0F00000000000000000000000000000A",
  b: "0F00000000000000000000000000000B",
  c: "0F00000000000000000000000000000C",
  d: "0F00000000000000000000000000000D",
};
export const stepsV4 = {
  payload: [
    {
      id: 5003,
      guid: GUID.c,
      previous_guid: GUID.b,
      number: "3",
      section: "<p>Clearing &amp; storage</p>",
      section_color: null,
      step: draftString([{ text: "Spin 10 min at full speed." }]),
    },
    {
      id: 5001,
      guid: GUID.a,
      previous_guid: null,
      number: "1",
      section: "<p>Lysis</p>",
      section_color: "#94EBFF",
      is_substep: false,
      step: draftStepWithEntities,
    },
    {
      id: 5004,
      guid: GUID.d,
      previous_guid: GUID.c,
      number: "4",
      section: "<p>Clearing &amp; storage</p>",
      step: "",
    },
    {
      id: 5002,
      guid: GUID.b,
      previous_guid: GUID.a,
      number: "2",
      section: "<p>Lysis</p>",
      step: draftString([{ text: "Vortex briefly." }]),
    },
  ],
  status_code: 0,
};

/** Recorded 2019 v3 get-protocol [SCINOTE-P] (4.2): `protocol` key, `public` int, HTML description,
 * creator with `name`, steps in the components model (5.2) with `previous_id` 0 for the first [DOC-2018],
 * a reagent whose vendor is a user-like object and whose catalog number is `sku` (5.4). */
export const protocolV3 = {
  protocol: {
    ...item2019(22532, "Binding cells &amp; beads"),
    description: '<div class = "text-blocks"><p>Bind cells to beads<br/>in <b>PBS</b> &amp; BSA.</p></div>',
    changed_on: 1556312593,
    materials: [
      {
        id: 1,
        mol_weight: 0,
        name: "Dynabeads",
        linfor: null,
        url: "",
        sku: "11041",
        cas_number: "",
        rrid: "",
        public: 1,
        vendor: {
          name: "Thermo Fisher",
          affiliation: null,
          username: null,
          link: "https://example.invalid",
          image: {},
          badges: [],
          research_interests: null,
          id: 9,
        },
        can_edit: 0,
        stats: { total_protocols: 3 },
      },
    ],
    steps: [
      {
        id: 601565,
        guid: "F934000000000000000000000000000B",
        previous_id: 601564,
        previous_guid: "F934000000000000000000000000000A",
        modified_on: 0,
        protocol_id: 0,
        components: [
          {
            id: 3,
            guid: "C3",
            order_id: 1,
            type_id: 1,
            title: "description",
            source: { description: '<div class = "text-blocks">Wash twice.</div>' },
          },
          {
            id: 4,
            guid: "C4",
            order_id: 0,
            type_id: 6,
            title: "Section",
            source: { title: "Binding cells to beads" },
          },
        ],
      },
      {
        id: 601564,
        guid: "F934000000000000000000000000000A",
        previous_id: 0,
        previous_guid: null,
        modified_on: 0,
        protocol_id: 0,
        components: [
          {
            id: 1,
            guid: "C1",
            order_id: 1,
            type_id: 6,
            title: "Section",
            source: { title: "Binding cells to beads" },
          },
          {
            id: 2,
            guid: "C2",
            order_id: 2,
            type_id: 1,
            title: "description",
            source: { description: '<div class = "text-blocks">Resuspend beads &amp; cells.</div>' },
          },
        ],
      },
    ],
  },
  status_code: 0,
};

// ---- Profile (7), token (2.2), errors (10) ----

/** `{user, status_code}` [HQN] [XPS]; warning_code on a 200 answer [SNIFF] [DOC-LIVE]. */
export const profileNearExpiry = {
  user: { username: "ann-lee", name: "Ann Lee", affiliation: null, email: "ann@example.invalid", bio: null },
  status_code: 0,
  warning_code: 1,
  warning_message: "Your access token expires in 24 days",
};

/** The token answer of 2.2 [DOC-2018] [ALT]: expires_in a STRING, token_type lowercase, extra fields. */
export const tokenAnswer = (access: string, refresh: string) => ({
  access_token: access,
  token_type: "bearer",
  expires_in: "30681976",
  scope: "readwrite",
  refresh_token: refresh,
  refresh_expires_in: "62217976",
  user: {
    name: "Ann Lee",
    affiliation: null,
    username: "ann-lee",
    link: null,
    image: { source: "https://x", placeholder: "https://x" },
  },
  status_code: 0,
});

/** Body shapes of section 10. */
export const expiredToken = { status_code: 1219, error_message: "token is expired" };
export const invalidToken = {
  status_code: 1218,
  error_message: "Authorization token is not correct, please use header Authorization: Bearer <access_token>",
};
export const invalidUriV4 = { status_code: 1, status_text: "invalid uri" };

/** Just enough of a PDF: a page tree of one page (9: `GET /view/<uri>.pdf` answers application/pdf). */
export const onePagePdf = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
