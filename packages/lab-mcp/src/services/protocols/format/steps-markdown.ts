// The steps of a protocol in order, under their section headings. Each step leads with its instruction;
// its annotations (safety, expected result, notes) follow while the step stays within STEP_CHARS, the
// rest named with the call that gives them; a long instruction is cut where a sentence ends. A step's
// text and section name were written by others: the text is quoted and the section named as such
// (core/untrusted-text.ts).
import { moreLine, shownRange } from "../../../core/page-reply.js";
import type { Page } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { OTHERS_WROTE, oneLine, quoted } from "../../../core/untrusted-text.js";
import type { Step } from "../records/protocols.js";
import { cutAtSentence, sortedStepText, stepText } from "./step-text.js";

export const STEP_CHARS = 1000;
/** What a step without text (one that only opens its section) reads as. */
const NO_TEXT = "(no text)";

export function stepNumber(step: Step, index: number): string {
  return step.number != null && String(step.number).trim() !== "" ? String(step.number) : String(index + 1);
}

/** A step as a page of steps shows it: the text shown, and what was left for step_number to give. */
export interface ShownStep {
  text: string;
  /** Annotations left out whole, by kind ("safety", "note"...), in their order. */
  left: string[];
  /** Whether the instruction itself was cut (at a sentence end). */
  cut: boolean;
}

/** The instruction (cut at a sentence end past STEP_CHARS), then each annotation that still fits whole. */
export function shownStep(text: string, max = STEP_CHARS): ShownStep {
  const { instruction, extras } = stepText(text);
  const head = cutAtSentence(instruction, max);
  const parts = [head.shown];
  const left: string[] = [];
  let used = head.shown.length;
  for (const extra of extras) {
    if (!head.cut && left.length === 0 && used + extra.text.length + 2 <= max) {
      parts.push(extra.text);
      used += extra.text.length + 2;
    } else left.push(extra.kind);
  }
  return { text: parts.filter(Boolean).join("\n\n"), left, cut: head.cut };
}

/** Our line after a step that was not shown whole: what is missing and how to read it. */
function restLine(shown: ShownStep, position: number): string | undefined {
  const kinds = [...new Set(shown.left)].join(", ");
  if (shown.cut) {
    return `(Cut at a sentence end; step_number=${position} gives the whole step${kinds ? `, with its ${kinds}` : ""}.)`;
  }
  return kinds ? `(Left for step_number=${position}: its ${kinds}.)` : undefined;
}

/** The envelope of a page of steps, which this markdown is written for. */
type StepsPage = Omit<Page<"steps", unknown>, "steps">;

/** The steps of `page` (a page of `steps`), with section headings where the section changes. */
export function stepsMarkdown(
  protocol: string,
  steps: Step[],
  page: StepsPage,
  { cut = true }: { cut?: boolean } = {},
): string {
  const { offset } = page;
  const shown = steps.slice(offset, offset + page.count);
  const lines: string[] = [];
  let section: string | null | undefined;
  shown.forEach((step, i) => {
    const index = offset + i;
    if (step.section && step.section !== section) {
      if (lines.at(-1) !== "") lines.push("");
      lines.push(heading(2, `Section: ${step.section}`), "");
    }
    section = step.section;
    const number = stepNumber(step, index);
    if (!step.step) {
      lines.push(`**Step ${oneLine(number)}.** ${NO_TEXT}`, "");
      return;
    }
    const view = cut ? shownStep(step.step) : { text: sortedStepText(step.step), left: [], cut: false };
    const rest = restLine(view, index + 1);
    lines.push(`**Step ${oneLine(number)}.**`, quoted(view.text), ...(rest ? [rest] : []), "");
  });
  return markdown(
    heading(1, `Steps of protocol ${protocol}`),
    `${steps.length} steps in all (${shownRange(page)})`,
    shown.some((step) => step.step) && OTHERS_WROTE,
    lines.join("\n").trim(),
    moreLine(page),
  );
}

/** One whole step: its instruction, then its annotations. */
export function stepMarkdown(protocol: string, steps: Step[], position: number): string {
  const step = steps[position - 1] as Step;
  return markdown(
    heading(1, `Step ${stepNumber(step, position - 1)} of protocol ${protocol}`),
    `Step ${position} of ${steps.length}${step.section ? `, section "${oneLine(step.section)}"` : ""}`,
    step.step ? [OTHERS_WROTE, quoted(sortedStepText(step.step))] : NO_TEXT,
    position < steps.length && `Next: step_number ${position + 1}.`,
  );
}
