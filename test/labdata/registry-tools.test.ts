// labdata_mcp's registry, entity and inventory tools through a real MCP client against the
// lab data platform emulator over HTTPS: formats, paging, exact error texts, permissions, toolsets,
// read-only mode and the destructive-tool setting.
import { describe, expect, it } from "vitest";
import { readSettings } from "../../packages/lab-mcp/src/core/start/config.js";
import { coreSettingsFor, coreSettingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, callText, connectInMemory, textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
// The archive tool is offered only under MCP_ALLOW_DESTRUCTIVE (core's filter): set, so every tool is here.
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo, undefined, ALLOW_DESTRUCTIVE));
const call = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  callText(connection, name, args);
const json = async (name: string, args: Record<string, unknown> = {}, connection = conn) =>
  JSON.parse((await call(name, { ...args, response_format: "json" }, connection)).text);
const ALLOW_DESTRUCTIVE = { MCP_ALLOW_DESTRUCTIVE: "true" };
const NOT_FOUND = "Error: Resource not found. Please check the ID is correct.";
const DENIED = "Error: Permission denied. You don't have access to this resource.";

const demo = () => emulator.demo.registry;

describe("labdata_list_entities: AA sequences, oligos, custom entities", () => {
  it("lists AA sequences in markdown and json, with the envelope and paging", async () => {
    const page = await json("labdata_list_entities", { type: "aa_sequence", limit: 2, sort: "name_asc" });
    expect(page).toMatchObject({ offset: 0, count: 2, has_more: true, next_offset: 2 });
    expect(page.total).toBe(4);
    const next = await json("labdata_list_entities", {
      type: "aa_sequence",
      limit: 2,
      offset: 2,
      sort: "name_asc",
    });
    const names = [...page.entities, ...next.entities].map((s: { name: string }) => s.name);
    expect(names).toEqual(["EGFP", "His6-TEV-SpCas9", "mAb-1042 heavy chain", "mCherry"]);
    expect(next).toMatchObject({ has_more: false, next_offset: null });
    const { text } = await call("labdata_list_entities", { type: "aa_sequence", name: "enhanced" });
    expect(text).toContain("# AA sequences");
    expect(text).toMatch(
      /- \*\*EGFP \(prtn_\w+\)\*\*: AA sequence, registry id PR00001, 239 aa, schema Protein/,
    );
    expect(text).not.toMatch(/undefined|null|\[object/);
  });

  it("lists DNA and RNA oligos, and custom entities by registry id", async () => {
    const dna = await json("labdata_list_entities", { type: "dna_oligo", name: "M13" });
    expect(dna.entities.map((o: { name: string }) => o.name)).toEqual(["M13-F"]);
    const rna = await call("labdata_list_entities", { type: "rna_oligo", sort: "name_asc" });
    expect(rna.text).toContain("siKRAS-2");
    expect(rna.text).toContain("21 nt");
    const strains = await call("labdata_list_entities", { type: "custom_entity", name: "STR00001" });
    expect(strains.text).toContain("DH5alpha pLKO-shRNA-3");
    expect((await call("labdata_list_entities", { type: "custom_entity", name: "no such thing" })).text).toBe(
      "No custom entities match these filters.",
    );
  });

  it("a user without access to a project sees none of its entities", async () => {
    const reader = await connectInMemory(labdataService, apiKeyEnv(emulator.demo, emulator.demo.reader));
    try {
      expect((await json("labdata_list_entities", { type: "custom_entity" }, reader)).total).toBe(0);
      expect((await json("labdata_search_entities", { query: "pLKO" }, reader)).total).toBe(0);
      expect((await call("labdata_get_entity", { id: demo().entities.HEK293T }, reader)).text).toBe(DENIED);
    } finally {
      await reader.close();
    }
    const mine = await json("labdata_list_entities", { type: "custom_entity", limit: 100 });
    expect(mine.entities.map((e: { name: string }) => e.name)).not.toContain("MG1655 ΔrecA");
  });
});

describe("labdata_get_entity", () => {
  it("reads any type by id, in markdown, json and FASTA (AA sequences too)", async () => {
    const id = demo().entities.EGFP;
    const md = await call("labdata_get_entity", { id });
    expect(md.text).toContain(`# EGFP (${id})`);
    expect(md.text).toContain("- **Type**: AA sequence");
    expect(md.text).toContain("## Amino acids");
    const record = await json("labdata_get_entity", { id });
    expect(record).toMatchObject({ id, entityType: "aa_sequence", entityRegistryId: "PR00001" });
    const fasta = await call("labdata_get_entity", { id, fasta: true });
    expect(fasta.text.split("\n")[0]).toBe(`>EGFP ${id} 239 aa`);
    expect(fasta.text.split("\n")[1]).toMatch(/^M[A-Z]{59}$/);
    const oligo = await call("labdata_get_entity", { id: demo().entities["M13-F"], fasta: true });
    expect(oligo.text).toBe(`>M13-F ${demo().entities["M13-F"]} 17 nt\nGTAAAACGACGGCCAGT`);
    const plasmid = await json("labdata_get_entity", { id: demo().shRnaPlasmids["pLKO-shRNA-3"] });
    expect(plasmid).toMatchObject({ name: "pLKO-shRNA-3", entityType: "dna_sequence" });
  });

  it("answers the exact texts for an unknown id and a bad one", async () => {
    expect(await call("labdata_get_entity", { id: "prtn_nothere" })).toEqual({
      text: NOT_FOUND,
      isError: true,
    });
    expect(await call("labdata_get_entity", { id: "seq_nothere1" })).toEqual({
      text: NOT_FOUND,
      isError: true,
    });
    const bad = await call("labdata_get_entity", { id: "../x" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("id");
  });

  it("is a resource too: labdata://entities/{id}", async () => {
    const { contents } = await conn.client.readResource({
      uri: `labdata://entities/${demo().entities.HEK293T}`,
    });
    const text = contents[0] && "text" in contents[0] ? contents[0].text : "";
    expect(JSON.parse(text as string)).toMatchObject({ name: "HEK293T", entityType: "custom_entity" });
  });
});

describe("labdata_search_entities", () => {
  it("searches every type by name, alias or registry id, grouped by type, and pages across types", async () => {
    const all = await json("labdata_search_entities", { query: "pLKO" });
    const found = all.entities.map((e: { name: string; entityType: string }) => `${e.entityType}:${e.name}`);
    expect(found).toEqual([
      "dna_sequence:pLKO-shRNA-1",
      "dna_sequence:pLKO-shRNA-2",
      "dna_sequence:pLKO-shRNA-3",
      "dna_oligo:pLKO-seq-F",
      "dna_oligo:pLKO-seq-R",
      "custom_entity:DH5alpha pLKO-shRNA-3",
    ]);
    const second = await json("labdata_search_entities", { query: "pLKO", limit: 2, offset: 2 });
    expect(second.entities.map((e: { name: string }) => e.name)).toEqual(["pLKO-shRNA-3", "pLKO-seq-F"]);
    expect(second).toMatchObject({ total: 6, has_more: true, next_offset: 4 });
    const byRegistry = await call("labdata_search_entities", { query: "PL09003" });
    expect(byRegistry.text).toContain("pLKO-shRNA-3");
    expect((await call("labdata_search_entities", { query: "zzzz-nothing" })).text).toBe(
      "No entities found matching 'zzzz-nothing'.",
    );
    const onlyAa = await json("labdata_search_entities", { query: "GFP", types: ["aa_sequence"] });
    expect(onlyAa.entities.every((e: { entityType: string }) => e.entityType === "aa_sequence")).toBe(true);
  });
});

describe("registry: labdata_get_entity by registry id, labdata_list_registry_schemas", () => {
  it("looks up registered entities of any type by registry id", async () => {
    const plasmid = await call("labdata_get_entity", { id: "PL09003" });
    expect(plasmid.text).toMatch(/^# pLKO-shRNA-3 \(seq_\w+\)/);
    expect(plasmid.text).toContain("- **Registry ID**: PL09003");
    const strain = await call("labdata_get_entity", { id: "STR00001" });
    expect(strain.text).toMatch(/^# DH5alpha pLKO-shRNA-3 \(bfi_\w+\)/);
    expect(strain.text).toContain("- **Type**: custom entity");
    const data = await json("labdata_get_entity", { id: "OL00003" });
    expect(data).toMatchObject({ name: "M13-F", entityType: "dna_oligo" });
    expect(await call("labdata_get_entity", { id: "NOPE1" })).toEqual({
      text: NOT_FOUND,
      isError: true,
    });
    expect(await call("labdata_get_entity", { id: "STR00004" })).toEqual({
      text: DENIED,
      isError: true,
    });
    const none = await call("labdata_get_entity", { id: "" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("id: must not be empty");
  });

  it("lists the schemas with their prefixes, paged", async () => {
    const page = await json("labdata_list_registry_schemas", { limit: 4 });
    expect(page).toMatchObject({ total: 6, count: 4, has_more: true, next_offset: 4 });
    const { text } = await call("labdata_list_registry_schemas");
    expect(text).toContain("**Plasmid (ts_Plasmid)**: dna sequence, prefix PL, fields Resistance");
    expect(text).toContain("prefix STR");
  });
});

describe("labdata_search_dna_bases", () => {
  it("finds the plasmid holding an insert with the matched positions and features, on either strand", async () => {
    const insert = demo().shRna3Insert;
    const page = await json("labdata_search_dna_bases", { bases: insert.toLowerCase() });
    expect(page.total).toBe(1);
    const [hit] = page.dna_sequences;
    expect(hit).toMatchObject({ name: "pLKO-shRNA-3", entityRegistryId: "PL09003" });
    const [match] = hit.matches;
    const full = await json("labdata_get_entity", { id: hit.id });
    expect(full.bases.slice(match.start - 1, match.end)).toBe(insert);
    expect(match.strand).toBe("forward");
    const reverse = [...insert]
      .reverse()
      .map((b) => ({ A: "T", T: "A", C: "G", G: "C" })[b])
      .join("");
    const md = await call("labdata_search_dna_bases", { bases: reverse, registered_only: true });
    expect(md.text).toContain(`registered as PL09003`);
    // Each match names the features it overlaps, and the answer says what the search covered.
    const hairpin = full.annotations.find((a: { name: string }) => /hairpin/.test(a.name)).name;
    expect(match.features).toEqual([hairpin]);
    expect(md.text).toContain(`matches at ${match.start}..${match.end} (reverse) in ${hairpin}`);
    expect(md.text).toContain("Searched: sequences that are not archived, both strands, and on a circular");
  });

  it("past the end says the count the platform gave, never the offset (issue 28)", async () => {
    const insert = demo().shRna3Insert;
    expect((await call("labdata_search_dna_bases", { bases: insert, offset: 21 })).text).toBe(
      "No DNA sequences at offset 21: there are 1. Use a smaller offset.",
    );
    const page = await json("labdata_search_dna_bases", { bases: insert, offset: 21 });
    expect(page).toMatchObject({ total: 1, count: 0, has_more: false, total_is_exact: true });
    const aa = await json("labdata_list_entities", { type: "aa_sequence", offset: 100 });
    expect(aa).toMatchObject({ total: 4, count: 0, has_more: false, total_is_exact: true });
    expect((await call("labdata_list_entities", { type: "aa_sequence", offset: 100 })).text).toBe(
      "No AA sequences at offset 100: there are 4. Use a smaller offset.",
    );
  });

  it("refuses too few or wrong letters without a request, and pages a common stretch", async () => {
    const before = emulator.requests.entries().length;
    const short = await call("labdata_search_dna_bases", { bases: "ACGT" });
    expect(short).toEqual({
      text: "Error: Invalid input for labdata_search_dna_bases: bases: give 8 to 10,000 bases (got 4).",
      isError: true,
    });
    const wrong = await call("labdata_search_dna_bases", { bases: "ACGTACGTXX" });
    expect(wrong.text).toBe(
      "Error: Invalid input for labdata_search_dna_bases: bases: 'X' is not A, C, G, T or U.",
    );
    expect(emulator.requests.entries().length).toBe(before);
    // A library feature (the same bases in every plasmid that has it) matches many: paged.
    const plasmid = await json("labdata_get_entity", { id: demo().shRnaPlasmids["pLKO-shRNA-1"] });
    const cds = plasmid.annotations.find(
      (a: { type: string; end: number; start: number }) => a.type === "CDS" && a.end > a.start,
    );
    const common = plasmid.bases.slice(cds.start, cds.start + 30);
    const first = await json("labdata_search_dna_bases", { bases: common, limit: 2 });
    expect(first.total).toBeGreaterThan(2);
    expect(first).toMatchObject({ count: 2, has_more: true, next_offset: 2 });
    const second = await json("labdata_search_dna_bases", { bases: common, limit: 2, offset: 2 });
    const ids = [...first.dna_sequences, ...second.dna_sequences].map((s: { id: string }) => s.id);
    expect(new Set(ids).size).toBe(4);
  });
});

describe("inventory: labdata_locate, labdata_get_box_contents, labdata_list_containers", () => {
  it("locates an entity's containers: position and the chain of locations up to the room", async () => {
    const { text } = await call("labdata_locate", { id: demo().shRnaPlasmids["pLKO-shRNA-3"] });
    expect(text).toContain(
      `- **pLKO-shRNA-3 glycerol stock (${demo().glycerolStockId})** (1.5 mL, barcode CT-`,
    );
    expect(text).toMatch(
      new RegExp(
        `Where: position C4 of Glycerol stocks GS-1 \\(${demo().glycerolBoxId}\\) \\[Box 9x9\\] → Freezer A Rack B \\(loc_\\w+\\) \\[Rack\\] → Freezer A Shelf 2 \\(loc_\\w+\\) \\[Shelf\\] → -80 °C Freezer A \\(loc_\\w+\\) \\[Freezer\\] → Lab 3\\.14 \\(loc_\\w+\\) \\[Room\\]`,
      ),
    );
    expect(text).toContain("Holds: pLKO-shRNA-3 (");
    const data = await json("labdata_locate", { id: demo().glycerolStockId });
    expect(data.located[0]).toMatchObject({ position: "C4" });
    expect(data.located[0].chain.map((p: { kind: string }) => p.kind)).toEqual([
      "box",
      "location",
      "location",
      "location",
      "location",
    ]);
    const well = await json("labdata_locate", { id: demo().entities["M13-F"] });
    expect(well.located[0]).toMatchObject({ position: "A2" });
    expect(well.located[0].chain[0]).toMatchObject({ kind: "plate", name: "Primer plate P-1" });
  });

  it("says so when nothing visible holds it, refuses a hidden container, and needs its id", async () => {
    const hidden = demo().entities["BW25113 ΔlacZ::KanR"];
    expect((await call("labdata_locate", { id: hidden })).text).toBe(
      `No container you may see holds ${hidden}. It may be stored in a project you cannot read, or not stored at all.`,
    );
    expect(await call("labdata_locate", { id: demo().hiddenContainerId })).toEqual({
      text: DENIED,
      isError: true,
    });
    expect(await call("labdata_locate", {})).toEqual({
      text: "Error: Invalid input for labdata_locate: id: is required. Correct the arguments and call the tool again.",
      isError: true,
    });
  });

  it("shows the app (client credentials) a stock whose content it may not read, as such", async () => {
    const { app } = emulator.demo;
    const asApp = await connectInMemory(labdataService, {
      MCP_TOOLSETS: "all",
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      LABDATA_CLIENT_ID: app.clientId,
      LABDATA_CLIENT_SECRET: app.clientSecret,
    });
    try {
      const { text } = await call("labdata_locate", { id: demo().glycerolStockId }, asApp);
      expect(text).toContain(`Holds: an item you may not read (${demo().shRnaPlasmids["pLKO-shRNA-3"]})`);
      const box = await call("labdata_get_box_contents", { id: demo().glycerolBoxId }, asApp);
      expect(box.text).toContain("| C | . | . | . | (no access) | . |");
      expect((await call("labdata_search_entities", { query: "pLKO-shRNA" }, asApp)).text).toBe(
        "No entities found matching 'pLKO-shRNA'.",
      );
    } finally {
      await asApp.close();
    }
  });

  it("renders a plate as a grid and a box with its positions, quantities and units", async () => {
    const plate = await call("labdata_get_box_contents", { id: demo().plateId });
    expect(plate.text).toContain("# Plate Primer plate P-1");
    expect(plate.text).toContain("96-well plate, 5 of 96 positions filled");
    expect(plate.text).toContain("|   | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 |");
    expect(plate.text).toContain(
      "| A | pLKO-seq-F | M13-F | GFP-qPCR-F | . | . | . | . | . | . | . | . | . |",
    );
    expect(plate.text).toContain("| H | . | . |");
    expect(plate.text).toMatch(
      /P-1 A1 \(con_\w+\)\*\*: position A1, 40 uL, Plate Well, holds pLKO-seq-F \(seq_\w+\) at 100 uM/,
    );
    const box = await json("labdata_get_box_contents", { id: demo().glycerolBoxId });
    expect(box.storage).toMatchObject({ name: "Glycerol stocks GS-1", size: 81 });
    expect(box.containers.map((c: { gridPosition: string }) => c.gridPosition)).toEqual([
      "A1",
      "A2",
      "C4",
      "I9",
    ]);
    const md = await call("labdata_get_box_contents", { id: demo().glycerolBoxId });
    expect(md.text).toContain("| C | . | . | . | pLKO-shRNA-3 | . |");
    expect(await call("labdata_get_box_contents", { id: demo().hiddenBoxId })).toEqual({
      text: DENIED,
      isError: true,
    });
    // A location id is read as a location; one that does not exist is not found.
    expect((await call("labdata_get_box_contents", { id: "loc_abc" })).text).toBe(
      "Error: Resource not found. Please check the ID is correct.",
    );
  });

  it("lists containers by name, content or storage, paged, without another project's", async () => {
    const freezer = demo().locations["-80 °C Freezer A"];
    const below = await json("labdata_list_containers", { storage_id: freezer, limit: 3 });
    expect(below).toMatchObject({ total: 6, count: 3, has_more: true, next_offset: 3 });
    const rest = await json("labdata_list_containers", { storage_id: freezer, limit: 3, offset: 3 });
    expect(rest.count).toBe(3);
    const { text } = await call("labdata_list_containers", { name: "glycerol" });
    expect(text).toContain("pLKO-shRNA-3 glycerol stock");
    expect(text).toContain("1.5 mL");
    expect(text).not.toContain("BW25113");
    expect(
      (await json("labdata_list_containers", { limit: 100 })).containers.map((c: { id: string }) => c.id),
    ).not.toContain(demo().hiddenContainerId);
  });
});

const FASTA = ">bulk-a first\nATGGTGAGCAAGGGCGAG\nGAGCTGTTCACC\n>bulk-b\nTTGACAATTAATCATCGGCTCG\n";
const GENBANK = [
  "LOCUS       pBulk-GB        60 bp    DNA     circular SYN 01-JAN-2025",
  "FEATURES             Location/Qualifiers",
  "     source          1..60",
  "     CDS             4..30",
  '                     /label="tiny ORF"',
  "     misc_feature    complement(40..55)",
  '                     /note="rev site"',
  "ORIGIN",
  "        1 atgatggtga gcaagggcga ggagctgttc accggggtgg tgcccatcct ggtcgagctg",
  "//",
].join("\n");

describe("labdata_create_sequences_bulk", () => {
  it("creates FASTA records through the bulk task, with progress", async () => {
    const folder = emulator.demo.folders.Backbones;
    const progress: string[] = [];
    const fractions: number[] = [];
    const result = await conn.client.callTool(
      { name: "labdata_create_sequences_bulk", arguments: { text: FASTA, folder_id: folder } },
      undefined,
      {
        onprogress: (p) => {
          progress.push(p.message ?? "");
          fractions.push(p.progress);
        },
      },
    );
    const { text, isError } = textOf(result);
    expect(isError).toBe(false);
    expect(text).toMatch(
      /^# Created 2 DNA sequences in folder lib_\w+\n\n- bulk-a \(seq_\w+\): 30 bp, linear, 0 annotations\n- bulk-b \(seq_\w+\): 22 bp, linear/,
    );
    expect(progress).toContain("Processed 0 of 2");
    expect(fractions.every((value, i) => i === 0 || value > (fractions[i - 1] as number))).toBe(true);
    expect(progress.at(-1)).toBe("Created 2 sequences");
    expect((await json("labdata_list_entities", { name: "bulk-a", folder_id: folder })).total).toBe(1);
  });

  it("reads GenBank topology and features (1-based to the platform's 0-based)", async () => {
    const folder = emulator.demo.folders.Backbones;
    const created = JSON.parse(
      JSON.stringify(
        (
          await conn.client.callTool({
            name: "labdata_create_sequences_bulk",
            arguments: { text: GENBANK, folder_id: folder },
          })
        ).structuredContent,
      ),
    );
    const [seq] = created.dna_sequences;
    expect(seq).toMatchObject({ name: "pBulk-GB", isCircular: true, length: 60 });
    expect(seq.annotations).toEqual([
      expect.objectContaining({ name: "tiny ORF", type: "CDS", start: 3, end: 30, strand: 1 }),
      // a /note is the annotation's notes; a feature without a label is named by its key
      expect.objectContaining({
        name: "misc_feature",
        notes: "rev site",
        type: "misc_feature",
        start: 39,
        end: 55,
        strand: -1,
      }),
    ]);
  });

  it("reports a task the platform failed, and creates nothing", async () => {
    const folder = emulator.demo.folders.Backbones;
    const longType = "x".repeat(60);
    const text = GENBANK.replace("pBulk-GB ", "pBulk-bad").replace(
      "     CDS             4..30",
      `     ${longType} 4..30`,
    );
    const { text: answer, isError } = await call("labdata_create_sequences_bulk", {
      text,
      folder_id: folder,
    });
    expect(isError).toBe(true);
    expect(answer).toMatch(
      /^Error: the platform created none of the sequences: 1 of 1 sequences could not be created; sequence 1: /,
    );
    expect((await json("labdata_list_entities", { name: "pBulk-bad" })).total).toBe(0);
  });

  it("refuses bad text before any request, and reports a refused folder with the exact text", async () => {
    const folder = emulator.demo.folders.Backbones;
    const before = emulator.requests.entries().length;
    expect((await call("labdata_create_sequences_bulk", { text: ">x\nACGTJ", folder_id: folder })).text).toBe(
      "Error: Invalid input for labdata_create_sequences_bulk: text: sequence 1 (x): 'J' is not a DNA base (use A, C, G, T or IUPAC codes).",
    );
    expect((await call("labdata_create_sequences_bulk", { text: "hello", folder_id: folder })).text).toBe(
      "Error: Invalid input for labdata_create_sequences_bulk: text: neither FASTA (a first line starting with '>') nor GenBank (LOCUS).",
    );
    expect(emulator.requests.entries().length).toBe(before);
    const reader = await connectInMemory(labdataService, apiKeyEnv(emulator.demo, emulator.demo.reader));
    try {
      expect(await call("labdata_create_sequences_bulk", { text: FASTA, folder_id: folder }, reader)).toEqual(
        {
          text: DENIED,
          isError: true,
        },
      );
    } finally {
      await reader.close();
    }
  });
});

describe("labdata_archive_entities, labdata_unarchive_entities", () => {
  it("archives with a reason (gone from lists), then unarchives", async () => {
    const id = demo().entities["T7-promoter-F"];
    const archived = await call("labdata_archive_entities", {
      type: "dna_oligo",
      ids: [id],
      reason: "Expended",
    });
    expect(archived.text).toBe(
      `Archived 1 DNA oligo (reason: Expended): ${id}. Undo with labdata_unarchive_entities.`,
    );
    expect((await json("labdata_list_entities", { type: "dna_oligo", name: "T7-promoter" })).total).toBe(0);
    expect(
      (await json("labdata_list_entities", { type: "dna_oligo", name: "T7-promoter", archived: "include" }))
        .total,
    ).toBe(1);
    expect((await call("labdata_unarchive_entities", { type: "dna_oligo", ids: [id] })).text).toBe(
      `Unarchived 1 DNA oligo: ${id}. It is back in lists and searches.`,
    );
    expect((await json("labdata_list_entities", { type: "dna_oligo", name: "T7-promoter" })).total).toBe(1);
    expect(
      await call("labdata_archive_entities", {
        type: "custom_entity",
        ids: ["bfi_nothere"],
        reason: "Other",
      }),
    ).toEqual({
      text: NOT_FOUND,
      isError: true,
    });
  });

  it("is annotated destructive and says what it does; MCP_ALLOW_DESTRUCTIVE parses, default false", async () => {
    const { tools } = await conn.client.listTools();
    const archive = tools.find((tool) => tool.name === "labdata_archive_entities");
    expect(archive?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(archive?.description).toMatch(/gone from lists and searches/);
    const unarchive = tools.find((tool) => tool.name === "labdata_unarchive_entities");
    expect(unarchive?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const core = coreSettingsFor(labdataService);
    const read = (env: Record<string, string>) =>
      coreSettingsOf(
        readSettings(core, labdataService.settings, new Map(), {
          LABDATA_BASE_URL: "https://x.example",
          ...env,
        }),
      );
    expect(read({}).allowDestructive).toBe(false);
    expect(read({ MCP_ALLOW_DESTRUCTIVE: "true" }).allowDestructive).toBe(true);
    expect(() => read({ MCP_ALLOW_DESTRUCTIVE: "maybe" })).toThrow(/MCP_ALLOW_DESTRUCTIVE/);
  });
});

describe("toolsets and read-only mode", () => {
  const NEW_TOOLS: Record<string, string[]> = {
    search: ["labdata_search_entities", "labdata_locate"],
    writes: [
      "labdata_list_registry_schemas",
      "labdata_archive_entities",
      "labdata_unarchive_entities",
      "labdata_create_sequences_bulk",
    ],
    inventory: ["labdata_list_containers", "labdata_get_box_contents"],
    sequences: ["labdata_get_entity", "labdata_list_entities", "labdata_search_dna_bases"],
  };

  it("each of the search, writes, inventory and sequences toolsets can be enabled alone, and works", async () => {
    for (const [toolset, names] of Object.entries(NEW_TOOLS)) {
      const alone = await connectInMemory(
        labdataService,
        apiKeyEnv(emulator.demo, undefined, { MCP_TOOLSETS: toolset, ...ALLOW_DESTRUCTIVE }),
      );
      try {
        const listed = (await alone.client.listTools()).tools.map((tool) => tool.name);
        for (const name of names) expect(listed, toolset).toContain(name);
        for (const [other, otherNames] of Object.entries(NEW_TOOLS)) {
          if (other !== toolset) for (const name of otherNames) expect(listed).not.toContain(name);
        }
        const [first] = names;
        const args: Record<string, Record<string, unknown>> = {
          labdata_search_entities: { query: "pLKO" },
          labdata_locate: { id: demo().shRnaPlasmids["pLKO-shRNA-3"] },
          labdata_get_entity: { id: demo().entities.EGFP },
        };
        expect((await call(first as string, args[first as string], alone)).isError).toBe(false);
      } finally {
        await alone.close();
      }
    }
  });

  it("read-only mode hides the bulk create and archive tools, and the server stays under 40 tools", async () => {
    const readOnly = await connectInMemory(
      labdataService,
      apiKeyEnv(emulator.demo, undefined, { MCP_READ_ONLY: "true" }),
    );
    try {
      const listed = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
      for (const name of [
        "labdata_create_sequences_bulk",
        "labdata_archive_entities",
        "labdata_unarchive_entities",
      ]) {
        expect(listed).not.toContain(name);
      }
      expect(listed).toContain("labdata_locate");
      expect(
        (
          await call(
            "labdata_archive_entities",
            { type: "dna_oligo", ids: ["seq_x"], reason: "Other" },
            readOnly,
          )
        ).text,
      ).toMatch(/is not enabled on this server/);
    } finally {
      await readOnly.close();
    }
    expect((await conn.client.listTools()).tools.length).toBeLessThan(40);
  });
});
