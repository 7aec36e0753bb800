import { identifier, responseFormat } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { sequenceMarkdown } from "../format/sequence-markdown.js";
import { dnaSequenceSchema } from "../records/platform.js";

export const getDnaSequence = defineTool({
  name: "labdata_get_dna_sequence",
  title: "Get DNA Sequence",
  description:
    "Read one DNA sequence by id: name, length, topology, folder, registry id, dates, its annotations and the first " +
    "bases (markdown), or the complete record with all bases (json). Find ids with labdata_list_dna_sequences.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    id: identifier("Id of the DNA sequence, e.g. seq_a1B2c3 (from labdata_list_dna_sequences)."),
    response_format: responseFormat,
  },
  output: dnaSequenceSchema.shape,
  async handler({ id, response_format }, ctx, api: LabdataApi) {
    const sequence = await api.getSequence(id, ctx);
    return reply(sequence, response_format === "json" ? json(sequence) : sequenceMarkdown(sequence, id));
  },
});
