// Which features a bases match overlaps (labdata_search_dna_bases): the platform's annotation places
// (0-based start, exclusive end, 0 for the sequence's end) against a match's 1-based inclusive one,
// either of which may cross the origin of a circular sequence.
import { describe, expect, it } from "vitest";
import { overlappedFeatures } from "../../packages/lab-mcp/src/services/labdata/tools/search-dna-bases.js";

const LENGTH = 100;
const annotations = [
  { start: 94, end: 5, name: "ori-spanning promoter", type: "promoter" },
  { start: 49, end: 60, name: "", type: "CDS" },
  { start: 89, end: 0, name: "tail", type: "misc_feature" },
];

describe("the features a match overlaps", () => {
  it("across the origin, at the sequence's end, and by type when unnamed", () => {
    expect(overlappedFeatures(annotations, LENGTH, { start: 98, end: 3 })).toEqual([
      "ori-spanning promoter",
      "tail",
    ]);
    expect(overlappedFeatures(annotations, LENGTH, { start: 2, end: 4 })).toEqual(["ori-spanning promoter"]);
    expect(overlappedFeatures(annotations, LENGTH, { start: 60, end: 70 })).toEqual(["CDS"]);
    expect(overlappedFeatures(annotations, LENGTH, { start: 61, end: 70 })).toEqual([]);
    expect(overlappedFeatures(annotations, LENGTH, { start: 100, end: 100 })).toEqual([
      "ori-spanning promoter",
      "tail",
    ]);
  });
});
