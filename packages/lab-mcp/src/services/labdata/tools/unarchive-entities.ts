import { z } from "zod";
import { identifier } from "../../../core/inputs.js";
import { defineTool, reply } from "../../../core/tool.js";
import { changeArchive, ENTITY_LABELS, ENTITY_TYPES } from "../api/entities.js";
import type { LabdataClient } from "../client.js";

export const unarchiveEntities = defineTool({
  name: "labdata_unarchive_entities",
  title: "Unarchive Entities",
  description:
    "Restore archived entities of one type (DNA sequences, AA sequences, DNA/RNA oligos, custom entities) so they " +
    "appear in lists and searches again. All or nothing. Find archived ones with the list tools and archived='include'.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    type: z.enum(ENTITY_TYPES).describe("Type of every entity listed."),
    ids: z
      .array(identifier("One entity id."))
      .min(1, "give at least one id")
      .max(100, "must have at most 100 items")
      .describe("Ids of the entities to unarchive (1 to 100)."),
  },
  output: { unarchived: z.array(z.string()), type: z.string() },
  async handler({ type, ids }, ctx, client: LabdataClient) {
    const unarchived = await changeArchive(client, type, ids, undefined, ctx);
    const what = `${unarchived.length} ${ENTITY_LABELS[type]}${unarchived.length === 1 ? "" : "s"}`;
    const back = unarchived.length === 1 ? "It is" : "They are";
    return reply(
      { unarchived, type },
      `Unarchived ${what}: ${unarchived.join(", ")}. ${back} back in lists and searches.`,
    );
  },
});
