import { boundedInteger } from "../../../core/inputs.js";
import { defineTool } from "../../../core/tool.js";
import { sendSteps, stepToSend, wireSteps } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { sectionInput, stepText } from "../authoring/inputs.js";
import { stepsOutput, stepsReply } from "../authoring/replies.js";
import { checkedCurrent, insertion } from "../authoring/step-list.js";
import type { ProtocolsClient } from "../client.js";
import { protocolRef } from "../inputs.js";

export const insertStep = defineTool({
  name: "protocols_insert_step",
  title: "Insert Draft Step",
  description:
    "Insert one step into your unpublished draft after step after_step (0: first); the steps after it move down " +
    "one. It joins the section of the step before it unless you name one. Returns the steps. Nothing is published.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    protocol: protocolRef("The draft's id (e.g. 12314) or uri."),
    after_step: boundedInteger({
      description: "The new step goes after this step number; 0 puts it first.",
      min: 0,
      max: 10_000,
    }),
    text: stepText,
    section: sectionInput.optional(),
  },
  output: stepsOutput,
  unavailable: authoringUnavailable,
  async handler({ protocol, after_step, text, section }, ctx, client: ProtocolsClient) {
    requireAuthoring(client, ctx);
    const current = await wireSteps(client, protocol, ctx);
    checkedCurrent(current);
    const neighbour = current[after_step - 1] ?? current[0];
    const send = insertion(current, after_step, stepToSend(text, section ?? neighbour?.section ?? null));
    await sendSteps(client, protocol, send, ctx);
    return stepsReply(client, protocol, ctx, `Step inserted as step ${after_step + 1}`);
  },
});
