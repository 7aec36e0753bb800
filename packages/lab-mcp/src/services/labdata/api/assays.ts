// Assay schemas, runs and results. The platform lists runs and results one schema at a time; without a
// schema the lists walk every schema of the kind (the first page of at most 100 schemas).

import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { type CreatedSpan, createdSeconds } from "../created-filters.js";
import {
  type AssayResult,
  type AssayRun,
  type AssaySchema,
  assayResultSchema,
  assayRunSchema,
  assaySchemaSchema,
} from "../records/notebook.js";
import { listSchema } from "../records/platform.js";
import { filteredList, type ListSource } from "./filtered-list.js";

export type AssayKind = "run" | "result";

const SCHEMA_LISTS = {
  run: { key: "assayRunSchemas", path: apiPath`api/v2/assay-run-schemas` },
  result: { key: "assayResultSchemas", path: apiPath`api/v2/assay-result-schemas` },
};

/** Every schema of a kind (one page of up to 100: a tenant has a handful). */
export async function listAssaySchemas(
  client: LabdataClient,
  kind: AssayKind,
  ctx: LabdataCall,
): Promise<AssaySchema[]> {
  const { key, path } = SCHEMA_LISTS[kind];
  const { body } = await client.send(
    { path, query: { pageSize: 100 }, schema: listSchema(key, assaySchemaSchema) },
    ctx,
  );
  return (body[key] as AssaySchema[] | undefined) ?? [];
}

export function getAssaySchema(client: LabdataClient, kind: AssayKind, id: string, ctx: LabdataCall) {
  const path =
    kind === "run" ? apiPath`api/v2/assay-run-schemas/${id}` : apiPath`api/v2/assay-result-schemas/${id}`;
  return client.get(path, assaySchemaSchema, ctx);
}

export function getAssayRun(client: LabdataClient, id: string, ctx: LabdataCall): Promise<AssayRun> {
  return client.get(apiPath`api/v2/assay-runs/${id}`, assayRunSchema, ctx);
}

export interface RunFilters {
  schemaIds: string[];
  projectId?: string;
  entryId?: string;
  created?: CreatedSpan;
  /** Runs this user created: the list has no such filter, so it is applied to what it answers. */
  creatorId?: string;
  keep?: (run: AssayRun) => boolean;
}

export function listAssayRuns(
  client: LabdataClient,
  filters: RunFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const sources: ListSource<AssayRun>[] = filters.schemaIds.map((schemaId) => ({
    key: "assayRuns",
    path: apiPath`api/v2/assay-runs`,
    itemSchema: assayRunSchema,
    query: {
      schemaId,
      minCreatedTime: createdSeconds(filters.created).min,
      maxCreatedTime: createdSeconds(filters.created).max,
    },
  }));
  const local = filters.projectId || filters.entryId || filters.creatorId || filters.keep;
  const keep = local
    ? (run: AssayRun) =>
        (!filters.projectId || run.projectId === filters.projectId) &&
        (!filters.entryId || run.entryId === filters.entryId) &&
        (!filters.creatorId || run.creator?.id === filters.creatorId) &&
        (!filters.keep || filters.keep(run))
    : undefined;
  return filteredList(client, sources, keep, offset, limit, ctx);
}

export interface ResultFilters {
  schemaIds: string[];
  runIds?: string[];
  entityId?: string;
  projectId?: string;
  created?: CreatedSpan;
}

export function listAssayResults(
  client: LabdataClient,
  filters: ResultFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const sources: ListSource<AssayResult>[] = filters.schemaIds.map((schemaId) => ({
    key: "assayResults",
    path: apiPath`api/v2/assay-results`,
    itemSchema: assayResultSchema,
    query: {
      schemaId,
      assayRunIds: filters.runIds?.join(","),
      entityIds: filters.entityId,
      "createdAt.gte": filters.created?.from,
      "createdAt.lt": filters.created?.until,
      sort: "createdAt:desc",
    },
  }));
  const keep = filters.projectId
    ? (result: AssayResult) => result.projectId === filters.projectId
    : undefined;
  return filteredList(client, sources, keep, offset, limit, ctx);
}
