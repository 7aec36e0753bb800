// labdata_list_entities' parts: its filters as inputs, the brief item its markdown answer's structured
// copy carries (what a line shows), and one page rendered as the envelope (json) or a list (markdown).
import { z } from "zod";
import { boundedString, fieldsInput, identifier, pagingInputs } from "../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, withFields } from "../../core/page-reply.js";
import { heading, markdown } from "../../core/render.js";
import type { Counted } from "./api/count.js";
import type { EntityFilters } from "./api/entities.js";
import { type CreatedFilter, createdInput, spanRange } from "./created-filters.js";
import { entityLine } from "./format/entity-markdown.js";
import { countedPage, countedPageShape, foundLine } from "./list-page.js";
import { FOLDER, pastedId } from "./pasted-id.js";
import { creatorInput } from "./person-ref.js";
import { ENTITY_FIELDS } from "./records/field-names.js";
import { integer, text } from "./records/platform.js";
import type { Entity } from "./records/registry.js";

const SORTS = {
  modified_desc: "modifiedAt:desc",
  modified_asc: "modifiedAt:asc",
  name_asc: "name:asc",
  name_desc: "name:desc",
};

export const entityListInputs = {
  name: boundedString({
    description: "Name, alias or registry id contains.",
    max: 200,
  }).optional(),
  folder_id: pastedId("Folder: id or its page's address.", FOLDER).optional(),
  project_id: identifier("Project id.").optional(),
  created: createdInput.optional(),
  creator: creatorInput.optional(),
  archived: z.enum(["exclude", "include"]).default("exclude").describe("'include': archived too."),
  sort: z
    .enum(["modified_desc", "modified_asc", "name_asc", "name_desc"])
    .default("modified_desc")
    .describe("Order."),
  ...pagingInputs,
  fields: fieldsInput(ENTITY_FIELDS),
};

/** What a line of the list shows of an entity: its structured copy in a markdown answer. */
export const entityBrief = z.looseObject({
  id: text,
  name: text,
  entityType: text,
  entityRegistryId: text,
  length: integer,
});

/** A page of one type: its items without their type (the input says it). */
export const entityPageShape = <K extends string>(key: K) =>
  countedPageShape(key, entityBrief.omit({ entityType: true }));

/** The filters as the platform takes them; `creator` already a user id (person-ref.ts creatorId). */
export function entityFilters(args: {
  name?: string;
  folder_id?: string;
  project_id?: string;
  created?: CreatedFilter;
  creator?: string;
  archived: "exclude" | "include";
  sort: keyof typeof SORTS;
}): EntityFilters {
  return {
    createdAt: spanRange(args.created),
    creatorIds: args.creator,
    nameIncludes: args.name,
    folderId: args.folder_id,
    projectId: args.project_id,
    archiveReason: args.archived === "include" ? "ANY_ARCHIVED_OR_NOT_ARCHIVED" : "NOT_ARCHIVED",
    sort: SORTS[args.sort],
  };
}

/** How a list was asked, as its answer says it: by creation date, archived ones left out. */
export interface ListedAs {
  created?: boolean;
  archivedLeftOut?: boolean;
}

/** Said after the count when archived records were not counted (a count is read as "all of them"). */
export const ARCHIVED_LEFT_OUT = "; archived ones left out (archived: 'include' counts them)";

/** The page as the tools answer it; `what` names the items ("AA sequences"). */
export function entityPageReply<K extends string>(
  key: K,
  what: string,
  result: Counted<Entity>,
  offset: number,
  format: "markdown" | "json",
  fields?: readonly string[],
  shown: ListedAs = {},
) {
  const page = withFields(countedPage(key, result, offset), key, fields);
  return pageReply(page, fields ? "json" : format, () => {
    if (result.total === 0) return `No ${what} match these filters.`;
    if (result.items.length === 0) return pastTheEnd(what, page);
    return markdown(
      heading(1, what.charAt(0).toUpperCase() + what.slice(1)),
      `${foundLine(what, page)}${shown.archivedLeftOut ? ARCHIVED_LEFT_OUT : ""}`,
      result.items.map((entity) => entityLine(entity, shown.created === true)),
      moreLine(page),
    );
  });
}
