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
  /** The document's range ("> A AND < B"). */
  modifiedAt?: string;
  archived: boolean;
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
    modifiedAt: filters.modifiedAt,
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
