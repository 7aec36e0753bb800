// FASTA and GenBank as other tools read them: line lengths, numbering, 1-based inclusive locations.
import { describe, expect, it } from "vitest";
import { toFasta } from "../../packages/lab-mcp/src/services/labdata/format/fasta.js";
import { toGenBank } from "../../packages/lab-mcp/src/services/labdata/format/genbank.js";
import type { DnaSequence } from "../../packages/lab-mcp/src/services/labdata/records/platform.js";

const bases = "ATGC".repeat(40); // 160 bases
const sequence: DnaSequence = {
  id: "seq_demo1",
  name: "pDemo GFP",
  bases,
  length: bases.length,
  isCircular: true,
  entityRegistryId: "PLS-0001",
  modifiedAt: "2026-03-04T10:00:00Z",
  annotations: [
    { start: 0, end: 30, strand: 1, type: "promoter", name: "lac" },
    { start: 40, end: 100, strand: -1, type: "CDS", name: 'GFP "mut3"' },
    { start: 150, end: 10, strand: 1, type: "origin", name: "ori" },
    { start: 110, end: 120, strand: 1, type: "made_up_kind", name: "tag" },
  ],
};

describe("FASTA", () => {
  it("has a header with name and id, then 60 bases a line", () => {
    const lines = toFasta(sequence).split("\n");
    expect(lines[0]).toBe(">pDemo GFP seq_demo1 160 bp circular");
    expect(lines.slice(1).map((line) => line.length)).toEqual([60, 60, 40]);
    expect(lines.slice(1).join("")).toBe(bases);
  });
});

describe("GenBank", () => {
  const text = toGenBank(sequence);
  const lines = text.split("\n");

  it("starts with a LOCUS line giving length, topology and date", () => {
    expect(lines[0]).toMatch(/^LOCUS {7}pDemo_GFP +160 bp {4}DNA {5}circular SYN 04-MAR-2026$/);
    expect(text).toContain("ACCESSION   PLS-0001");
  });

  it("writes each annotation as a feature with a 1-based inclusive location", () => {
    expect(text).toContain('     promoter        1..30\n                     /label="lac"');
    expect(text).toContain(
      '     CDS             complement(41..100)\n                     /label="GFP ""mut3"""',
    );
    // across the origin of a circular sequence
    expect(text).toContain("     rep_origin      join(151..160,1..10)");
    // a type GenBank does not know
    expect(text).toContain(
      '     misc_feature    111..120\n                     /label="tag"\n                     /feature_type="made_up_kind"',
    );
  });

  it("ends with the numbered ORIGIN block in groups of ten and //", () => {
    const origin = lines.slice(lines.indexOf("ORIGIN") + 1);
    expect(origin[0]).toBe(`        1 ${"atgcatgcat gcatgcatgc ".repeat(3).trim()}`);
    expect(origin[2]).toMatch(/^ {6}121 atgc/);
    expect(origin.at(-1)).toBe("//");
    expect(
      origin
        .slice(0, -1)
        .join("")
        .replace(/[\s\d]/g, ""),
    ).toBe(bases.toLowerCase());
  });
});
