import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { boundedString, identifier } from "../../../core/inputs.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { bulkCreateSequences } from "../api/bulk-create.js";
import type { LabdataClient, NewDnaSequence } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { detectFormat, parseFasta } from "../format/sequence-text.js";
import { FeatureError, type ImportedSequence, importRecord } from "../genbank/platform.js";
import { GenBankSyntaxError, readGenBank } from "../genbank/read.js";
import { annotationSchema, flag, integer, list, text } from "../records/platform.js";

const MAX_SEQUENCES = 1000;
const MAX_TEXT = 8_000_000;
const NAME = "labdata_create_sequences_bulk";

function invalid(message: string): InvalidInputError {
  return new InvalidInputError(`Error: Invalid input for ${NAME}: ${message}`);
}

interface Prepared {
  sequences: NewDnaSequence[];
  /** What the platform cannot hold, per sequence, by name. */
  notKept: string[];
}

/** The records as the platform's create bodies, or the first problem as a clear input error. */
function prepare(records: ImportedSequence[], folderId: string): Prepared {
  if (records.length === 0)
    throw invalid("text: no sequence found (FASTA records start with '>', GenBank with LOCUS).");
  if (records.length > MAX_SEQUENCES)
    throw invalid(`text: ${records.length} sequences; at most ${MAX_SEQUENCES} at once.`);
  const notKept: string[] = [];
  const sequences = records.map((record, i) => {
    const label = `sequence ${i + 1}${record.name ? ` (${record.name})` : ""}`;
    if (!record.name) throw invalid(`text: ${label} has no name.`);
    if (!record.bases) throw invalid(`text: ${label} has no bases.`);
    const bad = record.bases.match(/[^ACGTURYSWKMBDHVN]/);
    if (bad) throw invalid(`text: ${label}: '${bad[0]}' is not a DNA base (use A, C, G, T or IUPAC codes).`);
    for (const line of record.notKept) notKept.push(`${label}: ${line}`);
    return {
      name: record.name.slice(0, 200),
      bases: record.bases,
      isCircular: record.isCircular,
      folderId,
      aliases: [],
      annotations: record.annotations,
    };
  });
  return { sequences, notKept };
}

/** The records of the text, GenBank through its own reader (genbank/), FASTA plainly. */
function readRecords(text: string, format: "fasta" | "genbank", circular: boolean | undefined) {
  if (format === "fasta")
    return parseFasta(text).map((r) => ({
      name: r.name,
      bases: r.bases,
      isCircular: circular ?? false,
      annotations: [],
      notKept: [],
    }));
  try {
    const records = readGenBank(text);
    if (records.length > MAX_SEQUENCES)
      throw invalid(`text: ${records.length} sequences; at most ${MAX_SEQUENCES} at once.`);
    const imported = records.map((record) => importRecord(record, circular));
    const headers = [...new Set(records.flatMap((r) => r.otherHeaders))].filter(
      (h) => !KEPT_ELSEWHERE.has(h),
    );
    if (imported[0] && headers.length > 0)
      imported[0].notKept.push(
        `header sections ${headers.join(", ")}: the platform keeps a sequence's name, bases, topology and annotations`,
      );
    return imported;
  } catch (error) {
    if (error instanceof GenBankSyntaxError || error instanceof FeatureError)
      throw invalid(`text: ${error.message}`);
    throw error;
  }
}

/** Header sections that name the record itself: a created sequence gets its own id and registry id. */
const KEPT_ELSEWHERE = new Set(["ACCESSION", "VERSION"]);

/** A created sequence as its line shows it: name (id), length, topology, and the annotations it counts. */
const createdSchema = z.looseObject({
  id: text,
  name: text,
  length: integer,
  isCircular: flag,
  annotations: list(annotationSchema),
});

export const createSequencesBulk = defineTool({
  name: NAME,
  title: "Create DNA Sequences in Bulk",
  description:
    "Create many DNA sequences from FASTA or GenBank text (features become annotations) in a folder, all " +
    "or none, with progress. Each call creates new ones.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    text: boundedString({
      description: "FASTA ('>name' records) or GenBank (LOCUS ... // records) text.",
      max: MAX_TEXT,
      multiline: true,
    }),
    format: z.enum(["auto", "fasta", "genbank"]).default("auto").describe("'auto': by the first line."),
    folder_id: identifier("Folder to create them in."),
    is_circular: z
      .boolean()
      .optional()
      .describe("Circular, for all; default: GenBank's LOCUS line, else linear."),
  },
  output: {
    count: z.number().int(),
    dna_sequences: z.array(createdSchema),
    not_kept: z
      .array(z.string())
      .describe("What the platform cannot hold (a join of parts, partial ends...)."),
  },
  async handler({ text, format, folder_id, is_circular }, ctx, client: LabdataClient) {
    const chosen = format === "auto" ? detectFormat(text) : format;
    if (!chosen) throw invalid("text: neither FASTA (a first line starting with '>') nor GenBank (LOCUS).");
    const { sequences, notKept } = prepare(readRecords(text, chosen, is_circular), folder_id);
    await ctx.progress(0, `Sending ${sequences.length} sequences to the platform`);
    const created = await bulkCreateSequences(client, sequences, ctx);
    await ctx.progress(1, `Created ${created.length} sequences`);
    const listed = created.map(({ bases: _b, translations: _t, primers: _p, ...rest }) => rest);
    const structured = { count: listed.length, dna_sequences: listed, not_kept: notKept };
    if (listed.length === 0) {
      return reply(
        structured,
        "The platform reported success but listed no created sequences; list the folder to check.",
      );
    }
    return reply(
      structured,
      markdown(
        heading(1, `Created ${listed.length} DNA sequences in folder ${folder_id}`),
        listed.map(
          (s) =>
            `- ${nameAndId(s.name, s.id)}: ${s.length ?? "?"} bp, ${s.isCircular ? "circular" : "linear"}, ${s.annotations?.length ?? 0} annotations`,
        ),
        notKept.length > 0 && heading(2, `Not kept (${notKept.length}): the platform cannot hold these`),
        notKept.length > 0 && notKept.map((line) => `- ${line}`),
      ),
    );
  },
});
