// AA sequences, DNA and RNA oligos and custom entities on the platform: lists (offset paging over its
// cursors, as for DNA sequences), one by id, and archiving. DNA sequences take part where an operation
// spans every kind (archive, the search across kinds).

import { z } from "zod";
import { RemoteStatusError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { dnaSequenceSchema } from "../records/platform.js";
import { type Entity, entitySchema } from "../records/registry.js";
import type { Counted } from "./count.js";

export const ENTITY_TYPES = [
  "dna_sequence",
  "aa_sequence",
  "dna_oligo",
  "rna_oligo",
  "custom_entity",
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** How each type is called, and where its list lives (key, path). */
export const ENTITY_LABELS: Record<EntityType, string> = {
  dna_sequence: "DNA sequence",
  aa_sequence: "AA sequence",
  dna_oligo: "DNA oligo",
  rna_oligo: "RNA oligo",
  custom_entity: "custom entity",
};

const LIST_KEY: Record<EntityType, string> = {
  dna_sequence: "dnaSequences",
  aa_sequence: "aaSequences",
  dna_oligo: "dnaOligos",
  rna_oligo: "rnaOligos",
  custom_entity: "customEntities",
};

const ARCHIVE_KEY: Record<EntityType, string> = {
  dna_sequence: "dnaSequenceIds",
  aa_sequence: "aaSequenceIds",
  dna_oligo: "dnaOligoIds",
  rna_oligo: "rnaOligoIds",
  custom_entity: "customEntityIds",
};

function listPath(type: EntityType) {
  switch (type) {
    case "dna_sequence":
      return apiPath`api/v2/dna-sequences`;
    case "aa_sequence":
      return apiPath`api/v2/aa-sequences`;
    case "dna_oligo":
      return apiPath`api/v2/dna-oligos`;
    case "rna_oligo":
      return apiPath`api/v2/rna-oligos`;
    case "custom_entity":
      return apiPath`api/v2/custom-entities`;
  }
}

function itemPath(type: EntityType, id: string) {
  switch (type) {
    case "dna_sequence":
      return apiPath`api/v2/dna-sequences/${id}`;
    case "aa_sequence":
      return apiPath`api/v2/aa-sequences/${id}`;
    case "dna_oligo":
      return apiPath`api/v2/dna-oligos/${id}`;
    case "rna_oligo":
      return apiPath`api/v2/rna-oligos/${id}`;
    case "custom_entity":
      return apiPath`api/v2/custom-entities/${id}`;
  }
}

function archivePath(type: EntityType, archive: boolean) {
  switch (type) {
    case "dna_sequence":
      return archive ? apiPath`api/v2/dna-sequences:archive` : apiPath`api/v2/dna-sequences:unarchive`;
    case "aa_sequence":
      return archive ? apiPath`api/v2/aa-sequences:archive` : apiPath`api/v2/aa-sequences:unarchive`;
    case "dna_oligo":
      return archive ? apiPath`api/v2/dna-oligos:archive` : apiPath`api/v2/dna-oligos:unarchive`;
    case "rna_oligo":
      return archive ? apiPath`api/v2/rna-oligos:archive` : apiPath`api/v2/rna-oligos:unarchive`;
    case "custom_entity":
      return archive ? apiPath`api/v2/custom-entities:archive` : apiPath`api/v2/custom-entities:unarchive`;
  }
}

export interface EntityFilters {
  /** The whole name, exactly. */
  name?: string;
  nameIncludes?: string;
  folderId?: string;
  projectId?: string;
  schemaId?: string;
  archiveReason: "NOT_ARCHIVED" | "ANY_ARCHIVED_OR_NOT_ARCHIVED";
  sort: string;
  createdAt?: string;
  creatorIds?: string;
}

/** A page of one type, each record with its entityType set. */
export async function listEntities(
  client: LabdataClient,
  type: EntityType,
  filters: EntityFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
): Promise<Counted<Entity>> {
  const counted = await client.list<Entity>(
    LIST_KEY[type],
    listPath(type),
    entitySchema,
    { ...filters },
    offset,
    limit,
    ctx,
  );
  return { ...counted, items: counted.items.map((item) => ({ ...item, entityType: type })) };
}

export async function getEntity(
  client: LabdataClient,
  type: EntityType,
  id: string,
  ctx: LabdataCall,
): Promise<Entity> {
  const schema = type === "dna_sequence" ? dnaSequenceSchema : entitySchema;
  const entity = (await client.get<Entity>(itemPath(type, id), schema as z.ZodType<Entity>, ctx)) as Entity;
  return { ...entity, id: entity.id || id, entityType: type };
}

const REASONS = [
  "Made in error",
  "Retired",
  "Expended",
  "Shipped",
  "Contaminated",
  "Expired",
  "Missing",
  "Other",
] as const;
export const ARCHIVE_REASONS = REASONS;
export type ArchiveReason = (typeof REASONS)[number];

/** Archives (with a reason) or unarchives the given ids of one type; answers the ids the platform changed. */
export async function changeArchive(
  client: LabdataClient,
  type: EntityType,
  ids: string[],
  reason: ArchiveReason | undefined,
  ctx: LabdataCall,
): Promise<string[]> {
  const key = ARCHIVE_KEY[type];
  const { body } = await client.send(
    {
      method: "POST",
      path: archivePath(type, reason !== undefined),
      body: reason === undefined ? { [key]: ids } : { [key]: ids, reason },
      schema: z.looseObject({ [key]: z.array(z.string()).optional().catch(undefined) }),
    },
    ctx,
  );
  return (body[key] as string[] | undefined) ?? ids;
}

/**
 * One entity by id, of the given type, or, without one, of the type its id says (prtn_: AA sequence,
 * bfi_: custom entity) or else the first of the sequence kinds that knows it (oligos and DNA
 * sequences share the seq_ prefix).
 */
export async function findEntity(
  client: LabdataClient,
  id: string,
  type: EntityType | undefined,
  ctx: LabdataCall,
): Promise<Entity> {
  if (type) return getEntity(client, type, id, ctx);
  if (id.startsWith("prtn_")) return getEntity(client, "aa_sequence", id, ctx);
  if (id.startsWith("bfi_")) return getEntity(client, "custom_entity", id, ctx);
  const candidates: EntityType[] = ["dna_sequence", "dna_oligo", "rna_oligo", "aa_sequence", "custom_entity"];
  let last: unknown;
  let notFound: unknown;
  for (const candidate of candidates) {
    try {
      return await getEntity(client, candidate, id, ctx);
    } catch (error) {
      // 404 is what the document says a read of an unknown id answers; a path of another type may
      // answer 400 (an id it does not take) instead: either way, the next type may know it.
      if (!(error instanceof RemoteStatusError && (error.status === 404 || error.status === 400)))
        throw error;
      last = error;
      if (error.status === 404) notFound = error;
    }
  }
  throw notFound ?? last;
}
