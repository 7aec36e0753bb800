// Generated GenBank files for the reader, writer and Biopython tests: many records, circular and
// linear, with features across the origin, joins and orders, partial ends, complement strands, long
// qualifiers with quotes, valueless ones, and long names. Seeded, so every run sees the same files.
import type { Segment } from "../../../packages/lab-mcp/src/services/labdata/genbank/location.js";
import {
  type WritableFeature,
  type WritableRecord,
  writeGenBank,
} from "../../../packages/lab-mcp/src/services/labdata/genbank/write.js";

/** Mulberry32: small, seeded, good enough to vary test data. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the promoter drives expression of a reporter under control of lac operator with "quoted" words'.split(" ");

export function generatedRecords(count: number, seed = 28): WritableRecord[] {
  const next = random(seed);
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const records: WritableRecord[] = [];
  for (let r = 0; r < count; r++) {
    const length = int(120, 400);
    const bases = Array.from({ length }, () => "ACGT"[int(0, 3)]).join("");
    const isCircular = r % 2 === 0;
    const features: WritableFeature[] = [];
    const range = (start: number, end: number, strand: 1 | -1 = 1): Segment => ({
      start,
      end,
      strand,
      startMark: "",
      endMark: "",
    });
    const note = (words: number) =>
      Array.from({ length: words }, () => WORDS[int(0, WORDS.length - 1)]).join(" ");
    // one plain feature per strand
    const a = int(1, length - 40);
    features.push({
      key: "CDS",
      operator: undefined,
      segments: [range(a, a + 30)],
      qualifiers: [
        { name: "label", value: `orf ${r}` },
        { name: "codon_start", value: "1" },
        { name: "note", value: note(int(20, 60)) },
        { name: "translation", value: "M".concat("ACDEFGHIKLMNPQRSTVWY".repeat(6)) },
      ],
    });
    features.push({
      key: "promoter",
      operator: undefined,
      segments: [range(int(1, 20), int(25, 40), -1)],
      qualifiers: [
        { name: "label", value: `p${r} with a name longer than sixteen characters` },
        { name: "pseudo", value: null },
      ],
    });
    // partial ends
    const p = int(1, length - 60);
    features.push({
      key: "misc_feature",
      operator: undefined,
      segments: [{ ...range(p, p + 50), startMark: "<", endMark: ">" }],
      qualifiers: [{ name: "label", value: "partial" }],
    });
    // a join of two parts and an order of three, one on the reverse strand
    features.push({
      key: "mRNA",
      operator: "join",
      segments: [range(10, 20, -1), range(2, 5, -1)],
      qualifiers: [{ name: "label", value: "spliced" }],
    });
    features.push({
      key: "misc_feature",
      operator: "order",
      segments: [range(30, 35), range(40, 45), range(50, 55)],
      qualifiers: [{ name: "note", value: 'an order with a "quote" at the end ""' }],
    });
    if (isCircular) {
      // across the origin, on both strands
      const tail = int(length - 30, length - 5);
      features.push({
        key: "rep_origin",
        operator: "join",
        segments: [range(tail, length), range(1, int(3, 20))],
        qualifiers: [{ name: "label", value: "ori" }],
      });
      features.push({
        key: "gene",
        operator: "join",
        segments: [range(1, 8, -1), range(length - 9, length, -1)],
        qualifiers: [
          { name: "gene", value: "wrap" },
          { name: "note", value: note(80) },
        ],
      });
    }
    records.push({
      locusName: `generated_record_${r}_with_a_long_locus_name`,
      definition: `generated record ${r}`,
      accession: `GEN${r}`,
      isCircular,
      date: "26-NOV-2026",
      bases,
      features,
    });
  }
  return records;
}

/** The generated records as one GenBank text. */
export function generatedText(count: number, seed?: number): string {
  return generatedRecords(count, seed)
    .map((record) => writeGenBank(record))
    .join("\n");
}
