// GenBank flat files written from records: a LOCUS line that keeps a name of any length (the columns
// shift, as Biopython and NCBI's readers accept), the feature table with locations and qualifiers
// wrapped at 79 columns, and the numbered ORIGIN block.
import { formatLocation, type Segment } from "./location.js";

export interface WritableFeature {
  key: string;
  operator: "join" | "order" | undefined;
  segments: Segment[];
  qualifiers: Array<{ name: string; value: string | null }>;
}

export interface WritableRecord {
  /** The LOCUS name: one word. */
  locusName: string;
  definition: string;
  accession: string;
  isCircular: boolean;
  /** DD-MMM-YYYY */
  date: string;
  bases: string;
  features: WritableFeature[];
}

const WIDTH = 79;
const INDENT = " ".repeat(21);
/** Qualifiers whose values the format writes without quotes. */
const UNQUOTED = new Set([
  "codon_start",
  "transl_table",
  "number",
  "estimated_length",
  "rpt_type",
  "direction",
]);

export function writeGenBank(record: WritableRecord): string {
  const bases = record.bases.toLowerCase();
  const lines = [
    `LOCUS       ${record.locusName.padEnd(16)} ${String(bases.length).padStart(11)} bp    DNA     ${
      record.isCircular ? "circular" : "linear  "
    } SYN ${record.date}`,
    ...wrapped("DEFINITION  ", "            ", `${record.definition}.`),
    `ACCESSION   ${record.accession}`,
    `VERSION     ${record.accession}`,
    "KEYWORDS    .",
    "SOURCE      synthetic DNA construct",
    "  ORGANISM  synthetic DNA construct",
    "FEATURES             Location/Qualifiers",
    `     source          1..${bases.length}`,
    `${INDENT}/mol_type="other DNA"`,
    ...record.features.flatMap(featureLines),
    "ORIGIN",
  ];
  for (let i = 0; i < bases.length; i += 60) {
    const groups: string[] = [];
    for (let j = i; j < Math.min(i + 60, bases.length); j += 10) groups.push(bases.slice(j, j + 10));
    lines.push(`${String(i + 1).padStart(9)} ${groups.join(" ")}`);
  }
  lines.push("//");
  return lines.join("\n");
}

function featureLines(feature: WritableFeature): string[] {
  const location = formatLocation(feature);
  const lines = wrapLocation(`     ${feature.key.padEnd(16)}`, location);
  for (const { name, value } of feature.qualifiers) {
    if (value === null) lines.push(`${INDENT}/${name}`);
    else if (UNQUOTED.has(name) && /^[A-Za-z0-9.]+$/.test(value)) lines.push(`${INDENT}/${name}=${value}`);
    else
      lines.push(
        ...wrapped(INDENT, INDENT, `/${name}="${value.replaceAll('"', '""')}"`, name === "translation"),
      );
  }
  return lines;
}

/** A location over several lines, broken after its commas. */
function wrapLocation(first: string, location: string): string[] {
  const room = WIDTH - INDENT.length;
  if (location.length <= room) return [first + location];
  const lines: string[] = [];
  let line = "";
  for (const piece of location.split(/(?<=,)/)) {
    if (line && line.length + piece.length > room) {
      lines.push(line);
      line = "";
    }
    line += piece;
  }
  lines.push(line);
  return lines.map((text, i) => (i === 0 ? first : INDENT) + text);
}

/**
 * Text over lines of at most 79 columns, broken at spaces (readers join the lines with one). A word
 * longer than a line is broken only where spaces mean nothing (/translation); elsewhere it stays whole,
 * since a break inside it would read back as a space. A line never ends inside the value with a quote,
 * which a reader would take for the closing one.
 */
function wrapped(first: string, rest: string, text: string, breakWords = false): string[] {
  const room = WIDTH - first.length;
  if (text.length <= room) return [first + text];
  const lines: string[] = [];
  let line = "";
  const words = breakWords ? (text.match(new RegExp(`.{1,${room}}`, "g")) ?? []) : text.split(" ");
  const glue = breakWords ? "" : " ";
  for (const word of words) {
    const candidate = line ? `${line}${glue}${word}` : word;
    if (!line || candidate.length <= room) {
      line = candidate;
      continue;
    }
    // Break before the words that end in a quote, so the line ends elsewhere.
    let head = line;
    let tail = word;
    while (head.endsWith('"') && head.lastIndexOf(" ") > 0) {
      const cut = head.lastIndexOf(" ");
      tail = `${head.slice(cut + 1)} ${tail}`;
      head = head.slice(0, cut);
    }
    if (head.endsWith('"')) line = candidate;
    else {
      lines.push(head);
      line = tail;
    }
  }
  lines.push(line);
  return lines.map((text, i) => (i === 0 ? first : rest) + text);
}
