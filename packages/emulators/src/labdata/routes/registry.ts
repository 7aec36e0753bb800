// The registry: GET /registries, GET /entity-schemas (the registry's schemas, readable by anyone in
// the tenant), and GET /registries/{id}/registered-entities:bulk-get (registered entities of every
// kind by registry id: an unknown id is a 404, one the caller may not read a 403).
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { paginate, parseListQuery } from "../api/listing.js";
import { registryOf } from "../registry/store.js";
import { canReadEntity, registryToWire, schemaToWire, typedEntityToWire } from "../registry/wire.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

export function listRegistries(ctx: RouteContext): HttpResponse {
  const name = ctx.url.searchParams.get("name") ?? undefined;
  const registries = [...registryOf(ctx.tenant).registries.values()].filter(
    (registry) => name === undefined || registry.name === name,
  );
  return jsonResponse(200, { registries: registries.map((r) => registryToWire(ctx.tenant, r)) });
}

export function listEntitySchemas(ctx: RouteContext): HttpResponse {
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, "entity-schemas"));
  const schemas = [...registryOf(ctx.tenant).schemas.values()].map((schema) => ({
    ...schema,
    archiveReason: null,
  }));
  const page = paginate(schemas, { ...query, sort: { field: "name", direction: 1 } }, ctx.pageTokens);
  return listResponse("entitySchemas", page, (schema) => JSON.stringify(schemaToWire(ctx.tenant, schema)));
}

/** Where each registry id is: the id of the DNA sequence or entity registered under it. */
function registeredIds(ctx: RouteContext): Map<string, string> {
  const found = new Map<string, string>();
  for (const seq of ctx.tenant.sequences.values()) {
    if (seq.entityRegistryId) found.set(seq.entityRegistryId, seq.id);
  }
  for (const entity of registryOf(ctx.tenant).entities.values()) {
    if (entity.entityRegistryId) found.set(entity.entityRegistryId, entity.id);
  }
  return found;
}

export function bulkGetRegisteredEntities(ctx: RouteContext, params: PathParams): HttpResponse {
  const registryId = params.id ?? "";
  ctx.resourceId = registryId;
  if (!registryOf(ctx.tenant).registries.has(registryId)) throw notFound(`No registry ${registryId}`);
  const raw = ctx.url.searchParams.get("entityRegistryIds") ?? "";
  const wanted = raw
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  if (wanted.length === 0 || wanted.length > 100) throw badRequest("entityRegistryIds takes 1 to 100 ids");
  const index = registeredIds(ctx);
  const entities = wanted.map((registryIdOfEntity) => {
    const id = index.get(registryIdOfEntity);
    if (id === undefined) throw notFound(`No registered entity ${registryIdOfEntity}`);
    if (!canReadEntity(ctx.tenant, ctx.principal.actor, id)) {
      throw forbidden(`You cannot read registered entity ${registryIdOfEntity}`);
    }
    return typedEntityToWire(ctx.tenant, id);
  });
  return jsonResponse(200, { entities });
}
