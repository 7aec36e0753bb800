// Inventory: containers (by what they hold or where they are), boxes and their contents, plates with
// their wells, and locations, read one level at a time to climb from a container to its room.

import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { type Container, containerSchema, type Storage, storageSchema } from "../records/registry.js";

export interface ContainerFilters {
  nameIncludes?: string;
  /** Containers holding this entity. */
  storageContentsId?: string;
  /** Containers anywhere below this storage. */
  ancestorStorageId?: string;
  archiveReason: "NOT_ARCHIVED" | "ANY_ARCHIVED_OR_NOT_ARCHIVED";
  /** The document's range ("> A AND < B") and comma-separated user ids. */
  createdAt?: string;
  creatorIds?: string;
}

export function listContainers(
  client: LabdataClient,
  filters: ContainerFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  return client.list<Container>(
    "containers",
    apiPath`api/v2/containers`,
    containerSchema,
    { ...filters, sort: "name:asc" },
    offset,
    limit,
    ctx,
  );
}

export function getContainer(client: LabdataClient, id: string, ctx: LabdataCall): Promise<Container> {
  return client.get(apiPath`api/v2/containers/${id}`, containerSchema, ctx);
}

export type StorageKind = "box" | "plate" | "location";

/** What an id names, from the platform's id prefixes (box_, plt_, loc_); undefined for another. */
export function storageKindOf(id: string): StorageKind | undefined {
  if (id.startsWith("box_")) return "box";
  if (id.startsWith("plt_")) return "plate";
  if (id.startsWith("loc_")) return "location";
  return undefined;
}

export function getStorage(
  client: LabdataClient,
  kind: StorageKind,
  id: string,
  ctx: LabdataCall,
): Promise<Storage> {
  switch (kind) {
    case "box":
      return client.get(apiPath`api/v2/boxes/${id}`, storageSchema, ctx);
    case "plate":
      return client.get(apiPath`api/v2/plates/${id}`, storageSchema, ctx);
    case "location":
      return client.get(apiPath`api/v2/locations/${id}`, storageSchema, ctx);
  }
}

/** The containers of a box with their grid positions, in grid order. */
export function listBoxContents(
  client: LabdataClient,
  boxId: string,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  return client.list<Container>(
    "containers",
    apiPath`api/v2/boxes/${boxId}/contents`,
    containerSchema,
    {},
    offset,
    limit,
    ctx,
  );
}

const STORAGE_LISTS = {
  location: { key: "locations", path: apiPath`api/v2/locations` },
  box: { key: "boxes", path: apiPath`api/v2/boxes` },
  plate: { key: "plates", path: apiPath`api/v2/plates` },
} as const;

export interface StorageFilters {
  /** Exactly this name. */
  name?: string;
  nameIncludes?: string;
  /** Anywhere below this storage. */
  ancestorStorageId?: string;
}

/** Locations, boxes or plates by name or by where they are, live ones, by name. */
export function listStorages(
  client: LabdataClient,
  kind: StorageKind,
  filters: StorageFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const { key, path } = STORAGE_LISTS[kind];
  return client.list<Storage>(
    key,
    path,
    storageSchema,
    { ...filters, archiveReason: "NOT_ARCHIVED", sort: "name:asc" },
    offset,
    limit,
    ctx,
  );
}
