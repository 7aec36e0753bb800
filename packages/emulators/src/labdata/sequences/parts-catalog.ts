// The molecular-biology parts the demo sequences are built from: well-known features with their real
// lengths (the bases themselves are generated from the seed), vector backbones in their usual order,
// and the inserts cloned into them.

export type FeatureType =
  | "promoter"
  | "CDS"
  | "rep_origin"
  | "terminator"
  | "RBS"
  | "protein_bind"
  | "misc_feature";

export interface FeatureSpec {
  name: string;
  type: FeatureType;
  /** Length in bases; for a CDS, the whole open reading frame including its stop codon. */
  length: number;
}

export const FEATURE_COLORS: Record<FeatureType | "primer_bind", string> = {
  promoter: "#F4B400",
  CDS: "#4285F4",
  rep_origin: "#9C27B0",
  terminator: "#DB4437",
  RBS: "#795548",
  protein_bind: "#FF9800",
  misc_feature: "#9E9E9E",
  primer_bind: "#0F9D58",
};

export const FEATURES: readonly FeatureSpec[] = [
  { name: "T7 promoter", type: "promoter", length: 19 },
  { name: "lac promoter", type: "promoter", length: 31 },
  { name: "tac promoter", type: "promoter", length: 29 },
  { name: "araBAD promoter", type: "promoter", length: 285 },
  { name: "CMV promoter", type: "promoter", length: 204 },
  { name: "EF-1a core promoter", type: "promoter", length: 212 },
  { name: "U6 promoter", type: "promoter", length: 241 },
  { name: "SV40 promoter", type: "promoter", length: 330 },
  { name: "AmpR promoter", type: "promoter", length: 105 },
  { name: "RBS", type: "RBS", length: 15 },
  { name: "lac operator", type: "protein_bind", length: 17 },
  { name: "MCS", type: "misc_feature", length: 57 },
  { name: "TEV site", type: "misc_feature", length: 21 },
  { name: "loxP", type: "misc_feature", length: 34 },
  { name: "FRT", type: "misc_feature", length: 34 },
  { name: "sgRNA scaffold", type: "misc_feature", length: 76 },
  { name: "6xHis", type: "CDS", length: 18 + 3 },
  { name: "FLAG", type: "CDS", length: 24 + 3 },
  { name: "GFP", type: "CDS", length: 720 },
  { name: "mCherry", type: "CDS", length: 711 },
  { name: "Luciferase", type: "CDS", length: 1653 },
  { name: "Cas9", type: "CDS", length: 4107 },
  { name: "dCas9", type: "CDS", length: 4107 },
  { name: "MBP", type: "CDS", length: 1104 },
  { name: "GST", type: "CDS", length: 660 },
  { name: "SUMO", type: "CDS", length: 294 },
  { name: "KanR", type: "CDS", length: 795 },
  { name: "AmpR", type: "CDS", length: 861 },
  { name: "CmR", type: "CDS", length: 660 },
  { name: "NeoR", type: "CDS", length: 795 },
  { name: "PuroR", type: "CDS", length: 600 },
  { name: "lacI", type: "CDS", length: 1083 },
  { name: "IgG1 heavy chain", type: "CDS", length: 1413 },
  { name: "kappa light chain", type: "CDS", length: 705 },
  { name: "pUC ori", type: "rep_origin", length: 589 },
  { name: "pBR322 ori", type: "rep_origin", length: 589 },
  { name: "p15A ori", type: "rep_origin", length: 546 },
  { name: "f1 ori", type: "rep_origin", length: 456 },
  { name: "SV40 ori", type: "rep_origin", length: 136 },
  { name: "T7 terminator", type: "terminator", length: 48 },
  { name: "rrnB T1 terminator", type: "terminator", length: 87 },
  { name: "lambda t0 terminator", type: "terminator", length: 95 },
  { name: "bGH poly(A) signal", type: "terminator", length: 225 },
  { name: "SV40 poly(A) signal", type: "terminator", length: 122 },
];

/** A part of a construct: a feature on the forward (1) or reverse (-1) strand; "INSERT" marks the slot. */
export type Part = readonly [name: string, strand: 1 | -1] | "INSERT";

export interface Backbone {
  name: string;
  resistance: string;
  copyNumber: "High" | "Low" | "Medium";
  parts: readonly Part[];
}

export const BACKBONES: readonly Backbone[] = [
  {
    name: "pUC19",
    resistance: "Ampicillin",
    copyNumber: "High",
    parts: [
      ["lac promoter", 1],
      ["lac operator", 1],
      "INSERT",
      ["MCS", 1],
      ["AmpR promoter", -1],
      ["AmpR", -1],
      ["pUC ori", -1],
    ],
  },
  {
    name: "pET28a",
    resistance: "Kanamycin",
    copyNumber: "Medium",
    parts: [
      ["T7 promoter", 1],
      ["lac operator", 1],
      ["RBS", 1],
      "INSERT",
      ["T7 terminator", 1],
      ["lacI", -1],
      ["KanR", -1],
      ["pBR322 ori", -1],
      ["f1 ori", 1],
    ],
  },
  {
    name: "pcDNA3.1",
    resistance: "Ampicillin",
    copyNumber: "High",
    parts: [
      ["CMV promoter", 1],
      "INSERT",
      ["bGH poly(A) signal", 1],
      ["f1 ori", 1],
      ["SV40 promoter", 1],
      ["NeoR", 1],
      ["SV40 poly(A) signal", 1],
      ["pUC ori", -1],
      ["AmpR", -1],
    ],
  },
  {
    name: "pBAD",
    resistance: "Ampicillin",
    copyNumber: "Medium",
    parts: [
      ["araBAD promoter", 1],
      ["RBS", 1],
      "INSERT",
      ["rrnB T1 terminator", 1],
      ["AmpR", 1],
      ["pBR322 ori", 1],
    ],
  },
  {
    name: "pACYC184",
    resistance: "Chloramphenicol",
    copyNumber: "Low",
    parts: [["tac promoter", 1], "INSERT", ["rrnB T1 terminator", 1], ["CmR", -1], ["p15A ori", 1]],
  },
  {
    name: "pLenti",
    resistance: "Ampicillin",
    copyNumber: "High",
    parts: [
      ["U6 promoter", 1],
      ["sgRNA scaffold", 1],
      ["EF-1a core promoter", 1],
      "INSERT",
      ["PuroR", 1],
      ["SV40 ori", 1],
      ["AmpR", -1],
      ["pUC ori", -1],
    ],
  },
];

export interface Insert {
  /** What the construct name says, e.g. "His-Tev-Cas9". */
  label: string;
  parts: readonly Part[];
}

export const INSERTS: readonly Insert[] = [
  { label: "GFP", parts: [["GFP", 1]] },
  { label: "mCherry", parts: [["mCherry", 1]] },
  { label: "Luc", parts: [["Luciferase", 1]] },
  { label: "Cas9", parts: [["Cas9", 1]] },
  { label: "dCas9", parts: [["dCas9", 1]] },
  {
    label: "His-Tev-Cas9",
    parts: [
      ["6xHis", 1],
      ["TEV site", 1],
      ["Cas9", 1],
    ],
  },
  {
    label: "His-GFP",
    parts: [
      ["6xHis", 1],
      ["GFP", 1],
    ],
  },
  {
    label: "His-SUMO-GFP",
    parts: [
      ["6xHis", 1],
      ["SUMO", 1],
      ["GFP", 1],
    ],
  },
  {
    label: "MBP-Tev-mCherry",
    parts: [
      ["MBP", 1],
      ["TEV site", 1],
      ["mCherry", 1],
    ],
  },
  {
    label: "GST-Tev-Luc",
    parts: [
      ["GST", 1],
      ["TEV site", 1],
      ["Luciferase", 1],
    ],
  },
  {
    label: "FLAG-Cas9",
    parts: [
      ["FLAG", 1],
      ["Cas9", 1],
    ],
  },
  {
    label: "loxP-GFP-loxP",
    parts: [
      ["loxP", 1],
      ["GFP", 1],
      ["loxP", 1],
    ],
  },
];

export const GENE_TARGETS = [
  "EMX1",
  "VEGFA",
  "AAVS1",
  "HEK3",
  "RUNX1",
  "FANCF",
  "CCR5",
  "PCSK9",
  "TP53",
  "KRAS",
];
export const E_COLI_GENES = ["lacZ", "recA", "araB", "galK", "thyA", "endA", "fhuA", "tonA", "malE", "ompT"];
