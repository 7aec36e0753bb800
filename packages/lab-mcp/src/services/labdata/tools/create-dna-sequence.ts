import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { boundedInteger, boundedString, identifier, stringList } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { sequenceLength } from "../format/facts.js";
import { nameAndId } from "../format/labels.js";
import { sequenceMarkdown } from "../format/sequence-markdown.js";

const MAX_BASES = 1_000_000;

const annotation = z.strictObject({
  name: boundedString({ description: "e.g. 'GFP'.", max: 200 }),
  type: boundedString({ description: "e.g. CDS, promoter.", max: 50 }),
  start: boundedInteger({ description: "First base, 1-based.", min: 1, max: MAX_BASES }),
  end: boundedInteger({ description: "Last base, inclusive.", min: 1, max: MAX_BASES }),
  strand: z.enum(["forward", "reverse"]).default("forward").describe("Strand."),
});

export const createDnaSequence = defineTool({
  name: "labdata_create_dna_sequence",
  title: "Create DNA Sequence",
  description:
    "Create a DNA sequence (with aliases and annotations) in a folder; each call creates another one.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    name: boundedString({ description: "Name, e.g. 'pUC19-GFP-v4'.", max: 200 }),
    bases: boundedString({
      description: "A, C, G, T or IUPAC; whitespace and digits ignored.",
      max: 2 * MAX_BASES,
      multiline: true,
    }),
    folder_id: identifier("Folder id."),
    is_circular: z.boolean().default(false).describe("Circular, e.g. a plasmid."),
    aliases: stringList({ description: "Other names." }),
    annotations: z.array(annotation).max(200).default([]).describe("Features."),
  },
  // What was created: the new sequence's id and where it is (its web address is in the text).
  output: {
    id: z.string().nullable(),
    name: z.string(),
    folder_id: z.string(),
    length: z.number().int(),
    is_circular: z.boolean(),
  },
  async handler({ name, bases, folder_id, is_circular, aliases, annotations }, ctx, client: LabdataClient) {
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
    const created = await client.createSequence(
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
