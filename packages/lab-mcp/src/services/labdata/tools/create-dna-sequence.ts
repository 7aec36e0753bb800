import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { boundedInteger, boundedString, identifier, stringList } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { sequenceLength } from "../format/facts.js";
import { nameAndId } from "../format/labels.js";
import { sequenceMarkdown } from "../format/sequence-markdown.js";

const MAX_BASES = 1_000_000;

const annotation = z
  .strictObject({
    name: boundedString({ description: "Name of the feature, e.g. 'GFP'.", max: 200 }),
    type: boundedString({
      description: "Feature type, e.g. CDS, promoter, terminator, rep_origin.",
      max: 50,
    }),
    start: boundedInteger({ description: "First base, 1-based.", min: 1, max: MAX_BASES }),
    end: boundedInteger({ description: "Last base, 1-based, inclusive.", min: 1, max: MAX_BASES }),
    strand: z.enum(["forward", "reverse"]).default("forward").describe("'forward' (default) or 'reverse'."),
  })
  .describe("One annotation (feature) on the new sequence.");

export const createDnaSequence = defineTool({
  name: "labdata_create_dna_sequence",
  title: "Create DNA Sequence",
  description:
    "Create a DNA sequence in a folder, with optional aliases and annotations. Each call creates another " +
    "one. Returns its id.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "sequences",
  input: {
    name: boundedString({ description: "Name of the sequence, e.g. 'pUC19-GFP-v4'.", max: 200 }),
    bases: boundedString({
      description: "The bases (A, C, G, T, or IUPAC N, R, Y...); whitespace and digits are ignored.",
      max: 2 * MAX_BASES,
      multiline: true,
    }),
    folder_id: identifier("Folder to create it in."),
    is_circular: z
      .boolean()
      .default(false)
      .describe("True for a circular molecule such as a plasmid (default false)."),
    aliases: stringList({ description: "Other names of the sequence (at most 10)." }),
    annotations: z.array(annotation).max(200).default([]).describe("Features to annotate (at most 200)."),
  },
  // What was created: the new sequence's id and where it is (get the whole record with labdata_get_dna_sequence).
  output: {
    id: z.string().nullable().describe("The new sequence's id; null if the platform's answer left it out."),
    name: z.string(),
    folder_id: z.string(),
    length: z.number().int(),
    is_circular: z.boolean(),
    web_url: z.string().nullable(),
  },
  async handler({ name, bases, folder_id, is_circular, aliases, annotations }, ctx, api: LabdataApi) {
    const clean = bases.replace(/[\s\d]/g, "").toUpperCase();
    const bad = clean.match(/[^ACGTURYSWKMBDHVN]/);
    if (!clean)
      throw new InvalidInputError(
        "Error: Invalid input for labdata_create_dna_sequence: bases: no bases given.",
      );
    if (bad) {
      throw new InvalidInputError(
        `Error: Invalid input for labdata_create_dna_sequence: bases: '${bad[0]}' is not a DNA base (use A, C, G, T or IUPAC codes).`,
      );
    }
    const outside = annotations.find((a) => a.end > clean.length || (!is_circular && a.start > a.end));
    if (outside) {
      throw new InvalidInputError(
        `Error: Invalid input for labdata_create_dna_sequence: annotations: '${outside.name}' (${outside.start}..${outside.end}) does not fit a sequence of ${clean.length} bases.`,
      );
    }
    const created = await api.createSequence(
      {
        name,
        bases: clean,
        isCircular: is_circular,
        folderId: folder_id,
        aliases,
        // The platform counts from 0 with an exclusive end.
        annotations: annotations.map((a) => ({
          ...a,
          start: a.start - 1,
          strand: a.strand === "reverse" ? -1 : 1,
        })),
      },
      ctx,
    );
    const done = {
      id: created.id ?? null,
      name: created.name ?? name,
      folder_id: created.folderId ?? folder_id,
      length: sequenceLength(created) ?? clean.length,
      is_circular: created.isCircular ?? is_circular,
      web_url: created.webURL ?? null,
    };
    return reply(
      done,
      `Created DNA sequence ${nameAndId(created.name ?? name, created.id)}.\n\n${sequenceMarkdown(created)}`,
    );
  },
});
