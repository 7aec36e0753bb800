// The remote's shapes of registry, entity and inventory records, read as leniently as DNA sequences
// (platform.ts): every field optional, null where a value may be missing, a field of another type
// dropped, unknown fields kept for the json format.
import { z } from "zod";
import { archiveRecord, flag, integer, lenient, list, partySummary, text } from "./platform.js";

const number = lenient(z.number().nullable());
const schemaSummary = lenient(z.looseObject({ id: text, name: text }).nullable());

/** An AA sequence, DNA or RNA oligo, custom entity, or (in lookups) a DNA sequence, with its type. */
export const entitySchema = z.looseObject({
  id: text,
  name: text,
  entityType: text,
  aliases: list(z.string()),
  folderId: text,
  entityRegistryId: text,
  registryId: text,
  schema: schemaSummary,
  aminoAcids: text,
  bases: text,
  length: integer,
  isCircular: flag,
  nucleotideType: text,
  creator: partySummary,
  createdAt: text,
  modifiedAt: text,
  webURL: text,
  archiveRecord,
});
export type Entity = z.infer<typeof entitySchema>;

/**
 * A container's content: an entity, or the document's InaccessibleResource for one the caller may not
 * read. The entity as a reference only: the platform sends it whole (a plasmid with all its bases),
 * which no answer about where things are stored should carry; labdata_get_entity reads it.
 */
const contentSchema = z.looseObject({
  entity: lenient(
    z
      .object({
        id: text,
        name: text,
        entityType: text,
        entityRegistryId: text,
        inaccessibleId: text,
        type: text,
      })
      .nullable(),
  ),
  concentration: lenient(z.looseObject({ value: number, units: text }).nullable()),
});

export const quantitySchema = lenient(z.looseObject({ value: number, units: text }).nullable());

export const containerSchema = z.looseObject({
  id: text,
  name: text,
  barcode: text,
  schema: schemaSummary,
  parentStorageId: text,
  projectId: text,
  quantity: quantitySchema,
  contents: list(contentSchema),
  gridPosition: text,
  gridNumber: number,
  createdAt: text,
  modifiedAt: text,
  archiveRecord,
});
export type Container = z.infer<typeof containerSchema>;

/** A location, box or plate: where things are stored. */
export const storageSchema = z.looseObject({
  id: text,
  name: text,
  barcode: text,
  schema: schemaSummary,
  parentStorageId: text,
  projectId: text,
  type: text,
  size: integer,
  totalCapacity: integer,
  filledPositions: integer,
  emptyPositions: integer,
  wells: lenient(z.record(z.string(), z.unknown()).nullable()),
  archiveRecord,
});
export type Storage = z.infer<typeof storageSchema>;

export const registrySchema = z.looseObject({ id: text, name: text });

export const entitySchemaSchema = z.looseObject({
  id: text,
  name: text,
  type: text,
  prefix: text,
  registryId: text,
  fieldDefinitions: list(z.looseObject({ name: text, type: text })),
  archiveRecord,
});
export type EntitySchema = z.infer<typeof entitySchemaSchema>;

export const taskLinkSchema = z.looseObject({ taskId: text });

export const taskSchema = z.looseObject({
  status: text,
  message: text,
  errors: lenient(z.unknown()),
  response: lenient(z.looseObject({ dnaSequences: lenient(z.array(z.unknown()).nullable()) }).nullable()),
});
