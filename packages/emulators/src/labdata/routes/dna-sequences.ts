// GET /api/v2/dna-sequences (list), GET /api/v2/dna-sequences/{id}, POST /api/v2/dna-sequences.
// A caller sees only sequences in folders it may read and creates only in folders it may write.

import { readJsonBody } from "../../common/json-body.js";
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse, jsonTextResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound, payloadTooLarge } from "../api/errors.js";
import { paginate, parseListQuery } from "../api/listing.js";
import { sequenceJson, sequenceToWire } from "../api/shapes.js";
import { allows, readableFolderIds, roleOnFolder, roleOnProject } from "../auth/permissions.js";
import { entityMatches } from "../registry/matching.js";
import { buildSequence, createSequenceSchema, sequenceProblem } from "../sequences/input.js";
import { ID_PREFIX } from "../state/ids.js";
import type { DnaSequence } from "../state/model.js";
import type { RouteContext } from "./context.js";
import { createdFilter } from "./created-filter.js";
import { listResponse, listScope } from "./list-response.js";

const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The folder a filter names, which the caller must be able to read. */
function readableFolder(ctx: RouteContext, folderId: string) {
  const folder = ctx.tenant.folders.get(folderId);
  if (!folder) throw badRequest(`folderId: no folder '${folderId}'`);
  if (!allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "read")) {
    throw forbidden(`You cannot read folder ${folderId}`);
  }
  return folder;
}

function readableProject(ctx: RouteContext, projectId: string) {
  const project = ctx.tenant.projects.get(projectId);
  if (!project) throw badRequest(`projectId: no project '${projectId}'`);
  if (!allows(roleOnProject(ctx.tenant, ctx.principal.actor, project), "read")) {
    throw forbidden(`You cannot read project ${projectId}`);
  }
  return project;
}

export function listReadableDnaSequences(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const folderId = params.get("folderId") ?? undefined;
  const projectId = params.get("projectId") ?? undefined;
  const created = createdFilter(params);
  const query = parseListQuery(
    params,
    listScope(ctx, "dna-sequences", [folderId, projectId, ...created.binding]),
  );
  if (folderId !== undefined) readableFolder(ctx, folderId);
  if (projectId !== undefined) readableProject(ctx, projectId);

  const { tenant } = ctx;
  const readable = readableFolderIds(tenant, ctx.principal.actor);
  const inProject = (seq: DnaSequence): boolean => tenant.folders.get(seq.folderId)?.projectId === projectId;
  const needle = query.nameIncludes?.toLowerCase();
  const matches: DnaSequence[] = [];
  for (const seq of tenant.sequences.values()) {
    if (!readable.has(seq.folderId)) continue;
    if (folderId !== undefined && seq.folderId !== folderId) continue;
    if (projectId !== undefined && !inProject(seq)) continue;
    if (!created.passes(seq)) continue;
    // name and nameIncludes match the name, an alias or the registry id, as the document says.
    if (entityMatches(seq, query, needle)) matches.push(seq);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("dnaSequences", page, (seq) => sequenceJson(tenant, seq));
}

export function getDnaSequence(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const seq = ctx.tenant.sequences.get(id);
  if (!seq) throw notFound(`No DNA sequence ${id}`);
  const folder = ctx.tenant.folders.get(seq.folderId);
  if (!folder || !allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "read")) {
    throw forbidden(`You cannot read DNA sequence ${id}`);
  }
  return jsonTextResponse(200, sequenceJson(ctx.tenant, seq));
}

export async function createDnaSequence(ctx: RouteContext): Promise<HttpResponse> {
  const read = await readJsonBody(ctx.req, createSequenceSchema, MAX_BODY_BYTES);
  if (!read.ok) throw read.status === 413 ? payloadTooLarge(read.message) : badRequest(read.message);
  const input = read.value;
  const problem = sequenceProblem(input);
  if (problem) throw badRequest(problem);
  const folder = ctx.tenant.folders.get(input.folderId);
  if (!folder) throw badRequest(`folderId: no folder '${input.folderId}'`);
  if (!allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "write")) {
    throw forbidden(`You cannot create in folder ${folder.id}`);
  }
  const seq = buildSequence(input, {
    id: ctx.ids.next(ID_PREFIX.dnaSequence),
    creatorId: ctx.principal.actor.user.id,
    now: ctx.clock.now(),
  });
  ctx.tenant.sequences.set(seq.id, seq);
  ctx.resourceId = seq.id;
  return jsonResponse(201, sequenceToWire(ctx.tenant, seq));
}
