// AA sequences, DNA oligos, RNA oligos and custom entities: list (GET /aa-sequences, /dna-oligos,
// /rna-oligos, /custom-entities) and get by id. As for DNA sequences, a caller sees only entities in
// folders it may read; a folder or project filter it may not read is a 403.
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { paginate, parseListQuery } from "../api/listing.js";
import { allows, readableFolderIds, roleOnFolder, roleOnProject } from "../auth/permissions.js";
import { entityMatches } from "../registry/matching.js";
import type { EntityKind, RegistryEntity } from "../registry/model.js";
import { registryOf } from "../registry/store.js";
import { entityToWire } from "../registry/wire.js";
import type { RouteContext } from "./context.js";
import { createdFilter } from "./created-filter.js";
import { listResponse, listScope } from "./list-response.js";

/** The list key and path of each kind, as the document names them. */
export const ENTITY_KINDS: Record<EntityKind, { key: string; path: string; label: string }> = {
  aa_sequence: { key: "aaSequences", path: "aa-sequences", label: "AA sequence" },
  dna_oligo: { key: "dnaOligos", path: "dna-oligos", label: "DNA oligo" },
  rna_oligo: { key: "rnaOligos", path: "rna-oligos", label: "RNA oligo" },
  custom_entity: { key: "customEntities", path: "custom-entities", label: "custom entity" },
};

/** Checks the folder and project filters of an entity list: known, and readable by the caller. */
export function checkedScopeFilters(ctx: RouteContext): { folderId?: string; projectId?: string } {
  const params = ctx.url.searchParams;
  const folderId = params.get("folderId") ?? undefined;
  const projectId = params.get("projectId") ?? undefined;
  const { tenant, principal } = ctx;
  if (folderId !== undefined) {
    const folder = tenant.folders.get(folderId);
    if (!folder) throw badRequest(`folderId: no folder '${folderId}'`);
    if (!allows(roleOnFolder(tenant, principal.actor, folder), "read"))
      throw forbidden(`You cannot read folder ${folderId}`);
  }
  if (projectId !== undefined) {
    const project = tenant.projects.get(projectId);
    if (!project) throw badRequest(`projectId: no project '${projectId}'`);
    if (!allows(roleOnProject(tenant, principal.actor, project), "read"))
      throw forbidden(`You cannot read project ${projectId}`);
  }
  return { folderId, projectId };
}

/** The comma-separated `entityRegistryIds.anyOf` filter, at most 100 ids. */
export function registryIdFilter(params: URLSearchParams): Set<string> | undefined {
  const raw = params.get("entityRegistryIds.anyOf");
  if (raw === null) return undefined;
  const ids = raw
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.length > 100) throw badRequest("entityRegistryIds.anyOf takes 1 to 100 ids");
  return new Set(ids);
}

export function listEntities(kind: EntityKind) {
  const { key, path } = ENTITY_KINDS[kind];
  return (ctx: RouteContext): HttpResponse => {
    const params = ctx.url.searchParams;
    const { folderId, projectId } = checkedScopeFilters(ctx);
    const registryIds = registryIdFilter(params);
    const schemaId = params.get("schemaId") ?? undefined;
    const created = createdFilter(params);
    const query = parseListQuery(
      params,
      listScope(ctx, path, [
        folderId,
        projectId,
        schemaId,
        registryIds && [...registryIds].sort(),
        ...created.binding,
      ]),
    );
    const { tenant } = ctx;
    const readable = readableFolderIds(tenant, ctx.principal.actor);
    const needle = query.nameIncludes?.toLowerCase();
    const matches: RegistryEntity[] = [];
    for (const entity of registryOf(tenant).entities.values()) {
      if (entity.kind !== kind || !readable.has(entity.folderId)) continue;
      if (folderId !== undefined && entity.folderId !== folderId) continue;
      if (projectId !== undefined && tenant.folders.get(entity.folderId)?.projectId !== projectId) continue;
      if (schemaId !== undefined && entity.schema?.id !== schemaId) continue;
      if (registryIds && !registryIds.has(entity.entityRegistryId ?? "")) continue;
      if (!created.passes(entity)) continue;
      if (entityMatches(entity, query, needle)) matches.push(entity);
    }
    const page = paginate(matches, query, ctx.pageTokens);
    return listResponse(key, page, (entity) => JSON.stringify(entityToWire(tenant, entity)));
  };
}

export function getEntity(kind: EntityKind) {
  const { label } = ENTITY_KINDS[kind];
  return (ctx: RouteContext, params: PathParams): HttpResponse => {
    const id = params.id ?? "";
    ctx.resourceId = id;
    const entity = registryOf(ctx.tenant).entities.get(id);
    if (!entity || entity.kind !== kind) throw notFound(`No ${label} ${id}`);
    const folder = ctx.tenant.folders.get(entity.folderId);
    if (!folder || !allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "read")) {
      throw forbidden(`You cannot read ${label} ${id}`);
    }
    return jsonResponse(200, entityToWire(ctx.tenant, entity));
  };
}
