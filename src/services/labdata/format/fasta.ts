import type { DnaSequence } from "../types.js";

/** FASTA: a header line with the name and id, then the bases in lines of 60. */
export function toFasta(sequence: DnaSequence): string {
  const header = `>${sequence.name} ${sequence.id} ${sequence.length} bp ${sequence.isCircular ? "circular" : "linear"}`;
  return [header, ...chunk(sequence.bases.toUpperCase(), 60)].join("\n");
}

export function chunk(text: string, size: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += size) lines.push(text.slice(i, i + size));
  return lines;
}
