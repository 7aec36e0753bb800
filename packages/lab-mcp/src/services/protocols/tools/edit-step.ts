import { ActionableError } from "../../../core/errors.js";
import { defineTool } from "../../../core/tool.js";
import { sendSteps, wireSteps } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { sectionInput, stepNumberInput, stepText } from "../authoring/inputs.js";
import { stepsOutput, stepsReply } from "../authoring/replies.js";
import { draftJsOf } from "../authoring/rich-text-out.js";
import { assertOneList, checkedCurrent, merged, stepAt } from "../authoring/step-list.js";
import type { ProtocolsClient } from "../client.js";
import { protocolRef } from "../inputs.js";

export const editStep = defineTool({
  name: "protocols_edit_step",
  title: "Edit Draft Step",
  description:
    "Rewrite the text (markdown) or section of one step of your unpublished draft, by its number; what you leave " +
    "out stays. Returns the steps. Nothing is published.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    protocol: protocolRef("The draft's id (e.g. 12314) or uri."),
    step_number: stepNumberInput("The step to change (1 is the first)."),
    text: stepText.optional(),
    section: sectionInput.optional(),
  },
  output: stepsOutput,
  unavailable: authoringUnavailable,
  async handler({ protocol, step_number, text, section }, ctx, client: ProtocolsClient) {
    if (text === undefined && section === undefined) {
      throw new ActionableError("Nothing to change: give text, section or both.");
    }
    requireAuthoring(client, ctx);
    const current = await wireSteps(client, protocol, ctx);
    checkedCurrent(current);
    const step = stepAt(current, step_number);
    const changed = {
      ...step,
      ...(text !== undefined ? { step: draftJsOf(text) } : {}),
      ...(section !== undefined ? { section } : {}),
    };
    assertOneList(merged(current, [changed]), "editing the step");
    await sendSteps(client, protocol, [changed], ctx);
    return stepsReply(client, protocol, ctx, `Step ${step_number} changed`);
  },
});
