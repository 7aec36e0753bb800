import { defineTool } from "../../../core/tool.js";
import { removeSteps, sendSteps, stepsToSend, wireSteps } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { stepsInput, withSections } from "../authoring/inputs.js";
import { stepsOutput, stepsReply } from "../authoring/replies.js";
import { checkedCurrent, replacement } from "../authoring/step-list.js";
import type { ProtocolsClient } from "../client.js";
import { protocolRef } from "../inputs.js";

export const setSteps = defineTool({
  name: "protocols_set_steps",
  title: "Set Draft Steps",
  description:
    "Replace ALL steps of your unpublished draft with the list given, in order (markdown); steps beyond it are " +
    "deleted. For one step use protocols_edit_step or protocols_insert_step. Nothing is published.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    protocol: protocolRef("The draft's id (e.g. 12314) or uri."),
    steps: stepsInput,
  },
  output: stepsOutput,
  unavailable: authoringUnavailable,
  async handler({ protocol, steps }, ctx, client: ProtocolsClient) {
    requireAuthoring(client, ctx);
    const current = await wireSteps(client, protocol, ctx);
    checkedCurrent(current);
    const plan = replacement(current, await stepsToSend(withSections(steps)));
    await sendSteps(client, protocol, plan.send, ctx);
    await removeSteps(client, protocol, plan.remove, ctx);
    return stepsReply(client, protocol, ctx, `Steps set: ${steps.length}`);
  },
});
