// Where a container is: its position in its box or plate, then each storage up to the room, read one
// level at a time (bounded), stopping at a storage the caller may not read.

import { RemoteStatusError } from "../../../core/errors.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import type { Container } from "../records/registry.js";
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
  const chain: Place[] = [];
  let position: string | null = container.gridPosition ?? null;
  let parent = container.parentStorageId ?? null;
  for (let depth = 0; parent && depth < MAX_DEPTH; depth++) {
    const kind = storageKindOf(parent);
    if (!kind) {
      chain.push({ id: parent, name: null, kind: "unknown", schema: null, readable: false });
      break;
    }
    let storage: Awaited<ReturnType<typeof getStorage>>;
    try {
      storage = await getStorage(client, kind, parent, ctx);
    } catch (error) {
      if (error instanceof RemoteStatusError && (error.status === 403 || error.status === 404)) {
        chain.push({ id: parent, name: null, kind, schema: null, readable: false });
        break;
      }
      throw error;
    }
    if (depth === 0 && !position && container.id) {
      if (kind === "plate") position = wellOf(storage.wells, container.id);
      if (kind === "box") {
        const { items } = await listBoxContents(client, parent, 0, 100, ctx);
        position = items.find((item) => item.id === container.id)?.gridPosition ?? null;
      }
    }
    chain.push({
      id: storage.id || parent,
      name: storage.name ?? null,
      kind,
      schema: storage.schema?.name ?? null,
      readable: true,
    });
    parent = storage.parentStorageId ?? null;
  }
  return { container, position, chain };
}

function wellOf(wells: Record<string, unknown> | null | undefined, containerId: string): string | null {
  for (const [key, well] of Object.entries(wells ?? {})) {
    if (well && typeof well === "object" && (well as { id?: unknown }).id === containerId) return key;
  }
  return null;
}
