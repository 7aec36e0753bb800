import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import { ARCHIVE_REASONS, changeArchive, ENTITY_LABELS, ENTITY_TYPES } from "../api/entities.js";
import type { LabdataApi } from "../client.js";

export const archiveEntities = defineTool({
  name: "labdata_archive_entities",
  title: "Archive Entities",
  description:
    "Archive entities of one type (DNA sequences, AA sequences, DNA/RNA oligos, custom entities) with a reason: " +
    "they disappear from lists and searches for everyone, though they are kept and labdata_unarchive_entities " +
    "restores them. All or nothing: an id you may not change fails the whole call. Ids: labdata_search_entities.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  toolset: "registry",
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
  async handler({ type, ids, reason }, ctx, api: LabdataApi) {
    const archived = await changeArchive(api, type, ids, reason, ctx);
    const what = `${archived.length} ${ENTITY_LABELS[type]}${archived.length === 1 ? "" : "s"}`;
    return reply(
      { archived, type, reason },
      `Archived ${what} (reason: ${reason}): ${archived.join(", ")}. Undo with labdata_unarchive_entities.`,
    );
  },
});
