// How a DNA sequence reads to an agent: the facts first, an annotation summary, the first bases.
// Every field may be missing (the platform's document requires none): what is missing is left out.
import { fieldList, heading, markdown, truncate, utcTime } from "../../../core/render.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { annotationEnd } from "../genbank/platform.js";
import type { Annotation, DnaSequence } from "../records/platform.js";
import { sequenceLength, topology } from "./facts.js";
import { displayName, nameAndId } from "./labels.js";

const PREVIEW_BASES = 120;

/** `requestedId`: the id the agent asked for, shown when the answer leaves the id out. */
export function sequenceMarkdown(sequence: DnaSequence, requestedId?: string): string {
  const annotations = sequence.annotations ?? [];
  const bases = sequence.bases ?? "";
  const length = sequenceLength(sequence);
  return markdown(
    heading(1, nameAndId(sequence.name, sequence.id || requestedId)),
    fieldList({
      Length: length === undefined ? undefined : `${length.toLocaleString("en-US")} bp`,
      Topology: topology(sequence),
      Folder: sequence.folderId,
      "Registry ID": sequence.entityRegistryId,
      Aliases: sequence.aliases?.filter((alias) => alias.trim()).join(", "),
      Creator: creatorOf(sequence),
      Created: sequence.createdAt ? utcTime(sequence.createdAt) : undefined,
      Modified: sequence.modifiedAt ? utcTime(sequence.modifiedAt) : undefined,
      Archived: sequence.archiveRecord ? archivedAs(sequence.archiveRecord.reason) : undefined,
      "Web URL": sequence.webURL,
    }),
    heading(2, `Annotations (${annotations.length})`),
    annotations.length === 0 ? "None." : annotations.map((a) => annotationLine(a, length ?? 0)),
    heading(2, "Bases"),
    bases
      ? "`" +
          truncate(
            bases,
            PREVIEW_BASES,
            "call labdata_export_dna_sequence for the whole sequence as FASTA or GenBank",
          ) +
          "`"
      : "No bases in the platform's answer.",
  );
}

/**
 * One line of a list: name (id), registry id, length, topology, folder, and when it was modified (or
 * created, where the list was asked by creation date).
 */
export function sequenceLine(sequence: DnaSequence, dated: "modified" | "created" = "modified"): string {
  const length = sequenceLength(sequence);
  const parts = [
    sequence.entityRegistryId ? `registry id ${sequence.entityRegistryId}` : undefined,
    length === undefined ? undefined : `${length.toLocaleString("en-US")} bp`,
    topology(sequence),
    sequence.folderId ? `folder ${sequence.folderId}` : undefined,
    dated === "created"
      ? sequence.createdAt && `created ${utcTime(sequence.createdAt)}`
      : sequence.modifiedAt && `modified ${utcTime(sequence.modifiedAt)}`,
    sequence.archiveRecord ? archivedAs(sequence.archiveRecord.reason, "archived") : undefined,
  ].filter(Boolean);
  const label = `- **${nameAndId(sequence.name, sequence.id)}**`;
  return oneLine(parts.length ? `${label}: ${parts.join(", ")}` : label);
}

function creatorOf(sequence: DnaSequence): string | undefined {
  const creator = sequence.creator;
  if (!creator || !(creator.name || creator.handle || creator.id)) return undefined;
  return nameAndId(creator.name || creator.handle, creator.id);
}

function archivedAs(reason: string | null | undefined, word = "yes"): string {
  return reason?.trim() ? `${word} (${reason})` : word;
}

function annotationLine(annotation: Annotation, length: number): string {
  const { start, end } = annotation;
  const place =
    typeof start === "number" && typeof end === "number"
      ? `: ${start + 1}..${annotationEnd(end, length)}`
      : "";
  const strand = annotation.strand === -1 ? ", reverse strand" : "";
  return oneLine(
    `- ${displayName(annotation.name)} (${annotation.type?.trim() || "feature"})${place}${strand}`,
  );
}
