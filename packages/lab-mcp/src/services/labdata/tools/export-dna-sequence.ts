import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
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
  async handler({ id, format }, ctx, api: LabdataApi) {
    // The id asked for names the export when the answer leaves it out.
    const read = await api.getSequence(id, ctx);
    const sequence = { ...read, id: read.id || id };
    return format === "genbank" ? toGenBank(sequence) : toFasta(sequence);
  },
});
