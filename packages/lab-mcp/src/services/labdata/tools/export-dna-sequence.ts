import { z } from "zod";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { resolveEntity } from "../entity-ref.js";
import { sequenceLength } from "../format/facts.js";
import { ENTITY, pastedId } from "../pasted-id.js";
import { SEQUENCE_FILES, sequenceFileUri } from "../resources.js";
import { plasmidMapView } from "../views/index.js";

export const exportDnaSequence = defineTool({
  name: "labdata_export_dna_sequence",
  title: "Export DNA Sequence",
  description:
    "Export one DNA sequence with all its bases as FASTA, or GenBank with its features, as a file.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  view: plasmidMapView,
  input: {
    id: pastedId("Id, registry id (PL09003) or its page's address.", ENTITY),
    format: z.enum(["fasta", "genbank"]).default("fasta").describe("'genbank': with its features."),
  },
  // What was exported, and where the file is as a resource; the text is the export itself.
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
    resource_uri: z.string().describe("The same file as a resource of this server."),
  },
  async handler({ id: named, format }, ctx, client: LabdataClient) {
    const { id } = await resolveEntity(client, named, undefined, ctx);
    // The id asked for names the export when the answer leaves it out.
    const read = await client.getSequence(id, ctx);
    const sequence = { ...read, id: read.id || id };
    const file = SEQUENCE_FILES[format];
    const content = file.render(sequence);
    const uri = sequenceFileUri(id, format);
    const name = sequence.name ?? null;
    const stem = (name ?? id).replace(/[^A-Za-z0-9._-]+/g, "_");
    // The text is the file itself, so the file is linked, not embedded a second time.
    const exported = {
      id: sequence.id,
      name,
      format,
      length: sequenceLength(sequence) ?? null,
      bytes: Buffer.byteLength(content),
      resource_uri: uri,
    };
    // The map draws the record's features; its bases are in the file.
    const { bases: _bases, ...drawn } = sequence;
    return {
      ...reply(exported, content, [
        { uri, name: `${stem}.${file.extension}`, mimeType: file.mimeType, body: content, embed: false },
      ]),
      viewData: { sequence: { ...drawn, length: exported.length } },
    };
  },
});
