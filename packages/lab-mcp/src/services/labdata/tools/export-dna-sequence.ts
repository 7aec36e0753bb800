import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { SEQUENCE_FILES, sequenceFileUri } from "../resources.js";

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
  output: {
    id: z.string(),
    name: z.string().nullable(),
    format: z.enum(["fasta", "genbank"]),
    resource_uri: z.string().describe("The same file as a resource of this server."),
    content: z.string().describe("The file's text."),
  },
  async handler({ id, format }, ctx, api: LabdataApi) {
    // The id asked for names the export when the answer leaves it out.
    const read = await api.getSequence(id, ctx);
    const sequence = { ...read, id: read.id || id };
    const file = SEQUENCE_FILES[format];
    const content = file.render(sequence);
    const uri = sequenceFileUri(id, format);
    const name = sequence.name ?? null;
    const stem = (name ?? id).replace(/[^A-Za-z0-9._-]+/g, "_");
    // The text is the file itself, so the file is linked, not embedded a second time.
    return reply({ id: sequence.id, name, format, resource_uri: uri, content }, content, [
      { uri, name: `${stem}.${file.extension}`, mimeType: file.mimeType, body: content, embed: false },
    ]);
  },
});
