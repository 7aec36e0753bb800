import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import { ARCHIVE_REASONS, changeArchive, ENTITY_LABELS, ENTITY_TYPES } from "../api/entities.js";
import type { LabdataClient } from "../client.js";

export const archiveEntities = defineTool({
  name: "labdata_archive_entities",
  title: "Archive Entities",
  description:
    "Archive entities of one type with a reason: gone from lists and searches, kept, restored by " +
    "labdata_unarchive_entities. All or nothing.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    type: z.enum(ENTITY_TYPES).describe("Type of every entity listed."),
    ids: z
      .array(identifier("One entity id."))
      .min(1, "give at least one id")
      .max(100, "must have at most 100 items")
      .describe("Ids of the entities to archive (1 to 100)."),
    reason: z.enum(ARCHIVE_REASONS).describe("Why: one of the platform's archive reasons."),
  },
  output: { archived: z.array(z.string()), type: z.string(), reason: z.string() },
  async handler({ type, ids, reason }, ctx, client: LabdataClient) {
    const archived = await changeArchive(client, type, ids, reason, ctx);
    const what = `${archived.length} ${ENTITY_LABELS[type]}${archived.length === 1 ? "" : "s"}`;
    return reply(
      { archived, type, reason },
      `Archived ${what} (reason: ${reason}): ${archived.join(", ")}. Undo with labdata_unarchive_entities.`,
    );
  },
});
