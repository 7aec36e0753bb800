import { z } from "zod";
import { moreLine, pageReply, pastTheEnd, withFields } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { ENTITY_TYPES, listEntities as listRemoteEntities } from "../api/entities.js";
import type { LabdataClient } from "../client.js";
import {
  ARCHIVED_LEFT_OUT,
  entityFilters,
  entityListInputs,
  entityPageReply,
  entityPageShape,
} from "../entity-list.js";
import { sequenceLine } from "../format/sequence-markdown.js";
import { countedPage, foundLine } from "../list-page.js";
import { creatorId } from "../person-ref.js";

/** How the list calls the items of each type. */
const PLURAL = {
  dna_sequence: "DNA sequences",
  aa_sequence: "AA sequences",
  dna_oligo: "DNA oligos",
  rna_oligo: "RNA oligos",
  custom_entity: "custom entities",
} as const;

export const listEntities = defineTool({
  name: "labdata_list_entities",
  title: "List Entities",
  description: "Entities of one type by name, alias, registry id, folder, project, creation date or creator.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    type: z.enum(ENTITY_TYPES).default("dna_sequence").describe("Entity type."),
    ...entityListInputs,
  },
  output: entityPageShape("entities"),
  async handler(args, ctx, client: LabdataClient) {
    const filters = entityFilters({
      ...args,
      creator: await creatorId(client, args.creator, "labdata_list_entities", ctx),
    });
    if (args.type !== "dna_sequence") {
      const result = await listRemoteEntities(client, args.type, filters, args.offset, args.limit, ctx);
      return entityPageReply(
        "entities",
        PLURAL[args.type],
        result,
        args.offset,
        args.response_format,
        args.fields,
        { created: args.created !== undefined, archivedLeftOut: args.archived === "exclude" },
      );
    }
    // DNA sequences through their own list: their lines show topology and the modification time.
    const { items, total, exact } = await client.listSequences(filters, args.offset, args.limit, ctx);
    const sequences = items.map(({ bases: _bases, translations: _translations, ...rest }) => ({
      ...rest,
      entityType: "dna_sequence",
    }));
    const page = withFields(
      countedPage("entities", { items: sequences, total, exact }, args.offset),
      "entities",
      args.fields,
    );
    return pageReply(page, args.fields ? "json" : args.response_format, () => {
      if (total === 0) return "No DNA sequences match these filters.";
      if (items.length === 0) return pastTheEnd("DNA sequences", page);
      return markdown(
        heading(1, "DNA sequences"),
        `${foundLine("sequences", page)}${args.archived === "exclude" ? ARCHIVED_LEFT_OUT : ""}`,
        // Asked by creation date, a line says when each was created.
        items.map((sequence) => sequenceLine(sequence, args.created ? "created" : "modified")),
        moreLine(page),
      );
    });
  },
});
