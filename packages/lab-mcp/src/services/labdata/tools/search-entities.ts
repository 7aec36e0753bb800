import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { ENTITY_TYPES, type EntityFilters, type EntityType, listEntities } from "../api/entities.js";
import type { LabdataClient } from "../client.js";
import { entityBrief } from "../entity-list.js";
import { entityLine } from "../format/entity-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import type { Entity } from "../records/registry.js";

export const searchEntities = defineTool({
  name: "labdata_search_entities",
  title: "Search Entities",
  description:
    "Search every entity type at once (sequences, plasmids, oligos, strains, cell lines) by name, alias or " +
    "registry id ('pLKO', 'PL09003'); grouped by type.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "search",
  input: {
    query: boundedString({
      description: "Name, alias or registry id contains (any case).",
      min: 2,
      max: 200,
    }),
    types: z
      .array(z.enum(ENTITY_TYPES))
      .max(ENTITY_TYPES.length, `must have at most ${ENTITY_TYPES.length} items`)
      .default([])
      .describe("Only these types (default: all five)."),
    ...pagingInputs,
  },
  output: countedPageShape("entities", entityBrief),
  async handler({ query, types, limit, offset, response_format }, ctx, client: LabdataClient) {
    const wanted = ENTITY_TYPES.filter((type) => types.length === 0 || types.includes(type));
    const filters: EntityFilters = { nameIncludes: query, archiveReason: "NOT_ARCHIVED", sort: "name:asc" };
    // The first page of each type, together: its total places the types one after another.
    const firsts = await Promise.all(
      wanted.map((type) => listEntities(client, type, filters, 0, Math.min(100, offset + limit), ctx)),
    );
    const items: Entity[] = [];
    let before = 0;
    for (const [i, first] of firsts.entries()) {
      const type = wanted[i] as EntityType;
      const from = Math.max(0, offset - before);
      const need = limit - items.length;
      if (need > 0 && from < first.total) {
        const slice =
          from + need <= first.items.length
            ? first.items.slice(from, from + need)
            : (await listEntities(client, type, filters, from, need, ctx)).items;
        items.push(...slice);
      }
      before += first.total;
    }
    // Exact only where every type's count is.
    const counted = { items, total: before, exact: firsts.every((first) => first.exact) };
    const page = countedPage("entities", counted, offset);
    return pageReply(page, response_format, () => {
      if (before === 0) return `No entities found matching '${query}'.`;
      if (items.length === 0) return pastTheEnd("entities", page);
      return markdown(
        heading(1, `Entities matching '${query}'`),
        foundLine("entities", page),
        items.map((entity) => entityLine(entity)),
        moreLine(page),
      );
    });
  },
});
