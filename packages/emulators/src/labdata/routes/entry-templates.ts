// GET /api/v2/entry-templates and /entry-templates/{id}: the templates of collections in projects the
// caller may read.

import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { mayOnProject } from "../notebook/access.js";
import type { EntryTemplate } from "../notebook/model.js";
import { commaList, rangeParameter } from "../notebook/query.js";
import { templateToWire } from "../notebook/wire.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

function readableTemplate(ctx: RouteContext, template: EntryTemplate): boolean {
  const collection = ctx.tenant.notebook.templateCollections.get(template.collectionId);
  return (
    collection !== undefined && mayOnProject(ctx.tenant, ctx.principal.actor, collection.projectId, "read")
  );
}

export function listReadableEntryTemplates(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const collectionId = params.get("templateCollectionId") ?? undefined;
  const ids = commaList(params, "ids");
  const modified = rangeParameter(params, "modifiedAt");
  const query = parseListQuery(
    params,
    listScope(ctx, "entry-templates", [collectionId, params.get("ids"), params.get("modifiedAt")]),
  );
  if (collectionId !== undefined && !ctx.tenant.notebook.templateCollections.has(collectionId))
    throw badRequest(`templateCollectionId: no template collection '${collectionId}'`);
  const matches: EntryTemplate[] = [];
  for (const template of ctx.tenant.notebook.entryTemplates.values()) {
    if (!readableTemplate(ctx, template)) continue;
    if (collectionId !== undefined && template.collectionId !== collectionId) continue;
    if (ids && !ids.has(template.id)) continue;
    if (modified && !modified(template.modifiedAt)) continue;
    if (matchesQuery(template, query)) matches.push(template);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("entryTemplates", page, (t) => JSON.stringify(templateToWire(ctx.tenant, t)));
}

export function getEntryTemplate(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const template = ctx.tenant.notebook.entryTemplates.get(id);
  if (!template) throw notFound(`No entry template ${id}`);
  if (!readableTemplate(ctx, template)) throw forbidden(`You cannot read entry template ${id}`);
  return jsonResponse(200, templateToWire(ctx.tenant, template));
}
