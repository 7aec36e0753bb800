import { z } from "zod";
import { identifier, responseFormat } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { ENTITY_TYPES, findEntity } from "../api/entities.js";
import type { LabdataApi } from "../client.js";
import { entityFasta, entityMarkdown } from "../format/entity-markdown.js";
import { entitySchema } from "../records/registry.js";

export const getEntity = defineTool({
  name: "labdata_get_entity",
  title: "Get Entity",
  description:
    "Read one AA sequence, DNA or RNA oligo, custom entity (strain, cell line...) or DNA sequence by id: type, " +
    "length, schema, registry id, aliases, fields, dates and the first residues (markdown), the complete record " +
    "(json), or FASTA of its amino acids or bases (fasta=true). Ids come from labdata_search_entities and the lists.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    id: identifier("Id of the entity, e.g. prtn_a1B2c3d4 or seq_a1B2c3d4."),
    type: z
      .enum(ENTITY_TYPES)
      .optional()
      .describe("Its type, when known (it saves requests for seq_ ids, shared by oligos and DNA sequences)."),
    fasta: z
      .boolean()
      .default(false)
      .describe("True: answer with the FASTA of its residues instead (sequences and oligos)."),
    response_format: responseFormat,
  },
  output: entitySchema.shape,
  async handler({ id, type, fasta, response_format }, ctx, api: LabdataApi) {
    const entity = await findEntity(api, id, type, ctx);
    if (fasta) {
      const text = entityFasta(entity);
      return reply(
        entity,
        text ?? `${entity.name ?? id} (${entity.id ?? id}) has no residues to write as FASTA.`,
      );
    }
    return reply(entity, response_format === "json" ? json(entity) : entityMarkdown(entity));
  },
});
