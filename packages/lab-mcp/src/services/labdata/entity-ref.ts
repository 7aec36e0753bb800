// An entity as a scientist names it, in every tool that takes one: its platform id (seq_...), the address
// of its page in the web app (pasted-id.ts takes the id from it), or its registry id (PL09003), which
// the registry resolves.

import { RemoteStatusError } from "../../core/errors.js";
import { registeredEntities } from "./api/registry.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import type { Entity } from "./records/registry.js";

/** A registry id (PL09003, STR00001): letters then digits, no '_' as the platform's own ids have. */
export const REGISTRY_ID = /^[A-Za-z]+-?\d+$/;

/** The platform id an entity reference names; the entity too when the registry was asked for it. */
export interface ResolvedEntity {
  id: string;
  entity?: Entity;
}

/** The entity an id or registry id (as an ENTITY input gives it) names; an unknown registry id is a 404. */
export async function resolveEntity(
  client: LabdataClient,
  pasted: string,
  registry: string | undefined,
  ctx: LabdataCall,
): Promise<ResolvedEntity> {
  if (!REGISTRY_ID.test(pasted)) return { id: pasted };
  const [entity] = await registeredEntities(client, [pasted], registry, ctx);
  if (!entity) throw new RemoteStatusError(404);
  return { id: entity.id ?? pasted, entity };
}
