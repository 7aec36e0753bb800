import type { DnaSequence } from "../records/platform.js";
import { sequenceLength, topology } from "./facts.js";
import { displayName } from "./labels.js";

/** FASTA: a header line with the name, id, length and topology (each when known), then the bases in lines of 60. */
export function toFasta(sequence: DnaSequence): string {
  const bases = (sequence.bases ?? "").toUpperCase();
  const header = [
    `>${displayName(sequence.name).replace(/\s+/g, " ")}`,
    sequence.id,
    `${sequenceLength(sequence) ?? 0} bp`,
    topology(sequence),
  ].filter(Boolean);
  return [header.join(" "), ...chunk(bases, 60)].join("\n");
}

export function chunk(text: string, size: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += size) lines.push(text.slice(i, i + size));
  return lines;
}
