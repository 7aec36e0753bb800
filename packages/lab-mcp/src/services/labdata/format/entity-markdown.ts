// How AA sequences, oligos, custom entities (and, in lookups, DNA sequences) read to an agent: a line
// per entity in lists, the facts and the first residues for one, FASTA for the sequences among them.
import { fieldList, heading, markdown, truncate, utcTime } from "../../../core/render.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { ENTITY_LABELS, type EntityType } from "../api/entities.js";
import type { Entity } from "../records/registry.js";
import { chunk } from "./fasta.js";
import { type FieldLike, fieldText } from "./field.js";
import { displayName, nameAndId } from "./labels.js";

const PREVIEW_RESIDUES = 120;

function typeLabel(entity: Entity): string {
  return ENTITY_LABELS[entity.entityType as EntityType] ?? entity.entityType ?? "entity";
}

/** The residues of an entity: amino acids of an AA sequence, bases of an oligo or DNA sequence. */
export function residuesOf(entity: Entity): { text: string; unit: string } | undefined {
  if (entity.aminoAcids) return { text: entity.aminoAcids, unit: "aa" };
  if (entity.bases) return { text: entity.bases, unit: entity.entityType === "dna_sequence" ? "bp" : "nt" };
  return undefined;
}

function lengthText(entity: Entity): string | undefined {
  const residues = residuesOf(entity);
  const length =
    typeof entity.length === "number" && entity.length > 0 ? entity.length : residues?.text.length;
  if (!length) return undefined;
  return `${length.toLocaleString("en-US")} ${residues?.unit ?? (entity.entityType === "aa_sequence" ? "aa" : "nt")}`;
}

/** One line of a list: name (id), type, registry id, length, schema, folder (and created, when asked). */
export function entityLine(entity: Entity, withCreated = false): string {
  const parts = [
    typeLabel(entity),
    entity.entityRegistryId ? `registry id ${entity.entityRegistryId}` : undefined,
    lengthText(entity),
    entity.schema?.name ? `schema ${entity.schema.name}` : undefined,
    entity.aliases?.length ? `aliases ${entity.aliases.join(", ")}` : undefined,
    entity.folderId ? `folder ${entity.folderId}` : undefined,
    withCreated && entity.createdAt ? `created ${utcTime(entity.createdAt)}` : undefined,
    entity.archiveRecord
      ? `archived${entity.archiveRecord.reason ? ` (${entity.archiveRecord.reason})` : ""}`
      : undefined,
  ].filter(Boolean);
  return oneLine(`- **${nameAndId(entity.name, entity.id)}**: ${parts.join(", ")}`);
}

export function entityMarkdown(entity: Entity): string {
  const residues = residuesOf(entity);
  const fields = (entity as { fields?: Record<string, FieldLike | null> }).fields;
  const fieldLines =
    fields && typeof fields === "object"
      ? Object.entries(fields).flatMap(([name, field]) => {
          const value = fieldText(field);
          return value ? [oneLine(`- ${name}: ${value}`)] : [];
        })
      : [];
  return markdown(
    heading(1, nameAndId(entity.name, entity.id)),
    fieldList({
      Type: typeLabel(entity),
      Length: lengthText(entity),
      Schema: entity.schema?.name ? nameAndId(entity.schema.name, entity.schema.id) : undefined,
      "Registry ID": entity.entityRegistryId,
      Aliases: entity.aliases?.filter((alias) => alias.trim()).join(", "),
      Folder: entity.folderId,
      Creator: entity.creator?.name || entity.creator?.handle || undefined,
      Created: entity.createdAt ? utcTime(entity.createdAt) : undefined,
      Modified: entity.modifiedAt ? utcTime(entity.modifiedAt) : undefined,
      Archived: entity.archiveRecord ? (entity.archiveRecord.reason ?? "yes") : undefined,
      "Web URL": entity.webURL,
    }),
    fieldLines.length > 0 && [heading(2, "Fields"), ...fieldLines].join("\n"),
    residues &&
      [
        heading(2, residues.unit === "aa" ? "Amino acids" : "Bases"),
        `\`${truncate(residues.text, PREVIEW_RESIDUES, "ask again with fasta=true for all of them")}\``,
      ].join("\n\n"),
  );
}

/** FASTA of an AA sequence or oligo: a header with name, id and length, then lines of 60. */
export function entityFasta(entity: Entity): string | undefined {
  const residues = residuesOf(entity);
  if (!residues) return undefined;
  const header = [
    `>${displayName(entity.name).replace(/\s+/g, " ")}`,
    entity.id,
    `${residues.text.length} ${residues.unit}`,
  ];
  return [header.filter(Boolean).join(" "), ...chunk(residues.text.toUpperCase(), 60)].join("\n");
}
