// A DNA sequence as a client or the admin API submits it: its shape (zod), then the rules that need the
// whole record (annotations and primers inside the bases), then the stored record.
import { z } from "zod";
import type { Annotation, DnaSequence, Primer, Translation } from "../state/model.js";
import { DNA_LETTERS, reverseComplement, translate } from "./dna.js";

const MAX_BASES = 1_000_000;
const strand = z.union([z.literal(-1), z.literal(0), z.literal(1)]);
const position = z.number().int().min(0).max(MAX_BASES);
const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, "must be a color like #4285F4");

const annotationSchema = z
  .object({
    start: position,
    end: position,
    strand: strand.default(1),
    type: z.string().trim().min(1).max(50).default("misc_feature"),
    // The OpenAPI document's SequenceFeatureBase: name up to 2048, notes up to 10,000, at most 100
    // custom fields (a GenBank import's qualifiers).
    name: z.string().trim().min(1).max(2048),
    color: color.default("#9E9E9E"),
    notes: z.string().max(10_000).optional(),
    customFields: z
      .array(z.object({ name: z.string().min(1).max(200), value: z.string().max(10_000) }).strict())
      .max(100)
      .optional(),
  })
  .strict();

const primerSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    bases: z.string().regex(DNA_LETTERS, "must be DNA letters").max(200),
    start: position,
    end: position,
    strand: z.union([z.literal(-1), z.literal(1)]).default(1),
    overhangLength: z.number().int().min(0).max(200).default(0),
    color: color.default("#0F9D58"),
    oligoId: z.string().max(100).nullable().default(null),
  })
  .strict();

const translationSchema = z
  .object({ start: position, end: position, strand: z.union([z.literal(-1), z.literal(1)]).default(1) })
  .strict();

export const createSequenceSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    bases: z
      .string()
      .min(1)
      .max(MAX_BASES)
      .regex(DNA_LETTERS, "must contain only DNA letters: A, C, G, T or IUPAC ambiguity codes"),
    isCircular: z.boolean(),
    folderId: z.string().min(1).max(100),
    aliases: z.array(z.string().trim().min(1).max(255)).max(50).default([]),
    annotations: z.array(annotationSchema).max(2000).default([]),
    primers: z.array(primerSchema).max(200).default([]),
    translations: z.array(translationSchema).max(200).default([]),
    customFields: z
      .record(z.string().min(1).max(100), z.object({ value: z.string().max(10_000) }).strict())
      .default({}),
  })
  .strict();

export type SequenceInput = z.input<typeof createSequenceSchema>;
export type ParsedSequenceInput = z.output<typeof createSequenceSchema>;

// A range inside the bases; on a circular sequence it may wrap past the end (end < start).
function rangeProblem(
  what: string,
  start: number,
  end: number,
  length: number,
  circular: boolean,
): string | undefined {
  if (start > length || end > length) return `${what}: start and end must be within the ${length} bases`;
  if (start === end || (start > end && !circular)) return `${what}: start must be before end`;
  return undefined;
}

/** The first rule the record breaks, or undefined when it is sound. */
export function sequenceProblem(input: ParsedSequenceInput): string | undefined {
  const length = input.bases.length;
  for (const [i, a] of input.annotations.entries()) {
    const problem = rangeProblem(`annotations.${i}`, a.start, a.end, length, input.isCircular);
    if (problem) return problem;
  }
  for (const [i, p] of input.primers.entries()) {
    const problem = rangeProblem(`primers.${i}`, p.start, p.end, length, false);
    if (problem) return problem;
  }
  for (const [i, t] of input.translations.entries()) {
    const problem = rangeProblem(`translations.${i}`, t.start, t.end, length, false);
    if (problem) return problem;
  }
  return undefined;
}

function translationOf(bases: string, t: { start: number; end: number; strand: -1 | 1 }): Translation {
  const region = bases.slice(t.start, t.end);
  const coding = t.strand === 1 ? region : reverseComplement(region);
  return {
    ...t,
    aminoAcids: translate(coding).replace(/\*$/, ""),
    regions: [{ start: t.start, end: t.end }],
  };
}

export interface SequenceMeta {
  id: string;
  creatorId: string;
  now: number;
  entityRegistryId?: string | null;
  archiveReason?: string | null;
}

/** The stored record of a checked input; bases are kept upper case. */
export function buildSequence(input: ParsedSequenceInput, meta: SequenceMeta): DnaSequence {
  const bases = input.bases.toUpperCase();
  const annotations: Annotation[] = input.annotations.map((a) => ({ ...a }));
  const primers: Primer[] = input.primers.map((p) => ({
    ...p,
    bases: p.bases.toUpperCase(),
    bindPosition: p.strand === 1 ? p.start : p.end - 1,
  }));
  return {
    id: meta.id,
    name: input.name,
    bases,
    isCircular: input.isCircular,
    aliases: [...input.aliases],
    folderId: input.folderId,
    entityRegistryId: meta.entityRegistryId ?? null,
    schema: null,
    fields: {},
    customFields: structuredClone(input.customFields),
    annotations,
    primers,
    translations: input.translations.map((t) => translationOf(bases, t)),
    creatorId: meta.creatorId,
    createdAt: meta.now,
    modifiedAt: meta.now,
    archiveReason: meta.archiveReason ?? null,
  };
}
