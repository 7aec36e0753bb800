// Where a container is: its position in its box or plate, then each storage up to the room, read one
// level at a time (bounded), stopping at a storage the caller may not read.

import { RemoteStatusError } from "../../../core/errors.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import type { Container, Storage } from "../records/registry.js";
import { getStorage, listBoxContents, type StorageKind, storageKindOf } from "./inventory.js";

const MAX_DEPTH = 12;

export type Place = {
  id: string;
  name: string | null;
  kind: StorageKind | "unknown";
  schema: string | null;
  /** False when the caller may not read it: only its id is known. */
  readable: boolean;
};

export interface Located {
  container: Container;
  /** Its position in the box or plate it sits in ("C4"), when it has one. */
  position: string | null;
  /** From the nearest storage up to the room. */
  chain: Place[];
}

export async function locateContainer(
  client: LabdataClient,
  container: Container,
  ctx: LabdataCall,
): Promise<Located> {
  let position: string | null = container.gridPosition ?? null;
  const chain = await placesAbove(
    client,
    container.parentStorageId ?? null,
    ctx,
    async (kind, storage, id) => {
      if (position || !container.id) return;
      if (kind === "plate") position = wellOf(storage.wells, container.id);
      if (kind === "box") {
        const { items } = await listBoxContents(client, id, 0, 100, ctx);
        position = items.find((item) => item.id === container.id)?.gridPosition ?? null;
      }
    },
  );
  return { container, position, chain };
}

/**
 * Each storage from `parent` up to the room, read one level at a time (bounded), stopping at one the
 * caller may not read; `first` sees the nearest storage as read.
 */
export async function placesAbove(
  client: LabdataClient,
  parent: string | null,
  ctx: LabdataCall,
  first?: (kind: StorageKind, storage: Storage, id: string) => Promise<void>,
): Promise<Place[]> {
  const chain: Place[] = [];
  let next = parent;
  for (let depth = 0; next && depth < MAX_DEPTH; depth++) {
    const kind = storageKindOf(next);
    if (!kind) {
      chain.push({ id: next, name: null, kind: "unknown", schema: null, readable: false });
      break;
    }
    let storage: Storage;
    try {
      storage = await getStorage(client, kind, next, ctx);
    } catch (error) {
      if (error instanceof RemoteStatusError && (error.status === 403 || error.status === 404)) {
        chain.push({ id: next, name: null, kind, schema: null, readable: false });
        break;
      }
      throw error;
    }
    if (depth === 0) await first?.(kind, storage, next);
    chain.push({
      id: storage.id || next,
      name: storage.name ?? null,
      kind,
      schema: storage.schema?.name ?? null,
      readable: true,
    });
    next = storage.parentStorageId ?? null;
  }
  return chain;
}

function wellOf(wells: Record<string, unknown> | null | undefined, containerId: string): string | null {
  for (const [key, well] of Object.entries(wells ?? {})) {
    if (well && typeof well === "object" && (well as { id?: unknown }).id === containerId) return key;
  }
  return null;
}
