// The assay schemas (readable by everyone in the tenant), and the runs and results of a schema, read
// with their project's permissions: GET /assay-run-schemas, /assay-result-schemas (and by id),
// /assay-runs?schemaId=..., /assay-runs/{id}, /assay-results?schemaId=..., /assay-results/{id}.

import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse, withHeaders } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { mayOnProject, readableProjectIds } from "../notebook/access.js";
import type { AssayResult, AssayRun, AssaySchema } from "../notebook/model.js";
import { boundParameters, commaList, unixBounds, withCreatedSort } from "../notebook/query.js";
import { assayResultToWire, assayRunToWire, assaySchemaToWire } from "../notebook/wire.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

type Kind = AssaySchema["kind"];

function listSchemas(ctx: RouteContext, kind: Kind, key: string): HttpResponse {
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, key));
  const schemas = [...ctx.tenant.notebook.assaySchemas.values()].filter((schema) => schema.kind === kind);
  const page = paginate(
    schemas.map((schema) => ({ ...schema, archiveReason: null })),
    query,
    ctx.pageTokens,
  );
  return listResponse(key, page, (schema) => JSON.stringify(assaySchemaToWire(ctx.tenant, schema)));
}

/** The document names this list's count header Run-Count; it is sent beside Result-Count. */
export function listAssayRunSchemas(ctx: RouteContext): HttpResponse {
  const response = listSchemas(ctx, "assay_run", "assayRunSchemas");
  return withHeaders(response, { "Run-Count": response.headers?.["Result-Count"] ?? "0" });
}
export const listAssayResultSchemas = (ctx: RouteContext) =>
  listSchemas(ctx, "assay_result", "assayResultSchemas");

function getSchema(ctx: RouteContext, params: PathParams, kind: Kind): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const schema = ctx.tenant.notebook.assaySchemas.get(id);
  if (!schema || schema.kind !== kind) throw notFound(`No schema ${id}`);
  return jsonResponse(200, assaySchemaToWire(ctx.tenant, schema));
}

export const getAssayRunSchema = (ctx: RouteContext, params: PathParams) =>
  getSchema(ctx, params, "assay_run");
export const getAssayResultSchema = (ctx: RouteContext, params: PathParams) =>
  getSchema(ctx, params, "assay_result");

function schemaFilter(ctx: RouteContext, kind: Kind): string {
  const schemaId = ctx.url.searchParams.get("schemaId");
  if (!schemaId) throw badRequest("schemaId is required");
  const schema = ctx.tenant.notebook.assaySchemas.get(schemaId);
  if (!schema || schema.kind !== kind) throw badRequest(`schemaId: no ${kind} schema '${schemaId}'`);
  return schemaId;
}

/** Runs and results have no name: they list by creation time (listing.ts keys on modifiedAt). */
const asListable = <T extends { id: string; createdAt: number; archiveReason: string | null }>(item: T) => ({
  item,
  id: item.id,
  name: item.id,
  modifiedAt: item.createdAt,
  archiveReason: item.archiveReason,
});

export function listReadableAssayRuns(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const schemaId = schemaFilter(ctx, "assay_run");
  const ids = commaList(params, "ids");
  const created = unixBounds(params);
  const query = parseListQuery(
    withCreatedSort(params),
    listScope(ctx, "assay-runs", [
      schemaId,
      params.get("ids"),
      params.get("minCreatedTime"),
      params.get("maxCreatedTime"),
    ]),
  );
  const readable = readableProjectIds(ctx.tenant, ctx.principal.actor);
  const matches = [];
  for (const run of ctx.tenant.notebook.assayRuns.values()) {
    if (run.schemaId !== schemaId || !readable.has(run.projectId)) continue;
    if (ids && !ids.has(run.id)) continue;
    if (created && !created(run.createdAt)) continue;
    if (run.archiveReason === null) matches.push(asListable(run));
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("assayRuns", page, ({ item }) => JSON.stringify(assayRunToWire(ctx.tenant, item)));
}

function readableRecord<T extends AssayRun | AssayResult>(
  ctx: RouteContext,
  record: T | undefined,
  id: string,
): T {
  ctx.resourceId = id;
  if (!record) throw notFound(`No record ${id}`);
  if (!mayOnProject(ctx.tenant, ctx.principal.actor, record.projectId, "read"))
    throw forbidden(`You cannot read ${id}`);
  return record;
}

export function getAssayRun(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  const run = readableRecord(ctx, ctx.tenant.notebook.assayRuns.get(id), id);
  return jsonResponse(200, assayRunToWire(ctx.tenant, run));
}

export function listReadableAssayResults(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const schemaId = schemaFilter(ctx, "assay_result");
  const schema = ctx.tenant.notebook.assaySchemas.get(schemaId) as AssaySchema;
  const ids = commaList(params, "ids");
  const entityIds = commaList(params, "entityIds");
  const runIds = commaList(params, "assayRunIds");
  if (entityIds && entityIds.size > 20) throw badRequest("entityIds takes at most 20 ids");
  const created = boundParameters(params, "createdAt");
  const modified = boundParameters(params, "modifiedAt");
  const sort = params.get("sort");
  if (
    sort !== null &&
    !["createdAt:asc", "createdAt:desc", "modifiedAt:asc", "modifiedAt:desc"].includes(sort)
  )
    throw badRequest("sort must be one of createdAt:asc, createdAt:desc, modifiedAt:asc, modifiedAt:desc");
  const query = parseListQuery(
    withCreatedSort(params),
    listScope(ctx, "assay-results", [
      schemaId,
      params.get("ids"),
      params.get("entityIds"),
      params.get("assayRunIds"),
      ...["gt", "gte", "lt", "lte"].flatMap((s) => [
        params.get(`createdAt.${s}`),
        params.get(`modifiedAt.${s}`),
      ]),
    ]),
  );
  const entityFields = schema.fields.filter((f) => f.type === "dna_sequence_link").map((f) => f.name);
  const runFields = schema.fields.filter((f) => f.type === "assay_run_link").map((f) => f.name);
  const linksAny = (result: AssayResult, fields: string[], wanted: Set<string>) =>
    fields.some((name) => wanted.has(String(result.values[name])));
  const readable = readableProjectIds(ctx.tenant, ctx.principal.actor);
  const matches = [];
  for (const result of ctx.tenant.notebook.assayResults.values()) {
    if (result.schemaId !== schemaId || !readable.has(result.projectId)) continue;
    if (ids && !ids.has(result.id)) continue;
    if (entityIds && !linksAny(result, entityFields, entityIds)) continue;
    if (runIds && !linksAny(result, runFields, runIds)) continue;
    if (created && !created(result.createdAt)) continue;
    if (modified && !modified(result.modifiedAt)) continue;
    const listable = asListable(result);
    if (matchesQuery(listable, query)) matches.push(listable);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("assayResults", page, ({ item }) =>
    JSON.stringify(assayResultToWire(ctx.tenant, item)),
  );
}

export function getAssayResult(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  const result = readableRecord(ctx, ctx.tenant.notebook.assayResults.get(id), id);
  return jsonResponse(200, assayResultToWire(ctx.tenant, result));
}
