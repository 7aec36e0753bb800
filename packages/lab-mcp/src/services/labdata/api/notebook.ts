// Notebook entries and entry templates: list, read, create from a template.

import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import {
  type Entry,
  type EntryTemplate,
  entryByIdSchema,
  entrySchema,
  entryTemplateSchema,
} from "../records/notebook.js";
import { filteredList } from "./filtered-list.js";

export interface EntryFilters {
  projectId?: string;
  folderId?: string;
  authorIds?: string[];
  /** Part of the entry's name, matched here (the platform matches whole names only). */
  nameIncludes?: string;
  /** Days (YYYY-MM-DD, UTC), both included. */
  modifiedAfter?: string;
  modifiedBefore?: string;
  archived: boolean;
}

const DAY_MS = 86_400_000;

/**
 * The document's range syntax, which names only > and <: "> 2025-06-22T23:59:59.999Z AND <
 * 2025-06-30T00:00:00.000Z" for the days 2025-06-23 to 2025-06-29, both included.
 */
export function modifiedRange(firstDay?: string, lastDay?: string): string | undefined {
  const edge = (day: string, shift: number) => new Date(Date.parse(`${day}T00:00:00Z`) + shift).toISOString();
  const clauses = [firstDay && `> ${edge(firstDay, -1)}`, lastDay && `< ${edge(lastDay, DAY_MS)}`].filter(
    Boolean,
  );
  return clauses.length > 0 ? clauses.join(" AND ") : undefined;
}

export function listEntries(
  client: LabdataClient,
  filters: EntryFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const needle = filters.nameIncludes?.toLowerCase();
  const keep =
    filters.folderId || needle
      ? (entry: Entry) =>
          (!filters.folderId || entry.folderId === filters.folderId) &&
          (!needle || (entry.name ?? "").toLowerCase().includes(needle))
      : undefined;
  const query = {
    projectId: filters.projectId,
    "authorIds.anyOf": filters.authorIds?.join(","),
    modifiedAt: modifiedRange(filters.modifiedAfter, filters.modifiedBefore),
    archiveReason: filters.archived ? "ANY_ARCHIVED_OR_NOT_ARCHIVED" : "NOT_ARCHIVED",
    sort: "modifiedAt:desc",
  };
  return filteredList(
    client,
    [{ key: "entries", path: apiPath`api/v2/entries`, itemSchema: entrySchema, query }],
    keep,
    offset,
    limit,
    ctx,
  );
}

/** The entry; an answer without one (the document requires nothing) reads as an empty entry. */
export async function getEntry(client: LabdataClient, id: string, ctx: LabdataCall): Promise<Entry> {
  const { entry } = await client.get(apiPath`api/v2/entries/${id}`, entryByIdSchema, ctx);
  return entry ?? {};
}

export function listEntryTemplates(
  client: LabdataClient,
  nameIncludes: string | undefined,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const needle = nameIncludes?.toLowerCase();
  return filteredList<EntryTemplate>(
    client,
    [
      {
        key: "entryTemplates",
        path: apiPath`api/v2/entry-templates`,
        itemSchema: entryTemplateSchema,
        query: {},
      },
    ],
    needle ? (template) => (template.name ?? "").toLowerCase().includes(needle) : undefined,
    offset,
    limit,
    ctx,
  );
}

export interface NewEntry {
  name: string;
  folderId: string;
  entryTemplateId?: string;
  authorIds?: string[];
}

export async function createEntry(client: LabdataClient, entry: NewEntry, ctx: LabdataCall): Promise<Entry> {
  const { body } = await client.send(
    { method: "POST", path: apiPath`api/v2/entries`, body: entry, schema: entrySchema },
    ctx,
  );
  return body;
}
