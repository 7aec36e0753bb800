// GET/POST /api/v2/entries, GET /api/v2/entries/{id}, and POST /api/v2/entries/{id}/notes (not in the
// OpenAPI document: the spec-only way to add a note). An entry is read and written with its folder's
// permissions; its template with the template collection's project.

import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound, payloadTooLarge } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { mayOnFolder, mayOnProject } from "../notebook/access.js";
import type { Entry, EntryDay } from "../notebook/model.js";
import { commaList, rangeParameter } from "../notebook/query.js";
import { entryToWire } from "../notebook/wire.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

const MAX_BODY_BYTES = 256 * 1024;
const REVIEW_STATUSES = new Set(["IN_PROGRESS", "ACCEPTED", "REJECTED", "NEEDS_REVIEW", "RETRACTED"]);

export function listReadableEntries(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const projectId = params.get("projectId") ?? undefined;
  const authors = commaList(params, "authorIds.anyOf");
  const creators = commaList(params, "creatorIds");
  const ids = commaList(params, "ids");
  const displayIds = commaList(params, "displayIds");
  const modified = rangeParameter(params, "modifiedAt");
  const reviewStatus = params.get("reviewStatus") ?? undefined;
  if (reviewStatus !== undefined && !REVIEW_STATUSES.has(reviewStatus))
    throw badRequest(`reviewStatus must be one of ${[...REVIEW_STATUSES].join(", ")}`);
  const query = parseListQuery(
    params,
    listScope(ctx, "entries", [
      projectId,
      params.get("authorIds.anyOf"),
      params.get("creatorIds"),
      params.get("ids"),
      params.get("displayIds"),
      params.get("modifiedAt"),
      reviewStatus,
    ]),
  );
  const { tenant, principal } = ctx;
  if (projectId !== undefined) {
    if (!tenant.projects.has(projectId)) throw badRequest(`projectId: no project '${projectId}'`);
    if (!mayOnProject(tenant, principal.actor, projectId, "read"))
      throw forbidden(`You cannot read project ${projectId}`);
  }
  const readable = new Set<string>();
  for (const folder of tenant.folders.values()) {
    if (mayOnFolder(tenant, principal.actor, folder.id, "read")) readable.add(folder.id);
  }
  const matches: Entry[] = [];
  for (const entry of tenant.notebook.entries.values()) {
    if (!readable.has(entry.folderId)) continue;
    if (projectId !== undefined && tenant.folders.get(entry.folderId)?.projectId !== projectId) continue;
    if (authors && !entry.authorIds.some((id) => authors.has(id))) continue;
    if (creators && !creators.has(entry.creatorId)) continue;
    if (ids && !ids.has(entry.id)) continue;
    if (displayIds && !displayIds.has(entry.displayId)) continue;
    if (modified && !modified(entry.modifiedAt)) continue;
    if (reviewStatus !== undefined && entry.reviewStatus !== reviewStatus) continue;
    if (matchesQuery(entry, query)) matches.push(entry);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("entries", page, (entry) => JSON.stringify(entryToWire(tenant, entry)));
}

function readableEntry(ctx: RouteContext, id: string): Entry {
  ctx.resourceId = id;
  const entry = ctx.tenant.notebook.entries.get(id);
  if (!entry) throw notFound(`No entry ${id}`);
  if (!mayOnFolder(ctx.tenant, ctx.principal.actor, entry.folderId, "read"))
    throw forbidden(`You cannot read entry ${id}`);
  return entry;
}

export function getEntry(ctx: RouteContext, params: PathParams): HttpResponse {
  const entry = readableEntry(ctx, params.id ?? "");
  return jsonResponse(200, { entry: entryToWire(ctx.tenant, entry) });
}

const createEntrySchema = z
  .object({
    name: z.string().trim().min(1).max(500),
    folderId: z.string().min(1).max(100),
    entryTemplateId: z.string().min(1).max(100).optional(),
    authorIds: z.array(z.string().min(1).max(100)).max(20).optional(),
    schemaId: z.string().max(100).optional(),
    fields: z.record(z.string(), z.unknown()).optional(),
    customFields: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export async function createEntry(ctx: RouteContext): Promise<HttpResponse> {
  const read = await readJsonBody(ctx.req, createEntrySchema, MAX_BODY_BYTES);
  if (!read.ok) throw read.status === 413 ? payloadTooLarge(read.message) : badRequest(read.message);
  const input = read.value;
  const { tenant, principal } = ctx;
  if (!tenant.folders.has(input.folderId)) throw badRequest(`folderId: no folder '${input.folderId}'`);
  if (!mayOnFolder(tenant, principal.actor, input.folderId, "write"))
    throw forbidden(`You cannot create in folder ${input.folderId}`);
  const authorIds = input.authorIds ?? [principal.actor.user.id];
  const unknownAuthor = authorIds.find((id) => !tenant.users.has(id));
  if (unknownAuthor) throw badRequest(`authorIds: no user '${unknownAuthor}'`);
  const now = ctx.clock.now();
  let days: EntryDay[] = [{ date: dayOf(now), title: null, notes: [] }];
  if (input.entryTemplateId !== undefined) {
    const template = tenant.notebook.entryTemplates.get(input.entryTemplateId);
    if (!template) throw badRequest(`entryTemplateId: no entry template '${input.entryTemplateId}'`);
    const collection = tenant.notebook.templateCollections.get(template.collectionId);
    if (!collection || !mayOnProject(tenant, principal.actor, collection.projectId, "read"))
      throw forbidden(`You cannot read entry template ${template.id}`);
    days = template.days.map((day) => ({
      date: dayOf(now + Math.max(0, day.day - 1) * 86_400_000),
      title: day.title,
      notes: structuredClone(day.notes),
    }));
  }
  const entry: Entry = {
    id: ctx.ids.next("etr_"),
    displayId: `EXP${String(tenant.notebook.entries.size + 1).padStart(6, "0")}`,
    name: input.name,
    folderId: input.folderId,
    creatorId: principal.actor.user.id,
    authorIds,
    entryTemplateId: input.entryTemplateId ?? null,
    reviewStatus: "IN_PROGRESS",
    days,
    createdAt: now,
    modifiedAt: now,
    archiveReason: null,
  };
  tenant.notebook.entries.set(entry.id, entry);
  ctx.resourceId = entry.id;
  return jsonResponse(201, entryToWire(tenant, entry));
}
