// The steps of a protocol in order, under their section headings, long ones cut with a note saying
// how to read the whole step. A step's text and section name were written by others: the text is quoted
// and the section named as such (core/untrusted-text.ts).
import { moreLine, shownRange } from "../../../core/page-reply.js";
import type { Page } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { OTHERS_WROTE, oneLine, quoted, quotedCut } from "../../../core/untrusted-text.js";
import type { Step } from "../records/protocols.js";

export const STEP_CHARS = 1000;
/** What a step without text (one that only opens its section) reads as. */
const NO_TEXT = "(no text)";

export function stepNumber(step: Step, index: number): string {
  return step.number != null && String(step.number).trim() !== "" ? String(step.number) : String(index + 1);
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
    const howToGetTheRest = `step_number=${index + 1} gives the whole step`;
    const text = !step.step
      ? ` ${NO_TEXT}`
      : `\n${cut ? quotedCut(step.step, STEP_CHARS, howToGetTheRest) : quoted(step.step)}`;
    lines.push(`**Step ${oneLine(number)}.**${text}`, "");
  });
  return markdown(
    heading(1, `Steps of protocol ${protocol}`),
    `${steps.length} steps in all (${shownRange(page)})`,
    shown.some((step) => step.step) && OTHERS_WROTE,
    lines.join("\n").trim(),
    moreLine(page),
  );
}

/** One whole step, uncut. */
export function stepMarkdown(protocol: string, steps: Step[], position: number): string {
  const step = steps[position - 1] as Step;
  return markdown(
    heading(1, `Step ${stepNumber(step, position - 1)} of protocol ${protocol}`),
    `Step ${position} of ${steps.length}${step.section ? `, section "${oneLine(step.section)}"` : ""}`,
    step.step ? [OTHERS_WROTE, quoted(step.step)] : NO_TEXT,
    position < steps.length && `Next: step_number ${position + 1}.`,
  );
}
