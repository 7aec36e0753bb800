// FASTA and GenBank text read into sequences to create: a name, the bases, the topology (GenBank's
// LOCUS line says it) and, for GenBank, the features with a plain or complement(start..end)
// location. Other locations (join, order, fuzzy ends) are skipped rather than guessed.

export interface ParsedSequence {
  name: string;
  bases: string;
  isCircular: boolean | undefined;
  /** 1-based, inclusive, as in GenBank. */
  features: Array<{ name: string; type: string; start: number; end: number; strand: "forward" | "reverse" }>;
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
    records.push({ name, bases: clean(current.lines.join("")), isCircular: undefined, features: [] });
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

const FEATURE_LINE = /^ {5}(\S+)\s+(\S.*)$/;
const QUALIFIER = /^ {21}\/(\w+)=?"?([^"]*)"?$/;
const PLAIN = /^<?(\d+)\.\.>?(\d+)$/;

export function parseGenBank(text: string): ParsedSequence[] {
  const records: ParsedSequence[] = [];
  for (const block of text.split(/^\/\/\s*$/m)) {
    const lines = block.split(/\r?\n/);
    const locus = lines.find((line) => line.startsWith("LOCUS"));
    if (!locus) continue;
    const name = locus.split(/\s+/)[1] ?? "";
    const isCircular = /\bcircular\b/i.test(locus) ? true : /\blinear\b/i.test(locus) ? false : undefined;
    const features: Array<ParsedSequence["features"][number] & { named: boolean }> = [];
    const sequence: string[] = [];
    let section = "";
    let feature: (ParsedSequence["features"][number] & { named: boolean }) | undefined;
    for (const line of lines) {
      if (/^[A-Z]/.test(line)) {
        section = line.split(/\s+/)[0] ?? "";
        continue;
      }
      if (section === "ORIGIN") sequence.push(line);
      if (section !== "FEATURES") continue;
      const start = FEATURE_LINE.exec(line);
      if (start) {
        feature = undefined;
        const location = (start[2] ?? "").trim();
        const complement = /^complement\((.*)\)$/.exec(location);
        const range = PLAIN.exec(complement ? (complement[1] ?? "") : location);
        if (range && start[1] !== "source") {
          feature = {
            name: start[1] ?? "feature",
            type: start[1] ?? "misc_feature",
            start: Number(range[1]),
            end: Number(range[2]),
            strand: complement ? "reverse" : "forward",
            named: false,
          };
          features.push(feature);
        }
        continue;
      }
      const qualifier = QUALIFIER.exec(line);
      if (
        feature &&
        qualifier &&
        !feature.named &&
        ["label", "gene", "product", "note"].includes(qualifier[1] ?? "")
      ) {
        feature.name = (qualifier[2] ?? "").trim() || feature.name;
        feature.named = true;
      }
    }
    records.push({
      name,
      bases: clean(sequence.join("")),
      isCircular,
      features: features.map(({ named: _named, ...rest }) => ({ ...rest, name: rest.name.slice(0, 200) })),
    });
  }
  return records;
}

function clean(bases: string): string {
  return bases.replace(/[\s\d]/g, "").toUpperCase();
}
