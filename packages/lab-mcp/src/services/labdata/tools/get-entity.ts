import { z } from "zod";
import { fieldsInput, identifier, responseFormat } from "../../../core/inputs.js";
import { pickFields } from "../../../core/page-reply.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { ENTITY_TYPES, findEntity } from "../api/entities.js";
import type { LabdataClient } from "../client.js";
import { resolveEntity } from "../entity-ref.js";
import { entityFasta, entityMarkdown } from "../format/entity-markdown.js";
import { sequenceMarkdown } from "../format/sequence-markdown.js";
import { ENTITY, pastedId } from "../pasted-id.js";
import { ENTITY_FIELDS } from "../records/field-names.js";
import type { DnaSequence } from "../records/platform.js";
import { archiveRecord, integer, lenient, text } from "../records/platform.js";
import type { Entity } from "../records/registry.js";
import { plasmidMapView } from "../views/index.js";

/** The entity an id names: the platform's id (seq_, prtn_, bfi_...), its page's address, or a registry id. */
async function entityNamed(
  client: LabdataClient,
  id: string,
  type: (typeof ENTITY_TYPES)[number] | undefined,
  registry: string | undefined,
  ctx: Parameters<typeof findEntity>[3],
): Promise<Entity> {
  const resolved = await resolveEntity(client, id, registry, ctx);
  return resolved.entity ?? findEntity(client, resolved.id, type, ctx);
}

export const getEntity = defineTool({
  name: "labdata_get_entity",
  title: "Get Entity",
  description:
    "One entity (DNA or AA sequence, oligo, custom entity e.g. a strain) by id, registry id (PL09003) or page address: facts, fields, annotations, first bases; json: the record; fasta=true: FASTA.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  view: plasmidMapView,
  input: {
    id: pastedId("Id, registry id (PL09003) or its page's address.", ENTITY),
    type: z.enum(ENTITY_TYPES).optional().describe("If known: fewer requests for seq_ ids."),
    registry: identifier("Registry for a registry id (default: the first).").optional(),
    fasta: z.boolean().default(false).describe("Answer FASTA of its residues."),
    response_format: responseFormat,
    fields: fieldsInput(ENTITY_FIELDS),
  },
  // What the markdown shows; json carries the whole record.
  output: {
    id: text,
    name: text,
    entityType: text,
    entityRegistryId: text,
    length: integer,
    folderId: text,
    archiveRecord,
    schema: lenient(z.looseObject({ name: text }).nullable()),
  },
  async handler({ id, type, registry, fasta, response_format, fields }, ctx, client: LabdataClient) {
    const entity = await entityNamed(client, id, type, registry, ctx);
    if (fasta) {
      const text = entityFasta(entity);
      return reply(
        entity,
        text ?? `${oneLine(`${entity.name ?? id} (${entity.id ?? id})`)} has no residues to write as FASTA.`,
      );
    }
    if (response_format === "json" || fields) {
      const picked = pickFields(entity, fields);
      return reply(picked, json(picked));
    }
    const text =
      entity.entityType === "dna_sequence"
        ? sequenceMarkdown(entity as DnaSequence, id)
        : entityMarkdown(entity);
    return reply(entity, text);
  },
});
