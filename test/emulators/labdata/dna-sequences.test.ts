// GET /dna-sequences (paging, sort, filters, Result-Count, nextToken misuse), GET /dna-sequences/{id}
// and POST /dna-sequences, as a client sees them.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { basic, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;
let auth: string;
let plasmidLibrary: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
  emulator.admin.updateSettings("acme", { rateLimit: null });
  auth = basic(demoOf(emulator).user.apiKey);
  plasmidLibrary = demoOf(emulator).projects["Plasmid Library"] ?? "";
});

const list = (query: string, authorization = auth) =>
  fetchReply(`${api}/dna-sequences?${query}`, { authorization });

interface Seq {
  id: string;
  name: string;
  modifiedAt: string;
  folderId: string;
  archiveRecord: { reason: string } | null;
}

describe("labdata GET /dna-sequences: paging", () => {
  it("answers 50 by default, newest change first, with Result-Count and a nextToken", async () => {
    const reply = await list(`projectId=${plasmidLibrary}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["dnaSequences", "nextToken"]);
    expect(reply.body.dnaSequences).toHaveLength(50);
    expect(reply.headers.get("result-count")).toBe("2000");
    expect(reply.body.nextToken).not.toBe("");
    const times = reply.body.dnaSequences.map((s: Seq) => s.modifiedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("pages through all 2,000 live sequences of Plasmid Library with pageSize 100, each once", async () => {
    const seen = new Set<string>();
    let token = "";
    let pages = 0;
    do {
      const reply = await list(
        `projectId=${plasmidLibrary}&pageSize=100${token ? `&nextToken=${encodeURIComponent(token)}` : ""}`,
      );
      expect(reply.status).toBe(200);
      expect(reply.headers.get("result-count")).toBe("2000");
      for (const seq of reply.body.dnaSequences as Seq[]) seen.add(seq.id);
      token = reply.body.nextToken;
      pages++;
    } while (token !== "" && pages < 25);
    expect(pages).toBe(20);
    expect(seen.size).toBe(2000);
  });

  it("refuses a pageSize outside 1..100 or not an integer", async () => {
    for (const size of ["0", "101", "abc", "1.5", "-1", ""]) {
      const reply = await list(`pageSize=${size}`);
      expectError(reply, 400, "invalid_request_error");
      expect(reply.body.error.message).toBe("pageSize must be an integer from 1 to 100");
    }
    expect((await list("pageSize=100")).body.dnaSequences).toHaveLength(100);
    expect((await list("pageSize=1")).body.dnaSequences).toHaveLength(1);
  });

  it("refuses a nextToken from another query, another caller, or altered", async () => {
    const first = await list(`projectId=${plasmidLibrary}&pageSize=5`);
    const token = encodeURIComponent(first.body.nextToken);
    expect((await list(`projectId=${plasmidLibrary}&pageSize=7&nextToken=${token}`)).status).toBe(200);
    for (const query of [
      `projectId=${plasmidLibrary}&sort=name&nextToken=${token}`,
      `projectId=${plasmidLibrary}&nameIncludes=gfp&nextToken=${token}`,
      `nextToken=${token}`,
      `projectId=${plasmidLibrary}&nextToken=${token}x`,
      `projectId=${plasmidLibrary}&nextToken=not-a-token`,
    ]) {
      expectError(await list(query), 400, "invalid_request_error");
    }
    const other = await list(
      `projectId=${plasmidLibrary}&nextToken=${token}`,
      basic(demoOf(emulator).admin.apiKey),
    );
    expectError(other, 400, "invalid_request_error");
  });

  it("keeps pages stable with a tie-break on id when names are equal", async () => {
    // Outside Plasmid Library, whose counts other tests assert; the demo user reads it through its team.
    const folderId = demoOf(emulator).folders["Cas9 Variants"] ?? "";
    for (let i = 0; i < 3; i++) {
      emulator.admin.addDnaSequence("acme", {
        name: "Twin Name",
        bases: "ACGTACGT",
        isCircular: false,
        folderId,
      });
    }
    const all = await list("name=Twin%20Name&sort=name");
    const ids = all.body.dnaSequences.map((s: Seq) => s.id);
    expect(ids).toEqual([...ids].sort());
    const paged: string[] = [];
    let token = "";
    for (let i = 0; i < 3; i++) {
      const reply = await list(
        `name=Twin%20Name&sort=name&pageSize=1${token ? `&nextToken=${encodeURIComponent(token)}` : ""}`,
      );
      paged.push(reply.body.dnaSequences[0].id);
      token = reply.body.nextToken;
    }
    expect(paged).toEqual(ids);
    expect(token).toBe("");
  });
});

describe("labdata GET /dna-sequences: sort and filters", () => {
  it("sorts by name either way and by modifiedAt either way; refuses another sort", async () => {
    const byName = (await list(`projectId=${plasmidLibrary}&sort=name&pageSize=100`)).body
      .dnaSequences as Seq[];
    const lower = byName.map((s) => s.name.toLowerCase());
    expect(lower).toEqual([...lower].sort());
    const desc = (await list(`projectId=${plasmidLibrary}&sort=name:desc&pageSize=100`)).body
      .dnaSequences as Seq[];
    expect(desc.map((s) => s.name.toLowerCase())).toEqual(
      [...desc.map((s) => s.name.toLowerCase())].sort().reverse(),
    );
    const asc = (await list(`projectId=${plasmidLibrary}&sort=modifiedAt:asc`)).body.dnaSequences as Seq[];
    expect(asc.map((s) => s.modifiedAt)).toEqual(asc.map((s) => s.modifiedAt).sort());
    expect((await list("sort=name:asc")).status).toBe(200);
    expect((await list("sort=modifiedAt")).status).toBe(200);
    expectError(await list("sort=createdAt"), 400, "invalid_request_error");
  });

  it("filters by exact name and by a case-insensitive name fragment", async () => {
    const exact = await list("name=pUC19-GFP");
    expect(exact.body.dnaSequences.map((s: Seq) => s.name)).toEqual(["pUC19-GFP"]);
    const fragment = await list("nameIncludes=cAs9&pageSize=100");
    expect(Number(fragment.headers.get("result-count"))).toBeGreaterThan(100);
    for (const seq of fragment.body.dnaSequences as Seq[]) expect(seq.name.toLowerCase()).toContain("cas9");
    expectError(await list("name="), 400, "invalid_request_error");
  });

  it("filters by folder and by project; an unknown id is a 400", async () => {
    const folderId = demoOf(emulator).folders["Expression Vectors"];
    const inFolder = await list(`folderId=${folderId}&pageSize=100`);
    expect(inFolder.headers.get("result-count")).toBe("500");
    for (const seq of inFolder.body.dnaSequences as Seq[]) expect(seq.folderId).toBe(folderId);
    expectError(await list("folderId=lib_unknown"), 400, "invalid_request_error");
    expectError(await list("projectId=src_unknown"), 400, "invalid_request_error");
  });

  it("leaves archived sequences out by default; archiveReason picks them by reason or takes all", async () => {
    const project = `projectId=${plasmidLibrary}`;
    expect((await list(`${project}&archiveReason=NOT_ARCHIVED`)).headers.get("result-count")).toBe("2000");
    expect((await list(`${project}&archiveReason=ANY`)).headers.get("result-count")).toBe("2100");
    expect((await list(`${project}&archiveReason=ANY_ARCHIVED`)).headers.get("result-count")).toBe("100");
    const retired = await list(`${project}&archiveReason=Retired&pageSize=100`);
    const count = Number(retired.headers.get("result-count"));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(100);
    for (const seq of retired.body.dnaSequences as Seq[])
      expect(seq.archiveRecord).toEqual({ reason: "Retired" });
    const two = await list(`${project}&archiveReason=${encodeURIComponent("Retired,Made in error")}`);
    expect(Number(two.headers.get("result-count"))).toBeGreaterThan(count);
    expectError(await list("archiveReason=Lost"), 400, "invalid_request_error");
  });
});

describe("labdata GET /dna-sequences/{id}", () => {
  it("returns the full record in the platform's shape", async () => {
    const listed = (await list(`projectId=${plasmidLibrary}&pageSize=1`)).body.dnaSequences[0];
    const reply = await fetchReply(`${api}/dna-sequences/${listed.id}`, { authorization: auth });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(listed);
    expect(Object.keys(reply.body).sort()).toEqual(
      [
        "id",
        "name",
        "bases",
        "length",
        "isCircular",
        "aliases",
        "folderId",
        "entityRegistryId",
        "schema",
        "fields",
        "customFields",
        "annotations",
        "primers",
        "translations",
        "creator",
        "createdAt",
        "modifiedAt",
        "webURL",
        "archiveRecord",
      ].sort(),
    );
    expect(reply.body.length).toBe(reply.body.bases.length);
    expect(Object.keys(reply.body.creator).sort()).toEqual(["handle", "id", "name"]);
    expect(reply.body.webURL.startsWith(emulator.tenant("acme").baseUrl)).toBe(true);
    for (const a of reply.body.annotations) {
      expect(Object.keys(a).sort()).toEqual(["color", "end", "name", "start", "strand", "type"]);
    }
  });

  it("returns an archived sequence with its archiveRecord", async () => {
    const archived = (await list(`projectId=${plasmidLibrary}&archiveReason=ANY_ARCHIVED&pageSize=1`)).body
      .dnaSequences[0];
    const reply = await fetchReply(`${api}/dna-sequences/${archived.id}`, { authorization: auth });
    expect(reply.body.archiveRecord.reason).toMatch(/^(Retired|Made in error|Other)$/);
  });
});

describe("labdata POST /dna-sequences", () => {
  const folder = () => demoOf(emulator).folders.Backbones ?? "";

  it("creates a sequence in a folder the caller may write: 201 with the record, then readable and listed", async () => {
    const input = {
      name: "pMP-test-insert",
      bases: "atgaccatgattacgccaagcttgcatgcctgcaggtcgactctagaggatcc",
      isCircular: true,
      folderId: folder(),
      aliases: ["MP-001"],
      annotations: [
        { start: 0, end: 21, strand: 1, type: "CDS", name: "lacZ alpha start", color: "#4285F4" },
      ],
      primers: [{ name: "M13-F", bases: "ATGACCATGATTACG", start: 0, end: 15, strand: 1 }],
      translations: [{ start: 0, end: 21, strand: 1 }],
      customFields: { Notes: { value: "made by a test" } },
    };
    const reply = await fetchReply(`${api}/dna-sequences`, { authorization: auth, json: input });
    expect(reply.status).toBe(201);
    const { user } = demoOf(emulator);
    expect(reply.body).toMatchObject({
      name: "pMP-test-insert",
      bases: input.bases.toUpperCase(),
      length: input.bases.length,
      isCircular: true,
      folderId: folder(),
      aliases: ["MP-001"],
      creator: { id: user.id, handle: user.handle, name: user.name },
      archiveRecord: null,
      customFields: { Notes: { value: "made by a test" } },
    });
    expect(reply.body.id).toMatch(/^seq_[A-Za-z0-9]{8}$/);
    expect(reply.body.translations[0].aminoAcids).toBe("MTMITPS");
    expect(reply.body.primers[0]).toMatchObject({ name: "M13-F", bindPosition: 0 });
    const read = await fetchReply(`${api}/dna-sequences/${reply.body.id}`, { authorization: auth });
    expect(read.body).toEqual(reply.body);
    const listed = await list(`name=pMP-test-insert`);
    expect(listed.body.dnaSequences.map((s: Seq) => s.id)).toEqual([reply.body.id]);
  });

  it("refuses what is not a DNA sequence with 400 and says what is wrong", async () => {
    const base = { name: "bad", bases: "ACGT", isCircular: false, folderId: folder() };
    const cases: [unknown, RegExp][] = [
      [{ ...base, bases: "ACGU" }, /bases: must contain only DNA letters/],
      [{ ...base, bases: "" }, /bases/],
      [{ ...base, name: undefined }, /name/],
      [{ ...base, isCircular: "yes" }, /isCircular/],
      [{ ...base, colour: "red" }, /colour/],
      [
        { ...base, annotations: [{ start: 2, end: 9, name: "too long" }] },
        /annotations\.0: start and end must be within/,
      ],
      [
        { ...base, annotations: [{ start: 3, end: 1, name: "backwards" }] },
        /annotations\.0: start must be before end/,
      ],
      [{ ...base, folderId: "lib_unknown" }, /folderId: no folder/],
      [[base], /body/],
    ];
    for (const [body, message] of cases) {
      const reply = await fetchReply(`${api}/dna-sequences`, { authorization: auth, json: body });
      expectError(reply, 400, "invalid_request_error");
      expect(reply.body.error.message).toMatch(message);
    }
    const notJson = await fetchReply(`${api}/dna-sequences`, {
      authorization: auth,
      headers: { "content-type": "application/json" },
      body: "{name:",
    });
    expectError(notJson, 400, "invalid_request_error");
  });

  it("lets a wrapping annotation through on a circular sequence only", async () => {
    const wrap = [{ start: 6, end: 2, name: "origin-spanning" }];
    const circular = {
      name: "wrap",
      bases: "ACGTACGT",
      isCircular: true,
      folderId: folder(),
      annotations: wrap,
    };
    expect((await fetchReply(`${api}/dna-sequences`, { authorization: auth, json: circular })).status).toBe(
      201,
    );
    const linear = { ...circular, isCircular: false };
    expect((await fetchReply(`${api}/dna-sequences`, { authorization: auth, json: linear })).status).toBe(
      400,
    );
  });

  it("refuses a body over 2 MiB with 413", async () => {
    const huge = { name: "huge", bases: "A".repeat(2_100_000), isCircular: false, folderId: folder() };
    const reply = await fetchReply(`${api}/dna-sequences`, { authorization: auth, json: huge });
    expectError(reply, 413, "invalid_request_error");
  });
});
