// Assay schemas, runs and results. The platform lists runs and results one schema at a time; without a
// schema the lists walk every schema of the kind (the first page of at most 100 schemas).

import { apiPath } from "../../../core/http/api-path.js";
import { DAY } from "../../../core/inputs.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
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
  /** ISO dates or times, inclusive. */
  createdAfter?: string;
  createdBefore?: string;
  keep?: (run: AssayRun) => boolean;
}

const unixSeconds = (iso: string | undefined, endOfDay = false): string | undefined => {
  if (!iso) return undefined;
  const dateOnly = DAY.test(iso);
  const ms = Date.parse(dateOnly ? `${iso}T${endOfDay ? "23:59:59" : "00:00:00"}Z` : iso);
  return Number.isNaN(ms) ? undefined : String(Math.floor(ms / 1000));
};

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
      minCreatedTime: unixSeconds(filters.createdAfter),
      maxCreatedTime: unixSeconds(filters.createdBefore, true),
    },
  }));
  const local = filters.projectId || filters.entryId || filters.keep;
  const keep = local
    ? (run: AssayRun) =>
        (!filters.projectId || run.projectId === filters.projectId) &&
        (!filters.entryId || run.entryId === filters.entryId) &&
        (!filters.keep || filters.keep(run))
    : undefined;
  return filteredList(client, sources, keep, offset, limit, ctx);
}

export interface ResultFilters {
  schemaIds: string[];
  runIds?: string[];
  entityId?: string;
  projectId?: string;
  createdAfter?: string;
  createdBefore?: string;
}

const dayBound = (iso: string | undefined, endOfDay: boolean): string | undefined =>
  iso && DAY.test(iso) ? `${iso}T${endOfDay ? "23:59:59" : "00:00:00"}Z` : iso;

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
      "createdAt.gte": dayBound(filters.createdAfter, false),
      "createdAt.lte": dayBound(filters.createdBefore, true),
      sort: "createdAt:desc",
    },
  }));
  const keep = filters.projectId
    ? (result: AssayResult) => result.projectId === filters.projectId
    : undefined;
  return filteredList(client, sources, keep, offset, limit, ctx);
}
