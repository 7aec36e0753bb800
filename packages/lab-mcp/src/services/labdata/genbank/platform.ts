// Between GenBank features and the platform's annotations (its OpenAPI document, DnaAnnotation): an
// annotation holds one range (on a circular sequence, one across the origin), a strand, a type, a
// name, notes and name/value custom fields. The feature's /label is the name, its /note the notes,
// every other qualifier a custom field. What an annotation cannot hold (several parts, partial ends,
// a place in another entry) is named in `notKept`, never dropped in silence.
import type { Annotation } from "../records/platform.js";
import type { Segment } from "./location.js";
import type { Feature, GenBankRecord } from "./read.js";
import type { WritableFeature } from "./write.js";

/** An annotation as the platform takes it on create. */
export interface NewAnnotation {
  start: number;
  end: number;
  strand: number;
  type: string;
  name: string;
  notes?: string;
  customFields?: Array<{ name: string; value: string }>;
}

/** The document's limits on an annotation. */
const MAX_NAME = 2048;
const MAX_NOTES = 10_000;
const MAX_CUSTOM_FIELDS = 100;
/** The qualifier that carries a type no feature key can spell. */
export const TYPE_QUALIFIER = "feature_type";
/** Where an unnamed feature's name comes from, in order. */
const NAME_QUALIFIERS = ["label", "gene", "product", "locus_tag", "standard_name"];

/** The platform writes an end at the end of the sequence as 0 (its OpenAPI document, DnaAnnotation). */
export function annotationEnd(end: number, length: number): number {
  return end === 0 && length > 0 ? length : end;
}

// ---- export: annotation -> feature ----

/** The feature of an annotation, or undefined when the annotation has no place on the sequence. */
export function annotationFeature(annotation: Annotation, length: number): WritableFeature | undefined {
  if (typeof annotation.start !== "number" || typeof annotation.end !== "number") return undefined;
  const start = annotation.start + 1;
  const end = annotationEnd(annotation.end, length);
  const strand: 1 | -1 = annotation.strand === -1 ? -1 : 1;
  const range = (from: number, to: number): Segment => ({
    start: from,
    end: to,
    strand,
    startMark: "",
    endMark: "",
  });
  // A feature across the origin of a circular sequence ends before it starts: two parts, in the
  // strand's own order.
  const parts = start <= end ? [range(start, end)] : [range(start, length), range(1, end)];
  const segments = strand === -1 ? parts.reverse() : parts;
  const { key, typeQualifier } = featureKey(annotation.type);
  const qualifiers: WritableFeature["qualifiers"] = [];
  if (annotation.name) qualifiers.push({ name: "label", value: annotation.name });
  if (typeQualifier) qualifiers.push({ name: TYPE_QUALIFIER, value: typeQualifier });
  const notes = (annotation as { notes?: unknown }).notes;
  if (typeof notes === "string" && notes) qualifiers.push({ name: "note", value: notes });
  for (const field of customFields(annotation)) {
    qualifiers.push({ name: qualifierName(field.name), value: field.value || null });
  }
  return { key, operator: segments.length > 1 ? "join" : undefined, segments, qualifiers };
}

function customFields(annotation: Annotation): Array<{ name: string; value: string }> {
  const fields = (annotation as { customFields?: unknown }).customFields;
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((field) => {
    const { name, value } = (field ?? {}) as { name?: unknown; value?: unknown };
    return typeof name === "string" && name ? [{ name, value: typeof value === "string" ? value : "" }] : [];
  });
}

/** A qualifier name is one word of letters, digits and _ (the format's rule). */
function qualifierName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** Feature keys of the INSDC table kept as they are; a few platform spellings mapped to theirs. */
const FEATURE_KEYS = new Set(
  (
    "assembly_gap C_region CDS centromere D-loop D_segment exon gap gene iDNA intron J_segment " +
    "mat_peptide misc_binding misc_difference misc_feature misc_recomb misc_RNA misc_structure " +
    "mobile_element modified_base mRNA ncRNA N_region old_sequence operon oriT polyA_site precursor_RNA " +
    "prim_transcript primer_bind propeptide protein_bind regulatory repeat_region rep_origin rRNA S_region " +
    "sig_peptide source stem_loop STS telomere tmRNA transit_peptide tRNA unsure V_region V_segment " +
    "variation 3'UTR 5'UTR promoter terminator RBS enhancer polyA_signal"
  ).split(" "),
);
const ALIASES: Record<string, string> = {
  origin: "rep_origin",
  ori: "rep_origin",
  primer: "primer_bind",
  rbs: "RBS",
  cds: "CDS",
};

/** The key for a type; a type no key names is written as misc_feature with /feature_type. */
function featureKey(type: string | null | undefined): { key: string; typeQualifier?: string } {
  if (!type) return { key: "misc_feature" };
  if (FEATURE_KEYS.has(type)) return { key: type };
  const alias = ALIASES[type.toLowerCase()];
  if (alias) return { key: alias };
  return { key: "misc_feature", typeQualifier: type };
}

// ---- import: record -> sequence ----

export interface ImportedSequence {
  name: string;
  bases: string;
  isCircular: boolean;
  annotations: NewAnnotation[];
  /** What the platform cannot hold, one sentence each, naming the feature. */
  notKept: string[];
}

export class FeatureError extends Error {}

export function importRecord(record: GenBankRecord, circular: boolean | undefined): ImportedSequence {
  const isCircular = circular ?? record.isCircular ?? false;
  const length = record.bases.length;
  const notKept: string[] = [];
  const annotations: NewAnnotation[] = [];
  for (const feature of record.features) {
    const annotation = importFeature(feature, length, isCircular, notKept);
    if (annotation) annotations.push(annotation);
  }
  return { name: recordName(record), bases: record.bases, isCircular, annotations, notKept };
}

/** The DEFINITION when the LOCUS name is it with spaces made _ (as the export writes), else LOCUS. */
function recordName(record: GenBankRecord): string {
  const definition = record.definition?.replace(/\.$/, "").trim();
  if (definition && definition.replace(/\s+/g, "_") === record.name) return definition;
  return record.name;
}

function importFeature(
  feature: Feature,
  length: number,
  isCircular: boolean,
  notKept: string[],
): NewAnnotation | undefined {
  const qualifiers = feature.qualifiers;
  const label = NAME_QUALIFIERS.map((n) => qualifiers.find((q) => q.name === n)?.value).find((v) =>
    v?.trim(),
  );
  const what = `${feature.key} "${label ?? "unnamed"}" at ${short(feature.location)} (line ${feature.line})`;
  if (feature.key === "source") {
    const described = qualifiers.filter((q) => q.name !== "mol_type").map((q) => `/${q.name}`);
    if (described.length > 0)
      notKept.push(
        `source feature at line ${feature.line} (${described.join(", ")}): a record's description, not an annotation`,
      );
    return undefined;
  }
  const { parsed } = feature;
  if (parsed.unsupported || parsed.segments.length === 0) {
    notKept.push(`${what}: not created, ${parsed.unsupported ?? "it has no range"}`);
    return undefined;
  }
  for (const s of parsed.segments) {
    if (s.start < 1 || s.end > length || s.start > length)
      throw new FeatureError(`${what} does not fit the ${length} bases`);
  }
  const range = singleRange(parsed.segments, length, isCircular);
  if (!range) {
    notKept.push(
      `${what}: not created, ${parsed.operator ?? "join"} of ${parsed.segments.length} parts; an annotation holds one range (or one across the origin of a circular sequence)`,
    );
    return undefined;
  }
  if (parsed.segments.some((s) => s.startMark || s.endMark))
    notKept.push(`${what}: its partial ends (< or >); created with plain ends`);
  const typeField = qualifiers.find((q) => q.name === TYPE_QUALIFIER)?.value;
  let name = label ?? feature.key;
  if (name.length > MAX_NAME) {
    notKept.push(`${what}: its name past ${MAX_NAME} characters`);
    name = name.slice(0, MAX_NAME);
  }
  const annotation: NewAnnotation = { ...range, type: typeField || feature.key, name };
  const rest = [...qualifiers];
  const take = (qualifierName: string) => {
    const at = rest.findIndex((q) => q.name === qualifierName);
    return at === -1 ? undefined : rest.splice(at, 1)[0];
  };
  if (qualifiers.some((q) => q.name === "label")) take("label");
  if (typeField) take(TYPE_QUALIFIER);
  const note = take("note");
  if (note?.value) {
    if (note.value.length > MAX_NOTES) notKept.push(`${what}: its /note past ${MAX_NOTES} characters`);
    annotation.notes = note.value.slice(0, MAX_NOTES);
  }
  if (rest.length > MAX_CUSTOM_FIELDS) {
    const dropped = rest.splice(MAX_CUSTOM_FIELDS).map((q) => `/${q.name}`);
    notKept.push(
      `${what}: qualifiers past the ${MAX_CUSTOM_FIELDS} an annotation holds (${dropped.join(", ")})`,
    );
  }
  if (rest.length > 0) annotation.customFields = rest.map((q) => ({ name: q.name, value: q.value ?? "" }));
  return annotation;
}

/** The one range the parts make (0-based, end exclusive), or undefined when they make several. */
function singleRange(
  segments: Segment[],
  length: number,
  isCircular: boolean,
): { start: number; end: number; strand: number } | undefined {
  const [a, b] = segments;
  if (!a) return undefined;
  if (segments.length === 1) {
    if (a.start > a.end && !isCircular) return undefined;
    return { start: a.start - 1, end: a.end, strand: a.strand };
  }
  if (!b || segments.length > 2 || !isCircular || a.strand !== b.strand) return undefined;
  // Across the origin: forward lists the part up to the end first; reverse the part from 1 first.
  const [tail, head] = a.strand === 1 ? [a, b] : [b, a];
  if (tail.end === length && head.start === 1 && tail.start > head.end)
    return { start: tail.start - 1, end: head.end, strand: a.strand };
  return undefined;
}

function short(location: string): string {
  return location.length > 60 ? `${location.slice(0, 57)}...` : location;
}
