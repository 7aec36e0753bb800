// A step as a scientist reads it: its instruction first, then what annotates it (safety notes, expected
// results, notes, troubleshooting) and never an empty field; a long step cut only where a sentence ends.
// Step text is written by others: this sorts and cuts it, the caller quotes it.

/** What annotates a step, by the label its paragraph starts with; our word for each kind. */
const EXTRA_LABELS: Array<[RegExp, string]> = [
  [/^safety(?: information| notes?| warnings?)?$|^caution$|^warning$|^hazards?$/i, "safety"],
  [/^expected results?$|^results?$/i, "expected result"],
  [/^notes?(?: on .{1,40})?$|^comments?$|^tips?$/i, "note"],
  [/^troubleshooting$/i, "troubleshooting"],
  [/^alternatives?$/i, "alternative"],
];

/** A paragraph's label: up to the first ":" (markdown emphasis around it allowed), or a bold line of its own. */
const LABELLED = /^\s*(?:[*_]{1,2})?([^:*_\n]{2,60}?)(?:[*_]{1,2})?\s*(?::|\n|$)\s*(?:[*_]{1,2})?/;

export interface StepExtra {
  /** Our word for it: "safety", "expected result", "note", "troubleshooting", "alternative". */
  kind: string;
  /** The paragraph as written, its label included. */
  text: string;
}

export interface StepText {
  /** What to do: the paragraphs that are not annotations, in their order. */
  instruction: string;
  /** The annotations, in their order; empty ones (a label and nothing else) left out. */
  extras: StepExtra[];
}

function kindOf(paragraph: string): { kind: string; empty: boolean } | undefined {
  const match = LABELLED.exec(paragraph);
  if (!match) return undefined;
  const label = (match[1] ?? "").trim();
  const kind = EXTRA_LABELS.find(([pattern]) => pattern.test(label))?.[1];
  if (!kind) return undefined;
  return { kind, empty: paragraph.slice(match[0].length).replace(/[\s*_.:-]/g, "") === "" };
}

/** A step's text sorted: the instruction, then its annotations. A step of annotations only keeps its order. */
export function stepText(text: string): StepText {
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ""))
    .filter((p) => p.trim() !== "");
  const instruction: string[] = [];
  const extras: StepExtra[] = [];
  for (const paragraph of paragraphs) {
    const kind = kindOf(paragraph);
    if (!kind) instruction.push(paragraph);
    else if (!kind.empty) extras.push({ kind: kind.kind, text: paragraph });
  }
  if (instruction.length === 0 && extras.length > 0) {
    const [first, ...rest] = extras;
    return { instruction: (first as StepExtra).text, extras: rest };
  }
  return { instruction: instruction.join("\n\n"), extras };
}

/** The step's text in reading order: the instruction, then each annotation. */
export function sortedStepText(text: string): string {
  const { instruction, extras } = stepText(text);
  return [instruction, ...extras.map((e) => e.text)].filter(Boolean).join("\n\n");
}

const sentences = new Intl.Segmenter("en", { granularity: "sentence" });
/** How far past the limit one sentence may run before it is cut between words. */
const LONGEST_SENTENCE = 4;

/**
 * The text up to `max` characters, cut where a sentence (or a line) ends: as many whole sentences as
 * fit, or the first one whole when it alone is longer (cut between words only past LONGEST_SENTENCE
 * times `max`, a table or a list without full stops). `cut` says whether anything was left out.
 */
export function cutAtSentence(text: string, max: number): { shown: string; cut: boolean } {
  if (text.length <= max) return { shown: text, cut: false };
  let end = 0;
  for (const { index, segment } of sentences.segment(text)) {
    const after = index + segment.length;
    if (after > max) {
      if (end === 0) end = after <= max * LONGEST_SENTENCE ? after : wordEnd(text, max * LONGEST_SENTENCE);
      break;
    }
    end = after;
  }
  const shown = text.slice(0, end).trimEnd();
  return { shown, cut: shown.length < text.trimEnd().length };
}

function wordEnd(text: string, max: number): number {
  const space = text.lastIndexOf(" ", max);
  return space > 0 ? space : max;
}
