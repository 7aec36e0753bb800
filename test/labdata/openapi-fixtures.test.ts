// What an agent reads from answers shaped like the platform's OpenAPI document's own examples
// (components.examples.BulkOperateDnaSequencesTaskResponse, the User and UserSummary examples,
// TokenResponse's), and from the sparse answers the document allows, served by a small HTTPS remote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type CannedRemote, startCannedRemote } from "../contract/canned-remote.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";

/** The document's example DNA sequence, as it prints it (length 0 with 55 bases, fields as a list). */
const EXAMPLE_SEQUENCE = {
  aliases: ["Example alias"],
  annotations: [
    {
      color: "#85DAE9",
      end: 10,
      name: "Example annotation",
      start: 0,
      strand: 0,
      type: "Example annotation type",
    },
  ],
  apiURL: "https://benchling.com/api/v2/dna-sequences/seq_asQya4lk",
  archiveRecord: { reason: "Made in error" },
  bases: "GTAGCAAAGANTAGTAGCCAGCTGTGATAAATGTCAGCTAAAAGGGGAAGCCATG",
  createdAt: "2021-07-13T13:16:44.315Z",
  creator: { handle: "lpasteur", id: "ent_a0SApq3z", name: "Louis Pasteur" },
  customFields: { "Legacy ID": { value: "STR100" } },
  entityRegistryId: "sBN000",
  fields: [
    {
      additionalProp1: {
        displayValue: "Amp",
        isMulti: true,
        textValue: "Amp",
        type: "dna_sequence_link",
        value: ["seq_jdf8BV24"],
      },
    },
  ],
  folderId: "lib_mrZWMrft",
  id: "seq_asQya4lk",
  isCircular: true,
  length: 0,
  modifiedAt: "2021-07-13T13:16:44.315Z",
  name: "Example sequence",
  primers: [
    {
      bases: "CATCG",
      bindPosition: 0,
      color: "#F58A5E",
      end: 5,
      name: "Example primer",
      oligoId: "seq_HJyE332n",
      overhangLength: 0,
      start: 0,
      strand: -1,
    },
  ],
  registrationOrigin: { originEntryId: "ent_a0SApq3z", registeredAt: "2021-07-13T13:16:44.315Z" },
  registryId: "src_ae40j3TZ",
  schema: { id: "ts_n4l12nf0", name: "Example schema" },
  translations: [{ aminoAcids: "KK", end: 0, regions: [{ end: 0, start: 0 }], start: 0, strand: 1 }],
  webURL: "https://benchling.com/benchling/f/lib_zky83cLg-computed-fields/seq_mnY8u4bs-chain-1/edit",
};
const EXAMPLE_USER = {
  email: "lpasteur@benchling.com",
  handle: "lpasteur",
  id: "ent_a0SApq3z",
  isSuspended: false,
  name: "Louis Pasteur",
};
const BASES = EXAMPLE_SEQUENCE.bases;

let remote: CannedRemote;
let conn: Connected;
const call = async (name: string, args: Record<string, unknown> = {}) =>
  textOf(await conn.client.callTool({ name, arguments: args }));

beforeAll(async () => {
  remote = await startCannedRemote({ "GET /users/me": { body: EXAMPLE_USER } });
  conn = await connectInMemory(labdataService, {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: remote.baseUrl,
    LABDATA_API_KEY: "k",
  });
});
afterAll(async () => {
  await conn?.close();
  await remote?.close();
});

describe("the document's example DNA sequence", () => {
  beforeAll(() => remote.answer("GET /dna-sequences/{id}", { body: EXAMPLE_SEQUENCE }));

  it("reads as facts, annotations and bases, with the length counted from the bases", async () => {
    expect(await call("labdata_get_entity", { id: "seq_asQya4lk" })).toEqual({
      isError: false,
      text: [
        "# Example sequence (seq_asQya4lk)",
        "",
        "- **Length**: 55 bp",
        "- **Topology**: circular",
        "- **Folder**: lib_mrZWMrft",
        "- **Registry ID**: sBN000",
        "- **Aliases**: Example alias",
        "- **Creator**: Louis Pasteur (ent_a0SApq3z)",
        "- **Created**: 2021-07-13 13:16 UTC",
        "- **Modified**: 2021-07-13 13:16 UTC",
        "- **Archived**: yes (Made in error)",
        `- **Web URL**: ${EXAMPLE_SEQUENCE.webURL}`,
        "",
        "## Annotations (1)",
        "",
        "- Example annotation (Example annotation type): 1..10",
        "",
        "## Bases",
        "",
        `\`${BASES}\``,
      ].join("\n"),
    });
  });

  it("keeps every field of the answer in the json format, the ones we do not model too", async () => {
    const json = JSON.parse(
      (await call("labdata_get_entity", { id: "seq_asQya4lk", response_format: "json" })).text,
    );
    expect(json).toEqual({ ...EXAMPLE_SEQUENCE, entityType: "dna_sequence" });
  });

  it("exports as FASTA and GenBank with the registry id, the date and the annotation as a feature", async () => {
    const fasta = (await call("labdata_export_dna_sequence", { id: "seq_asQya4lk" })).text;
    expect(fasta).toBe(`>Example sequence seq_asQya4lk 55 bp circular\n${BASES}`);
    const genbank = (await call("labdata_export_dna_sequence", { id: "seq_asQya4lk", format: "genbank" }))
      .text;
    expect(genbank.split("\n").slice(0, 4)).toEqual([
      "LOCUS       Example_sequence          55 bp    DNA     circular SYN 13-JUL-2021",
      "DEFINITION  Example sequence.",
      "ACCESSION   sBN000",
      "VERSION     sBN000",
    ]);
    expect(genbank).toContain(
      [
        "     misc_feature    1..10",
        '                     /label="Example annotation"',
        '                     /feature_type="Example annotation type"',
      ].join("\n"),
    );
  });
});

describe("lists shaped like the document's paginated lists", () => {
  const second = { id: "seq_second01", name: "pUC19", length: 2686, isCircular: false, archiveRecord: null };

  it("lists in the platform's order with the total from Result-Count and a way on", async () => {
    remote.answer("GET /dna-sequences", {
      body: { dnaSequences: [EXAMPLE_SEQUENCE, second], nextToken: "Im5leHQi" },
      headers: { "Result-Count": "57" },
    });
    expect((await call("labdata_list_entities", { limit: 2 })).text).toBe(
      [
        "# DNA sequences",
        "",
        "Found 57 sequences (showing 1–2); archived ones left out (archived: 'include' counts them)",
        "",
        "- **Example sequence (seq_asQya4lk)**: registry id sBN000, 55 bp, circular, folder lib_mrZWMrft, modified 2021-07-13 13:16 UTC, archived (Made in error)",
        "- **pUC19 (seq_second01)**: 2,686 bp, linear",
        "",
        "More: call again with offset=2.",
      ].join("\n"),
    );
  });

  it("without Result-Count, says there is more while the platform gives a next page, and stops at the end", async () => {
    remote.answer("GET /dna-sequences", { body: { dnaSequences: [second], nextToken: "abc" } });
    const open = JSON.parse(
      (await call("labdata_list_entities", { limit: 1, response_format: "json" })).text,
    );
    expect(open).toMatchObject({ total: 2, count: 1, offset: 0, has_more: true, next_offset: 1 });
    remote.answer("GET /dna-sequences", { body: { dnaSequences: [second], nextToken: "" } });
    const last = JSON.parse(
      (await call("labdata_list_entities", { limit: 5, response_format: "json" })).text,
    );
    expect(last).toMatchObject({ total: 1, count: 1, has_more: false, next_offset: null });
  });

  // Issue 28, item 1: never a number the platform did not give.
  it("without Result-Count, says 'at least' and total_is_exact false until the list ends", async () => {
    remote.answer("GET /dna-sequences", { body: { dnaSequences: [second], nextToken: "abc" } });
    const open = await call("labdata_list_entities", { limit: 1 });
    expect(open.text).toContain("Found at least 2 sequences (showing 1–1)");
    const openJson = JSON.parse(
      (await call("labdata_list_entities", { limit: 1, response_format: "json" })).text,
    );
    expect(openJson).toMatchObject({ total: 2, has_more: true, total_is_exact: false });
    remote.answer("GET /dna-sequences", { body: { dnaSequences: [second], nextToken: "" } });
    const ended = JSON.parse(
      (await call("labdata_list_entities", { limit: 5, response_format: "json" })).text,
    );
    expect(ended).toMatchObject({ total: 1, has_more: false, total_is_exact: true });
    expect((await call("labdata_list_entities", { limit: 5 })).text).toContain("Found 1 sequences");
  });

  it("past the end, the total is the platform's count or the list's length, never the offset", async () => {
    remote.answer("GET /dna-sequences", {
      body: { dnaSequences: [], nextToken: "" },
      headers: { "Result-Count": "80" },
    });
    expect((await call("labdata_list_entities", { offset: 119 })).text).toBe(
      "No DNA sequences at offset 119: there are 80. Use a smaller offset.",
    );
    const counted = JSON.parse(
      (await call("labdata_list_entities", { offset: 119, response_format: "json" })).text,
    );
    expect(counted).toMatchObject({
      total: 80,
      count: 0,
      offset: 119,
      has_more: false,
      total_is_exact: true,
    });
    remote.answer("GET /dna-sequences", { body: { dnaSequences: [second], nextToken: "" } });
    // (a query of its own: the canned remote ignores cursors the earlier tests left in the cache)
    expect((await call("labdata_list_entities", { offset: 5, name: "pUC" })).text).toBe(
      "No DNA sequences at offset 5: there are 1. Use a smaller offset.",
    );
    remote.answer("GET /projects", {
      body: { projects: [{ id: "src_1" }], nextToken: "" },
      headers: { "Result-Count": "1" },
    });
    expect((await call("labdata_list_projects", { offset: 3 })).text).toBe(
      "No projects at offset 3: there are 1. Use a smaller offset.",
    );
  });

  it("projects: owner summaries kept, archived ones said so, names in order", async () => {
    remote.answer("GET /projects", {
      body: {
        projects: [
          { id: "src_NetYd96a", name: "Example project", owner: EXAMPLE_USER, archiveRecord: null },
          { id: "src_old00001", name: "Old project", archiveRecord: { reason: "Retired" } },
          { id: "src_noname01" },
        ],
        nextToken: "",
      },
      headers: { "Result-Count": "3" },
    });
    expect((await call("labdata_list_projects")).text).toBe(
      [
        "# Projects",
        "",
        "Found 3 projects (showing 1–3)",
        "",
        "- Example project (src_NetYd96a)",
        "- Old project (src_old00001) (archived: Retired)",
        "- (unnamed) (src_noname01)",
      ].join("\n"),
    );
  });

  it("folders: the project of each, nothing for a missing one", async () => {
    remote.answer("GET /folders", {
      body: {
        folders: [
          { id: "lib_mrZWMrft", name: "Example folder", parentFolderId: null, projectId: "src_NetYd96a" },
          { id: "lib_root0001", name: "Root folder", archiveRecord: null },
        ],
      },
    });
    expect((await call("labdata_list_folders")).text).toBe(
      [
        "# Folders",
        "",
        "Found 2 folders (showing 1–2)",
        "",
        "- Example folder (lib_mrZWMrft), project src_NetYd96a",
        "- Root folder (lib_root0001)",
      ].join("\n"),
    );
  });
});

describe("sparse answers the document allows", () => {
  it("a sequence with only an id reads without a placeholder value", async () => {
    remote.answer("GET /dna-sequences/{id}", { body: { id: "seq_bare0001" } });
    expect((await call("labdata_get_entity", { id: "seq_bare0001" })).text).toBe(
      [
        "# (unnamed) (seq_bare0001)",
        "",
        "## Annotations (0)",
        "",
        "None.",
        "",
        "## Bases",
        "",
        "No bases in the platform's answer.",
      ].join("\n"),
    );
  });

  it("an empty answer is named by the id asked for; nulls and wrong types read as missing", async () => {
    remote.answer("GET /dna-sequences/{id}", {
      body: {
        name: null,
        bases: "ATGC",
        isCircular: "yes",
        length: "4",
        folderId: null,
        annotations: [{ name: "x" }, 7],
      },
    });
    const { text } = await call("labdata_get_entity", { id: "seq_asked001" });
    expect(text.split("\n").slice(0, 3)).toEqual(["# (unnamed) (seq_asked001)", "", "- **Length**: 4 bp"]);
    expect(text).toContain("## Annotations (1)\n\n- x (feature)\n");
    expect((await call("labdata_export_dna_sequence", { id: "seq_asked001" })).text).toBe(
      ">(unnamed) seq_asked001 4 bp\nATGC",
    );
  });

  it("an annotation ending at 0 ends at the end of the sequence (DnaAnnotation.end)", async () => {
    remote.answer("GET /dna-sequences/{id}", {
      body: {
        id: "seq_end00001",
        name: "ends",
        bases: "A".repeat(20),
        length: 20,
        isCircular: false,
        annotations: [{ name: "tail", type: "CDS", start: 14, end: 0, strand: -1 }],
      },
    });
    expect((await call("labdata_get_entity", { id: "seq_end00001" })).text).toContain(
      "- tail (CDS): 15..20, reverse strand",
    );
    expect(
      (await call("labdata_export_dna_sequence", { id: "seq_end00001", format: "genbank" })).text,
    ).toContain("     CDS             complement(15..20)");
  });

  it("the document's example user, and a user with only an id", async () => {
    expect((await call("labdata_get_current_user")).text).toBe(
      [
        "# Signed in to the lab data platform",
        "",
        "- **User**: Louis Pasteur (ent_a0SApq3z)",
        "- **Email**: lpasteur@benchling.com",
        "- **Handle**: lpasteur",
        "- **Authentication**: API key (HTTP Basic)",
        `- **Platform**: ${remote.baseUrl}`,
      ].join("\n"),
    );
    remote.answer("GET /users/me", { body: { id: "ent_only0001" } });
    expect((await call("labdata_get_current_user")).text).toContain("- **User**: (unnamed) (ent_only0001)\n");
    remote.answer("GET /users/me", { body: EXAMPLE_USER });
  });
});

describe("the token endpoint", () => {
  it("signs in with the document's example TokenResponse, and with expires_in as a string", async () => {
    for (const expires_in of [900, "900"]) {
      remote.answer("POST /token", { body: { access_token: "eyJ...", expires_in, token_type: "Bearer" } });
      const app = await connectInMemory(labdataService, {
        LABDATA_BASE_URL: remote.baseUrl,
        LABDATA_CLIENT_ID: "app",
        LABDATA_CLIENT_SECRET: "secret",
      });
      try {
        const { text, isError } = textOf(
          await app.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
        );
        expect(isError).toBe(false);
        expect(text).toContain("- **Authentication**: OAuth 2.0 client credentials (app)");
      } finally {
        await app.close();
      }
    }
  });
});
