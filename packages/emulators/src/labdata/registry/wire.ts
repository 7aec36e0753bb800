// Registry and inventory records as the API returns them, held to the OpenAPI document by
// test/contract: ISO times, archiveRecord null or {reason}, a field the document does not mark
// nullable left out rather than sent as null, and an entity the caller may not read inside a
// container shown as the document's InaccessibleResource.
import { sequenceToWire, userSummary } from "../api/shapes.js";
import type { Actor } from "../auth/permissions.js";
import { allows, roleOnFolder } from "../auth/permissions.js";
import type { TenantState } from "../state/emulator-state.js";
import type {
  Box,
  Container,
  EntityKind,
  EntitySchemaRecord,
  Grid,
  Location,
  Plate,
  RegistryEntity,
  RegistryRecord,
  StorageBase,
} from "./model.js";
import { registryOf } from "./store.js";

const iso = (ms: number): string => new Date(ms).toISOString();
const archiveRecord = (reason: string | null): { reason: string } | null =>
  reason === null ? null : { reason };

/** The URL segment of each kind in the platform's web app. */
const WEB_KIND: Record<EntityKind, string> = {
  aa_sequence: "prtn",
  dna_oligo: "seq",
  rna_oligo: "seq",
  custom_entity: "bfi",
};

export function registryIdOf(tenant: TenantState, registered: boolean): string | null {
  if (!registered) return null;
  return registryOf(tenant).registries.keys().next().value ?? null;
}

export function entityToWire(tenant: TenantState, entity: RegistryEntity): Record<string, unknown> {
  const common = {
    id: entity.id,
    name: entity.name,
    aliases: entity.aliases,
    folderId: entity.folderId,
    entityRegistryId: entity.entityRegistryId,
    registryId: registryIdOf(tenant, entity.entityRegistryId !== null),
    // SchemaSummary is not nullable in the document: left out without a schema.
    schema: entity.schema ?? undefined,
    fields: entity.fields,
    customFields: {},
    authors: [],
    creator: userSummary(tenant.users.get(entity.creatorId)),
    createdAt: iso(entity.createdAt),
    modifiedAt: iso(entity.modifiedAt),
    webURL: `${tenant.baseUrl}/${WEB_KIND[entity.kind]}/${entity.id}`,
    archiveRecord: archiveRecord(entity.archiveReason),
  };
  switch (entity.kind) {
    case "aa_sequence":
      return { ...common, aminoAcids: entity.residues, length: entity.residues.length, annotations: [] };
    case "dna_oligo":
    case "rna_oligo":
      return {
        ...common,
        bases: entity.residues,
        length: entity.residues.length,
        nucleotideType: entity.kind === "dna_oligo" ? "DNA" : "RNA",
        annotations: [],
      };
    case "custom_entity":
      return common;
  }
}

/** An entity with its entityType, as registered-entity lookups and container contents carry it. */
export function typedEntityToWire(tenant: TenantState, id: string): Record<string, unknown> | undefined {
  const entity = registryOf(tenant).entities.get(id);
  if (entity) return { ...entityToWire(tenant, entity), entityType: entity.kind };
  const seq = tenant.sequences.get(id);
  return seq ? { ...sequenceToWire(tenant, seq), entityType: "dna_sequence" } : undefined;
}

/** The folder an entity (of any kind, DNA sequences included) is in. */
export function folderOfEntity(tenant: TenantState, id: string): string | undefined {
  return registryOf(tenant).entities.get(id)?.folderId ?? tenant.sequences.get(id)?.folderId;
}

export function canReadEntity(tenant: TenantState, actor: Actor, id: string): boolean {
  const folder = tenant.folders.get(folderOfEntity(tenant, id) ?? "");
  return folder !== undefined && allows(roleOnFolder(tenant, actor, folder), "read");
}

export function schemaToWire(tenant: TenantState, schema: EntitySchemaRecord): Record<string, unknown> {
  return {
    id: schema.id,
    name: schema.name,
    type: schema.type,
    prefix: schema.prefix,
    registryId: registryIdOf(tenant, true) ?? undefined,
    archiveRecord: null,
    fieldDefinitions: schema.fields.map((field, i) => ({
      id: `tsf_${schema.id.slice(3)}${i}`,
      name: field.name,
      type: field.type,
      isMulti: false,
      isRequired: false,
      archiveRecord: null,
    })),
    containableType: "NONE",
    constraint: null,
    modifiedAt: iso(schema.modifiedAt),
  };
}

export function registryToWire(tenant: TenantState, registry: RegistryRecord): Record<string, unknown> {
  const org = tenant.organizations.get(registry.organizationId);
  return {
    id: registry.id,
    name: registry.name,
    modifiedAt: iso(registry.modifiedAt),
    owner: org ? { id: org.id, handle: org.handle, name: org.name } : undefined,
  };
}

function storageCommon(tenant: TenantState, item: StorageBase, kind: string): Record<string, unknown> {
  return {
    id: item.id,
    name: item.name,
    barcode: item.barcode,
    schema: item.schema,
    parentStorageId: item.parentStorageId,
    fields: {},
    creator: userSummary(tenant.users.get(item.creatorId)),
    createdAt: iso(item.createdAt),
    modifiedAt: iso(item.modifiedAt),
    webURL: `${tenant.baseUrl}/${kind}/${item.id}`,
    archiveRecord: archiveRecord(item.archiveReason),
  };
}

/** Children directly inside a storage: locations, boxes, plates and containers. */
function childrenOf(tenant: TenantState, id: string): number {
  const store = registryOf(tenant);
  let count = 0;
  for (const map of [store.locations, store.boxes, store.plates, store.containers]) {
    for (const item of map.values()) if (item.parentStorageId === id) count++;
  }
  return count;
}

export function locationToWire(tenant: TenantState, location: Location): Record<string, unknown> {
  const occupied = childrenOf(tenant, location.id);
  return {
    ...storageCommon(tenant, location, "locations"),
    occupiedCapacity: occupied,
    availableCapacity: null,
    totalCapacity: null,
  };
}

function gridCounts(tenant: TenantState, grid: Grid & { id: string }) {
  const total = grid.rows * grid.columns;
  const filled = childrenOf(tenant, grid.id);
  return { total, filled };
}

export function boxToWire(tenant: TenantState, box: Box): Record<string, unknown> {
  const { total, filled } = gridCounts(tenant, box);
  return {
    ...storageCommon(tenant, box, "boxes"),
    projectId: box.projectId,
    size: total,
    totalCapacity: total,
    occupiedCapacity: filled,
    availableCapacity: total - filled,
    filledPositions: filled,
    emptyPositions: total - filled,
    emptyContainers: 0,
  };
}

function contentsToWire(tenant: TenantState, actor: Actor, container: Container) {
  return container.contents.map((content) => {
    const readable = canReadEntity(tenant, actor, content.entityId);
    const typed = readable ? typedEntityToWire(tenant, content.entityId) : undefined;
    const entity = typed ?? {
      inaccessibleId: content.entityId,
      resourceType: "inaccessible_resource",
      type: registryOf(tenant).entities.get(content.entityId)?.kind ?? "dna_sequence",
    };
    return { entity, concentration: content.concentration };
  });
}

export function containerToWire(
  tenant: TenantState,
  actor: Actor,
  container: Container,
): Record<string, unknown> {
  const store = registryOf(tenant);
  const parent = container.parentStorageId;
  const parentSchema = parent
    ? (store.boxes.get(parent) ?? store.plates.get(parent) ?? store.locations.get(parent))?.schema
    : undefined;
  return {
    ...storageCommon(tenant, container, "containers"),
    projectId: container.projectId,
    parentStorageSchema: parentSchema,
    contents: contentsToWire(tenant, actor, container),
    quantity: container.quantity,
    sampleOwners: [],
    restrictedSampleParties: [],
  };
}

/** A container in a box listing, with its grid position ("B3") and number (row-major, from 1). */
export function containerWithCoordinates(
  tenant: TenantState,
  actor: Actor,
  container: Container,
  grid: Grid,
): Record<string, unknown> {
  const position = container.position ?? "";
  const row = position.charCodeAt(0) - 65;
  const column = Number(position.slice(1)) - 1;
  return {
    ...containerToWire(tenant, actor, container),
    gridPosition: position,
    gridNumber: row * grid.columns + column + 1,
  };
}

export function plateToWire(tenant: TenantState, actor: Actor, plate: Plate): Record<string, unknown> {
  const { total, filled } = gridCounts(tenant, plate);
  const wells: Record<string, unknown> = {};
  for (const container of registryOf(tenant).containers.values()) {
    if (container.parentStorageId !== plate.id || !container.position) continue;
    // The document's Well takes no field beyond its own: no sampleOwners or parentStorageSchema extras.
    const {
      sampleOwners: _o,
      restrictedSampleParties: _r,
      ...well
    } = containerToWire(tenant, actor, container);
    wells[container.position] = { ...well, resourceType: "container" };
  }
  return {
    ...storageCommon(tenant, plate, "plates"),
    projectId: plate.projectId,
    type: "well_plate",
    totalCapacity: total,
    occupiedCapacity: filled,
    availableCapacity: total - filled,
    wells,
  };
}
