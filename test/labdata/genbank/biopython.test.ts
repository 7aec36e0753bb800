// One check nobody here wrote (issue 28, item 7): Biopython (Debian's python3-biopython) reads the
// generated GenBank files, every export of labdata_export_dna_sequence and every file a round trip
// makes, and must find what our reader finds: bases, topology, every feature's location (parts,
// strands, partial ends, join or order) and qualifiers. And export -> labdata_create_sequences_bulk ->
// export gives the same file but for the record's own id and date, through a real MCP client against
// the platform emulator. Skips, saying so, where python3 or Bio is missing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGenBank } from "../../../packages/lab-mcp/src/services/labdata/genbank/read.js";
import { labdataService } from "../../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../../support/clients.js";
import { startTestLabdata } from "../../support/emulator.js";
import { apiKeyEnv } from "../../support/labdata.js";
import { generatedText } from "./generated.js";

const SCRIPT = join(import.meta.dirname, "biopython-read.py");

/** A python3 that has Bio, or undefined. */
function pythonWithBio(): string | undefined {
  for (const python of ["/usr/bin/python3", "python3"]) {
    try {
      execFileSync(python, ["-c", "import Bio"], { stdio: "ignore", timeout: 30_000 });
      return python;
    } catch {
      // next
    }
  }
  return undefined;
}
const python = pythonWithBio();
if (!python)
  console.warn(
    "SKIPPED test/labdata/genbank/biopython.test.ts: no python3 with Bio (apt-get install python3-biopython)",
  );

interface BioRecord {
  name: string;
  bases: string;
  topology: string | null;
  features: Array<{
    type: string;
    operator: string | null;
    parts: Array<[number, number, number, string, string]>;
    qualifiers: Record<string, string[]>;
  }>;
}

const folder = mkdtempSync(join(tmpdir(), "genbank-bio-"));
let written = 0;

/** What Biopython reads in each text (one python run for them all), and the warnings it gave. */
function biopython(texts: string[]): { records: BioRecord[][]; warnings: string[] } {
  const paths = texts.map((text) => {
    const path = join(folder, `file-${written++}.gb`);
    writeFileSync(path, text);
    return path;
  });
  const out = JSON.parse(
    execFileSync(python as string, [SCRIPT, ...paths], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      timeout: 120_000,
    }),
  );
  return { records: paths.map((path) => out[path]), warnings: out.warnings };
}

/** What our reader reads in `text`, in Biopython's terms (0-based start, exclusive end). */
function ours(text: string): BioRecord[] {
  return readGenBank(text).map((record) => ({
    name: record.name,
    bases: record.bases,
    topology: record.isCircular === undefined ? null : record.isCircular ? "circular" : "linear",
    features: record.features.map((f) => {
      const qualifiers: Record<string, string[]> = {};
      for (const q of f.qualifiers) qualifiers[q.name] = [...(qualifiers[q.name] ?? []), q.value ?? ""];
      return {
        type: f.key,
        operator: f.parsed.segments.length > 1 ? (f.parsed.operator ?? null) : null,
        parts: f.parsed.segments.map((s) => [s.start - 1, s.end, s.strand, s.startMark, s.endMark]),
        qualifiers,
      };
    }),
  }));
}

/** Biopython and our reader find the same in every text. */
function expectAgreement(...texts: string[]) {
  const bio = biopython(texts);
  for (const [i, text] of texts.entries()) {
    expect(bio.records[i]?.length).toBeGreaterThan(0);
    expect(ours(text)).toEqual(bio.records[i]);
  }
  return { records: bio.records.flat(), warnings: bio.warnings };
}

describe.skipIf(!python)("Biopython reads what we write and read", () => {
  it("agrees on generated files: joins across the origin, partial ends, long qualifiers, many records", () => {
    const { records, warnings } = expectAgreement(generatedText(40));
    expect(records).toHaveLength(40);
    expect(records[0]?.features.some((f) => f.operator === "order")).toBe(true);
    expect(records[0]?.features.some((f) => f.parts.some((p) => p[3] === "<"))).toBe(true);
    // Long LOCUS names are read whole; Biopython says only that the line is not in its columns.
    expect(records[0]?.name).toBe("generated_record_0_with_a_long_locus_name");
    expect(warnings.filter((w) => !/LOCUS line|Attempting to parse malformed locus/i.test(w))).toEqual([]);
  });

  describe("export -> bulk create -> export", () => {
    let emulator: Awaited<ReturnType<typeof startTestLabdata>>;
    let conn: Connected;
    beforeAll(async () => {
      emulator = await startTestLabdata();
      conn = await connectInMemory(labdataService, apiKeyEnv(emulator.demo));
    });
    afterAll(async () => {
      await conn.close();
      await emulator.close();
    });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await conn.client.callTool({ name, arguments: args });
      return { ...textOf(result), structured: result.structuredContent as Record<string, unknown> };
    };
    /** The export without the lines that name the record itself (its id) and its date. */
    const comparable = (text: string) =>
      text
        .split("\n")
        .filter((line) => !/^(ACCESSION|VERSION) /.test(line))
        .map((line) => line.replace(/ SYN \d\d-[A-Z]{3}-\d{4}$/, ""))
        .join("\n");

    async function createFrom(text: string, isCircular?: boolean) {
      const created = await call("labdata_create_sequences_bulk", {
        text,
        folder_id: emulator.demo.folders.Backbones,
        ...(isCircular === undefined ? {} : { is_circular: isCircular }),
      });
      expect(created.isError, created.text).toBe(false);
      return created.structured as { dna_sequences: Array<{ id: string }>; not_kept: string[] };
    }
    const exportOf = async (id: string) => {
      const exported = await call("labdata_export_dna_sequence", { id, format: "genbank" });
      expect(exported.isError, exported.text).toBe(false);
      return exported.text;
    };

    it("keeps every annotation the platform holds, Biopython agreeing on each file", async () => {
      // Generated files go in first; what the platform cannot hold is named, and the rest is exported.
      const first = await createFrom(generatedText(6));
      expect(first.not_kept.join("\n")).toMatch(
        /"spliced" at complement\(join\(2\.\.5,10\.\.20\)\).*join of 2 parts/,
      );
      expect(first.not_kept.join("\n")).toMatch(/"partial" at <\d+\.\.>\d+ .*partial ends/);
      const files: string[] = [];
      for (const { id } of first.dna_sequences) {
        const exported = await exportOf(id);
        const again = await createFrom(exported);
        expect(again.not_kept).toEqual([expect.stringMatching(/header sections KEYWORDS, SOURCE/)]);
        const [copy] = again.dna_sequences;
        const reexported = await exportOf(copy?.id as string);
        expect(comparable(reexported)).toBe(comparable(exported));
        files.push(exported, reexported);
      }
      expectAgreement(...files);
    }, 120_000);

    it("keeps the demo sequences' annotations, Biopython agreeing", async () => {
      const listed = await call("labdata_list_entities", { response_format: "json", limit: 5 });
      const ids = (listed.structured.entities as Array<{ id: string }>).map((s) => s.id);
      const files: string[] = [];
      for (const id of ids) {
        const exported = await exportOf(id);
        const [copy] = (await createFrom(exported)).dna_sequences;
        const reexported = await exportOf(copy?.id as string);
        expect(comparable(reexported)).toBe(comparable(exported));
        files.push(exported, reexported);
      }
      expectAgreement(...files);
    }, 120_000);
  });
});
