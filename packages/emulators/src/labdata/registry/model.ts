// The registry and inventory records the emulator keeps beside DNA sequences: AA sequences, DNA and
// RNA oligos and custom entities (all in folders, so readable as their folder is), entity schemas of
// the one registry, and the storage tree (locations, boxes, plates, containers). Boxes, plates and
// containers belong to a project and are readable as it is; locations (rooms, freezers, shelves,
// racks) are the lab's shared furniture, readable by anyone in the tenant.
import type { FieldValue, SchemaRef } from "../state/model.js";

export type EntityKind = "aa_sequence" | "dna_oligo" | "rna_oligo" | "custom_entity";

export interface RegistryEntity {
  id: string;
  kind: EntityKind;
  name: string;
  aliases: string[];
  folderId: string;
  schema: SchemaRef | null;
  entityRegistryId: string | null;
  /** Bases of an oligo (RNA oligos with U), amino acids of an AA sequence; "" for a custom entity. */
  residues: string;
  fields: Record<string, FieldValue>;
  creatorId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export type SchemaType = "dna_sequence" | "aa_sequence" | "dna_oligo" | "rna_oligo" | "custom_entity";

export interface EntitySchemaRecord {
  id: string;
  name: string;
  type: SchemaType;
  /** Registry id prefix, e.g. "PL" for PL00012. */
  prefix: string;
  fields: Array<{ name: string; type: "text" | "integer" | "float" }>;
  modifiedAt: number;
}

export interface RegistryRecord {
  id: string;
  name: string;
  organizationId: string;
  modifiedAt: number;
}

export interface StorageBase {
  id: string;
  name: string;
  barcode: string;
  schema: SchemaRef;
  /** The location, box or plate it sits in; null for a room. */
  parentStorageId: string | null;
  creatorId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export type Location = StorageBase;

export interface Grid {
  rows: number;
  columns: number;
}

export interface Box extends StorageBase, Grid {
  projectId: string;
}

export interface Plate extends StorageBase, Grid {
  projectId: string;
}

export interface Quantity {
  value: number | null;
  units: string | null;
}

export interface Container extends StorageBase {
  projectId: string;
  /** Its place in the parent box or plate, e.g. "A1"; null when it sits in a location. */
  position: string | null;
  contents: Array<{ entityId: string; concentration: Quantity }>;
  quantity: Quantity;
}

/** An asynchronous task of a bulk operation, answering RUNNING for a few polls before its outcome. */
export interface AsyncTaskRecord {
  id: string;
  /** Who started it: only they may read it. */
  ownerKey: string;
  pollsLeft: number;
  total: number;
  outcome:
    | { status: "SUCCEEDED"; response: Record<string, unknown>; commit: () => void }
    | { status: "FAILED"; message: string; errors: Array<{ index: number; message: string }> };
}
