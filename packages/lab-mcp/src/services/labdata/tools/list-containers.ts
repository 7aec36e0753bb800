import { z } from "zod";
import { boundedString, identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { listContainers as listRemoteContainers } from "../api/inventory.js";
import type { LabdataClient } from "../client.js";
import { createdInput, spanRange } from "../created-filters.js";
import { resolveEntity } from "../entity-ref.js";
import { containerLine } from "../format/inventory-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { ENTITY, pastedId } from "../pasted-id.js";
import { creatorId, creatorInput } from "../person-ref.js";
import { containerBrief } from "../records/brief.js";

export const listContainers = defineTool({
  name: "labdata_list_containers",
  title: "List Containers",
  description:
    "Containers (tubes, vials, glycerol stocks, wells) by name, entity held, storage, creation date or creator. Positions: labdata_locate.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "inventory",
  input: {
    name: boundedString({
      description: "Name contains.",
      max: 200,
    }).optional(),
    entity_id: pastedId("Holding this entity (id, registry id or page address).", ENTITY).optional(),
    storage_id: identifier("In this location, box or plate.").optional(),
    created: createdInput.optional(),
    creator: creatorInput.optional(),
    archived: z.enum(["exclude", "include"]).default("exclude").describe("'include': archived too."),
    ...pagingInputs,
  },
  output: countedPageShape("containers", containerBrief),
  async handler(
    { name, entity_id, storage_id, created, creator, archived, limit, offset, response_format },
    ctx,
    client: LabdataClient,
  ) {
    const filters = {
      nameIncludes: name,
      storageContentsId: entity_id && (await resolveEntity(client, entity_id, undefined, ctx)).id,
      ancestorStorageId: storage_id,
      createdAt: spanRange(created),
      creatorIds: await creatorId(client, creator, "labdata_list_containers", ctx),
      archiveReason:
        archived === "include" ? ("ANY_ARCHIVED_OR_NOT_ARCHIVED" as const) : ("NOT_ARCHIVED" as const),
    };
    const { items, total, exact } = await listRemoteContainers(client, filters, offset, limit, ctx);
    const page = countedPage("containers", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return "No containers you may see match these filters.";
      if (items.length === 0) return pastTheEnd("containers", page);
      return markdown(
        heading(1, "Containers"),
        foundLine("containers", page),
        items.map(containerLine),
        moreLine(page),
      );
    });
  },
});
