// An entity as a scientist names it, in every tool that takes one: its platform id (seq_...), the address
// of its page in the web app (pasted-id.ts takes the id from it), its registry id (PL09003), which
// the registry resolves, or its exact name (pLKO-shRNA-3), which the lists of each type find.

import { ActionableError, RemoteStatusError } from "../../core/errors.js";
import { ENTITY_LABELS, ENTITY_TYPES, listEntities } from "./api/entities.js";
import { registeredEntities } from "./api/registry.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import { nameAndId } from "./format/labels.js";
import type { Entity } from "./records/registry.js";

/** A registry id (PL09003, STR00001): letters then digits, no '_' as the platform's own ids have. */
export const REGISTRY_ID = /^[A-Za-z]+-?\d+$/;

/** A platform id: its type's prefix, '_', then the rest (seq_I2w0kXjv, bfi_VXlNaeVI). */
const PLATFORM_ID = /^[a-z]+_\w+$/;

/** The platform id an entity reference names; the entity too when the registry was asked for it. */
export interface ResolvedEntity {
  id: string;
  entity?: Entity;
}

/**
 * The entity an id, registry id or exact name (as an ENTITY input gives it) names; an unknown registry
 * id is a 404, a name nobody has or several entities have is said with what to do.
 */
export async function resolveEntity(
  client: LabdataClient,
  pasted: string,
  registry: string | undefined,
  ctx: LabdataCall,
): Promise<ResolvedEntity> {
  if (PLATFORM_ID.test(pasted)) return { id: pasted };
  if (REGISTRY_ID.test(pasted)) {
    const [entity] = await registeredEntities(client, [pasted], registry, ctx);
    if (!entity) throw new RemoteStatusError(404);
    return { id: entity.id ?? pasted, entity };
  }
  return entityNamed(client, pasted, ctx);
}

/** The one entity of any type whose name is exactly `name` (archived ones too: a name still names them). */
async function entityNamed(client: LabdataClient, name: string, ctx: LabdataCall): Promise<ResolvedEntity> {
  const filters = { name, archiveReason: "ANY_ARCHIVED_OR_NOT_ARCHIVED" as const, sort: "name:asc" };
  const pages = await Promise.all(ENTITY_TYPES.map((type) => listEntities(client, type, filters, 0, 5, ctx)));
  const found = pages.flatMap((page, i) =>
    page.items.filter((entity) => entity.id).map((entity) => ({ entity, type: ENTITY_TYPES[i] })),
  );
  const [only] = found;
  if (found.length === 1 && only?.entity.id) return { id: only.entity.id, entity: only.entity };
  if (found.length === 0) {
    throw new ActionableError(
      `No entity you may see is named exactly '${name}'. Find it with labdata_search_entities (a part of its name), then give its id or registry id`,
    );
  }
  const each = found.map(
    ({ entity, type }) => `${nameAndId(entity.name, entity.id)}${type ? ` (${ENTITY_LABELS[type]})` : ""}`,
  );
  throw new ActionableError(
    `'${name}' names ${found.length} entities: ${each.join(", ")}. Give the id of the one you mean`,
  );
}
