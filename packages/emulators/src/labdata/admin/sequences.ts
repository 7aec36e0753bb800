// DNA sequences put in by the admin API: one given record, or many generated from a seed, and
// archiving, so listings with archiveReason can be tested.
import { z } from "zod";
import { createRandom } from "../../common/seeded-random.js";
import { sequenceToWire } from "../api/shapes.js";
import { type SequenceDraft, SequenceGenerator } from "../sequences/generator.js";
import {
  buildSequence,
  createSequenceSchema,
  type SequenceInput,
  sequenceProblem,
} from "../sequences/input.js";
import type { EmulatorState, TenantState } from "../state/emulator-state.js";
import { ID_PREFIX } from "../state/ids.js";
import { ARCHIVE_REASONS, type DnaSequence, type FieldScalar, type FieldValue } from "../state/model.js";
import { invalid, validated } from "./admin-error.js";
import { recordOf, tenantOf } from "./lookup.js";

const DAY_MS = 86_400_000;
const reason = z.enum(ARCHIVE_REASONS);

const addSequenceSchema = createSequenceSchema.extend({
  creatorId: z.string().min(1).optional(),
  entityRegistryId: z.string().min(1).max(100).nullable().optional(),
  archiveReason: reason.nullable().optional(),
});

export const SEED_KINDS = ["plasmid", "sgrna", "antibody", "knockout"] as const;

const seedSchema = z
  .object({
    folderId: z.string().min(1),
    count: z.number().int().min(1).max(5000),
    kind: z.enum(SEED_KINDS).default("plasmid"),
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    creatorId: z.string().min(1).optional(),
  })
  .strict();

const archiveSchema = z.object({ reason }).strict();

export type AddDnaSequenceInput = SequenceInput & {
  creatorId?: string;
  entityRegistryId?: string | null;
  archiveReason?: (typeof ARCHIVE_REASONS)[number] | null;
};
export type SeedDnaSequencesInput = z.input<typeof seedSchema>;
export type ArchiveInput = z.infer<typeof archiveSchema>;

// Without a creator given, sequences are made by the tenant's first person.
function creatorFor(tenant: TenantState, creatorId: string | undefined): string {
  if (creatorId !== undefined) return recordOf(tenant.users, creatorId, "user").id;
  for (const user of tenant.users.values()) if (user.kind === "person") return user.id;
  throw invalid("the tenant has no user to be the creator: create one or give creatorId");
}

function fieldValue(value: FieldScalar): FieldValue {
  const type =
    typeof value === "boolean"
      ? "boolean"
      : typeof value === "number"
        ? Number.isInteger(value)
          ? "integer"
          : "float"
        : "text";
  const text = value === null ? null : String(value);
  return { value, type, displayValue: text, isMulti: false, textValue: text };
}

/** A generated draft as a stored record, with its schema and typed fields. */
export function draftToSequence(
  draft: SequenceDraft,
  meta: { id: string; folderId: string; creatorId: string; createdAt: number; modifiedAt: number },
): DnaSequence {
  return {
    id: meta.id,
    name: draft.name,
    bases: draft.bases,
    isCircular: draft.isCircular,
    aliases: [],
    folderId: meta.folderId,
    entityRegistryId: null,
    schema: { id: `ts_${draft.schemaName.replace(/[^A-Za-z0-9]/g, "")}`, name: draft.schemaName },
    fields: Object.fromEntries(Object.entries(draft.fields).map(([k, v]) => [k, fieldValue(v)])),
    customFields: {},
    annotations: draft.annotations,
    primers: draft.primers,
    translations: draft.translations,
    creatorId: meta.creatorId,
    createdAt: meta.createdAt,
    modifiedAt: meta.modifiedAt,
    archiveReason: null,
  };
}

export function draftOf(generator: SequenceGenerator, kind: (typeof SEED_KINDS)[number]): SequenceDraft {
  switch (kind) {
    case "plasmid":
      return generator.plasmid();
    case "sgrna":
      return generator.sgRnaCassette();
    case "antibody":
      return generator.antibodyChain();
    case "knockout":
      return generator.knockoutCassette();
  }
}

export function addDnaSequence(
  state: EmulatorState,
  tenantName: string,
  input: AddDnaSequenceInput,
): Record<string, unknown> {
  const tenant = tenantOf(state, tenantName);
  const { creatorId, entityRegistryId, archiveReason, ...fields } = validated(addSequenceSchema, input);
  recordOf(tenant.folders, fields.folderId, "folder");
  const problem = sequenceProblem(fields);
  if (problem) throw invalid(problem);
  const seq = buildSequence(fields, {
    id: state.ids.next(ID_PREFIX.dnaSequence),
    creatorId: creatorFor(tenant, creatorId),
    now: state.clock.now(),
    entityRegistryId,
    archiveReason,
  });
  tenant.sequences.set(seq.id, seq);
  return sequenceToWire(tenant, seq);
}

/** `count` generated sequences in a folder, created over the past year; the same seed, the same data. */
export function seedDnaSequences(
  state: EmulatorState,
  tenantName: string,
  input: SeedDnaSequencesInput,
): { ids: string[] } {
  const tenant = tenantOf(state, tenantName);
  const { folderId, count, kind, seed, creatorId } = validated(seedSchema, input);
  recordOf(tenant.folders, folderId, "folder");
  const creator = creatorFor(tenant, creatorId);
  const random = createRandom(seed ?? state.clock.now());
  const generator = new SequenceGenerator(random);
  const now = state.clock.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = now - random.int(1, 365) * DAY_MS;
    const modifiedAt = createdAt + random.int(0, now - createdAt);
    const meta = {
      id: state.ids.next(ID_PREFIX.dnaSequence),
      folderId,
      creatorId: creator,
      createdAt,
      modifiedAt,
    };
    const seq = draftToSequence(draftOf(generator, kind), meta);
    tenant.sequences.set(seq.id, seq);
    ids.push(seq.id);
  }
  return { ids };
}

export function archiveDnaSequence(
  state: EmulatorState,
  tenantName: string,
  sequenceId: string,
  input: ArchiveInput,
): Record<string, unknown> {
  const tenant = tenantOf(state, tenantName);
  const seq = recordOf(tenant.sequences, sequenceId, "DNA sequence");
  seq.archiveReason = validated(archiveSchema, input).reason;
  seq.modifiedAt = state.clock.now();
  tenant.sequenceJson.delete(seq.id);
  return sequenceToWire(tenant, seq);
}

export function unarchiveDnaSequence(
  state: EmulatorState,
  tenantName: string,
  sequenceId: string,
): Record<string, unknown> {
  const tenant = tenantOf(state, tenantName);
  const seq = recordOf(tenant.sequences, sequenceId, "DNA sequence");
  seq.archiveReason = null;
  seq.modifiedAt = state.clock.now();
  tenant.sequenceJson.delete(seq.id);
  return sequenceToWire(tenant, seq);
}
