// How a DNA sequence reads to an agent: the facts first, an annotation summary, the first bases.
import { fieldList, heading, markdown, nameWithId, truncate, utcTime } from "../../../core/render.js";
import type { DnaSequence } from "../types.js";

const PREVIEW_BASES = 120;

export function sequenceMarkdown(sequence: DnaSequence): string {
  const annotations = sequence.annotations ?? [];
  return markdown(
    heading(1, nameWithId(sequence.name, sequence.id)),
    fieldList({
      Length: `${sequence.length.toLocaleString("en-US")} bp`,
      Topology: sequence.isCircular ? "circular" : "linear",
      Folder: sequence.folderId,
      "Registry ID": sequence.entityRegistryId,
      Aliases: sequence.aliases?.join(", "),
      Creator: sequence.creator
        ? nameWithId(sequence.creator.name ?? sequence.creator.handle ?? "?", sequence.creator.id)
        : undefined,
      Created: sequence.createdAt ? utcTime(sequence.createdAt) : undefined,
      Modified: sequence.modifiedAt ? utcTime(sequence.modifiedAt) : undefined,
      Archived: sequence.archiveRecord ? `yes (${sequence.archiveRecord.reason})` : undefined,
      "Web URL": sequence.webURL,
    }),
    heading(2, `Annotations (${annotations.length})`),
    annotations.length === 0
      ? "None."
      : annotations.map(
          (a) =>
            `- ${a.name ?? "(unnamed)"} (${a.type ?? "feature"}): ${a.start + 1}..${a.end}${a.strand === -1 ? ", reverse strand" : ""}`,
        ),
    heading(2, "Bases"),
    "`" +
      truncate(
        sequence.bases,
        PREVIEW_BASES,
        "call labdata_export_dna_sequence for the whole sequence as FASTA or GenBank",
      ) +
      "`",
  );
}

/** One line of a list: name (id), length, topology, folder, modified. */
export function sequenceLine(sequence: DnaSequence): string {
  const parts = [
    `${sequence.length.toLocaleString("en-US")} bp`,
    sequence.isCircular ? "circular" : "linear",
    sequence.folderId ? `folder ${sequence.folderId}` : undefined,
    sequence.modifiedAt ? `modified ${utcTime(sequence.modifiedAt)}` : undefined,
    sequence.archiveRecord ? `archived (${sequence.archiveRecord.reason})` : undefined,
  ].filter(Boolean);
  return `- **${nameWithId(sequence.name, sequence.id)}**: ${parts.join(", ")}`;
}
