// Inputs of the writing tools: markdown text, and steps with the sections they are in.
import { z } from "zod";
import { boundedInteger } from "../../../core/inputs.js";
import { checkedText } from "../inputs.js";

export const MAX_STEPS = 300;
export const STEP_TEXT_CHARS = 20_000;
const FIELD_CHARS = 20_000;
const SECTION_CHARS = 200;

/** A rich-text field written in markdown. */
export function markdownField(description: string) {
  return checkedText({ description, max: FIELD_CHARS, multiline: true });
}

export const titleInput = checkedText({ description: "The protocol's title.", max: 250 });

export const stepText = checkedText({
  description: "What to do, in markdown.",
  max: STEP_TEXT_CHARS,
  multiline: true,
});

export const sectionInput = checkedText({
  description: "The section it opens or belongs to, e.g. 'Sample preparation'.",
  max: SECTION_CHARS,
});

const stepInput = z
  .strictObject({
    text: stepText,
    section: sectionInput
      .optional()
      .describe("Starts this section; left out, the step stays in the last one."),
  })
  .describe("A step.");

export const stepsInput = z
  .array(stepInput)
  .min(1, "must have at least one step")
  .max(MAX_STEPS, `must have at most ${MAX_STEPS} steps`)
  .describe("The steps in order, in markdown.");

export type StepInput = z.output<typeof stepInput>;

/** Each step with its section: given, or the one of the step before it (none before the first section). */
export function withSections(steps: readonly StepInput[]): Array<{ text: string; section: string | null }> {
  let section: string | null = null;
  return steps.map((step) => {
    section = step.section ?? section;
    return { text: step.text, section };
  });
}

export function stepNumberInput(description: string) {
  return boundedInteger({ description, min: 1, max: 10_000 });
}
