// The registry: its registries and entity schemas, and registered entities by registry id.

import { z } from "zod";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { list } from "../records/platform.js";
import {
  type Entity,
  type EntitySchema,
  entitySchema,
  entitySchemaSchema,
  registrySchema,
} from "../records/registry.js";

export async function listRegistries(client: LabdataClient, ctx: LabdataCall) {
  const body = await client.get(
    apiPath`api/v2/registries`,
    z.looseObject({ registries: list(registrySchema) }),
    ctx,
  );
  return body.registries ?? [];
}

export function listEntitySchemas(client: LabdataClient, offset: number, limit: number, ctx: LabdataCall) {
  return client.list<EntitySchema>(
    "entitySchemas",
    apiPath`api/v2/entity-schemas`,
    entitySchemaSchema,
    {},
    offset,
    limit,
    ctx,
  );
}

/** The registered entities with these registry ids, in the order asked; `registryId`: the first registry when absent. */
export async function registeredEntities(
  client: LabdataClient,
  registryIds: string[],
  registryId: string | undefined,
  ctx: LabdataCall,
): Promise<Entity[]> {
  const registry = registryId ?? (await listRegistries(client, ctx))[0]?.id;
  if (!registry) return [];
  const body = await client.send(
    {
      path: apiPath`api/v2/registries/${registry}/registered-entities:bulk-get`,
      query: { entityRegistryIds: registryIds.join(",") },
      schema: z.looseObject({ entities: list(entitySchema) }),
    },
    ctx,
  );
  return body.body.entities ?? [];
}
