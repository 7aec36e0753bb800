// FASTA text read into sequences to create (a name and the bases), and which format a text is in.
// GenBank has a reader of its own (genbank/read.ts).

export interface ParsedSequence {
  name: string;
  bases: string;
}

export type SequenceTextFormat = "fasta" | "genbank";

/** Which format `text` is in, from its first non-blank line. */
export function detectFormat(text: string): SequenceTextFormat | undefined {
  const first = text.trimStart();
  if (first.startsWith(">")) return "fasta";
  if (first.startsWith("LOCUS")) return "genbank";
  return undefined;
}

export function parseFasta(text: string): ParsedSequence[] {
  const records: ParsedSequence[] = [];
  let current: { header: string; lines: string[] } | undefined;
  const finish = () => {
    if (!current) return;
    const name = current.header.trim().split(/\s+/)[0] ?? "";
    records.push({ name, bases: clean(current.lines.join("")) });
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith(">")) {
      finish();
      current = { header: line.slice(1), lines: [] };
    } else if (current && !line.startsWith(";")) current.lines.push(line);
  }
  finish();
  return records;
}

function clean(bases: string): string {
  return bases.replace(/[\s\d]+/g, "").toUpperCase();
}
