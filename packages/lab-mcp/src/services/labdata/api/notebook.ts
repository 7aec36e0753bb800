// Notebook entries and entry templates: list, read, create from a template.

import type { SessionCall } from "../../../core/credentials/call-scope.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataApi } from "../client.js";
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
  api: LabdataApi,
  filters: EntryFilters,
  offset: number,
  limit: number,
  ctx: SessionCall,
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
    api,
    [{ key: "entries", path: apiPath`api/v2/entries`, itemSchema: entrySchema, query }],
    keep,
    offset,
    limit,
    ctx,
  );
}

/** The entry; an answer without one (the document requires nothing) reads as an empty entry. */
export async function getEntry(api: LabdataApi, id: string, ctx: SessionCall): Promise<Entry> {
  const { entry } = await api.get(apiPath`api/v2/entries/${id}`, entryByIdSchema, ctx);
  return entry ?? {};
}

export function listEntryTemplates(
  api: LabdataApi,
  nameIncludes: string | undefined,
  offset: number,
  limit: number,
  ctx: SessionCall,
) {
  const needle = nameIncludes?.toLowerCase();
  return filteredList<EntryTemplate>(
    api,
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

export async function createEntry(api: LabdataApi, entry: NewEntry, ctx: SessionCall): Promise<Entry> {
  const { body } = await api.send(
    { method: "POST", path: apiPath`api/v2/entries`, body: entry, schema: entrySchema },
    ctx,
  );
  return body;
}
