import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { sequenceLength } from "../format/facts.js";
import { toFasta } from "../format/fasta.js";
import { toGenBank } from "../format/genbank.js";

export const exportDnaSequence = defineTool({
  name: "labdata_export_dna_sequence",
  title: "Export DNA Sequence",
  description:
    "Export one DNA sequence with all its bases as FASTA, or as GenBank with a feature per annotation, ready to " +
    "save or paste into another tool. Find ids with labdata_list_dna_sequences.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    id: identifier("Id of the DNA sequence (from labdata_list_dna_sequences)."),
    format: z
      .enum(["fasta", "genbank"])
      .default("fasta")
      .describe("'fasta' (default) or 'genbank' (with features)."),
  },
  // What was exported; the text is the export itself.
  output: {
    id: z.string(),
    name: z.string().nullable(),
    format: z.enum(["fasta", "genbank"]),
    length: z
      .number()
      .int()
      .nullable()
      .describe("Bases in the sequence; null when the platform did not say."),
    bytes: z.number().int().describe("Size of the exported text (UTF-8)."),
  },
  async handler({ id, format }, ctx, api: LabdataApi) {
    // The id asked for names the export when the answer leaves it out.
    const read = await api.getSequence(id, ctx);
    const sequence = { ...read, id: read.id || id };
    const text = format === "genbank" ? toGenBank(sequence) : toFasta(sequence);
    const exported = {
      id: sequence.id,
      name: sequence.name ?? null,
      format,
      length: sequenceLength(sequence) ?? null,
      bytes: Buffer.byteLength(text),
    };
    return reply(exported, text);
  },
});
