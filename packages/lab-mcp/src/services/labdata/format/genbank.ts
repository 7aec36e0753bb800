// GenBank flat file, with a feature per annotation. The platform's annotations are 0-based with an
// exclusive end; GenBank locations are 1-based and inclusive.
import type { Annotation, DnaSequence } from "../records/platform.js";
import { chunk } from "./fasta.js";
import { displayName } from "./labels.js";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export function toGenBank(sequence: DnaSequence): string {
  const bases = (sequence.bases ?? "").toLowerCase();
  const name = displayName(sequence.name, sequence.id ?? "unnamed");
  const accession = sequence.entityRegistryId || sequence.id || ".";
  const locusName = name.replace(/\s+/g, "_").slice(0, 16);
  const lines = [
    `LOCUS       ${locusName.padEnd(16)} ${String(bases.length).padStart(11)} bp    DNA     ${
      sequence.isCircular ? "circular" : "linear  "
    } SYN ${genBankDate(sequence.modifiedAt ?? sequence.createdAt)}`,
    `DEFINITION  ${name.replace(/\s+/g, " ")}.`,
    `ACCESSION   ${accession}`,
    `VERSION     ${accession}`,
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
  // A feature without a place on the sequence cannot be written.
  if (typeof annotation.start !== "number" || typeof annotation.end !== "number") return [];
  const key = featureKey(annotation.type);
  const start = annotation.start + 1;
  const end = annotationEnd(annotation.end, length);
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

/** The platform writes an end at the end of the sequence as 0 (its OpenAPI document, DnaAnnotation). */
export function annotationEnd(end: number, length: number): number {
  return end === 0 && length > 0 ? length : end;
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
