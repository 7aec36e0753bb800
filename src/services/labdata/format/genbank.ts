// GenBank flat file, with a feature per annotation. The platform's annotations are 0-based with an
// exclusive end; GenBank locations are 1-based and inclusive.
import type { Annotation, DnaSequence } from "../types.js";
import { chunk } from "./fasta.js";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export function toGenBank(sequence: DnaSequence): string {
  const bases = sequence.bases.toLowerCase();
  const locusName = sequence.name.replace(/\s+/g, "_").slice(0, 16);
  const lines = [
    `LOCUS       ${locusName.padEnd(16)} ${String(bases.length).padStart(11)} bp    DNA     ${
      sequence.isCircular ? "circular" : "linear  "
    } SYN ${genBankDate(sequence.modifiedAt ?? sequence.createdAt)}`,
    `DEFINITION  ${sequence.name}.`,
    `ACCESSION   ${sequence.entityRegistryId ?? sequence.id}`,
    `VERSION     ${sequence.entityRegistryId ?? sequence.id}`,
    "KEYWORDS    .",
    "SOURCE      synthetic DNA construct",
    "  ORGANISM  synthetic DNA construct",
    "FEATURES             Location/Qualifiers",
    `     source          1..${bases.length}`,
    '                     /mol_type="other DNA"',
    ...(sequence.annotations ?? []).flatMap((annotation) => feature(annotation, bases.length)),
    "ORIGIN",
    ...chunk(bases, 60).map((line, i) => `${String(i * 60 + 1).padStart(9)} ${chunk(line, 10).join(" ")}`),
    "//",
  ];
  return lines.join("\n");
}

function feature(annotation: Annotation, length: number): string[] {
  const key = featureKey(annotation.type);
  const start = annotation.start + 1;
  const end = annotation.end;
  // A feature across the origin of a circular sequence ends before it starts.
  let location = start <= end ? `${start}..${end}` : `join(${start}..${length},1..${end})`;
  if (annotation.strand === -1) location = `complement(${location})`;
  const lines = [`     ${key.padEnd(16)}${location}`];
  if (annotation.name) lines.push(`                     /label="${annotation.name.replace(/"/g, "'")}"`);
  if (annotation.type && key === "misc_feature" && annotation.type !== "misc_feature") {
    lines.push(`                     /note="${annotation.type.replace(/"/g, "'")}"`);
  }
  return lines;
}

/** Annotation types the GenBank feature table knows keep their name; others become misc_feature. */
const FEATURE_KEYS = new Set([
  "CDS",
  "gene",
  "promoter",
  "terminator",
  "rep_origin",
  "primer_bind",
  "RBS",
  "regulatory",
  "misc_feature",
  "protein_bind",
  "enhancer",
  "polyA_signal",
  "sig_peptide",
  "mRNA",
  "exon",
  "intron",
]);
const ALIASES: Record<string, string> = {
  origin: "rep_origin",
  ori: "rep_origin",
  primer: "primer_bind",
  rbs: "RBS",
  cds: "CDS",
};

function featureKey(type: string | null | undefined): string {
  if (!type) return "misc_feature";
  if (FEATURE_KEYS.has(type)) return type;
  return ALIASES[type.toLowerCase()] ?? "misc_feature";
}

function genBankDate(value: string | null | undefined): string {
  const date = value ? new Date(value) : new Date(0);
  const safe = Number.isNaN(date.getTime()) ? new Date(0) : date;
  return `${String(safe.getUTCDate()).padStart(2, "0")}-${MONTHS[safe.getUTCMonth()]}-${safe.getUTCFullYear()}`;
}
