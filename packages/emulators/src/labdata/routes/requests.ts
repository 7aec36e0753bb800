// GET /api/v2/request-schemas (readable by everyone in the tenant) and GET /api/v2/requests?schemaId=...
// (required, as the document says): the requests of projects the caller may read, by status and
// creation time.

import type { HttpResponse } from "../../common/response.js";
import { badRequest } from "../api/errors.js";
import { paginate, parseListQuery } from "../api/listing.js";
import { readableProjectIds } from "../notebook/access.js";
import type { RequestStatus } from "../notebook/model.js";
import { unixBounds, withCreatedSort } from "../notebook/query.js";
import { requestSchemaToWire, requestToWire } from "../notebook/wire.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

const STATUSES = new Set<RequestStatus>(["REQUESTED", "SCHEDULED", "IN_PROGRESS", "COMPLETED", "CANCELLED"]);

export function listRequestSchemas(ctx: RouteContext): HttpResponse {
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, "request-schemas"));
  const schemas = [...ctx.tenant.notebook.requestSchemas.values()].map((schema) => ({
    ...schema,
    archiveReason: null,
  }));
  const page = paginate(schemas, query, ctx.pageTokens);
  return listResponse("requestSchemas", page, (schema) =>
    JSON.stringify(requestSchemaToWire(ctx.tenant, schema)),
  );
}

export function listReadableRequests(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const schemaId = params.get("schemaId");
  if (!schemaId) throw badRequest("schemaId is required");
  if (!ctx.tenant.notebook.requestSchemas.has(schemaId))
    throw badRequest(`schemaId: no request schema '${schemaId}'`);
  const status = params.get("requestStatus");
  if (status !== null && !STATUSES.has(status as RequestStatus))
    throw badRequest(`requestStatus must be one of ${[...STATUSES].join(", ")}`);
  const created = unixBounds(params);
  const query = parseListQuery(
    withCreatedSort(params),
    listScope(ctx, "requests", [
      schemaId,
      status,
      params.get("minCreatedTime"),
      params.get("maxCreatedTime"),
    ]),
  );
  const readable = readableProjectIds(ctx.tenant, ctx.principal.actor);
  const matches = [];
  for (const request of ctx.tenant.notebook.requests.values()) {
    if (request.schemaId !== schemaId || !readable.has(request.projectId)) continue;
    if (status !== null && request.status !== status) continue;
    if (created && !created(request.createdAt)) continue;
    matches.push({
      item: request,
      id: request.id,
      name: request.displayId,
      modifiedAt: request.createdAt,
      archiveReason: null,
    });
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("requests", page, ({ item }) => JSON.stringify(requestToWire(ctx.tenant, item)));
}
